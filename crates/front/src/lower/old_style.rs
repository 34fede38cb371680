//! Old-style (K&R) function definitions and calls without a prototype.
//!
//! `int f(a, b) char a; float *b; {...}` names its parameters in the
//! identifier list and types them in the declaration list (`int` when not
//! declared there: C89's implicit int). Such a definition gives no
//! prototype: callers pass each argument after the default promotions, and
//! the body converts it back to its declared type, as gcc does (`char a`
//! arrives as an `int` and is truncated, a `float` as a `double` and is
//! rounded). So the IR signature holds the promoted types, the ones the
//! body receives, and `function_body` starts by converting each parameter
//! into a local of its declared type. A prototype declared earlier decides
//! the received types instead: the promoted type, or, as GNU C allows, the
//! declared type itself (`int f(char); int f(c) char c; {...}` receives a
//! `char`).
//!
//! A call lowered without a prototype in scope passes its arguments
//! promoted and unchecked (`expr.rs`). Once the file is read, and with it
//! every definition, [`Lowerer::reconcile_unprototyped_calls`] converts
//! them to the types the callee receives where that is what gcc's callee
//! reads, and excludes the caller where it is not (undefined behaviour,
//! such as an `int` passed for a `double`).

use super::expr::make_cast;
use super::types::{adjusted_parameter, Declared, Specs};
use super::{Lowerer, Params, Prototype, Scope, R};
use crate::{cint, Severity};
use ir::{Callee, DataModel, Expr, FloatKind, FnSig, FuncId, IntType, Span, StmtKind, Type};
use lang_c::ast::{Declaration, StorageClassSpecifier};
use lang_c::span::Node;
use std::collections::{HashMap, HashSet};

/// A type after the default argument promotions, as a call without a
/// prototype passes a value of it.
pub(super) fn promoted(ty: &Type) -> Type {
    match ty {
        Type::Int(t) => Type::Int(cint::promote(*t)),
        Type::Float(FloatKind::F32) => Type::Float(FloatKind::F64),
        other => other.clone(),
    }
}

/// Whether gcc's callee, reading a parameter of type `param` where a call
/// without a prototype passed a value of type `arg`, reads that value
/// converted to `param`. Integers and pointers travel in the same
/// registers and stack slots (8 bytes on x86-64, 4 on i386) and the callee
/// reads their low bytes, so converting to an equally wide or narrower one
/// is exact; anything else (an `int` for a `double`, for a `long`, or for
/// a `_Bool`, whose byte gcc takes as it is) reads bits no conversion gives.
fn reads_as_converted(arg: &Type, param: &Type, model: DataModel) -> bool {
    let slot_bits = model.pointer_bytes() * 8;
    let bits = |ty: &Type| match ty {
        Type::Int(t) if !t.is_bool => Some(u64::from(t.bits)),
        Type::Pointer(_) => Some(slot_bits),
        _ => None,
    };
    arg == param
        || matches!((bits(arg), bits(param)), (Some(a), Some(p)) if p <= a && a <= slot_bits)
}

/// Whether a call's arguments have its callee's parameter types, as a
/// call under a prototype has.
fn fits(args: &[Expr], sig: &FnSig) -> bool {
    let counted = match sig.variadic {
        true => args.len() >= sig.params.len(),
        false => args.len() == sig.params.len(),
    };
    counted && args.iter().zip(&sig.params).all(|(a, p)| a.ty == *p)
}

/// The arguments of a call of `callee` (signature `sig`) lowered without a
/// prototype, converted to the types the callee receives; an unsupported
/// diagnostic's message when gcc's callee would read something else.
fn reconciled(
    callee: &str,
    args: &[Expr],
    sig: &FnSig,
    model: DataModel,
) -> Result<Vec<Expr>, String> {
    if args.len() < sig.params.len() {
        return Err(format!(
            "unsupported: `{callee}` has no prototype here and this call passes {} of its {} arguments (undefined behaviour)",
            args.len(),
            sig.params.len()
        ));
    }
    // The callee never reads arguments beyond its parameters.
    let kept = if sig.variadic {
        args.len()
    } else {
        sig.params.len()
    };
    args[..kept]
        .iter()
        .enumerate()
        .map(|(i, arg)| match sig.params.get(i) {
            Some(param) if reads_as_converted(&arg.ty, param, model) => {
                Ok(make_cast(arg.clone(), param))
            }
            Some(_) => Err(format!(
                "unsupported: `{callee}` has no prototype here and argument {} of this call does not have the type it receives (undefined behaviour)",
                i + 1
            )),
            None => Ok(arg.clone()),
        })
        .collect()
}

