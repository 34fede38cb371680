/* Binary search trees: find, insert, delete, height, rotations. */
#include <stddef.h>
#include <stdlib.h>

struct tree {
    int key;
    struct tree *left;
    struct tree *right;
};

/* Node holding `key` in the search tree, or NULL. */
struct tree *bst_find(struct tree *root, int key)
{
    while (root != NULL) {
        if (key == root->key)
            return root;
        root = (key < root->key) ? root->left : root->right;
    }
    return NULL;
}

/* Inserts `key` unless present; returns the (possibly new) root, or NULL
   when the tree was empty and allocation failed. */
struct tree *bst_insert(struct tree *root, int key)
{
    struct tree **link = &root;
    while (*link != NULL) {
        if (key == (*link)->key)
            return root;
        link = (key < (*link)->key) ? &(*link)->left : &(*link)->right;
    }
    struct tree *fresh = malloc(sizeof *fresh);
    if (fresh == NULL)
        return root;
    fresh->key = key;
    fresh->left = NULL;
    fresh->right = NULL;
    *link = fresh;
    return root;
}

/* Removes (and frees) the node holding `key`; returns the new root.  A node
   with two children takes the key of its in-order successor, which is then
   unlinked instead. */
struct tree *bst_delete(struct tree *root, int key)
{
    struct tree **link = &root;
    while (*link != NULL && (*link)->key != key)
        link = (key < (*link)->key) ? &(*link)->left : &(*link)->right;
    struct tree *victim = *link;
    if (victim == NULL)
        return root;
    if (victim->left != NULL && victim->right != NULL) {
        struct tree **succ = &victim->right;
        while ((*succ)->left != NULL)
            succ = &(*succ)->left;
        struct tree *successor = *succ;
        victim->key = successor->key;
        *succ = successor->right;
        free(successor);
        return root;
    }
    *link = (victim->left != NULL) ? victim->left : victim->right;
    free(victim);
    return root;
}

/* Height of the tree: 0 for an empty tree, 1 for a leaf. */
int bst_height(const struct tree *root)
{
    if (root == NULL)
        return 0;
    int left = bst_height(root->left);
    int right = bst_height(root->right);
    return 1 + (left > right ? left : right);
}

/* AVL-style left rotation around `root`; returns the new subtree root (the
   old right child), or `root` itself when it has no right child. */
struct tree *rotate_left(struct tree *root)
{
    if (root == NULL || root->right == NULL)
        return root;
    struct tree *pivot = root->right;
    root->right = pivot->left;
    pivot->left = root;
    return pivot;
}

/* Mirror image of rotate_left. */
struct tree *rotate_right(struct tree *root)
{
    if (root == NULL || root->left == NULL)
        return root;
    struct tree *pivot = root->left;
    root->left = pivot->right;
    pivot->right = root;
    return pivot;
}
