//! End-to-end tests of `cairn reach`: verdicts and exit codes, and a found
//! test that passes `cairn check` and whose run, measured by gcov, executes
//! the target line at least K times.

mod common;

use common::{arg, cairn, line_of, text};
use std::path::Path;
use std::process::Command;

/// Builds the driver in `out` with `gcc --coverage`, runs it and returns how
/// many times gcov saw line `line` of the source under test run.
fn measured_count(out: &Path, stem: &str, line: u32) -> u64 {
    let build = tempfile::tempdir().expect("temp dir");
    let binary = build.path().join("driver");
    let driver = out.join(format!("{stem}_test.c"));
    let status = Command::new("gcc")
        .arg("--coverage")
        .arg(&driver)
        .arg("-o")
        .arg(&binary)
        .arg("-lm")
        .status()
        .expect("run gcc");
    assert!(status.success(), "driver compiles");
    let run = Command::new(&binary).output().expect("run driver");
    assert!(run.status.success(), "{}", text(&run.stdout));
    let gcov = Command::new("gcov")
        .args(["--json-format", "-t"])
        .arg(format!("driver-{stem}_test.gcda"))
        .current_dir(build.path())
        .output()
        .expect("run gcov");
    // One JSON document per data file, each listing the sources it covers.
    let files: Vec<serde_json::Value> = serde_json::Deserializer::from_slice(&gcov.stdout)
        .into_iter::<serde_json::Value>()
        .map(|report| report.expect("gcov json"))
        .flat_map(|report| report["files"].as_array().cloned().unwrap_or_default())
        .collect();
    let source = files
        .iter()
        .find(|f| {
            f["file"]
                .as_str()
                .is_some_and(|n| n.ends_with(&format!("{stem}.c")))
        })
        .expect("source under test in gcov report");
    source["lines"]
        .as_array()
        .expect("gcov lines")
        .iter()
        .find(|l| l["line_number"] == line)
        .and_then(|l| l["count"].as_u64())
        .unwrap_or(0)
}

#[test]
fn josephus_elimination_body_runs_five_times_measured_by_gcov() {
    let src = common::corpus("reach", "josephus.c");
    let line = line_of(&src, "reach: elimination").to_string();
    let out = tempfile::tempdir().expect("temp dir");
    let out_dir = arg(out.path());
    let found = cairn(&[
        "reach",
        arg(&src),
        "-f",
        "josephus",
        "--line",
        &line,
        "--times",
        "5",
        "-o",
        out_dir,
    ]);
    let stdout = text(&found.stdout);
    assert_eq!(
        found.status.code(),
        Some(0),
        "{stdout}{}",
        text(&found.stderr)
    );
    assert!(stdout.starts_with("reached: josephus line"), "{stdout}");
    assert_eq!(stdout.lines().count(), 1, "one-line verdict: {stdout}");

    let checked = cairn(&["check", out_dir]);
    assert_eq!(
        checked.status.code(),
        Some(0),
        "{}{}",
        text(&checked.stdout),
        text(&checked.stderr)
    );
    let count = measured_count(out.path(), "josephus", line.parse().expect("a line number"));
    assert!(count >= 5, "gcov saw line {line} run {count} times");
}

#[test]
fn contradictory_guards_are_unreachable_with_exit_3() {
    let src = common::corpus("reach", "contradictions.c");
    for (function, marker) in [
        ("narrow", "reach: contradictory integers"),
        ("pointer_facts", "reach: contradictory pointers"),
    ] {
        let line = line_of(&src, marker).to_string();
        let out = tempfile::tempdir().expect("temp dir");
        let verdict = cairn(&[
            "reach",
            arg(&src),
            "-f",
            function,
            "--line",
            &line,
            "-o",
            arg(out.path()),
        ]);
        let stdout = text(&verdict.stdout);
        assert_eq!(verdict.status.code(), Some(3), "{function}: {stdout}");
        assert!(stdout.starts_with("unreachable"), "{stdout}");
        assert!(
            !out.path().join("contradictions_test.c").exists(),
            "no test is written without an input"
        );
    }
}

