/* An AVL tree's operations with no declared invariant and no constructor:
 * its nodes are built freely, so nothing vouches for a finding on them
 * (a node whose heights lie makes rotate_right follow NULL). */
#include <stddef.h>
#include <string.h>

struct avl_node {
    struct avl_node *left;
    struct avl_node *right;
    int key;
    int height;
};

static int height(const struct avl_node *n)
{
    return n == NULL ? 0 : n->height;
}

static void fix_height(struct avl_node *n)
{
    int hl = height(n->left), hr = height(n->right);
    n->height = 1 + (hl > hr ? hl : hr);
}

/* n's left child takes its place; returns it. */
struct avl_node *rotate_right(struct avl_node *n)
{
    struct avl_node *pivot = n->left;
    n->left = pivot->right;
    pivot->right = n;
    fix_height(n);
    fix_height(pivot);
    return pivot;
}

/* The height of the left child of the node whose address a record of a
 * generic container holds after its 8-byte header: a pointer read from
 * bytes, which no test can set. */
int left_height(const unsigned char *record)
{
    const struct avl_node *n;
    memcpy(&n, record + 8, sizeof n);
    if (n->left == NULL)
        return 0;
    return n->left->height;
}
