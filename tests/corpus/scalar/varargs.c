/* Variadic functions: va_start, va_arg, va_copy, va_end, a va_list
 * forwarded to a helper, and printf-family calls beside them. A variadic
 * function under test gets its extra arguments from the test, typed by how
 * its path reads them. */
#include <stdarg.h>
#include <stdio.h>

int sum_ints(int n, ...)
{
    va_list ap;
    int total = 0;
    va_start(ap, n);
    for (int i = 0; i < n && i < 4; i++) {
        int v = va_arg(ap, int);
        if (v < -1000)
            return -1;
        if (v < 0)
            total -= v;
        else
            total += v % 100;
    }
    va_end(ap);
    return total;
}

/* Walks a format of 'd' (int), 'l' (long), 'f' (double) and 's' (char *),
 * adding a score per argument read. */
long log_format(const char *fmt, ...)
{
    va_list ap;
    long score = 0;
    va_start(ap, fmt);
    for (int i = 0; i < 3 && fmt[i] != '\0'; i++) {
        switch (fmt[i]) {
        case 'd':
            if (va_arg(ap, int) == 7)
                score += 1;
            break;
        case 'l':
            if (va_arg(ap, long) > 100000L)
                score += 10;
            break;
        case 'f':
            if (va_arg(ap, double) > 0.5)
                score += 100;
            break;
        case 's': {
            const char *s = va_arg(ap, const char *);
            if (s != 0 && s[0] == 'x')
                score += 1000;
            break;
        }
        default:
            return -1;
        }
    }
    va_end(ap);
    return score;
}

static int largest_of(int n, va_list ap)
{
    int best = 0;
    for (int i = 0; i < n && i < 3; i++) {
        int v = va_arg(ap, int);
        if (i == 0 || v > best)
            best = v;
    }
    return best;
}

int max_of(int n, ...)
{
    va_list ap;
    va_start(ap, n);
    int best = largest_of(n, ap);
    va_end(ap);
    return best;
}

/* Walks its arguments twice: once to count the positive ones, once to
 * sum them. */
int count_then_sum(int n, ...)
{
    va_list ap, again;
    va_start(ap, n);
    va_copy(again, ap);
    int positive = 0;
    for (int i = 0; i < n && i < 3; i++)
        if (va_arg(ap, int) > 0)
            positive++;
    va_end(ap);
    int total = 0;
    for (int i = 0; i < n && i < 3; i++)
        total += va_arg(again, int) & 0xff;
    va_end(again);
    if (positive == n)
        return total;
    return -total;
}

/* Callers in the file: each call builds the argument area. */
int mean_of_three(int a, int b, int c)
{
    int s = sum_ints(3, a, b, c);
    if (s > 150)
        return s / 3;
    return max_of(3, a, b, c);
}

int describe(int code, char *buf)
{
    long score = log_format("dfs", code, 0.75, "xy");
    if (score > 1100)
        return snprintf(buf, 16, "hit %d", code);
    return snprintf(buf, 16, "miss");
}
