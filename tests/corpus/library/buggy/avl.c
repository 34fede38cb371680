/*
 * avl - an ordered set of ints kept in an AVL tree.
 *
 * Every node stores the height of its subtree (a leaf has height 1, the
 * empty tree 0); the heights of the two subtrees of any node differ by at
 * most one, so lookups, insertions and removals take O(log n).  The tree
 * header counts the nodes.  */
#include <limits.h>
#include <stddef.h>
#include <stdlib.h>

#include "../corpus_check.h"

/* No AVL tree that fits in memory is this tall. */
#define AVL_MAX_HEIGHT 64

struct avl_node {
	struct avl_node *left;
	struct avl_node *right;
	int key;
	int height;
};

struct avl_tree {
	struct avl_node *root;
	unsigned long count;
};

/*
 * The height of the subtree at `n` after checking it: the keys lie strictly
 * between `lo` and `hi`, the stored heights are right and balanced.  -1 if
 * not.  A node met a second time fails the key test (its key cannot be in
 * two disjoint intervals, nor in its own subtree's), so the walk ends on
 * shared or cyclic input too.
 */
static int
avl_check(const struct avl_node *n, long long lo, long long hi, int depth,
    unsigned long *count)
{
	int hl, hr;

	if (n == NULL)
		return 0;
	if (depth >= AVL_MAX_HEIGHT || n->key <= lo || n->key >= hi)
		return -1;
	++*count;
	if ((hl = avl_check(n->left, lo, n->key, depth + 1, count)) < 0)
		return -1;
	if ((hr = avl_check(n->right, n->key, hi, depth + 1, count)) < 0)
		return -1;
	if (hl - hr > 1 || hr - hl > 1)
		return -1;
	if (n->height != 1 + (hl > hr ? hl : hr))
		return -1;
	return n->height;
}

/* Debug check: 1 iff `t` is a valid AVL tree with `count` nodes. */
/* cairn: invariant struct avl_tree=avl_is_valid */
int
avl_is_valid(const struct avl_tree *t)
{
	unsigned long count = 0;

	if (t == NULL)
		return 0;
	return avl_check(t->root, (long long)INT_MIN - 1, (long long)INT_MAX + 1,
	    0, &count) >= 0 && count == t->count;
}

static int
avl_height_of(const struct avl_node *n)
{
	return n == NULL ? 0 : n->height;
}

static void
avl_fix_height(struct avl_node *n)
{
	int hl = avl_height_of(n->left), hr = avl_height_of(n->right);

	n->height = 1 + (hl > hr ? hl : hr);
}

/* `n`'s right child takes its place; returns it. */
static struct avl_node *
avl_rotate_left(struct avl_node *n)
{
	struct avl_node *pivot = n->right;

	n->right = pivot->left;
	pivot->left = n;
	avl_fix_height(pivot); /* PLANTED: wrong order: the pivot's height is computed from n's stale height */
	avl_fix_height(n);
	return pivot;
}

/* `n`'s left child takes its place; returns it. */
static struct avl_node *
avl_rotate_right(struct avl_node *n)
{
	struct avl_node *pivot = n->left;

	n->left = pivot->right;
	pivot->right = n;
	avl_fix_height(n);
	avl_fix_height(pivot);
	return pivot;
}

/* Restores the balance at `n`, whose subtrees are valid AVL trees whose
 * heights differ by at most two; returns the subtree's new root. */
static struct avl_node *
avl_rebalance(struct avl_node *n)
{
	int balance;

	avl_fix_height(n);
	balance = avl_height_of(n->left) - avl_height_of(n->right);
	if (balance > 1) {
		if (avl_height_of(n->left->left) < avl_height_of(n->left->right))
			n->left = avl_rotate_left(n->left);
		return avl_rotate_right(n);
	}
	if (balance < -1) {
		if (avl_height_of(n->right->right) < avl_height_of(n->right->left))
			n->right = avl_rotate_right(n->right);
		return avl_rotate_left(n);
	}
	return n;
}

struct avl_tree *
avl_create(void)
{
	struct avl_tree *t;

	if ((t = malloc(sizeof(*t))) == NULL)
		return NULL;
	t->root = NULL;
	t->count = 0;
	return t;
}

