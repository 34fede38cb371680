#include <stdarg.h>

static int vsum(int n, va_list ap)
{
    int s = 0;
    for (int i = 0; i < n; i++)
        s += va_arg(ap, int);
    return s;
}

int sum(int n, ...)
{
    va_list ap, again;
    va_start(ap, n);
    va_copy(again, ap);
    double d = va_arg(again, double);
    int s = vsum(n, ap);
    va_end(again);
    va_end(ap);
    return d > 0 ? s : -s;
}

int caller(char c, float f)
{
    return sum(2, c, f);
}
