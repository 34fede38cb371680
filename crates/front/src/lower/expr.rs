//! Expressions: typing, conversions and the sequencing of side effects into
//! statements, so that every IR expression is side-effect free.

use super::old_style::promoted;
use super::{Lowerer, Prototype, Symbol, MAX_NESTING, R};
use crate::cfloat::{self, FloatValue, Folded};
use crate::cint;
use ir::{
    BinOp, BranchKind, Callee, DataModel, Expr, ExprKind, FloatKind, FnSig, IntType, Layout, Place,
    PlaceBase, Proj, StmtKind, Type, UnOp,
};
use lang_c::ast::*;
use lang_c::span::Node;

/// The result of lowering an expression before lvalue conversion.
#[derive(Clone, Debug)]
pub(super) enum Val {
    Value(Expr),
    /// An lvalue (object) of the given type.
    Place(Place, Type),
    /// A function designator (index into the function declarations).
    Func(usize),
}

/// The value of an expression of type `void`.
pub(super) fn void_value() -> Val {
    Val::Value(Expr {
        kind: ExprKind::Int(0),
        ty: Type::Void,
    })
}

pub(super) fn int_const(e: &Expr) -> Option<(IntType, u128)> {
    match (&e.kind, &e.ty) {
        (ExprKind::Int(bits), Type::Int(t)) => Some((*t, *bits)),
        _ => None,
    }
}

fn float_const(e: &Expr) -> Option<FloatValue> {
    match (&e.kind, e.ty.as_ieee_float()) {
        (ExprKind::Float(bits), Some(kind)) => Some(FloatValue::from_bits(kind, *bits)),
        _ => None,
    }
}

fn float_expr(value: FloatValue, kind: FloatKind) -> Expr {
    Expr {
        kind: ExprKind::Float(value.bits()),
        ty: Type::Float(kind),
    }
}

/// The zero of a `float` or `double`, which conditions compare with.
pub(super) fn float_zero(kind: FloatKind) -> Expr {
    Expr {
        kind: ExprKind::Float(0),
        ty: Type::Float(kind),
    }
}

fn int_type(ty: &Type) -> Option<IntType> {
    ty.as_int()
}

/// Whether `e` is the marker [`crate::gnu`] puts for the omitted middle operand of `a ?: b`.
fn is_omitted_operand(e: &Node<Expression>) -> bool {
    matches!(&e.node, Expression::Identifier(id) if id.node.name == crate::gnu::OMITTED_OPERAND)
}

/// The type of a bit-field's value after integer promotion, as gcc gives
/// it: `int` when `int` holds every value (narrower than 32 bits, or 32
/// bits and signed), `unsigned int` for a 32-bit unsigned one, and for a
/// wider (`long`) one a type of the field's own width, in which gcc
/// computes (so `unsigned long f:40` wraps at 2^40).
pub(super) fn promoted_bit_field(declared: IntType, width: u16) -> IntType {
    match width {
        ..32 => IntType::INT,
        32 => IntType::new(32, declared.signed),
        _ => IntType::new(width, declared.signed),
    }
}

/// `*e` as a place; `*&x` folds back to `x`.
pub(super) fn deref_place(e: Expr) -> Place {
    match e.kind {
        ExprKind::AddrOf(place) => *place,
        kind => Place::deref(Expr { kind, ty: e.ty }),
    }
}

/// A conversion, folded when the operand is a constant.
pub(super) fn make_cast(e: Expr, to: &Type) -> Expr {
    if e.ty == *to {
        return e;
    }
    match (&e.kind, to) {
        (ExprKind::Int(_), Type::Int(t)) => {
            if let Some((from, bits)) = int_const(&e) {
                return Expr {
                    kind: ExprKind::Int(cint::convert(from, *t, bits)),
                    ty: to.clone(),
                };
            }
        }
        (ExprKind::Int(0), Type::Pointer(_)) | (ExprKind::Null, Type::Pointer(_)) => {
            return Expr {
                kind: ExprKind::Null,
                ty: to.clone(),
            };
        }
        (ExprKind::Null, Type::Int(t)) => return Expr::int(*t, 0),
        _ => {}
    }
    if let Some(folded) = fold_float_cast(&e, to) {
        return folded;
    }
    Expr {
        kind: ExprKind::Cast(Box::new(e)),
        ty: to.clone(),
    }
}

/// A conversion to, from or between floating types of a constant, when
/// its result is defined (an out-of-range float-to-integer one is left to run).
fn fold_float_cast(e: &Expr, to: &Type) -> Option<Expr> {
    match (float_const(e), int_const(e), to) {
        (Some(value), _, Type::Float(_)) => {
            let kind = to.as_ieee_float()?;
            Some(float_expr(cfloat::convert(value, kind)?, kind))
        }
        (Some(value), _, Type::Int(t)) => Some(Expr::int(*t, cfloat::to_integer(value, *t)?)),
        (None, Some((from, bits)), Type::Float(_)) => {
            let kind = to.as_ieee_float()?;
            Some(float_expr(
                cfloat::from_integer(from.value_of(bits), kind),
                kind,
            ))
        }
        _ => None,
    }
}

/// `-e` of a `float` or `double`, folded when `e` is a constant.
fn float_negation(e: Expr, kind: FloatKind) -> Expr {
    if let ExprKind::Float(bits) = e.kind {
        return Expr {
            kind: ExprKind::Float(cfloat::fold_negation(kind, bits)),
            ty: e.ty,
        };
    }
    let ty = e.ty.clone();
    Expr {
        kind: ExprKind::Unary(UnOp::Neg, Box::new(e)),
        ty,
    }
}

pub(super) fn make_unary(op: UnOp, e: Expr, ty: IntType) -> Expr {
    if let Some(folded) = int_const(&e).and_then(|(t, bits)| cint::fold_unary(op, t, bits)) {
        return Expr {
            kind: ExprKind::Int(folded),
            ty: Type::Int(ty),
        };
    }
    Expr {
        kind: ExprKind::Unary(op, Box::new(e)),
        ty: Type::Int(ty),
    }
}

/// Whether `a << b`, both constants, is undefined for a signed `a`: a
/// negative value, or one whose bits reach the sign bit.
fn undefined_constant_shift(a: &Expr, b: &Expr) -> bool {
    let (Some((ta, va)), Some((tb, vb))) = (int_const(a), int_const(b)) else {
        return false;
    };
    let (value, count) = (ta.value_of(va), tb.value_of(vb));
    if !ta.signed || count < 0 || count >= i128::from(ta.bits) {
        return false;
    }
    value < 0 || value >> (i128::from(ta.bits) - 1 - count) != 0
}

pub(super) fn make_binary(op: BinOp, a: Expr, b: Expr, ty: Type) -> Expr {
    if let (Some((ta, va)), Some((tb, vb))) = (int_const(&a), int_const(&b)) {
        if let Some(v) = cint::fold_binary(op, ta, va, tb, vb) {
            return Expr {
                kind: ExprKind::Int(v),
                ty,
            };
        }
    }
    if let (Some(x), Some(y)) = (float_const(&a), float_const(&b)) {
        match cfloat::fold_binary(op, x, y) {
            Some(Folded::Truth(t)) => return Expr::int(IntType::INT, i128::from(t)),
            Some(Folded::Value(v)) => {
                return Expr {
                    kind: ExprKind::Float(v.bits()),
                    ty,
                }
            }
            None => {}
        }
    }
    Expr {
        kind: ExprKind::Binary(op, Box::new(a), Box::new(b)),
        ty,
    }
}

