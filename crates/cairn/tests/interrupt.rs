//! End-to-end tests of how `cairn gen` stops: on SIGINT or SIGTERM in the
//! middle of a long solver call, and at its time budget. Bounds on time are
//! loose on purpose (a loaded machine is slow); BENCHMARKS.md has the figures.

mod common;

use common::{arg, corpus, text};
use std::path::Path;
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

/// `sign` is quick; `factors` asks Z3 to factor a 64-bit number, a query
/// that runs to its time-out (a quarter of `--max-time`).
const SLOW: &str = "int sign(int a)
{
    if (a > 0)
        return 1;
    if (a < 0)
        return -1;
    return 0;
}

int factors(unsigned long long x, unsigned long long y)
{
    if (x < 2 || y < 2)
        return -1;
    if (x < 4294967296ULL && y < 4294967296ULL && x * y == 11473584641807345319ULL)
        return 1;
    return 0;
}
";

fn start_gen(src: &Path, out_dir: &Path, more: &[&str]) -> Child {
    Command::new(env!("CARGO_BIN_EXE_cairn"))
        // The tests its branches need: the counts below are theirs.
        .args([
            "gen",
            arg(src),
            "-o",
            arg(out_dir),
            "--max-time",
            "400",
            "--no-boundary-tests",
        ])
        .args(more)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start cairn")
}

