//! Every kind of value a test can carry, compiled with `cc -Wall -Wextra
//! -Werror` and run: linked nodes, pointers into globals and at odd byte
//! offsets, function pointers in and out, unions (one set through a member,
//! one whose bytes no single member holds), arrays inside a typedef'd
//! untagged struct, unknown values, an empty array, an extern global the
//! driver must define, a variadic void function and a pointer-returning stub
//! without bodies. A test that sets a function's `static` is left out: the
//! driver cannot reach it.
//! The expected values are what the C code computes.

use emit::{write_outputs, EmitConfig};
use ir::*;
use std::process::Command;
use std::time::Duration;
use testcase::*;

const SOURCE: &str = r#"#include <stddef.h>

struct node {
    int key;
    struct node *next;
};

union word {
    unsigned int u;
    unsigned char bytes[4];
};

typedef struct {
    int len;
    short data[3];
} packet_t;

int table[4];
extern int limit;
extern void log_event(int code, ...);
extern struct node *lookup(int key);

int sum_list(struct node *n)
{
    int s = 0;
    while (n != NULL) {
        s += n->key;
        n = n->next;
    }
    return s;
}

int *slot(int i)
{
    if (i < 0 || i >= 4)
        return NULL;
    return &table[i];
}

int apply(int (*f)(int), int x)
{
    return f(x);
}

int twice(int x)
{
    return 2 * x;
}

int (*pick(int which))(int)
{
    return which ? twice : NULL;
}

unsigned low_byte(union word *w)
{
    return w->bytes[0];
}

int packet_sum(const packet_t *p)
{
    int s = 0;
    for (int i = 0; i < p->len && i < 3; i++)
        s += p->data[i];
    return s;
}

int above_limit(int v)
{
    log_event(v, 1, 2);
    return v > limit;
}

int lookup_key(int key)
{
    struct node *n = lookup(key);
    return n ? n->key : -1;
}

char second_char(const char *s)
{
    return s[1];
}

int first_or_zero(const int *a, size_t n)
{
    return n == 0 ? 0 : a[0];
}

int counter(void)
{
    static int count;
    return ++count;
}

union header {
    unsigned int word;
    struct {
        unsigned char tag;
        unsigned int len;
    } fields;
};

unsigned header_len(union header h)
{
    return ((h.word >> 8) & 0xff) == 1 ? h.fields.len : 0;
}
"#;

const NODE: StructId = StructId(0);
const WORD: StructId = StructId(1);
const PACKET: StructId = StructId(2);
const HEADER: StructId = StructId(3);
const HEADER_FIELDS: StructId = StructId(4);
const TABLE: GlobalId = GlobalId(0);
const LIMIT: GlobalId = GlobalId(1);
const COUNT: GlobalId = GlobalId(2);

fn int() -> Type {
    Type::Int(IntType::INT)
}

fn fn_int_int() -> Type {
    Type::ptr(Type::Function(Box::new(FnSig {
        ret: int(),
        params: vec![int()],
        variadic: false,
    })))
}

fn span() -> Span {
    Span {
        file: 0,
        line: 1,
        col: 1,
    }
}

/// A function whose body only runs `stmts` and returns.
fn function(name: &str, ret: Type, params: &[(&str, Type)], stmts: Vec<StmtKind>) -> Function {
    let locals = params
        .iter()
        .map(|(n, t)| Local {
            name: n.to_string(),
            ty: t.clone(),
            span: span(),
        })
        .collect();
    let stmts = stmts
        .into_iter()
        .map(|kind| Stmt { kind, span: span() })
        .collect();
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
        span: span(),
        body: Some(Body {
            locals,
            blocks: vec![Block {
                stmts,
                term: Terminator::Return(None),
                term_span: span(),
            }],
            branches: vec![],
            decisions: vec![],
        }),
    }
}

fn declared(name: &str, ret: Type, params: Vec<Type>, variadic: bool) -> Function {
    Function {
        name: name.into(),
        sig: FnSig {
            ret,
            params,
            variadic,
        },
        prototyped: true,
        nonnull: Vec::new(),
        const_pointee: Vec::new(),
        is_static: false,
        span: span(),
        body: None,
    }
}

fn global(name: &str, ty: Type, is_extern: bool) -> Global {
    Global {
        name: name.into(),
        ty,
        init: None,
        is_static: false,
        is_extern,
        is_const: false,
        span: span(),
    }
}

fn field(name: &str, ty: Type, offset: u64) -> Field {
    Field {
        name: name.into(),
        ty,
        offset,
        bits: None,
    }
}