fn arith_op(op: &BinaryOperator) -> Option<BinOp> {
    Some(match op {
        BinaryOperator::Multiply | BinaryOperator::AssignMultiply => BinOp::Mul,
        BinaryOperator::Divide | BinaryOperator::AssignDivide => BinOp::Div,
        BinaryOperator::Modulo | BinaryOperator::AssignModulo => BinOp::Rem,
        BinaryOperator::Plus | BinaryOperator::AssignPlus => BinOp::Add,
        BinaryOperator::Minus | BinaryOperator::AssignMinus => BinOp::Sub,
        BinaryOperator::ShiftLeft | BinaryOperator::AssignShiftLeft => BinOp::Shl,
        BinaryOperator::ShiftRight | BinaryOperator::AssignShiftRight => BinOp::Shr,
        BinaryOperator::BitwiseAnd | BinaryOperator::AssignBitwiseAnd => BinOp::BitAnd,
        BinaryOperator::BitwiseXor | BinaryOperator::AssignBitwiseXor => BinOp::BitXor,
        BinaryOperator::BitwiseOr | BinaryOperator::AssignBitwiseOr => BinOp::BitOr,
        BinaryOperator::Less => BinOp::Lt,
        BinaryOperator::Greater => BinOp::Gt,
        BinaryOperator::LessOrEqual => BinOp::Le,
        BinaryOperator::GreaterOrEqual => BinOp::Ge,
        BinaryOperator::Equals => BinOp::Eq,
        BinaryOperator::NotEquals => BinOp::Ne,
        _ => return None,
    })
}

impl<'a> Lowerer<'a> {
    pub(super) fn emit(&mut self, kind: StmtKind, at: usize) -> R<()> {
        let span = self.span(at);
        self.builder(at)?.push(kind, span);
        Ok(())
    }

    pub(super) fn assign_stmt(&mut self, place: Place, value: Expr, at: usize) -> R<()> {
        self.emit(StmtKind::Assign(place, value), at)
    }

    pub(super) fn temp(&mut self, ty: Type, at: usize) -> R<ir::LocalId> {
        let span = self.span(at);
        Ok(self.builder(at)?.new_local("", ty, span))
    }

    /// Lowers an expression and converts the result to a value (lvalue
    /// conversion, array and function decay).
    pub(super) fn rvalue(&mut self, e: &Node<Expression>) -> R<Expr> {
        let v = self.expr(e)?;
        let value = self.rvalue_of(v, e.span.start)?;
        if matches!(value.ty, Type::Float(_)) && self.program.data_model == DataModel::Ilp32 {
            // gcc -m32 computes on the x87 with excess precision, which the
            // engine's IEEE operations (SSE's) do not model.
            return self.unsupported(e.span.start, "floating point under the ILP32 data model");
        }
        Ok(value)
    }

    /// Lowers an expression whose value is not used.
    pub(super) fn discard(&mut self, e: &Node<Expression>) -> R<()> {
        if let Expression::Comma(list) = &e.node {
            return list.iter().try_for_each(|x| self.discard(x));
        }
        // `i++;` needs no copy of the old value.
        if let Expression::UnaryOperator(u) = &e.node {
            let at = e.span.start;
            match u.node.operator.node {
                UnaryOperator::PostIncrement => {
                    return self
                        .inc_dec(&u.node.operand, BinOp::Add, false, at)
                        .map(|_| ())
                }
                UnaryOperator::PostDecrement => {
                    return self
                        .inc_dec(&u.node.operand, BinOp::Sub, false, at)
                        .map(|_| ())
                }
                _ => {}
            }
        }
        self.expr(e).map(|_| ())
    }

    pub(super) fn rvalue_of(&mut self, v: Val, at: usize) -> R<Expr> {
        match v {
            Val::Value(e) => Ok(e),
            Val::Func(index) => {
                let sig = self.fn_sig_of(index).unwrap_or(FnSig {
                    ret: Type::Void,
                    params: vec![],
                    variadic: false,
                });
                match self.func_id(index) {
                    Some(id) => Ok(Expr {
                        kind: ExprKind::FuncAddr(id),
                        ty: Type::ptr(Type::Function(Box::new(sig))),
                    }),
                    None => self.error(at, "unknown function"),
                }
            }
            Val::Place(mut place, ty) => match ty {
                Type::Array(elem, _) => {
                    place.proj.push(Proj::Index {
                        index: Expr::int(IntType::LONG_LONG, 0),
                        elem: (*elem).clone(),
                    });
                    Ok(Expr {
                        kind: ExprKind::AddrOf(Box::new(place)),
                        ty: Type::Pointer(elem),
                    })
                }
                Type::Function(_) => match place.base {
                    PlaceBase::Deref(e) if place.proj.is_empty() => Ok(*e),
                    _ => self.error(at, "invalid use of a function"),
                },
                Type::Void => self.error(at, "void value not ignored as it ought to be"),
                Type::Int(declared) => match self.bit_field(&place) {
                    Some(bits) => Ok(make_cast(
                        Expr::load(place, ty),
                        &Type::Int(promoted_bit_field(declared, bits.width)),
                    )),
                    None => Ok(Expr::load(place, ty)),
                },
                ty => Ok(Expr::load(place, ty)),
            },
        }
    }

    /// The bit-field a place designates, if its last step is one.
    pub(super) fn bit_field(&self, place: &Place) -> Option<ir::BitField> {
        let (Proj::Field { index, .. }, before) = place.proj.split_last()? else {
            return None;
        };
        let parent = match before.last() {
            Some(Proj::Field { ty, .. }) => ty.clone(),
            Some(Proj::Index { elem, .. }) => elem.clone(),
            None => match &place.base {
                PlaceBase::Local(id) => self.func.as_ref()?.locals.get(id.index())?.ty.clone(),
                PlaceBase::Global(id) => self.global_decl_type(*id)?,
                PlaceBase::Deref(e) => e.ty.pointee()?.clone(),
            },
        };
        let Type::Struct(id) = parent else {
            return None;
        };
        let def = self.program.structs.get(id.0 as usize)?;
        def.fields.get(*index as usize)?.bits
    }

    /// The object an expression designates; a struct value is stored in a temporary.
    pub(super) fn place_of(&mut self, v: Val, at: usize) -> R<(Place, Type)> {
        match v {
            Val::Place(p, t) => Ok((p, t)),
            Val::Value(e) if matches!(e.ty, Type::Struct(_)) => {
                let ty = e.ty.clone();
                let t = self.temp(ty.clone(), at)?;
                self.assign_stmt(Place::local(t), e, at)?;
                Ok((Place::local(t), ty))
            }
            _ => self.error(at, "expression is not assignable"),
        }
    }

