//! Unit checks of the IR's own logic: integer interpretation, System V layout,
//! goal enumeration and the verifier.

use ir::*;

fn empty_program() -> Program {
    Program {
        files: vec!["t.c".into()],
        ..Default::default()
    }
}

#[test]
fn int_values_wrap_by_width_and_sign() {
    assert_eq!(IntType::CHAR.value_of(0xff), -1);
    assert_eq!(IntType::UCHAR.value_of(0x1ff), 255);
    assert_eq!(IntType::INT.value_of(0x8000_0000), -2147483648);
    assert_eq!(IntType::UINT.value_of(u128::MAX), 4294967295);
    assert_eq!(
        IntType::LONG_LONG.range(),
        (i64::MIN as i128, i64::MAX as i128)
    );
    assert_eq!(IntType::BOOL.range(), (0, 1));
}

#[test]
fn struct_layout_follows_system_v() {
    let p = empty_program();
    // struct { char c; int i; char d; long l; } -> offsets 0, 4, 8, 16; size 24.
    let members = vec![
        ("c".to_string(), Type::Int(IntType::CHAR)),
        ("i".to_string(), Type::Int(IntType::INT)),
        ("d".to_string(), Type::Int(IntType::CHAR)),
        ("l".to_string(), Type::Int(IntType::LONG_LONG)),
    ];
    let (fields, size, align) = p.lay_out(members.clone(), false);
    let offsets: Vec<u64> = fields.iter().map(|f| f.offset).collect();
    assert_eq!(offsets, vec![0, 4, 8, 16]);
    assert_eq!((size, align), (24, 8));
    let (_, usize_, ualign) = p.lay_out(members, true);
    assert_eq!((usize_, ualign), (8, 8));
    let arr = Type::Array(Box::new(Type::Int(IntType::SHORT)), Some(3));
    let (_, size, align) = p.lay_out(
        vec![("a".into(), arr), ("c".into(), Type::Int(IntType::CHAR))],
        false,
    );
    assert_eq!((size, align), (8, 2));
}

/// `int f(int x) { switch (x) { case 1: case 2: return 1; case 3: return 2; } if (x) ... }`
fn switch_program() -> Program {
    let mut p = empty_program();
    let int = Type::Int(IntType::INT);
    let x = Expr::load(Place::local(LocalId(0)), int.clone());
    let span = Span {
        file: 0,
        line: 3,
        col: 11,
    };
    let ret = |v| Block {
        stmts: vec![],
        term: Terminator::Return(Some(Expr::int(IntType::INT, v))),
        term_span: span,
    };
    let body = Body {
        locals: vec![Local {
            name: "x".into(),
            ty: int.clone(),
            span,
        }],
        blocks: vec![
            Block {
                stmts: vec![],
                term: Terminator::Switch {
                    value: x.clone(),
                    cases: vec![(1, BlockId(1)), (2, BlockId(1)), (3, BlockId(2))],
                    default: BlockId(3),
                    site: BranchId(0),
                },
                term_span: span,
            },
            ret(1),
            ret(2),
            Block {
                stmts: vec![],
                term: Terminator::Branch {
                    cond: x,
                    then_bb: BlockId(1),
                    else_bb: BlockId(2),
                    site: BranchId(1),
                },
                term_span: span,
            },
        ],
        branches: vec![
            BranchSite {
                span,
                text: "x".into(),
                kind: BranchKind::Switch,
            },
            BranchSite {
                span: Span { line: 4, ..span },
                text: "x".into(),
                kind: BranchKind::If,
            },
        ],
        decisions: vec![],
    };
    p.functions.push(Function {
        name: "f".into(),
        sig: FnSig {
            ret: int.clone(),
            params: vec![int],
            variadic: false,
        },
        prototyped: true,
        nonnull: Vec::new(),
        const_pointee: Vec::new(),
        is_static: false,
        span,
        body: Some(body),
    });
    p
}

#[test]
fn switch_goals_count_one_per_distinct_target_plus_default() {
    let p = switch_program();
    let goals = function_goals(&p, FuncId(0));
    let arms: Vec<Arm> = goals.iter().map(|g| g.goal.arm).collect();
    assert_eq!(
        arms,
        vec![
            Arm::Case(0),
            Arm::Case(2),
            Arm::Default,
            Arm::True,
            Arm::False
        ]
    );
    assert_eq!(goal_key(&p, goals[1].goal), "f:3:11:C2");
    assert_eq!(goals[3].label, "x: true");
    assert!(verify::verify(&p).is_ok());
}

const INT: Type = Type::Int(IntType::INT);
const LONG: Type = Type::Int(IntType::LONG_LONG);

fn int_ptr() -> Type {
    Type::ptr(INT)
}

/// `x`, the parameter of `switch_program`'s `f`.
fn x() -> Expr {
    Expr::load(Place::local(LocalId(0)), INT)
}

fn expr(kind: ExprKind, ty: Type) -> Expr {
    Expr { kind, ty }
}

fn binary(op: BinOp, a: Expr, b: Expr, ty: Type) -> Expr {
    expr(ExprKind::Binary(op, Box::new(a), Box::new(b)), ty)
}

fn null() -> Expr {
    expr(ExprKind::Null, int_ptr())
}

