/* Path-oriented generation: deleting from a singly linked list. The path
 * that runs the search loop's body twice and then unlinks the item after the
 * previous one needs a list of three items, the third holding v. */
#include <stddef.h>
#include <stdlib.h>

struct item {
    int value;
    struct item *next;
};

struct item *list_remove(struct item *head, int v)
{
    struct item *prev = NULL;
    struct item *cur = head;
    while (cur != NULL && cur->value != v) {
        prev = cur;
        cur = cur->next;
    }
    if (cur == NULL)
        return head;
    if (prev == NULL)
        head = cur->next;
    else
        prev->next = cur->next;
    free(cur);
    return head; /* the list without the item */
}
