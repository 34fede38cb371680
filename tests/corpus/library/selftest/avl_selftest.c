/* Self-test of avl.c through its API (bug-free copy), against a table of
 * present keys as the reference model. */
#include "selftest.h"
#include "../avl.c"

#define RANGE 64 /* keys -RANGE .. RANGE-1 in the random phase */

static unsigned char present[2 * RANGE];
static unsigned long model_count;

/* The tallest AVL tree with n nodes: h such that N(h) <= n, where N is the
 * least node count of a tree of height h (N(h) = N(h-1) + N(h-2) + 1). */
static int max_height(unsigned long n)
{
    unsigned long a = 0, b = 1; /* N(0), N(1) */
    int h = 0;

    while (b <= n) {
        unsigned long c = a + b + 1;
        a = b;
        b = c;
        h++;
    }
    return h;
}

static void expect_model(const struct avl_tree *t)
{
    int k, lo = 0, hi = 0, any = 0, got;

    CHECK(avl_is_valid(t));
    CHECK(avl_count(t) == model_count);
    CHECK(avl_height(t) <= max_height(model_count));
    for (k = -RANGE; k < RANGE; k++) {
        const struct avl_node *n = avl_find(t, k);

        CHECK((n != NULL) == present[k + RANGE]);
        CHECK(n == NULL || n->key == k);
        if (present[k + RANGE]) {
            if (!any)
                lo = k;
            hi = k;
            any = 1;
        }
    }
    CHECK(avl_min(t, &got) == any && (!any || got == lo));
    CHECK(avl_max(t, &got) == any && (!any || got == hi));
}

int main(void)
{
    struct avl_tree *t;
    int k, i, got;

    st_fail_after = 0;
    CHECK(avl_create() == NULL);
    t = avl_create();
    expect_model(t);
    CHECK(avl_height(t) == 0 && avl_remove(t, 1) == 0);

    /* Ascending and descending runs: every rotation case. */
    for (k = 0; k < RANGE; k++) {
        CHECK(avl_insert(t, k) == 1);
        present[k + RANGE] = 1;
        model_count++;
        expect_model(t);
    }
    for (k = -1; k >= -RANGE; k--) {
        CHECK(avl_insert(t, k) == 1);
        present[k + RANGE] = 1;
        model_count++;
        expect_model(t);
    }
    CHECK(avl_insert(t, 5) == 0);
    for (k = -RANGE; k < RANGE; k += 2) {
        CHECK(avl_remove(t, k) == 1);
        present[k + RANGE] = 0;
        model_count--;
        expect_model(t);
    }
    CHECK(avl_remove(t, -RANGE) == 0);

    /* Out of memory: unchanged. */
    st_fail_after = 0;
    CHECK(avl_insert(t, 0) == -1);
    expect_model(t);
    avl_destroy(t);

    /* Extreme keys. */
    t = avl_create();
    CHECK(avl_insert(t, INT_MAX) == 1 && avl_insert(t, INT_MIN) == 1 && avl_insert(t, 0) == 1);
    CHECK(avl_is_valid(t) && avl_min(t, &got) && got == INT_MIN && avl_max(t, &got) && got == INT_MAX);
    CHECK(avl_remove(t, INT_MIN) == 1 && avl_remove(t, INT_MAX) == 1 && avl_count(t) == 1);
    avl_destroy(t);
    avl_destroy(NULL);

    /* Random insertions and removals. */
    memset(present, 0, sizeof present);
    model_count = 0;
    t = avl_create();
    for (i = 0; i < 20000; i++) {
        k = (int)(st_random() % (2 * RANGE)) - RANGE;
        if (st_random() % 2) {
            CHECK(avl_insert(t, k) == !present[k + RANGE]);
            model_count += !present[k + RANGE];
            present[k + RANGE] = 1;
        } else {
            CHECK(avl_remove(t, k) == present[k + RANGE]);
            model_count -= present[k + RANGE];
            present[k + RANGE] = 0;
        }
        if (i % 50 == 0)
            expect_model(t);
    }
    expect_model(t);
    avl_destroy(t);
    return st_finish("avl");
}
