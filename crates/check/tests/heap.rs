//! `check --sanitize` over the heap fixture (see `emit::fixture::heap`):
//! the driver runs with leak detection on, and each reproducer is judged by
//! the evidence its kind calls for.

use check::{check, CheckConfig, CheckReport, ProblemKind};
use emit::fixture::heap::{heap_program, heap_reports, HEAP_C};
use emit::fixture::int_value;
use emit::{write_outputs, EmitConfig};
use testcase::FunctionReport;

fn checked(reports: &[FunctionReport]) -> CheckReport {
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::write(dir.path().join("heap.c"), HEAP_C).expect("write heap.c");
    let out = dir.path().join("out");
    let config = EmitConfig {
        out_dir: out.clone(),
        source: dir.path().join("heap.c"),
        flags: Default::default(),
        framework: Default::default(),
        unresolved: Default::default(),
    };
    write_outputs(&heap_program(), reports, &config).expect("emit");
    check(
        &out,
        &CheckConfig {
            cc: "gcc".into(),
            sanitize: true,
            ..CheckConfig::default()
        },
    )
    .expect("check")
}

fn valgrind_installed() -> bool {
    std::process::Command::new("valgrind")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

#[test]
fn heap_driver_is_clean_with_leak_detection_and_every_finding_is_confirmed() {
    let report = checked(&heap_reports());
    assert!(report.ok(), "{}", report.table());
    let file = &report.files[0];
    assert_eq!((file.passed, file.failed), (Some(10), Some(0)));
    let runs = &file.reproducers;
    let kinds: Vec<&str> = runs.iter().map(|r| r.kind.slug()).collect();
    assert_eq!(
        kinds,
        [
            "leak",
            "uninitialized-read",
            "use-after-free",
            "uninitialized-read"
        ]
    );
    assert!(runs[..3].iter().all(|r| r.confirmed), "{}", report.table());
    assert_eq!(
        runs[0].evidence.as_deref(),
        Some("LeakSanitizer reports memory lose allocated and lost")
    );
    assert!(runs[1]
        .evidence
        .as_deref()
        .is_some_and(|e| e.starts_with("the result depends on uninitialized memory")));
    assert!(runs[2]
        .evidence
        .as_deref()
        .is_some_and(|e| e.contains("heap-use-after-free")));
    // count_fresh returns nothing to compare: only valgrind's memcheck sees
    // the uninitialized value decide its branch.
    if valgrind_installed() {
        assert_eq!(
            runs[3].evidence.as_deref(),
            Some("valgrind: Conditional jump or move depends on uninitialised value(s) in count_fresh"),
            "{}",
            runs[3].output
        );
    } else {
        assert!(!runs[3].confirmed);
    }
    let table = report.table();
    assert!(
        table.contains(
            "finding 1 (leak): confirmed: LeakSanitizer reports memory lose allocated and lost"
        ),
        "{table}"
    );
}

#[test]
fn findings_without_their_evidence_are_not_confirmed() {
    let mut reports = heap_reports();
    // lose(1) frees its buffer: no leak to see.
    reports[4].findings[0].inputs.args[0] = int_value(1);
    // sum_fresh(0) reads nothing: the result is 0 whatever the fill.
    reports[5].findings[0].inputs.args[0] = int_value(0);
    let report = checked(&reports);
    let runs = &report.files[0].reproducers;
    assert!(!runs[0].confirmed, "{}", report.table());
    assert!(!runs[1].confirmed, "{}", report.table());
    assert!(runs[1].output.contains("not confirmed: the result is 0"));
    assert!(report
        .table()
        .contains("finding 2 (uninitialized-read): NOT confirmed"));
    assert!(runs[2].confirmed);
}

#[test]
fn a_driver_that_leaks_fails_the_sanitize_check() {
    let mut reports = heap_reports();
    // push(NULL, 7) with the output heap left out: its node is never freed.
    let push = &mut reports[0].tests[1];
    push.allocated.clear();
    push.checks.clear();
    push.ret = Some(testcase::Value::Unknown);
    let report = checked(&reports);
    assert!(!report.ok());
    let problems = &report.files[0].problems;
    assert_eq!(problems.len(), 1, "{}", report.table());
    assert_eq!(problems[0].kind, ProblemKind::Sanitizer);
    assert!(
        problems[0]
            .message
            .contains("ERROR: LeakSanitizer: detected memory leaks"),
        "{}",
        problems[0].message
    );
}

#[test]
fn a_driver_leaking_only_what_a_leak_finding_reports_is_noted_not_failed() {
    let mut reports = heap_reports();
    // lose(-1) loses its buffer: the test on that path leaks it too.
    let mut leaking = reports[4].tests[0].clone();
    leaking.inputs.args[0] = int_value(-1);
    leaking.ret = Some(int_value(-1));
    reports[4].tests.push(leaking);
    let report = checked(&reports);
    assert!(report.ok(), "{}", report.table());
    assert_eq!(
        report.files[0].notes,
        ["the sanitized driver leaks only memory lost by lose, as the leak findings say"]
    );
}

#[test]
fn returned_memory_is_no_leak_for_a_reproducer() {
    use emit::fixture::heap::{BUFFER_NEW, PUSH};
    use testcase::{Finding, FindingKind, Inputs, Value};
    let mut reports = heap_reports();
    // Claim leaks where the functions return their new memory: the
    // reproducers keep what is returned (a pointer, a struct holding one),
    // so LeakSanitizer must not confirm them.
    let claim = |func, args| Finding {
        func,
        kind: FindingKind::Leak,
        span: Default::default(),
        message: "claimed".to_string(),
        inputs: Inputs {
            args,
            ..Inputs::default()
        },
        unvouched_inputs: Vec::new(),
        broken_invariant: None,
        path_goals: Vec::new(),
        not_confirmed: None,
    };
    let push_claim = claim(PUSH, vec![Value::Null, int_value(1)]);
    let buffer_claim = claim(BUFFER_NEW, vec![int_value(8)]);
    reports[0].findings.push(push_claim);
    reports[7].findings.push(buffer_claim);
    let report = checked(&reports);
    let runs = &report.files[0].reproducers;
    let claimed: Vec<_> = runs
        .iter()
        .filter(|r| r.kind == testcase::FindingKind::Leak)
        .collect();
    assert_eq!(claimed.len(), 3, "{}", report.table());
    // lose() really leaks; push and buffer_new do not.
    assert_eq!(
        claimed.iter().map(|r| r.confirmed).collect::<Vec<_>>(),
        [false, true, false],
        "{}",
        report.table()
    );
}
