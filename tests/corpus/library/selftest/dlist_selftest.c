/* Self-test of dlist.c through its API (bug-free copy). */
#include "selftest.h"
#include "../dlist.c"

/* The list holds exactly values[0..n-1], read forward and backward, by
 * iterator and by index. */
static void expect_values(const struct dlist *l, const long *values, unsigned long n)
{
    struct dlist_iter it;
    struct dnode *node;
    unsigned long i;

    CHECK(dlist_is_valid(l));
    CHECK(dlist_length(l) == n);
    dlist_iter_init(l, &it, DLIST_START_HEAD);
    for (i = 0; i < n; i++) {
        node = dlist_iter_next(&it);
        CHECK(node != NULL && node->value == values[i]);
    }
    CHECK(dlist_iter_next(&it) == NULL);
    dlist_iter_init(l, &it, DLIST_START_TAIL);
    for (i = n; i > 0; i--) {
        node = dlist_iter_next(&it);
        CHECK(node != NULL && node->value == values[i - 1]);
    }
    CHECK(dlist_iter_next(&it) == NULL);
    for (i = 0; i < n; i++) {
        node = dlist_index(l, (long)i);
        CHECK(node != NULL && node->value == values[i]);
        node = dlist_index(l, -(long)i - 1);
        CHECK(node != NULL && node->value == values[n - 1 - i]);
    }
    CHECK(dlist_index(l, (long)n) == NULL);
    CHECK(dlist_index(l, (long)n + 1) == NULL);
    CHECK(dlist_index(l, -(long)n - 1) == NULL);
    CHECK(dlist_index(l, LONG_MAX) == NULL);
    CHECK(dlist_index(l, LONG_MIN) == NULL);
}

int main(void)
{
    struct dlist *l;
    struct dlist_iter it;
    struct dnode *n1, *n;
    unsigned long len;

    st_fail_after = 0;
    CHECK(dlist_create() == NULL);

    l = dlist_create();
    CHECK(l != NULL);
    expect_values(l, NULL, 0);
    CHECK(dlist_find(l, 0) == NULL);
    dlist_rotate(l, 3);
    expect_values(l, NULL, 0);

    /* Out of memory: nothing changes. */
    st_fail_after = 0;
    CHECK(dlist_push_front(l, 1) == NULL);
    st_fail_after = 0;
    CHECK(dlist_push_back(l, 1) == NULL);
    expect_values(l, NULL, 0);

    n1 = dlist_push_back(l, 1);
    CHECK(n1 != NULL && n1->value == 1);
    dlist_rotate(l, 5); /* one node: no-op */
    CHECK(dlist_push_back(l, 2) != NULL);
    CHECK(dlist_push_back(l, 3) != NULL);
    CHECK(dlist_push_front(l, 0) != NULL);
    {
        static const long v[] = {0, 1, 2, 3};
        expect_values(l, v, 4);
    }
    CHECK(dlist_insert_after(l, n1, 10) != NULL);
    CHECK(dlist_insert_after(l, l->tail, 20) != NULL);
    st_fail_after = 0;
    CHECK(dlist_insert_after(l, n1, 99) == NULL);
    {
        static const long v[] = {0, 1, 10, 2, 3, 20};
        expect_values(l, v, 6);
    }
    CHECK(dlist_find(l, 10) == n1->next);
    CHECK(dlist_find(l, 99) == NULL);
    CHECK(dlist_push_back(l, 10) != NULL);
    CHECK(dlist_find(l, 10) == n1->next); /* the first one */

    dlist_remove(l, l->head);
    dlist_remove(l, l->tail);
    dlist_remove(l, dlist_find(l, 2));
    {
        static const long v[] = {1, 10, 3, 20};
        expect_values(l, v, 4);
    }
    dlist_rotate(l, 1);
    {
        static const long v[] = {20, 1, 10, 3};
        expect_values(l, v, 4);
    }
    dlist_rotate(l, 4 * 1000 + 3);
    {
        static const long v[] = {1, 10, 3, 20};
        expect_values(l, v, 4);
    }
    dlist_rotate(l, 0);
    dlist_rotate(l, ULONG_MAX); /* ULONG_MAX % 4 == 3 */
    {
        static const long v[] = {10, 3, 20, 1};
        expect_values(l, v, 4);
    }

    /* Removing the node just returned by the iterator is allowed. */
    CHECK(dlist_push_front(l, 4) != NULL);
    dlist_iter_init(l, &it, DLIST_START_HEAD);
    while ((n = dlist_iter_next(&it)) != NULL)
        if (n->value % 2 == 0)
            dlist_remove(l, n);
    {
        static const long v[] = {3, 1};
        expect_values(l, v, 2);
    }
    dlist_iter_init(l, &it, DLIST_START_TAIL);
    while ((n = dlist_iter_next(&it)) != NULL)
        dlist_remove(l, n);
    expect_values(l, NULL, 0);

    /* A longer list: index walks from both ends. */
    for (len = 0; len < 50; len++)
        CHECK(dlist_push_back(l, (long)len * 3) != NULL);
    for (len = 0; len < 50; len++) {
        CHECK(dlist_index(l, (long)len)->value == (long)len * 3);
        CHECK(dlist_index(l, -(long)len - 1)->value == (long)(49 - len) * 3);
    }
    CHECK(dlist_index(l, 50) == NULL);
    dlist_destroy(l);
    dlist_destroy(NULL);
    return st_finish("dlist");
}