    /// Implicit conversion as by assignment to an object of type `to`.
    pub(super) fn convert(&mut self, e: Expr, to: &Type, at: usize) -> R<Expr> {
        if e.ty == *to {
            return Ok(e);
        }
        match (&e.ty, to) {
            (Type::Float(FloatKind::F80), _) | (_, Type::Float(FloatKind::F80)) => {
                self.unsupported(at, "long double conversion")
            }
            (Type::Float(_), Type::Int(_) | Type::Float(_)) | (Type::Int(_), Type::Float(_)) => {
                Ok(make_cast(e, to))
            }
            (Type::Int(_) | Type::Pointer(_), Type::Int(_)) => Ok(make_cast(e, to)),
            (Type::Int(_), Type::Pointer(_)) | (Type::Pointer(_), Type::Pointer(_)) => {
                Ok(make_cast(e, to))
            }
            (_, Type::Void) => Ok(Expr {
                kind: ExprKind::Int(0),
                ty: Type::Void,
            }),
            _ => self.error(at, "incompatible types in conversion"),
        }
    }

    pub(super) fn require_int(&self, e: &Expr, at: usize) -> R<IntType> {
        match int_type(&e.ty) {
            Some(t) => Ok(t),
            None => self.error(at, "operand must have integer type"),
        }
    }

    /// Evaluates an integer constant expression.
    pub(super) fn const_int(&mut self, e: &Node<Expression>) -> R<(IntType, i128)> {
        let saved = self.func.take();
        let result = self.rvalue(e);
        self.func = saved;
        match int_const(&result?) {
            Some((t, bits)) => Ok((t, t.value_of(bits))),
            None => self.error(e.span.start, "expression is not an integer constant"),
        }
    }

    /// The type of an expression without keeping any code it would generate.
    pub(super) fn type_of_expr(&mut self, e: &Node<Expression>) -> R<Type> {
        // Most expressions lower without a function (cheap); those with
        // side effects are lowered into a copy of the function and dropped.
        let saved = self.func.take();
        let without_function = self.expr(e);
        self.func = saved;
        let result = match without_function {
            Ok(v) => Ok(v),
            Err(_) if self.func.is_some() => {
                let saved = self.func.clone();
                let result = self.expr(e);
                self.func = saved;
                result
            }
            Err(d) => Err(d),
        };
        Ok(match result? {
            Val::Value(e) => e.ty,
            Val::Place(p, Type::Int(declared)) => match self.bit_field(&p) {
                Some(bits) => Type::Int(promoted_bit_field(declared, bits.width)),
                None => Type::Int(declared),
            },
            Val::Place(_, t) => t,
            Val::Func(i) => Type::Function(Box::new(self.fn_sig_of(i).unwrap_or(FnSig {
                ret: Type::Void,
                params: vec![],
                variadic: false,
            }))),
        })
    }

    pub(super) fn expr(&mut self, node: &Node<Expression>) -> R<Val> {
        if self.depth >= MAX_NESTING {
            return self.unsupported(node.span.start, "expression nested too deeply");
        }
        self.depth += 1;
        let result = self.expr_unguarded(node);
        self.depth -= 1;
        result
    }

    fn expr_unguarded(&mut self, node: &Node<Expression>) -> R<Val> {
        let at = node.span.start;
        match &node.node {
            Expression::Identifier(id) => self.identifier(&id.node.name, at),
            Expression::Constant(c) => match &c.node {
                Constant::Integer(i) => {
                    let (t, v) = cint::literal(i, self.program.data_model)
                        .map_err(|m| self.rule_error(at, m))?;
                    Ok(Val::Value(Expr {
                        kind: ExprKind::Int(v),
                        ty: Type::Int(t),
                    }))
                }
                Constant::Float(f) => {
                    let (kind, bits) = cfloat::literal(f).map_err(|m| self.rule_error(at, m))?;
                    Ok(Val::Value(Expr {
                        kind: ExprKind::Float(bits),
                        ty: Type::Float(kind),
                    }))
                }
                Constant::Character(raw) => {
                    let (t, v) = cint::char_constant(raw).map_err(|m| self.rule_error(at, m))?;
                    Ok(Val::Value(Expr::int(t, v)))
                }
            },
            Expression::StringLiteral(s) => {
                let literal = cint::string_literal(&s.node).map_err(|m| self.rule_error(at, m))?;
                let id = self.intern_string(literal.bytes);
                Ok(Val::Value(Expr {
                    kind: ExprKind::Str(id),
                    ty: Type::ptr(Type::Int(literal.unit)),
                }))
            }
            Expression::Member(m) => self.member(m),
            Expression::Call(c) => self.call(c, at),
            Expression::CompoundLiteral(c) => self.compound_literal(c, at),
            Expression::SizeOfTy(s) => {
                let ty = self.type_name(&s.node.0)?;
                let size = self.size_of_complete(&ty, at)?;
                Ok(Val::Value(Expr::int(self.size_type(), i128::from(size))))
            }
            Expression::SizeOfVal(s) => {
                if let Some(array) = self.variable_array(&s.node.0) {
                    let bytes = Expr::load(Place::local(array.bytes), Type::Int(self.size_type()));
                    return Ok(Val::Value(bytes));
                }
                if let Some(bytes) = self.variable_row_bytes(&s.node.0) {
                    return Ok(Val::Value(bytes));
                }
                let size = match &s.node.0.node {
                    Expression::StringLiteral(lit) => cint::string_literal(&lit.node)
                        .map_err(|m| self.rule_error(at, m))?
                        .bytes
                        .len() as u64,
                    _ => {
                        let ty = self.type_of_expr(&s.node.0)?;
                        self.size_of_complete(&ty, at)?
                    }
                };
                Ok(Val::Value(Expr::int(self.size_type(), i128::from(size))))
            }
            Expression::AlignOf(a) => {
                let ty = self.type_name(&a.node.0)?;
                Ok(Val::Value(Expr::int(
                    self.size_type(),
                    i128::from(self.program.align_of(&ty)),
                )))
            }
            Expression::UnaryOperator(u) => self.unary(u, at),
            Expression::Cast(c) => self.cast(c, at),
            Expression::BinaryOperator(b) => self.binary(b, node),
            Expression::Conditional(c) => self.conditional(c, at),
            Expression::Comma(list) => {
                let Some((last, rest)) = list.split_last() else {
                    return Ok(void_value());
                };
                for e in rest {
                    self.discard(e)?;
                }
                let v = self.expr(last)?;
                // The comma's value is not an lvalue; read it now, before later effects.
                match v {
                    Val::Place(p, ty) if ty.is_scalar() => {
                        Ok(Val::Value(self.snapshot(Expr::load(p, ty), at)?))
                    }
                    // An array or a function decays to a pointer.
                    v @ (Val::Place(_, Type::Array(..)) | Val::Func(_)) => {
                        Ok(Val::Value(self.rvalue_of(v, at)?))
                    }
                    other => Ok(other),
                }
            }
            Expression::OffsetOf(o) => self.offset_of(o, at),
            Expression::VaArg(v) => self.va_arg(v, at),
            Expression::Statement(s) => self.statement_expression(s, at),
            Expression::GenericSelection(g) => self.generic(g, at),
        }
    }

