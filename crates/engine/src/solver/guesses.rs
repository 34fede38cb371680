//! A query about one integer symbol (most parts of a path, once slicing
//! has split it: a node's key, a length's bounds) first tries a few
//! values in a model of its own: 0, 1, -1, then the numbers its
//! constraints compare with and their neighbours. A value every
//! constraint holds for is the answer, and a readable one; Z3 is asked
//! only when none does. Each try costs an evaluation per constraint, where
//! the smallest Z3 check costs about a millisecond (its set-up). Guesses
//! only ever find models: that none fits says nothing.

use super::query::{Answer, Context, Effort, Query, QuerySolver};
use super::store::{ConstraintId, ConstraintStore};
use crate::stable_hash::StableHashSet;
use crate::value::{bv_u, concrete_term};
use z3::ast::{Ast, Dynamic};
use z3::{DeclKind, Model};

/// Most numbers taken from the constraints: each gives three values.
const MAX_NUMBERS: usize = 8;

pub struct ValueGuesses {
    inner: Box<dyn QuerySolver>,
}

impl ValueGuesses {
    pub fn new(inner: Box<dyn QuerySolver>) -> ValueGuesses {
        ValueGuesses { inner }
    }
}

impl QuerySolver for ValueGuesses {
    fn solve(&mut self, query: &Query, cx: &mut Context) -> Answer {
        if query.transient.is_some() || query.effort == Effort::KnownOnly {
            return self.inner.solve(query, cx);
        }
        match guessed_model(cx.store, query.constraints) {
            Some(model) => {
                cx.counts.from_guesses += 1;
                Answer::Sat(query.wants_model.then_some(model))
            }
            None => self.inner.solve(query, cx),
        }
    }
}

/// A model of `ids` when they mention one integer symbol and one of the
/// guesses satisfies them all.
fn guessed_model(store: &ConstraintStore, ids: &[ConstraintId]) -> Option<Model> {
    let [symbol] = store.symbols_of(ids)[..] else {
        return None;
    };
    if store.is_float_symbol(symbol) {
        return None;
    }
    let x = store.symbol(symbol);
    let bits = x.get_size();
    let mut tried = StableHashSet::default();
    let mut values = vec![0, 1, u128::MAX];
    for n in numbers_in(store, ids) {
        values.extend([n, n.wrapping_add(1), n.wrapping_sub(1)]);
    }
    values.into_iter().find_map(|v| {
        let value = bv_u(v, bits);
        if !tried.insert(value.clone()) {
            return None;
        }
        let model = Model::new();
        model.add_const_interp(&x.decl(), &value);
        let holds = ids.iter().all(|id| {
            model
                .eval(store.constraint(*id), true)
                .and_then(|b| b.as_bool())
                == Some(true)
        });
        holds.then_some(model)
    })
}

/// The numbers the constraints `ids` use, as bits (sign-extended from
/// their width, so that -3 compared in 33 bits is -3 in 32), the first
/// [`MAX_NUMBERS`] met.
pub(super) fn numbers_in(store: &ConstraintStore, ids: &[ConstraintId]) -> Vec<u128> {
    let mut numbers = Vec::new();
    let mut seen = StableHashSet::default();
    let mut stack: Vec<Dynamic> = ids
        .iter()
        .map(|id| Dynamic::from_ast(store.constraint(*id)))
        .collect();
    while let Some(term) = stack.pop() {
        if numbers.len() == MAX_NUMBERS || !seen.insert(term.clone()) {
            continue;
        }
        let numeral = term.safe_decl().is_ok_and(|d| d.kind() == DeclKind::Bnum);
        match term.as_bv().filter(|_| numeral) {
            Some(bv) => {
                if let Some(n) = concrete_term(&bv) {
                    numbers.push(sign_extended(n, bv.get_size()));
                }
            }
            None => stack.extend(term.children()),
        }
    }
    numbers
}

fn sign_extended(n: u128, bits: u32) -> u128 {
    if bits == 0 || bits >= 128 || n >> (bits - 1) & 1 == 0 {
        return n;
    }
    n | (u128::MAX << bits)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::testing::{feasibility, number, probe_over_z3, symbol, Bed};
    use z3::ast::BV;

    #[test]
    fn a_value_the_constraints_name_answers_without_z3() {
        let mut bed = Bed::default();
        let key = symbol("key");
        let named = bed.intern(&key.eq(number(18)));
        let (probe, log) = probe_over_z3();
        let mut layer = ValueGuesses::new(probe);
        let only = [named];
        let query = Query {
            wants_model: true,
            ..feasibility(&only)
        };
        let Answer::Sat(Some(model)) = bed.ask(&mut layer, &query) else {
            panic!("key == 18 has a model");
        };
        assert_eq!(model.eval(&key, true).and_then(|v| v.as_u64()), Some(18));
        assert!(log.borrow().is_empty());
        assert_eq!(bed.counts.from_guesses, 1);
    }

    #[test]
    fn negative_numbers_and_bounds_are_guessed_too() {
        let mut bed = Bed::default();
        let x = symbol("x");
        let wide = x.sign_ext(1);
        let below = bed.intern(&wide.bvslt(BV::from_i64(-3, 33)));
        let above = bed.intern(&wide.bvsgt(BV::from_i64(-5, 33)));
        let (probe, log) = probe_over_z3();
        let mut layer = ValueGuesses::new(probe);
        let both = [below, above];
        let query = Query {
            wants_model: true,
            ..feasibility(&both)
        };
        let Answer::Sat(Some(model)) = bed.ask(&mut layer, &query) else {
            panic!("-4 fits");
        };
        let bits = model.eval(&x, true).and_then(|v| v.as_u64());
        assert_eq!(bits, Some(u64::from(-4i32 as u32)));
        assert!(log.borrow().is_empty());
    }

    #[test]
    fn two_symbols_or_no_fitting_guess_go_to_z3() {
        let mut bed = Bed::default();
        let (x, y) = (symbol("x"), symbol("y"));
        let linked = bed.intern(&x.bvugt(&y));
        let odd = bed.intern(&x.bvmul(number(3)).eq(number(1_000_000)));
        let (probe, log) = probe_over_z3();
        let mut layer = ValueGuesses::new(probe);
        assert!(bed.ask(&mut layer, &feasibility(&[linked])).is_sat());
        bed.ask(&mut layer, &feasibility(&[odd]));
        assert_eq!(log.borrow().len(), 2);
        assert_eq!(bed.counts.from_guesses, 0);
    }
}
