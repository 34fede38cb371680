/* A Test-Comp style program whose branches are mostly in the functions
 * main calls: a scaling helper only ever given a positive factor (its
 * negative-factor branch no input takes), an assertion that holds (its
 * error branch no input takes), and a code check that one computed value
 * passes (which random values and the code's constants miss). */
extern int __VERIFIER_nondet_int(void);
extern void abort(void);
void reach_error(void) { abort(); }

static void check(int ok)
{
    if (!ok)
        reach_error();
}

static int clamp(int v, int lo, int hi)
{
    if (v < lo)
        return lo;
    if (v > hi)
        return hi;
    return v;
}

static int scaled(int v, int factor)
{
    if (factor < 0)
        return -v * -factor;
    return v * factor;
}

static int unlocks(int code)
{
    if (code * 3 + 7 == 221770)
        return 1;
    return 0;
}

int main(void)
{
    int level = clamp(__VERIFIER_nondet_int(), 0, 100);
    check(level >= 0 && level <= 100);
    int power = scaled(level, 4);
    int code = __VERIFIER_nondet_int();
    if (code < 0 || code > 1000000)
        return 1;
    return unlocks(code) + power;
}
