#include <stddef.h>
struct node { struct node *prev, *next; int value; };
struct list { struct node *head, *tail; unsigned long len; };

int list_ok(const struct list *l) {
    if (l == NULL) return 0;
    unsigned long n = 0;
    const struct node *prev = NULL;
    for (const struct node *p = l->head; p != NULL; p = p->next) {
        if (n >= l->len) return 0;
        if (p->prev != prev) return 0;
        prev = p;
        n++;
    }
    return n == l->len && l->tail == prev;
}

int list_index_value(const struct list *l, long i, int *out) {
    if (i < 0) i = (long)l->len + i;
    if (i < 0 || (unsigned long)i >= l->len) return -1;
    const struct node *p = l->head;
    while (i-- > 0) p = p->next;
    *out = p->value;
    return 0;
}

int list_pop_back(struct list *l) {
    struct node *t = l->tail;
    if (t == NULL) return -1;
    l->tail = t->prev;
    if (t->prev) t->prev->next = NULL; else l->head = NULL;
    l->len--;
    return t->value;
}
