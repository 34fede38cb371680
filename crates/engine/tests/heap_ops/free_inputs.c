/* free of input objects: the driver allocates every input object with
   malloc, so the function may free it. */
#include <stddef.h>
#include <stdlib.h>

struct node {
    int key;
    struct node *next;
};

/* Frees the node when there is one. */
int drop(struct node *n)
{
    if (n != NULL) {
        free(n);
        return 1;
    }
    return 0;
}

/* Frees its argument before anything decided whether it is NULL. */
void drop_unchecked(struct node *n)
{
    free(n);
}

/* Frees the same input twice when it is not NULL. */
int free_twice(int *p)
{
    free(p);
    if (p != NULL) {
        free(p);
        return 1;
    }
    return 0;
}

/* Frees two nodes, which may be the same one. */
int free_both(struct node *a, struct node *b)
{
    if (a == NULL || b == NULL)
        return 0;
    free(a);
    free(b);
    return 1;
}

/* Reads the key of a node it freed. */
int read_after_free(struct node *n)
{
    if (n == NULL)
        return 0;
    free(n);
    return n->key;
}

/* Frees element i of an input array: only the first one is a block. */
int free_element(int *a, int i)
{
    if (a == NULL || i < 0 || i > 3)
        return -1;
    free(a + i);
    return i;
}

/* Frees the address of a local. */
int free_local(int x)
{
    int y = x;
    free(&y);
    return y;
}

/* Unlinks and frees the first node; the branches after the free need
   the rest of the list. */
int pop_front(struct node **head)
{
    struct node *first = *head;
    if (first == NULL)
        return -1;
    *head = first->next;
    free(first);
    if (*head == NULL)
        return 0;
    return (*head)->key > 0 ? 2 : 1;
}

/* Removes adjacent duplicates, freeing them: only a cyclic list (outside
   the function's domain) makes it come back to a freed node. */
int remove_duplicates(struct node *head)
{
    int removed = 0;
    struct node *p = head;
    while (p != NULL && p->next != NULL) {
        if (p->key == p->next->key) {
            struct node *dup = p->next;
            p->next = dup->next;
            free(dup);
            removed++;
        } else {
            p = p->next;
        }
    }
    return removed;
}

/* No branch at all: only running every path finds the second free. */
void release_twice(int *p)
{
    free(p);
    free(p);
}

/* Both arms of the test come after the use after free. */
int branch_after_free(struct node *n)
{
    if (n == NULL)
        return 0;
    free(n);
    if (n->key > 0)
        return 1;
    return 2;
}
