/* Self-test of verify.c (bug-free copy): runs the program's main on every
 * input sequence of up to 5 values drawn from a small set (with and
 * without a terminating 0) and on every allocation failure of some of
 * them; reach_error() must never be called and nothing may leak. */
#include "selftest.h"

static const int *inputs;
static int input_count, input_next;
static long errors_reached;

int __VERIFIER_nondet_int(void)
{
    return input_next < input_count ? inputs[input_next++] : 0;
}

/* verify.c's reach_error() calls abort(): count instead of dying. */
static void reached(void) { errors_reached++; }
#define abort reached
#define main verify_main
#include "../verify.c"
#undef main
#undef abort

static int run(const int *values, int n)
{
    inputs = values;
    input_count = n;
    input_next = 0;
    return verify_main();
}

int main(void)
{
    static const int domain[] = {1, 2, 3, -1, INT_MIN, INT_MAX};
    enum { D = sizeof domain / sizeof *domain };
    int seq[6], n, i, total, fail;
    long runs = 0;

    for (n = 0; n <= 5; n++) {
        for (total = 1, i = 0; i < n; i++)
            total *= D;
        while (total-- > 0) {
            int code = total;

            for (i = 0; i < n; i++) {
                seq[i] = domain[code % D];
                code /= D;
            }
            CHECK(run(seq, n) == 0);
            runs++;
            if (n < 5) {
                seq[n] = 0; /* an explicit 0 ends the input too */
                CHECK(run(seq, n + 1) == 0);
                runs++;
            }
            if (n == 5) { /* nothing after the first 5 values is read */
                seq[5] = 7;
                CHECK(run(seq, 6) == 0 && input_next == 5);
                runs++;
            }
            /* Each allocation failing in turn: exit code 1, nothing left. */
            if (n <= 3 || total % 97 == 0)
                for (fail = 0; fail < n; fail++) {
                    st_fail_after = fail;
                    CHECK(run(seq, n) == 1 || st_fail_after >= 0);
                    st_fail_after = -1;
                    runs++;
                }
        }
    }
    CHECK(errors_reached == 0);
    printf("verify: %ld runs of main\n", runs);
    return st_finish("verify");
}
