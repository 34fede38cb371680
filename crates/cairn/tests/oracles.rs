//! End-to-end: the drivers' checks catch changes of the code they test
//! that return values alone do not show.

mod common;

use common::{driver_catches, gen_checked, gen_checked_with};

const LIST: &str = r#"#include <stdlib.h>

struct node {
    int key;
    struct node *next;
};

/* Unlinks and frees the first node; returns the new head. */
struct node *pop_front(struct node *head)
{
    if (head == NULL)
        return NULL;
    struct node *rest = head->next;
    free(head);
    return rest;
}

int key_of(const struct node *n)
{
    int key = n->key;
    return key;
}
"#;

#[test]
fn a_missing_or_an_extra_free_fails_the_driver() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (_, _, out_dir) = gen_checked(dir.path(), "list.c", LIST);
    let driver = std::fs::read_to_string(out_dir.join("list_test.c")).expect("driver");
    assert!(driver.contains("cairn_was_freed(head_in, 1)"), "{driver}");
    let source = dir.path().join("list.c");
    assert!(driver_catches(
        &out_dir,
        &source,
        ("    free(head);", "    ;")
    ));
    assert!(driver_catches(
        &out_dir,
        &source,
        ("    return key;", "    free((void *)n);\n    return key;")
    ));
}

const HOOKS: &str = r#"#include <stdlib.h>

static void *(*alloc_hook)(size_t size) = malloc;
static void (*release_hook)(void *block) = free;

/* NULL restores the C library's allocator. */
void set_hooks(void *(*alloc)(size_t), void (*release)(void *))
{
    alloc_hook = alloc != NULL ? alloc : malloc;
    release_hook = release != NULL ? release : free;
}

int *make_pair(int x)
{
    int *pair = alloc_hook(2 * sizeof *pair);
    if (pair == NULL)
        return NULL;
    pair[0] = x;
    pair[1] = -x;
    return pair;
}

void drop_pair(int *pair)
{
    release_hook(pair);
}
"#;

#[test]
fn hooks_holding_the_allocator_and_free_are_checked_as_such() {
    // The driver replaces malloc and free for the whole program: a hook set
    // to malloc holds the driver's malloc, named as the code names it.
    let dir = tempfile::tempdir().expect("temp dir");
    let (_, _, out_dir) = gen_checked_with(dir.path(), "hooks.c", HOOKS, &["--alloc-may-fail"]);
    let driver = std::fs::read_to_string(out_dir.join("hooks_test.c")).expect("driver");
    assert!(driver.contains("alloc_hook == malloc"), "{driver}");
    assert!(driver.contains("release_hook == free"), "{driver}");
}

/// Members named after the allocator: an allocator-hooks struct and a
/// list's `free` callback, as real libraries write them.
const MEMBERS_NAMED_MALLOC_AND_FREE: &str = r#"
#include <stdlib.h>
#include <string.h>

struct allocator {
    void *(*malloc)(size_t size);
    void *(*realloc)(void *old, size_t size);
    void (*free)(void *object);
};

struct bag {
    char **items;
    int count;
    void (*free)(void *item);
};

static struct allocator hooks = { malloc, realloc, free };

int bag_add(struct bag *b, const char *item)
{
    char **grown = hooks.realloc(b->items, (size_t)(b->count + 1) * sizeof *grown);
    if (grown == NULL)
        return -1;
    b->items = grown;
    char *copy = hooks.malloc(strlen(item) + 1);
    if (copy == NULL)
        return -1;
    strcpy(copy, item);
    b->items[b->count] = copy;
    if (b->count < 1000)
        b->count++;
    return 0;
}

void bag_drop_last(struct bag *b)
{
    if (b->count == 0)
        return;
    b->count--;
    if (b->free != NULL)
        b->free(b->items[b->count]);
    else
        hooks.free(b->items[b->count]);
}
"#;

#[test]
fn members_named_after_the_allocator_keep_their_names() {
    // No macro renames the code under test: the driver replaces the
    // allocator by definitions of its own, so `b->free` and `hooks.malloc`
    // still name the members.
    let dir = tempfile::tempdir().expect("temp dir");
    let (stdout, _, out_dir) = gen_checked_with(
        dir.path(),
        "bag.c",
        MEMBERS_NAMED_MALLOC_AND_FREE,
        &["--alloc-may-fail", "--sanitize"],
    );
    let driver = std::fs::read_to_string(out_dir.join("bag_test.c")).expect("driver");
    assert!(!driver.contains("#define free"), "{driver}");
    assert!(!driver.contains("#define malloc"), "{driver}");
    assert!(
        driver.contains("cairn_fail_allocations((const unsigned[])"),
        "{driver}"
    );
    assert!(stdout.contains("0 failed"), "{stdout}");
}
