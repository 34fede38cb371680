//! The output heap: objects the function allocated and left reachable are
//! numbered, named and checked; those it left unreachable are leaks.

mod common;

use common::{int, ret};
use engine::EngineConfig;
use ir::{IntType, Program, Type};
use std::path::PathBuf;
use testcase::{
    AllocId, Check, FindingKind, FunctionReport, ObjectId, Root, Step, TestCase, Value,
};

fn source(file: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/output_heap")
        .join(file)
}

/// Runs the engine on `func` of `tests/output_heap/<file>` (preprocessed),
/// with free-form inputs: the output heap, not the API, is under test.
fn run(file: &str, func: &str) -> (Program, FunctionReport) {
    let config = EngineConfig {
        inputs: engine::InputMode::Free,
        ..common::config()
    };
    run_with(file, func, &config)
}

fn run_with(file: &str, func: &str, config: &EngineConfig) -> (Program, FunctionReport) {
    let (program, report) = common::run_file("output_heap", file, func, config);
    for t in &report.tests {
        assert_heap_order(t);
    }
    (program, report)
}

/// Line (1-based) of the first line of `file` containing `text`.
fn line_of(file: &str, text: &str) -> u32 {
    let src = std::fs::read_to_string(source(file)).expect("test source reads");
    let at = src
        .lines()
        .position(|l| l.contains(text))
        .expect("text in file");
    at as u32 + 1
}

/// Member numbers of `struct node { int key; struct node *next; }`.
const KEY: u32 = 0;
const NEXT: u32 = 1;

fn alloc(n: u32) -> Value {
    Value::Allocated {
        object: AllocId(n),
        offset: 0,
    }
}

/// The contract of `TestCase::allocated`: objects are numbered in the order
/// the inputs built through the API, the return value and then the checks
/// first point to them, every one is pointed to, and no check rooted at an
/// object comes before that pointer.
fn assert_heap_order(t: &TestCase) {
    let mut reached = 0u32;
    for construction in &t.inputs.constructions {
        if let Some(object) = construction.object {
            assert_eq!(object.0, reached, "{construction:?}");
            reached += 1;
        }
    }
    let note = |v: &Value, reached: &mut u32| {
        if let Value::Allocated { object, .. } = v {
            assert!(
                object.0 <= *reached,
                "object {} reached before {reached}",
                object.0
            );
            if object.0 == *reached {
                *reached += 1;
            }
        }
    };
    if let Some(v) = &t.ret {
        note(v, &mut reached);
    }
    for c in &t.checks {
        if let Root::Allocated(id) = c.root {
            assert!(id.0 < reached, "check {c:?} before a pointer to its object");
            assert!(matches!(c.path.first(), Some(Step::Index(_))), "{c:?}");
        }
        note(&c.expected, &mut reached);
    }
    assert_eq!(reached as usize, t.allocated.len(), "{:?}", t.allocated);
}

fn check<'t>(t: &'t TestCase, root: Root, path: &[Step]) -> Option<&'t Check> {
    t.checks.iter().find(|c| c.root == root && c.path == path)
}

/// Expected value of member `field` of allocated object `n` (element 0).
fn member(t: &TestCase, n: u32, field: u32) -> &Value {
    let path = [Step::Index(0), Step::Field(field)];
    match check(t, Root::Allocated(AllocId(n)), &path) {
        Some(c) => &c.expected,
        None => panic!("no check of member {field} of object {n}: {:?}", t.checks),
    }
}

fn node_type(program: &Program) -> Type {
    let id = program
        .structs
        .iter()
        .position(|s| s.name == "node")
        .expect("struct node");
    Type::Struct(ir::StructId(id as u32))
}

#[test]
fn a_returned_list_is_named_from_the_result_and_checked_link_by_link() {
    let (program, report) = run("lists.c", "pair");
    assert!(report.findings.is_empty(), "{:?}", report.findings);
    assert!(!report.tests.is_empty(), "{report:?}");
    let t = &report.tests[0];
    assert_eq!(t.ret, Some(alloc(0)));
    let names: Vec<&str> = t.allocated.iter().map(|a| a.name.as_str()).collect();
    assert_eq!(names, ["result", "result->next"]);
    for a in &t.allocated {
        assert_eq!((&a.elem, a.len), (&node_type(&program), 1));
    }
    assert_eq!(int(member(t, 0, KEY)), 1);
    assert_eq!(member(t, 0, NEXT), &alloc(1));
    assert_eq!(int(member(t, 1, KEY)), 2);
    assert_eq!(member(t, 1, NEXT), &Value::Null);
}

