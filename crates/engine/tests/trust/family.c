#include <stdlib.h>

/* A tree whose nodes keep their children in a singly linked list. */
struct person { int age; struct person *first_child; struct person *next_sibling; };

struct person *person_new(int age) {
    struct person *p = malloc(sizeof *p);
    if (p == NULL) return NULL;
    p->age = age;
    p->first_child = NULL;
    p->next_sibling = NULL;
    return p;
}

/* Links `child` in first; 0 when it is already someone's child. */
int person_adopt(struct person *parent, struct person *child) {
    if (parent == NULL || child == NULL || child->next_sibling != NULL) return 0;
    child->next_sibling = parent->first_child;
    parent->first_child = child;
    return 1;
}

/* Unlinks `child`, which must be a child of `parent`. */
void person_disown(struct person *parent, struct person *child) {
    struct person **link = &parent->first_child;
    while (*link != child)
        link = &(*link)->next_sibling;
    *link = child->next_sibling;
    child->next_sibling = NULL;
}

int person_children(const struct person *p) {
    int n = 0;
    if (p == NULL) return -1;
    for (p = p->first_child; p != NULL; p = p->next_sibling)
        n++;
    if (n >= 2) return 2;
    return n;
}

/* An adult with a child of at least 18. */
int person_has_adult_child(const struct person *p) {
    for (p = p->first_child; p != NULL; p = p->next_sibling)
        if (p->age >= 18) return 1;
    return 0;
}

struct cell { int value; struct cell *next; };

int cells_sorted(const struct cell *c) {
    for (; c != NULL && c->next != NULL; c = c->next)
        if (c->value >= c->next->value) return 0;
    return 1;
}

/* Inserts `v` in the sorted list `*head`; 0 when out of memory. */
int cells_insert(struct cell **head, int v) {
    struct cell *fresh = malloc(sizeof *fresh);
    if (fresh == NULL) return 0;
    while (*head != NULL && (*head)->value < v)
        head = &(*head)->next;
    fresh->value = v;
    fresh->next = *head;
    *head = fresh;
    return 1;
}
