//! Memory inside the function: free of input objects, allocation failure as
//! a test input, realloc, allocations of a symbolic size, and NULL links of
//! input linked structures.

mod common;

use common::{arg, assert_all_covered, int, ret, test_returning};
use engine::EngineConfig;
use testcase::{Finding, FindingKind, FunctionReport, Root, Step, Uncovered, Value};

/// Runs the engine on `func` of `tests/heap_ops/<file>`.
fn run_with(file: &str, func: &str, config: &EngineConfig) -> FunctionReport {
    common::run_file("heap_ops", file, func, config).1
}

fn run(file: &str, func: &str) -> FunctionReport {
    run_with(file, func, &common::config())
}

/// The configuration under which every allocation may also fail.
fn failing() -> EngineConfig {
    EngineConfig {
        allocation_failure: engine::AllocationFailure::Tested,
        ..common::config()
    }
}

fn kinds(report: &FunctionReport) -> Vec<FindingKind> {
    report.findings.iter().map(|f| f.kind).collect()
}

fn finding(report: &FunctionReport, kind: FindingKind) -> &Finding {
    report
        .findings
        .iter()
        .find(|f| f.kind == kind)
        .unwrap_or_else(|| panic!("no {kind:?} finding: {:#?}", report.findings))
}

/// Member `n` of the first element of the input object `v` points to.
fn member<'a>(objects: &'a [testcase::InputObject], v: &Value, n: usize) -> &'a Value {
    let Value::Pointer { object, offset: 0 } = v else {
        panic!("not a pointer to an input object: {v:?}")
    };
    match &objects[object.0 as usize].init[0] {
        Value::Struct(fields) => &fields[n],
        other => panic!("not a struct: {other:?}"),
    }
}

const KEY: usize = 0;
const NEXT: usize = 1;

#[test]
fn freeing_an_input_node_is_valid_and_the_path_goes_on() {
    let report = run("free_inputs.c", "drop");
    assert_all_covered(&report);
    assert!(report.findings.is_empty(), "{:?}", report.findings);
    let freed = test_returning(&report, 1);
    let Value::Pointer { object, .. } = freed.inputs.args[0] else {
        panic!("the freed node is an input object")
    };
    assert_eq!(freed.freed_inputs, vec![object]);
    assert!(test_returning(&report, 0).freed_inputs.is_empty());
}

#[test]
fn free_of_an_undecided_input_forks_over_null_and_a_node() {
    let report = run("free_inputs.c", "drop_unchecked");
    assert!(report.findings.is_empty(), "{:?}", report.findings);
    assert_eq!(report.tests.len(), 1, "a function without branches");
    assert!(report.stats.paths >= 1);
}

#[test]
fn an_input_freed_twice_is_a_double_free() {
    let report = run("free_inputs.c", "free_twice");
    let f = finding(&report, FindingKind::DoubleFree);
    assert_ne!(f.inputs.args[0], Value::Null, "free(NULL) twice is fine");
    assert_eq!(kinds(&report), vec![FindingKind::DoubleFree]);
    assert_eq!(ret(test_returning(&report, 0)), 0);
}

#[test]
fn two_parameters_freed_may_be_one_node() {
    let report = run("free_inputs.c", "free_both");
    assert_all_covered(&report);
    let f = finding(&report, FindingKind::DoubleFree);
    assert_ne!(f.inputs.args[0], Value::Null);
    assert_eq!(f.inputs.args[0], f.inputs.args[1]);
    let distinct = test_returning(&report, 1);
    assert_ne!(distinct.inputs.args[0], distinct.inputs.args[1]);
    assert_eq!(distinct.freed_inputs.len(), 2);
}

#[test]
fn two_parameters_of_one_type_get_distinct_nodes_first() {
    let report = run("links.c", "link_after");
    assert_all_covered(&report);
    for t in &report.tests {
        let [pos, fresh] = &t.inputs.args[..] else {
            panic!("two arguments: {t:#?}")
        };
        assert!(*pos == Value::Null || pos != fresh, "{t:#?}");
    }
}

#[test]
fn reading_a_freed_input_is_a_use_after_free() {
    let report = run("free_inputs.c", "read_after_free");
    let f = finding(&report, FindingKind::UseAfterFree);
    assert_ne!(f.inputs.args[0], Value::Null);
    assert_eq!(kinds(&report), vec![FindingKind::UseAfterFree]);
}