#[test]
fn a_node_linked_into_an_input_list_is_named_by_the_input_path() {
    let (_, report) = run("lists.c", "insert_second");
    assert!(report.findings.is_empty(), "{:?}", report.findings);
    let mut names = Vec::new();
    // A test where the allocation fails allocates nothing.
    for t in (report.tests.iter()).filter(|t| t.inputs.failing_allocations.is_empty()) {
        assert_eq!(t.allocated.len(), 1, "{t:?}");
        assert_eq!(int(member(t, 0, KEY)), int(&t.inputs.args[1]));
        names.push((ret(t), t.allocated[0].name.clone()));
        // The input pointer `*head` or the first node's `next` now points to it.
        let reaching: Vec<&Check> = t.checks.iter().filter(|c| c.expected == alloc(0)).collect();
        assert_eq!(reaching.len(), 1, "{:?}", t.checks);
        assert!(matches!(reaching[0].root, Root::Object(_)));
        if ret(t) == 1 {
            // It took over the first node's old successor.
            let first = &t.inputs.objects[match &reaching[0].root {
                Root::Object(id) => id.0 as usize,
                _ => unreachable!(),
            }];
            let Value::Struct(fields) = &first.init[0] else {
                panic!("not a node: {first:?}");
            };
            assert_eq!(member(t, 0, NEXT), &fields[NEXT as usize]);
        } else {
            assert_eq!(member(t, 0, NEXT), &Value::Null);
        }
    }
    names.sort();
    assert_eq!(
        names,
        [(0, "*head".to_string()), (1, "(*head)->next".to_string())]
    );
}

#[test]
fn a_node_pushed_on_a_global_list_is_named_by_the_global_member() {
    let (program, report) = run("lists.c", "remember");
    assert!(report.findings.is_empty(), "{:?}", report.findings);
    let reg = program
        .globals
        .iter()
        .position(|g| g.name == "reg")
        .expect("global reg");
    let t = &report.tests[0];
    assert_eq!(t.allocated.len(), 1);
    assert_eq!(t.allocated[0].name, "reg.list");
    let list = check(t, Root::Global(ir::GlobalId(reg as u32)), &[Step::Field(1)]);
    assert_eq!(list.map(|c| &c.expected), Some(&alloc(0)));
    assert_eq!(int(member(t, 0, KEY)), int(&t.inputs.args[0]));
}

#[test]
fn an_array_through_an_out_parameter_has_its_elements_checked() {
    let (_, report) = run("lists.c", "fill");
    let t = report
        .tests
        .iter()
        .find(|t| ret(t) == 3)
        .expect("a test filling the array");
    assert_eq!(t.allocated.len(), 1);
    let array = &t.allocated[0];
    assert_eq!((array.name.as_str(), array.len), ("*out", 3));
    assert_eq!(array.elem, Type::Int(IntType::INT));
    for i in 0..3 {
        let c = check(t, Root::Allocated(AllocId(0)), &[Step::Index(i)]).expect("element check");
        assert_eq!(int(&c.expected), i as i128 * 10);
    }
}

#[test]
fn memory_reached_through_void_pointer_is_checked_as_bytes() {
    let (_, report) = run("lists.c", "bytes");
    let t = &report.tests[0];
    assert_eq!(t.ret, Some(alloc(0)));
    let bytes = &t.allocated[0];
    assert_eq!((bytes.name.as_str(), bytes.len), ("result", 3));
    assert_eq!(bytes.elem, Type::Int(IntType::UCHAR));
    let values: Vec<i128> = t
        .checks
        .iter()
        .filter(|c| c.root == Root::Allocated(AllocId(0)))
        .map(|c| int(&c.expected))
        .collect();
    assert_eq!(values, [7, 8, 9]);
}

#[test]
fn a_pointer_to_freed_memory_is_neither_checked_nor_an_object() {
    let (_, report) = run("lists.c", "dangling");
    assert!(report.findings.is_empty(), "{:?}", report.findings);
    let t = &report.tests[0];
    assert!(t.allocated.is_empty(), "{:?}", t.allocated);
    let next = [Step::Index(0), Step::Field(NEXT)];
    assert_eq!(check(t, Root::Object(ObjectId(0)), &next), None);
}

