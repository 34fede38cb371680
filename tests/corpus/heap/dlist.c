/* Doubly linked and circular lists. */
#include <stddef.h>
#include <stdlib.h>

struct dnode {
    int value;
    struct dnode *prev;
    struct dnode *next;
};

/* Links `fresh` (not in any list) right after `pos`.  Returns -1 when the
   list around `pos` is inconsistent (its successor does not point back). */
int dlist_insert_after(struct dnode *pos, struct dnode *fresh)
{
    if (pos == NULL || fresh == NULL)
        return -1;
    if (pos->next != NULL && pos->next->prev != pos)
        return -1;
    fresh->prev = pos;
    fresh->next = pos->next;
    if (pos->next != NULL)
        pos->next->prev = fresh;
    pos->next = fresh;
    return 0;
}

/* Unlinks `victim` from its list, updating *head when it was the first
   node.  Returns -1 when a neighbour's back pointer is inconsistent. */
int dlist_unlink(struct dnode **head, struct dnode *victim)
{
    if (victim->prev != NULL) {
        if (victim->prev->next != victim)
            return -1;
        victim->prev->next = victim->next;
    } else {
        if (*head != victim)
            return -1;
        *head = victim->next;
    }
    if (victim->next != NULL) {
        if (victim->next->prev != victim)
            return -1;
        victim->next->prev = victim->prev;
    }
    victim->prev = NULL;
    victim->next = NULL;
    return 0;
}

struct cnode {
    int value;
    struct cnode *next;
};

/* Circular singly linked list given by its last node (whose next is the
   first).  Rotates left by `steps`: returns the new last node. */
struct cnode *clist_rotate(struct cnode *last, int steps)
{
    if (last == NULL || steps <= 0)
        return last;
    for (int i = 0; i < steps; i++) {
        last = last->next;
        if (last->next == last)
            break;
    }
    return last;
}

/* Josephus elimination: n people in a circle numbered 1..n, every k-th is
   removed.  Returns the survivor, or -1 for bad arguments or no memory. */
int josephus(int n, int k)
{
    if (n <= 0 || k <= 0 || n > 8)
        return -1;
    struct cnode *last = NULL;
    for (int i = 1; i <= n; i++) {
        struct cnode *person = malloc(sizeof *person);
        if (person == NULL) {
            while (last != NULL) {
                struct cnode *first = last->next;
                if (first == last) {
                    free(first);
                    last = NULL;
                } else {
                    last->next = first->next;
                    free(first);
                }
            }
            return -1;
        }
        person->value = i;
        if (last == NULL) {
            person->next = person;
        } else {
            person->next = last->next;
            last->next = person;
        }
        last = person;
    }
    struct cnode *before = last;
    while (before->next != before) {
        for (int step = 1; step < k; step++)
            before = before->next;
        struct cnode *out = before->next;
        before->next = out->next;
        free(out);
    }
    int survivor = before->value;
    free(before);
    return survivor;
}