#[test]
fn only_the_start_of_an_input_block_may_be_freed() {
    let report = run("free_inputs.c", "free_element");
    let f = finding(&report, FindingKind::InvalidFree);
    assert!((1..=3).contains(&int(&f.inputs.args[1])), "{f:?}");
    let valid = test_returning(&report, 0);
    assert_eq!(arg(valid, 1), 0);
    assert_eq!(valid.freed_inputs.len(), 1);
    assert!(
        report.tests.iter().all(|t| ret(t) <= 0),
        "a free inside the block ends the path"
    );
}

#[test]
fn free_of_a_local_is_invalid() {
    let report = run("free_inputs.c", "free_local");
    assert_eq!(kinds(&report), vec![FindingKind::InvalidFree]);
    assert!(report.tests.is_empty());
}

#[test]
fn branches_after_freeing_an_input_node_are_covered() {
    let report = run("free_inputs.c", "pop_front");
    assert_all_covered(&report);
    assert!(report.findings.is_empty(), "{:?}", report.findings);
    for value in [0, 1, 2] {
        let t = test_returning(&report, value);
        assert_eq!(t.freed_inputs.len(), 1, "the first node is freed");
        let Value::Pointer { object, .. } = t.inputs.args[0] else {
            panic!("head is a pointer cell")
        };
        let first = &t.inputs.objects[object.0 as usize].init[0];
        let second = member(&t.inputs.objects, first, NEXT);
        match value {
            0 => assert_eq!(*second, Value::Null),
            key_sign => {
                let key = int(member(&t.inputs.objects, second, KEY));
                assert_eq!(key > 0, key_sign == 2, "key {key}");
            }
        }
    }
}

#[test]
fn freeing_loops_come_back_to_freed_nodes_only_on_cyclic_lists() {
    let report = run("free_inputs.c", "remove_duplicates");
    assert_all_covered(&report);
    assert!(report.findings.is_empty(), "{:?}", report.findings);
    let removed = test_returning(&report, 1);
    assert_eq!(removed.freed_inputs.len(), 1);
}

/// The configuration under which every allocation succeeds.
fn never_failing() -> EngineConfig {
    EngineConfig {
        allocation_failure: engine::AllocationFailure::Never,
        ..common::config()
    }
}

#[test]
fn allocation_fails_only_when_the_flag_lets_it() {
    let never = run_with("allocations.c", "try_alloc", &never_failing());
    assert_eq!(never.uncovered.len(), 1, "{:?}", never.uncovered);
    assert_eq!(
        never.uncovered[0].1,
        Uncovered::Budget(testcase::Bound::AllocMayFail)
    );
    assert!(never
        .tests
        .iter()
        .all(|t| t.inputs.failing_allocations.is_empty()));

    for config in [common::config(), failing()] {
        let report = run_with("allocations.c", "try_alloc", &config);
        assert_all_covered(&report);
        assert_eq!(
            test_returning(&report, -1).inputs.failing_allocations,
            vec![0]
        );
        assert!(test_returning(&report, 0)
            .inputs
            .failing_allocations
            .is_empty());
    }
}

#[test]
fn a_fault_after_a_failed_allocation_is_a_finding_only_when_asked() {
    let handled = run("allocations.c", "unchecked_store");
    assert_all_covered(&handled);
    assert!(handled.findings.is_empty(), "{:?}", handled.findings);
    assert!(handled
        .tests
        .iter()
        .all(|t| t.inputs.failing_allocations.is_empty()));

    let reported = run_with("allocations.c", "unchecked_store", &failing());
    assert_eq!(kinds(&reported), vec![FindingKind::NullDereference]);
    assert_eq!(reported.findings[0].inputs.failing_allocations, vec![0]);
}

#[test]
fn a_leak_after_a_failed_allocation_is_a_finding_only_when_asked() {
    let handled = run("allocations.c", "leak_on_failure");
    assert!(handled.findings.is_empty(), "{:?}", handled.findings);
    assert_eq!(
        test_returning(&handled, -1).inputs.failing_allocations,
        vec![0]
    );
    assert!(handled.tests.iter().all(|t| ret(t) != -2));
    assert_eq!(handled.uncovered.len(), 1, "{:?}", handled.uncovered);
    let Uncovered::Unsupported(why) = &handled.uncovered[0].1 else {
        panic!("return -2 is reached: {:?}", handled.uncovered)
    };
    assert!(why.contains("after an allocation fails"), "{why}");

    let reported = run_with("allocations.c", "leak_on_failure", &failing());
    assert_eq!(kinds(&reported), vec![FindingKind::Leak]);
    assert_eq!(
        test_returning(&reported, -2).inputs.failing_allocations,
        vec![1]
    );
}