fn leaks(report: &FunctionReport) -> Vec<(u32, &str)> {
    report
        .findings
        .iter()
        .filter(|f| f.kind == FindingKind::Leak)
        .map(|f| (f.span.line, f.message.as_str()))
        .collect()
}

#[test]
fn an_early_return_leaks_the_block_and_still_yields_its_test() {
    let (_, report) = run("leaks.c", "early_return");
    let line = line_of("leaks.c", "return -1;");
    assert_eq!(
        leaks(&report),
        [(
            line,
            "1 allocated object (4 bytes) unreachable after return"
        )]
    );
    let finding = &report.findings[0];
    assert!(int(&finding.inputs.args[0]) < 0, "{:?}", finding.inputs);
    // The leaking path is a test of its own (the leak is no crash).
    assert!(report.tests.iter().any(|t| ret(t) == -1));
    assert!(report.tests.iter().any(|t| ret(t) == 0));
}

#[test]
fn a_chain_kept_only_by_locals_leaks_whole() {
    let (_, report) = run("leaks.c", "lost_chain");
    let line = line_of("leaks.c", "return 1;");
    assert_eq!(
        leaks(&report),
        [(
            line,
            "2 allocated objects (32 bytes) unreachable after return"
        )]
    );
    assert!(report.tests.iter().any(|t| ret(t) == 1));
}

#[test]
fn memory_handed_to_a_function_without_a_body_is_no_leak() {
    let (_, report) = run("leaks.c", "hand_over");
    assert!(report.findings.is_empty(), "{:?}", report.findings);
    assert!(report.tests.iter().any(|t| ret(t) == 0));
}

#[test]
fn memory_reachable_from_the_result_or_an_input_is_no_leak() {
    for func in ["kept_chain", "attach"] {
        let (_, report) = run("leaks.c", func);
        assert!(report.findings.is_empty(), "{func}: {:?}", report.findings);
    }
    let (_, report) = run("leaks.c", "attach");
    let t = &report.tests[0];
    assert_eq!(t.allocated.len(), 1);
    assert_eq!(t.allocated[0].name, "n->next");
    assert_eq!(int(member(t, 0, KEY)), 5);
    assert_eq!(member(t, 0, NEXT), &Value::Null);
}

#[test]
fn members_of_a_returned_struct_name_what_they_point_to() {
    let (_, report) = run("lists.c", "two_ends");
    let t = report
        .tests
        .iter()
        .find(|t| !t.allocated.is_empty())
        .expect("a test with a node");
    // Both members share the one node: it is numbered once, by the first.
    assert_eq!(t.allocated.len(), 1);
    assert_eq!(t.allocated[0].name, "result.first");
    let first = check(t, Root::Return, &[Step::Field(0)]).expect("first checked");
    let last = check(t, Root::Return, &[Step::Field(1)]).expect("last checked");
    assert_eq!((&first.expected, &last.expected), (&alloc(0), &alloc(0)));
    assert_eq!(int(member(t, 0, KEY)), int(&t.inputs.args[0]));
}

#[test]
fn elements_of_an_allocated_table_name_their_nodes_by_index() {
    let (program, report) = run("lists.c", "table");
    let t = report
        .tests
        .iter()
        .find(|t| t.allocated.len() == 3)
        .expect("a test with a full table");
    let names: Vec<&str> = t.allocated.iter().map(|a| a.name.as_str()).collect();
    assert_eq!(names, ["result", "result[0]", "result[1]"]);
    assert_eq!(t.allocated[0].len, 2);
    assert_eq!(t.allocated[0].elem, Type::ptr(node_type(&program)));
    for i in 0..2u32 {
        let slot = check(t, Root::Allocated(AllocId(0)), &[Step::Index(i.into())]);
        assert_eq!(slot.map(|c| &c.expected), Some(&alloc(i + 1)));
        assert_eq!(int(member(t, i + 1, KEY)), i128::from(i));
    }
}

