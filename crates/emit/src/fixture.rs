//! A small C file with its IR and engine reports built by hand, for the tests
//! of `emit` and `check` (feature `fixtures`). Independent of the front end
//! and the engine, so a driver bug cannot hide behind theirs.
//!
//! The bodies are skeletons: one two-way branch per condition, at the
//! condition's real line and column, which is all the goals and the drivers
//! need. The expected values are what the C code really computes.

use ir::*;
use std::time::Duration;
use testcase::*;

pub mod heap;

pub const SAMPLE_C: &str = r#"#include <stddef.h>

struct pair {
    int lo;
    int hi;
};

int calls;
extern int read_sensor(const char *name);

int classify(int a, int b)
{
    calls++;
    if (a > b)
        return 1;
    if (a == b)
        return 0;
    return -1;
}

struct pair order(struct pair p, int *swapped)
{
    *swapped = 0;
    if (p.lo > p.hi) {
        int t = p.lo;
        p.lo = p.hi;
        p.hi = t;
        *swapped = 1;
    }
    return p;
}

const int *find(const int *a, size_t n, int key)
{
    for (size_t i = 0; i < n; i++)
        if (a[i] == key)
            return &a[i];
    return NULL;
}

int sensor_level(void)
{
    int v = read_sensor("temp");
    if (v < 0)
        return -1;
    if (v > 100)
        return 2;
    return 1;
}

int first_bang(const char *s, char *out)
{
    for (; *s != '\0'; s++) {
        if (*s == '!') {
            *out = *s;
            return 1;
        }
    }
    return 0;
}

int ratio(int a, int b)
{
    return a / b;
}

int main(void)
{
    return classify(1, 2) + 1;
}
"#;

pub const CLASSIFY: FuncId = FuncId(0);
pub const ORDER: FuncId = FuncId(1);
pub const FIND: FuncId = FuncId(2);
pub const SENSOR_LEVEL: FuncId = FuncId(3);
pub const FIRST_BANG: FuncId = FuncId(4);
pub const RATIO: FuncId = FuncId(5);
const MAIN: FuncId = FuncId(6);
const READ_SENSOR: FuncId = FuncId(7);
const CALLS: GlobalId = GlobalId(0);
const PAIR: StructId = StructId(0);

/// Line and column (1-based) of the first occurrence of `needle` after the
/// line holding `after` in the sample.
fn position(after: &str, needle: &str) -> Span {
    position_in(SAMPLE_C, after, needle)
}

/// Line and column (1-based) of the first occurrence of `needle` after the
/// line holding `after` in `source`.
fn position_in(source: &str, after: &str, needle: &str) -> Span {
    let start = source.lines().position(|l| l.contains(after)).unwrap_or(0);
    for (i, line) in source.lines().enumerate().skip(start) {
        if let Some(col) = line.find(needle) {
            return Span {
                file: 0,
                line: i as u32 + 1,
                col: col as u32 + 1,
            };
        }
    }
    Span::default()
}

fn int() -> Type {
    Type::Int(IntType::INT)
}

fn char_ptr() -> Type {
    Type::ptr(Type::Int(IntType::CHAR))
}

fn pair() -> Type {
    Type::Struct(PAIR)
}

/// A function of the sample whose body is a chain of the given conditions.
fn function(name: &str, ret: Type, params: &[(&str, Type)], conditions: &[&str]) -> Function {
    function_in(SAMPLE_C, name, ret, params, conditions)
}

