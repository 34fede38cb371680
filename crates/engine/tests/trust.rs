//! What makes results trustworthy on library code: declared invariants keep
//! impossible inputs out of tests and findings; abnormal ends are findings;
//! a goal a bound cut is not called infeasible.

mod common;

use engine::{EngineConfig, InvariantSpec};
use testcase::{FindingKind, FunctionReport, Uncovered, Value};

fn run_with(file: &str, func: &str, config: &EngineConfig) -> FunctionReport {
    common::run_file("trust", file, func, config).1
}

fn with_list_invariant() -> EngineConfig {
    EngineConfig {
        invariants: vec![InvariantSpec {
            type_name: "struct list".to_string(),
            predicate: "list_ok".to_string(),
        }],
        ..common::config()
    }
}

#[test]
fn without_an_invariant_a_counted_list_can_lie_about_its_length() {
    let report = run_with("counted_list.c", "list_index_value", &common::config());
    assert!(
        report
            .findings
            .iter()
            .any(|f| f.kind == FindingKind::NullDereference),
        "{:?}",
        report.findings
    );
}

#[test]
fn an_invariant_keeps_impossible_lists_out_of_tests_and_findings() {
    for func in ["list_index_value", "list_pop_back"] {
        let report = run_with("counted_list.c", func, &with_list_invariant());
        common::assert_all_covered(&report);
        assert!(report.findings.is_empty(), "{func}: {:?}", report.findings);
        for test in &report.tests {
            // The list object is the first input object: its len matches
            // the number of node objects the test builds.
            let objects: Vec<_> = test
                .inputs
                .objects
                .iter()
                .filter(|o| o.name.starts_with("*l"))
                .collect();
            let Value::Struct(fields) = &objects[0].init[0] else {
                panic!("{func}: the first input object is not the list: {objects:?}");
            };
            let len = common::int(&fields[2]);
            assert_eq!(len as usize, objects.len() - 1, "{func}: {objects:?}");
        }
    }
}

#[test]
fn the_predicate_itself_is_tested_on_any_input() {
    let report = run_with("counted_list.c", "list_ok", &with_list_invariant());
    common::assert_all_covered(&report);
    assert!(report.tests.iter().any(|t| common::ret(t) == 0));
}

#[test]
fn abnormal_ends_are_findings() {
    let config = common::config();
    let kinds = |func: &str| -> Vec<FindingKind> {
        let report = run_with("error_paths.c", func, &config);
        report.findings.iter().map(|f| f.kind).collect()
    };
    assert_eq!(
        kinds("check_age"),
        [FindingKind::AssertionFailure, FindingKind::ErrorExit]
    );
    assert_eq!(kinds("pick"), [FindingKind::Abort]);
    let pair = run_with("error_paths.c", "pair", &config);
    let error = &pair.findings[0];
    assert_eq!(error.kind, FindingKind::ErrorCall);
    let (a, b) = (
        common::int(&error.inputs.args[0]),
        common::int(&error.inputs.args[1]),
    );
    assert!(a > 10 && b == a + 1, "a = {a}, b = {b}");
}

/// The reason of every uncovered goal of `func`.
fn reasons(func: &str, config: &EngineConfig) -> Vec<Uncovered> {
    let report = run_with("bounds.c", func, config);
    report.uncovered.into_iter().map(|(_, why)| why).collect()
}

fn cut_by(bound: testcase::Bound) -> Uncovered {
    Uncovered::Budget(bound)
}

#[test]
fn goals_behind_a_bound_are_cut_not_infeasible() {
    // Strings of one byte, and of eight when the search runs again for the
    // goals the length cut: still short of the eleven the goals need.
    let one_byte = EngineConfig {
        max_array: 1,
        ..common::config()
    };
    let short = reasons("date_shape", &one_byte);
    assert!(!short.is_empty());
    assert!(
        short
            .iter()
            .all(|why| *why == cut_by(testcase::Bound::MaxArray)),
        "{short:?}"
    );
    let long = EngineConfig {
        max_array: 16,
        ..common::config()
    };
    assert_eq!(reasons("date_shape", &long), []);
    // The default's eight bytes are too short, and the search runs again
    // with longer strings.
    assert_eq!(reasons("date_shape", &common::config()), []);

    let never_failing = EngineConfig {
        allocation_failure: engine::AllocationFailure::Never,
        ..common::config()
    };
    assert_eq!(
        reasons("boxed", &never_failing),
        [cut_by(testcase::Bound::AllocMayFail)]
    );
    assert_eq!(reasons("boxed", &common::config()), []);
    // What a stub writes through `int *out` (numbers to the end of the
    // object) and `struct pair *out` (one pair) the test scripts; what it
    // may write past that no test sets.
    assert_eq!(reasons("setting_level", &common::config()), []);
    assert_eq!(
        reasons("second_setting", &common::config()),
        [cut_by(testcase::Bound::StubEffects)]
    );
}

