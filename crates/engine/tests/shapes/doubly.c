/* Doubly linked list: a back pointer that is or is not consistent. */
struct dnode {
    int value;
    struct dnode *next;
    struct dnode *prev;
};

int broken_link(struct dnode *n)
{
    if (n->next && n->next->prev != n)
        return 1;
    return 0;
}
