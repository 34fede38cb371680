/* A verification task in the style of SV-COMP's heap programs.
 *
 * The program reads up to MAX_INPUTS nondeterministic integers (a 0 ends
 * the input early) and inserts each into a sorted singly linked list that
 * keeps one cell per distinct value.  It then checks that the list is
 * strictly increasing, holds every value read and no more cells than values
 * read; reach_error() is called when one of these fails.  In this version
 * (buggy/) the inputs 1, 2, 2 reach it.  Running out of memory is not an
 * error: the program then frees what it built and exits with 1. */
#include <stdlib.h>

#include "../corpus_check.h"

extern int __VERIFIER_nondet_int(void);

void reach_error(void) { abort(); }

#define MAX_INPUTS 5

struct cell {
    int value;
    struct cell *next;
};

/* cairn: invariant struct cell=cells_sorted */
/* 1 iff the list at `head` is strictly increasing.  A cycle cannot be
 * strictly increasing all the way round, so the walk always ends. */
int cells_sorted(const struct cell *head)
{
    const struct cell *c;

    for (c = head; c != NULL && c->next != NULL; c = c->next)
        if (c->value >= c->next->value)
            return 0;
    return 1;
}

/* Inserts `value` into the sorted list *head unless it is there already.
 * Returns 1 when a cell was added, 0 when the value was present, -1 when
 * out of memory (the list is then unchanged). */
int cells_insert(struct cell **head, int value)
{
    struct cell *p, *fresh;

    EXPECT_VALID(cells_sorted, *head);
    if (*head == NULL || value < (*head)->value) {
        fresh = malloc(sizeof *fresh);
        if (fresh == NULL)
            return -1;
        fresh->value = value;
        fresh->next = *head;
        *head = fresh;
        return 1;
    }
    /* p: the last cell whose value is <= value. */
    p = *head;
    while (p->next != NULL && p->next->value < value) /* PLANTED: `<` for `<=`: a duplicate after the head is inserted again */
        p = p->next;
    if (p->value == value)
        return 0;
    fresh = malloc(sizeof *fresh);
    if (fresh == NULL)
        return -1;
    fresh->value = value;
    fresh->next = p->next;
    p->next = fresh;
    return 1;
}

/* 1 iff `value` is in the sorted list. */
int cells_contains(const struct cell *head, int value)
{
    const struct cell *c;

    EXPECT_VALID(cells_sorted, head);
    for (c = head; c != NULL && c->value <= value; c = c->next)
        if (c->value == value)
            return 1;
    return 0;
}

/* The number of cells of the sorted list. */
int cells_length(const struct cell *head)
{
    int n = 0;

    EXPECT_VALID(cells_sorted, head);
    for (; head != NULL; head = head->next)
        n++;
    return n;
}

void cells_free(struct cell *head)
{
    struct cell *next;

    EXPECT_VALID(cells_sorted, head);
    for (; head != NULL; head = next) {
        next = head->next;
        free(head);
    }
}

int main(void)
{
    struct cell *head = NULL;
    int inputs[MAX_INPUTS];
    int n = 0, i, v;

    while (n < MAX_INPUTS) {
        v = __VERIFIER_nondet_int();
        if (v == 0)
            break;
        if (cells_insert(&head, v) < 0) {
            cells_free(head);
            return 1;
        }
        inputs[n++] = v;
    }
    if (!cells_sorted(head))
        reach_error();
    if (cells_length(head) > n)
        reach_error();
    for (i = 0; i < n; i++)
        if (!cells_contains(head, inputs[i]))
            reach_error();
    cells_free(head);
    return 0;
}
