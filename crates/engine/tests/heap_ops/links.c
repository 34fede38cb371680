/* Unchecked links of input linked structures may be NULL. */
#include <stddef.h>

struct node {
    int key;
    struct node *next;
};

struct ring {
    int len;
    int *buf;
};

/* Forgets that the list may have one node. */
int second_key(const struct node *head)
{
    if (head == NULL)
        return -1;
    return head->next->key;
}

/* A parameter dereferenced unchecked is the caller's precondition. */
int first_key(const struct node *head)
{
    return head->key;
}

/* So is a pointer to a type that is not a linked structure's node. */
int first_slot(const struct ring *r)
{
    return r->buf[0];
}

/* Checked links give no finding. */
int checked_second(const struct node *head)
{
    if (head == NULL || head->next == NULL)
        return -1;
    return head->next->key;
}

/* Links `fresh`, a node of its own, after `pos`: a caller passes two
   distinct nodes, though nothing in C says so. */
int link_after(struct node *pos, struct node *fresh)
{
    if (pos == NULL || fresh == NULL)
        return -1;
    fresh->next = pos->next;
    pos->next = fresh;
    return fresh->key > pos->key;
}
