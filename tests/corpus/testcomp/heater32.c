/* A Test-Comp style program over doubles, for ILP32 as most float tasks
 * of sv-benchmarks declare: the symbolic search does not take floating
 * point under ILP32 (x87 arithmetic), so its suite comes from native runs. */
extern double __VERIFIER_nondet_double(void);
extern int __VERIFIER_nondet_int(void);
extern void abort(void);
void reach_error(void) { abort(); }

int main(void)
{
    double target = __VERIFIER_nondet_double();
    int steps = __VERIFIER_nondet_int();
    double temperature = 15.0;
    /* A NaN: only the default one fits a test, which the runs then draw. */
    if (target != target)
        return 4;
    if (target < 5.0 || target > 30.0)
        return 1;
    if (steps < 0 || steps > 1000)
        return 2;
    while (steps-- > 0) {
        if (temperature < target)
            temperature += 0.5;
        else
            temperature -= 0.25;
    }
    if (temperature > 31.0)
        reach_error();
    return temperature > target ? 3 : 0;
}