/// A function of `source` whose body is a chain of the given conditions:
/// condition `i` jumps to a return block when true and to condition `i + 1`
/// when false.
fn function_in(
    source: &str,
    name: &str,
    ret: Type,
    params: &[(&str, Type)],
    conditions: &[&str],
) -> Function {
    let span = position_in(source, &format!("{name}("), name);
    let locals = params
        .iter()
        .map(|(n, t)| Local {
            name: n.to_string(),
            ty: t.clone(),
            span,
        })
        .collect();
    let exit = BlockId(conditions.len() as u32 + 1);
    let mut blocks = Vec::new();
    let mut branches = Vec::new();
    for (i, text) in conditions.iter().enumerate() {
        let site = BranchId(i as u32);
        let at = position_in(source, &format!("{name}("), text);
        branches.push(BranchSite {
            span: at,
            text: text.to_string(),
            kind: BranchKind::If,
        });
        blocks.push(Block {
            stmts: vec![],
            term: Terminator::Branch {
                cond: Expr::int(IntType::INT, 1),
                then_bb: exit,
                else_bb: BlockId(i as u32 + 1),
                site,
            },
            term_span: at,
        });
    }
    for _ in 0..2 {
        blocks.push(Block {
            stmts: vec![],
            term: Terminator::Return(None),
            term_span: span,
        });
    }
    Function {
        name: name.to_string(),
        sig: FnSig {
            ret,
            params: params.iter().map(|p| p.1.clone()).collect(),
            variadic: false,
        },
        prototyped: true,
        nonnull: Vec::new(),
        const_pointee: Vec::new(),
        is_static: false,
        span,
        body: Some(Body {
            locals,
            blocks,
            branches,
            decisions: vec![],
        }),
    }
}

pub fn sample_program() -> Program {
    let size_t = Type::Int(IntType::ULONG_LONG);
    let const_int_ptr = Type::ptr(int());
    let mut functions = vec![
        function(
            "classify",
            int(),
            &[("a", int()), ("b", int())],
            &["a > b", "a == b"],
        ),
        function(
            "order",
            pair(),
            &[("p", pair()), ("swapped", Type::ptr(int()))],
            &["p.lo > p.hi"],
        ),
        function(
            "find",
            const_int_ptr.clone(),
            &[("a", const_int_ptr), ("n", size_t), ("key", int())],
            &["i < n", "a[i] == key"],
        ),
        function("sensor_level", int(), &[], &["v < 0", "v > 100"]),
        function(
            "first_bang",
            int(),
            &[("s", char_ptr()), ("out", char_ptr())],
            &["*s != '\\0'", "*s == '!'"],
        ),
        function("ratio", int(), &[("a", int()), ("b", int())], &[]),
        function("main", int(), &[], &[]),
    ];
    // main calls classify, and sensor_level calls the bodiless read_sensor.
    let call = |callee: FuncId| Stmt {
        kind: StmtKind::Call {
            dest: None,
            callee: Callee::Direct(callee),
            args: vec![],
        },
        span: Span::default(),
    };
    if let Some(body) = functions[MAIN.index()].body.as_mut() {
        body.blocks[0].stmts.push(call(CLASSIFY));
    }
    if let Some(body) = functions[SENSOR_LEVEL.index()].body.as_mut() {
        body.blocks[0].stmts.push(call(READ_SENSOR));
    }
    functions.push(Function {
        name: "read_sensor".to_string(),
        sig: FnSig {
            ret: int(),
            params: vec![char_ptr()],
            variadic: false,
        },
        prototyped: true,
        nonnull: Vec::new(),
        const_pointee: Vec::new(),
        is_static: false,
        span: position("read_sensor", "read_sensor"),
        body: None,
    });
    Program {
        files: vec!["sample.c".to_string()],
        structs: vec![StructDef {
            name: "pair".to_string(),
            typedef_name: None,
            is_union: false,
            fields: vec![
                Field {
                    name: "lo".to_string(),
                    ty: int(),
                    offset: 0,
                    bits: None,
                },
                Field {
                    name: "hi".to_string(),
                    ty: int(),
                    offset: 4,
                    bits: None,
                },
            ],
            size: 8,
            align: 4,
            complete: true,
        }],
        globals: vec![Global {
            name: "calls".to_string(),
            ty: int(),
            init: None,
            is_static: false,
            is_extern: false,
            is_const: false,
            span: position("int calls", "calls"),
        }],
        functions,
        strings: vec![],
        data_model: ir::DataModel::Lp64,
        ..Default::default()
    }
}

pub fn int_value(v: i64) -> Value {
    Value::Int {
        ty: IntType::INT,
        bits: u128::from(v as u32),
    }
}