    /// GNU `({ ...; e; })` (glibc's `assert` uses one): the statements run in
    /// order and the value of a final expression statement is the result.
    fn statement_expression(&mut self, s: &Node<Statement>, at: usize) -> R<Val> {
        if self.func.is_none() {
            return self.unsupported(at, "statement expression outside a function");
        }
        let Statement::Compound(items) = &s.node else {
            return self.error(at, "statement expression without a compound statement");
        };
        self.scopes.push(super::Scope::default());
        let mut result = Ok(void_value());
        for (i, item) in items.iter().enumerate() {
            let step = match &item.node {
                BlockItem::Statement(st) if i + 1 == items.len() => match &st.node {
                    Statement::Expression(Some(e)) => self.expr(e).and_then(|v| match v {
                        Val::Place(p, ty) if ty.is_scalar() => {
                            let value = self.snapshot(Expr::load(p, ty), e.span.start)?;
                            Ok(Val::Value(value))
                        }
                        other => Ok(other),
                    }),
                    _ => self.statement(st).map(|_| void_value()),
                },
                BlockItem::Statement(st) => self.statement(st).map(|_| void_value()),
                BlockItem::Declaration(d) => self.declaration(d).map(|_| void_value()),
                BlockItem::StaticAssert(_) => Ok(void_value()),
            };
            result = step;
            if result.is_err() {
                break;
            }
        }
        // The value is a snapshot already: the cleanups cannot change it.
        let result = result.and_then(|value| self.end_scope_cleanups().map(|_| value));
        self.scopes.pop();
        result
    }

    /// `(T){ ... }` in a function: an unnamed local initialized in place.
    fn compound_literal(&mut self, c: &Node<CompoundLiteral>, at: usize) -> R<Val> {
        if self.func.is_none() {
            return self.unsupported(at, "compound literal outside a function");
        }
        let init = Node::new(Initializer::List(c.node.initializer_list.clone()), c.span);
        let ty = self.type_name(&c.node.type_name)?;
        let ty = self.complete_array_type(&ty, &init)?;
        if self.is_incomplete(&ty) {
            return self.error(at, "compound literal has incomplete type");
        }
        let t = self.temp(ty.clone(), at)?;
        self.local_init(Place::local(t), &ty, &init)?;
        Ok(Val::Place(Place::local(t), ty))
    }

    /// Copies a value into a temporary so later statements cannot change it.
    pub(super) fn snapshot(&mut self, e: Expr, at: usize) -> R<Expr> {
        if self.func.is_none() {
            return Ok(e);
        }
        let ty = e.ty.clone();
        let t = self.temp(ty.clone(), at)?;
        self.assign_stmt(Place::local(t), e, at)?;
        Ok(Expr::load(Place::local(t), ty))
    }

    fn identifier(&mut self, name: &str, at: usize) -> R<Val> {
        match self.lookup(name).cloned() {
            Some(Symbol::Local(id, ty)) => Ok(Val::Place(Place::local(id), ty)),
            // It reads as the pointer it decays to.
            Some(Symbol::VariableArray(array)) if array.strides.len() == 1 => Ok(Val::Value(
                Expr::load(Place::local(array.pointer), Type::ptr(array.elem)),
            )),
            Some(Symbol::VariableArray(_)) => self.unsupported(
                at,
                "a variable-length array of arrays used other than by indexing",
            ),
            Some(Symbol::Global(index)) => match self.global_id(index) {
                Some(id) => Ok(Val::Place(Place::global(id), self.global_type(index))),
                None => self.error(at, "unknown global"),
            },
            Some(Symbol::Func(index)) => Ok(Val::Func(index)),
            Some(Symbol::EnumConst(v)) => {
                // An enumerator outside `int` takes a wider type, as in gcc.
                let ty = [IntType::INT, IntType::UINT, IntType::LONG_LONG]
                    .into_iter()
                    .find(|t| (t.range().0..=t.range().1).contains(&v))
                    .unwrap_or(IntType::ULONG_LONG);
                Ok(Val::Value(Expr::int(ty, v)))
            }
            Some(Symbol::Typedef(_)) => self.error(at, format!("unexpected type name `{name}`")),
            Some(Symbol::Poisoned(d)) => Err(d),
            None if matches!(name, "__func__" | "__FUNCTION__" | "__PRETTY_FUNCTION__") => {
                let mut bytes = self
                    .func
                    .as_ref()
                    .map(|f| f.name.clone())
                    .unwrap_or_default()
                    .into_bytes();
                bytes.push(0);
                let id = self.intern_string(bytes);
                Ok(Val::Value(Expr {
                    kind: ExprKind::Str(id),
                    ty: Type::ptr(Type::Int(IntType::CHAR)),
                }))
            }
            None => self.error(at, format!("use of undeclared identifier `{name}`")),
        }
    }

    /// The path of fields leading to member `name`, through anonymous members.
    fn find_member(&self, id: ir::StructId, name: &str, depth: u32) -> Option<Vec<(u32, Type)>> {
        let def = self.program.structs.get(id.0 as usize)?;
        for (i, f) in def.fields.iter().enumerate() {
            if f.name == name {
                return Some(vec![(i as u32, f.ty.clone())]);
            }
        }
        if depth > 64 {
            return None;
        }
        for (i, f) in def.fields.iter().enumerate() {
            if let (true, Type::Struct(sub)) = (f.name.is_empty(), &f.ty) {
                if let Some(mut rest) = self.find_member(*sub, name, depth + 1) {
                    rest.insert(0, (i as u32, f.ty.clone()));
                    return Some(rest);
                }
            }
        }
        None
    }

    fn member(&mut self, m: &Node<MemberExpression>) -> R<Val> {
        let at = m.span.start;
        let (mut place, ty) = match m.node.operator.node {
            MemberOperator::Direct => {
                let v = self.expr(&m.node.expression)?;
                self.place_of(v, at)?
            }
            MemberOperator::Indirect => {
                let p = self.rvalue(&m.node.expression)?;
                match p.ty.clone() {
                    Type::Pointer(t) => (deref_place(p), *t),
                    _ => return self.error(at, "member reference type is not a pointer"),
                }
            }
        };
        let Type::Struct(id) = ty else {
            return self.error(at, "member reference base type is not a structure or union");
        };
        if self.is_incomplete(&ty) {
            return self.error(at, "member access into incomplete type");
        }
        let name = &m.node.identifier.node.name;
        let Some(path) = self.find_member(id, name, 0) else {
            return self.error(
                m.node.identifier.span.start,
                format!("no member named `{name}`"),
            );
        };
        let mut last = Type::Void;
        for (index, ty) in path {
            last = ty.clone();
            place.proj.push(Proj::Field { index, ty });
        }
        Ok(Val::Place(place, last))
    }

