//! The lazy input heap: input structures of the size and shape each branch
//! needs (list length, cycles, sharing, back pointers, aliasing `int **`).

mod common;

use common::{assert_all_covered, ret, test_returning};
use engine::EngineConfig;
use testcase::{FunctionReport, ObjectId, TestCase, Uncovered, Value};

/// Runs the engine on `func` of `tests/shapes/<file>`.
fn run_with(file: &str, func: &str, config: &EngineConfig) -> FunctionReport {
    common::run_file("shapes", file, func, config).1
}

fn run(file: &str, func: &str) -> FunctionReport {
    run_with(file, func, &common::config())
}

/// Member numbers of `struct node { int key; struct node *next; }`.
const KEY: usize = 0;
const NEXT: usize = 1;
/// Member numbers of `struct dnode { int value; struct dnode *next, *prev; }`.
const DNEXT: usize = 1;
const DPREV: usize = 2;

/// The input object a pointer value designates (at its start); a member
/// the path never read is not set, and the driver's zeroed node holds NULL.
fn target(v: &Value) -> Option<ObjectId> {
    match v {
        Value::Pointer { object, offset: 0 } => Some(*object),
        Value::Null | Value::Unknown => None,
        other => panic!("not a pointer to an object start: {other:?}"),
    }
}

/// Member `n` of the first element of input object `obj` (unknown when
/// the path read none of its members).
fn member(t: &TestCase, obj: ObjectId, n: usize) -> &Value {
    static UNREAD: Value = Value::Unknown;
    match &t.inputs.objects[obj.0 as usize].init[0] {
        Value::Struct(fields) => &fields[n],
        Value::Unknown => &UNREAD,
        other => panic!("not a struct: {other:?}"),
    }
}

/// The objects met following member `n` from `start`, and whether the walk
/// came back to one of them (a cycle).
fn walk(t: &TestCase, start: &Value, n: usize) -> (Vec<ObjectId>, bool) {
    let mut seen = Vec::new();
    let mut at = target(start);
    while let Some(obj) = at {
        if seen.contains(&obj) {
            return (seen, true);
        }
        seen.push(obj);
        at = target(member(t, obj, n));
    }
    (seen, false)
}

fn figures(name: &str, report: &FunctionReport) {
    let nodes: Vec<usize> = report
        .tests
        .iter()
        .map(|t| t.inputs.objects.len())
        .collect();
    eprintln!(
        "{name}: nodes per test {nodes:?}, paths {}, solver calls {}, {:?}",
        report.stats.paths, report.stats.solver_calls, report.stats.elapsed
    );
}

#[test]
fn a_key_at_the_third_node_needs_a_three_node_list() {
    let report = run("list_search.c", "find_third");
    figures("find_third", &report);
    assert_all_covered(&report);
    let third = test_returning(&report, 1);
    let (nodes, cyclic) = walk(third, &third.inputs.args[0], NEXT);
    assert_eq!(nodes.len(), 3, "{:#?}", third.inputs);
    assert!(!cyclic);
    assert_eq!(third.inputs.objects.len(), 3, "no node beyond the list");
    let empty = test_returning(&report, 0);
    assert!(
        empty.inputs.objects.len() <= 1,
        "the smallest shape misses the key"
    );
}

#[test]
fn a_list_longer_than_max_nodes_is_cut_by_that_budget() {
    // Loops over cyclic two-node lists are cut by max_iterations; the budget
    // named is the one to raise, max_nodes.
    let config = EngineConfig {
        max_nodes: 2,
        max_time: std::time::Duration::from_secs(3),
        ..common::config()
    };
    let report = run_with("list_search.c", "find_third", &config);
    assert!(report.tests.iter().all(|t| t.inputs.objects.len() <= 2));
    assert!(
        report
            .uncovered
            .iter()
            .any(|(_, why)| *why == Uncovered::Budget(testcase::Bound::MaxNodes)),
        "{:?}",
        report.uncovered
    );
}

#[test]
fn floyd_finds_the_cycle_of_a_cyclic_input_list() {
    let report = run("cycle.c", "has_cycle");
    figures("has_cycle", &report);
    assert_all_covered(&report);
    let cyclic = test_returning(&report, 1);
    let (nodes, is_cycle) = walk(cyclic, &cyclic.inputs.args[0], NEXT);
    assert!(is_cycle, "{:#?}", cyclic.inputs);
    assert_eq!(
        nodes.len(),
        1,
        "a node pointing to itself is the smallest cycle"
    );
    let acyclic = test_returning(&report, 0);
    assert!(!walk(acyclic, &acyclic.inputs.args[0], NEXT).1);
}

#[test]
fn two_parameters_share_a_node() {
    let report = run("share.c", "share");
    figures("share", &report);
    assert_all_covered(&report);
    let shared = test_returning(&report, 1);
    let a = target(&shared.inputs.args[0]).expect("a is a node");
    let b = target(&shared.inputs.args[1]).expect("b is a node");
    assert_eq!(target(member(shared, b, NEXT)), Some(a));
    assert!(shared.inputs.objects.len() <= 2);
    // The key is never read: the test does not set it (it stays 0).
    assert_eq!(*member(shared, a, KEY), Value::Unknown);
}

#[test]
fn an_equality_after_writes_through_both_pointers_finds_the_alias() {
    let report = run("share.c", "late_alias");
    figures("late_alias", &report);
    assert_all_covered(&report);
    let same = test_returning(&report, 2);
    assert_eq!(same.inputs.args[0], same.inputs.args[1]);
    assert_eq!(same.inputs.objects.len(), 1);
    let distinct = test_returning(&report, 0);
    assert_ne!(distinct.inputs.args[0], distinct.inputs.args[1]);
    // Fields the path never reads are not set (the keys are written first).
    for param in 0..2 {
        let node = target(&distinct.inputs.args[param]).expect("a node");
        assert_eq!(*member(distinct, node, NEXT), Value::Unknown);
        assert_eq!(*member(distinct, node, KEY), Value::Unknown);
    }
}

#[test]
fn back_pointers_are_consistent_or_not_as_the_branch_needs() {
    let report = run("doubly.c", "broken_link");
    figures("broken_link", &report);
    assert_all_covered(&report);
    let consistent = report
        .tests
        .iter()
        .find(|t| ret(t) == 0 && target(member(t, ObjectId(0), DNEXT)).is_some())
        .expect("a test whose next node points back");
    let n = target(&consistent.inputs.args[0]).expect("n is a node");
    let next = target(member(consistent, n, DNEXT)).expect("n->next is a node");
    assert_eq!(target(member(consistent, next, DPREV)), Some(n));
    let broken = test_returning(&report, 1);
    let n = target(&broken.inputs.args[0]).expect("n is a node");
    let next = target(member(broken, n, DNEXT)).expect("n->next is a node");
    assert_ne!(target(member(broken, next, DPREV)), Some(n));
}

#[test]
fn pointers_to_pointers_alias_one_integer() {
    let report = run("pointer_pair.c", "same_target");
    figures("same_target", &report);
    assert_all_covered(&report);
    let same = test_returning(&report, 7);
    let pointee = |param: usize| {
        let outer = target(&same.inputs.args[param]).expect("a pointer cell");
        target(&same.inputs.objects[outer.0 as usize].init[0]).expect("an integer")
    };
    assert_eq!(pointee(0), pointee(1));
    let different = test_returning(&report, 0);
    assert_ne!(different.inputs.args[0], Value::Null);
}
