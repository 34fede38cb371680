//! End-to-end tests of `cairn path` on the papers' situations
//! (tests/corpus/paths): verdicts and exit codes, the shape of the written
//! test's input, the explanation of an infeasible path, and a driver that
//! passes `cairn check`.

use serde_json::Value;
mod common;

use common::{arg, cairn, line_of, text};
use std::path::Path;

/// The spec made of the lines holding each of `markers`, in order.
fn spec(file: &Path, markers: &[&str]) -> String {
    let lines: Vec<String> = markers
        .iter()
        .map(|m| line_of(file, m).to_string())
        .collect();
    lines.join(",")
}

/// Runs `cairn path`, requires exit 0 and a passing `cairn check`, and
/// returns the only test of the written tests.json.
fn followed(file: &str, function: &str, markers: &[&str]) -> Value {
    let source = common::corpus("paths", file);
    let out = tempfile::tempdir().expect("temp dir");
    let out_dir = arg(out.path());
    let run = cairn(&[
        "path",
        arg(&source),
        "-f",
        function,
        "--path",
        &spec(&source, markers),
        "-o",
        out_dir,
    ]);
    let stdout = text(&run.stdout);
    assert_eq!(run.status.code(), Some(0), "{stdout}{}", text(&run.stderr));
    assert!(stdout.starts_with("path followed:"), "{stdout}");
    let check = cairn(&["check", out_dir]);
    assert_eq!(
        check.status.code(),
        Some(0),
        "{}{}",
        text(&check.stdout),
        text(&check.stderr)
    );
    let stem = file.trim_end_matches(".c");
    let json = std::fs::read_to_string(out.path().join(format!("{stem}.tests.json")))
        .expect("tests.json written");
    let json: Value = serde_json::from_str(&json).expect("tests.json parses");
    let tests = json["functions"][0]["tests"]
        .as_array()
        .expect("tests")
        .clone();
    assert_eq!(tests.len(), 1);
    tests[0].clone()
}

fn objects(test: &Value) -> Vec<Value> {
    test["inputs"]["objects"]
        .as_array()
        .expect("input objects")
        .clone()
}

fn object_named<'t>(test: &'t Value, name: &str) -> &'t Value {
    test["inputs"]["objects"]
        .as_array()
        .and_then(|objects| objects.iter().find(|o| o["name"] == name))
        .unwrap_or_else(|| panic!("no input object {name} in {test}"))
}

fn argument<'t>(test: &'t Value, name: &str) -> &'t Value {
    test["inputs"]["args"]
        .as_array()
        .and_then(|args| args.iter().find(|a| a["name"] == name))
        .map(|a| &a["value"])
        .unwrap_or_else(|| panic!("no argument {name} in {test}"))
}

#[test]
fn a_bst_path_left_right_found_needs_three_nodes_in_that_order() {
    let loop_test = "while (node != NULL)";
    let less = "if (y < node->key)";
    let greater = "else if (y > node->key)";
    let test = followed(
        "bst_find.c",
        "tree_contains",
        &[
            loop_test,
            less,
            "node = node->left",
            loop_test,
            less,
            greater,
            "node = node->right",
            loop_test,
            less,
            greater,
            "return 1",
        ],
    );
    assert_eq!(objects(&test).len(), 3, "{test}");
    let y = argument(&test, "y").as_i64().expect("y");
    let key = |name: &str| object_named(&test, name)["init"][0]["key"].as_i64();
    let (k1, k2, k3) = (
        key("*node").expect("k1"),
        key("*node->left").expect("k2"),
        key("*node->left->right").expect("k3"),
    );
    assert!(y < k1 && y > k2 && y == k3, "y={y} k={k1},{k2},{k3}");
}