fn program() -> Program {
    let node_ptr = Type::ptr(Type::Struct(NODE));
    let char_ptr = Type::ptr(Type::Int(IntType::CHAR));
    let call = |callee: u32| StmtKind::Call {
        dest: None,
        callee: Callee::Direct(FuncId(callee)),
        args: vec![],
    };
    let read = |g: GlobalId| StmtKind::Assign(Place::global(g), Expr::int(IntType::INT, 0));
    Program {
        files: vec!["shapes.c".into()],
        structs: vec![
            StructDef {
                name: "node".into(),
                typedef_name: None,
                is_union: false,
                fields: vec![field("key", int(), 0), field("next", node_ptr.clone(), 8)],
                size: 16,
                align: 8,
                complete: true,
            },
            StructDef {
                name: "word".into(),
                typedef_name: None,
                is_union: true,
                fields: vec![
                    field("u", Type::Int(IntType::UINT), 0),
                    field(
                        "bytes",
                        Type::Array(Box::new(Type::Int(IntType::UCHAR)), Some(4)),
                        0,
                    ),
                ],
                size: 4,
                align: 4,
                complete: true,
            },
            StructDef {
                name: "anon.1".into(),
                typedef_name: Some("packet_t".into()),
                is_union: false,
                fields: vec![
                    field("len", int(), 0),
                    field(
                        "data",
                        Type::Array(Box::new(Type::Int(IntType::SHORT)), Some(3)),
                        4,
                    ),
                ],
                size: 12,
                align: 4,
                complete: true,
            },
            StructDef {
                name: "header".into(),
                typedef_name: None,
                is_union: true,
                fields: vec![
                    field("word", Type::Int(IntType::UINT), 0),
                    field("fields", Type::Struct(HEADER_FIELDS), 0),
                ],
                size: 8,
                align: 4,
                complete: true,
            },
            StructDef {
                name: "anon.2".into(),
                typedef_name: None,
                is_union: false,
                fields: vec![
                    field("tag", Type::Int(IntType::UCHAR), 0),
                    field("len", Type::Int(IntType::UINT), 4),
                ],
                size: 8,
                align: 4,
                complete: true,
            },
        ],
        globals: vec![
            global("table", Type::Array(Box::new(int()), Some(4)), false),
            global("limit", int(), true),
            global("counter.count", int(), false),
        ],
        functions: vec![
            function("sum_list", int(), &[("n", node_ptr.clone())], vec![]),
            function("slot", Type::ptr(int()), &[("i", int())], vec![]),
            function("apply", int(), &[("f", fn_int_int()), ("x", int())], vec![]),
            function("twice", int(), &[("x", int())], vec![]),
            function("pick", fn_int_int(), &[("which", int())], vec![]),
            function(
                "low_byte",
                Type::Int(IntType::UINT),
                &[("w", Type::ptr(Type::Struct(WORD)))],
                vec![],
            ),
            function(
                "packet_sum",
                int(),
                &[("p", Type::ptr(Type::Struct(PACKET)))],
                vec![],
            ),
            function(
                "above_limit",
                int(),
                &[("v", int())],
                vec![call(12), read(LIMIT)],
            ),
            function("lookup_key", int(), &[("key", int())], vec![call(13)]),
            function(
                "second_char",
                Type::Int(IntType::CHAR),
                &[("s", char_ptr)],
                vec![],
            ),
            function(
                "first_or_zero",
                int(),
                &[
                    ("a", Type::ptr(int())),
                    ("n", Type::Int(IntType::ULONG_LONG)),
                ],
                vec![],
            ),
            function("counter", int(), &[], vec![read(COUNT)]),
            declared("log_event", Type::Void, vec![int()], true),
            declared("lookup", node_ptr, vec![int()], false),
            function(
                "header_len",
                Type::Int(IntType::UINT),
                &[("h", Type::Struct(HEADER))],
                vec![],
            ),
        ],
        strings: vec![],
        data_model: ir::DataModel::Lp64,
        ..Default::default()
    }
}

fn i(v: i64) -> Value {
    Value::Int {
        ty: IntType::INT,
        bits: u128::from(v as u32),
    }
}

fn object(name: &str, elem: Type, init: Vec<Value>) -> InputObject {
    InputObject {
        name: name.into(),
        elem,
        len: init.len() as u64,
        init,
        flexible_len: 0,
    }
}

