//! The program's state: the globals its own code can change. A unit test
//! may start such a global at any value the type allows (the code may have
//! left it there); a global no code writes keeps its initializer.

use crate::program::{ConstValue, ExprKind, GlobalId, Init, PlaceBase, Program};
use crate::walk::{operands, place_expressions, subexpressions, Operand};
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
    let mut address_taken = |e: &crate::program::Expr| {
        if let ExprKind::AddrOf(place) = &e.kind {
            if let PlaceBase::Global(g) = place.base {
                written.insert(g);
            }
        }
    };
    let mut assigned = Vec::new();
    for body in program.functions.iter().filter_map(|f| f.body.as_ref()) {
        operands(body, |operand| match operand {
            Operand::Assigned(place) => {
                if let PlaceBase::Global(g) = place.base {
                    assigned.push(g);
                }
                place_expressions(place, &mut address_taken);
            }
            Operand::Evaluated(e) => subexpressions(e, &mut address_taken),
            Operand::Called(_) => {}
        });
    }
    written.extend(assigned);
    written
}
