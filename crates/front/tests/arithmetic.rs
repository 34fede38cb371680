//! Differential test of the integer rules: random expressions over mixed
//! integer types, after random updates of the parameters, are compiled by the
//! system compiler and run; the same functions are lowered by the front end
//! and evaluated on the IR by a small interpreter written here from the C
//! standard's rules. Both must agree.

use ir::{BinOp, Body, ExprKind, IntType, PlaceBase, StmtKind, Terminator, Type, UnOp};
use std::collections::HashMap;
use std::fmt::Write;

const FUNCTIONS: usize = 60;
const TYPES: [(&str, IntType); 9] = [
    ("_Bool", IntType::BOOL),
    ("signed char", IntType::CHAR),
    ("unsigned char", IntType::UCHAR),
    ("short", IntType::SHORT),
    ("unsigned short", IntType::USHORT),
    ("int", IntType::INT),
    ("unsigned", IntType::UINT),
    ("long", IntType::LONG_LONG),
    ("unsigned long", IntType::ULONG_LONG),
];
const INPUTS: [[i64; 3]; 6] = [
    [0, 0, 0],
    [1, -1, 2],
    [-128, 255, 7],
    [40000, -3, 65535],
    [i64::MIN, i64::MAX, 3],
    [-7, 100000, -1],
];

/// A deterministic pseudo-random sequence (no dependency needed).
struct Lcg(u64);

impl Lcg {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 33) % n as u64) as usize
    }
}

fn literal(rng: &mut Lcg) -> String {
    let values = [
        "0",
        "1",
        "7",
        "255",
        "0x7f",
        "0xffff",
        "2147483647",
        "0x80000000",
        "4294967295",
        "0xffffffffffffffff",
        "'a'",
        "'\\xff'",
        "-1",
    ];
    let suffixes = ["", "u", "l", "ul", "ll"];
    let v = values[rng.below(values.len())];
    if v.starts_with('\'') || v.starts_with('-') {
        return v.to_string();
    }
    format!("{v}{}", suffixes[rng.below(suffixes.len())])
}

fn expression(rng: &mut Lcg, depth: u32) -> String {
    if depth == 0 || rng.below(4) == 0 {
        return match rng.below(3) {
            0 => literal(rng),
            _ => ["a", "b", "c"][rng.below(3)].to_string(),
        };
    }
    let (x, y) = (expression(rng, depth - 1), expression(rng, depth - 1));
    match rng.below(16) {
        14 => format!("({x} / (({y} & 7) + 1))"),
        15 => format!("({x} % (({y} & 7) + 1))"),
        0 => format!("({x} + {y})"),
        1 => format!("({x} - {y})"),
        2 => format!("({x} * {y})"),
        3 => format!("({x} & {y})"),
        4 => format!("({x} | {y})"),
        5 => format!("({x} ^ {y})"),
        6 => format!("({x} << {})", rng.below(8)),
        7 => format!("({x} >> {})", rng.below(8)),
        8 => format!(
            "({x} {} {y})",
            ["<", "<=", ">", ">=", "==", "!="][rng.below(6)]
        ),
        9 => format!("({x} ? {y} : {})", expression(rng, depth - 1)),
        10 => format!("({x} {} {y})", ["&&", "||"][rng.below(2)]),
        11 => format!("{}({x})", ["-", "~", "!"][rng.below(3)]),
        12 => format!("(({}){x})", TYPES[rng.below(TYPES.len())].0),
        _ => format!("({x}, {y})"),
    }
}

/// A statement that updates a parameter (sequenced, so free of undefined order).
fn update(rng: &mut Lcg) -> String {
    let v = ["a", "b", "c"][rng.below(3)];
    match rng.below(5) {
        0 => format!("{v}++;"),
        1 => format!("--{v};"),
        2 => format!("{v} = {};", expression(rng, 2)),
        3 => format!("{v} {}= {};", ["<<", ">>"][rng.below(2)], rng.below(8)),
        _ => format!(
            "{v} {}= {};",
            ["+", "-", "*", "&", "|", "^"][rng.below(6)],
            expression(rng, 2)
        ),
    }
}

/// Raw bits of a value stored in a local.
type Env = HashMap<usize, (IntType, u128)>;

fn mask(bits: u16) -> u128 {
    (1u128 << bits) - 1
}

fn convert(value: i128, to: IntType) -> u128 {
    if to.is_bool {
        u128::from(value != 0)
    } else {
        (value as u128) & mask(to.bits)
    }
}

