//! Unit checks of the IR's own logic: integer interpretation, System V layout,
//! goal enumeration and the verifier.

use ir::*;

fn empty_program() -> Program {
    Program {
        files: vec!["t.c".into()],
        structs: vec![],
        globals: vec![],
        functions: vec![],
        strings: vec![],
    }
}

#[test]
fn int_values_wrap_by_width_and_sign() {
    assert_eq!(IntType::CHAR.value_of(0xff), -1);
    assert_eq!(IntType::UCHAR.value_of(0x1ff), 255);
    assert_eq!(IntType::INT.value_of(0x8000_0000), -2147483648);
    assert_eq!(IntType::UINT.value_of(u128::MAX), 4294967295);
    assert_eq!(IntType::LONG.range(), (i64::MIN as i128, i64::MAX as i128));
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
        ("l".to_string(), Type::Int(IntType::LONG)),
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
    };
    p.functions.push(Function {
        name: "f".into(),
        sig: FnSig {
            ret: int.clone(),
            params: vec![int],
            variadic: false,
        },
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

#[test]
fn verifier_rejects_out_of_range_blocks_and_mixed_operands() {
    let mut p = switch_program();
    let body = p.functions[0].body.as_mut().unwrap();
    body.blocks[1].term = Terminator::Goto(BlockId(9));
    let err = verify::verify(&p).unwrap_err();
    assert!(err.message.contains("bb9"), "{}", err.message);

    let mut p = switch_program();
    let body = p.functions[0].body.as_mut().unwrap();
    let x = Expr::load(Place::local(LocalId(0)), Type::Int(IntType::INT));
    let wide = Expr::int(IntType::LONG, 1);
    let sum = Expr {
        kind: ExprKind::Binary(BinOp::Add, Box::new(x), Box::new(wide)),
        ty: Type::Int(IntType::INT),
    };
    body.blocks[1].term = Terminator::Return(Some(sum));
    let err = verify::verify(&p).unwrap_err();
    assert!(err.message.contains("result type"), "{}", err.message);
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