#[test]
fn allocations_in_callees_are_numbered_in_call_order() {
    let report = run_with("allocations.c", "two_through_callee", &failing());
    assert_all_covered(&report);
    assert!(report.findings.is_empty(), "{:?}", report.findings);
    for (value, failing) in [(-1, vec![0]), (-2, vec![1]), (0, vec![])] {
        assert_eq!(
            test_returning(&report, value).inputs.failing_allocations,
            failing
        );
    }
}

#[test]
fn an_allocation_stored_through_an_unchecked_link_may_fail() {
    let report = run_with("allocations.c", "attach_data", &failing());
    assert_all_covered(&report);
    assert_eq!(
        test_returning(&report, -1).inputs.failing_allocations,
        vec![0]
    );
    assert_eq!(
        kinds(&report),
        vec![FindingKind::NullDereference],
        "h->next unchecked: {:#?}",
        report.findings
    );
}

#[test]
fn realloc_keeps_contents_frees_the_old_block_and_may_fail() {
    let report = run_with("allocations.c", "grow", &failing());
    let unreached: Vec<&Uncovered> = report.uncovered.iter().map(|(_, why)| why).collect();
    let infeasible = unreached
        .iter()
        .filter(|w| ***w == Uncovered::Infeasible)
        .count();
    assert_eq!(infeasible, 1, "only b[1] != n: {unreached:?}");
    assert_eq!(
        test_returning(&report, -2).inputs.failing_allocations,
        vec![1]
    );
    assert!(test_returning(&report, 7)
        .inputs
        .failing_allocations
        .is_empty());
    assert!(report.tests.iter().all(|t| ret(t) != 99));
    let uninit = finding(&report, FindingKind::UninitializedRead);
    assert_eq!(int(&uninit.inputs.args[0]), 5);
    let stale = finding(&report, FindingKind::UseAfterFree);
    assert_eq!(int(&stale.inputs.args[0]), 6);
}

#[test]
fn realloc_to_zero_bytes_frees_and_returns_null() {
    let report = run("allocations.c", "resize");
    assert_eq!(arg(test_returning(&report, -2), 0), 0);
    assert!(report.findings.is_empty(), "{:?}", report.findings);
    let kept = test_returning(&report, 5);
    assert!((1..=4).contains(&arg(kept, 0)));
    // a == NULL when malloc fails; b == NULL also when realloc does, but
    // that path leaks a.
    assert_all_covered(&report);
    assert!(report
        .tests
        .iter()
        .all(|t| t.inputs.failing_allocations != [1]));
}

#[test]
fn realloc_of_an_input_moves_it() {
    let report = run("allocations.c", "shrink");
    let moved = report
        .tests
        .iter()
        .find(|t| t.inputs.args[0] != Value::Null)
        .expect("a test with an input array");
    let Value::Pointer { object, .. } = moved.inputs.args[0] else {
        panic!("a is an input array")
    };
    let first = int(&moved.inputs.objects[object.0 as usize].init[0]);
    assert_eq!(ret(moved), i128::from((first as i32).wrapping_add(1)));
    assert_eq!(moved.freed_inputs, vec![object]);
    // realloc(NULL, ...) allocates: its element is read before any write.
    let fresh = finding(&report, FindingKind::UninitializedRead);
    assert_eq!(fresh.inputs.args[0], Value::Null);
}

#[test]
fn blocks_of_a_symbolic_size_are_allocated() {
    let report = run("allocations.c", "sized");
    assert_all_covered(&report);
    assert!(report.findings.is_empty(), "{:?}", report.findings);
    let t = test_returning(&report, 1);
    assert!((1..=4).contains(&arg(t, 0)));
}

#[test]
fn accesses_past_a_block_of_symbolic_size_are_found() {
    let report = run("allocations.c", "zeroed_element");
    assert_eq!(kinds(&report), vec![FindingKind::OutOfBounds]);
    let f = &report.findings[0];
    let (n, i) = (int(&f.inputs.args[0]), int(&f.inputs.args[1]));
    assert!(
        (1..=16).contains(&n) && !(0..n).contains(&i),
        "n {n}, i {i}"
    );
    for t in report.tests.iter().filter(|t| ret(t) != -1) {
        assert_eq!(ret(t), 0, "calloc zeroes");
        assert!((0..arg(t, 0)).contains(&arg(t, 1)));
    }
}

#[test]
fn uninitialized_counters_of_a_symbolic_count_are_found() {
    let report = run("allocations.c", "sum_fresh");
    let f = finding(&report, FindingKind::UninitializedRead);
    assert!((1..=8).contains(&int(&f.inputs.args[0])));
}