    fn call(&mut self, c: &Node<CallExpression>, at: usize) -> R<Val> {
        let args = &c.node.arguments;
        let mut declared_here = None;
        if let Expression::Identifier(id) = &c.node.callee.node {
            let name = id.node.name.as_str();
            if self.lookup(name).is_none() {
                if let Some(lowered) = self
                    .builtin(name, args, at)
                    .or_else(|| self.va_builtin(name, args, at))
                    .or_else(|| self.alloca_builtin(name, args, at))
                {
                    return lowered;
                }
                match name {
                    "__builtin_expect" | "__builtin_expect_with_probability" if args.len() >= 2 => {
                        let v = self.rvalue(&args[0])?;
                        for a in &args[1..] {
                            self.discard(a)?;
                        }
                        return Ok(Val::Value(v));
                    }
                    // A hint of the pointer's alignment: the pointer, as `void *`.
                    "__builtin_assume_aligned" if args.len() >= 2 => {
                        let pointer = self.rvalue(&args[0])?;
                        for a in &args[1..] {
                            self.discard(a)?;
                        }
                        let void_pointer = Type::ptr(Type::Void);
                        return Ok(Val::Value(self.convert(pointer, &void_pointer, at)?));
                    }
                    "__builtin_unreachable" | "__builtin_trap" | "__builtin_abort" => {
                        let span = self.span(at);
                        self.builder(at)?
                            .terminate(ir::Terminator::Unreachable, span);
                        return Ok(void_value());
                    }
                    "__builtin_constant_p" if args.len() == 1 => {
                        let constant = self.const_int(&args[0]).is_ok();
                        return Ok(Val::Value(Expr::int(IntType::INT, i128::from(constant))));
                    }
                    n if n.starts_with("__atomic_") || n.starts_with("__sync_") => {
                        return match self.atomic_builtin(n, args, at) {
                            Some(lowered) => lowered,
                            None => self.unsupported(at, &format!("builtin `{n}`")),
                        };
                    }
                    n if n.starts_with("__builtin_") => match self.library_builtin_function(n) {
                        Some(index) => declared_here = Some(index),
                        None => return self.unsupported(at, &format!("builtin `{n}`")),
                    },
                    n => declared_here = Some(self.implicit_declaration(n, at)),
                }
            }
            if matches!(
                name,
                "setjmp" | "_setjmp" | "__sigsetjmp" | "sigsetjmp" | "longjmp" | "siglongjmp"
            ) {
                return self.unsupported(at, "setjmp/longjmp");
            }
        }
        let callee_val = match declared_here {
            Some(index) => Val::Func(index),
            None => self.expr(&c.node.callee)?,
        };
        let noreturn =
            matches!(callee_val, Val::Func(i) if self.funcs.get(i).is_some_and(|f| f.noreturn));
        // Without a prototype, arguments are promoted and unchecked here
        // and fitted to the callee once the file is read (`old_style.rs`).
        let (callee, sig, loose) = match callee_val {
            Val::Func(index) => {
                let sig = self.fn_sig_of(index);
                let loose = self
                    .funcs
                    .get(index)
                    .is_some_and(|f| f.prototype != Prototype::Declared);
                match (self.func_id(index), sig) {
                    (Some(id), Some(sig)) => (Callee::Direct(id), sig, loose),
                    _ => return self.error(at, "unknown function"),
                }
            }
            other => {
                let e = self.rvalue_of(other, at)?;
                let sig = match e.ty.pointee() {
                    Some(Type::Function(sig)) => (**sig).clone(),
                    _ => {
                        return self
                            .error(at, "called object is not a function or function pointer")
                    }
                };
                match e.kind {
                    ExprKind::FuncAddr(id) => (Callee::Direct(id), sig, !self.has_prototype(id)),
                    // Through `int (*f)()` the arguments go promoted and
                    // unchecked; the engine fits them to the function reached.
                    _ => {
                        let loose = sig.params.is_empty() && !sig.variadic;
                        (Callee::Indirect(e), sig, loose)
                    }
                }
            }
        };
        let counted = match sig.variadic {
            true => args.len() >= sig.params.len(),
            false => args.len() == sig.params.len(),
        };
        if !loose && !counted {
            return self.error(
                at,
                format!(
                    "expected {} arguments, got {}",
                    sig.params.len(),
                    args.len()
                ),
            );
        }
        // gcc evaluates the arguments from the last to the first on x86-64
        // (`f(g(), h())` calls h first): code that registers or counts in
        // them (GObject's type casts around `g_object_new`) sees that order.
        let mut values = Vec::with_capacity(args.len());
        for (i, a) in args.iter().enumerate().rev() {
            let v = self.rvalue(a)?;
            let v = match sig.params.get(i).filter(|_| !loose) {
                Some(param) => self.convert(v, param, a.span.start)?,
                None if v.ty == Type::Void => {
                    return self.error(a.span.start, "void value passed as an argument")
                }
                None => {
                    let to = promoted(&v.ty);
                    make_cast(v, &to)
                }
            };
            values.push(v);
        }
        values.reverse();
        if sig.ret == Type::Void || noreturn {
            self.emit(
                StmtKind::Call {
                    dest: None,
                    callee,
                    args: values,
                },
                at,
            )?;
            if noreturn {
                let span = self.span(at);
                self.builder(at)?
                    .terminate(ir::Terminator::Unreachable, span);
            }
            return Ok(void_value());
        }
        let t = self.temp(sig.ret.clone(), at)?;
        self.emit(
            StmtKind::Call {
                dest: Some(Place::local(t)),
                callee,
                args: values,
            },
            at,
        )?;
        Ok(Val::Place(Place::local(t), sig.ret))
    }

    fn unary(&mut self, u: &Node<UnaryOperatorExpression>, at: usize) -> R<Val> {
        let operand = &u.node.operand;
        match u.node.operator.node {
            UnaryOperator::Address if self.variable_array(operand).is_some() => {
                self.unsupported(at, "the address of a variable-length array")
            }
            UnaryOperator::Address => match self.expr(operand)? {
                Val::Func(index) => Ok(Val::Value(self.rvalue_of(Val::Func(index), at)?)),
                Val::Place(place, _) if self.bit_field(&place).is_some() => {
                    self.error(at, "cannot take the address of a bit-field")
                }
                Val::Place(place, ty) => {
                    let ptr_ty = Type::ptr(ty);
                    match place.base {
                        PlaceBase::Deref(e) if place.proj.is_empty() => Ok(Val::Value(Expr {
                            kind: e.kind,
                            ty: ptr_ty,
                        })),
                        base => Ok(Val::Value(Expr {
                            kind: ExprKind::AddrOf(Box::new(Place {
                                base,
                                proj: place.proj,
                            })),
                            ty: ptr_ty,
                        })),
                    }
                }
                Val::Value(_) => self.error(at, "cannot take the address of an rvalue"),
            },
            UnaryOperator::Indirection => {
                let p = self.rvalue(operand)?;
                self.refuse_variable_pointee(&p, at)?;
                match p.ty.clone() {
                    Type::Pointer(t) => Ok(Val::Place(deref_place(p), *t)),
                    _ => self.error(at, "indirection requires a pointer operand"),
                }
            }
            UnaryOperator::Plus | UnaryOperator::Minus | UnaryOperator::Complement => {
                let e = self.rvalue(operand)?;
                let operator = &u.node.operator.node;
                if let (Type::Float(_), false) = (&e.ty, *operator == UnaryOperator::Complement) {
                    let Some(kind) = e.ty.as_ieee_float() else {
                        return self.unsupported(at, "long double arithmetic");
                    };
                    return Ok(Val::Value(match operator {
                        UnaryOperator::Minus => float_negation(e, kind),
                        _ => e,
                    }));
                }
                let t = self.require_int(&e, at)?;
                let p = cint::promote(t);
                let e = make_cast(e, &Type::Int(p));
                Ok(Val::Value(match u.node.operator.node {
                    UnaryOperator::Minus => make_unary(UnOp::Neg, e, p),
                    UnaryOperator::Complement => make_unary(UnOp::Not, e, p),
                    _ => e,
                }))
            }
            UnaryOperator::Negate => {
                let e = self.rvalue(operand)?;
                Ok(Val::Value(self.logical_not(e, at)?))
            }
            UnaryOperator::PreIncrement => self.inc_dec(operand, BinOp::Add, false, at),
            UnaryOperator::PreDecrement => self.inc_dec(operand, BinOp::Sub, false, at),
            UnaryOperator::PostIncrement => self.inc_dec(operand, BinOp::Add, true, at),
            UnaryOperator::PostDecrement => self.inc_dec(operand, BinOp::Sub, true, at),
        }
    }

