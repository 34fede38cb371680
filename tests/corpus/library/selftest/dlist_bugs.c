/* Demonstrates the planted bugs of buggy/dlist.c: ./dlist_bugs SCENARIO */
#include "selftest.h"
#include "../buggy/dlist.c"

static struct dlist *list_of(long n)
{
    struct dlist *l = dlist_create();
    long i;

    for (i = 1; i <= n; i++)
        dlist_push_back(l, i);
    return l;
}

int main(int argc, char **argv)
{
    struct dlist *l;
    struct dnode *n, *next;
    int valid;
    const char *scenario = argc > 1 ? argv[1] : "";

    if (strcmp(scenario, "index") == 0) {
        /* Off by one: index == len walks from the tail off the head. */
        l = list_of(3);
        printf("dlist_index(l, 3) on a list of 3\n");
        fflush(stdout);
        printf("got %p\n", (void *)dlist_index(l, 3)); /* crashes */
        dlist_destroy(l);
        return 0;
    }
    if (strcmp(scenario, "len") == 0) {
        /* Missed len update: the structure is broken after the call, the
         * next call sees it, and the length is observably wrong. */
        l = list_of(2);
        dlist_remove(l, l->head);
        printf("dlist_is_valid after remove: %d\n", dlist_is_valid(l));
        printf("dlist_length after removing 1 of 2 nodes: %lu\n", dlist_length(l));
        valid = dlist_is_valid(l);
        for (n = l->head; n != NULL; n = next) { /* dlist_destroy would crash */
            next = n->next;
            free(n);
        }
        free(l);
        return valid ? 0 : 1;
    }
    if (strcmp(scenario, "len-destroy") == 0) {
        /* ... and dlist_destroy, which frees `len` nodes, runs off the end. */
        l = list_of(2);
        dlist_remove(l, l->head);
        dlist_destroy(l); /* crashes */
        return 0;
    }
    fprintf(stderr, "usage: dlist_bugs index|len|len-destroy\n");
    return 2;
}
