mod common;

use common::*;
use testcase::{Uncovered, Value};

#[test]
fn function_pointer_parameter_gets_a_matching_function() {
    let src = r#"
int twice(int x) { return 2 * x; }
int negate(int x) { return -x; }
long other(long x) { return x; }
int apply(int (*f)(int), int v) {
    int r = f(v);
    if (r == 10) return 1;
    return 0;
}
"#;
    let (program, report) = run(src, "apply");
    assert_all_covered(&report);
    let twice = program.function_by_name("twice").expect("twice");
    let negate = program.function_by_name("negate").expect("negate");
    for t in &report.tests {
        let Value::Func(f) = t.inputs.args[0] else {
            panic!("function argument: {:?}", t.inputs.args[0])
        };
        // Or the mock standing for another file's function of the type,
        // whose result the test scripts.
        if program.callback_mocks.contains(&f) {
            assert_eq!(program.function(f).sig, program.function(twice).sig);
            continue;
        }
        assert!(
            f == twice || f == negate,
            "only functions of type int(int) qualify"
        );
        let v = arg(t, 1) as i32;
        let r = if f == twice {
            v.wrapping_mul(2)
        } else {
            v.wrapping_neg()
        };
        assert_eq!(ret(t), i128::from(r == 10));
    }
}

#[test]
fn bodiless_functions_are_stubbed_in_call_order() {
    let src = r#"
int sensor(void);
int read_twice(void) {
    int a = sensor();
    int b = sensor();
    if (a > b) return 1;
    return a - b == 0 ? 2 : 3;
}
"#;
    let (program, report) = run(src, "read_twice");
    assert_all_covered(&report);
    let sensor = program.function_by_name("sensor").expect("sensor");
    for t in &report.tests {
        assert_eq!(t.inputs.stubs.len(), 1);
        let stub = &t.inputs.stubs[0];
        assert_eq!(stub.func, sensor);
        let (a, b) = (int(&stub.returns[0]), int(&stub.returns[1]));
        let expected = if a > b {
            1
        } else if a - b == 0 {
            2
        } else {
            3
        };
        assert_eq!(ret(t), expected);
    }
}

#[test]
fn stub_order_interleaves_the_calls_of_several_stubs() {
    let src = r#"
int next_int(void);
char next_char(void);
int mixed(void) {
    int a = next_int();
    char c = next_char();
    int b = next_int();
    if (a == 1 && c == 'x' && b == 3) return 1;
    return 0;
}
"#;
    let (program, report) = run(src, "mixed");
    let next_int = program.function_by_name("next_int").expect("next_int");
    let next_char = program.function_by_name("next_char").expect("next_char");
    let test = test_returning(&report, 1);
    let calls = test.inputs.stub_calls().expect("the calls in order");
    let values: Vec<(ir::FuncId, i128)> = calls.iter().map(|(f, v)| (*f, int(v))).collect();
    assert_eq!(
        values,
        [(next_int, 1), (next_char, i128::from(b'x')), (next_int, 3)]
    );
}

/// The bytes `func`'s call number `call` writes through argument `arg`.
fn stub_write(t: &testcase::TestCase, func: ir::FuncId, call: usize, arg: usize) -> &[u8] {
    let stub = t.inputs.stubs.iter().find(|s| s.func == func);
    let write = stub.and_then(|s| s.writes.iter().find(|w| w.call == call && w.arg == arg));
    &write
        .unwrap_or_else(|| panic!("no write of call {call}: {:?}", t.inputs))
        .bytes
}

#[test]
fn branches_on_what_a_stub_writes_through_pointers_are_covered() {
    let src = r#"
struct conf { int level; char mode; };
int get_level(int *out);
int get_conf(struct conf *c);
void read_name(char *buf, int cap);
int configured(void) {
    int v;
    struct conf c;
    char name[8];
    if (get_level(&v) != 0) return -1;
    if (v > 3) return 1;
    if (get_conf(&c) == 0 && c.level == 42 && c.mode == 'x') return 2;
    read_name(name, (int)sizeof name);
    if (name[0] == 'q' && name[1] == 0) return 3;
    return 0;
}
"#;
    let (program, report) = run(src, "configured");
    assert_all_covered(&report);
    let func = |name: &str| program.function_by_name(name).expect(name);
    let (get_level, get_conf, read_name) = (func("get_level"), func("get_conf"), func("read_name"));
    let level = |t| i32::from_le_bytes(stub_write(t, get_level, 0, 0).try_into().expect("an int"));
    assert!(level(test_returning(&report, 1)) > 3);
    let two = test_returning(&report, 2);
    assert!(level(two) <= 3);
    let conf = stub_write(two, get_conf, 0, 0);
    assert_eq!(conf.len(), 8, "sizeof(struct conf)");
    assert_eq!(
        i32::from_le_bytes(conf[..4].try_into().expect("4 bytes")),
        42
    );
    assert_eq!(conf[4], b'x');
    // A void stub writes too: the whole buffer, from where it points.
    let name = stub_write(test_returning(&report, 3), read_name, 0, 0);
    assert_eq!((name.len(), name[0], name[1]), (8, b'q', 0));
}