fn char_value(c: u8) -> Value {
    Value::Int {
        ty: IntType::CHAR,
        bits: c.into(),
    }
}

fn goal(func: FuncId, site: u32, arm: Arm) -> Goal {
    Goal {
        func,
        site: BranchId(site),
        arm,
    }
}

fn test(
    func: FuncId,
    inputs: Inputs,
    ret: Value,
    checks: Vec<Check>,
    goals: &[(u32, Arm)],
) -> TestCase {
    let goals: Vec<Goal> = goals
        .iter()
        .map(|(site, arm)| goal(func, *site, *arm))
        .collect();
    // The only stub, read_sensor, takes a string: no argument is checked.
    let stub_calls = inputs
        .stub_order
        .iter()
        .map(|func| StubCall {
            func: *func,
            args: vec![None],
        })
        .collect();
    TestCase {
        func,
        inputs,
        ret: Some(ret),
        exits: None,
        checks,
        unchecked: 0,
        new_goals: goals.clone(),
        path_goals: goals,
        boundaries: Vec::new(),
        stub_calls,
        native_calls: Vec::new(),
        allocated: Vec::new(),
        freed_inputs: Vec::new(),
    }
}

fn args(values: Vec<Value>) -> Inputs {
    Inputs {
        args: values,
        ..Inputs::default()
    }
}

fn calls_is(n: i64) -> Check {
    Check {
        root: Root::Global(CALLS),
        path: vec![],
        ty: int(),
        expected: int_value(n),
    }
}

fn object_is(object: u32, ty: Type, expected: Value) -> Check {
    Check {
        root: Root::Object(ObjectId(object)),
        path: vec![],
        ty,
        expected,
    }
}

fn report(func: FuncId, tests: Vec<TestCase>, program: &Program) -> FunctionReport {
    FunctionReport {
        func,
        tests,
        findings: vec![],
        goals: function_goals(program, func)
            .into_iter()
            .map(|g| g.goal)
            .collect(),
        uncovered: vec![],
        stats: Stats {
            paths: 3,
            solver_calls: 7,
            statements: 63,
            elapsed: Duration::from_millis(12),
            solver: Default::default(),
            cheap: Default::default(),
        },
        dropped_tests: Vec::new(),
        untested: None,
    }
}

