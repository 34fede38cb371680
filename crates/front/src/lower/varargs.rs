//! `<stdarg.h>` as gcc spells it: `__builtin_va_start`, `__builtin_va_arg`
//! (lang-c's `Expression::VaArg`), `__builtin_va_copy` and
//! `__builtin_va_end`. A `va_list` keeps its x86-64 type (`struct
//! __va_list_tag[1]`, so layouts and forwarding stay gcc's) and its
//! `overflow_arg_area` member is the cursor: `va_start` points it at the
//! function's argument area (`ir::Function::va_area`), `va_arg(ap, T)` reads
//! a `T` there and moves it one `ir::VA_SLOT` on. gcc passes the first
//! arguments in registers, but the values read are the same in the same
//! order, so one walk over memory models both.

use super::expr::{deref_place, make_cast, void_value, Val};
use super::{Lowerer, R};
use ir::{
    DataModel, Expr, ExprKind, FloatKind, IntType, Place, Proj, Type, VA_LIST_CURSOR, VA_SLOT,
};
use lang_c::ast::{Expression, VaArgExpression};
use lang_c::span::Node;

impl Lowerer<'_> {
    /// `va_start`, `va_copy` and `va_end`; `None` for any other name.
    pub(super) fn va_builtin(
        &mut self,
        name: &str,
        args: &[Node<Expression>],
        at: usize,
    ) -> Option<R<Val>> {
        let is_va_builtin = matches!(
            name,
            "__builtin_va_start" | "__builtin_va_copy" | "__builtin_va_end"
        );
        if is_va_builtin && self.program.data_model == DataModel::Ilp32 {
            return Some(self.unsupported_va_list(at));
        }
        Some(match (name, args) {
            ("__builtin_va_start", [ap, last]) => self.va_start(ap, last, at),
            ("__builtin_va_copy", [dest, src]) => self.va_copy(dest, src, at),
            ("__builtin_va_end", [ap]) => self.va_list_tag(ap).map(|_| void_value()),
            ("__builtin_va_start" | "__builtin_va_copy" | "__builtin_va_end", _) => {
                self.error(at, format!("wrong number of arguments to `{name}`"))
            }
            _ => return None,
        })
    }

    /// The address of the `__va_list_tag` that `ap` designates: a `va_list`
    /// variable decays to it, a forwarded one (a parameter) is a pointer to it.
    fn va_list_tag(&mut self, ap: &Node<Expression>) -> R<Expr> {
        let tag = self.rvalue(ap)?;
        match (tag.ty.pointee(), self.va_list_struct) {
            (Some(Type::Struct(id)), Some(va_list)) if *id == va_list => Ok(tag),
            _ => self.error(ap.span.start, "expected a `va_list`"),
        }
    }

    fn va_cursor(&mut self, ap: &Node<Expression>) -> R<Place> {
        let mut cursor = deref_place(self.va_list_tag(ap)?);
        cursor.proj.push(Proj::Field {
            index: VA_LIST_CURSOR,
            ty: Type::ptr(Type::Void),
        });
        Ok(cursor)
    }

    fn va_start(&mut self, ap: &Node<Expression>, last: &Node<Expression>, at: usize) -> R<Val> {
        let Some(area) = self.builder(at)?.va_area else {
            return self.error(at, "`va_start` in a function with fixed arguments");
        };
        let cursor = self.va_cursor(ap)?;
        self.discard(last)?;
        let start = Expr::load(Place::local(area), Type::ptr(Type::Void));
        self.assign_stmt(cursor, start, at)?;
        Ok(void_value())
    }

    fn va_copy(&mut self, dest: &Node<Expression>, src: &Node<Expression>, at: usize) -> R<Val> {
        let dest = self.va_list_tag(dest)?;
        let src = self.va_list_tag(src)?;
        let tag = src.ty.pointee().cloned().unwrap_or(Type::Void);
        self.assign_stmt(deref_place(dest), Expr::load(deref_place(src), tag), at)?;
        Ok(void_value())
    }

    /// `va_arg(ap, T)`: the `T` at the cursor, which then moves one slot on.
    /// i386's `va_list` is a `char *` over 4-byte slots, which this module
    /// does not model.
    fn unsupported_va_list<T>(&self, at: usize) -> R<T> {
        self.unsupported(at, "variadic arguments under the ILP32 data model")
    }

    pub(super) fn va_arg(&mut self, v: &Node<VaArgExpression>, at: usize) -> R<Val> {
        if self.program.data_model == DataModel::Ilp32 {
            return self.unsupported_va_list(at);
        }
        let ty = self.type_name(&v.node.type_name)?;
        match &ty {
            Type::Int(it) if it.bits < 32 => {
                return self.error(
                    at,
                    "`va_arg` of a type narrower than `int` is undefined: `...` passes it as `int`",
                )
            }
            Type::Float(FloatKind::F32) => {
                return self.error(
                    at,
                    "`va_arg` of `float` is undefined: `...` passes it as `double`",
                )
            }
            Type::Int(_) | Type::Float(FloatKind::F64) | Type::Pointer(_) => {}
            _ => {
                return self.unsupported(
                    at,
                    "`va_arg` of a type other than an integer, `double` or a pointer",
                )
            }
        }
        let cursor = self.va_cursor(&v.node.va_list)?;
        let position = Expr::load(cursor.clone(), Type::ptr(Type::Void));
        let value = self.temp(ty.clone(), at)?;
        let read = Expr::load(
            deref_place(make_cast(position.clone(), &Type::ptr(ty.clone()))),
            ty.clone(),
        );
        self.assign_stmt(Place::local(value), read, at)?;
        let bytes = Type::ptr(Type::Int(IntType::UCHAR));
        let next = Expr {
            kind: ExprKind::PtrAdd(
                Box::new(make_cast(position, &bytes)),
                Box::new(Expr::int(IntType::LONG_LONG, i128::from(VA_SLOT))),
            ),
            ty: bytes,
        };
        self.assign_stmt(cursor, make_cast(next, &Type::ptr(Type::Void)), at)?;
        Ok(Val::Value(Expr::load(Place::local(value), ty)))
    }
}
