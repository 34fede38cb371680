/* Demonstrates the planted bug of buggy/verify.c: ./verify_bugs reach
 * runs the program on the inputs 1, 2, 2. */
#include "selftest.h"

static const int inputs[] = {1, 2, 2};
static int input_next;

int __VERIFIER_nondet_int(void)
{
    return input_next < 3 ? inputs[input_next++] : 0;
}

/* verify.c's reach_error() calls abort(): say so first. */
static void reached(void)
{
    printf("reach_error() reached with the inputs 1, 2, 2\n");
    fflush(stdout);
    _Exit(3);
}
#define abort reached
#define main verify_main
#include "../buggy/verify.c"
#undef main
#undef abort

int main(int argc, char **argv)
{
    if (argc < 2 || strcmp(argv[1], "reach") != 0) {
        fprintf(stderr, "usage: verify_bugs reach\n");
        return 2;
    }
    return verify_main();
}
