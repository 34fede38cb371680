/* Demonstrates the planted bug of buggy/intset.c: ./intset_bugs get */
#include "selftest.h"
#include "../buggy/intset.c"

int main(int argc, char **argv)
{
    struct intset *is = intset_new();
    int64_t v = 0, k;
    int added;

    if (argc < 2 || strcmp(argv[1], "get") != 0) {
        fprintf(stderr, "usage: intset_bugs get\n");
        return 2;
    }
    for (k = 1; k <= 3; k++)
        is = intset_add(is, k, &added);
    /* Documented: returns 0 when pos is out of range.  The assertion fires. */
    printf("intset_get(is, 3, &v) on a set of 3 elements\n");
    fflush(stdout);
    printf("returned %d\n", intset_get(is, intset_len(is), &v));
    intset_free(is);
    return 0;
}
