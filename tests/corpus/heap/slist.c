/* Singly linked lists of ints: search, sorted insert, delete, reverse,
   merge, duplicate removal, cycle detection. */
#include <stddef.h>
#include <stdlib.h>

struct node {
    int key;
    struct node *next;
};

/* First node holding `key`, or NULL. */
struct node *list_find(struct node *head, int key)
{
    for (struct node *p = head; p != NULL; p = p->next) {
        if (p->key == key)
            return p;
    }
    return NULL;
}

/* Inserts a fresh node holding `key` into the ascending list `head` and
   returns the new head; NULL when allocation fails (list unchanged). */
struct node *list_insert_sorted(struct node *head, int key)
{
    struct node *fresh = malloc(sizeof *fresh);
    if (fresh == NULL)
        return NULL;
    fresh->key = key;
    if (head == NULL || key <= head->key) {
        fresh->next = head;
        return fresh;
    }
    struct node *prev = head;
    while (prev->next != NULL && prev->next->key < key)
        prev = prev->next;
    fresh->next = prev->next;
    prev->next = fresh;
    return head;
}

/* Unlinks and frees the first node holding `key`; returns the new head. */
struct node *list_delete(struct node *head, int key)
{
    if (head == NULL)
        return NULL;
    if (head->key == key) {
        struct node *rest = head->next;
        free(head);
        return rest;
    }
    struct node *prev = head;
    while (prev->next != NULL) {
        if (prev->next->key == key) {
            struct node *victim = prev->next;
            prev->next = victim->next;
            free(victim);
            break;
        }
        prev = prev->next;
    }
    return head;
}

/* Reverses the list in place; returns the new head. */
struct node *list_reverse(struct node *head)
{
    struct node *reversed = NULL;
    while (head != NULL) {
        struct node *next = head->next;
        head->next = reversed;
        reversed = head;
        head = next;
    }
    return reversed;
}

/* Merges two ascending lists into one by relinking; returns its head. */
struct node *list_merge(struct node *a, struct node *b)
{
    struct node dummy = {0, NULL};
    struct node *tail = &dummy;
    while (a != NULL && b != NULL) {
        if (a->key <= b->key) {
            tail->next = a;
            a = a->next;
        } else {
            tail->next = b;
            b = b->next;
        }
        tail = tail->next;
    }
    tail->next = (a != NULL) ? a : b;
    return dummy.next;
}

/* Removes (and frees) adjacent duplicates from an ascending list; returns
   how many nodes were removed. */
int list_remove_duplicates(struct node *head)
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

/* Floyd's tortoise and hare: returns 1 when the list loops back on itself. */
int list_has_cycle(const struct node *head)
{
    const struct node *slow = head;
    const struct node *fast = head;
    while (fast != NULL && fast->next != NULL) {
        slow = slow->next;
        fast = fast->next->next;
        if (slow == fast)
            return 1;
    }
    return 0;
}

/* Push-front through `struct node **`: returns 0 on success, -1 when
   allocation fails; the caller's head pointer is updated in place. */
int list_push_front(struct node **head, int key)
{
    struct node *fresh = malloc(sizeof *fresh);
    if (fresh == NULL)
        return -1;
    fresh->key = key;
    fresh->next = *head;
    *head = fresh;
    return 0;
}

/* Two list pointers: returns 1 when `b` starts somewhere inside list `a`
   (the branch needs both parameters to reach the same node). */
int list_shares_suffix(const struct node *a, const struct node *b)
{
    if (b == NULL)
        return 0;
    for (const struct node *p = a; p != NULL; p = p->next) {
        if (p == b)
            return 1;
    }
    return 0;
}
