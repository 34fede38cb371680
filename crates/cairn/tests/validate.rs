//! End-to-end: `gen` runs what it wrote before handing it over. A test the
//! run contradicts is left out and says why; the branches only it covered
//! are no longer claimed; `check` then passes.

mod common;

use common::{arg, cairn, text};

/// A write to the standard output has an unconstrained result in the
/// engine (as `printf`'s): it predicts a test where `putchar` fails, and
/// the real `putchar` succeeds, so running that test contradicts it.
const OUTPUT: &str = r#"
#include <stdio.h>

int shout(int c)
{
    if (putchar(c) == EOF)
        return -1;
    return 0;
}

int clamp(int x)
{
    if (x > 10)
        return 10;
    return x;
}
"#;

#[test]
fn tests_the_run_contradicts_are_left_out_with_their_reason() {
    let dir = tempfile::tempdir().expect("temp dir");
    let source = dir.path().join("output.c");
    std::fs::write(&source, OUTPUT).expect("write source");
    let out = dir.path().join("out");
    let run = cairn(&["gen", arg(&source), "-o", arg(&out), "--max-time", "10"]);
    let stdout = text(&run.stdout);
    assert!(run.status.success(), "{stdout}{}", text(&run.stderr));
    let json: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(out.join("output.tests.json")).expect("tests.json"),
    )
    .expect("JSON");
    let function = |name: &str| {
        json["functions"]
            .as_array()
            .expect("functions")
            .iter()
            .find(|f| f["name"] == name)
            .cloned()
            .expect(name)
    };
    let shout = function("shout");
    let dropped = shout["dropped_tests"].as_array().expect("dropped tests");
    assert!(!dropped.is_empty(), "{shout}");
    for test in dropped {
        assert!(
            test["reason"].as_str().is_some_and(|r| !r.is_empty()),
            "{test}"
        );
    }
    // The test of `putchar` failing is gone, and so is its claim.
    for goal in shout["goals"].as_array().expect("goals") {
        let fails = goal["label"]
            .as_str()
            .is_some_and(|l| l.ends_with("== (-1): true"));
        if fails {
            assert_eq!(goal["covered"], false, "{goal}");
        }
    }
    assert!(stdout.contains("left out"), "{stdout}");
    // The rest is untouched, and what is left passes.
    assert!(function("clamp")["dropped_tests"]
        .as_array()
        .is_some_and(Vec::is_empty));
    let check = cairn(&["check", arg(&out), "--sanitize"]);
    assert!(check.status.success(), "{}", text(&check.stdout));
}

/// The `messages` of every test run in `check --json`'s output.
fn test_messages(value: &serde_json::Value, found: &mut Vec<String>) {
    match value {
        serde_json::Value::Object(map) => {
            if let Some(serde_json::Value::Array(messages)) = map.get("messages") {
                found.extend(
                    messages
                        .iter()
                        .filter_map(|m| m.as_str().map(str::to_string)),
                );
            }
            map.values().for_each(|v| test_messages(v, found));
        }
        serde_json::Value::Array(items) => items.iter().for_each(|v| test_messages(v, found)),
        _ => {}
    }
}

#[test]
fn a_test_failing_under_the_sanitizers_names_what_they_reported() {
    let dir = tempfile::tempdir().expect("temp dir");
    let source = dir.path().join("scale.c");
    std::fs::write(&source, "int scale(int x)\n{\n    return x * 3;\n}\n").expect("write");
    let out = dir.path().join("out");
    let run = cairn(&["gen", arg(&source), "-o", arg(&out), "--no-validate"]);
    assert!(run.status.success(), "{}", text(&run.stderr));
    // The code changes behind the driver: every test now reads past an array.
    let changed = "int scale(int x)\n{\n    int table[2] = { 1, 2 };\n    \
                   volatile int i = 2;\n    return table[i] * 0 + x * 3;\n}\n";
    std::fs::write(&source, changed).expect("write");
    let check = cairn(&["check", arg(&out), "--sanitize", "--json"]);
    assert!(!check.status.success(), "{}", text(&check.stdout));
    let json: serde_json::Value = serde_json::from_slice(&check.stdout).expect("JSON");
    let mut messages = Vec::new();
    test_messages(&json, &mut messages);
    assert!(
        messages
            .iter()
            .any(|m| m.starts_with("under the sanitizers: ")
                && m.contains("scale.c:5:")
                && m.contains("runtime error: index 2 out of bounds")),
        "{messages:?}"
    );
}