/// `bb1` of `switch_program` returns `value` instead of 1.
fn return_from_bb1(body: &mut Body, value: Expr) {
    body.blocks[1].term = Terminator::Return(Some(value));
}

/// The `if (x)` branch of `switch_program`, in `bb3`.
fn if_branch(body: &mut Body) -> (&mut Expr, &mut BranchId) {
    match &mut body.blocks[3].term {
        Terminator::Branch { cond, site, .. } => (cond, site),
        other => panic!("bb3 ends in {other:?}"),
    }
}

/// Turns `switch_program`'s valid body into one that breaks an invariant.
type BreakBody = fn(&mut Body);

#[test]
fn verifier_names_the_function_and_the_broken_invariant() {
    // (start of the expected message, how the body is broken)
    let cases: &[(&str, BreakBody)] = &[
        ("invariant 1: body has no entry block", |b| b.blocks.clear()),
        ("invariant 1: bb9 out of range", |b| {
            b.blocks[1].term = Terminator::Goto(BlockId(9))
        }),
        ("invariant 1: _7 out of range", |b| {
            return_from_bb1(b, Expr::load(Place::local(LocalId(7)), INT))
        }),
        ("invariant 1: @g0 out of range", |b| {
            return_from_bb1(b, Expr::load(Place::global(GlobalId(0)), INT))
        }),
        ("invariant 1: @f3 out of range", |b| {
            return_from_bb1(b, expr(ExprKind::FuncAddr(FuncId(3)), int_ptr()))
        }),
        ("invariant 1: @str0 out of range", |b| {
            return_from_bb1(b, expr(ExprKind::Str(StringId(0)), int_ptr()))
        }),
        ("invariant 1: br5 out of range", |b| {
            *if_branch(b).1 = BranchId(5)
        }),
        ("invariant 2: fewer locals than parameters", |b| {
            b.locals.clear()
        }),
        ("invariant 2: parameter 0 local has a different type", |b| {
            b.locals[0].ty = LONG
        }),
        ("invariant 3: branch site br0 used by 2 terminators", |b| {
            *if_branch(b).1 = BranchId(0)
        }),
        ("invariant 3: branch site br2 used by 0 terminators", |b| {
            let unused = b.branches[1].clone();
            b.branches.push(unused)
        }),
        (
            "invariant 4: operands of `+` do not have the result type",
            |b| {
                return_from_bb1(
                    b,
                    binary(BinOp::Add, x(), Expr::int(IntType::LONG_LONG, 1), INT),
                )
            },
        ),
        ("invariant 4: comparison `<` of mismatched operands", |b| {
            return_from_bb1(
                b,
                binary(BinOp::Lt, x(), Expr::int(IntType::LONG_LONG, 1), INT),
            )
        }),
        ("invariant 4: comparison `==` does not yield int", |b| {
            return_from_bb1(b, binary(BinOp::Eq, x(), x(), LONG))
        }),
        ("invariant 4: operand types of shift `<<`", |b| {
            return_from_bb1(b, binary(BinOp::Shl, x(), null(), INT))
        }),
        ("invariant 4: ptradd operand types", |b| {
            // The index is an `int`, not an `i64`.
            return_from_bb1(
                b,
                expr(ExprKind::PtrAdd(Box::new(null()), Box::new(x())), int_ptr()),
            )
        }),
        ("invariant 4: ptrdiff must yield i64", |b| {
            return_from_bb1(
                b,
                expr(ExprKind::PtrDiff(Box::new(null()), Box::new(null())), INT),
            )
        }),
        (
            "invariant 5: branch condition is not an integer or a pointer",
            |b| *if_branch(b).0 = expr(ExprKind::Int(0), Type::Void),
        ),
        ("invariant 5: switch value is not an integer", |b| {
            if let Terminator::Switch { value, .. } = &mut b.blocks[0].term {
                *value = null();
            }
        }),
        (
            "invariant 6: call of `f` with 0 arguments, expected 1",
            |b| {
                let call = Stmt {
                    kind: StmtKind::Call {
                        dest: None,
                        callee: Callee::Direct(FuncId(0)),
                        args: vec![],
                    },
                    span: b.blocks[1].term_span,
                };
                b.blocks[1].stmts.push(call)
            },
        ),
        ("invariant 7: dereference of a non-pointer", |b| {
            return_from_bb1(b, Expr::load(Place::deref(x()), INT))
        }),
    ];
    for &(expected, break_body) in cases {
        let mut p = switch_program();
        break_body(p.functions[0].body.as_mut().expect("f has a body"));
        let err = verify::verify(&p).expect_err(expected);
        assert!(
            err.message.starts_with(expected),
            "expected `{expected}`, got `{}`",
            err.message
        );
        let shown = err.to_string();
        assert!(
            shown.starts_with("t.c:") && shown.contains("`f`: invariant"),
            "{shown}"
        );
    }
}

#[test]
fn text_form_is_stable() {
    let p = switch_program();
    let text = print::print_program(&p, &[]);
    assert!(text.contains("fn @f0 f(_0 x: i32) -> i32 {"), "{text}");
    assert!(
        text.contains("switch br0 _0.x [1 => bb1, 2 => bb1, 3 => bb2] default bb3  ; 3:11"),
        "{text}"
    );
    assert!(text.contains("branch br1 _0.x ? bb1 : bb2"), "{text}");
}
