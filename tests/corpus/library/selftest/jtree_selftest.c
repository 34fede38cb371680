/* Self-test of jtree.c through its API (bug-free copy).  The allocation
 * hooks count live blocks, so every test also checks for leaks. */
#include "selftest.h"
#include "../jtree.c"

static long live;

static void *counting_malloc(size_t size)
{
    void *p = st_malloc(size);

    if (p != NULL)
        live++;
    return p;
}

static void counting_free(void *p)
{
    if (p != NULL)
        live--;
    free(p);
}

static const struct jt_hooks counting = {counting_malloc, counting_free};

/* `array` holds numbers equal to values[0..n-1], in order. */
static void expect_numbers(const struct jt *array, const long *values, int n)
{
    int i;
    const struct jt *item;

    CHECK(jt_is_valid(array));
    CHECK(jt_get_array_size(array) == n);
    for (i = 0; i < n; i++) {
        item = jt_get_array_item(array, i);
        CHECK(item != NULL && item->type == JT_NUMBER && item->number == values[i]);
    }
    CHECK(jt_get_array_item(array, n) == NULL);
    CHECK(jt_get_array_item(array, -1) == NULL);
    CHECK(n == 0 || (array->child->prev == jt_get_array_item(array, n - 1)));
}

static struct jt *numbers(const long *values, int n)
{
    struct jt *array = jt_create_array();
    int i;

    CHECK(array != NULL);
    for (i = 0; i < n; i++)
        CHECK(jt_add_item_to_array(array, jt_create_number(values[i])));
    return array;
}

static void test_replace_and_detach(void)
{
    static const long v[] = {1, 2, 3, 4};
    struct jt *a, *item;
    int which;

    /* Replace each position of arrays of 1 to 4 members. */
    for (which = 0; which < 4; which++) {
        long expect[4];
        int n = which + 1, i;

        for (i = 0; i < n; i++) {
            a = numbers(v, n);
            memcpy(expect, v, sizeof v);
            expect[i] = 100 + i;
            CHECK(jt_replace_item_in_array(a, i, jt_create_number(100 + i)) == 1);
            expect_numbers(a, expect, n);
            jt_delete(a);
        }
    }
    a = numbers(v, 2);
    item = jt_create_number(9);
    CHECK(jt_replace_item_in_array(a, 2, item) == 0);
    CHECK(jt_replace_item_in_array(a, -1, item) == 0);
    CHECK(jt_replace_item_in_array(a, 0, a->child->next) == 0); /* a member already */
    CHECK(jt_replace_item_in_array(a, 0, a) == 0);              /* a cycle */
    expect_numbers(a, v, 2);
    CHECK(jt_replace_item_in_array(NULL, 0, item) == 0);
    CHECK(jt_replace_item_in_array(a, 0, NULL) == 0);
    jt_delete(item);
    jt_delete(a);

    /* Detach first, middle, last, only. */
    a = numbers(v, 4);
    item = jt_detach_item(a, jt_get_array_item(a, 1));
    CHECK(item != NULL && item->number == 2 && item->prev == NULL && item->next == NULL);
    jt_delete(item);
    {
        static const long e[] = {1, 3, 4};
        expect_numbers(a, e, 3);
    }
    jt_delete(jt_detach_item(a, jt_get_array_item(a, 2)));
    {
        static const long e[] = {1, 3};
        expect_numbers(a, e, 2);
    }
    jt_delete(jt_detach_item(a, a->child));
    {
        static const long e[] = {3};
        expect_numbers(a, e, 1);
    }
    item = jt_detach_item(a, a->child);
    CHECK(jt_add_item_to_array(a, item) == 1); /* a detached item can come back */
    jt_delete(jt_detach_item(a, a->child));
    expect_numbers(a, NULL, 0);
    CHECK(jt_detach_item(NULL, item) == NULL && jt_detach_item(a, NULL) == NULL);
    jt_delete(a);
}

