//! End-to-end over `tests/corpus/claims`: inputs set up by initialisers
//! are built as a person writes them, the findings are the right ones with
//! the right vouching, and every test passes (none is left out).

mod common;

use common::{corpus, gen_checked_with};
use std::path::Path;

/// `gen --check` on the corpus file `name`; its `tests.json`, after
/// checking that no test was left out, and the driver's text.
fn generate(dir: &Path, name: &str) -> (serde_json::Value, String) {
    let source = std::fs::read_to_string(corpus("claims", name)).expect("corpus file");
    let (_, _, out) = gen_checked_with(dir, name, &source, &["-j", "2"]);
    let stem = name.trim_end_matches(".c");
    let json: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(out.join(format!("{stem}.tests.json"))).expect("tests.json"),
    )
    .expect("JSON");
    for function in json["functions"].as_array().expect("functions") {
        assert_eq!(
            function["dropped_tests"].as_array().map(Vec::len),
            Some(0),
            "{name}: {function}"
        );
    }
    let driver = std::fs::read_to_string(out.join(format!("{stem}_test.c"))).expect("driver");
    (json, driver)
}

/// Each finding as (function, kind, vouched for).
fn findings(json: &serde_json::Value) -> Vec<(String, String, bool)> {
    let mut found = Vec::new();
    for function in json["functions"].as_array().expect("functions") {
        for finding in function["findings"].as_array().expect("findings") {
            found.push((
                function["name"].as_str().unwrap_or("?").to_string(),
                finding["kind"].as_str().unwrap_or("?").to_string(),
                finding["unvouched_inputs"]
                    .as_array()
                    .is_some_and(Vec::is_empty),
            ));
        }
    }
    found
}

fn vouched(json: &serde_json::Value) -> Vec<(String, String)> {
    findings(json)
        .into_iter()
        .filter(|(_, _, vouched)| *vouched)
        .map(|(function, kind, _)| (function, kind))
        .collect()
}

fn pair(function: &str, kind: &str) -> (String, String) {
    (function.to_string(), kind.to_string())
}

#[test]
fn initialisers_set_up_storage_as_a_person_writes_it() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (json, driver) = generate(dir.path(), "tokenizer.c");
    assert!(
        driver.contains("struct tok *t = malloc(sizeof *t);"),
        "{driver}"
    );
    assert!(driver.contains("tok_init(t, "), "{driver}");
    assert_eq!(findings(&json), []);

    let dir = tempfile::tempdir().expect("temp dir");
    let (json, driver) = generate(dir.path(), "buffer.c");
    assert!(driver.contains("if (buf_init(b, "), "{driver}");
    assert!(driver.contains(") != 0) {"), "{driver}");
    assert_eq!(vouched(&json), []);
}

#[test]
fn null_callbacks_are_vouched_for_only_where_the_code_allows_null() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (json, _) = generate(dir.path(), "callbacks.c");
    let all = findings(&json);
    assert!(all.contains(&("parse".to_string(), "null-dereference".to_string(), false)));
    assert!(all.contains(&("feed".to_string(), "null-dereference".to_string(), false)));
    assert_eq!(vouched(&json), []);
}

#[test]
fn leaks_are_only_what_the_call_allocated_and_lost() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (json, _) = generate(dir.path(), "list.c");
    assert_eq!(vouched(&json), [pair("list_peek_copy", "leak")]);
    assert_eq!(findings(&json).len(), 1);
}

#[test]
fn findings_on_free_form_shapes_are_vouched_for_only_under_an_invariant() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (json, _) = generate(dir.path(), "avl_free.c");
    assert!(!findings(&json).is_empty());
    assert_eq!(vouched(&json), []);

    let dir = tempfile::tempdir().expect("temp dir");
    let (json, _) = generate(dir.path(), "avl_checked.c");
    assert_eq!(
        vouched(&json),
        [pair("second_smallest", "null-dereference")]
    );
}

#[test]
fn null_for_a_nonnull_libc_parameter_is_a_finding_not_a_test() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (json, _) = generate(dir.path(), "memcopy.c");
    assert_eq!(vouched(&json), [pair("copy_prefix", "null-argument")]);
}

#[test]
fn what_a_function_without_a_body_may_write_is_never_checked() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (json, driver) = generate(dir.path(), "port.c");
    assert!(!driver.contains("queue."), "{driver}");
    assert!(driver.contains("->owner is"), "{driver}");
    assert_eq!(findings(&json), []);
}

#[test]
fn member_addresses_and_indexes_are_checked_as_the_sanitizers_do() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (json, driver) = generate(dir.path(), "member_addresses.c");
    // The slots of a table whose key address slot_key takes point to
    // storage, as the sanitizers require of `&t->slots[i].key`: no test is
    // left out (`generate` checks), where a NULL `slots` was one before.
    assert!(driver.contains("t_in->slots = t_slots_in;"), "{driver}");
    // `&s->next` with `s` NULL and an item outside the menu's 8 are the
    // findings; the folded `offsetof` and the index past a last member
    // array (which may be flexible) none.
    let found: Vec<(String, String)> = findings(&json)
        .into_iter()
        .map(|(function, kind, _)| (function, kind))
        .collect();
    assert_eq!(
        found,
        [
            pair("next_link", "null-dereference"),
            // `m->selected - 1` at INT_MIN.
            pair("current", "signed-overflow"),
            pair("current", "out-of-bounds")
        ]
    );
    assert!(driver.contains("last_byte("), "{driver}");
}

#[test]
fn a_pointer_in_an_input_union_is_what_a_test_writes_there() {
    let dir = tempfile::tempdir().expect("temp dir");
    // No test is left out (`generate` checks): a driver writes the union's
    // view with NULL pointers, so the engine reads NULL there too.
    let (json, _) = generate(dir.path(), "union_views.c");
    let function = &json["functions"][0];
    let goals = function["goals"].as_array().expect("goals");
    let uncovered: Vec<&serde_json::Value> =
        goals.iter().filter(|g| g["covered"] == false).collect();
    assert_eq!(uncovered.len(), 1, "{function}");
    // A bound, never a proof: another caller's bytes may point somewhere.
    let reason = uncovered[0]["reason"].as_str().unwrap_or("");
    assert!(reason.starts_with("not reached within bounds"), "{reason}");
    // A NULL pointer in one view and a number in the other: the view
    // holding the number writes the union (NULL is zero bytes), and the
    // pointer the bytes hold is NULL within the bound.
    let port = &json["functions"][1];
    assert_eq!(port["name"], "forwarded_port");
    let goals = port["goals"].as_array().expect("goals");
    let nothing_forwarded = goals.iter().find(|g| g["key"] == "forwarded_port:48:9:F");
    assert_eq!(
        nothing_forwarded.map(|g| &g["covered"]),
        Some(&serde_json::json!(true)),
        "{port}"
    );
    let forwarded = goals.iter().find(|g| g["key"] == "forwarded_port:48:9:T");
    let reason = forwarded.and_then(|g| g["reason"].as_str()).unwrap_or("");
    assert!(reason.starts_with("not reached within bounds"), "{reason}");
}
