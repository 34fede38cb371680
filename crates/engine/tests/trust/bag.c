#include <stdlib.h>
struct node { struct node *next; int value; };
struct bag { struct node *head; unsigned len; };
/* cairn: invariant struct bag=bag_ok */
int bag_ok(const struct bag *b) {
    unsigned n = 0;
    if (b == NULL) return 0;
    for (const struct node *p = b->head; p != NULL; p = p->next)
        if (++n > b->len) return 0;
    return n == b->len;
}
struct bag *bag_new(void) {
    struct bag *b = malloc(sizeof *b);
    if (!b) return NULL;
    b->head = NULL; b->len = 0;
    return b;
}
int bag_add(struct bag *b, int v) {
    struct node *n = malloc(sizeof *n);
    if (!n) return -1;
    n->value = v; n->next = b->head; b->head = n; b->len++;
    return 0;
}
int bag_drop_first(struct bag *b) {
    struct node *n = b->head;
    if (n == NULL) return -1;
    b->head = n->next;
    free(n);
    return 0;   /* forgets b->len-- */
}
