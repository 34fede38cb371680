/* A Test-Comp style program over a long input stream: 100,000 readings
 * are stored, then counted. Only a run over the whole stream reaches the
 * branches after the loops; the symbolic search is cut long before. */
extern int __VERIFIER_nondet_int(void);
extern void abort(void);
void reach_error(void) { abort(); }

#define READINGS 100000
static int readings[READINGS];

int main(void)
{
    int i, high = 0, negative = 0;
    for (i = 0; i < READINGS; i++)
        readings[i] = __VERIFIER_nondet_int();
    for (i = 0; i < READINGS; i++) {
        if (readings[i] > 1000)
            high++;
        else if (readings[i] < 0)
            negative++;
    }
    if (high > 0 && negative > 0) {
        /* Either way about as often, and only after the whole stream. */
        if (readings[READINGS - 1] > readings[0])
            return 3;
        return 2;
    }
    return negative > 0 ? 1 : 0;
}
