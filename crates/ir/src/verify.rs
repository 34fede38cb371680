//! The IR verifier. Every invariant a later stage relies on is listed here and
//! checked; the front end's tests run it on everything they lower, and debug
//! builds of `front::compile` on everything it returns. A failure names the
//! function and the number of the broken invariant (`invariant 4: ...`).
//!
//! 1. Every `BlockId`, `LocalId`, `GlobalId`, `FuncId`, `StringId` and `BranchId`
//!    used in a body is in range; a body has at least one block (the entry, `bb0`).
//! 2. A body has at least as many locals as its signature has parameters, and
//!    the first locals have the parameter types; a variadic one's next local
//!    (its argument area, `Function::va_area`) is a pointer.
//! 3. Each `BranchId` is used by exactly one terminator.
//! 4. Binary arithmetic and bitwise operands have the result's type; a shift's
//!    left operand has the result's type and its right operand is an integer;
//!    comparison operands have one type (both integers of the same type, both
//!    `float` or both `double`, or both pointers) and yield `int`; `PtrAdd`
//!    has a pointer first operand of the result type and an `i64` index;
//!    `PtrDiff` yields `i64`; a floating constant is a `float` or `double`.
//! 5. Branch conditions are integers or pointers (the front end compares a
//!    floating condition with zero) and switch values integers.
//! 6. A direct call passes at least as many arguments as the callee's
//!    parameters (exactly as many when it is not variadic).
//! 7. A dereferenced place (`PlaceBase::Deref`) is reached through a pointer.

use crate::program::*;
use crate::types::{IntType, Type};

/// The first broken invariant found, with where it is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VerifyError {
    pub function: String,
    pub span: Span,
    /// The name of `span.file`, so that the message points into the source.
    pub file: String,
    pub message: String,
}

impl std::fmt::Display for VerifyError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}:{}:{}: IR invariant broken in `{}`: {}",
            self.file, self.span.line, self.span.col, self.function, self.message
        )
    }
}

pub fn verify(p: &Program) -> Result<(), VerifyError> {
    for f in &p.functions {
        if let Some(body) = &f.body {
            Checker {
                p,
                f,
                body,
                span: f.span,
            }
            .function()?;
        }
    }
    Ok(())
}

struct Checker<'a> {
    p: &'a Program,
    f: &'a Function,
    body: &'a Body,
    span: Span,
}