static void
avl_free_nodes(struct avl_node *n)
{
	if (n == NULL)
		return;
	avl_free_nodes(n->left);
	avl_free_nodes(n->right);
	free(n);
}

/* Frees the tree; NULL is allowed. */
void
avl_destroy(struct avl_tree *t)
{
	if (t == NULL)
		return;
	EXPECT_VALID(avl_is_valid, t);
	avl_free_nodes(t->root);
	free(t);
}

/* *status: 1 when `key` was added, 0 when present, -1 when out of memory. */
static struct avl_node *
avl_insert_at(struct avl_node *n, int key, int *status)
{
	if (n == NULL) {
		if ((n = malloc(sizeof(*n))) == NULL) {
			*status = -1;
			return NULL;
		}
		n->left = n->right = NULL;
		n->key = key;
		n->height = 1;
		*status = 1;
		return n;
	}
	if (key < n->key)
		n->left = avl_insert_at(n->left, key, status);
	else if (key > n->key)
		n->right = avl_insert_at(n->right, key, status);
	else {
		*status = 0;
		return n;
	}
	return *status == 1 ? avl_rebalance(n) : n;
}

/* Adds `key`: 1 if added, 0 if already present, -1 when out of memory. */
int
avl_insert(struct avl_tree *t, int key)
{
	int status = 0;

	EXPECT_VALID(avl_is_valid, t);
	t->root = avl_insert_at(t->root, key, &status);
	if (status == 1)
		t->count++;
	ENSURE_VALID(avl_is_valid, t);
	return status;
}

static struct avl_node *
avl_remove_at(struct avl_node *n, int key, int *removed)
{
	struct avl_node *child, *succ;

	if (n == NULL)
		return NULL;
	if (key < n->key)
		n->left = avl_remove_at(n->left, key, removed);
	else if (key > n->key)
		n->right = avl_remove_at(n->right, key, removed);
	else if (n->left == NULL || n->right == NULL) {
		child = n->left != NULL ? n->left : n->right;
		free(n);
		*removed = 1;
		return child;
	} else {
		/* Two children: take the key of the in-order successor. */
		for (succ = n->right; succ->left != NULL; succ = succ->left)
			continue;
		n->key = succ->key;
		n->right = avl_remove_at(n->right, succ->key, removed);
	}
	return avl_rebalance(n);
}

/* Removes `key`: 1 if it was there, 0 if not. */
int
avl_remove(struct avl_tree *t, int key)
{
	int removed = 0;

	EXPECT_VALID(avl_is_valid, t);
	t->root = avl_remove_at(t->root, key, &removed);
	if (removed)
		t->count--;
	ENSURE_VALID(avl_is_valid, t);
	return removed;
}

/* The node holding `key`, or NULL. */
const struct avl_node *
avl_find(const struct avl_tree *t, int key)
{
	const struct avl_node *n;

	EXPECT_VALID(avl_is_valid, t);
	for (n = t->root; n != NULL && n->key != key; )
		n = key < n->key ? n->left : n->right;
	return n;
}

/* The smallest key into *key: 1, or 0 when the tree is empty. */
int
avl_min(const struct avl_tree *t, int *key)
{
	const struct avl_node *n;

	EXPECT_VALID(avl_is_valid, t);
	if ((n = t->root) == NULL)
		return 0;
	while (n->left != NULL)
		n = n->left;
	*key = n->key;
	return 1;
}

/* The largest key into *key: 1, or 0 when the tree is empty. */
int
avl_max(const struct avl_tree *t, int *key)
{
	const struct avl_node *n;

	EXPECT_VALID(avl_is_valid, t);
	if ((n = t->root) == NULL)
		return 0;
	while (n->right != NULL)
		n = n->right;
	*key = n->key;
	return 1;
}

/* The height of the tree: 0 when empty. */
int
avl_height(const struct avl_tree *t)
{
	EXPECT_VALID(avl_is_valid, t);
	return avl_height_of(t->root);
}

unsigned long
avl_count(const struct avl_tree *t)
{
	EXPECT_VALID(avl_is_valid, t);
	return t->count;
}
