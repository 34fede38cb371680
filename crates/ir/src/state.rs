//! The program's state: the globals its own code can change. A unit test
//! may start such a global at any value the type allows (the code may have
//! left it there); a global no code writes keeps its initializer.

use crate::program::{
    Callee, Expr, ExprKind, GlobalId, Init, PlaceBase, Program, Proj, StmtKind, Terminator,
};
use crate::program::{ConstValue, Place};
use std::collections::BTreeSet;

/// Globals some function assigns (directly or through a member or element)
/// or whose address escapes into an expression or an initializer, where
/// anything may write through it.
pub fn written_globals(program: &Program) -> BTreeSet<GlobalId> {
    let mut written = BTreeSet::new();
    for global in &program.globals {
        if let Some(Init::Fields(items)) = &global.init {
            for item in items {
                if let ConstValue::GlobalAddr(g, _) = item.value {
                    written.insert(g);
                }
            }
        }
    }
    for body in program.functions.iter().filter_map(|f| f.body.as_ref()) {
        for block in &body.blocks {
            for stmt in &block.stmts {
                match &stmt.kind {
                    StmtKind::Assign(place, expr) => {
                        assigned(place, &mut written);
                        addresses(expr, &mut written);
                    }
                    StmtKind::Call { dest, callee, args } => {
                        if let Some(place) = dest {
                            assigned(place, &mut written);
                        }
                        if let Callee::Indirect(e) = callee {
                            addresses(e, &mut written);
                        }
                        args.iter().for_each(|a| addresses(a, &mut written));
                    }
                }
            }
            match &block.term {
                Terminator::Branch { cond: e, .. } | Terminator::Switch { value: e, .. } => {
                    addresses(e, &mut written)
                }
                Terminator::Return(Some(e)) => addresses(e, &mut written),
                _ => {}
            }
        }
    }
    written
}

fn assigned(place: &Place, written: &mut BTreeSet<GlobalId>) {
    if let PlaceBase::Global(g) = place.base {
        written.insert(g);
    }
    in_place(place, written);
}

/// Addresses of globals taken inside a place's base and indices.
fn in_place(place: &Place, written: &mut BTreeSet<GlobalId>) {
    if let PlaceBase::Deref(e) = &place.base {
        addresses(e, written);
    }
    for proj in &place.proj {
        if let Proj::Index { index, .. } = proj {
            addresses(index, written);
        }
    }
}

fn addresses(expr: &Expr, written: &mut BTreeSet<GlobalId>) {
    match &expr.kind {
        ExprKind::AddrOf(place) => {
            if let PlaceBase::Global(g) = place.base {
                written.insert(g);
            }
            in_place(place, written);
        }
        ExprKind::Load(place) => in_place(place, written),
        ExprKind::Unary(_, e) | ExprKind::Cast(e) => addresses(e, written),
        ExprKind::Binary(_, a, b) | ExprKind::PtrAdd(a, b) | ExprKind::PtrDiff(a, b) => {
            addresses(a, written);
            addresses(b, written);
        }
        ExprKind::Int(_) | ExprKind::Null | ExprKind::Str(_) | ExprKind::FuncAddr(_) => {}
    }
}
