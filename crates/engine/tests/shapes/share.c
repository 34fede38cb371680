/* Two parameters into one structure: returning 1 needs a == b->next. */
struct node {
    int key;
    struct node *next;
};

int share(struct node *a, struct node *b)
{
    if (a && b && a == b->next)
        return 1;
    return 0;
}

/* An implicit alias decided late (after writes through both pointers). */
int late_alias(struct node *x, struct node *y)
{
    x->key = 1;
    y->key = 2;
    if (x == y)
        return x->key;
    return 0;
}
