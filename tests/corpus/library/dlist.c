/* dlist - a generic doubly linked list of long values.
 *
 * A list owns its nodes.  The length is kept in the list header, so
 * dlist_length() is O(1); dlist_index() uses it to walk from whichever end
 * is nearer, and dlist_destroy() frees exactly `len` nodes. */
#include <stddef.h>
#include <stdlib.h>

#include "corpus_check.h"

struct dnode {
    struct dnode *prev;
    struct dnode *next;
    long value;
};

struct dlist {
    struct dnode *head;
    struct dnode *tail;
    unsigned long len;
};

/* Iteration directions. */
#define DLIST_START_HEAD 0
#define DLIST_START_TAIL 1

struct dlist_iter {
    struct dnode *next;
    int direction;
};

/* Debug check: 1 iff `l` is a well-formed list.  The walk along `next`
 * checks every back pointer, so it can never come back to a node it has
 * seen (that node's `prev` would have to be two different nodes), and it
 * stops as soon as it has seen more than `len` nodes: it terminates on any
 * input, cyclic or not. */
/* cairn: invariant struct dlist=dlist_is_valid */
int dlist_is_valid(const struct dlist *l)
{
    const struct dnode *n;
    const struct dnode *prev = NULL;
    unsigned long count = 0;

    if (l == NULL)
        return 0;
    if (l->head == NULL || l->tail == NULL)
        return l->head == NULL && l->tail == NULL && l->len == 0;
    for (n = l->head; n != NULL; n = n->next) {
        if (n->prev != prev)
            return 0;
        if (++count > l->len)
            return 0;
        prev = n;
    }
    return prev == l->tail && count == l->len;
}

/* 1 iff `node` is one of the nodes of `l` (a valid list). */
int dlist_contains(const struct dlist *l, const struct dnode *node)
{
    const struct dnode *n = l->head;
    unsigned long i;

    for (i = 0; i < l->len && n != NULL; i++, n = n->next)
        if (n == node)
            return 1;
    return 0;
}

/* A new empty list, or NULL when out of memory. */
struct dlist *dlist_create(void)
{
    struct dlist *l = malloc(sizeof *l);

    if (l == NULL)
        return NULL;
    l->head = NULL;
    l->tail = NULL;
    l->len = 0;
    return l;
}

/* Frees the list and all its nodes.  NULL is allowed. */
void dlist_destroy(struct dlist *l)
{
    struct dnode *n, *next;
    unsigned long len;

    if (l == NULL)
        return;
    EXPECT_VALID(dlist_is_valid, l);
    n = l->head;
    len = l->len;
    while (len--) {
        next = n->next;
        free(n);
        n = next;
    }
    free(l);
}

unsigned long dlist_length(const struct dlist *l)
{
    EXPECT_VALID(dlist_is_valid, l);
    return l->len;
}

static struct dnode *dnode_new(long value)
{
    struct dnode *n = malloc(sizeof *n);

    if (n == NULL)
        return NULL;
    n->prev = NULL;
    n->next = NULL;
    n->value = value;
    return n;
}

/* Adds `value` in front; returns its node, or NULL when out of memory
 * (the list is then unchanged). */
struct dnode *dlist_push_front(struct dlist *l, long value)
{
    struct dnode *n;

    EXPECT_VALID(dlist_is_valid, l);
    n = dnode_new(value);
    if (n == NULL)
        return NULL;
    if (l->len == 0) {
        l->head = l->tail = n;
    } else {
        n->next = l->head;
        l->head->prev = n;
        l->head = n;
    }
    l->len++;
    ENSURE_VALID(dlist_is_valid, l);
    return n;
}

/* Adds `value` at the end; returns its node, or NULL when out of memory. */
struct dnode *dlist_push_back(struct dlist *l, long value)
{
    struct dnode *n;

