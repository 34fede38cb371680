//! End-to-end: `gen --coverage mcdc --check` on decisions of 2 to 6
//! conditions (short-circuits, negations, shared variables, a macro,
//! decisions in loops, `?:` and values). The driver is built with clang's
//! MC/DC instrumentation and llvm-cov's records must confirm every
//! condition cairn claims shown independent; the one condition no pair can
//! show (coupled with another) is said to be impossible, and why.

mod common;

use common::{arg, cairn, corpus, gen_checked_with, text};
use testcase::json::TestsFile;

#[test]
fn llvm_cov_measures_every_condition_cairn_claims_shown_independent() {
    let dir = tempfile::tempdir().expect("temp dir");
    let source = std::fs::read_to_string(corpus("mcdc", "decisions.c")).expect("corpus file");
    let (stdout, _, out) =
        gen_checked_with(dir.path(), "decisions.c", &source, &["--coverage", "mcdc"]);
    let tests: TestsFile = serde_json::from_slice(
        &std::fs::read(out.join("decisions.tests.json")).expect("tests.json"),
    )
    .expect("tests.json parses");
    let mut conditions = 0;
    let mut not_shown = Vec::new();
    for function in &tests.functions {
        for decision in &function.decisions {
            assert!(
                (2..=6).contains(&decision.conditions.len()),
                "{}",
                decision.text
            );
            for condition in &decision.conditions {
                conditions += 1;
                // One test may show a condition of a loop alone, by two
                // evaluations.
                if condition.shown_by.is_none() {
                    not_shown.push((function.name.clone(), condition.clone()));
                }
            }
        }
    }
    // Only `x > 5` of `x > 10 && x > 5 && y != 3` cannot be shown.
    assert_eq!(not_shown.len(), 1, "{not_shown:?}");
    let (function, condition) = &not_shown[0];
    assert_eq!(
        (function.as_str(), condition.text.as_str()),
        ("coupled", "x > 5")
    );
    assert!(condition.infeasible, "{condition:?}");
    assert!(
        condition
            .reason
            .as_deref()
            .is_some_and(|r| r.contains("infeasible")),
        "{condition:?}"
    );
    // Measured by llvm-cov: every claimed condition, and no decision missed.
    let shown = conditions - 1;
    let measured = format!(
        "MC/DC: {shown} of {conditions} conditions shown independent as llvm-cov measured ({shown} claimed)"
    );
    assert!(stdout.contains(&measured), "{stdout}");
    assert!(!stdout.contains("llvm-cov does not measure"), "{stdout}");
    // The driver names the pairs.
    let driver = std::fs::read_to_string(out.join("decisions_test.c")).expect("driver");
    assert!(driver.contains("/* MC/DC of six:"), "{driver}");
    // The HTML report has each condition, claimed and measured.
    let html = dir.path().join("html");
    let checked = cairn(&[
        "check",
        arg(&out),
        "--coverage",
        "mcdc",
        "--html",
        arg(&html),
    ]);
    assert_eq!(checked.status.code(), Some(0), "{}", text(&checked.stdout));
    let pages: String = std::fs::read_dir(&html)
        .expect("html dir")
        .filter_map(|e| std::fs::read_to_string(e.ok()?.path()).ok())
        .collect();
    assert!(pages.contains("<h2 id=\"mcdc\">MC/DC</h2>"), "{pages}");
    assert!(pages.contains("<code>x &gt; 5</code>"), "{pages}");
}
