//! A small byte-level interpreter of the IR, written from the C rules, used
//! to check the front end's lowering against natively compiled programs.

#![allow(dead_code)]

use ir::*;
use std::collections::HashMap;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Object {
    Global(GlobalId),
    Local(usize, LocalId),
    Str(StringId),
}

/// What a pointer holds: nothing, a place in an object, or a function.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Pointer {
    Null,
    At(Object, i64),
    Func(FuncId),
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Cell {
    Byte(u8),
    /// Byte `part` of a stored pointer.
    Ptr(Pointer, u8),
}

#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    Int(IntType, u128),
    /// IEEE bits of a `float` or `double`.
    Float(FloatKind, u64),
    Ptr(Pointer),
    /// A struct's cells, for copies.
    Cells(Vec<Cell>),
}

pub struct Machine<'p> {
    program: &'p Program,
    memory: HashMap<Object, Vec<Cell>>,
    frames: usize,
    /// Statements left before the run is abandoned (a panic).
    steps_left: u64,
    /// What `printf` printed.
    pub output: String,
}

fn mask(bits: u16) -> u128 {
    (1u128 << bits) - 1
}

pub fn int_of(v: &Value) -> (IntType, i128) {
    match v {
        Value::Int(t, raw) => (*t, t.value_of(*raw)),
        other => panic!("not an integer: {other:?}"),
    }
}

pub fn ptr_of(v: &Value) -> Pointer {
    match v {
        Value::Ptr(p) => *p,
        Value::Int(_, 0) => Pointer::Null,
        other => panic!("not a pointer: {other:?}"),
    }
}

/// `clz`, `ctz` and `popcount` of `value` in the bits of `ty`, bit by bit.
fn count_bits(op: UnOp, ty: IntType, value: i128) -> i128 {
    let bit = |i: u16| (value >> i) & 1 == 1;
    let width = ty.bits;
    let count = match op {
        UnOp::LeadingZeros => (0..width).rev().take_while(|&i| !bit(i)).count(),
        UnOp::TrailingZeros => (0..width).take_while(|&i| !bit(i)).count(),
        _ => (0..width).filter(|&i| bit(i)).count(),
    };
    assert!(
        op == UnOp::CountOnes || count < usize::from(width),
        "{op:?} of zero has no value"
    );
    count as i128
}

/// A floating value computed in the width of its kind, as SSE does.
#[derive(Clone, Copy, Debug)]
enum Real {
    Single(f32),
    Double(f64),
}

fn real_of(v: &Value) -> Real {
    match v {
        Value::Float(FloatKind::F32, bits) => Real::Single(f32::from_bits(*bits as u32)),
        Value::Float(_, bits) => Real::Double(f64::from_bits(*bits)),
        other => panic!("not a floating value: {other:?}"),
    }
}

fn wide(r: Real) -> f64 {
    match r {
        Real::Single(x) => f64::from(x),
        Real::Double(x) => x,
    }
}

fn make_real(kind: FloatKind, value: f64) -> Value {
    match kind {
        FloatKind::F32 => Value::Float(kind, u64::from((value as f32).to_bits())),
        _ => Value::Float(kind, value.to_bits()),
    }
}

/// `op` on two floating values of one kind: a value, or a comparison's 0 or 1.
fn float_binary(op: BinOp, x: Real, y: Real, result: &Type) -> Value {
    let truth = |t: bool| make_int(IntType::INT, i128::from(t));
    let (a, b) = (wide(x), wide(y));
    match op {
        BinOp::Eq => return truth(a == b),
        BinOp::Ne => return truth(a != b),
        BinOp::Lt => return truth(a < b),
        BinOp::Le => return truth(a <= b),
        BinOp::Gt => return truth(a > b),
        BinOp::Ge => return truth(a >= b),
        _ => {}
    }
    match (x, y) {
        (Real::Single(x), Real::Single(y)) => {
            Value::Float(FloatKind::F32, u64::from(ieee(op, x, y).to_bits()))
        }
        (Real::Double(x), Real::Double(y)) => {
            Value::Float(FloatKind::F64, ieee(op, x, y).to_bits())
        }
        other => panic!("mixed floating operands {other:?} of {result:?}"),
    }
}

pub fn make_int(t: IntType, value: i128) -> Value {
    let raw = if t.is_bool {
        u128::from(value != 0)
    } else {
        (value as u128) & mask(t.bits)
    };
    Value::Int(t, raw)
}

