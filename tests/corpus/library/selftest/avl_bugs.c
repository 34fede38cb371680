/* Demonstrates the planted bug of buggy/avl.c: ./avl_bugs rotate */
#include "selftest.h"
#include "../buggy/avl.c"

int main(int argc, char **argv)
{
    struct avl_tree *t = avl_create();
    int k, valid;

    if (argc < 2 || strcmp(argv[1], "rotate") != 0) {
        fprintf(stderr, "usage: avl_bugs rotate\n");
        return 2;
    }
    /* Inserting 1, 2, 3 rotates left at 1: the heights come out wrong. */
    for (k = 1; k <= 3; k++)
        avl_insert(t, k);
    valid = avl_is_valid(t);
    printf("avl_is_valid after inserting 1, 2, 3: %d\n", valid);
    printf("height of a 3-node tree: %d (should be 2)\n", avl_height(t));
    avl_destroy(t);
    return valid ? 0 : 1;
}