#[test]
fn an_input_node_the_function_freed_is_listed_and_not_checked() {
    let (_, report) = run("ownership.c", "pop");
    assert!(report.findings.is_empty(), "{:?}", report.findings);
    let popped: Vec<&TestCase> = report
        .tests
        .iter()
        .filter(|t| t.inputs.args[0] != Value::Null)
        .collect();
    assert!(!popped.is_empty(), "{:?}", report.uncovered);
    for t in popped {
        let head = ObjectId(0);
        assert_eq!(t.freed_inputs, [head]);
        assert!(
            t.checks.iter().all(|c| c.root != Root::Object(head)),
            "{t:?}"
        );
        let Value::Struct(fields) = &t.inputs.objects[0].init[0] else {
            panic!("not a node: {t:?}");
        };
        assert_eq!(t.ret.as_ref(), Some(&fields[NEXT as usize]));
    }
}

#[test]
fn a_reallocated_input_node_is_freed_and_its_copy_allocated() {
    let (_, report) = run("ownership.c", "renew");
    let t = report
        .tests
        .iter()
        .find(|t| t.inputs.args[0] != Value::Null)
        .expect("a test moving a node");
    assert_eq!(t.freed_inputs, [ObjectId(0)]);
    assert_eq!(t.ret, Some(alloc(0)));
    assert_eq!(t.allocated[0].name, "result");
    assert_eq!(int(member(t, 0, KEY)), 7);
    assert!(leaks(&report).is_empty(), "{:?}", report.findings);
}

#[test]
fn memory_only_reachable_from_a_freed_input_leaks() {
    let (_, report) = run("ownership.c", "stash_then_free");
    let line = line_of("ownership.c", "free(n);") + 1;
    assert_eq!(
        leaks(&report),
        [(
            line,
            "1 allocated object (16 bytes) unreachable after return"
        )]
    );
}

#[test]
fn a_failing_allocation_midway_leaks_what_was_built_and_cleanup_does_not() {
    let config = EngineConfig {
        allocation_failure: engine::AllocationFailure::Tested,
        ..common::config()
    };
    let (_, report) = run_with("lists.c", "table", &config);
    let line = line_of("lists.c", "return NULL; /* leaks");
    // Reported once for the site, by the first path: the table alone when
    // the first node's allocation (call 1) fails, with that node when the
    // second one's (call 2) does.
    let found = leaks(&report);
    assert_eq!(found.len(), 1, "{:?}", report.findings);
    let finding = &report.findings[0];
    let expected = match finding.inputs.failing_allocations[..] {
        [1] => "1 allocated object (16 bytes) unreachable after return",
        [2] => "2 allocated objects (32 bytes) unreachable after return",
        ref other => panic!("failing allocations {other:?}"),
    };
    assert_eq!(found[0], (line, expected));
    let (_, report) = run_with("lists.c", "pair", &config);
    assert!(report.findings.is_empty(), "{:?}", report.findings);
    let failed: Vec<&TestCase> = report
        .tests
        .iter()
        .filter(|t| !t.inputs.failing_allocations.is_empty())
        .collect();
    assert_eq!(failed.len(), 2, "{:?}", report.tests);
    for t in failed {
        assert_eq!((&t.ret, t.allocated.len()), (&Some(Value::Null), 0));
    }
}

#[test]
fn a_test_checks_at_most_so_many_values_and_every_object_it_reaches() {
    let src = "void *malloc(unsigned long);\n\
        void *memset(void *, int, unsigned long);\n\
        struct big { struct big *self; unsigned char bytes[600]; };\n\
        struct big *big_new(int fill) {\n\
            struct big *b = malloc(sizeof *b);\n\
            if (b == 0) return 0;\n\
            b->self = b;\n\
            memset(b->bytes, fill, sizeof b->bytes);\n\
            return b;\n\
        }\n";
    let (_, report) = common::run(src, "big_new");
    let made = (report.tests.iter())
        .find(|t| matches!(t.ret, Some(Value::Allocated { .. })))
        .expect("a test where the allocation succeeds");
    // The return value, `self` and the first bytes; the rest left out.
    let naming = made.checks.iter().filter(|c| c.names_an_object()).count();
    assert_eq!(made.checks.len() - naming, testcase::CHECKS_PER_TEST);
    assert_eq!(made.unchecked, 600 - testcase::CHECKS_PER_TEST);
    assert!(made
        .checks
        .iter()
        .any(|c| c.path == [Step::Index(0), Step::Field(0)]));
}
