//! Drivers and reproducers over heap memory (see `emit::fixture::heap`):
//! inputs built with calloc and freed, the output heap named and checked by
//! shape, allocation failures chosen per test, and reproducers confirmed by
//! LeakSanitizer, AddressSanitizer and a fill comparison. Compiled with gcc
//! and run for real.

use emit::fixture::heap::{allocated, heap_program, heap_reports, HEAP_C};
use emit::{write_outputs, EmitConfig};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use testcase::json::TestsFile;
use testcase::{AllocId, FunctionReport, ObjectId, Root, Value};

struct Heap {
    dir: tempfile::TempDir,
}

impl Heap {
    fn new(reports: &[FunctionReport]) -> Self {
        let dir = tempfile::tempdir().expect("temp dir");
        std::fs::write(dir.path().join("heap.c"), HEAP_C).expect("write heap.c");
        let heap = Heap { dir };
        let config = EmitConfig {
            out_dir: heap.out(),
            source: heap.dir.path().join("heap.c"),
            flags: Default::default(),
            framework: Default::default(),
            unresolved: Default::default(),
        };
        let summary = write_outputs(&heap_program(), reports, &config).expect("emit");
        assert!(summary.notes.is_empty(), "{:?}", summary.notes);
        heap
    }

    fn out(&self) -> PathBuf {
        self.dir.path().join("out")
    }

    fn read(&self, name: &str) -> String {
        std::fs::read_to_string(self.out().join(name)).expect(name)
    }

    /// Compiles `file` (in OUT) with the warnings as errors and `extra` flags.
    fn compile(&self, file: &str, extra: &[&str]) -> PathBuf {
        let binary = self
            .dir
            .path()
            .join(format!("{}{}", file.replace(".c", ""), extra.len()));
        let output = Command::new("gcc")
            // pop_key reads freed memory on purpose, sum_fresh memory new
            // from malloc.
            .args(["-Wall", "-Wextra", "-Werror", "-Wno-use-after-free"])
            .args(["-Wno-maybe-uninitialized", "-g"])
            .args(extra)
            .arg(self.out().join(file))
            .arg("-o")
            .arg(&binary)
            .output()
            .expect("run gcc");
        assert!(
            output.status.success(),
            "gcc failed:\n{}",
            String::from_utf8_lossy(&output.stderr)
        );
        binary
    }
}

const SANITIZE: &[&str] = &["-fsanitize=address,undefined", "-fno-omit-frame-pointer"];

fn run(binary: &Path, args: &[&str], leaks: bool) -> Output {
    let options = if leaks {
        "detect_leaks=1"
    } else {
        "detect_leaks=0"
    };
    Command::new(binary)
        .args(args)
        .env("ASAN_OPTIONS", options)
        .output()
        .expect("run binary")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn heap_driver_text_is_stable() {
    let heap = Heap::new(&heap_reports());
    insta::assert_snapshot!("heap_test_c", heap.read("heap_test.c"));
    insta::assert_snapshot!("heap_findings_c", heap.read("heap_findings.c"));
}

#[test]
fn heap_driver_passes_and_is_clean_under_address_and_leak_sanitizers() {
    let heap = Heap::new(&heap_reports());
    let plain = run(&heap.compile("heap_test.c", &[]), &[], false);
    assert_eq!(text(&plain.stdout), "10 passed, 0 failed\n");
    assert!(plain.status.success());
    let sanitized = run(&heap.compile("heap_test.c", SANITIZE), &[], true);
    assert_eq!(
        text(&sanitized.stdout),
        "10 passed, 0 failed\n",
        "{}",
        text(&sanitized.stderr)
    );
    assert!(sanitized.status.success(), "{}", text(&sanitized.stderr));
    assert_eq!(text(&sanitized.stderr), "");
}

#[test]
fn reproducers_confirm_the_leak_the_uninitialized_read_and_the_use_after_free() {
    let heap = Heap::new(&heap_reports());
    let binary = heap.compile("heap_findings.c", SANITIZE);
    // The leak: LeakSanitizer reports the object lose() allocated, and only it
    // (the reproducers keep their own inputs reachable).
    let leak = run(&binary, &["1"], true);
    let report = text(&leak.stderr);
    assert!(
        report.contains("ERROR: LeakSanitizer: detected memory leaks"),
        "{report}"
    );
    assert!(report.contains(" in lose "), "{report}");
    assert!(report.contains("1 allocation(s)"), "{report}");
    // The uninitialized read: the sum differs with the fill of new memory.
    let uninitialized = run(&binary, &["2"], false);
    let out = text(&uninitialized.stdout);
    assert!(
        out.contains("CONFIRMED: the result depends on uninitialized memory: 0 when new memory holds 0x00 bytes, 33686018 when it holds 0x01 bytes"),
        "{out}"
    );
    let after_free = run(&binary, &["3"], false);
    let report = text(&after_free.stderr);
    assert!(
        report.contains("ERROR: AddressSanitizer: heap-use-after-free"),
        "{report}"
    );
    // Nothing but the fault: the finding without a leak leaks nothing.
    let clean = run(&binary, &["2"], true);
    assert!(clean.status.success(), "{}", text(&clean.stderr));
}

#[test]
fn wrong_output_heap_predictions_fail_with_one_line_each() {
    let mut reports = heap_reports();
    // ring(1, 2): claim the second node points to itself.
    reports[1].tests[0].checks[3].expected = allocated(1);
    // push(head, 3): claim a new node that is really the input head.
    reports[0].tests[0].ret = Some(Value::Pointer {
        object: ObjectId(0),
        offset: 0,
    });
    reports[0].tests[0].checks.clear();
    reports[0].tests[0].allocated.clear();
    // push(NULL, 7) with every allocation succeeding returns a node, not NULL.
    reports[0].tests[2].inputs.failing_allocations.clear();
    // append(head, 9): claim head->next stays NULL.
    reports[3].tests[0].checks[0].expected = Value::Null;
    reports[3].tests[0].checks.truncate(1);
    reports[3].tests[0].allocated.clear();
    let heap = Heap::new(&reports);
    let output = run(&heap.compile("heap_test.c", SANITIZE), &[], false);
    let out = text(&output.stdout);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 5, "{out}");
    assert!(
        lines[0].starts_with("FAIL test_push: push(head_in, 3) returned 0x"),
        "{out}"
    );
    assert!(lines[0].contains(", expected head_in (0x"), "{out}");
    assert!(
        lines[1]
            .starts_with("FAIL test_push_returns_null_with_null_head: push(NULL, 7) returned 0x"),
        "{out}"
    );
    assert!(
        lines[2].starts_with("FAIL test_ring: result_next_out->next is 0x")
            && lines[2].contains("expected result_next_out"),
        "{out}"
    );
    assert!(
        lines[3].starts_with("FAIL test_append_returns_0: head_in->next is 0x")
            && lines[3].ends_with("expected NULL ((nil))"),
        "{out}"
    );
    assert_eq!(lines[4], "6 passed, 4 failed");
}