    pub(super) fn logical_not(&mut self, e: Expr, at: usize) -> R<Expr> {
        match e.ty.clone() {
            Type::Int(_) => Ok(make_unary(UnOp::LogicalNot, e, IntType::INT)),
            Type::Pointer(_) => {
                let null = Expr {
                    kind: ExprKind::Null,
                    ty: e.ty.clone(),
                };
                Ok(make_binary(BinOp::Eq, e, null, Type::Int(IntType::INT)))
            }
            Type::Float(kind) => match e.ty.as_ieee_float() {
                Some(_) => Ok(make_binary(
                    BinOp::Eq,
                    e,
                    float_zero(kind),
                    Type::Int(IntType::INT),
                )),
                None => self.unsupported(at, "long double arithmetic"),
            },
            _ => self.error(at, "invalid operand to `!`"),
        }
    }

    fn inc_dec(&mut self, operand: &Node<Expression>, op: BinOp, post: bool, at: usize) -> R<Val> {
        let v = self.expr(operand)?;
        let (place, ty) = self.place_of(v, at)?;
        if !ty.is_scalar() {
            return self.error(at, "cannot increment or decrement this type");
        }
        let current = self.rvalue_of(Val::Place(place.clone(), ty.clone()), at)?;
        if post {
            // A bit-field's old value is kept promoted, the type `x++` has.
            let old_ty = current.ty.clone();
            let t = self.temp(old_ty.clone(), at)?;
            self.assign_stmt(Place::local(t), current, at)?;
            let old = Expr::load(Place::local(t), old_ty.clone());
            let new = self.arith(op, old, Expr::int(IntType::INT, 1), at)?;
            let new = self.convert(new, &ty, at)?;
            self.assign_stmt(place, new, at)?;
            Ok(Val::Place(Place::local(t), old_ty))
        } else {
            let new = self.arith(op, current, Expr::int(IntType::INT, 1), at)?;
            let new = self.convert(new, &ty, at)?;
            self.assign_stmt(place.clone(), new, at)?;
            Ok(Val::Place(place, ty))
        }
    }

    fn cast(&mut self, c: &Node<CastExpression>, at: usize) -> R<Val> {
        let ty = self.type_name(&c.node.type_name)?;
        if ty == Type::Void {
            self.discard(&c.node.expression)?;
            return Ok(void_value());
        }
        // `(double)1e-16L`, as <float.h> writes its constants: the literal
        // read straight into the target type.
        if let (Expression::Constant(constant), Some(kind)) =
            (&c.node.expression.node, ty.as_ieee_float())
        {
            if let Constant::Float(literal) = &constant.node {
                if literal.suffix.format == FloatFormat::LongDouble {
                    let bits =
                        cfloat::literal_in(literal, kind).map_err(|m| self.rule_error(at, m))?;
                    return Ok(Val::Value(Expr {
                        kind: ExprKind::Float(bits),
                        ty,
                    }));
                }
            }
        }
        let e = self.rvalue(&c.node.expression)?;
        match (&e.ty, &ty) {
            (Type::Float(_), Type::Pointer(_)) | (Type::Pointer(_), Type::Float(_)) => {
                self.error(at, "invalid cast between a pointer and a floating type")
            }
            (Type::Float(_), _) | (_, Type::Float(_)) => Ok(Val::Value(self.convert(e, &ty, at)?)),
            (Type::Int(_) | Type::Pointer(_), Type::Int(_) | Type::Pointer(_)) => {
                Ok(Val::Value(make_cast(e, &ty)))
            }
            (Type::Struct(a), Type::Struct(b)) if a == b => Ok(Val::Value(e)),
            _ => self.error(at, "invalid cast"),
        }
    }

    /// Arithmetic, bitwise and shift operators on rvalues, with pointer arithmetic.
    pub(super) fn arith(&mut self, op: BinOp, a: Expr, b: Expr, at: usize) -> R<Expr> {
        if op.is_predicate() {
            return self.compare(op, a, b, at);
        }
        self.refuse_variable_pointee(&a, at)?;
        self.refuse_variable_pointee(&b, at)?;
        match (op, &a.ty, &b.ty) {
            (BinOp::Add, Type::Pointer(_), Type::Int(_)) => return Ok(self.ptr_add(a, b, false)),
            (BinOp::Add, Type::Int(_), Type::Pointer(_)) => return Ok(self.ptr_add(b, a, false)),
            (BinOp::Sub, Type::Pointer(_), Type::Int(_)) => return Ok(self.ptr_add(a, b, true)),
            (BinOp::Sub, Type::Pointer(_), Type::Pointer(_)) => {
                let difference = Expr {
                    kind: ExprKind::PtrDiff(Box::new(a), Box::new(b)),
                    ty: Type::Int(IntType::LONG_LONG),
                };
                let ptrdiff = Type::Int(self.program.data_model.long());
                return Ok(make_cast(difference, &ptrdiff));
            }
            _ => {}
        }
        if let Some(common) = self.float_common(&a.ty, &b.ty, at)? {
            if !matches!(op, BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div) {
                return self.error(at, format!("invalid operands to binary `{}`", op.symbol()));
            }
            return Ok(make_binary(
                op,
                make_cast(a, &common),
                make_cast(b, &common),
                common,
            ));
        }
        let (ta, tb) = match (int_type(&a.ty), int_type(&b.ty)) {
            (Some(ta), Some(tb)) => (ta, tb),
            _ => return self.error(at, format!("invalid operands to binary `{}`", op.symbol())),
        };
        if matches!(op, BinOp::Shl | BinOp::Shr) {
            let (pa, pb) = (cint::promote(ta), cint::promote(tb));
            let (a, b) = (make_cast(a, &Type::Int(pa)), make_cast(b, &Type::Int(pb)));
            // gcc checks even a constant left shift at run time (`1 << 31`
            // ends a sanitized test), unlike other constant overflows: in
            // code, such a shift is left to the engine's check.
            if op == BinOp::Shl && self.func.is_some() && undefined_constant_shift(&a, &b) {
                return Ok(Expr {
                    kind: ExprKind::Binary(op, Box::new(a), Box::new(b)),
                    ty: Type::Int(pa),
                });
            }
            return Ok(make_binary(op, a, b, Type::Int(pa)));
        }
        let common = Type::Int(cint::usual_arithmetic(ta, tb));
        Ok(make_binary(
            op,
            make_cast(a, &common),
            make_cast(b, &common),
            common,
        ))
    }

    /// The usual arithmetic conversions when an operand is floating: the
    /// wider of `float` and `double`; `None` when both are integers.
    fn float_common(&self, a: &Type, b: &Type, at: usize) -> R<Option<Type>> {
        let kinds = [a, b].map(|t| match t {
            Type::Float(k) => Some(*k),
            _ => None,
        });
        if kinds == [None, None] {
            return Ok(None);
        }
        if kinds.contains(&Some(FloatKind::F80)) {
            return self.unsupported(at, "long double arithmetic");
        }
        if ![a, b]
            .iter()
            .all(|t| matches!(t, Type::Int(_) | Type::Float(_)))
        {
            return self.error(at, "invalid operands to a floating operator");
        }
        let widest = if kinds.contains(&Some(FloatKind::F64)) {
            FloatKind::F64
        } else {
            FloatKind::F32
        };
        Ok(Some(Type::Float(widest)))
    }

