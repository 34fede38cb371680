mod common;

use common::*;
use engine::EngineConfig;
use testcase::{Root, Step, Value};

const COUNTER: &str = r#"
int limit = 10;
static int hits;
struct stats { int total; unsigned char last; } st = { 5, 1 };
int bump(int v) {
    static int calls = 3;
    calls++;
    if (v > limit) { hits = hits + 1; return 1; }
    st.total += v;
    st.last = (unsigned char)v;
    return 0;
}
"#;

#[test]
fn globals_read_are_inputs_and_globals_written_are_checked() {
    let (program, report) = run(COUNTER, "bump");
    assert_all_covered(&report);
    let global = |name: &str| {
        ir::GlobalId(
            program
                .globals
                .iter()
                .position(|g| g.name == name)
                .expect("global") as u32,
        )
    };
    for t in &report.tests {
        let v = arg(t, 0);
        let set = |name: &str| {
            t.inputs
                .globals
                .iter()
                .find(|(g, _)| *g == global(name))
                .map(|(_, v)| v.clone())
        };
        let limit = int(&set("limit").expect("limit is read, so the test sets it"));
        assert_eq!(ret(t), i128::from(v > limit));
        let checked = |name: &str, path: &[Step]| {
            t.checks
                .iter()
                .find(|c| c.root == Root::Global(global(name)) && c.path == path)
                .map(|c| int(&c.expected))
        };
        // No driver can set a function's static: each test starts it from
        // its initializer.
        assert_eq!(set("bump.calls"), None);
        assert_eq!(checked("bump.calls", &[]), Some(4));
        if v > limit {
            let hits = set("hits").map(|v| int(&v)).expect("hits is read");
            assert_eq!(checked("hits", &[]), Some(hits + 1));
            assert_eq!(
                checked("st", &[Step::Field(0)]),
                None,
                "st is not written on this path"
            );
        } else {
            let Some(Value::Struct(fields)) = set("st") else {
                panic!("st is read")
            };
            let total = int(&fields[0]) as i32;
            assert_eq!(
                checked("st", &[Step::Field(0)]),
                Some(i128::from(total.wrapping_add(v as i32)))
            );
            assert_eq!(checked("st", &[Step::Field(1)]), Some(i128::from(v as u8)));
        }
    }
}

#[test]
fn whole_program_view_starts_from_initializers_and_checks_every_global() {
    let src = r#"
int a = 7;
int table[3] = {1, 2, 3};
int *p = &table[1];
const int fixed = 4;
int untouched = 42;
int main(void) {
    int i;
    for (i = 0; i < 3; i++)
        table[i] = table[i] * a + *p;
    *p = *p - 1;
    a = (a << 3) ^ 0x55;
    return 0;
}
"#;
    let config = EngineConfig {
        globals_as_inputs: false,
        check_all_globals: true,
        ..config()
    };
    let (program, report) = run_with(src, "main", &config);
    assert_eq!(report.tests.len(), 1);
    let t = &report.tests[0];
    assert!(t.inputs.globals.is_empty());
    let mut values = std::collections::BTreeMap::new();
    for c in &t.checks {
        let Root::Global(g) = c.root else { continue };
        let name = program.global(g).name.clone();
        let key = format!("{name}{:?}", c.path);
        values.insert(key, c.expected.clone());
    }
    // table[0] = 1*7 + 2 = 9; table[1] = 2*7 + 2 = 16; table[2] = 3*7 + 16 = 37; then table[1] = 15.
    assert_eq!(int(&values["a[]"]), (7 << 3) ^ 0x55);
    assert_eq!(int(&values["table[Index(0)]"]), 9);
    assert_eq!(int(&values["table[Index(1)]"]), 15);
    assert_eq!(int(&values["table[Index(2)]"]), 37);
    assert_eq!(int(&values["untouched[]"]), 42);
    let table = ir::GlobalId(
        program
            .globals
            .iter()
            .position(|g| g.name == "table")
            .expect("table") as u32,
    );
    assert_eq!(
        values["p[]"],
        Value::GlobalPointer {
            global: table,
            offset: 4
        }
    );
    assert!(
        !values.keys().any(|k| k.starts_with("fixed")),
        "const globals are not checked"
    );
}

#[test]
fn pointer_globals_and_pointer_members_are_lazy_inputs() {
    let src = r#"
struct box { int *value; int scale; };
int *current;
int weigh(struct box b, int **pp) {
    int r = 0;
    if (current != 0 && *current > 3) r += 1;
    if (b.value != 0 && *b.value * b.scale == 12) r += 2;
    if (**pp == -5) r += 4;
    return r;
}
"#;
    let (program, report) = run(src, "weigh");
    assert_all_covered(&report);
    let current = ir::GlobalId(
        program
            .globals
            .iter()
            .position(|g| g.name == "current")
            .expect("current") as u32,
    );
    // The integer pointers may alias each other; an object is named by the
    // first path that reached it.
    let int_objects = ["*current", "*b.value", "**pp"];
    for t in &report.tests {
        let deref = |v: &Value| match v {
            Value::Pointer { object, offset: 0 } => Some(&t.inputs.objects[object.0 as usize]),
            Value::Null => None,
            other => panic!("pointer expected: {other:?}"),
        };
        let mut expected = 0;
        if let Some((_, v)) = t.inputs.globals.iter().find(|(g, _)| *g == current) {
            if let Some(o) = deref(v) {
                assert_eq!(o.name, "*current");
                expected += i128::from(int(&o.init[0]) > 3);
            }
        }
        let Value::Struct(fields) = &t.inputs.args[0] else {
            panic!("struct argument")
        };
        if let Some(o) = deref(&fields[0]) {
            assert!(int_objects.contains(&o.name.as_str()), "{}", o.name);
            let product = (int(&o.init[0]) as i32).wrapping_mul(int(&fields[1]) as i32);
            expected += 2 * i128::from(product == 12);
        }
        let pp = deref(&t.inputs.args[1]).expect("pp is dereferenced unconditionally");
        let p = deref(&pp.init[0]).expect("*pp is dereferenced unconditionally");
        assert_eq!(pp.name, "*pp");
        assert!(int_objects.contains(&p.name.as_str()), "{}", p.name);
        expected += 4 * i128::from(int(&p.init[0]) == -5);
        assert_eq!(ret(t), expected);
    }
}