#[test]
fn a_stub_stores_in_pointer_members_objects_the_test_builds() {
    let src = r#"
struct holder { int *p; int n; };
int get_holder(struct holder *h);
int holder_value(void) {
    struct holder h;
    if (get_holder(&h) != 0) return -1;
    if (h.p == 0) return -2;
    return *h.p > h.n;
}
"#;
    let (_, report) = run(src, "holder_value");
    assert_all_covered(&report);
    let stored = |t: &testcase::TestCase| {
        t.inputs.stubs.iter().flat_map(|s| &s.writes).any(|w| {
            w.pointers
                .iter()
                .any(|p| p.offset == 0 && matches!(p.value, testcase::Value::Pointer { .. }))
        })
    };
    // The tests that read `*h.p` give the stub an object to store.
    assert!(report.tests.iter().filter(|t| stored(t)).count() >= 2);
}

#[test]
fn a_stub_writes_neither_through_const_nor_over_callbacks() {
    let src = r#"
struct holder { int (*run)(void); int n; };
int get_holder(struct holder *h);
int peek(const int *p);
int holder_count(void) {
    struct holder h;
    if (get_holder(&h) != 0) return -1;
    return h.n > 2;
}
int kept(void) {
    int v = 5;
    peek(&v);
    return v == 5 ? 1 : 0;
}
"#;
    let (_, report) = run(src, "holder_count");
    let reasons: Vec<_> = report.uncovered.iter().map(|(_, why)| why).collect();
    assert!(!reasons.is_empty());
    assert!(
        reasons
            .iter()
            .all(|why| **why == Uncovered::Budget(testcase::Bound::StubEffects)),
        "{reasons:?}"
    );
    let (_, report) = run(src, "kept");
    let reasons: Vec<_> = report.uncovered.iter().map(|(_, why)| why).collect();
    assert_eq!(reasons, [&Uncovered::Infeasible], "peek cannot change v");
    assert!(report
        .tests
        .iter()
        .all(|t| t.inputs.stubs.iter().all(|s| s.writes.is_empty())));
}

#[test]
fn a_bound_cuts_only_the_goals_behind_it() {
    // `log_error` may write past what its stub scripts (`stub_effects`),
    // on a path that passed `x < 5` by: that branch stays proved
    // infeasible, not cut.
    let src = r#"
void log_error(char *message);
int checked(int x, char *message) {
    if (x > 10) {
        if (x < 5)
            return 2;
        log_error(message);
        return 1;
    }
    return 0;
}
"#;
    let (_, report) = run(src, "checked");
    let uncovered: Vec<_> = report.uncovered.iter().map(|(_, why)| why).collect();
    assert_eq!(uncovered, [&Uncovered::Infeasible], "x < 5 cannot hold");
}

#[test]
fn a_failed_verifier_assumption_ends_the_path_without_a_finding() {
    let src = r#"
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int cond);
void reach_error(void);
int task(void) {
    int x = __VERIFIER_nondet_int();
    __VERIFIER_assume(x > 10);
    if (x < 5)
        reach_error();
    return x == 42;
}
"#;
    let (_, report) = run(src, "task");
    assert!(report.findings.is_empty(), "{:?}", report.findings);
    let uncovered: Vec<_> = report.uncovered.iter().map(|(_, why)| why).collect();
    assert_eq!(uncovered, [&Uncovered::Infeasible], "x < 5 cannot hold");
    for t in &report.tests {
        assert!(int(&t.inputs.stubs[0].returns[0]) > 10);
    }
}