impl Lowerer<'_> {
    /// Types the identifier list of an old-style definition (`declared`,
    /// its parameters `int` so far) by its declaration list.
    pub(super) fn old_style_parameters(
        &mut self,
        mut declared: Declared,
        declarations: &[Node<Declaration>],
    ) -> R<Declared> {
        for (i, (name, _, at)) in declared.params.iter().enumerate() {
            if declared.params[..i].iter().any(|p| p.0 == *name) {
                let name = name.clone().unwrap_or_default();
                return self.error(*at, format!("parameter `{name}` is named twice"));
            }
        }
        // Tags the declarations define belong to the definition, not the file.
        self.scopes.push(Scope::default());
        let typed = self.type_parameters(&mut declared.params, declarations);
        self.scopes.pop();
        typed?;
        Ok(declared)
    }

    fn type_parameters(
        &mut self,
        params: &mut Params,
        declarations: &[Node<Declaration>],
    ) -> R<()> {
        let mut declared_yet = vec![false; params.len()];
        for d in declarations {
            let specs = Specs::of_declaration(&d.node.specifiers, d.span.start);
            if specs
                .storage
                .as_ref()
                .is_some_and(|s| *s != StorageClassSpecifier::Register)
            {
                return self.error(
                    d.span.start,
                    "storage class other than `register` for a parameter",
                );
            }
            let base = self.base_type(&specs)?;
            for init_decl in &d.node.declarators {
                let declared =
                    self.parameter_declarator(base.clone(), &init_decl.node.declarator)?;
                let at = declared.name_offset;
                let name = declared.name.unwrap_or_default();
                let Some(i) = params
                    .iter()
                    .position(|p| p.0.as_deref() == Some(name.as_str()))
                else {
                    return self.error(
                        at,
                        format!("declaration of `{name}`, which is no parameter"),
                    );
                };
                if std::mem::replace(&mut declared_yet[i], true) {
                    return self.error(at, format!("parameter `{name}` is declared twice"));
                }
                if init_decl.node.initializer.is_some() {
                    return self.error(at, format!("parameter `{name}` is initialized"));
                }
                let ty = adjusted_parameter(declared.ty);
                if self.is_incomplete(&ty) {
                    return self.error(at, format!("parameter `{name}` has incomplete type"));
                }
                params[i].1 = ty;
            }
        }
        Ok(())
    }

    /// The types the body of an old-style definition with parameters
    /// `declared.params` receives them as: promoted, or as the prototype
    /// declared before it gives them.
    pub(super) fn received_types(
        &self,
        prototype: Option<&FnSig>,
        declared: &Declared,
    ) -> R<Vec<Type>> {
        let params = &declared.params;
        if let Some(prototype) = prototype {
            if prototype.variadic || prototype.params.len() != params.len() {
                return self.error(
                    declared.name_offset,
                    "the number of parameters differs from the prototype's",
                );
            }
        }
        let mut received = Vec::with_capacity(params.len());
        for (i, (name, ty, at)) in params.iter().enumerate() {
            let name = name.as_deref().unwrap_or_default();
            let receives = match prototype.map(|p| &p.params[i]) {
                None => promoted(ty),
                Some(given) if *given == *ty || *given == promoted(ty) => given.clone(),
                Some(_) => {
                    return self.error(
                        *at,
                        format!("parameter `{name}` does not match the prototype"),
                    )
                }
            };
            if *ty == Type::Int(IntType::BOOL) && receives != *ty {
                // gcc takes the low byte of the `int` as the `_Bool`, which
                // differs between optimisation levels for values beyond 1.
                return self.unsupported(*at, "a `_Bool` parameter of an old-style definition");
            }
            received.push(receives);
        }
        Ok(received)
    }

    /// Fits every call lowered without a prototype to its callee, now that
    /// every definition is known (see the module doc). A function only
    /// declared `f()` and defined in no file read receives what its first
    /// call passes: a driver's stub takes those parameters.
    pub(super) fn reconcile_unprototyped_calls(&mut self) {
        let index_of: HashMap<FuncId, usize> = self
            .funcs
            .iter()
            .enumerate()
            .filter_map(|(i, d)| Some((d.id?, i)))
            .collect();
        let excluded: HashSet<String> = self.excluded.iter().map(|(n, _)| n.clone()).collect();
        let adopts = |d: &super::FuncDecl<'_>| {
            d.prototype == Prototype::Missing
                && d.function.body.is_none()
                && d.header_definition.is_none()
                && !excluded.contains(&d.function.name)
        };
        let mut adopted: HashMap<usize, Vec<Type>> = HashMap::new();
        let stmts = self
            .funcs
            .iter()
            .filter_map(|d| d.function.body.as_ref())
            .flat_map(|body| &body.blocks)
            .flat_map(|block| &block.stmts);
        for stmt in stmts {
            let StmtKind::Call {
                callee: Callee::Direct(callee),
                args,
                ..
            } = &stmt.kind
            else {
                continue;
            };
            let Some(&index) = index_of.get(callee) else {
                continue;
            };
            if self.funcs.get(index).is_some_and(adopts) {
                adopted
                    .entry(index)
                    .or_insert_with(|| args.iter().map(|a| a.ty.clone()).collect());
            }
        }
        for (index, params) in adopted {
            if let Some(decl) = self.funcs.get_mut(index) {
                decl.function.sig.params = params;
            }
        }
        let sigs: HashMap<FuncId, (String, FnSig)> = self
            .funcs
            .iter()
            .filter(|d| !excluded.contains(&d.function.name))
            .filter_map(|d| Some((d.id?, (d.function.name.clone(), d.function.sig.clone()))))
            .collect();
        let model = self.program.data_model;
        let mut refused: Vec<(usize, Span, String)> = Vec::new();
        for (caller, decl) in self.funcs.iter_mut().enumerate() {
            let Some(body) = &mut decl.function.body else {
                continue;
            };
            let stmts = body.blocks.iter_mut().flat_map(|b| &mut b.stmts);
            for stmt in stmts {
                let StmtKind::Call {
                    callee: Callee::Direct(callee),
                    args,
                    ..
                } = &mut stmt.kind
                else {
                    continue;
                };
                let Some((name, sig)) = sigs.get(callee).filter(|(_, sig)| !fits(args, sig)) else {
                    continue;
                };
                match reconciled(name, args, sig, model) {
                    Ok(fitted) => *args = fitted,
                    Err(message) => {
                        refused.push((caller, stmt.span, message));
                        break;
                    }
                }
            }
        }
        for (caller, span, message) in refused {
            self.exclude_body(caller, span, Severity::Unsupported, message);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_parameter_reads_the_low_bytes_of_one_register_or_stack_slot() {
        let int = || Type::Int(IntType::INT);
        let wide = || Type::Int(IntType::LONG_LONG);
        let pointer = || Type::ptr(Type::Void);
        let double = || Type::Float(FloatKind::F64);
        let reads = |arg: Type, param: Type, model| reads_as_converted(&arg, &param, model);
        let lp64 = DataModel::Lp64;
        assert!(reads(int(), Type::Int(IntType::CHAR), lp64));
        assert!(reads(int(), Type::Int(IntType::UINT), lp64));
        assert!(reads(wide(), int(), lp64));
        assert!(reads(wide(), pointer(), lp64));
        assert!(reads(pointer(), Type::ptr(Type::Int(IntType::UCHAR)), lp64));
        assert!(!reads(int(), wide(), lp64), "the upper half was never set");
        assert!(!reads(int(), pointer(), lp64));
        assert!(!reads(int(), double(), lp64), "another register");
        assert!(!reads(double(), Type::Float(FloatKind::F32), lp64));
        assert!(!reads(int(), Type::Int(IntType::BOOL), lp64));
        let ilp32 = DataModel::Ilp32;
        assert!(reads(int(), pointer(), ilp32));
        assert!(reads(wide(), wide(), ilp32));
        assert!(!reads(wide(), int(), ilp32), "two stack slots for one");
    }
}