fn to(object: u32, offset: u64) -> Value {
    Value::Pointer {
        object: ObjectId(object),
        offset,
    }
}

/// The report's test made one call of the bodiless `callee`, passing `arg`.
fn calling(mut report: FunctionReport, callee: FuncId, arg: Value) -> FunctionReport {
    report.tests[0].stub_calls.push(StubCall {
        func: callee,
        args: vec![Some(arg)],
    });
    report
}

fn returns(func: u32, inputs: Inputs, ret: Value, checks: Vec<Check>) -> FunctionReport {
    let test = TestCase {
        func: FuncId(func),
        inputs,
        ret: Some(ret),
        exits: None,
        checks,
        unchecked: 0,
        new_goals: vec![],
        path_goals: vec![],
        boundaries: vec![],
        stub_calls: vec![],
        native_calls: vec![],
        allocated: vec![],
        freed_inputs: vec![],
    };
    FunctionReport {
        func: FuncId(func),
        tests: vec![test],
        findings: vec![],
        goals: vec![],
        uncovered: vec![],
        stats: Stats {
            paths: 1,
            solver_calls: 0,
            statements: 0,
            elapsed: Duration::ZERO,
            solver: Default::default(),
            cheap: Default::default(),
        },
        dropped_tests: Vec::new(),
        untested: None,
    }
}

fn reports() -> Vec<FunctionReport> {
    let node = |key: i64, next: Value| Value::Struct(vec![i(key), next]);
    let list = Inputs {
        args: vec![to(0, 0)],
        objects: vec![
            object("*n", Type::Struct(NODE), vec![node(3, to(1, 0))]),
            object("*n->next", Type::Struct(NODE), vec![node(4, Value::Null)]),
        ],
        ..Inputs::default()
    };
    let slot = Inputs {
        args: vec![i(2)],
        globals: vec![(TABLE, Value::Array(vec![i(1), i(2), i(3), i(4)]))],
        ..Inputs::default()
    };
    let table_2 = Check {
        root: Root::Global(TABLE),
        path: vec![Step::Index(2)],
        ty: int(),
        expected: i(3),
    };
    let word = Inputs {
        args: vec![to(0, 0)],
        objects: vec![object(
            "*w",
            Type::Struct(WORD),
            vec![Value::Struct(vec![
                Value::Int {
                    ty: IntType::UINT,
                    bits: 0x1122_3344,
                },
                Value::Unknown,
            ])],
        )],
        ..Inputs::default()
    };
    // Version 1 in the word's second byte, a padding byte of `fields`.
    let uint = |v: u128| Value::Int {
        ty: IntType::UINT,
        bits: v,
    };
    let header = Inputs {
        args: vec![Value::Struct(vec![
            uint(0x0100),
            Value::Struct(vec![
                Value::Int {
                    ty: IntType::UCHAR,
                    bits: 0,
                },
                uint(7),
            ]),
        ])],
        ..Inputs::default()
    };
    let short = |v: u128| Value::Int {
        ty: IntType::SHORT,
        bits: v,
    };
    let packet = Inputs {
        args: vec![to(0, 0)],
        objects: vec![object(
            "*p",
            Type::Struct(PACKET),
            vec![Value::Struct(vec![
                i(2),
                Value::Array(vec![short(10), short(20), Value::Unknown]),
            ])],
        )],
        ..Inputs::default()
    };
    let data_1 = Check {
        root: Root::Object(ObjectId(0)),
        path: vec![Step::Field(1), Step::Index(1)],
        ty: Type::Int(IntType::SHORT),
        expected: short(20),
    };
    let above = Inputs {
        args: vec![i(7)],
        globals: vec![(LIMIT, i(5))],
        ..Inputs::default()
    };
    let lookup = Inputs {
        args: vec![i(9)],
        objects: vec![object(
            "*lookup()",
            Type::Struct(NODE),
            vec![node(9, Value::Null)],
        )],
        stubs: vec![Stub {
            func: FuncId(13),
            returns: vec![to(0, 0)],
            writes: Vec::new(),
        }],
        stub_order: vec![FuncId(13)],
        ..Inputs::default()
    };
    // `s` points one byte into an int whose bytes are 01 02 03 04.
    let odd = Inputs {
        args: vec![to(0, 1)],
        objects: vec![object("s", int(), vec![i(0x0403_0201)])],
        ..Inputs::default()
    };
    let empty = Inputs {
        args: vec![
            to(0, 0),
            Value::Int {
                ty: IntType::ULONG_LONG,
                bits: 0,
            },
        ],
        objects: vec![object("a", int(), vec![])],
        ..Inputs::default()
    };
    let counter = Inputs {
        globals: vec![(COUNT, i(41))],
        ..Inputs::default()
    };
    let counted = Check {
        root: Root::Global(COUNT),
        path: vec![],
        ty: int(),
        expected: i(42),
    };
    vec![
        returns(0, list, i(7), vec![]),
        returns(
            1,
            slot,
            Value::GlobalPointer {
                global: TABLE,
                offset: 8,
            },
            vec![table_2],
        ),
        returns(
            2,
            Inputs {
                args: vec![Value::Func(FuncId(3)), i(5)],
                ..Inputs::default()
            },
            i(10),
            vec![],
        ),
        returns(
            2,
            Inputs {
                args: vec![Value::Func(FuncId(3)), Value::Unknown],
                ..Inputs::default()
            },
            i(0),
            vec![],
        ),
        returns(
            4,
            Inputs {
                args: vec![i(1)],
                ..Inputs::default()
            },
            Value::Func(FuncId(3)),
            vec![],
        ),
        returns(
            4,
            Inputs {
                args: vec![i(0)],
                ..Inputs::default()
            },
            Value::Null,
            vec![],
        ),
        returns(
            5,
            word,
            Value::Int {
                ty: IntType::UINT,
                bits: 0x44,
            },
            vec![],
        ),
        returns(6, packet, i(30), vec![data_1]),
        calling(returns(7, above, i(1), vec![]), FuncId(12), i(7)),
        calling(returns(8, lookup, i(9), vec![]), FuncId(13), i(9)),
        returns(
            9,
            odd,
            Value::Int {
                ty: IntType::CHAR,
                bits: 3,
            },
            vec![],
        ),
        returns(10, empty, i(0), vec![]),
        returns(11, counter, i(42), vec![counted]),
        returns(14, header, uint(7), vec![]),
    ]
}

