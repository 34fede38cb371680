/* A Test-Comp style task (issue 11, cheap inputs first): `main` builds a
 * sorted list from __VERIFIER_nondet_int() values read in a loop, until a
 * zero flag or six nodes, then checks it and classifies what it read.
 * reach_error() is unreachable: insertion keeps the list sorted. */
#include <stdlib.h>

extern int __VERIFIER_nondet_int(void);

void reach_error(void) { abort(); }

struct node {
    int value;
    struct node *next;
};

int main(void)
{
    struct node *head = 0;
    int length = 0, negatives = 0, duplicates = 0;
    while (length < 6 && __VERIFIER_nondet_int()) {
        int value = __VERIFIER_nondet_int();
        struct node *node = malloc(sizeof *node);
        if (!node)
            break;
        node->value = value;
        if (value < 0)
            negatives++;
        struct node **link = &head;
        while (*link && (*link)->value < value)
            link = &(*link)->next;
        if (*link && (*link)->value == value)
            duplicates++;
        node->next = *link;
        *link = node;
        length++;
    }
    for (struct node *n = head; n && n->next; n = n->next)
        if (n->value > n->next->value) /* infeasible: the list is sorted */
            reach_error();
    int result = 0;
    if (length > 3 && negatives > 0 && negatives < length)
        result = 1;
    if (duplicates > 1)
        result += 2;
    while (head) {
        struct node *next = head->next;
        free(head);
        head = next;
    }
    return result;
}