impl Checker<'_> {
    /// `invariant` is the number of the broken rule in the module doc.
    fn fail<T>(&self, invariant: u8, detail: impl std::fmt::Display) -> Result<T, VerifyError> {
        Err(VerifyError {
            function: self.f.name.clone(),
            span: self.span,
            file: self.p.file_name(self.span).to_string(),
            message: format!("invariant {invariant}: {detail}"),
        })
    }

    fn function(&mut self) -> Result<(), VerifyError> {
        if self.body.blocks.is_empty() {
            return self.fail(1, "body has no entry block");
        }
        if self.body.locals.len() < self.f.sig.params.len() {
            return self.fail(2, "fewer locals than parameters");
        }
        for (i, t) in self.f.sig.params.iter().enumerate() {
            if &self.body.locals[i].ty != t {
                return self.fail(2, format!("parameter {i} local has a different type"));
            }
        }
        if let Some(area) = self.f.va_area() {
            let is_pointer = self
                .body
                .locals
                .get(area.index())
                .is_some_and(|l| matches!(l.ty, Type::Pointer(_)));
            if !is_pointer {
                return self.fail(2, "variadic function without a pointer argument-area local");
            }
        }
        let mut site_uses = vec![0u32; self.body.branches.len()];
        for b in &self.body.blocks {
            for s in &b.stmts {
                self.span = s.span;
                self.stmt(&s.kind)?;
            }
            self.span = b.term_span;
            self.term(&b.term, &mut site_uses)?;
        }
        if let Some(i) = site_uses.iter().position(|&n| n != 1) {
            return self.fail(
                3,
                format!(
                    "branch site {} used by {} terminators",
                    BranchId(i as u32),
                    site_uses[i]
                ),
            );
        }
        Ok(())
    }

    fn block(&self, b: BlockId) -> Result<(), VerifyError> {
        if b.index() >= self.body.blocks.len() {
            return self.fail(1, format!("{b} out of range"));
        }
        Ok(())
    }

    fn stmt(&self, s: &StmtKind) -> Result<(), VerifyError> {
        match s {
            StmtKind::Assign(place, e) => {
                self.place(place)?;
                self.expr(e)
            }
            StmtKind::Call { dest, callee, args } => {
                if let Some(d) = dest {
                    self.place(d)?;
                }
                for a in args {
                    self.expr(a)?;
                }
                match callee {
                    Callee::Direct(fid) => {
                        let Some(g) = self.p.functions.get(fid.index()) else {
                            return self.fail(1, format!("{fid} out of range"));
                        };
                        let n = g.sig.params.len();
                        if args.len() < n || (!g.sig.variadic && args.len() != n) {
                            return self.fail(
                                6,
                                format!(
                                    "call of `{}` with {} arguments, expected {n}",
                                    g.name,
                                    args.len()
                                ),
                            );
                        }
                        Ok(())
                    }
                    Callee::Indirect(e) => self.expr(e),
                }
            }
        }
    }

    fn term(&self, t: &Terminator, site_uses: &mut [u32]) -> Result<(), VerifyError> {
        for b in t.successors() {
            self.block(b)?;
        }
        let mut use_site = |site: &BranchId| match site_uses.get_mut(site.index()) {
            Some(n) => {
                *n += 1;
                Ok(())
            }
            None => self.fail(1, format!("{site} out of range")),
        };
        match t {
            Terminator::Branch { cond, site, .. } => {
                use_site(site)?;
                self.expr(cond)?;
                if !matches!(cond.ty, Type::Int(_) | Type::Pointer(_)) {
                    return self.fail(5, "branch condition is not an integer or a pointer");
                }
            }
            Terminator::Switch { value, site, .. } => {
                use_site(site)?;
                self.expr(value)?;
                if value.ty.as_int().is_none() {
                    return self.fail(5, "switch value is not an integer");
                }
            }
            Terminator::Return(Some(e)) => self.expr(e)?,
            _ => {}
        }
        Ok(())
    }

    fn place(&self, place: &Place) -> Result<(), VerifyError> {
        match &place.base {
            PlaceBase::Local(l) if l.index() >= self.body.locals.len() => {
                return self.fail(1, format!("{l} out of range"))
            }
            PlaceBase::Global(g) if g.index() >= self.p.globals.len() => {
                return self.fail(1, format!("{g} out of range"))
            }
            PlaceBase::Deref(e) => {
                self.expr(e)?;
                if !matches!(e.ty, Type::Pointer(_)) {
                    return self.fail(7, "dereference of a non-pointer");
                }
            }
            _ => {}
        }
        for pr in &place.proj {
            if let Proj::Index { index, .. } = pr {
                self.expr(index)?;
            }
        }
        Ok(())
    }

    fn expr(&self, e: &Expr) -> Result<(), VerifyError> {
        const INT: Type = Type::Int(IntType::INT);
        const I64: Type = Type::Int(IntType::LONG_LONG);
        match &e.kind {
            ExprKind::Int(_) | ExprKind::Null => Ok(()),
            ExprKind::Float(_) if e.ty.as_ieee_float().is_none() => {
                self.fail(4, "floating constant of a type other than float or double")
            }
            ExprKind::Float(_) => Ok(()),
            ExprKind::Load(p) | ExprKind::AddrOf(p) => self.place(p),
            ExprKind::FuncAddr(f) if f.index() >= self.p.functions.len() => {
                self.fail(1, format!("{f} out of range"))
            }
            ExprKind::Str(s) if s.index() >= self.p.strings.len() => {
                self.fail(1, format!("{s} out of range"))
            }
            ExprKind::FuncAddr(_) | ExprKind::Str(_) => Ok(()),
            ExprKind::Unary(_, a) | ExprKind::Cast(a) => self.expr(a),
            ExprKind::Binary(op, a, b) => {
                self.expr(a)?;
                self.expr(b)?;
                let symbol = op.symbol();
                if op.is_predicate() {
                    let same = a.ty == b.ty
                        || (matches!(a.ty, Type::Pointer(_)) && matches!(b.ty, Type::Pointer(_)));
                    if !same {
                        return self
                            .fail(4, format!("comparison `{symbol}` of mismatched operands"));
                    }
                    if e.ty != INT {
                        return self.fail(4, format!("comparison `{symbol}` does not yield int"));
                    }
                } else if matches!(op, BinOp::Shl | BinOp::Shr) {
                    if a.ty != e.ty || b.ty.as_int().is_none() {
                        return self.fail(4, format!("operand types of shift `{symbol}`"));
                    }
                } else if a.ty != e.ty || b.ty != e.ty {
                    return self.fail(
                        4,
                        format!("operands of `{symbol}` do not have the result type"),
                    );
                }
                Ok(())
            }
            ExprKind::PtrAdd(a, b) => {
                self.expr(a)?;
                self.expr(b)?;
                if a.ty != e.ty || !matches!(e.ty, Type::Pointer(_)) || b.ty != I64 {
                    return self.fail(4, "ptradd operand types");
                }
                Ok(())
            }
            ExprKind::PtrDiff(a, b) => {
                self.expr(a)?;
                self.expr(b)?;
                if e.ty != I64 {
                    return self.fail(4, "ptrdiff must yield i64");
                }
                Ok(())
            }
        }
    }
}