#[test]
fn tests_vary_only_the_state_the_code_writes_and_never_its_hooks() {
    let config = EngineConfig {
        allocation_failure: engine::AllocationFailure::Tested,
        ..common::config()
    };
    let cell = run_with("hooks.c", "make_cell", &config);
    common::assert_all_covered(&cell);
    assert!(cell.findings.is_empty(), "{:?}", cell.findings);
    for test in &cell.tests {
        assert!(test.inputs.globals.is_empty(), "{:?}", test.inputs.globals);
    }

    let mode = run_with("hooks.c", "in_mode", &config);
    assert!(mode.tests.iter().all(|t| t.inputs.globals.is_empty()));
    assert!(mode.tests.iter().all(|t| common::ret(t) == 1));

    let count = run_with("hooks.c", "count", &config);
    common::assert_all_covered(&count);
    assert!(count.tests.iter().all(|t| t.inputs.globals.len() == 1));
}

/// The functions of `stack.c`'s construction calls, by name.
fn call_names(report: &FunctionReport, program: &ir::Program) -> Vec<Vec<String>> {
    report
        .tests
        .iter()
        .flat_map(|t| &t.inputs.constructions)
        .map(|c| {
            c.calls
                .iter()
                .map(|call| program.function(call.func).name.clone())
                .collect()
        })
        .collect()
}

#[test]
fn a_struct_with_a_constructor_is_built_through_the_api() {
    let (program, report) = common::run_file("trust", "stack.c", "stack_second", &common::config());
    common::assert_all_covered(&report);
    assert!(report.findings.is_empty(), "{:?}", report.findings);
    let sequences = call_names(&report, &program);
    assert_eq!(sequences.len(), report.tests.len());
    for calls in &sequences {
        assert_eq!(calls[0], "stack_new");
        assert!(calls[1..].iter().all(|c| c == "stack_push"), "{calls:?}");
    }
    // `top->below->value > 100` needs two pushes, the first of a big value.
    assert!(sequences.iter().any(|calls| calls.len() == 3));
    for test in &report.tests {
        assert_eq!(test.inputs.args[0], Value::Constructed { param: 0 });
        assert!(test.inputs.objects.is_empty(), "no free-form objects");
    }

    // A test of `stack_push` may push before the push under test.
    let (program, pushes) = common::run_file("trust", "stack.c", "stack_push", &common::config());
    assert!(call_names(&pushes, &program)
        .iter()
        .all(|calls| calls[0] == "stack_new"));

    let free = EngineConfig {
        inputs: engine::InputMode::Free,
        ..common::config()
    };
    let (_, report) = common::run_file("trust", "stack.c", "stack_second", &free);
    assert!(report
        .tests
        .iter()
        .all(|t| t.inputs.constructions.is_empty()));
}

#[test]
fn a_call_that_breaks_a_declared_invariant_is_a_finding_and_keeps_its_test() {
    let config = EngineConfig {
        invariants: vec![InvariantSpec {
            type_name: "struct bag".to_string(),
            predicate: "bag_ok".to_string(),
        }],
        ..common::config()
    };
    let (_, drop) = common::run_file("trust", "bag.c", "bag_drop_first", &config);
    common::assert_all_covered(&drop);
    let [broken] = drop.findings.as_slice() else {
        panic!("{:?}", drop.findings)
    };
    assert_eq!(broken.kind, FindingKind::BrokenInvariant);
    assert!(broken.has_valid_inputs());
    assert_eq!(broken.broken_invariant.map(|b| b.param), Some(0));
    assert_eq!(broken.span.line, 29, "at the return, not in the predicate");
    assert!(
        !broken.inputs.constructions.is_empty(),
        "built through the API"
    );

    let (_, add) = common::run_file("trust", "bag.c", "bag_add", &config);
    assert!(add.findings.is_empty(), "{:?}", add.findings);
}

#[test]
fn an_input_its_own_api_builds_broken_is_a_finding_of_the_function_that_broke_it() {
    let config = EngineConfig {
        invariants: vec![InvariantSpec {
            type_name: "struct ledger".to_string(),
            predicate: "ledger_ok".to_string(),
        }],
        ..common::config()
    };
    let (program, report) = common::run_file("trust", "ledger.c", "ledger_balance", &config);
    let broken: Vec<_> = report
        .findings
        .iter()
        .filter(|f| f.kind == FindingKind::BrokenInvariant)
        .collect();
    let [broken] = broken.as_slice() else {
        panic!("{:?}", report.findings)
    };
    assert!(broken.message.contains("ledger_post"), "{}", broken.message);
    let post = program
        .functions
        .iter()
        .find(|f| f.name == "ledger_post")
        .expect("ledger_post");
    assert_eq!(
        broken.span, post.span,
        "at the function whose call broke it"
    );
}

