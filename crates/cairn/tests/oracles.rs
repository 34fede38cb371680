//! End-to-end: the drivers' checks catch changes of the code they test
//! that return values alone do not show.

mod common;

use common::{driver_catches, gen_checked};

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
