/* jtree - an in-memory tree of JSON-like values.
 *
 * An array or object keeps its members in a list hanging off `child`,
 * linked forward through `next` (the last member's is NULL) and backward
 * through `prev`, where the FIRST member's `prev` points to the LAST member
 * so that appending is O(1).  An item that is not a member of anything (a
 * root, or an item just created or detached) has `prev` and `next` NULL.
 * Members of an object carry their name in `key`.  The tree owns its
 * strings; all memory goes through the allocation hooks. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "corpus_check.h"

enum jt_type { JT_NULL = 1, JT_FALSE, JT_TRUE, JT_NUMBER, JT_STRING, JT_ARRAY, JT_OBJECT };

struct jt {
    struct jt *next;
    struct jt *prev;
    struct jt *child;
    int type;
    long number;
    char *string;
    char *key;
};

struct jt_hooks {
    void *(*malloc_fn)(size_t size);
    void (*free_fn)(void *ptr);
};

static void *(*jt_malloc)(size_t size) = malloc;
static void (*jt_free)(void *ptr) = free;
#define JT_HOOKS_SET (jt_malloc != NULL && jt_free != NULL) /* always, through the API */

/* Sets the allocator; NULL (for `hooks` or a function) means malloc / free. */
void jt_init_hooks(const struct jt_hooks *hooks) {
    jt_malloc = hooks != NULL && hooks->malloc_fn != NULL ? hooks->malloc_fn : malloc;
    jt_free = hooks != NULL && hooks->free_fn != NULL ? hooks->free_fn : free;
}

#define JT_CHECK_MAX_NODES 256 /* the debug check's limits: larger or deeper */
#define JT_CHECK_MAX_DEPTH 64  /* trees count as invalid */

struct jt_check {
    const struct jt *seen[JT_CHECK_MAX_NODES];
    int count;
};

static int jt_check_item(const struct jt *item, int depth, struct jt_check *c) {
    const struct jt *member, *last = NULL;
    int i;

    if (depth > JT_CHECK_MAX_DEPTH || c->count == JT_CHECK_MAX_NODES) return 0;
    for (i = 0; i < c->count; i++)
        if (c->seen[i] == item) return 0; /* shared or cyclic */
    c->seen[c->count++] = item;
    if (item->type < JT_NULL || item->type > JT_OBJECT) return 0;
    if (item->type == JT_STRING && item->string == NULL) return 0;
    if (item->type != JT_ARRAY && item->type != JT_OBJECT) return item->child == NULL;
    for (member = item->child; member != NULL; member = member->next) {
        if (member != item->child && member->prev != last) return 0;
        if (item->type == JT_OBJECT && member->key == NULL) return 0;
        if (!jt_check_item(member, depth + 1, c)) return 0;
        last = member;
    }
    return item->child == NULL || item->child->prev == last;
}

/* Debug check: 1 iff the hooks are set and `item` is a well-formed tree: no
 * node reached twice, known types, strings where the type needs one, members
 * linked as described above.  The item's own `next` and `prev` are ignored. */
/* cairn: invariant struct jt=jt_is_valid */
int jt_is_valid(const struct jt *item) {
    struct jt_check c;

    if (item == NULL || !JT_HOOKS_SET) return 0;
    c.count = 0;
    return jt_check_item(item, 0, &c);
}

/* 1 iff `item` is one of the members of `container`. */
int jt_is_member(const struct jt *container, const struct jt *item) {
    const struct jt *member;

    for (member = container->child; member != NULL; member = member->next)
        if (member == item)
            return 1;
    return 0;
}

static int jt_contains(const struct jt *tree, const struct jt *node) {
    const struct jt *member;

    if (tree == node) return 1;
    for (member = tree->child; member != NULL; member = member->next)
        if (jt_contains(member, node))
            return 1;
    return 0;
}

static char *jt_strdup(const char *s) {
    size_t size = strlen(s) + 1;
    char *copy = jt_malloc(size);

    if (copy != NULL)
        memcpy(copy, s, size);
    return copy;
}

static struct jt *jt_new_item(int type) {
    struct jt *item = jt_malloc(sizeof *item);

    if (item != NULL) {
        memset(item, 0, sizeof *item);
        item->type = type;
    }
    return item;
}

static void jt_free_tree(struct jt *item) {
    struct jt *member, *next;

    for (member = item->child; member != NULL; member = next) {
        next = member->next;
        jt_free_tree(member);
    }
    if (item->string != NULL)
        jt_free(item->string);
    if (item->key != NULL)
        jt_free(item->key);
    jt_free(item);
}

/* Frees `item` (not a member of anything, or NULL) and all inside it. */
void jt_delete(struct jt *item) {
    if (item == NULL) return;
    EXPECT_INPUT(jt_is_valid(item) && item->prev == NULL && item->next == NULL);
    jt_free_tree(item);
}

struct jt *jt_create_object(void) { EXPECT_INPUT(JT_HOOKS_SET); return jt_new_item(JT_OBJECT); }
struct jt *jt_create_array(void) { EXPECT_INPUT(JT_HOOKS_SET); return jt_new_item(JT_ARRAY); }

struct jt *jt_create_number(long number) {
    struct jt *item;

    EXPECT_INPUT(JT_HOOKS_SET);
    if ((item = jt_new_item(JT_NUMBER)) != NULL) item->number = number;
    return item;
}

