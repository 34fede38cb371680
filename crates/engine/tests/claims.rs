//! Inputs set up by initialisers, and claims a user can act on: leaks only
//! of what the call allocated and lost, NULL callbacks and free-form shapes
//! not vouched for, NULL for parameters declared never NULL, no check of
//! bytes the path did not write. Over `tests/corpus/claims`.

mod common;

use engine::{EngineConfig, InvariantSpec};
use ir::{Program, Success};
use testcase::{FindingKind, FunctionReport, Root, Step, Uncovered, Value};

fn run(file: &str, func: &str) -> (Program, FunctionReport) {
    common::run_corpus("claims", file, func, &common::config())
}

fn vouched(report: &FunctionReport) -> Vec<(FindingKind, String)> {
    report
        .findings
        .iter()
        .filter(|f| f.unvouched_inputs.is_empty())
        .map(|f| (f.kind, f.message.clone()))
        .collect()
}

#[test]
fn a_state_set_up_by_its_initialiser_is_built_by_it() {
    let (program, report) = run("tokenizer.c", "tok_next");
    let init = program.function_by_name("tok_init").expect("tok_init");
    assert!(report.tests.len() > 5, "{:?}", report.uncovered);
    for test in &report.tests {
        let [construction] = test.inputs.constructions.as_slice() else {
            panic!("not built through the API: {:?}", test.inputs);
        };
        let first = &construction.calls[0];
        assert_eq!(first.func, init);
        assert_eq!(first.initialises, Some(Success::Void));
        assert_eq!(first.args[0], Value::Constructed { param: 0 });
        // The source is a string the test makes, not a scratch byte.
        assert!(
            matches!(first.args[1], Value::Pointer { .. }),
            "{:?}",
            first.args
        );
        assert!(!test.inputs.objects.iter().any(|o| o.name.contains("*t")));
    }
    assert!(report.findings.is_empty(), "{:?}", report.findings);
}

#[test]
fn a_state_is_used_only_where_its_initialiser_succeeded() {
    let (program, report) = run("buffer.c", "buf_push");
    let init = program.function_by_name("buf_init").expect("buf_init");
    assert!(!report.tests.is_empty());
    for test in &report.tests {
        let first = &test.inputs.constructions[0].calls[0];
        assert_eq!(
            (first.func, first.initialises),
            (init, Some(Success::Is(0)))
        );
        let cap = common::int(&first.args[1]);
        assert!((1..=64).contains(&cap), "cap {cap}: buf_init fails there");
    }
    assert!(report.findings.is_empty(), "{:?}", report.findings);
}

#[test]
fn an_initialiser_under_test_gets_storage_not_a_built_value() {
    let (_, report) = run("buffer.c", "buf_init");
    assert!(report.tests.len() >= 3);
    assert!(report
        .tests
        .iter()
        .all(|t| t.inputs.constructions.is_empty()));
}

#[test]
fn a_null_callback_is_vouched_for_only_where_the_function_tests_it() {
    let (_, parse) = run("callbacks.c", "parse");
    let null_call = parse
        .findings
        .iter()
        .find(|f| f.message.contains("NULL function pointer"))
        .expect("parse calls a NULL on_item");
    assert_eq!(
        null_call.unvouched_inputs,
        ["`on_item` NULL, which parse() never tests"]
    );
    let (_, count) = run("callbacks.c", "count_items");
    assert!(count.findings.is_empty(), "{:?}", count.findings);
    let (_, feed) = run("callbacks.c", "feed");
    let member = feed
        .findings
        .iter()
        .find(|f| f.message.contains("NULL function pointer"))
        .expect("feed calls a NULL on_item");
    assert!(member
        .unvouched_inputs
        .contains(&"member `on_item` NULL, which feed() never tests".to_string()));
    // on_end is tested: calling it is never a finding.
    assert_eq!(feed.findings.len(), 1, "{:?}", feed.findings);
}

#[test]
fn a_leak_is_only_what_the_call_allocated_and_lost() {
    for func in ["list_push", "list_pop", "list_truncate", "list_free"] {
        let (_, report) = run("list.c", func);
        assert!(
            !report.findings.iter().any(|f| f.kind == FindingKind::Leak),
            "{func}: {:?}",
            report.findings
        );
    }
    let (_, report) = run("list.c", "list_peek_copy");
    assert_eq!(
        vouched(&report),
        [(
            FindingKind::Leak,
            "1 allocated object (4 bytes) unreachable after return".to_string()
        )]
    );
}

#[test]
fn findings_on_freely_built_shapes_are_never_vouched_for() {
    let (_, report) = run("avl_free.c", "rotate_right");
    assert!(!report.findings.is_empty());
    assert_eq!(vouched(&report), []);
}

/// A pointer read from input bytes is one no test can set: no finding
/// (NULL is only one of its values) and no goal behind it claimed
/// infeasible; a copy that needs a longer input than `max_array` allows is
/// cut by that bound, not disproved.
#[test]
fn a_pointer_read_from_bytes_is_neither_a_finding_nor_a_proof() {
    let (_, report) = run("avl_free.c", "left_height");
    assert!(report.findings.is_empty(), "{:?}", report.findings);
    assert!(!report.uncovered.is_empty());
    for (_, why) in &report.uncovered {
        assert!(*why != testcase::Uncovered::Infeasible, "{why:?}");
    }
}

#[test]
fn findings_on_shapes_a_declared_invariant_accepts_are_vouched_for() {
    let config = EngineConfig {
        invariants: vec![InvariantSpec {
            type_name: "struct avl".to_string(),
            predicate: "avl_ok".to_string(),
        }],
        ..common::config()
    };
    let run = |func: &str| common::run_corpus("claims", "avl_checked.c", func, &config).1;
    for func in ["smallest", "root_balance"] {
        assert_eq!(run(func).findings, [], "{func}");
    }
    let report = run("second_smallest");
    assert_eq!(
        vouched(&report),
        [(
            FindingKind::NullDereference,
            "NULL pointer dereferenced".to_string()
        )]
    );
}

#[test]
fn null_for_a_parameter_declared_never_null_is_a_finding_even_with_size_0() {
    let (_, report) = run("memcopy.c", "copy_prefix");
    assert_eq!(
        vouched(&report),
        [(
            FindingKind::NullArgument,
            "NULL passed as argument 2 of `memcpy`, which its declaration says is never NULL"
                .to_string()
        )]
    );
    // The arm that leads there is reached, by a path that ends in the finding.
    assert!(report
        .uncovered
        .iter()
        .all(|(_, why)| !matches!(why, Uncovered::Infeasible)));
    let (_, report) = run("memcopy.c", "name_length");
    assert_eq!(report.findings, []);
    common::assert_all_covered(&report);
}

#[test]
fn bytes_a_function_without_a_body_may_fill_are_never_checked() {
    let (program, report) = run("port.c", "port_create");
    let port = program
        .structs
        .iter()
        .position(|s| s.name == "port")
        .expect("struct port");
    let queue = program.structs[port]
        .fields
        .iter()
        .position(|f| f.name == "queue")
        .expect("member queue") as u32;
    let made = report
        .tests
        .iter()
        .find(|t| !matches!(t.ret, Some(Value::Null)))
        .expect("a test where malloc succeeds");
    let name = made
        .checks
        .iter()
        .filter(|c| matches!(c.root, Root::Allocated(_)))
        .map(|c| c.path.clone())
        .collect::<Vec<_>>();
    assert!(!name.is_empty());
    assert!(
        name.iter()
            .all(|path| path.get(1) != Some(&Step::Field(queue))),
        "{name:?}"
    );
}