    /// `size_t`, the type of `sizeof`, `_Alignof` and `offsetof`.
    pub(super) fn size_type(&self) -> IntType {
        self.program.data_model.ulong()
    }

    pub(super) fn ptr_add(&mut self, ptr: Expr, index: Expr, negate: bool) -> Expr {
        let long = IntType::LONG_LONG;
        let mut index = make_cast(index, &Type::Int(long));
        if negate {
            index = make_unary(UnOp::Neg, index, long);
        }
        if int_const(&index).is_some_and(|(_, v)| v == 0) {
            return ptr;
        }
        let ty = ptr.ty.clone();
        Expr {
            kind: ExprKind::PtrAdd(Box::new(ptr), Box::new(index)),
            ty,
        }
    }

    fn compare(&mut self, op: BinOp, a: Expr, b: Expr, at: usize) -> R<Expr> {
        let int = Type::Int(IntType::INT);
        if let Some(common) = self.float_common(&a.ty, &b.ty, at)? {
            return Ok(make_binary(
                op,
                make_cast(a, &common),
                make_cast(b, &common),
                int,
            ));
        }
        match (&a.ty, &b.ty) {
            (Type::Int(ta), Type::Int(tb)) => {
                let common = Type::Int(cint::usual_arithmetic(*ta, *tb));
                Ok(make_binary(
                    op,
                    make_cast(a, &common),
                    make_cast(b, &common),
                    int,
                ))
            }
            (Type::Pointer(_), Type::Pointer(_)) => {
                let ty = a.ty.clone();
                Ok(make_binary(op, a, make_cast(b, &ty), int))
            }
            (Type::Pointer(_), Type::Int(_)) => {
                let ty = a.ty.clone();
                Ok(make_binary(op, a, make_cast(b, &ty), int))
            }
            (Type::Int(_), Type::Pointer(_)) => {
                let ty = b.ty.clone();
                Ok(make_binary(op, make_cast(a, &ty), b, int))
            }
            _ => self.error(at, format!("invalid operands to binary `{}`", op.symbol())),
        }
    }

    fn binary(&mut self, b: &Node<BinaryOperatorExpression>, node: &Node<Expression>) -> R<Val> {
        let at = node.span.start;
        let op_at = b.node.operator.span.start;
        use BinaryOperator as B;
        match &b.node.operator.node {
            B::Index => self.index(&b.node.lhs, &b.node.rhs, at),
            B::LogicalAnd | B::LogicalOr => self.logical_value(b, node),
            B::Assign => {
                let v = self.expr(&b.node.lhs)?;
                let (place, ty) = self.place_of(v, at)?;
                let value = self.rvalue(&b.node.rhs)?;
                let value = self.convert_assigned(value, &ty, at)?;
                self.assign_stmt(place.clone(), value, at)?;
                Ok(Val::Place(place, ty))
            }
            B::AssignMultiply
            | B::AssignDivide
            | B::AssignModulo
            | B::AssignPlus
            | B::AssignMinus
            | B::AssignShiftLeft
            | B::AssignShiftRight
            | B::AssignBitwiseAnd
            | B::AssignBitwiseXor
            | B::AssignBitwiseOr => {
                let op = arith_op(&b.node.operator.node).unwrap_or(BinOp::Add);
                let v = self.expr(&b.node.lhs)?;
                let (place, ty) = self.place_of(v, at)?;
                let rhs = self.rvalue(&b.node.rhs)?;
                let current = self.rvalue_of(Val::Place(place.clone(), ty.clone()), at)?;
                let value = self.arith(op, current, rhs, op_at)?;
                let value = self.convert(value, &ty, at)?;
                self.assign_stmt(place.clone(), value, at)?;
                Ok(Val::Place(place, ty))
            }
            other => {
                let op = arith_op(other).unwrap_or(BinOp::Add);
                let a = self.rvalue(&b.node.lhs)?;
                let c = self.rvalue(&b.node.rhs)?;
                Ok(Val::Value(self.arith(op, a, c, op_at)?))
            }
        }
    }

    /// Conversion for assignment, which also allows whole-struct copies.
    pub(super) fn convert_assigned(&mut self, value: Expr, to: &Type, at: usize) -> R<Expr> {
        match (&value.ty, to) {
            (Type::Struct(a), Type::Struct(b)) if a == b => Ok(value),
            (_, Type::Array(..)) => self.error(at, "array type is not assignable"),
            _ => self.convert(value, to, at),
        }
    }

    fn index(&mut self, lhs: &Node<Expression>, rhs: &Node<Expression>, at: usize) -> R<Val> {
        if let Some(element) = self.variable_array_index(lhs, rhs, at)? {
            return Ok(element);
        }
        let base = self.expr(lhs)?;
        if let Val::Place(mut place, Type::Array(elem, _)) = base {
            let index = self.rvalue(rhs)?;
            self.require_int(&index, rhs.span.start)?;
            place.proj.push(Proj::Index {
                index,
                elem: (*elem).clone(),
            });
            return Ok(Val::Place(place, *elem));
        }
        let a = self.rvalue_of(base, at)?;
        let b = self.rvalue(rhs)?;
        let (ptr, index) = match (&a.ty, &b.ty) {
            (Type::Pointer(_), Type::Int(_)) => (a, b),
            (Type::Int(_), Type::Pointer(_)) => (b, a),
            _ => return self.error(at, "subscripted value is not an array or pointer"),
        };
        self.refuse_variable_pointee(&ptr, at)?;
        let elem = ptr.ty.pointee().cloned().unwrap_or(Type::Void);
        let sum = self.ptr_add(ptr, index, false);
        Ok(Val::Place(deref_place(sum), elem))
    }

    /// `a && b` / `a || b` used as a value: control flow into an `int` temporary.
    fn logical_value(
        &mut self,
        b: &Node<BinaryOperatorExpression>,
        node: &Node<Expression>,
    ) -> R<Val> {
        let at = node.span.start;
        if self.func.is_none() {
            let is_and = b.node.operator.node == BinaryOperator::LogicalAnd;
            let left = self.const_int(&b.node.lhs)?.1 != 0;
            let value = if left != is_and {
                left
            } else {
                self.const_int(&b.node.rhs)?.1 != 0
            };
            return Ok(Val::Value(Expr::int(IntType::INT, i128::from(value))));
        }
        let t = self.temp(Type::Int(IntType::INT), at)?;
        let span = self.span(at);
        let (yes, no, join) = {
            let f = self.builder(at)?;
            (f.new_block(), f.new_block(), f.new_block())
        };
        self.cond_branch(node, yes, no, BranchKind::Logical)?;
        for (block, value) in [(yes, 1), (no, 0)] {
            let f = self.builder(at)?;
            f.current = block;
            f.push(
                StmtKind::Assign(Place::local(t), Expr::int(IntType::INT, value)),
                span,
            );
            f.goto_and_switch(join, span);
        }
        self.builder(at)?.current = join;
        Ok(Val::Value(Expr::load(
            Place::local(t),
            Type::Int(IntType::INT),
        )))
    }

