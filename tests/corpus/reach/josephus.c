/* Josephus elimination over a circular singly linked list (seed 002's
 * goal-oriented example, written for cairn). `cairn reach` targets the
 * outer elimination loop's body with --times K: a test must choose n > K. */
#include <stdlib.h>

struct person {
    int position;
    struct person *next;
};

/* Returns the position (1..n) of the survivor when every m-th of n people
 * standing in a circle is removed, or -1 for arguments out of range. */
int josephus(int n, int m)
{
    if (n < 1 || n > 64 || m < 1)
        return -1;
    struct person *first = malloc(sizeof *first);
    if (first == NULL)
        return -1;
    first->position = 1;
    struct person *last = first;
    for (int i = 2; i <= n; i++) {
        struct person *p = malloc(sizeof *p);
        if (p == NULL)
            break;
        p->position = i;
        last->next = p;
        last = p;
    }
    last->next = first;
    /* `last` precedes the person counted first. */
    while (last->next != last) {
        for (int count = 1; count < m; count++)
            last = last->next;
        struct person *removed = last->next; /* reach: elimination */
        last->next = removed->next;
        free(removed);
    }
    int survivor = last->position;
    free(last);
    return survivor;
}
