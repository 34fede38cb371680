//! Independence slicing: when a query is a satisfiable set plus one added
//! constraint, only the constraints linked to the added one by shared
//! symbols, directly or through others, can make it unsatisfiable, so only
//! they are asked (smaller queries, and more of them alike for the cache).

use super::query::{Answer, Context, Query, QuerySolver};
use super::store::{ConstraintId, ConstraintStore, SymbolId};
use crate::stable_hash::StableHashSet;

pub struct IndependenceSlicing {
    inner: Box<dyn QuerySolver>,
}

impl IndependenceSlicing {
    pub fn new(inner: Box<dyn QuerySolver>) -> IndependenceSlicing {
        IndependenceSlicing { inner }
    }
}

impl QuerySolver for IndependenceSlicing {
    /// A wanted model must satisfy every constraint, so such a query is
    /// asked whole.
    fn solve(&mut self, query: &Query, cx: &mut Context) -> Answer {
        let added = match query.added {
            Some(added) if !query.wants_model && query.transient.is_none() => added,
            _ => return self.inner.solve(query, cx),
        };
        let mut slice = linked(cx.store, query.constraints, added);
        slice.push(added);
        slice.sort_unstable();
        let sliced = Query {
            constraints: &slice,
            ..*query
        };
        self.inner.solve(&sliced, cx)
    }
}

/// The constraints of `ids` linked to constraint `to` by shared symbols.
fn linked(store: &ConstraintStore, ids: &[ConstraintId], to: ConstraintId) -> Vec<ConstraintId> {
    let mut reached: StableHashSet<SymbolId> = store.symbols(to).iter().copied().collect();
    let mut rest: Vec<ConstraintId> = ids.iter().copied().filter(|id| *id != to).collect();
    let mut slice = Vec::new();
    loop {
        let before = slice.len();
        rest.retain(|id| {
            let symbols = store.symbols(*id);
            let linked = symbols.iter().any(|x| reached.contains(x));
            if linked {
                reached.extend(symbols.iter().copied());
                slice.push(*id);
            }
            !linked
        });
        if slice.len() == before {
            return slice;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::testing::{feasibility, number, probe_over_z3, symbol, Bed};

    #[test]
    fn only_constraints_linked_to_the_added_one_are_asked() {
        let mut bed = Bed::default();
        let (x, y, z) = (symbol("x"), symbol("y"), symbol("z"));
        let on_x = bed.intern(&x.bvugt(number(1)));
        let on_y = bed.intern(&y.bvugt(number(1)));
        let linking_x_z = bed.intern(&x.bvult(&z));
        let added = bed.intern(&z.bvult(number(10)));
        let (probe, log) = probe_over_z3();
        let mut slicing = IndependenceSlicing::new(probe);
        let path = [on_x, on_y, linking_x_z, added];
        let query = Query {
            added: Some(added),
            ..feasibility(&path)
        };
        assert!(bed.ask(&mut slicing, &query).is_sat());
        assert_eq!(log.borrow()[0].constraints, [on_x, linking_x_z, added]);
        // A model must satisfy the whole path.
        let model_query = Query {
            wants_model: true,
            ..query
        };
        bed.ask(&mut slicing, &model_query);
        assert_eq!(log.borrow()[1].constraints, path);
    }
}