#[test]
fn a_store_at_a_symbolic_index_writes_only_the_slot_it_reaches() {
    let report = run("allocations.c", "first_after_store");
    assert_eq!(arg(test_returning(&report, 7), 0), 0);

    // Only the slot the call set is checked: the others hold indeterminate bytes.
    let report = run("allocations.c", "one_slot");
    let returned: Vec<_> = report
        .tests
        .iter()
        .filter(|t| t.ret != Some(Value::Null))
        .collect();
    assert!(!returned.is_empty(), "{:#?}", report.tests);
    for t in returned {
        let slots: Vec<&[Step]> = t
            .checks
            .iter()
            .filter(|c| matches!(c.root, Root::Allocated(_)))
            .map(|c| &c.path[..])
            .collect();
        let i = arg(t, 0) as u64;
        assert_eq!(slots, vec![&[Step::Index(i)][..]], "{t:#?}");
    }
}

#[test]
fn a_finding_does_not_hang_on_the_value_a_path_fixes_first() {
    // The store fixes `i` to each slot in turn; the path of `i == 0`
    // covers every goal, and only the other values fault.
    for cheap_inputs in [true, false] {
        let config = EngineConfig {
            cheap_inputs,
            ..common::config()
        };
        let report = run_with("allocations.c", "first_after_store", &config);
        let f = finding(&report, FindingKind::UninitializedRead);
        assert!((1..=3).contains(&int(&f.inputs.args[0])), "{f:#?}");
    }
}

#[test]
fn an_unchecked_link_may_be_null() {
    let report = run("links.c", "second_key");
    let f = finding(&report, FindingKind::NullDereference);
    assert!(f.message.contains("head->next"), "{}", f.message);
    assert_eq!(
        *member(&f.inputs.objects, &f.inputs.args[0], NEXT),
        Value::Null
    );
    assert_eq!(report.findings.len(), 1);
    assert_all_covered(&report);
    for t in &report.tests {
        if t.inputs.args[0] != Value::Null {
            let second = member(&t.inputs.objects, &t.inputs.args[0], NEXT);
            assert_eq!(ret(t), int(member(&t.inputs.objects, second, KEY)));
        }
    }
}

#[test]
fn parameters_and_pointers_to_other_types_are_preconditions() {
    for func in ["first_key", "first_slot", "checked_second"] {
        let report = run("links.c", func);
        assert!(report.findings.is_empty(), "{func}: {:?}", report.findings);
        assert!(!report.tests.is_empty(), "{func}");
    }
}

#[test]
fn a_function_without_branches_runs_every_path_for_findings() {
    let report = run("free_inputs.c", "release_twice");
    assert_eq!(kinds(&report), vec![FindingKind::DoubleFree]);
    assert_eq!(report.tests.len(), 1, "the path with p == NULL is the test");
}

#[test]
fn goals_behind_a_fault_are_not_called_infeasible() {
    let report = run("free_inputs.c", "branch_after_free");
    assert_eq!(kinds(&report), vec![FindingKind::UseAfterFree]);
    let behind: Vec<&Uncovered> = report.uncovered.iter().map(|(_, why)| why).collect();
    assert_eq!(behind.len(), 3, "{:?}", report.uncovered);
    assert!(
        behind
            .iter()
            .all(|why| matches!(why, Uncovered::Unsupported(text) if text.contains("finding"))),
        "{behind:?}"
    );
}

#[test]
fn a_block_filled_to_its_symbolic_size_reads_as_written() {
    let report = run("allocations.c", "last_of_filled");
    assert!(kinds(&report).is_empty(), "{:#?}", report.findings);
    assert!(
        report.tests.iter().any(|t| ret(t) == 1),
        "{:#?}",
        report.tests
    );
}

#[test]
fn failing_allocations_explored_for_verdicts_make_no_test() {
    let config = EngineConfig {
        allocation_failure: engine::AllocationFailure::Explored,
        ..common::config()
    };
    let report = run_with("allocations.c", "try_alloc", &config);
    assert!(report
        .tests
        .iter()
        .all(|t| t.inputs.failing_allocations.is_empty()));
    // Reached, so not unreachable; but by no test.
    assert_eq!(report.uncovered.len(), 1, "{:?}", report.uncovered);
    assert!(
        matches!(&report.uncovered[0].1, Uncovered::Unsupported(why) if why.contains("allocation fails")),
        "{:?}",
        report.uncovered
    );
}
