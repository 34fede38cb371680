//! Independence slicing: a query is split in parts that share no symbol
//! (constraints linked by shared symbols, directly or through others), and
//! the parts are asked one by one: smaller queries, and the same ones again
//! and again, which the cache below answers. Paths that share a prefix
//! share its parts, so a path one node longer asks about what the node
//! added. When the query is a satisfiable set plus one added constraint,
//! only the added one's part can make it unsatisfiable, and only it is
//! asked; a wanted model is made of the parts' models.

use super::query::{Answer, Context, Query, QuerySolver};
use super::store::{ConstraintId, ConstraintStore, SymbolId};
use crate::stable_hash::{StableHashMap, StableHashSet};
use testcase::SolverCounts;
use z3::ast::{Ast, BV};
use z3::Model;

pub struct IndependenceSlicing {
    /// The values of a model of each part asked for one: paths that share
    /// a prefix ask its parts again and again.
    part_values: StableHashMap<Vec<ConstraintId>, Vec<(BV, BV)>>,
    inner: Box<dyn QuerySolver>,
}

impl IndependenceSlicing {
    pub fn new(inner: Box<dyn QuerySolver>) -> IndependenceSlicing {
        IndependenceSlicing {
            part_values: StableHashMap::default(),
            inner,
        }
    }
}

impl QuerySolver for IndependenceSlicing {
    fn solve(&mut self, query: &Query, cx: &mut Context) -> Answer {
        if query.transient.is_some() {
            return self.inner.solve(query, cx);
        }
        if let Some(added) = query.added.filter(|_| !query.wants_model) {
            let mut part = linked(cx.store, query.constraints, added);
            part.push(added);
            part.sort_unstable();
            let sliced = Query {
                constraints: &part,
                ..*query
            };
            return self.inner.solve(&sliced, cx);
        }
        // A model is made of its parts' values even when it has one part:
        // they are kept for the next question.
        let parts = independent_parts(cx.store, query.constraints);
        if !query.wants_model && parts.len() == 1 {
            return self.inner.solve(query, cx);
        }
        let (counts_before, calls_before) = (*cx.counts, *cx.calls);
        let answer = self.solve_parts(query, &parts, cx);
        count_as_one_question(cx, counts_before, calls_before);
        answer
    }
}

impl IndependenceSlicing {
    fn solve_parts(
        &mut self,
        query: &Query,
        parts: &[Vec<ConstraintId>],
        cx: &mut Context,
    ) -> Answer {
        let whole = query.wants_model.then(Model::new);
        for part in parts {
            if let (Some(whole), Some(values)) = (&whole, self.part_values.get(part)) {
                cx.counts.from_cache += 1;
                for (symbol, value) in values {
                    whole.add_const_interp(&symbol.decl(), value);
                }
                continue;
            }
            let asked = Query {
                constraints: part,
                added: query.added.filter(|added| part.contains(added)),
                ..*query
            };
            match (self.inner.solve(&asked, cx), &whole) {
                (Answer::Sat(Some(model)), Some(whole)) => {
                    let values = values_in(&model, part, cx.store);
                    for (symbol, value) in &values {
                        whole.add_const_interp(&symbol.decl(), value);
                    }
                    self.part_values.insert(part.clone(), values);
                }
                (Answer::Sat(_), None) => {}
                (Answer::Sat(None), Some(_)) => return self.inner.solve(query, cx),
                (unsat_or_unknown, _) => return unsat_or_unknown,
            }
        }
        Answer::Sat(whole)
    }
}

/// The value `model` gives each symbol of `part`.
fn values_in(model: &Model, part: &[ConstraintId], store: &ConstraintStore) -> Vec<(BV, BV)> {
    store
        .symbols_of(part)
        .into_iter()
        .filter_map(|n| {
            let symbol = store.symbol(n);
            Some((symbol.clone(), model.eval(symbol, true)?))
        })
        .collect()
}