/// Engine-style reports for every function but `main`: each test's expected
/// values are what the C code computes, and together they cover every goal.
pub fn sample_reports(program: &Program) -> Vec<FunctionReport> {
    use Arm::{False as F, True as T};
    let swapped = |init: i64| InputObject {
        name: "*swapped".into(),
        elem: int(),
        len: 1,
        init: vec![int_value(init)],
        flexible_len: 0,
    };
    let order_inputs = |lo, hi| Inputs {
        args: vec![
            Value::Struct(vec![int_value(lo), int_value(hi)]),
            Value::Pointer {
                object: ObjectId(0),
                offset: 0,
            },
        ],
        objects: vec![swapped(7)],
        ..Inputs::default()
    };
    let find_inputs = Inputs {
        args: vec![
            Value::Pointer {
                object: ObjectId(0),
                offset: 0,
            },
            Value::Int {
                ty: IntType::ULONG_LONG,
                bits: 3,
            },
            int_value(5),
        ],
        objects: vec![InputObject {
            name: "a".into(),
            elem: int(),
            len: 3,
            init: vec![int_value(4), int_value(5), int_value(6)],
            flexible_len: 0,
        }],
        ..Inputs::default()
    };
    let sensor = |value: i64| Inputs {
        stubs: vec![Stub {
            func: READ_SENSOR,
            returns: vec![int_value(value)],
            writes: Vec::new(),
        }],
        stub_order: vec![READ_SENSOR],
        ..Inputs::default()
    };
    let bang_inputs = |text: &[u8]| Inputs {
        args: vec![
            Value::Pointer {
                object: ObjectId(0),
                offset: 0,
            },
            Value::Pointer {
                object: ObjectId(1),
                offset: 0,
            },
        ],
        objects: vec![
            InputObject {
                name: "s".into(),
                elem: Type::Int(IntType::CHAR),
                len: text.len() as u64,
                init: text.iter().map(|c| char_value(*c)).collect(),
                flexible_len: 0,
            },
            InputObject {
                name: "*out".into(),
                elem: Type::Int(IntType::CHAR),
                len: 1,
                init: vec![char_value(0)],
                flexible_len: 0,
            },
        ],
        ..Inputs::default()
    };
    let mut classify_with_calls = args(vec![int_value(2), int_value(2)]);
    classify_with_calls.globals.push((CALLS, int_value(41)));
    let mut ratio = report(
        RATIO,
        vec![test(
            RATIO,
            args(vec![int_value(6), int_value(3)]),
            int_value(2),
            vec![],
            &[],
        )],
        program,
    );
    ratio.findings.push(Finding {
        func: RATIO,
        kind: FindingKind::DivisionByZero,
        span: position("return a / b", "a / b"),
        message: "divisor b is 0".into(),
        inputs: args(vec![int_value(1), int_value(0)]),
        unvouched_inputs: Vec::new(),
        broken_invariant: None,
        path_goals: Vec::new(),
        not_confirmed: None,
    });
    vec![
        report(
            CLASSIFY,
            vec![
                test(
                    CLASSIFY,
                    args(vec![int_value(3), int_value(1)]),
                    int_value(1),
                    vec![calls_is(1)],
                    &[(0, T)],
                ),
                test(
                    CLASSIFY,
                    classify_with_calls,
                    int_value(0),
                    vec![calls_is(42)],
                    &[(0, F), (1, T)],
                ),
                test(
                    CLASSIFY,
                    args(vec![int_value(i64::from(i32::MIN)), int_value(0)]),
                    int_value(-1),
                    vec![calls_is(1)],
                    &[(1, F)],
                ),
            ],
            program,
        ),
        report(
            ORDER,
            vec![
                test(
                    ORDER,
                    order_inputs(5, 2),
                    Value::Struct(vec![int_value(2), int_value(5)]),
                    vec![object_is(0, int(), int_value(1))],
                    &[(0, T)],
                ),
                test(
                    ORDER,
                    order_inputs(1, 9),
                    Value::Struct(vec![int_value(1), int_value(9)]),
                    vec![object_is(0, int(), int_value(0))],
                    &[(0, F)],
                ),
            ],
            program,
        ),
        report(
            FIND,
            vec![
                test(
                    FIND,
                    args(vec![
                        Value::Null,
                        Value::Int {
                            ty: IntType::ULONG_LONG,
                            bits: 0,
                        },
                        int_value(5),
                    ]),
                    Value::Null,
                    vec![],
                    &[(0, F)],
                ),
                test(
                    FIND,
                    find_inputs,
                    Value::Pointer {
                        object: ObjectId(0),
                        offset: 4,
                    },
                    vec![],
                    &[(0, T), (1, F), (1, T)],
                ),
            ],
            program,
        ),
        report(
            SENSOR_LEVEL,
            vec![
                test(SENSOR_LEVEL, sensor(-5), int_value(-1), vec![], &[(0, T)]),
                test(
                    SENSOR_LEVEL,
                    sensor(50),
                    int_value(1),
                    vec![],
                    &[(0, F), (1, F)],
                ),
                test(SENSOR_LEVEL, sensor(500), int_value(2), vec![], &[(1, T)]),
            ],
            program,
        ),
        report(
            FIRST_BANG,
            vec![
                test(
                    FIRST_BANG,
                    bang_inputs(b"a!\0"),
                    int_value(1),
                    vec![object_is(1, Type::Int(IntType::CHAR), char_value(b'!'))],
                    &[(0, T), (1, F), (1, T)],
                ),
                test(
                    FIRST_BANG,
                    bang_inputs(b"\0"),
                    int_value(0),
                    vec![object_is(1, Type::Int(IntType::CHAR), char_value(0))],
                    &[(0, F)],
                ),
            ],
            program,
        ),
        ratio,
    ]
}