impl<'p> Machine<'p> {
    pub fn new(program: &'p Program, steps: u64) -> Machine<'p> {
        let mut m = Machine {
            program,
            memory: HashMap::new(),
            frames: 0,
            steps_left: steps,
            output: String::new(),
        };
        for (i, s) in program.strings.iter().enumerate() {
            m.memory.insert(
                Object::Str(StringId(i as u32)),
                s.iter().map(|b| Cell::Byte(*b)).collect(),
            );
        }
        for (i, g) in program.globals.iter().enumerate() {
            let id = GlobalId(i as u32);
            let size = program.size_of(&g.ty) as usize;
            m.memory
                .insert(Object::Global(id), vec![Cell::Byte(0); size]);
            let Some(Init::Fields(items)) = &g.init else {
                continue;
            };
            for item in items {
                let value = match &item.value {
                    ConstValue::Int(t, raw) => Value::Int(*t, *raw),
                    ConstValue::Float(kind, bits) => Value::Float(*kind, *bits),
                    ConstValue::Null => Value::Ptr(Pointer::Null),
                    ConstValue::GlobalAddr(g, off) => {
                        Value::Ptr(Pointer::At(Object::Global(*g), *off))
                    }
                    ConstValue::StrAddr(s, off) => Value::Ptr(Pointer::At(Object::Str(*s), *off)),
                    ConstValue::FuncAddr(f) => Value::Ptr(Pointer::Func(*f)),
                };
                m.store(Object::Global(id), item.offset as i64, &value);
            }
        }
        m
    }

    fn store(&mut self, obj: Object, offset: i64, value: &Value) {
        let cells: Vec<Cell> = match value {
            Value::Int(t, raw) => (0..t.bytes())
                .map(|k| Cell::Byte((raw >> (8 * k)) as u8))
                .collect(),
            Value::Float(kind, bits) => {
                let bytes = Type::Float(*kind).scalar_bits().expect("float or double") / 8;
                (0..bytes)
                    .map(|k| Cell::Byte((bits >> (8 * k)) as u8))
                    .collect()
            }
            Value::Ptr(p) => (0..8).map(|k| Cell::Ptr(*p, k)).collect(),
            Value::Cells(c) => c.clone(),
        };
        let memory = self.memory.get_mut(&obj).expect("object exists");
        for (k, c) in cells.into_iter().enumerate() {
            memory[offset as usize + k] = c;
        }
    }

    fn load(&self, obj: Object, offset: i64, ty: &Type) -> Value {
        let memory = &self.memory[&obj];
        let at = offset as usize;
        let size = self.program.size_of(ty) as usize;
        let cells = &memory[at..at + size];
        match ty {
            Type::Int(t) => Value::Int(*t, little_endian(cells)),
            Type::Float(kind) if ty.as_ieee_float().is_some() => {
                Value::Float(*kind, little_endian(cells) as u64)
            }
            Type::Pointer(_) => match cells[0] {
                Cell::Ptr(p, 0) => Value::Ptr(p),
                Cell::Byte(_) if cells.iter().all(|c| *c == Cell::Byte(0)) => {
                    Value::Ptr(Pointer::Null)
                }
                other => panic!("pointer read of {other:?}"),
            },
            _ => Value::Cells(cells.to_vec()),
        }
    }

    /// The object, offset and type a place designates.
    fn place(&mut self, frame: usize, body: &Body, place: &Place) -> (Object, i64, Type) {
        let (obj, mut offset, mut ty) = match &place.base {
            PlaceBase::Local(l) => (
                Object::Local(frame, *l),
                0,
                body.locals[l.index()].ty.clone(),
            ),
            PlaceBase::Global(g) => (Object::Global(*g), 0, self.program.global(*g).ty.clone()),
            PlaceBase::Deref(e) => {
                let pointee = e.ty.pointee().cloned().expect("deref of a pointer");
                match ptr_of(&self.eval(frame, body, e)) {
                    Pointer::At(obj, off) => (obj, off, pointee),
                    other => panic!("dereference of {other:?}"),
                }
            }
        };
        for proj in &place.proj {
            match proj {
                Proj::Field {
                    index,
                    ty: field_ty,
                } => {
                    let Type::Struct(id) = ty else {
                        panic!("field of a non-struct")
                    };
                    offset += self.program.struct_def(id).fields[*index as usize].offset as i64;
                    ty = field_ty.clone();
                }
                Proj::Index { index, elem } => {
                    let i = int_of(&self.eval(frame, body, index)).1 as i64;
                    offset += i * self.program.size_of(elem) as i64;
                    ty = elem.clone();
                }
            }
        }
        (obj, offset, ty)
    }

    fn eval(&mut self, frame: usize, body: &Body, e: &Expr) -> Value {
        match &e.kind {
            ExprKind::Int(raw) => Value::Int(e.ty.as_int().expect("integer constant"), *raw),
            ExprKind::Float(bits) => Value::Float(e.ty.as_ieee_float().expect("float"), *bits),
            ExprKind::Null => Value::Ptr(Pointer::Null),
            ExprKind::Load(place) => {
                let (obj, off, ty) = self.place(frame, body, place);
                self.load(obj, off, &ty)
            }
            ExprKind::AddrOf(place) => {
                let (obj, off, _) = self.place(frame, body, place);
                Value::Ptr(Pointer::At(obj, off))
            }
            ExprKind::FuncAddr(f) => Value::Ptr(Pointer::Func(*f)),
            ExprKind::Str(s) => Value::Ptr(Pointer::At(Object::Str(*s), 0)),
            ExprKind::PtrAdd(p, i) => {
                let size = self.program.size_of(p.ty.pointee().expect("pointer")) as i64;
                let i = int_of(&self.eval(frame, body, i)).1 as i64;
                match ptr_of(&self.eval(frame, body, p)) {
                    Pointer::At(obj, off) => Value::Ptr(Pointer::At(obj, off + i * size)),
                    other => panic!("arithmetic on {other:?}"),
                }
            }
            ExprKind::PtrDiff(a, b) => {
                let size = self.program.size_of(a.ty.pointee().expect("pointer")) as i64;
                match (
                    ptr_of(&self.eval(frame, body, a)),
                    ptr_of(&self.eval(frame, body, b)),
                ) {
                    (Pointer::At(x, i), Pointer::At(y, j)) if x == y => {
                        make_int(IntType::LONG_LONG, ((i - j) / size) as i128)
                    }
                    other => panic!("difference of {other:?}"),
                }
            }
            ExprKind::Cast(inner) => {
                let v = self.eval(frame, body, inner);
                match (&e.ty, v) {
                    (Type::Int(t), v @ Value::Float(..)) if t.is_bool => {
                        make_int(*t, i128::from(wide(real_of(&v)) != 0.0))
                    }
                    (Type::Int(t), v @ Value::Float(..)) => {
                        let truncated = wide(real_of(&v)).trunc();
                        let (min, max) = t.range();
                        assert!(
                            truncated >= min as f64 && truncated <= max as f64,
                            "undefined conversion of {truncated} to {t}"
                        );
                        make_int(*t, truncated as i128)
                    }
                    (Type::Float(kind), v @ Value::Float(..)) => {
                        make_real(*kind, wide(real_of(&v)))
                    }
                    (Type::Float(kind), v @ Value::Int(..)) => match kind {
                        // Rounded once, from the exact integer.
                        FloatKind::F32 => {
                            Value::Float(*kind, u64::from((int_of(&v).1 as f32).to_bits()))
                        }
                        _ => Value::Float(*kind, (int_of(&v).1 as f64).to_bits()),
                    },
                    (Type::Int(t), v @ Value::Int(..)) => make_int(*t, int_of(&v).1),
                    (Type::Int(t), Value::Ptr(p)) if t.is_bool => {
                        make_int(*t, i128::from(p != Pointer::Null))
                    }
                    (Type::Pointer(_), v) => Value::Ptr(ptr_of(&v)),
                    other => panic!("cast {other:?}"),
                }
            }
            ExprKind::Unary(op, a) if a.ty.as_ieee_float().is_some() => {
                let v = self.eval(frame, body, a);
                let Value::Float(kind, bits) = v else {
                    panic!("not a floating value: {v:?}")
                };
                let sign = 1u64 << (Type::Float(kind).scalar_bits().expect("float") - 1);
                match op {
                    UnOp::Neg => Value::Float(kind, bits ^ sign),
                    // gcc's __builtin_signbit: 1 for a double, the bit in place for a float.
                    UnOp::SignBit if kind == FloatKind::F32 => {
                        make_int(IntType::INT, i128::from((bits & sign) as u32 as i32))
                    }
                    UnOp::SignBit => make_int(IntType::INT, i128::from(bits & sign != 0)),
                    other => panic!("floating operator {other:?}"),
                }
            }
            ExprKind::Unary(op, a) => {
                let (_, v) = int_of(&self.eval(frame, body, a));
                let ty = e.ty.as_int().expect("integer");
                make_int(
                    ty,
                    match op {
                        UnOp::Neg => -v,
                        UnOp::Not => !v,
                        UnOp::LogicalNot => i128::from(v == 0),
                        UnOp::LeadingZeros | UnOp::TrailingZeros | UnOp::CountOnes => {
                            count_bits(*op, ty, v)
                        }
                        UnOp::SignBit => panic!("sign bit of an integer"),
                    },
                )
            }
            ExprKind::Binary(op, a, b) if a.ty.as_ieee_float().is_some() => {
                let (x, y) = (self.eval(frame, body, a), self.eval(frame, body, b));
                float_binary(*op, real_of(&x), real_of(&y), &e.ty)
            }
            ExprKind::Binary(op, a, b) => {
                let (x, y) = (self.eval(frame, body, a), self.eval(frame, body, b));
                let ty = e.ty.as_int().expect("integer result");
                if let (Value::Ptr(_), _) | (_, Value::Ptr(_)) = (&x, &y) {
                    let (p, q) = (ptr_of(&x), ptr_of(&y));
                    let order = |p: Pointer| match p {
                        Pointer::At(_, off) => off,
                        _ => 0,
                    };
                    let r = match op {
                        BinOp::Eq => p == q,
                        BinOp::Ne => p != q,
                        BinOp::Lt => order(p) < order(q),
                        BinOp::Le => order(p) <= order(q),
                        BinOp::Gt => order(p) > order(q),
                        BinOp::Ge => order(p) >= order(q),
                        other => panic!("pointer operator {other:?}"),
                    };
                    return make_int(ty, i128::from(r));
                }
                let ((_, x), (_, y)) = (int_of(&x), int_of(&y));
                make_int(
                    ty,
                    match op {
                        // `make_int` keeps the type's bits, as C wraps.
                        BinOp::Add => x.wrapping_add(y),
                        BinOp::Sub => x.wrapping_sub(y),
                        BinOp::Mul => x.wrapping_mul(y),
                        BinOp::Div => x / y,
                        BinOp::Rem => x % y,
                        BinOp::Shl => x << y,
                        BinOp::Shr => x >> y,
                        BinOp::BitAnd => x & y,
                        BinOp::BitOr => x | y,
                        BinOp::BitXor => x ^ y,
                        BinOp::Eq => i128::from(x == y),
                        BinOp::Ne => i128::from(x != y),
                        BinOp::Lt => i128::from(x < y),
                        BinOp::Le => i128::from(x <= y),
                        BinOp::Gt => i128::from(x > y),
                        BinOp::Ge => i128::from(x >= y),
                        BinOp::MulOverflows => {
                            let (min, max) = int_of(&self.eval(frame, body, a)).0.range();
                            i128::from(x.checked_mul(y).is_none_or(|p| p < min || p > max))
                        }
                    },
                )
            }
        }
    }

    fn truth(v: &Value) -> bool {
        match v {
            Value::Int(_, raw) => *raw != 0,
            Value::Float(..) => panic!("floating condition (the front end compares with zero)"),
            Value::Ptr(p) => *p != Pointer::Null,
            Value::Cells(_) => panic!("aggregate condition"),
        }
    }

    pub fn call(&mut self, func: FuncId, args: Vec<Value>) -> Option<Value> {
        let f = self.program.function(func);
        let Some(body) = f.body.as_ref() else {
            return self.external(&f.name, &args);
        };
        self.frames += 1;
        let frame = self.frames;
        for (i, local) in body.locals.iter().enumerate() {
            let size = self.program.size_of(&local.ty) as usize;
            self.memory.insert(
                Object::Local(frame, LocalId(i as u32)),
                vec![Cell::Byte(0xAA); size],
            );
        }
        for (i, a) in args.iter().enumerate() {
            self.store(Object::Local(frame, LocalId(i as u32)), 0, a);
        }
        let mut block = 0usize;
        loop {
            let b = &body.blocks[block];
            self.steps_left = self
                .steps_left
                .checked_sub(1 + b.stmts.len() as u64)
                .expect("step budget exhausted");
            for s in &b.stmts {
                match &s.kind {
                    StmtKind::Assign(place, e) => {
                        let v = self.eval(frame, body, e);
                        let (obj, off, _) = self.place(frame, body, place);
                        self.store(obj, off, &v);
                    }
                    StmtKind::Call { dest, callee, args } => {
                        let target = match callee {
                            Callee::Direct(f) => *f,
                            Callee::Indirect(e) => match ptr_of(&self.eval(frame, body, e)) {
                                Pointer::Func(f) => f,
                                other => panic!("call through {other:?}"),
                            },
                        };
                        let values: Vec<Value> =
                            args.iter().map(|a| self.eval(frame, body, a)).collect();
                        let result = self.call(target, values);
                        if let (Some(d), Some(v)) = (dest, result) {
                            let (obj, off, _) = self.place(frame, body, d);
                            self.store(obj, off, &v);
                        }
                    }
                }
            }
            block = match &b.term {
                Terminator::Goto(t) => t.index(),
                Terminator::Branch {
                    cond,
                    then_bb,
                    else_bb,
                    ..
                } => {
                    let v = self.eval(frame, body, cond);
                    if Self::truth(&v) {
                        then_bb.index()
                    } else {
                        else_bb.index()
                    }
                }
                Terminator::Switch {
                    value,
                    cases,
                    default,
                    ..
                } => {
                    let (_, v) = int_of(&self.eval(frame, body, value));
                    cases
                        .iter()
                        .find(|(c, _)| *c == v)
                        .map_or(default.index(), |(_, t)| t.index())
                }
                Terminator::Return(value) => {
                    return value.as_ref().map(|e| self.eval(frame, body, e))
                }
                Terminator::Unreachable => panic!("reached unreachable code in {}", f.name),
            };
        }
    }
}

impl Machine<'_> {
    /// The library functions the checked programs use.
    fn external(&mut self, name: &str, args: &[Value]) -> Option<Value> {
        match name {
            "printf" => {
                let format = self.c_string(ptr_of(&args[0]));
                let mut rest = args[1..].iter();
                let mut chars = format.chars();
                while let Some(c) = chars.next() {
                    if c != '%' {
                        self.output.push(c);
                        continue;
                    }
                    let value = rest.next().map(int_of);
                    match (chars.next(), value) {
                        (Some('X'), Some((t, v))) => self
                            .output
                            .push_str(&format!("{:X}", (v as u128) & mask(t.bits))),
                        (Some('d'), Some((_, v))) => self.output.push_str(&v.to_string()),
                        other => panic!("printf conversion {other:?}"),
                    }
                }
                Some(make_int(IntType::INT, 0))
            }
            other => panic!("call of external function {other}"),
        }
    }

