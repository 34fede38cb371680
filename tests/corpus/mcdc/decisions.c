/* Decisions of 2 to 6 conditions for MC/DC: short-circuit operators,
 * negations, conditions that share variables, coupled conditions, a macro,
 * decisions in loops, in `?:` and as values. */
#include <stddef.h>

#define IS_READY(d) ((d) != NULL && (d)->ready)

struct device {
    int ready;
    int mode;
    int errors;
};

/* Two conditions. */
int both_positive(int a, int b)
{
    return a > 0 && b > 0;
}

/* Three, mixed operators: each condition decides on its own. */
int admit(int age, int member, int guest)
{
    if ((age >= 18 && member) || guest)
        return 1;
    return 0;
}

/* Negated conditions and a negated decision. */
int refuse(int locked, int admin, int retries)
{
    if (!locked && !admin || retries == 0)
        return 2;
    if (!(locked && retries > 3))
        return 1;
    return 0;
}

/* Conditions over the same variables. */
int window(int x, int y)
{
    int r = 0;
    if (x > 0 && x < 10 && y != x)
        r += 1;
    if (x == 5 || y == 5 || x + y == 5)
        r += 2;
    return r;
}

/* Coupled: x > 10 implies x > 5, so x > 5 cannot decide alone. */
int coupled(int x, int y)
{
    return x > 10 && x > 5 && y != 3; /* infeasible: x > 5 is false only when x > 10 is */
}

/* Four conditions through a macro, on a struct. */
int usable(const struct device *d)
{
    return IS_READY(d) && (d->mode == 2 || d->errors == 0);
}

/* Six conditions in three pairs. */
int six(int a, int b, int c, int d, int e, int f)
{
    if ((a > 0 || b > 0) && (c == 1 || d == 2) && (e < 0 || f != 7))
        return 1;
    return 0;
}

/* Five conditions, all `||` then `&&`. */
int alarm_level(int smoke, int heat, int gas, int armed, int test_mode)
{
    if ((smoke || heat || gas) && armed && !test_mode)
        return 3;
    return 0;
}

/* Decisions in a loop condition and in `?:`. */
int count_in_range(const int *v, int n, int lo, int hi)
{
    int k = 0;
    for (int i = 0; i < n && i < 8; i++)
        k += (v[i] >= lo && v[i] <= hi) ? 1 : 0;
    return k;
}