#[test]
fn items_an_adder_links_in_are_made_by_their_own_constructor() {
    let (program, report) = common::run_file(
        "trust",
        "family.c",
        "person_has_adult_child",
        &common::config(),
    );
    common::assert_all_covered(&report);
    assert!(report.findings.is_empty(), "{:?}", report.findings);
    // A child of 18 or more: `child = person_new(18); person_adopt(p, child);`.
    let adopted = report
        .tests
        .iter()
        .flat_map(|t| &t.inputs.constructions)
        .any(|c| {
            c.calls.iter().enumerate().any(|(k, call)| {
                call.part.as_deref() == Some("child")
                    && program.function(call.func).name == "person_new"
                    && c.calls[k + 1..].iter().any(|later| {
                        later.args.contains(&Value::Part {
                            param: 0,
                            call: k as u32,
                        })
                    })
            })
        });
    assert!(adopted, "{:?}", report.tests);
}

#[test]
fn null_is_passed_only_to_a_function_that_guards_against_it() {
    let (_, guarded) = common::run_file("trust", "family.c", "person_children", &common::config());
    common::assert_all_covered(&guarded);
    assert!(guarded
        .tests
        .iter()
        .any(|t| t.inputs.args[0] == Value::Null));
    let (_, unguarded) = common::run_file(
        "trust",
        "family.c",
        "person_has_adult_child",
        &common::config(),
    );
    assert!(unguarded
        .tests
        .iter()
        .all(|t| t.inputs.args[0] != Value::Null));
}

#[test]
fn a_value_the_function_looks_for_is_taken_among_the_nodes_or_labelled() {
    let (_, report) = common::run_file("trust", "family.c", "person_disown", &common::config());
    common::assert_all_covered(&report);
    let member = |t: &testcase::TestCase| {
        t.inputs
            .constructions
            .iter()
            .any(|c| c.param == 1 && c.member_of.is_some())
    };
    assert!(report.tests.iter().any(member), "{:?}", report.tests);
    // A child made apart is not the parent's: a crash then is not vouched for.
    for finding in &report.findings {
        assert!(!finding.has_valid_inputs(), "{finding:?}");
        assert!(
            finding
                .unvouched_inputs
                .contains(&"`child` built apart from `parent`".to_string()),
            "{:?}",
            finding.unvouched_inputs
        );
    }
}

#[test]
fn an_invariant_holds_through_a_pointer_to_the_head() {
    let config = EngineConfig {
        invariants: vec![InvariantSpec {
            type_name: "struct cell".to_string(),
            predicate: "cells_sorted".to_string(),
        }],
        allocation_failure: engine::AllocationFailure::Tested,
        ..common::config()
    };
    let (_, report) = common::run_file("trust", "family.c", "cells_insert", &config);
    common::assert_all_covered(&report);
    for test in &report.tests {
        let values: Vec<i128> = test
            .inputs
            .objects
            .iter()
            .filter_map(|o| match &o.init[..] {
                [Value::Struct(fields)] if o.name.contains("head") => Some(common::int(&fields[0])),
                _ => None,
            })
            .collect();
        let mut sorted = values.clone();
        sorted.sort();
        sorted.dedup();
        assert_eq!(sorted.len(), values.len(), "distinct values: {values:?}");
    }
    // Inserting a value the list holds leaves it not strictly increasing.
    let broken = report
        .findings
        .iter()
        .find(|f| f.kind == FindingKind::BrokenInvariant)
        .expect("a broken invariant");
    assert!(broken.has_valid_inputs());
    assert_eq!(broken.broken_invariant.map(|b| b.param), Some(0));
}

#[test]
fn a_path_that_ends_the_program_cuts_nothing_after_it() {
    let ends = "only reached by paths that end in a finding, exit, abort or a loop that never ends";
    // The direction into a loop that never ends has no test (the driver
    // could not run past it); the one behind it no input takes.
    assert_eq!(
        reasons("after_hang", &common::config()),
        [
            Uncovered::Unsupported(ends.to_string()),
            Uncovered::Infeasible
        ]
    );
    // `exit` ends the process, which a test expects: only the direction
    // behind it is left.
    assert_eq!(
        reasons("after_exit", &common::config()),
        [Uncovered::Infeasible]
    );
}

#[test]
fn a_test_checks_what_the_call_changed_of_objects_its_api_built() {
    let (program, report) = common::run_file("trust", "meter.c", "meter_tick", &common::config());
    common::assert_all_covered(&report);
    for test in &report.tests {
        let calls = test.inputs.constructions.iter().flat_map(|c| &c.calls);
        let names: Vec<_> = calls
            .map(|call| &program.function(call.func).name)
            .collect();
        assert_eq!(names, ["meter_new"]);
        // The count when the tick counted, else nothing: the other members
        // are what `meter_new` wrote, which a test of `meter_tick` leaves.
        let ticked = test.ret.as_ref().is_some_and(|r| common::int(r) > 0);
        let checked = (test.checks.iter())
            .filter(|c| c.root != testcase::Root::Return)
            .count();
        assert_eq!(checked, usize::from(ticked), "{:?}", test.checks);
    }
}