#[test]
fn a_bound_that_stops_the_search_is_named_with_exit_4() {
    let dir = tempfile::tempdir().expect("temp dir");
    let src = dir.path().join("list.c");
    std::fs::write(
        &src,
        "struct node { int v; struct node *next; };\n\
         int length(struct node *p)\n{\n    int n = 0;\n    while (p) {\n        n++;\n        p = p->next;\n    }\n    return n;\n}\n",
    )
    .expect("write source");
    let verdict = cairn(&[
        "reach",
        arg(&src),
        "-f",
        "length",
        "--line",
        "6",
        "--times",
        "4",
        "--max-nodes",
        "3",
        "-o",
        arg(&dir.path().join("out")),
    ]);
    let stdout = text(&verdict.stdout);
    assert_eq!(verdict.status.code(), Some(4), "{stdout}");
    assert!(
        stdout.starts_with("not reached within bounds (max_nodes: "),
        "{stdout}"
    );
}

#[test]
fn a_branch_direction_can_be_the_target() {
    let src = common::corpus("reach", "contradictions.c");
    let out = tempfile::tempdir().expect("temp dir");
    let goals = cairn(&["goals", arg(&src), "-f", "narrow"]);
    // The second condition of `narrow` (`x > 5` after the contradiction).
    let line = line_of(&src, "r += 2") - 1;
    let listed = text(&goals.stdout);
    let col = listed
        .lines()
        .find_map(|l| {
            let position = l.split_whitespace().nth(1)?;
            let mut parts = position.rsplit(':');
            let col = parts.next()?;
            (parts.next()? == line.to_string()).then(|| col.to_string())
        })
        .expect("goal on the line");
    let spec = format!("{line}:{col}:T");
    let verdict = cairn(&[
        "reach",
        arg(&src),
        "-f",
        "narrow",
        "--branch",
        &spec,
        "-o",
        arg(out.path()),
    ]);
    assert_eq!(verdict.status.code(), Some(0), "{}", text(&verdict.stdout));
    let bad = cairn(&["reach", arg(&src), "-f", "narrow", "--branch", "1:1:X"]);
    assert_eq!(bad.status.code(), Some(2));
}

#[test]
fn a_line_without_code_is_a_usage_error() {
    let src = common::corpus("reach", "contradictions.c");
    let verdict = cairn(&["reach", arg(&src), "-f", "narrow", "--line", "1"]);
    assert_eq!(verdict.status.code(), Some(2));
    assert!(
        text(&verdict.stderr).contains("line 1"),
        "{}",
        text(&verdict.stderr)
    );
}

/// Seed 002: the inner loop runs exactly four times during the outer loop's
/// first round; only m = 5 does that.
#[test]
fn josephus_inner_loop_exactly_four_times_before_the_first_elimination() {
    let src = common::corpus("reach", "josephus.c");
    let inner = line_of(&src, "last = last->next;").to_string();
    let elimination = line_of(&src, "reach: elimination").to_string();
    let out = tempfile::tempdir().expect("temp dir");
    let verdict = cairn(&[
        "reach",
        arg(&src),
        "-f",
        "josephus",
        "--line",
        &inner,
        "--times",
        "4",
        "--exact",
        "--before",
        &elimination,
        "-o",
        arg(out.path()),
    ]);
    assert_eq!(verdict.status.code(), Some(0), "{}", text(&verdict.stdout));
    let json = std::fs::read(out.path().join("josephus.tests.json")).expect("tests.json");
    let report: serde_json::Value = serde_json::from_slice(&json).expect("json");
    let args = &report["functions"][0]["tests"][0]["inputs"]["args"];
    assert_eq!(args[1]["name"], "m");
    assert_eq!(args[1]["value"], 5);
}

#[test]
fn a_proof_names_the_faults_whose_runs_it_did_not_follow() {
    let dir = tempfile::tempdir().expect("temp dir");
    let src = dir.path().join("wraps.c");
    // Compiled code wraps `a + 1` at INT_MAX and runs the marked line; C
    // leaves that run undefined, so the proof must say it stopped there.
    std::fs::write(
        &src,
        "int wraps(int a)\n{\n    if (a + 1 < 1 && a >= 0)\n        return 1; /* reach: wrapped */\n    return 0;\n}\n",
    )
    .expect("write source");
    let line = line_of(&src, "reach: wrapped").to_string();
    let verdict = cairn(&[
        "reach",
        arg(&src),
        "-f",
        "wraps",
        "--line",
        &line,
        "-o",
        arg(&dir.path().join("out")),
    ]);
    let stdout = text(&verdict.stdout);
    assert_eq!(verdict.status.code(), Some(3), "{stdout}");
    assert!(
        stdout.contains("not followed past a fault: signed-overflow at line 3:"),
        "{stdout}"
    );
}