    EXPECT_VALID(dlist_is_valid, l);
    n = dnode_new(value);
    if (n == NULL)
        return NULL;
    if (l->len == 0) {
        l->head = l->tail = n;
    } else {
        n->prev = l->tail;
        l->tail->next = n;
        l->tail = n;
    }
    l->len++;
    ENSURE_VALID(dlist_is_valid, l);
    return n;
}

/* Adds `value` right after `pos`, a node of `l`; returns the new node, or
 * NULL when out of memory. */
struct dnode *dlist_insert_after(struct dlist *l, struct dnode *pos, long value)
{
    struct dnode *n;

    EXPECT_INPUT(dlist_is_valid(l) && dlist_contains(l, pos));
    n = dnode_new(value);
    if (n == NULL)
        return NULL;
    n->prev = pos;
    n->next = pos->next;
    if (pos->next != NULL)
        pos->next->prev = n;
    else
        l->tail = n;
    pos->next = n;
    l->len++;
    ENSURE_VALID(dlist_is_valid, l);
    return n;
}

/* Unlinks `node`, a node of `l`, and frees it. */
void dlist_remove(struct dlist *l, struct dnode *node)
{
    EXPECT_INPUT(dlist_is_valid(l) && dlist_contains(l, node));
    if (node->prev != NULL)
        node->prev->next = node->next;
    else
        l->head = node->next;
    if (node->next != NULL)
        node->next->prev = node->prev;
    else
        l->tail = node->prev;
    free(node);
    l->len--;
    ENSURE_VALID(dlist_is_valid, l);
}

/* The first node holding `value`, or NULL. */
struct dnode *dlist_find(const struct dlist *l, long value)
{
    struct dnode *n;

    EXPECT_VALID(dlist_is_valid, l);
    for (n = l->head; n != NULL; n = n->next)
        if (n->value == value)
            return n;
    return NULL;
}

/* The node at `index`: 0 is the head, 1 the next one, ...; -1 is the tail,
 * -2 the one before it, ...  NULL when the index is out of range.  Walks
 * from the nearer end. */
struct dnode *dlist_index(const struct dlist *l, long index)
{
    struct dnode *n;
    unsigned long pos, steps;

    EXPECT_VALID(dlist_is_valid, l);
    if (index < 0) {
        steps = (unsigned long)(-(index + 1));
        if (steps >= l->len)
            return NULL;
        pos = l->len - 1 - steps;
    } else {
        pos = (unsigned long)index;
        if (pos >= l->len)
            return NULL;
    }
    if (pos < l->len / 2) {
        n = l->head;
        for (steps = pos; steps > 0; steps--)
            n = n->next;
    } else {
        n = l->tail;
        for (steps = l->len - 1 - pos; steps > 0; steps--)
            n = n->prev;
    }
    return n;
}

/* Moves the tail to the front, `times` times (modulo the length). */
void dlist_rotate(struct dlist *l, unsigned long times)
{
    struct dnode *t;

    EXPECT_VALID(dlist_is_valid, l);
    if (l->len < 2)
        return;
    for (times %= l->len; times > 0; times--) {
        t = l->tail;
        l->tail = t->prev;
        l->tail->next = NULL;
        t->prev = NULL;
        t->next = l->head;
        l->head->prev = t;
        l->head = t;
    }
    ENSURE_VALID(dlist_is_valid, l);
}

/* Starts an iteration from the head (DLIST_START_HEAD) or from the tail.
 * The node dlist_iter_next() returned may be removed during the walk. */
void dlist_iter_init(const struct dlist *l, struct dlist_iter *it, int direction)
{
    EXPECT_VALID(dlist_is_valid, l);
    it->direction = direction;
    it->next = direction == DLIST_START_HEAD ? l->head : l->tail;
}

/* The next node of the iteration, or NULL at the end. */
struct dnode *dlist_iter_next(struct dlist_iter *it)
{
    struct dnode *current = it->next;

    if (current != NULL)
        it->next = it->direction == DLIST_START_HEAD ? current->next : current->prev;
    return current;
}
