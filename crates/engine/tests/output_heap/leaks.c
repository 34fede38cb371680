/* Allocations lost or kept when the function returns. */
#include <stdlib.h>

struct node {
    int key;
    struct node *next;
};

/* Leaks its block when `x` is negative. */
int early_return(int x)
{
    int *p = malloc(sizeof *p);
    if (p == NULL)
        return 0;
    if (x < 0)
        return -1;
    free(p);
    return 0;
}

/* A chain of two nodes kept only by a local: both leak. */
int lost_chain(int x)
{
    struct node *a = malloc(sizeof *a);
    if (a == NULL)
        return 0;
    struct node *b = malloc(sizeof *b);
    if (b == NULL) {
        free(a);
        return 0;
    }
    a->next = b;
    b->next = NULL;
    if (x > 0)
        return 1;
    free(b);
    free(a);
    return 0;
}

/* The second node stays reachable through the first, which is returned. */
struct node *kept_chain(void)
{
    struct node *a = malloc(sizeof *a);
    if (a == NULL)
        return NULL;
    struct node *b = malloc(sizeof *b);
    if (b == NULL) {
        free(a);
        return NULL;
    }
    a->key = 1;
    a->next = b;
    b->key = 2;
    b->next = NULL;
    return a;
}

/* Stored in the input node: not a leak. */
void attach(struct node *n)
{
    struct node *fresh = malloc(sizeof *fresh);
    if (fresh == NULL)
        return;
    fresh->key = 5;
    fresh->next = NULL;
    n->next = fresh;
}

/* Declared only: the registry may keep what it is given. */
void registry_add(struct node *n);

/* Handed to a function without a body: not a leak. */
int hand_over(int key)
{
    struct node *fresh = malloc(sizeof *fresh);
    if (fresh == NULL)
        return -1;
    fresh->key = key;
    fresh->next = NULL;
    registry_add(fresh);
    return 0;
}