#[test]
fn every_kind_of_value_compiles_cleanly_and_passes() {
    let dir = tempfile::tempdir().expect("temp dir");
    let source = dir.path().join("shapes.c");
    std::fs::write(&source, SOURCE).expect("write source");
    let out = dir.path().join("out");
    let summary = write_outputs(
        &program(),
        &reports(),
        &EmitConfig {
            out_dir: out.clone(),
            source,
            flags: Default::default(),
            framework: Default::default(),
            unresolved: Default::default(),
        },
    )
    .expect("emit");
    assert_eq!(summary.notes.len(), 1, "{:?}", summary.notes);
    assert!(
        summary.notes[0].starts_with("test_counter")
            && summary.notes[0].contains(" left out: it sets `counter.count`"),
        "{}",
        summary.notes[0]
    );
    let driver = std::fs::read_to_string(out.join("shapes_test.c")).expect("driver");
    for expected in [
        "n_in->next = n_next_in;",
        "n_next_in->next = NULL;",
        "&table[2], \"&table[2]\"",
        "int result = apply(twice, 0);",
        "cairn_expect_function(__func__, \"pick(1) returned\", result == twice, \"twice\")",
        "w_in->u = 287454020;",
        "memcpy(p_in->data, (short[]){10, 20}, sizeof(short[2]));",
        "p_in->data[1] is",
        "__typeof__(limit) limit;",
        "cairn_lookup_script[0] = lookup_in;",
        "second_char((char *)((char *)(s_in) + 1))",
        "int *a_in = calloc(0, sizeof *a_in); /* a */",
        "static void cairn_stub_log_event(int arg1, ...)",
        "memcpy(&h_arg, (unsigned char[]){0x00, 0x01, 0x00, 0x00, 0x07, 0x00, 0x00, 0x00}, sizeof h_arg);",
    ] {
        assert!(
            driver.contains(expected),
            "missing `{expected}` in:\n{driver}"
        );
    }
    let binary = dir.path().join("shapes_test");
    let compiled = Command::new("cc")
        .args(["-Wall", "-Wextra", "-Werror"])
        .arg(out.join("shapes_test.c"))
        .arg("-o")
        .arg(&binary)
        .output()
        .expect("cc");
    assert!(
        compiled.status.success(),
        "{}\n{driver}",
        String::from_utf8_lossy(&compiled.stderr)
    );
    let ran = Command::new(&binary).output().expect("run");
    let stdout = String::from_utf8_lossy(&ran.stdout);
    assert_eq!(stdout, "13 passed, 0 failed\n");
    assert!(ran.status.success());
}
