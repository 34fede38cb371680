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
fn hooks_holding_the_wrapped_allocator_and_free_are_checked_as_such() {
    // The driver compiles the code with malloc and free defined to its
    // counting wrappers: a hook set to malloc holds cairn_malloc.
    let dir = tempfile::tempdir().expect("temp dir");
    let (_, _, out_dir) = gen_checked_with(dir.path(), "hooks.c", HOOKS, &["--alloc-may-fail"]);
    let driver = std::fs::read_to_string(out_dir.join("hooks_test.c")).expect("driver");
    assert!(driver.contains("alloc_hook == cairn_malloc"), "{driver}");
    assert!(driver.contains("release_hook == cairn_free"), "{driver}");
}
