//! Walks over what code does with places and expressions, for analyses
//! that collect what a program refers to (the globals it writes, the
//! globals and functions a driver must reach).

use crate::program::{
    Body, Callee, Expr, ExprKind, FuncId, Place, PlaceBase, Proj, StmtKind, Terminator,
};

/// One use of a place, a function or an expression in a body.
pub enum Operand<'a> {
    /// The place a statement assigns (or a call's result is stored in).
    Assigned(&'a Place),
    /// A function called directly.
    Called(FuncId),
    /// An expression evaluated: a value assigned, an argument, a condition,
    /// a returned value, a function pointer called through.
    Evaluated(&'a Expr),
}

/// Each operand of `body`'s statements and terminators, in order.
pub fn operands<'a>(body: &'a Body, mut visit: impl FnMut(Operand<'a>)) {
    for block in &body.blocks {
        for stmt in &block.stmts {
            match &stmt.kind {
                StmtKind::Assign(place, expr) => {
                    visit(Operand::Assigned(place));
                    visit(Operand::Evaluated(expr));
                }
                StmtKind::Call { dest, callee, args } => {
                    if let Some(place) = dest {
                        visit(Operand::Assigned(place));
                    }
                    match callee {
                        Callee::Direct(f) => visit(Operand::Called(*f)),
                        Callee::Indirect(e) => visit(Operand::Evaluated(e)),
                    }
                    args.iter().for_each(|a| visit(Operand::Evaluated(a)));
                }
            }
        }
        match &block.term {
            Terminator::Branch { cond: e, .. }
            | Terminator::Switch { value: e, .. }
            | Terminator::Return(Some(e)) => visit(Operand::Evaluated(e)),
            _ => {}
        }
    }
}

/// `expr` and every expression inside it (operands, and the pointer and
/// indices of the places it reads or takes the address of), outermost first.
pub fn subexpressions<'a>(expr: &'a Expr, visit: &mut impl FnMut(&'a Expr)) {
    visit(expr);
    match &expr.kind {
        ExprKind::Load(place) | ExprKind::AddrOf(place) => place_expressions(place, visit),
        ExprKind::Unary(_, e) | ExprKind::Cast(e) => subexpressions(e, visit),
        ExprKind::Binary(_, a, b) | ExprKind::PtrAdd(a, b) | ExprKind::PtrDiff(a, b) => {
            subexpressions(a, visit);
            subexpressions(b, visit);
        }
        ExprKind::Int(_)
        | ExprKind::Float(_)
        | ExprKind::Null
        | ExprKind::Str(_)
        | ExprKind::FuncAddr(_) => {}
    }
}

/// The expressions inside a place: the pointer it goes through and its indices.
pub fn place_expressions<'a>(place: &'a Place, visit: &mut impl FnMut(&'a Expr)) {
    if let PlaceBase::Deref(e) = &place.base {
        subexpressions(e, visit);
    }
    for proj in &place.proj {
        if let Proj::Index { index, .. } = proj {
            subexpressions(index, visit);
        }
    }
}

/// Each expression evaluated in `func` and in the functions it calls,
/// directly or not, and every expression inside it.
fn expressions_called_from<'p>(
    program: &'p crate::program::Program,
    func: FuncId,
    mut visit: impl FnMut(&'p Expr),
) {
    for body in bodies_called_from(program, func) {
        operands(body, |operand| {
            if let Operand::Evaluated(expr) = operand {
                subexpressions(expr, &mut visit);
            }
        });
    }
}

/// The bodies of `func` and of the functions it calls, directly or not.
pub fn bodies_called_from(program: &crate::program::Program, func: FuncId) -> Vec<&Body> {
    let mut seen = std::collections::BTreeSet::from([func]);
    let mut todo = vec![func];
    let mut bodies = Vec::new();
    while let Some(f) = todo.pop() {
        let Some(body) = &program.function(f).body else {
            continue;
        };
        operands(body, |operand| {
            if let Operand::Called(callee) = operand {
                if seen.insert(callee) {
                    todo.push(callee);
                }
            }
        });
        bodies.push(body);
    }
    bodies
}

/// The string literals that `func`, or a function it calls, hands to a
/// function without a body, each with that function (`strncmp(line,
/// "nameserver", 10)`, `strspn(s, "0123456789")`).
pub fn literals_handed_to_bodiless(
    program: &crate::program::Program,
    func: FuncId,
) -> Vec<(FuncId, crate::program::StringId)> {
    let mut found = Vec::new();
    for body in bodies_called_from(program, func) {
        for stmt in body.blocks.iter().flat_map(|b| &b.stmts) {
            let StmtKind::Call {
                callee: Callee::Direct(callee),
                args,
                ..
            } = &stmt.kind
            else {
                continue;
            };
            if program.function(*callee).body.is_some() {
                continue;
            }
            for arg in args {
                subexpressions(arg, &mut |e| {
                    if let ExprKind::Str(id) = e.kind {
                        found.push((*callee, id));
                    }
                });
            }
        }
    }
    found
}

/// The size of the largest struct or union that `func`, or a function it
/// calls, reads through a byte pointer converted to point to it (`(struct
/// hdr *)buf` in a parser of binary records): a buffer the code reads so
/// holds at least that many bytes. 0 where it converts none.
pub fn largest_record_read_from_bytes(program: &crate::program::Program, func: FuncId) -> u64 {
    use crate::types::{Layout, Type};
    let mut largest = 0;
    expressions_called_from(program, func, |e| {
        if let (ExprKind::Cast(from), Some(record @ Type::Struct(_))) = (&e.kind, e.ty.pointee()) {
            if from.ty.points_to_bytes() {
                largest = largest.max(program.size_of(record));
            }
        }
    });
    largest
}

/// What a body refers to beyond its own locals: the functions it may
/// run and the string literals it reads.
#[derive(Default)]
pub struct References {
    /// Functions called directly or whose address is taken.
    pub functions: std::collections::BTreeSet<FuncId>,
    /// The types of the functions it calls through a pointer.
    pub called_through_pointers: Vec<crate::types::FnSig>,
    pub strings: std::collections::BTreeSet<crate::program::StringId>,
}

/// The [`References`] of `body`.
pub fn references(body: &Body) -> References {
    let mut found = References::default();
    operands(body, |operand| match operand {
        Operand::Called(f) => {
            found.functions.insert(f);
        }
        Operand::Assigned(place) => {
            place_expressions(place, &mut |e| note_expression(&mut found, e));
        }
        Operand::Evaluated(expr) => subexpressions(expr, &mut |e| note_expression(&mut found, e)),
    });
    for block in &body.blocks {
        for stmt in &block.stmts {
            if let StmtKind::Call {
                callee: Callee::Indirect(pointer),
                ..
            } = &stmt.kind
            {
                if let Some(crate::types::Type::Function(sig)) = pointer.ty.pointee() {
                    found.called_through_pointers.push((**sig).clone());
                }
            }
        }
    }
    found
}

fn note_expression(found: &mut References, expr: &Expr) {
    match expr.kind {
        ExprKind::FuncAddr(f) => {
            found.functions.insert(f);
        }
        ExprKind::Str(s) => {
            found.strings.insert(s);
        }
        _ => {}
    }
}

/// The functions whose address the program takes (in a body or a global's
/// initializer): the only ones a call through a pointer, or a library
/// function handed a pointer (`qsort`'s comparator), may run.
pub fn address_taken(program: &crate::program::Program) -> std::collections::BTreeSet<FuncId> {
    let mut found = std::collections::BTreeSet::new();
    let mut note = |e: &Expr| {
        if let ExprKind::FuncAddr(f) = e.kind {
            found.insert(f);
        }
    };
    for body in program.functions.iter().filter_map(|f| f.body.as_ref()) {
        operands(body, |operand| match operand {
            Operand::Called(_) => {}
            Operand::Assigned(place) => place_expressions(place, &mut note),
            Operand::Evaluated(expr) => subexpressions(expr, &mut note),
        });
    }
    let in_globals = (program.globals.iter())
        .filter_map(|global| global.init.as_ref())
        .flat_map(|crate::program::Init::Fields(items)| items)
        .filter_map(|item| match item.value {
            crate::program::ConstValue::FuncAddr(f) => Some(f),
            _ => None,
        });
    found.extend(in_globals);
    found
}

/// Whether `func`, or a function it calls, orders pointers (`p < end`) or
/// subtracts them (`end - p`): two of its pointers must then point into
/// one object.
pub fn orders_pointers(program: &crate::program::Program, func: FuncId) -> bool {
    let mut found = false;
    expressions_called_from(program, func, |e| {
        found |= match &e.kind {
            ExprKind::PtrDiff(..) => true,
            ExprKind::Binary(op, a, _) => {
                matches!(
                    op,
                    crate::program::BinOp::Lt
                        | crate::program::BinOp::Le
                        | crate::program::BinOp::Gt
                        | crate::program::BinOp::Ge
                ) && a.ty.pointee().is_some()
            }
            _ => false,
        };
    });
    found
}
