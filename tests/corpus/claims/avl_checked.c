/* An AVL tree with a declared invariant: findings on trees it accepts are
 * vouched for, and only second_smallest has one (a tree of one node has
 * no second key). */
#include <limits.h>
#include <stddef.h>

struct avl_node {
    struct avl_node *left;
    struct avl_node *right;
    int key;
    int height;
};

struct avl {
    struct avl_node *root;
    int count;
};

/* The height of the subtree at n, -1 unless its keys lie strictly between
 * lo and hi, its heights are right and it is balanced. */
static int checked_height(const struct avl_node *n, long lo, long hi, int depth, int *count)
{
    if (n == NULL)
        return 0;
    if (depth > 3 || n->key <= lo || n->key >= hi)
        return -1;
    ++*count;
    int hl = checked_height(n->left, lo, n->key, depth + 1, count);
    int hr = checked_height(n->right, n->key, hi, depth + 1, count);
    if (hl < 0 || hr < 0 || hl - hr > 1 || hr - hl > 1)
        return -1;
    if (n->height != 1 + (hl > hr ? hl : hr))
        return -1;
    return n->height;
}

/* cairn: invariant struct avl=avl_ok */
int avl_ok(const struct avl *t)
{
    int count = 0;
    if (t == NULL)
        return 0;
    return checked_height(t->root, (long)INT_MIN - 1, (long)INT_MAX + 1, 0, &count) >= 0
        && count == t->count;
}

/* The smallest key, or 0 for an empty tree. */
int smallest(const struct avl *t)
{
    const struct avl_node *n = t->root;
    if (n == NULL)
        return 0;
    while (n->left != NULL)
        n = n->left;
    return n->key;
}

/* The key after the smallest, 0 for an empty tree: wrong for a tree of one
 * node, which has no second key. */
int second_smallest(const struct avl *t)
{
    const struct avl_node *n = t->root;
    if (n == NULL)
        return 0;
    if (n->left == NULL)
        return n->right->key;
    while (n->left->left != NULL)
        n = n->left;
    /* n->left is the smallest node; in an AVL tree its right subtree has
     * at most one node. */
    return n->left->right != NULL ? n->left->right->key : n->key;
}

/* The balance of the root: |balance| <= 1 on every valid tree. */
int root_balance(const struct avl *t)
{
    const struct avl_node *r = t->root;
    if (r == NULL)
        return 0;
    int hl = r->left ? r->left->height : 0;
    int hr = r->right ? r->right->height : 0;
    return hl - hr;
}