/// The layers below count the parts they answered; a question asked in
/// parts counts once: answered without Z3 when no part reached it, by the
/// guesses when any part was, else by the last model when any part was,
/// else by the cache.
fn count_as_one_question(cx: &mut Context, before: SolverCounts, calls_before: u64) {
    let after = *cx.counts;
    *cx.counts = SolverCounts {
        from_cache: before.from_cache,
        from_last_model: before.from_last_model,
        from_guesses: before.from_guesses,
        ..after
    };
    if *cx.calls != calls_before {
        return;
    }
    if after.from_guesses > before.from_guesses {
        cx.counts.from_guesses += 1;
    } else if after.from_last_model > before.from_last_model {
        cx.counts.from_last_model += 1;
    } else if after.from_cache > before.from_cache {
        cx.counts.from_cache += 1;
    }
}

/// `ids` split in parts that share no symbol, each as small as that
/// allows: in the order of their first constraints, each sorted.
fn independent_parts(store: &ConstraintStore, ids: &[ConstraintId]) -> Vec<Vec<ConstraintId>> {
    // Union-find over the positions in `ids`: a part is named by its first.
    let mut merged_into: Vec<usize> = (0..ids.len()).collect();
    let root = |merged_into: &[usize], mut i: usize| {
        while merged_into[i] != i {
            i = merged_into[i];
        }
        i
    };
    let mut first_with: StableHashMap<SymbolId, usize> = StableHashMap::default();
    for (i, id) in ids.iter().enumerate() {
        for n in store.symbols(*id) {
            let other = *first_with.entry(*n).or_insert(i);
            let (a, b) = (root(&merged_into, other), root(&merged_into, i));
            merged_into[a.max(b)] = a.min(b);
        }
    }
    let mut parts: Vec<Vec<ConstraintId>> = Vec::new();
    let mut part_at: StableHashMap<usize, usize> = StableHashMap::default();
    for (i, id) in ids.iter().enumerate() {
        let at = *part_at.entry(root(&merged_into, i)).or_insert_with(|| {
            parts.push(Vec::new());
            parts.len() - 1
        });
        parts[at].push(*id);
    }
    parts
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
        // A model must satisfy the whole path: every part is asked.
        let model_query = Query {
            wants_model: true,
            ..query
        };
        let Answer::Sat(Some(model)) = bed.ask(&mut slicing, &model_query) else {
            panic!("the path is satisfiable");
        };
        assert_eq!(log.borrow()[1].constraints, [on_x, linking_x_z, added]);
        assert_eq!(log.borrow()[2].constraints, [on_y]);
        for c in path {
            let holds = model.eval(bed.store.constraint(c), true);
            assert_eq!(holds.and_then(|b| b.as_bool()), Some(true));
        }
    }

    #[test]
    fn a_question_asked_in_parts_counts_once() {
        let mut bed = Bed::default();
        let before = bed.counts;
        bed.counts.from_cache += 3;
        bed.counts.from_guesses += 1;
        bed.counts.asked += 1;
        let mut cx = Context {
            store: &bed.store,
            calls: &mut bed.calls,
            counts: &mut bed.counts,
            gave_up: &mut bed.gave_up,
        };
        count_as_one_question(&mut cx, before, 0);
        assert_eq!((bed.counts.from_cache, bed.counts.from_guesses), (0, 1));
        assert_eq!(bed.counts.asked, 1);
    }

    #[test]
    fn a_path_without_an_added_constraint_is_asked_part_by_part() {
        let mut bed = Bed::default();
        let (x, y) = (symbol("x"), symbol("y"));
        let x_low = bed.intern(&x.bvult(number(4)));
        let y_high = bed.intern(&y.bvugt(number(7)));
        let x_high = bed.intern(&x.bvugt(number(9)));
        let (probe, log) = probe_over_z3();
        let mut slicing = IndependenceSlicing::new(probe);
        assert!(bed
            .ask(&mut slicing, &feasibility(&[x_low, y_high]))
            .is_sat());
        let contradiction = [x_low, y_high, x_high];
        assert!(matches!(
            bed.ask(&mut slicing, &feasibility(&contradiction)),
            Answer::Unsat
        ));
        let asked: Vec<Vec<ConstraintId>> =
            log.borrow().iter().map(|q| q.constraints.clone()).collect();
        assert_eq!(asked, [vec![x_low], vec![y_high], vec![x_low, x_high]]);
    }
}
