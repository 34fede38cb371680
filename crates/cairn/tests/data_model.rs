//! End-to-end: the ILP32 data model (`--data-model ilp32`, gcc -m32) on
//! `tests/corpus/ilp32/data_model.c`, whose tests differ by data model:
//! the driver is built with -m32 (tests.json says so), every test passes
//! and gcov agrees with every prediction; the same file under LP64 gives
//! other values (`long` bounds at 2^63, 8-byte pointers).

mod common;

use common::{arg, cairn, corpus, text};
use std::path::Path;

/// `cairn gen --check` on the corpus file with `model`, strings long
/// enough for a number past a 32-bit `long`; returns the driver's text and
/// tests.json.
fn gen_checked(out: &Path, model: &str) -> (String, serde_json::Value) {
    let source = corpus("ilp32", "data_model.c");
    let run = cairn(&[
        "gen",
        arg(&source),
        "--data-model",
        model,
        "--max-array",
        "16",
        "-o",
        arg(out),
        "--check",
    ]);
    let stdout = text(&run.stdout);
    assert!(
        run.status.success(),
        "gen --data-model {model}:\n{stdout}\n{}",
        text(&run.stderr)
    );
    assert!(stdout.contains("check passed"), "{stdout}");
    let driver = std::fs::read_to_string(out.join("data_model_test.c")).expect("driver");
    let json = std::fs::read_to_string(out.join("data_model.tests.json")).expect("tests.json");
    (driver, serde_json::from_str(&json).expect("JSON"))
}

/// Each function's branches as `check --json` measured them: (covered, total).
fn measured(out: &Path) -> Vec<(String, u64, u64)> {
    let run = cairn(&["check", arg(out), "--json"]);
    assert!(run.status.success(), "{}", text(&run.stdout));
    let report: serde_json::Value = serde_json::from_slice(&run.stdout).expect("JSON report");
    report["files"][0]["functions"]
        .as_array()
        .expect("functions")
        .iter()
        .map(|f| {
            let branches = &f["measured_branches"];
            (
                f["name"].as_str().expect("name").to_string(),
                branches["covered"].as_u64().expect("covered"),
                branches["total"].as_u64().expect("total"),
            )
        })
        .collect()
}

#[test]
fn an_ilp32_suite_is_built_with_m32_and_covers_what_it_predicts() {
    let dir = tempfile::tempdir().expect("temp dir");
    let out = dir.path().join("ilp32");
    let (driver, json) = gen_checked(&out, "ilp32");
    assert_eq!(json["data_model"], "ilp32");
    assert!(
        driver.contains("_Static_assert(sizeof(long) == 4"),
        "{driver}"
    );
    // ULONG_MAX of a 32-bit long; a product of a long by 4 past LONG_MAX.
    assert!(driver.contains("wraps_around(4294967295U)"), "{driver}");
    assert!(driver.contains("product_fits_long_returns_0"), "{driver}");
    assert!(driver.contains("pointer_bytes_match(4)"), "{driver}");
    // glibc -m32's strtol clamps at 2^31 - 1: the driver passing checks
    // the model's ERANGE against the real one.
    assert!(driver.contains("parse_count_returns_minus_2"), "{driver}");
    for (function, covered, total) in measured(&out) {
        assert_eq!(covered, total, "{function}: gcov saw {covered}/{total}");
    }
}

#[test]
fn the_same_file_under_lp64_has_64_bit_bounds() {
    let dir = tempfile::tempdir().expect("temp dir");
    let out = dir.path().join("lp64");
    let (driver, json) = gen_checked(&out, "lp64");
    assert!(json.get("data_model").is_none(), "LP64 is the default");
    assert!(!driver.contains("_Static_assert"), "{driver}");
    assert!(
        driver.contains("wraps_around(18446744073709551615ULL)"),
        "{driver}"
    );
    assert!(driver.contains("pointer_bytes_match(8)"), "{driver}");
}

#[test]
fn an_ilp32_driver_built_without_m32_says_how_to_build_it() {
    let dir = tempfile::tempdir().expect("temp dir");
    let out = dir.path().join("ilp32");
    gen_checked(&out, "32");
    let build = std::process::Command::new("cc")
        .arg(out.join("data_model_test.c"))
        .arg("-o")
        .arg(dir.path().join("driver"))
        .output()
        .expect("run cc");
    assert!(!build.status.success());
    assert!(
        text(&build.stderr).contains("build it with -m32"),
        "{}",
        text(&build.stderr)
    );
}
