/* Path-oriented generation: a binary search tree lookup. The path that goes
 * left at the root, right at the second node and finds the key at the third
 * needs exactly three nodes, with y < k1, y > k2 and y == k3. */
#include <stddef.h>

struct tree {
    int key;
    struct tree *left;
    struct tree *right;
};

int tree_contains(const struct tree *node, int y)
{
    while (node != NULL) {
        if (y < node->key)
            node = node->left;
        else if (y > node->key)
            node = node->right;
        else
            return 1;
    }
    return 0;
}