    /// `c ? a : b`, and GNU `c ?: b`, where `c` is evaluated once, as a
    /// value, and is the result when it is not zero (gcc branches on that
    /// value: one condition however `c` is built).
    fn conditional(&mut self, c: &Node<ConditionalExpression>, at: usize) -> R<Val> {
        let condition = &c.node.condition;
        let omitted = is_omitted_operand(&c.node.then_expression);
        if self.func.is_none() {
            let chosen = match (self.const_int(condition)?.1 != 0, omitted) {
                (true, true) => condition,
                (true, false) => &c.node.then_expression,
                (false, _) => &c.node.else_expression,
            };
            return self
                .expr(chosen)
                .and_then(|v| self.rvalue_of(v, at))
                .map(Val::Value);
        }
        let span = self.span(at);
        let (then_bb, else_bb, join) = {
            let f = self.builder(at)?;
            (f.new_block(), f.new_block(), f.new_block())
        };
        let kept = if omitted {
            let value = self.rvalue(condition)?;
            if let ExprKind::Int(bits) = value.kind {
                // A constant condition is no branch (gcc folds it).
                let target = if bits != 0 { then_bb } else { else_bb };
                self.builder(at)?
                    .terminate(ir::Terminator::Goto(target), span);
                Some(value)
            } else {
                let value = self.snapshot(value, condition.span.start)?;
                self.branch_on(
                    value.clone(),
                    condition,
                    then_bb,
                    else_bb,
                    BranchKind::Conditional,
                )?;
                Some(value)
            }
        } else {
            self.cond_branch(condition, then_bb, else_bb, BranchKind::Conditional)?;
            None
        };
        let mut arms = Vec::new();
        for (block, e) in [
            (then_bb, &c.node.then_expression),
            (else_bb, &c.node.else_expression),
        ] {
            self.builder(at)?.current = block;
            let v = match (&kept, block == then_bb) {
                (Some(value), true) => value.clone(),
                _ => match self.expr(e)? {
                    Val::Value(v) if v.ty == Type::Void => v,
                    other => self.rvalue_of(other, e.span.start)?,
                },
            };
            let end = self.builder(at)?.current;
            arms.push((v, end));
        }
        let (Some((a, a_end)), Some((b, b_end))) = (arms.first().cloned(), arms.get(1).cloned())
        else {
            return self.error(at, "malformed conditional expression");
        };
        let ty = self.conditional_type(&a, &b, at)?;
        let result = if ty == Type::Void {
            None
        } else {
            Some(self.temp(ty.clone(), at)?)
        };
        for (value, end) in [(a, a_end), (b, b_end)] {
            self.builder(at)?.current = end;
            if let Some(t) = result {
                let value = self.convert_assigned(value, &ty, at)?;
                self.builder(at)?
                    .push(StmtKind::Assign(Place::local(t), value), span);
            }
            self.builder(at)?.goto_and_switch(join, span);
        }
        self.builder(at)?.current = join;
        Ok(match result {
            Some(t) if matches!(ty, Type::Struct(_)) => Val::Place(Place::local(t), ty),
            Some(t) => Val::Value(Expr::load(Place::local(t), ty)),
            None => void_value(),
        })
    }

    fn conditional_type(&self, a: &Expr, b: &Expr, at: usize) -> R<Type> {
        let is_null = |e: &Expr| matches!(e.kind, ExprKind::Int(0) | ExprKind::Null);
        match (&a.ty, &b.ty) {
            (Type::Int(x), Type::Int(y)) => Ok(Type::Int(cint::usual_arithmetic(*x, *y))),
            (Type::Pointer(x), Type::Pointer(_)) if **x == Type::Void => Ok(a.ty.clone()),
            (Type::Pointer(_), Type::Pointer(_)) => Ok(if is_null(a) {
                b.ty.clone()
            } else {
                a.ty.clone()
            }),
            (Type::Pointer(_), Type::Int(_)) if is_null(b) => Ok(a.ty.clone()),
            (Type::Int(_), Type::Pointer(_)) if is_null(a) => Ok(b.ty.clone()),
            (Type::Struct(x), Type::Struct(y)) if x == y => Ok(a.ty.clone()),
            (Type::Void, Type::Void) => Ok(Type::Void),
            (Type::Float(x), Type::Float(y)) if x == y => Ok(a.ty.clone()),
            (Type::Float(_), _) | (_, Type::Float(_)) => {
                match self.float_common(&a.ty, &b.ty, at)? {
                    Some(common) => Ok(common),
                    None => self.error(at, "incompatible operand types in conditional expression"),
                }
            }
            _ => self.error(at, "incompatible operand types in conditional expression"),
        }
    }

    fn offset_of(&mut self, o: &Node<OffsetOfExpression>, at: usize) -> R<Val> {
        let mut ty = self.type_name(&o.node.type_name)?;
        let mut offset: u64 = 0;
        let designator = &o.node.designator.node;
        let mut steps: Vec<(Option<&str>, Option<&Node<Expression>>)> =
            vec![(Some(designator.base.node.name.as_str()), None)];
        for m in &designator.members {
            match &m.node {
                OffsetMember::Member(id) => steps.push((Some(id.node.name.as_str()), None)),
                OffsetMember::Index(e) => steps.push((None, Some(e))),
                OffsetMember::IndirectMember(_) => {
                    return self.error(m.span.start, "`->` in offsetof")
                }
            }
        }
        for (name, index) in steps {
            match (name, index, ty.clone()) {
                (Some(name), _, Type::Struct(id)) => {
                    let Some(path) = self.find_member(id, name, 0) else {
                        return self.error(at, format!("no member named `{name}`"));
                    };
                    let mut current = id;
                    for (i, field_ty) in path {
                        offset += self
                            .program
                            .struct_def(current)
                            .fields
                            .get(i as usize)
                            .map_or(0, |f| f.offset);
                        if let Type::Struct(next) = &field_ty {
                            current = *next;
                        }
                        ty = field_ty;
                    }
                }
                (None, Some(e), Type::Array(elem, _)) => {
                    let n = self.const_int(e)?.1;
                    offset =
                        offset.wrapping_add((n as u64).wrapping_mul(self.program.size_of(&elem)));
                    ty = *elem;
                }
                _ => return self.error(at, "invalid offsetof designator"),
            }
        }
        Ok(Val::Value(Expr::int(self.size_type(), i128::from(offset))))
    }

    fn generic(&mut self, g: &Node<GenericSelection>, at: usize) -> R<Val> {
        let controlling = self.type_of_expr(&g.node.expression)?;
        let controlling = match controlling {
            Type::Array(elem, _) => Type::Pointer(elem),
            Type::Function(sig) => Type::ptr(Type::Function(sig)),
            t => t,
        };
        let mut default = None;
        for assoc in &g.node.associations {
            match &assoc.node {
                GenericAssociation::Type(t) => {
                    if self.type_name(&t.node.type_name)? == controlling {
                        return self.expr(&t.node.expression);
                    }
                }
                GenericAssociation::Default(e) => default = Some(e),
            }
        }
        match default {
            Some(e) => self.expr(e),
            None => self.error(at, "no matching association in _Generic"),
        }
    }
}
