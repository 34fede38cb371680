//! End-to-end: functions that read and write `FILE *` streams get tests
//! that pass. The drivers open real streams (`fmemopen` over the contents
//! to read, a sink that takes a chosen number of bytes to write), so the
//! end-of-file and write-error branches are covered too, and gcov and the
//! sanitizers agree with every claim.

mod common;

use common::{gen_checked_with, text};

const SOURCE: &str = r#"
#include <stdio.h>
#include <string.h>

/* One CSV field, quoted, its quotes doubled; -1 when a write fails. */
int write_field(FILE *out, const char *s)
{
    if (fputc('"', out) == EOF)
        return -1;
    for (; *s != '\0'; s++) {
        if (*s == '"' && fputc('"', out) == EOF)
            return -1;
        if (fputc(*s, out) == EOF)
            return -1;
    }
    if (fputc('"', out) == EOF)
        return -1;
    return 0;
}

/* Lines, the last one counted without its newline. */
int count_lines(FILE *in)
{
    int c;
    int lines = 0;
    int last = '\n';
    while ((c = fgetc(in)) != EOF) {
        if (c == '\n')
            lines++;
        last = c;
    }
    if (last != '\n')
        lines++;
    return lines;
}

/* The longest line, read in pieces of at most 5 characters. */
int longest_piece(FILE *in)
{
    char buf[6];
    int longest = 0;
    while (fgets(buf, sizeof buf, in) != NULL) {
        int len = (int)strlen(buf);
        if (len > longest)
            longest = len;
    }
    return longest;
}

/* A name and a value as `name=value`, then `!` for a large value. */
int dump(FILE *out, const char *name, int value)
{
    if (fprintf(out, "%s=%d\n", name, value) < 0)
        return -1;
    if (value > 100 && fputs("!\n", out) == EOF)
        return -2;
    return 0;
}
"#;

#[test]
fn stream_functions_get_passing_tests_of_every_branch() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (stdout, stderr, out) = gen_checked_with(dir.path(), "streams.c", SOURCE, &["--sanitize"]);
    assert!(!stdout.contains("left out"), "{stdout}{stderr}");
    let json: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(out.join("streams.tests.json")).expect("tests.json"),
    )
    .expect("JSON");
    let functions = json["functions"].as_array().expect("functions");
    assert_eq!(functions.len(), 4, "{json}");
    for function in functions {
        let name = &function["name"];
        let dropped = function["dropped_tests"].as_array().expect("dropped");
        assert!(dropped.is_empty(), "{name}: {dropped:?}");
        for goal in function["goals"].as_array().expect("goals") {
            assert_eq!(goal["covered"], true, "{name}: {goal}");
        }
        let tests = function["tests"].as_array().expect("tests");
        assert!(!tests.is_empty(), "{name}");
        // Every test opens a real stream for the `FILE *` parameter.
        for test in tests {
            let streams = test["inputs"]["streams"].as_array().expect("streams");
            assert_eq!(streams.len(), 1, "{name}: {test}");
            assert!(
                test["inputs"]["objects"]
                    .as_array()
                    .expect("objects")
                    .iter()
                    .all(|o| o["elem_type"] != "FILE" && o["elem_type"] != "struct _IO_FILE"),
                "{name}: {test}"
            );
        }
    }
    // A write that fails after others succeeded: a sink with little room.
    let write_field = functions
        .iter()
        .find(|f| f["name"] == "write_field")
        .expect("write_field");
    let rooms: Vec<u64> = write_field["tests"]
        .as_array()
        .expect("tests")
        .iter()
        .filter_map(|t| t["inputs"]["streams"][0]["room"].as_u64())
        .collect();
    assert!(rooms.iter().any(|r| *r > 0), "{rooms:?}");
    let driver = std::fs::read_to_string(out.join("streams_test.c")).expect("driver");
    assert!(driver.contains("fmemopen("), "{driver}");
    assert!(driver.contains("cairn_open_sink("), "{driver}");
    assert!(!driver.contains("calloc(1, sizeof *out_in)"), "{driver}");
    // The check's own measure: every branch gcov counts was taken.
    let check = common::cairn(&["check", common::arg(&out), "--sanitize"]);
    let report = text(&check.stdout);
    assert!(check.status.success(), "{report}");
    for name in ["write_field", "count_lines", "longest_piece", "dump"] {
        let row = report
            .lines()
            .find(|l| l.trim_start().starts_with(name))
            .unwrap_or_else(|| panic!("{name} in {report}"));
        let columns: Vec<&str> = row.split_whitespace().collect();
        let (predicted, measured) = (columns[2], columns[3]);
        let (taken, all) = measured.split_once('/').expect("taken/all");
        assert_eq!(taken, all, "{name}: {row}");
        assert_eq!(predicted, measured, "{name}: {row}");
    }
}

/// Writes to the standard output and error succeed in a test, as the
/// driver's runner reads them: their results are what a successful write
/// returns (before, unconstrained, and the tests expecting a failure failed).
const STANDARD_WRITES: &str = r#"#include <stdio.h>

int report(int code)
{
    if (fprintf(stderr, "code %d\n", code) < 0)
        return -1;
    if (fputs("done\n", stdout) == EOF)
        return -2;
    if (fwrite("x", 1, 1, stdout) != 1)
        return -3;
    return code > 0;
}
"#;

#[test]
fn writes_to_the_standard_streams_succeed_as_in_the_test() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (stdout, _, _) = common::gen_checked(dir.path(), "report.c", STANDARD_WRITES);
    assert!(!stdout.contains("left out"), "{stdout}");
    assert!(common::covers(&stdout, "report", "3/6"), "{stdout}");
}

/// A function that reads its standard input: each test sets `stdin` to a
/// stream over the contents it chooses, so the empty input, a comment line
/// and a line of data are all covered, and gcov agrees.
const READS_STDIN: &str = r#"#include <stdio.h>

int count_data_lines(void)
{
    char line[32];
    int n = 0;
    while (fgets(line, sizeof line, stdin) != NULL) {
        if (line[0] == '#')
            continue;
        n++;
    }
    return n;
}
"#;

#[test]
fn a_function_reading_stdin_reads_what_the_test_chooses() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (stdout, _, out) = gen_checked_with(dir.path(), "lines.c", READS_STDIN, &["--sanitize"]);
    assert!(
        common::covers(&stdout, "count_data_lines", "4/4"),
        "{stdout}"
    );
    let driver = std::fs::read_to_string(out.join("lines_test.c")).expect("driver");
    assert!(driver.contains("stdin = stdin_stream;"), "{driver}");
}