/* A string item holding a copy of `s`; NULL for NULL or out of memory. */
struct jt *jt_create_string(const char *s) {
    struct jt *item;

    EXPECT_INPUT(JT_HOOKS_SET);
    if (s == NULL) return NULL;
    item = jt_new_item(JT_STRING);
    if (item == NULL) return NULL;
    item->string = jt_strdup(s);
    if (item->string == NULL) {
        jt_free(item);
        return NULL;
    }
    return item;
}

/* `item` is not a member of anything and does not contain `container`. */
static int jt_can_adopt(const struct jt *container, const struct jt *item) {
    return item->prev == NULL && item->next == NULL && !jt_contains(item, container);
}

static void jt_link_last(struct jt *container, struct jt *item) {
    struct jt *first = container->child;

    if (first == NULL) {
        container->child = item;
        item->prev = item;
    } else {
        item->prev = first->prev;
        first->prev->next = item;
        first->prev = item;
    }
}

/* Appends `item` to `array`, which then owns it.  1 on success, 0 when
 * `array` is no array or `item` cannot be adopted (it stays the caller's). */
int jt_add_item_to_array(struct jt *array, struct jt *item) {
    if (array == NULL || item == NULL) return 0;
    EXPECT_INPUT(jt_is_valid(array) && jt_is_valid(item));
    if (array->type != JT_ARRAY || !jt_can_adopt(array, item)) return 0;
    jt_link_last(array, item);
    ENSURE_VALID(jt_is_valid, array);
    return 1;
}

/* Appends `item` to `object` under a copy of `key` (keys may repeat: lookups
 * find the first).  1 on success, 0 on failure (`item` stays the caller's). */
int jt_add_item_to_object(struct jt *object, const char *key, struct jt *item) {
    char *copy;

    if (object == NULL || key == NULL || item == NULL) return 0;
    EXPECT_INPUT(jt_is_valid(object) && jt_is_valid(item));
    if (object->type != JT_OBJECT || !jt_can_adopt(object, item)) return 0;
    copy = jt_strdup(key);
    if (copy == NULL) return 0;
    if (item->key != NULL)
        jt_free(item->key);
    item->key = copy;
    jt_link_last(object, item);
    ENSURE_VALID(jt_is_valid, object);
    return 1;
}

/* The number of members of an array or object (0 for NULL). */
int jt_get_array_size(const struct jt *array) {
    const struct jt *member;
    size_t size = 0;

    if (array == NULL) return 0;
    EXPECT_VALID(jt_is_valid, array);
    for (member = array->child; member != NULL; member = member->next)
        size++;
    return (int)size;
}

static struct jt *jt_member_at(const struct jt *container, int index) {
    struct jt *member = container->child;

    for (; member != NULL && index > 0; member = member->next)
        index--;
    return index < 0 ? NULL : member;
}

/* Member `index` (from 0) of an array or object, or NULL. */
struct jt *jt_get_array_item(const struct jt *array, int index) {
    if (array == NULL) return NULL;
    EXPECT_VALID(jt_is_valid, array);
    return jt_member_at(array, index);
}

/* The first member of `object` named `key` (case-sensitive), or NULL. */
struct jt *jt_get_object_item(const struct jt *object, const char *key) {
    struct jt *member;

    if (object == NULL || key == NULL) return NULL;
    EXPECT_VALID(jt_is_valid, object);
    if (object->type != JT_OBJECT) return NULL;
    for (member = object->child; member != NULL; member = member->next)
        if (strcmp(member->key, key) == 0)
            return member;
    return NULL;
}

/* Unlinks `item`, a member of `parent`, and gives it back to the caller. */
struct jt *jt_detach_item(struct jt *parent, struct jt *item) {
    if (parent == NULL || item == NULL) return NULL;
    EXPECT_INPUT(jt_is_valid(parent) && jt_is_member(parent, item));
    if (item != parent->child)
        item->prev->next = item->next;
    if (item->next != NULL)
        item->next->prev = item->prev;
    if (item == parent->child)
        parent->child = item->next;
    else if (item->next == NULL)
        parent->child->prev = item->prev;
    item->prev = NULL;
    item->next = NULL;
    ENSURE_VALID(jt_is_valid, parent);
    return item;
}

/* Puts `item` in the place of member `index` of `array` and deletes the
 * member that was there.  1 on success; 0 when there is no such member or
 * `item` cannot be adopted (it stays the caller's). */
int jt_replace_item_in_array(struct jt *array, int index, struct jt *item) {
    struct jt *old;

    if (array == NULL || item == NULL) return 0;
    EXPECT_INPUT(jt_is_valid(array) && jt_is_valid(item));
    old = jt_member_at(array, index);
    if (array->type != JT_ARRAY || old == NULL || !jt_can_adopt(array, item)) return 0;
    item->next = old->next;
    item->prev = old->prev;
    if (item->next != NULL)
        item->next->prev = item;
    else
        array->child->prev = item;
    if (old == array->child) {
        if (item->prev == old)
            item->prev = item; /* it was the only member */
        array->child = item;
    } else {
        item->prev->next = item;
    }
    jt_free_tree(old);
    ENSURE_VALID(jt_is_valid, array);
    return 1;
}