/// Waits, at most a minute, until the journal of `out_dir` holds the
/// report of a first function (a line after its format line).
fn wait_for_first_report(out_dir: &Path) {
    let journal = out_dir.join(".cairn/slow.journal");
    let start = Instant::now();
    while std::fs::read_to_string(&journal).map_or(0, |t| t.lines().count()) < 2 {
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "{} never got a report",
            journal.display()
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Sends `signal` (a name `kill` knows) to `child`.
fn send(signal: &str, child: &Child) {
    let status = Command::new("kill")
        .args([&format!("-{signal}"), &child.id().to_string()])
        .status()
        .expect("run kill");
    assert!(status.success());
}

/// Waits for `child` to end, at most `limit` (then kills it and fails).
fn finish_within(mut child: Child, limit: Duration) -> Output {
    let start = Instant::now();
    loop {
        if child.try_wait().expect("poll cairn").is_some() {
            return child.wait_with_output().expect("collect cairn output");
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            panic!("cairn did not stop within {limit:?} of the signal");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Interrupts `gen` once the first function's tests are written, during
/// the second's long query; returns its output and the output directory.
fn interrupt_with(signal: &str, dir: &Path) -> Output {
    let src = dir.join("slow.c");
    std::fs::write(&src, SLOW).expect("write source");
    let out_dir = dir.join("out");
    let child = start_gen(&src, &out_dir, &[]);
    // `sign` is journaled; `factors` then waits on Z3.
    wait_for_first_report(&out_dir);
    std::thread::sleep(Duration::from_millis(1500));
    send(signal, &child);
    finish_within(child, Duration::from_secs(30))
}

#[test]
fn sigint_keeps_the_tests_found_writes_a_valid_driver_and_exits_130() {
    let dir = tempfile::tempdir().expect("temp dir");
    let out = interrupt_with("INT", dir.path());
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(130), "{stderr}");
    assert!(stderr.contains("cairn: interrupted"), "{stderr}");

    let out_dir = dir.path().join("out");
    let json = std::fs::read_to_string(out_dir.join("slow.tests.json")).expect("tests.json");
    let tests: serde_json::Value = serde_json::from_str(&json).expect("valid JSON");
    let functions = tests["functions"].as_array().expect("functions");
    let names: Vec<&str> = functions
        .iter()
        .filter_map(|f| f["name"].as_str())
        .collect();
    assert_eq!(names, ["sign", "factors"]);
    assert_eq!(functions[0]["tests"].as_array().map(Vec::len), Some(3));
    // `factors` keeps what it found before the signal: its first branches.
    assert!(functions[1]["tests"]
        .as_array()
        .is_some_and(|t| !t.is_empty()));
    let reasons: Vec<&str> = functions[1]["goals"]
        .as_array()
        .expect("goals")
        .iter()
        .filter_map(|g| g["reason"].as_str())
        .collect();
    assert!(
        reasons.iter().any(|r| r.contains("interrupted")),
        "{reasons:?}"
    );

    // Temporary files start with a dot; `.cairn` holds the run records.
    let leftovers: Vec<_> = [out_dir.clone(), out_dir.join(".cairn")]
        .iter()
        .flat_map(|dir| std::fs::read_dir(dir).expect("list output"))
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|name| name.starts_with('.') && name != ".cairn")
        .collect();
    assert!(leftovers.is_empty(), "temporary files left: {leftovers:?}");
    // A rerun may keep the tests of `sign`, not those of the interrupted search.
    let record: serde_json::Value = serde_json::from_slice(
        &std::fs::read(out_dir.join(".cairn/slow.run.json")).expect("run record"),
    )
    .expect("JSON record");
    let reusable: Vec<&str> = record["reusable"]
        .as_array()
        .expect("reusable")
        .iter()
        .filter_map(|entry| entry["function"].as_str())
        .collect();
    assert_eq!(reusable, ["sign"]);

    let binary = dir.path().join("slow_test");
    let built = Command::new("cc")
        .args([arg(&out_dir.join("slow_test.c")), "-o", arg(&binary), "-lm"])
        .output()
        .expect("run cc");
    assert!(built.status.success(), "{}", text(&built.stderr));
    let ran = Command::new(&binary).output().expect("run the driver");
    assert!(ran.status.success(), "{}", text(&ran.stdout));
}

#[test]
fn sigterm_stops_the_same_way_with_exit_143() {
    let dir = tempfile::tempdir().expect("temp dir");
    let out = interrupt_with("TERM", dir.path());
    assert_eq!(out.status.code(), Some(143), "{}", text(&out.stderr));
    assert!(dir.path().join("out/slow_test.c").exists());
}

/// A hard stop (SIGKILL, as a second Ctrl-C or a crash would be) writes
/// nothing more, yet loses no function whose search had ended: the next
/// run takes their tests from the journal.
#[test]
fn a_killed_run_loses_no_finished_function() {
    let dir = tempfile::tempdir().expect("temp dir");
    let src = dir.path().join("slow.c");
    std::fs::write(&src, SLOW).expect("write source");
    let out_dir = dir.path().join("out");
    let child = start_gen(&src, &out_dir, &[]);
    wait_for_first_report(&out_dir);
    send("KILL", &child);
    let killed = finish_within(child, Duration::from_secs(30));
    assert_eq!(killed.status.code(), None, "ended by the signal");
    assert!(
        !out_dir.join("slow_test.c").exists(),
        "outputs come at the end"
    );

    let rerun = finish_within(
        start_gen(&src, &out_dir, &["-f", "sign"]),
        Duration::from_secs(60),
    );
    let stderr = text(&rerun.stderr);
    assert!(rerun.status.success(), "{stderr}");
    assert!(
        stderr.contains("1 of 1 functions unchanged since the last run"),
        "{stderr}"
    );
    assert!(!out_dir.join(".cairn/slow.journal").exists());
    let json = std::fs::read_to_string(out_dir.join("slow.tests.json")).expect("tests.json");
    let tests: serde_json::Value = serde_json::from_str(&json).expect("valid JSON");
    assert_eq!(tests["functions"][0]["name"], "sign");
    assert_eq!(
        tests["functions"][0]["tests"].as_array().map(Vec::len),
        Some(3)
    );
}

/// intset_remove with free-form inputs spent 100 s of a 2 s budget
/// interning constraints (simplifying every operand of deep terms), where
/// no solver time-out reaches.
#[test]
fn a_function_stops_near_its_time_budget() {
    let dir = tempfile::tempdir().expect("temp dir");
    let out_dir = dir.path().join("out");
    let src = corpus("library", "intset.c");
    let out = common::cairn(&[
        "gen",
        arg(&src),
        "-f",
        "intset_remove",
        "-o",
        arg(&out_dir),
        "--max-time",
        "2",
        "--inputs",
        "free",
        "--alloc-may-fail",
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let json = std::fs::read_to_string(out_dir.join("intset.tests.json")).expect("tests.json");
    let tests: serde_json::Value = serde_json::from_str(&json).expect("valid JSON");
    let function = &tests["functions"][0];
    let elapsed_ms = function["stats"]["elapsed_ms"].as_u64().expect("elapsed");
    // 10% + 1 s over the budget is the aim; a loaded machine gets slack.
    assert!(elapsed_ms < 20_000, "{elapsed_ms} ms for a 2 s budget");
    assert!(function["tests"].as_array().is_some_and(|t| !t.is_empty()));
}
