//! End-to-end: `gen` runs what it wrote before handing it over. A test the
//! run contradicts is left out and says why; the branches only it covered
//! are no longer claimed; `check` then passes.

mod common;

use common::{arg, cairn, text};

/// The engine takes a stream parameter for a made-up object (it cannot
/// build a real `FILE`): the real `fputc` on it aborts, so running the
/// tests contradicts every prediction for `put_two`.
const STREAM: &str = r#"
#include <stdio.h>

int put_two(FILE *f, int c)
{
    if (fputc(c, f) == EOF)
        return -1;
    if (fputc(c + 1 > 255 ? 0 : c + 1, f) == EOF)
        return -2;
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
    let source = dir.path().join("stream.c");
    std::fs::write(&source, STREAM).expect("write source");
    let out = dir.path().join("out");
    let run = cairn(&["gen", arg(&source), "-o", arg(&out), "--max-time", "10"]);
    let stdout = text(&run.stdout);
    assert!(run.status.success(), "{stdout}{}", text(&run.stderr));
    let json: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(out.join("stream.tests.json")).expect("tests.json"),
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
    let put_two = function("put_two");
    let dropped = put_two["dropped_tests"].as_array().expect("dropped tests");
    assert!(!dropped.is_empty(), "{put_two}");
    assert_eq!(
        put_two["tests"].as_array().map(Vec::len),
        Some(0),
        "{put_two}"
    );
    for test in dropped {
        assert!(
            test["reason"].as_str().is_some_and(|r| !r.is_empty()),
            "{test}"
        );
    }
    for goal in put_two["goals"].as_array().expect("goals") {
        assert_eq!(goal["covered"], false, "{goal}");
    }
    assert!(stdout.contains("left out"), "{stdout}");
    // The rest is untouched, and what is left passes.
    assert!(function("clamp")["dropped_tests"]
        .as_array()
        .is_some_and(Vec::is_empty));
    let check = cairn(&["check", arg(&out), "--sanitize"]);
    assert!(check.status.success(), "{}", text(&check.stdout));
}
