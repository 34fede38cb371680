/* A Test-Comp style program with a direction no input takes: the two
 * conditions on x cannot both hold, which the symbolic search proves by
 * exploring every path to it. */
extern int __VERIFIER_nondet_int(void);
extern void abort(void);
void reach_error(void) { abort(); }

int main(void)
{
    int x = __VERIFIER_nondet_int();
    if (x > 0 && x < 0)
        reach_error();
    return x > 5;
}