#[test]
fn a_new_object_that_is_an_input_or_null_fails_without_crashing() {
    let mut reports = heap_reports();
    // pop(head) returns head->next, an input: claim a new object instead.
    let pop = &mut reports[2].tests[0];
    pop.ret = Some(allocated(0));
    pop.allocated = vec![emit::fixture::heap::new_node("result")];
    // push when malloc fails returns NULL: claim a new object.
    let push = &mut reports[0].tests[2];
    push.ret = Some(allocated(0));
    push.allocated = vec![emit::fixture::heap::new_node("result")];
    push.checks = vec![emit::fixture::heap::member_is(
        Root::Allocated(AllocId(0)),
        0,
        emit::fixture::int_value(7),
    )];
    let heap = Heap::new(&reports);
    let output = run(&heap.compile("heap_test.c", SANITIZE), &[], false);
    let out = text(&output.stdout);
    assert!(
        out.contains(
            "FAIL test_push_with_null_head_2: push(NULL, 7) returned NULL, expected a new object (result)\n"
        ),
        "{out}"
    );
    assert!(
        out.contains("FAIL test_pop: pop(head_in) returned 0x")
            && out.contains(", an object the test already knows, expected a new one (result)\n"),
        "{out}"
    );
    assert!(out.ends_with("8 passed, 2 failed\n"), "{out}");
    assert_eq!(text(&output.stderr), "");
}

#[test]
fn json_carries_the_output_heap_freed_inputs_and_failing_allocations() {
    let heap = Heap::new(&heap_reports());
    let file: TestsFile = serde_json::from_str(&heap.read("heap.tests.json")).expect("json");
    let ring = &file.functions[1].tests[0];
    assert_eq!(
        ring.expected_return,
        Some(serde_json::json!({"allocated": "result", "offset": 0}))
    );
    assert_eq!(ring.allocated.len(), 2);
    assert_eq!(ring.allocated[1].name, "result->next");
    assert_eq!(ring.allocated[1].c_name.as_deref(), Some("result_next_out"));
    assert_eq!(ring.allocated[1].elem_type, "struct node");
    assert_eq!(
        ring.allocated[1].values,
        [serde_json::json!({"key": 2, "next": {"allocated": "result", "offset": 0}})]
    );
    let pop = &file.functions[2].tests[0];
    assert_eq!(pop.freed_inputs, ["*head"]);
    // The check of the freed head is not written.
    assert_eq!(pop.checks.len(), 1);
    assert_eq!(pop.checks[0].lvalue, "result");
    let ring_without_memory = &file.functions[1].tests[1];
    assert_eq!(ring_without_memory.inputs.failing_allocations, [1]);
    assert!(ring_without_memory.allocated.is_empty());
    let append = &file.functions[3].tests[0];
    assert_eq!(append.checks[1].lvalue, "head_in->next");
    assert_eq!(
        append.checks[1].expected,
        serde_json::json!({"allocated": "head->next", "offset": 0})
    );
}
