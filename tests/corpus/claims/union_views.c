/* A node seen through one of two views of a union, as libraries that
 * share a header among node kinds write it. */
#include <stddef.h>

struct node {
    union {
        struct {
            struct node *parent;
            const char *name;
        } plain;
        struct {
            struct node *parent;
            const char *target;
        } augment;
    } as;
    int kind;
};

/* Whether an augment names its target. */
int names_target(const struct node *n)
{
    if (n->kind != 2)
        return -1;
    if (n->as.augment.target == NULL)
        return 0;
    return 1;
}
