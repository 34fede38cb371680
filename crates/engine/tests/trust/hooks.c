#include <stdlib.h>

static void *(*cell_alloc)(size_t) = malloc;
static int mode = 2;
static int hits;

int *make_cell(int v) {
    int *p = cell_alloc(sizeof *p);
    if (p == NULL)
        return NULL;
    *p = v;
    return p;
}

int in_mode(void) {
    if (mode == 2)
        return 1;
    return 0;
}

int count(void) {
    hits++;
    if (hits > 5)
        return 1;
    return 0;
}