const NEXT_ID: &str = r#"
int next_id(void) {
    static int counter = 0;
    counter++;
    if (counter > 3)
        return -1;
    return counter;
}
"#;

#[test]
fn a_branch_only_a_later_call_reaches_is_covered_by_calling_the_function_first() {
    // The tests its branches need (boundary tests would add 2 and 3).
    let config = EngineConfig {
        boundary_tests: false,
        ..config()
    };
    let (_, report) = run_with(NEXT_ID, "next_id", &config);
    assert_all_covered(&report);
    let mut tests: Vec<_> = report
        .tests
        .iter()
        .map(|t| (t.inputs.earlier_calls.len(), ret(t)))
        .collect();
    tests.sort_unstable();
    // The first call returns 1; three calls before it make the fourth fail.
    assert_eq!(tests, [(0, 1), (3, -1)]);
    assert!(report.tests.iter().all(|t| t.inputs.globals.is_empty()));
}

#[test]
fn a_branch_more_earlier_calls_reach_is_a_bound_of_static_locals() {
    let config = EngineConfig {
        max_build_calls: 2,
        boundary_tests: false,
        ..config()
    };
    let (_, report) = run_with(NEXT_ID, "next_id", &config);
    assert_eq!(report.tests.len(), 1);
    assert_eq!(ret(&report.tests[0]), 1);
    assert!(report.tests[0].inputs.earlier_calls.is_empty());
    assert_only_bound(&report, testcase::Bound::EarlierCalls);
}

#[test]
fn a_static_of_a_function_taking_a_pointer_stays_bound_to_its_start() {
    let src = r#"
int count_into(int *out) {
    static int counter = 0;
    counter++;
    *out = counter;
    if (counter > 1)
        return -1;
    return 0;
}
"#;
    let (_, report) = run(src, "count_into");
    assert!(report
        .tests
        .iter()
        .all(|t| t.inputs.earlier_calls.is_empty()));
    assert_only_bound(&report, testcase::Bound::StaticStart);
}

/// A function's `static` pointer (a buffer kept between calls) is no
/// input either: no driver can set it, so tests start it NULL, and the arm
/// only a kept buffer reaches is cut by the bound, not disproved.
#[test]
fn a_static_pointer_of_a_function_starts_from_its_initializer() {
    let src = r#"
void *malloc(unsigned long size);
void free(void *p);
int remember(const char *name) {
    static char *kept = 0;
    if (kept)
        free(kept);
    kept = malloc(8);
    if (!kept)
        return -1;
    kept[0] = name[0];
    return kept[0] == 'x';
}
"#;
    let (_, report) = run(src, "remember");
    assert!(report.tests.iter().all(|t| t.inputs.globals.is_empty()));
    assert_only_bound(&report, testcase::Bound::StaticStart);
}

#[test]
fn a_fault_only_a_later_call_reaches_is_found_with_the_calls_before_it() {
    let src = r#"
int share(int total) {
    static int left = 2;
    left--;
    if (total < 0)
        return -1;
    return total / left;
}
"#;
    let (_, report) = run(src, "share");
    assert_all_covered(&report);
    let kinds: Vec<_> = report.findings.iter().map(|f| f.kind).collect();
    assert_eq!(kinds, [testcase::FindingKind::DivisionByZero]);
    // The first call leaves `left` at 1; the second divides by 0.
    assert_eq!(report.findings[0].inputs.earlier_calls.len(), 1);
}

#[test]
fn a_static_of_a_called_helper_is_reached_by_calling_the_caller_first() {
    let src = r#"
static int calls_so_far(void) {
    static int calls = 0;
    calls++;
    return calls;
}
int is_repeat_visit(int visitor) {
    if (visitor < 0)
        return -1;
    if (calls_so_far() > 1)
        return 1;
    return 0;
}
"#;
    let (_, report) = run(src, "is_repeat_visit");
    assert_all_covered(&report);
    let repeat = test_returning(&report, 1);
    assert_eq!(repeat.inputs.earlier_calls.len(), 1);
    // The earlier call must reach the helper: a negative visitor would not.
    assert!(repeat.inputs.earlier_calls[0]
        .args
        .iter()
        .all(|v| int(v) >= 0));
}

/// Every goal `report` leaves uncovered is cut by the bound `bound`, and
/// one is.
fn assert_only_bound(report: &testcase::FunctionReport, bound: testcase::Bound) {
    let reasons: Vec<_> = report
        .uncovered
        .iter()
        .map(|(_, why)| why.clone())
        .collect();
    assert_eq!(reasons, [testcase::Uncovered::Budget(bound)]);
}