    fn c_string(&self, p: Pointer) -> String {
        let Pointer::At(obj, off) = p else {
            panic!("string at {p:?}")
        };
        self.memory[&obj][off as usize..]
            .iter()
            .map_while(|c| match c {
                Cell::Byte(0) => None,
                Cell::Byte(b) => Some(*b as char),
                Cell::Ptr(..) => panic!("pointer inside a string"),
            })
            .collect()
    }
}

/// The number whose little-endian bytes `cells` are.
fn little_endian(cells: &[Cell]) -> u128 {
    let mut raw = 0u128;
    for (k, c) in cells.iter().enumerate() {
        let Cell::Byte(b) = c else {
            panic!("a number read from a pointer's bytes")
        };
        raw |= u128::from(*b) << (8 * k);
    }
    raw
}

/// `x op y` as the hardware computes it in the operands' type.
fn ieee<T>(op: BinOp, x: T, y: T) -> T
where
    T: std::ops::Add<Output = T>
        + std::ops::Sub<Output = T>
        + std::ops::Mul<Output = T>
        + std::ops::Div<Output = T>,
{
    match op {
        BinOp::Add => x + y,
        BinOp::Sub => x - y,
        BinOp::Mul => x * y,
        BinOp::Div => x / y,
        other => panic!("floating operator {other:?}"),
    }
}
