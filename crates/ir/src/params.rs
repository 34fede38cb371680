//! How a function uses its parameters as they were passed: which one an
//! expression reads, and whether the function tests one against NULL.

use crate::{
    BinOp, Block, BlockId, Expr, ExprKind, FuncId, LocalId, PlaceBase, Program, StmtKind, UnOp,
};

/// The parameter `e` reads as it is (casts aside), if it does.
pub fn param_read(e: &Expr, params: usize) -> Option<usize> {
    match &strip_casts(e).kind {
        ExprKind::Load(place) if place.proj.is_empty() => match place.base {
            PlaceBase::Local(LocalId(l)) if (l as usize) < params => Some(l as usize),
            _ => None,
        },
        _ => None,
    }
}

/// Whether `func` itself compares parameter `param` with NULL (`if (l ==
/// NULL)`, `if (!l)`): a guard a test with NULL covers. One without a
/// guard takes NULL as a misuse.
pub fn checks_null(program: &Program, func: FuncId, param: usize) -> bool {
    let function = program.function(func);
    let params = function.sig.params.len();
    let is_param = |e: &Expr| param_read(e, params) == Some(param);
    let is_null = |e: &Expr| matches!(strip_casts(e).kind, ExprKind::Null | ExprKind::Int(0));
    let Some(body) = &function.body else {
        return false;
    };
    // Only conditions the parameter reaches as it was passed count: after
    // `p = p->next`, `p == NULL` tests a node, not the argument.
    let assigns_param = |block: &Block| {
        block.stmts.iter().any(|stmt| {
            let place = match &stmt.kind {
                StmtKind::Assign(place, _) => Some(place),
                StmtKind::Call { dest, .. } => dest.as_ref(),
            };
            place.is_some_and(|p| {
                p.proj.is_empty() && p.base == PlaceBase::Local(LocalId(param as u32))
            })
        })
    };
    let mut found = false;
    let mut seen = vec![false; body.blocks.len()];
    let mut pending = vec![BlockId(0)];
    while let Some(id) = pending.pop() {
        if std::mem::replace(&mut seen[id.index()], true) {
            continue;
        }
        let block = body.block(id);
        if assigns_param(block) {
            continue;
        }
        pending.extend(block.term.successors());
        let crate::Terminator::Branch { cond, .. } = &block.term else {
            continue;
        };
        crate::walk::subexpressions(cond, &mut |e: &Expr| {
            found |= match &e.kind {
                ExprKind::Binary(BinOp::Eq | BinOp::Ne, a, b) => {
                    (is_param(a) && is_null(b)) || (is_null(a) && is_param(b))
                }
                ExprKind::Unary(UnOp::LogicalNot, a) => is_param(a),
                _ => false,
            };
        });
        found |= is_param(cond);
    }
    found
}

pub fn strip_casts(mut e: &Expr) -> &Expr {
    while let ExprKind::Cast(inner) = &e.kind {
        e = inner;
    }
    e
}
