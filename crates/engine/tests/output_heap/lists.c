/* Functions that build or extend linked lists: the output heap the driver
   checks (allocated objects reached from the result, the inputs, globals). */
#include <stdlib.h>

struct node {
    int key;
    struct node *next;
};

/* A two-node list 1 -> 2 (NULL when an allocation fails). */
struct node *pair(void)
{
    struct node *first = malloc(sizeof *first);
    if (first == NULL)
        return NULL;
    struct node *second = malloc(sizeof *second);
    if (second == NULL) {
        free(first);
        return NULL;
    }
    first->key = 1;
    first->next = second;
    second->key = 2;
    second->next = NULL;
    return first;
}

/* Inserts `key` behind the first node of `*head` (or as the head). */
int insert_second(struct node **head, int key)
{
    struct node *fresh = malloc(sizeof *fresh);
    if (fresh == NULL)
        return -1;
    fresh->key = key;
    if (*head == NULL) {
        fresh->next = NULL;
        *head = fresh;
        return 0;
    }
    fresh->next = (*head)->next;
    (*head)->next = fresh;
    return 1;
}

struct registry {
    int count;
    struct node *list;
};

struct registry reg;

/* Pushes a node holding `key` onto the global list. */
void remember(int key)
{
    struct node *fresh = malloc(sizeof *fresh);
    if (fresh == NULL)
        return;
    fresh->key = key;
    fresh->next = reg.list;
    reg.list = fresh;
}

/* `n` ints 0, 10, 20... in a fresh array through an out-parameter. */
int fill(int **out, int n)
{
    if (n != 3)
        return 0;
    int *cells = malloc(3 * sizeof *cells);
    if (cells == NULL)
        return 0;
    for (int i = 0; i < 3; i++)
        cells[i] = i * 10;
    *out = cells;
    return 3;
}

/* Untyped bytes: the result is reached through `void *`. */
void *bytes(void)
{
    unsigned char *p = malloc(3);
    if (p == NULL)
        return NULL;
    p[0] = 7;
    p[1] = 8;
    p[2] = 9;
    return p;
}

/* A freed node's address written into the input: not checked. */
void dangling(struct node *n)
{
    struct node *gone = malloc(sizeof *gone);
    if (gone == NULL)
        return;
    free(gone);
    n->next = gone;
}

struct ends {
    struct node *first;
    struct node *last;
};

/* A struct returned by value whose members point to fresh nodes. */
struct ends two_ends(int key)
{
    struct ends e = {NULL, NULL};
    struct node *n = malloc(sizeof *n);
    if (n == NULL)
        return e;
    n->key = key;
    n->next = NULL;
    e.first = n;
    e.last = n;
    return e;
}

/* A fresh table of two node pointers, each to a fresh node. */
struct node **table(void)
{
    struct node **t = malloc(2 * sizeof *t);
    if (t == NULL)
        return NULL;
    for (int i = 0; i < 2; i++) {
        t[i] = malloc(sizeof **t);
        if (t[i] == NULL)
            return NULL; /* leaks: not what this test is about */
        t[i]->key = i;
        t[i]->next = NULL;
    }
    return t;
}
