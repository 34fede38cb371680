/* Addresses of members taken without reading them: `&p->m` is a member
 * access, undefined on NULL and stopped by the sanitizers, even where
 * nothing is read there; the old `offsetof` written with a null pointer is
 * a constant the compiler folds. */
#include <stddef.h>

struct slot {
    int key;
    struct slot *next;
};

struct table {
    struct slot *slots;
    long size;
};

/* Where the key of slot i lives: the table's slots must exist. */
int *slot_key(struct table *t, long i)
{
    if (i < 0 || i >= t->size)
        return NULL;
    return &t->slots[i].key;
}

/* Takes the member's address on the path where the slot is NULL. */
struct slot **next_link(struct slot *s, int create)
{
    if (s == NULL && !create)
        return NULL;
    return &s->next;
}

/* offsetof(struct slot, next), as code written before <stddef.h> had it. */
unsigned long next_offset(void)
{
    return (unsigned long)&((struct slot *)0)->next;
}

/* Indexes into member arrays are checked against the array, as the
 * sanitizers check them, even for an address; a last member may be a
 * flexible array, which they leave alone. */
struct menu {
    int selected;
    struct item {
        int action;
    } items[8];
    int hidden;
};

/* The selected item, numbered from 1 (0: none). */
struct item *current(struct menu *m)
{
    if (m->selected == 0 || m->hidden)
        return NULL;
    return &m->items[m->selected - 1];
}

struct packet {
    int len;
    unsigned char data[4];
};

/* The packet's last byte: its data may run past the declared 4. */
int last_byte(const struct packet *p)
{
    if (p->len <= 4)
        return -1;
    return p->data[p->len - 1];
}
