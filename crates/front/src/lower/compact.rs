//! Keeps only the struct and union types the program refers to (headers
//! declare dozens), renumbered in their original order.

use ir::{
    Callee, Expr, ExprKind, FnSig, Place, PlaceBase, Program, Proj, StmtKind, StructId, Terminator,
    Type,
};

/// Calls `f` on every struct id inside `ty`.
fn struct_ids(ty: &mut Type, f: &mut dyn FnMut(&mut StructId)) {
    match ty {
        Type::Struct(id) => f(id),
        Type::Pointer(t) | Type::Array(t, _) => struct_ids(t, f),
        Type::Function(sig) => sig_struct_ids(sig, f),
        Type::Void | Type::Int(_) | Type::Float(_) => {}
    }
}

fn sig_struct_ids(sig: &mut FnSig, f: &mut dyn FnMut(&mut StructId)) {
    struct_ids(&mut sig.ret, f);
    for p in &mut sig.params {
        struct_ids(p, f);
    }
}

fn expr_types(e: &mut Expr, f: &mut dyn FnMut(&mut StructId)) {
    struct_ids(&mut e.ty, f);
    match &mut e.kind {
        ExprKind::Load(p) | ExprKind::AddrOf(p) => place_types(p, f),
        ExprKind::Unary(_, a) | ExprKind::Cast(a) => expr_types(a, f),
        ExprKind::Binary(_, a, b) | ExprKind::PtrAdd(a, b) | ExprKind::PtrDiff(a, b) => {
            expr_types(a, f);
            expr_types(b, f);
        }
        ExprKind::Int(_)
        | ExprKind::Float(_)
        | ExprKind::Null
        | ExprKind::FuncAddr(_)
        | ExprKind::Str(_) => {}
    }
}

fn place_types(p: &mut Place, f: &mut dyn FnMut(&mut StructId)) {
    if let PlaceBase::Deref(e) = &mut p.base {
        expr_types(e, f);
    }
    for proj in &mut p.proj {
        match proj {
            Proj::Field { ty, .. } => struct_ids(ty, f),
            Proj::Index { index, elem } => {
                expr_types(index, f);
                struct_ids(elem, f);
            }
        }
    }
}

/// Every struct id used by globals and functions (not by struct fields).
fn program_struct_ids(p: &mut Program, f: &mut dyn FnMut(&mut StructId)) {
    for g in &mut p.globals {
        struct_ids(&mut g.ty, f);
    }
    for func in &mut p.functions {
        sig_struct_ids(&mut func.sig, f);
        let Some(body) = &mut func.body else { continue };
        for local in &mut body.locals {
            struct_ids(&mut local.ty, f);
        }
        for block in &mut body.blocks {
            for stmt in &mut block.stmts {
                match &mut stmt.kind {
                    StmtKind::Assign(place, e) => {
                        place_types(place, f);
                        expr_types(e, f);
                    }
                    StmtKind::Call { dest, callee, args } => {
                        if let Some(d) = dest {
                            place_types(d, f);
                        }
                        if let Callee::Indirect(e) = callee {
                            expr_types(e, f);
                        }
                        for a in args {
                            expr_types(a, f);
                        }
                    }
                }
            }
            match &mut block.term {
                Terminator::Branch { cond: e, .. }
                | Terminator::Switch { value: e, .. }
                | Terminator::Return(Some(e)) => expr_types(e, f),
                Terminator::Goto(_) | Terminator::Return(None) | Terminator::Unreachable => {}
            }
        }
    }
}

pub(super) fn compact_structs(p: &mut Program) {
    let n = p.structs.len();
    let mut used = vec![false; n];
    let mut pending = Vec::new();
    program_struct_ids(p, &mut |id| pending.push(id.0 as usize));
    while let Some(i) = pending.pop() {
        if used.get(i).copied().unwrap_or(true) {
            continue;
        }
        used[i] = true;
        if let Some(def) = p.structs.get_mut(i) {
            for field in &mut def.fields {
                struct_ids(&mut field.ty, &mut |id| pending.push(id.0 as usize));
            }
        }
    }
    let mut new_id = vec![StructId(0); n];
    let mut next = 0u32;
    for (i, keep) in used.iter().enumerate() {
        if *keep {
            new_id[i] = StructId(next);
            next += 1;
        }
    }
    let mut remap = |id: &mut StructId| *id = new_id.get(id.0 as usize).copied().unwrap_or(*id);
    program_struct_ids(p, &mut remap);
    let structs = std::mem::take(&mut p.structs);
    p.structs = structs
        .into_iter()
        .zip(&used)
        .filter(|(_, keep)| **keep)
        .map(|(mut def, _)| {
            for field in &mut def.fields {
                struct_ids(&mut field.ty, &mut remap);
            }
            def
        })
        .collect();
}