fn eval(e: &ir::Expr, env: &Env) -> i128 {
    let Type::Int(ty) = e.ty else {
        panic!("non-integer expression {e:?}")
    };
    match &e.kind {
        ExprKind::Int(bits) => ty.value_of(*bits),
        ExprKind::Load(place) => match (&place.base, place.proj.is_empty()) {
            (PlaceBase::Local(l), true) => {
                let (t, raw) = env
                    .get(&l.index())
                    .copied()
                    .expect("local assigned before use");
                t.value_of(raw)
            }
            _ => panic!("unexpected place {place:?}"),
        },
        ExprKind::Cast(inner) => ty.value_of(convert(eval(inner, env), ty)),
        ExprKind::Unary(op, a) => {
            let v = eval(a, env);
            let r = match op {
                UnOp::Neg => -v,
                UnOp::Not => !v,
                UnOp::LogicalNot => i128::from(v == 0),
                other => panic!("random expressions have no {other:?}"),
            };
            ty.value_of(convert(r, ty))
        }
        ExprKind::Binary(op, a, b) => {
            let (x, y) = (eval(a, env), eval(b, env));
            let r = match op {
                BinOp::Add => x + y,
                BinOp::Sub => x - y,
                BinOp::Mul => x.wrapping_mul(y),
                BinOp::BitAnd => x & y,
                BinOp::BitOr => x | y,
                BinOp::BitXor => x ^ y,
                BinOp::Shl => x << y,
                BinOp::Shr => x >> y,
                BinOp::Eq => i128::from(x == y),
                BinOp::Ne => i128::from(x != y),
                BinOp::Lt => i128::from(x < y),
                BinOp::Le => i128::from(x <= y),
                BinOp::Gt => i128::from(x > y),
                BinOp::Ge => i128::from(x >= y),
                BinOp::MulOverflows => panic!("random expressions have no {op:?}"),
                BinOp::Div => x / y,
                BinOp::Rem => x % y,
            };
            ty.value_of(convert(r, ty))
        }
        other => panic!("unexpected expression {other:?}"),
    }
}

/// Runs a function body of scalar locals; returns the raw result as `i64`.
fn run(body: &Body, ret: IntType, args: &[(IntType, i64)]) -> i64 {
    let mut env: Env = HashMap::new();
    for (i, (t, v)) in args.iter().enumerate() {
        env.insert(i, (*t, convert(i128::from(*v), *t)));
    }
    let mut block = 0usize;
    for _ in 0..10_000 {
        let b = &body.blocks[block];
        for s in &b.stmts {
            let StmtKind::Assign(place, e) = &s.kind else {
                panic!("unexpected call")
            };
            let PlaceBase::Local(l) = place.base else {
                panic!("unexpected place")
            };
            let Type::Int(t) = body.locals[l.index()].ty else {
                panic!("non-integer local")
            };
            env.insert(l.index(), (t, convert(eval(e, &env), t)));
        }
        block = match &b.term {
            Terminator::Goto(next) => next.index(),
            Terminator::Branch {
                cond,
                then_bb,
                else_bb,
                ..
            } => {
                if eval(cond, &env) != 0 {
                    then_bb.index()
                } else {
                    else_bb.index()
                }
            }
            Terminator::Return(Some(e)) => return ret.value_of(convert(eval(e, &env), ret)) as i64,
            other => panic!("unexpected terminator {other:?}"),
        };
    }
    panic!("no return");
}

#[test]
fn integer_semantics_match_the_system_compiler() {
    let mut rng = Lcg(2026);
    let mut source = String::from("#include <stdio.h>\n");
    let mut signatures = Vec::new();
    for i in 0..FUNCTIONS {
        let params: Vec<usize> = (0..3).map(|_| rng.below(TYPES.len())).collect();
        let ret = rng.below(TYPES.len());
        let updates: Vec<String> = (0..rng.below(4)).map(|_| update(&mut rng)).collect();
        let e = expression(&mut rng, 4);
        let _ = writeln!(
            source,
            "{} f{i}({} a, {} b, {} c) {{ {} return {e}; }}",
            TYPES[ret].0,
            TYPES[params[0]].0,
            TYPES[params[1]].0,
            TYPES[params[2]].0,
            updates.join(" ")
        );
        signatures.push((ret, params));
    }
    source.push_str("int main(void) {\n");
    for (i, (_, params)) in signatures.iter().enumerate() {
        for input in INPUTS {
            let args: Vec<String> = (0..3)
                .map(|k| format!("({}){}LL", TYPES[params[k]].0, input[k]))
                .collect();
            let _ = writeln!(
                source,
                "  printf(\"%lld\\n\", (long long)f{i}({}));",
                args.join(", ")
            );
        }
    }
    source.push_str("  return 0;\n}\n");

    let dir = tempfile::tempdir().expect("temporary directory");
    let src = dir.path().join("arith.c");
    std::fs::write(&src, &source).expect("write source");
    let bin = dir.path().join("arith");
    let built = std::process::Command::new("cc")
        .args(["-O0", "-fwrapv", "-w", "-o"])
        .arg(&bin)
        .arg(&src)
        .status();
    if !built.is_ok_and(|s| s.success()) {
        eprintln!("note: no working cc; skipping the arithmetic comparison");
        return;
    }
    let output = std::process::Command::new(&bin)
        .output()
        .expect("binary runs");
    let native: Vec<i64> = String::from_utf8_lossy(&output.stdout)
        .lines()
        .map(|l| l.parse().expect("number"))
        .collect();

    let out = front::compile(&src, &front::FrontConfig::default()).expect("compiles");
    assert!(out.excluded.is_empty(), "{:?}", out.excluded);
    let mut expected = native.iter();
    for (i, (ret, params)) in signatures.iter().enumerate() {
        let id = out
            .program
            .function_by_name(&format!("f{i}"))
            .expect("function exists");
        let body = out.program.function(id).body.as_ref().expect("has a body");
        for input in INPUTS {
            let args: Vec<(IntType, i64)> =
                (0..3).map(|k| (TYPES[params[k]].1, input[k])).collect();
            let ours = run(body, TYPES[*ret].1, &args);
            let theirs = *expected.next().expect("one native result per call");
            assert_eq!(
                ours,
                theirs,
                "f{i}{input:?}:\n{}",
                source.lines().nth(i + 1).unwrap_or("")
            );
        }
    }
}