static void test_objects(void)
{
    struct jt *o, *s, *inner, *a, *item;
    int i;

    o = jt_create_object();
    s = jt_create_string("hello");
    CHECK(s != NULL && strcmp(s->string, "hello") == 0);
    CHECK(jt_add_item_to_object(o, "greeting", s) == 1);
    CHECK(jt_add_item_to_object(o, "n", jt_create_number(-5)) == 1);
    inner = jt_create_array();
    CHECK(jt_add_item_to_object(o, "list", inner) == 1);
    CHECK(jt_add_item_to_array(inner, jt_create_string("")) == 1);
    CHECK(jt_add_item_to_object(o, "n", jt_create_number(6)) == 1); /* duplicate key */
    CHECK(jt_is_valid(o) && jt_get_array_size(o) == 4);
    CHECK(jt_get_object_item(o, "greeting") == s);
    CHECK(jt_get_object_item(o, "n")->number == -5);
    CHECK(jt_get_object_item(o, "Greeting") == NULL); /* case-sensitive */
    CHECK(jt_get_object_item(o, "missing") == NULL);
    CHECK(jt_get_object_item(o, NULL) == NULL && jt_get_object_item(NULL, "n") == NULL);
    CHECK(jt_get_object_item(inner, "x") == NULL); /* not an object */
    CHECK(jt_get_array_item(o, 2) == inner);

    /* What an add refuses leaves the item with the caller. */
    CHECK(jt_add_item_to_array(o, jt_get_array_item(o, 0)) == 0); /* o is no array */
    CHECK(jt_add_item_to_array(inner, s) == 0);                   /* s is a member */
    a = jt_create_array();
    CHECK(jt_add_item_to_object(inner, "k", a) == 0); /* inner is no object */
    CHECK(jt_add_item_to_array(a, a) == 0);             /* itself */
    CHECK(jt_add_item_to_array(a, NULL) == 0 && jt_add_item_to_array(NULL, a) == 0);
    CHECK(jt_add_item_to_object(o, NULL, a) == 0 && jt_add_item_to_object(NULL, "k", a) == 0);
    item = jt_create_array();
    CHECK(jt_add_item_to_array(a, item) == 1);
    CHECK(jt_add_item_to_array(item, a) == 0); /* a contains item: a cycle */
    CHECK(jt_is_valid(a) && jt_is_valid(o));

    /* A detached member of an object keeps its key until it gets a new one. */
    item = jt_detach_item(o, jt_get_object_item(o, "greeting"));
    CHECK(item == s && strcmp(s->key, "greeting") == 0);
    CHECK(jt_add_item_to_object(a, "x", s) == 0);
    CHECK(jt_add_item_to_array(a, s) == 1);
    item = jt_detach_item(a, s);
    CHECK(jt_add_item_to_object(o, "again", item) == 1 && strcmp(s->key, "again") == 0);
    CHECK(jt_get_object_item(o, "again") == s && jt_get_object_item(o, "greeting") == NULL);

    /* Out of memory in each allocation of each constructor. */
    for (i = 0; i < 2; i++) {
        st_fail_after = i;
        CHECK(jt_create_string("abc") == NULL);
    }
    st_fail_after = 0;
    CHECK(jt_create_number(1) == NULL);
    st_fail_after = 0;
    CHECK(jt_create_array() == NULL);
    st_fail_after = 0;
    CHECK(jt_create_object() == NULL);
    CHECK(jt_create_string(NULL) == NULL);
    item = jt_create_number(3);
    st_fail_after = 0;
    CHECK(jt_add_item_to_object(o, "three", item) == 0);
    CHECK(item->prev == NULL && item->key == NULL && jt_is_valid(o));
    jt_delete(item);
    st_fail_after = -1;

    jt_delete(a);
    jt_delete(o);
    jt_delete(NULL);
}

int main(void)
{
    static const long v[] = {10, 20, 30};
    struct jt *a;

    jt_init_hooks(&counting);
    a = numbers(v, 3);
    expect_numbers(a, v, 3);
    CHECK(jt_get_array_size(NULL) == 0 && jt_get_array_item(NULL, 0) == NULL);
    jt_delete(a);
    CHECK(live == 0);
    test_replace_and_detach();
    CHECK(live == 0);
    test_objects();
    CHECK(live == 0);

    /* Hooks: NULL members and NULL mean malloc / free. */
    {
        struct jt_hooks only_free = {NULL, counting_free};

        jt_init_hooks(&only_free);
        CHECK(jt_malloc == st_malloc && jt_free == counting_free);
    }
    jt_init_hooks(NULL);
    CHECK(jt_malloc == st_malloc && jt_free == free);
    a = numbers(v, 3);
    jt_delete(a);
    return st_finish("jtree");
}
