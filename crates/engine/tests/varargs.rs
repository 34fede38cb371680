//! Variadic functions: a call of the file lays its extra arguments out in
//! an argument area that `va_arg` walks; the function under test gets its
//! extra arguments from the test, as many as its path reads, typed by the
//! reads; reading past what a caller passed is a finding.

mod common;

use common::*;
use ir::FloatKind;
use testcase::{FindingKind, Uncovered, Value};

const SOURCES: &str = r#"
typedef __builtin_va_list va_list;
int pick(int n, ...) {
    va_list ap;
    __builtin_va_start(ap, n);
    int a = __builtin_va_arg(ap, int);
    double d = 0;
    if (n > 1)
        d = __builtin_va_arg(ap, double);
    __builtin_va_end(ap);
    if (a == 7 && d > 2.5)
        return 1;
    return 0;
}
static int vsum(int n, va_list ap) {
    int s = 0;
    for (int i = 0; i < n && i < 3; i++)
        s += __builtin_va_arg(ap, int) & 0xff;
    return s;
}
int sum(int n, ...) {
    va_list ap, again;
    __builtin_va_start(ap, n);
    __builtin_va_copy(again, ap);
    int first = vsum(n, ap);
    int second = vsum(n, again);
    __builtin_va_end(again);
    __builtin_va_end(ap);
    return first == second ? first : -1;
}
int caller(int x) {
    if (sum(2, x & 0xff, 3) == 10) return 1;
    return 0;
}
int overread(int x) {
    return sum(3, x, 1);
}
int deep(int n, ...) {
    va_list ap;
    __builtin_va_start(ap, n);
    for (int i = 0; i < 40; i++)
        if (__builtin_va_arg(ap, int) == 1000 + i) { __builtin_va_end(ap); return i; }
    __builtin_va_end(ap);
    return -1;
}
"#;

#[test]
fn extra_arguments_of_the_function_under_test_are_typed_by_their_reads() {
    let (_, report) = run(SOURCES, "pick");
    assert_all_covered(&report);
    let hit = test_returning(&report, 1);
    assert!(arg(hit, 0) > 1);
    assert_eq!(
        hit.inputs.args.len(),
        3,
        "n and the two extra arguments read"
    );
    assert_eq!(int(&hit.inputs.args[1]), 7);
    let Value::Float { kind, bits } = hit.inputs.args[2] else {
        panic!("a double read: {:?}", hit.inputs.args[2]);
    };
    assert_eq!(kind, FloatKind::F64);
    assert!(f64::from_bits(bits) > 2.5);
    // A path that reads one extra argument passes one.
    let one = report
        .tests
        .iter()
        .find(|t| arg(t, 0) <= 1)
        .expect("n <= 1");
    assert_eq!(one.inputs.args.len(), 2);
}

#[test]
fn a_forwarded_va_list_and_its_copy_walk_the_same_arguments() {
    let (_, report) = run(SOURCES, "sum");
    // Only `first == second`'s false arm is left: proved infeasible.
    let [(_, why)] = report.uncovered.as_slice() else {
        panic!("uncovered: {:?}", report.uncovered);
    };
    assert_eq!(*why, Uncovered::Infeasible);
    assert!(report.tests.iter().all(|t| ret(t) != -1));
}

#[test]
fn a_function_taking_a_va_list_reads_its_inputs_through_it() {
    let (program, report) = run(SOURCES, "vsum");
    assert_all_covered(&report);
    let vsum = program.function_by_name("vsum").expect("vsum");
    assert!(program.is_va_list_pointer(&program.function(vsum).sig.params[1]));
    let longest = report.tests.iter().map(|t| t.inputs.args.len()).max();
    assert_eq!(longest, Some(2 + 3), "n, the va_list, three ints");
}

#[test]
fn a_call_in_the_file_passes_its_promoted_arguments() {
    let (_, report) = run(SOURCES, "caller");
    assert_all_covered(&report);
    assert_eq!(arg(test_returning(&report, 1), 0) & 0xff, 7);
}

#[test]
fn reading_past_the_arguments_a_caller_passed_is_a_finding() {
    let (_, report) = run(SOURCES, "overread");
    assert!(
        report
            .findings
            .iter()
            .any(|f| f.kind == FindingKind::OutOfBounds),
        "findings: {:?}",
        report.findings
    );
}

#[test]
fn more_extra_arguments_than_max_array_are_a_bound_not_infeasible() {
    let (_, report) = run(SOURCES, "deep");
    assert!(
        report
            .uncovered
            .iter()
            .all(|(_, why)| matches!(why, Uncovered::Budget(_))),
        "uncovered: {:?}",
        report.uncovered
    );
    assert!(!report.uncovered.is_empty());
}
