//! How a function uses its parameters as they were passed: which one an
//! expression reads, whether the function tests one against NULL, and which
//! integer parameter says how long a pointer parameter's buffer is.

use crate::types::Layout;
use crate::{
    BinOp, Block, BlockId, Body, Callee, Expr, ExprKind, FuncId, LocalId, Place, PlaceBase,
    Program, Proj, StmtKind, StructId, Type, UnOp,
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

/// Whether `func` tests member `field` of a struct `ty` for NULL (`if
/// (h->on_item)`, `h->free != NULL`): a callback read from there may be
/// NULL where it does.
pub fn checks_member_null(program: &Program, func: FuncId, ty: StructId, field: u32) -> bool {
    let Some(body) = &program.function(func).body else {
        return false;
    };
    let is_member = |e: &Expr| match &strip_casts(e).kind {
        ExprKind::Load(place) => member_read(program, body, place) == Some((ty, field)),
        _ => false,
    };
    let is_null = |e: &Expr| matches!(strip_casts(e).kind, ExprKind::Null | ExprKind::Int(0));
    let mut found = false;
    for block in &body.blocks {
        let crate::Terminator::Branch { cond, .. } = &block.term else {
            continue;
        };
        found |= is_member(cond);
        crate::walk::subexpressions(cond, &mut |e: &Expr| {
            found |= match &e.kind {
                ExprKind::Binary(BinOp::Eq | BinOp::Ne, a, b) => {
                    (is_member(a) && is_null(b)) || (is_null(a) && is_member(b))
                }
                ExprKind::Unary(UnOp::LogicalNot, a) => is_member(a),
                _ => false,
            };
        });
    }
    found
}

/// The struct and member a place ends in (`h->on_item`: `struct handlers`,
/// its member number), if it ends in one.
pub fn member_read(program: &Program, body: &Body, place: &Place) -> Option<(StructId, u32)> {
    let mut ty = match &place.base {
        PlaceBase::Local(l) => body.locals.get(l.index())?.ty.clone(),
        PlaceBase::Global(g) => program.globals.get(g.index())?.ty.clone(),
        PlaceBase::Deref(e) => e.ty.pointee()?.clone(),
    };
    let mut member = None;
    for proj in &place.proj {
        match proj {
            Proj::Field {
                index,
                ty: field_ty,
            } => {
                let Type::Struct(id) = ty else {
                    return None;
                };
                member = Some((id, *index));
                ty = field_ty.clone();
            }
            Proj::Index { elem, .. } => {
                member = None;
                ty = elem.clone();
            }
        }
    }
    member
}

/// A pointer parameter and the integer parameter that says how much memory
/// the caller provides behind it, as in `(char *buf, size_t cap)`: a caller
/// of the library never passes a capacity its buffer lacks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Capacity {
    pub pointer: usize,
    pub count: usize,
    /// The count is in bytes, not in elements of the pointee.
    pub in_bytes: bool,
}

/// The capacities of `func`'s parameters, known two ways:
/// - the function passes both to a libc function that takes a buffer and its
///   length (`memset(p, 0, n)`, `snprintf(buf, size, ...)`);
/// - the integer is named as a length or count (`n`, `len`, `size`, `cap`,
///   `count`, `nbytes`, ...) and follows the pointers directly: the nearest
///   one, and those just before it with the same pointee (`memcpy`'s `dst`
///   and `src`).
pub fn capacities(program: &Program, func: FuncId) -> Vec<Capacity> {
    let function = program.function(func);
    let Some(body) = &function.body else {
        return Vec::new();
    };
    let params = &function.sig.params;
    let name = |i: usize| body.locals[i].name.as_str();
    let is_count = |i: usize| matches!(&params[i], Type::Int(t) if !t.is_bool);
    let mut found: Vec<Capacity> = Vec::new();
    let add = |found: &mut Vec<Capacity>, pointer: usize, count: usize, in_bytes: bool| {
        if !found
            .iter()
            .any(|c| c.pointer == pointer && c.count == count)
        {
            found.push(Capacity {
                pointer,
                count,
                in_bytes,
            });
        }
    };
    for count in (0..params.len()).filter(|&i| is_count(i) && names_a_length(name(i))) {
        // A count next to a list's head counts nodes, not elements.
        let Some(nearest) = params[..count]
            .last()
            .and_then(Type::pointee)
            .filter(|t| !program.is_linked(t))
        else {
            continue;
        };
        let in_bytes = matches!(nearest, Type::Void) || name(count).contains("byte");
        for pointer in (0..count).rev() {
            if params[pointer].pointee() != Some(nearest) {
                break;
            }
            add(&mut found, pointer, count, in_bytes);
        }
    }
    for block in &body.blocks {
        for stmt in &block.stmts {
            let StmtKind::Call {
                callee: Callee::Direct(f),
                args,
                ..
            } = &stmt.kind
            else {
                continue;
            };
            for &(buffer, length) in buffer_and_length(&program.function(*f).name) {
                let (Some(pointer), Some(count)) = (
                    args.get(buffer).and_then(|a| param_read(a, params.len())),
                    args.get(length).and_then(|a| param_read(a, params.len())),
                ) else {
                    continue;
                };
                if params[pointer].pointee().is_some() && is_count(count) {
                    add(&mut found, pointer, count, true);
                }
            }
        }
    }
    found
}

/// Whether a parameter name reads as a length, size or count.
fn names_a_length(name: &str) -> bool {
    let name = name.to_ascii_lowercase().replace('_', "");
    const WHOLE: [&str; 10] = [
        "n", "nmemb", "nelem", "nelems", "nitems", "nbytes", "bytes", "limit", "room", "avail",
    ];
    const ENDINGS: [&str; 7] = ["len", "length", "size", "sz", "cap", "capacity", "count"];
    WHOLE.contains(&name.as_str())
        || ENDINGS.iter().any(|e| name.ends_with(e))
        || name.starts_with("num")
}

/// The (buffer, length in bytes) argument positions of the libc functions
/// that take a buffer and how many bytes of it they may touch.
fn buffer_and_length(libc_name: &str) -> &'static [(usize, usize)] {
    match libc_name {
        "memset" | "memchr" | "strncpy" => &[(0, 2)],
        "memcpy" | "memmove" | "memcmp" => &[(0, 2), (1, 2)],
        "snprintf" | "vsnprintf" | "fgets" | "bzero" | "explicit_bzero" => &[(0, 1)],
        "read" | "write" => &[(1, 2)],
        _ => &[],
    }
}

pub fn strip_casts(mut e: &Expr) -> &Expr {
    while let ExprKind::Cast(inner) = &e.kind {
        e = inner;
    }
    e
}