#[test]
fn nested_loop_branch_needing_an_iteration_count_is_reached() {
    let src = r#"
int grid(int rows, int cols) {
    int hits = 0;
    for (int i = 0; i < rows; i++)
        for (int j = 0; j < cols; j++)
            if (i == 2 && j == 3) hits++;
    return hits;
}
"#;
    let (_, report) = run(src, "grid");
    assert_all_covered(&report);
    for t in &report.tests {
        let (rows, cols) = (arg(t, 0), arg(t, 1));
        assert_eq!(ret(t), i128::from(rows > 2 && cols > 3));
    }
}

#[test]
fn recursion_is_bounded_and_callees_run() {
    let src = r#"
int fact(int n) { return n <= 1 ? 1 : n * fact(n - 1); }
int check(int n) {
    if (n > 5) return -1;
    if (fact(n) == 24) return 1;
    return 0;
}
"#;
    let (_, report) = run(src, "check");
    assert_all_covered(&report);
    assert!(report.tests.iter().any(|t| arg(t, 0) == 4 && ret(t) == 1));
}

#[test]
fn library_models_are_exact() {
    let src = r#"
typedef unsigned long size_t;
size_t strlen(const char *s);
int strcmp(const char *a, const char *b);
int isdigit(int c);
int abs(int x);
int classify(const char *s, int x) {
    if (strcmp(s, "go") == 0) return 1;
    if (strlen(s) == 3 && isdigit(s[1])) return 2;
    if (abs(x) == 7) return 3;
    return 0;
}
"#;
    let (_, report) = run(src, "classify");
    assert_all_covered(&report);
    for t in &report.tests {
        let Value::Pointer { object, .. } = t.inputs.args[0] else {
            panic!("string argument")
        };
        let bytes: Vec<u8> = t.inputs.objects[object.0 as usize]
            .init
            .iter()
            .map(|v| int(v) as u8)
            .collect();
        let s: Vec<u8> = bytes.iter().copied().take_while(|b| *b != 0).collect();
        let x = arg(t, 1) as i32;
        let expected = if s == b"go" {
            1
        } else if s.len() == 3 && s[1].is_ascii_digit() {
            2
        } else if x.wrapping_abs() == 7 {
            3
        } else {
            0
        };
        assert_eq!(ret(t), expected, "s = {s:?}");
    }
}

#[test]
fn unsupported_constructs_are_reported_not_panicking() {
    let src = r#"
int odd_address(int *p) {
    long a = (long)p;
    if (a & 1) return 1;
    return 0;
}
"#;
    let (_, report) = run(src, "odd_address");
    let (goal, why) = &report.uncovered[0];
    assert_eq!(goal.arm, ir::Arm::True);
    assert!(
        matches!(why, Uncovered::Unsupported(w) if w.contains("pointer converted")),
        "{why:?}"
    );
    assert_eq!(
        report.tests.len(),
        1,
        "the NULL pointer path still gets a test"
    );
}

#[test]
fn infeasible_goal_is_explained() {
    let src = r#"
int never(unsigned char c) {
    if (c > 300) return 1;
    return 0;
}
"#;
    let (_, report) = run(src, "never");
    assert_eq!(report.tests.len(), 1);
    assert_eq!(report.uncovered.len(), 1);
    assert_eq!(report.uncovered[0].1, Uncovered::Infeasible);
}

#[test]
fn same_input_gives_same_tests() {
    let src = r#"
int f(int a, int b) {
    if (a * 3 == b + 1) { if (b & 4) return 1; return 2; }
    return a > b;
}
"#;
    let first = run(src, "f").1;
    let second = run(src, "f").1;
    assert_eq!(first.tests, second.tests);
}

#[test]
fn table_of_function_pointers_indexed_symbolically() {
    let src = r#"
static int inc(int x) { return x + 1; }
static int dbl(int x) { return x * 2; }
static int sq(int x) { return x * x; }
int (*const ops[3])(int) = { inc, dbl, sq };
int run(unsigned op, int x) {
    if (op >= 3) return -1;
    int r = ops[op](x);
    if (r == 36) return 1;
    return 0;
}
"#;
    let (_, report) = run(src, "run");
    assert_all_covered(&report);
    for t in &report.tests {
        let (op, x) = (arg(t, 0) as u32, arg(t, 1) as i32);
        let expected = match op {
            0 => i128::from(x.wrapping_add(1) == 36),
            1 => i128::from(x.wrapping_mul(2) == 36),
            2 => i128::from(x.wrapping_mul(x) == 36),
            _ => -1,
        };
        assert_eq!(ret(t), expected, "op {op} x {x}");
    }
}