#[test]
fn aliased_pointers_checked_once_against_null_explain_the_infeasible_path() {
    let source = common::corpus("paths", "slot_alias.c");
    let path = spec(
        &source,
        &[
            "int result = 0",
            "if (p == q)",
            "result = 1",
            "if (p != NULL)",
            "*p = value",
            "result += 2",
            "if (q == NULL)",
            "result += 4",
            "return result",
        ],
    );
    let run = cairn(&[
        "path",
        arg(&source),
        "-f",
        "fill_slots",
        "--path",
        &path,
        "-o",
        "/nonexistent/never-written",
    ]);
    let stdout = text(&run.stdout);
    assert_eq!(run.status.code(), Some(3), "{stdout}{}", text(&run.stderr));
    assert!(stdout.starts_with("infeasible:"), "{stdout}");
    let reasons: Vec<&str> = stdout.lines().skip(1).map(str::trim).collect();
    let expected: Vec<String> = [
        ("if (p == q)", "p == q"),
        ("if (p != NULL)", "p != NULL"),
        ("if (q == NULL)", "q == NULL"),
    ]
    .iter()
    .map(|(marker, cond)| format!("line {}: {cond}", line_of(&source, marker)))
    .collect();
    assert_eq!(reasons, expected, "{stdout}");
}

#[test]
fn a_list_deletion_after_two_rounds_of_its_loop_needs_three_items() {
    let loop_test = "while (cur != NULL";
    let test = followed(
        "list_remove.c",
        "list_remove",
        &[
            "*prev = NULL",
            "*cur = head",
            loop_test,
            "prev = cur;",
            "cur = cur->next;",
            loop_test,
            "prev = cur;",
            "cur = cur->next;",
            loop_test,
            "if (cur == NULL)",
            "if (prev == NULL)",
            "prev->next = cur->next",
            "free(cur)",
            "the list without the item",
        ],
    );
    let objects = objects(&test);
    let names: Vec<&str> = objects
        .iter()
        .map(|o| o["name"].as_str().unwrap_or(""))
        .collect();
    assert_eq!(
        names,
        ["*head", "*head->next", "*head->next->next"],
        "{test}"
    );
    let v = argument(&test, "v").as_i64().expect("v");
    let value = |name: &str| object_named(&test, name)["init"][0]["value"].as_i64();
    assert_ne!(value("*head"), Some(v));
    assert_ne!(value("*head->next"), Some(v));
    assert_eq!(value("*head->next->next"), Some(v));
}

#[test]
fn an_alias_tested_after_the_writes_comes_out_as_one_object() {
    let test = followed(
        "late_alias.c",
        "overwrite",
        &["*x = 1", "*y = 2", "if (x == y)", "return *x"],
    );
    assert_eq!(objects(&test).len(), 1, "{test}");
    assert_eq!(argument(&test, "x"), argument(&test, "y"), "{test}");
}

#[test]
fn a_bound_that_stops_the_search_exits_4() {
    let source = common::corpus("paths", "list_remove.c");
    let loop_test = "while (cur != NULL";
    let path = spec(
        &source,
        &[
            "*prev = NULL",
            "*cur = head",
            loop_test,
            "prev = cur;",
            "cur = cur->next;",
            loop_test,
            "prev = cur;",
            "cur = cur->next;",
            loop_test,
            "if (cur == NULL)",
            "if (prev == NULL)",
        ],
    );
    let run = cairn(&[
        "path",
        arg(&source),
        "-f",
        "list_remove",
        "--path",
        &path,
        "--max-nodes",
        "2",
    ]);
    let stdout = text(&run.stdout);
    assert_eq!(run.status.code(), Some(4), "{stdout}{}", text(&run.stderr));
    assert!(stdout.contains("(max_nodes: "), "{stdout}");
}

#[test]
fn a_step_without_code_is_bad_usage() {
    let source = common::corpus("paths", "late_alias.c");
    let run = cairn(&["path", arg(&source), "-f", "overwrite", "--path", "1,2"]);
    assert_eq!(run.status.code(), Some(2));
    assert!(text(&run.stderr).contains("names no code"));
}
