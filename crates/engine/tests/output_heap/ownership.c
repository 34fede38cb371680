/* Functions that take ownership of input nodes (free or realloc them). */
#include <stdlib.h>

struct node {
    int key;
    struct node *next;
};

/* Frees the first node and returns the rest. */
struct node *pop(struct node *head)
{
    if (head == NULL)
        return NULL;
    struct node *rest = head->next;
    free(head);
    return rest;
}

/* Moves the node to a new block holding key 7. */
struct node *renew(struct node *n)
{
    if (n == NULL)
        return NULL;
    struct node *m = realloc(n, sizeof *m);
    if (m == NULL)
        return n;
    m->key = 7;
    return m;
}

/* Links a fresh node into `n`, then frees `n`: the fresh node is lost. */
void stash_then_free(struct node *n)
{
    struct node *fresh = malloc(sizeof *fresh);
    if (fresh == NULL)
        return;
    fresh->key = 1;
    fresh->next = NULL;
    n->next = fresh;
    free(n);
}