#[test]
fn members_of_a_returned_struct_never_set_are_not_checked() {
    let src = r#"
typedef struct { unsigned size, width, bytewidth; } bitmap;
bitmap shrink(bitmap img) {
    bitmap out;
    out.size = 0;
    out.width = 0;
    if (img.width > 4096) return out;
    out.width = img.width / 2;
    out.bytewidth = out.width * 3;
    return out;
}
"#;
    let (_, report) = run(src, "shrink");
    assert_all_covered(&report);
    let bytewidth = |t: &testcase::TestCase| match &t.ret {
        Some(Value::Struct(members)) => members[2].clone(),
        other => panic!("a struct: {other:?}"),
    };
    // Indeterminate on the early return: no test may expect a value there.
    assert!(report.tests.iter().any(|t| bytewidth(t) == Value::Unknown));
    assert!(report
        .tests
        .iter()
        .any(|t| matches!(bytewidth(t), Value::Int { .. })));
}

/// A stub given the address of one number in a struct (`&g.size`) writes
/// that number, not the members after it; the test scripts it, and a
/// finding that needs a value only the stub wrote is not vouched for.
#[test]
fn a_stub_writes_the_one_member_it_is_given() {
    let src = r#"
struct table { unsigned long size; unsigned long map_size; void *text; int status; };
static struct table globals;
void *table_layout(unsigned long *size, unsigned long *map_size);
unsigned long slots(void) {
    globals.status = 7;
    globals.text = table_layout(&globals.size, &globals.map_size);
    if (globals.status != 7) return 1;
    return globals.map_size / globals.size;
}
"#;
    let (program, report) = run(src, "slots");
    let layout = program.function_by_name("table_layout").expect("stub");
    let test = report.tests.first().expect("a test");
    assert_eq!(stub_write(test, layout, 0, 0).len(), 8, "the size alone");
    assert_eq!(
        stub_write(test, layout, 0, 1).len(),
        8,
        "the map size alone"
    );
    assert_eq!(
        report
            .uncovered
            .iter()
            .map(|(_, why)| why)
            .collect::<Vec<_>>(),
        [&Uncovered::Infeasible],
        "the stub never writes status"
    );
    let division = report
        .findings
        .iter()
        .find(|f| f.kind == testcase::FindingKind::DivisionByZero)
        .expect("division by a size the stub wrote");
    assert!(!division.has_valid_inputs(), "{division:?}");
}

#[test]
fn a_method_of_a_table_filled_elsewhere_is_the_callback_mock() {
    // The file's only function of the method's type is the one calling
    // through the table: each test stores the mock that stands for
    // another file's method (it used to recurse or dereference NULL, and
    // no test was written).
    let src = r#"
struct file;
struct methods { long (*available)(struct file *f); };
struct file { const struct methods *methods; int fd; };
long file_available(struct file *f) { return f->methods->available(f); }
"#;
    let (program, report) = run(src, "file_available");
    fn holds_mock(program: &ir::Program, value: &Value) -> bool {
        match value {
            Value::Func(id) => program.callback_mocks.contains(id),
            Value::Struct(values) | Value::Array(values) => {
                values.iter().any(|v| holds_mock(program, v))
            }
            _ => false,
        }
    }
    let stores_mock = |t: &testcase::TestCase| {
        (t.inputs.objects.iter())
            .flat_map(|o| &o.init)
            .any(|v| holds_mock(&program, v))
    };
    assert!(report.tests.iter().any(stores_mock), "{:?}", report.tests);
}

/// Another file's global of a type this file leaves incomplete, handed to
/// another file's function: this file never reads what the call writes
/// there, so the path goes on (it used to stop at "unknown size").
#[test]
fn an_incomplete_global_is_handed_to_a_stub() {
    let src = r#"
struct ctx;
extern struct ctx default_ctx;
int reset(struct ctx *c);
int init(struct ctx *c) {
    if (!c)
        c = &default_ctx;
    if (reset(c) < 0)
        return -1;
    return 0;
}
"#;
    let (_, report) = run(src, "init");
    assert_all_covered(&report);
}
