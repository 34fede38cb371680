//! Models found by evaluation near a known one, without a Z3 check: the
//! known values of a path's symbols are changed one symbol at a time (or
//! two together), and a change is kept only when every constraint of the
//! path that mentions a changed symbol still has its truth value (put in,
//! simplified to a constant). Two uses:
//! - readable values: each input moved toward zero while the path still
//!   holds (a bisection between zero and its value), where asking Z3 for
//!   small values took seconds on a path through 64-bit quotients (the
//!   wish's circuits are those of the path);
//! - a fault on a candidate's path: its symbols set to edge values (0,
//!   +-1, the extremes of their width, the numbers the failing constraints
//!   name and their neighbours), before Z3 is asked.
//!
//! Evaluation only ever finds models: a change that does not simplify to
//! the wanted truth value is not kept.

use super::guesses::numbers_in;
use super::store::{ConstraintId, ConstraintStore, SymbolId};
use crate::value::{bv_u, concrete_term, sign_extend};
use std::collections::BTreeMap;
use z3::ast::{Ast, BV};
use z3::Model;

/// Most evaluations of one constraint one search may make: it stays a
/// small fraction of a Z3 check (a few microseconds each).
const MOST_EVALUATIONS: u32 = 2_000;

/// Most symbols whose edge values are tried together.
const MOST_FAULT_SYMBOLS: usize = 2;

/// A symbol whose value the search may move toward zero: signed or not
/// (in C), and how near zero is near enough.
pub(super) struct Movable {
    pub symbol: SymbolId,
    pub signed: bool,
    pub near: u128,
}

pub(super) struct Nearby<'s> {
    store: &'s ConstraintStore,
    /// The constraints to keep, each with the truth value it must have.
    kept: Vec<(ConstraintId, bool)>,
    values: BTreeMap<SymbolId, BV>,
    evaluations: u32,
}

impl<'s> Nearby<'s> {
    /// A search from `values`, which give each of the symbols of `kept`
    /// (constraints with the truth value each must keep) one value.
    pub fn new(
        store: &'s ConstraintStore,
        kept: Vec<(ConstraintId, bool)>,
        values: BTreeMap<SymbolId, BV>,
    ) -> Nearby<'s> {
        Nearby {
            store,
            kept,
            values,
            evaluations: 0,
        }
    }

    /// The values of a model, for every symbol of `kept`.
    pub fn values_of(
        store: &ConstraintStore,
        kept: &[(ConstraintId, bool)],
        model: &Model,
    ) -> BTreeMap<SymbolId, BV> {
        let ids: Vec<ConstraintId> = kept.iter().map(|(id, _)| *id).collect();
        (store.symbols_of(&ids).into_iter())
            .filter_map(|n| Some((n, model.eval(store.symbol(n), true)?)))
            .collect()
    }

    /// Whether every kept constraint has its truth value.
    pub fn all_hold(&mut self) -> bool {
        let kept = self.kept.clone();
        kept.iter()
            .all(|(id, truth)| self.evaluate(*id) == Some(*truth))
    }

    /// The values as a model (no Z3 check).
    pub fn model(&self) -> Model {
        model_of(self.store, &self.values)
    }

    /// Moves each of `inputs` toward zero, as far as the kept constraints
    /// allow, until it is near enough: by bisection between zero (or the
    /// last value refused) and the last value kept.
    pub fn shrink(&mut self, inputs: &[Movable]) {
        for input in inputs {
            let Some(start) = self.signed_value(input) else {
                continue;
            };
            let (mut refused, mut kept) = (0i128, start);
            while kept.unsigned_abs() > input.near && (kept - refused).unsigned_abs() > 1 {
                if self.out_of_evaluations() {
                    return;
                }
                let middle = refused + (kept - refused) / 2;
                if self.try_values(&[(input.symbol, middle as u128)]) {
                    kept = middle;
                } else {
                    refused = middle;
                }
            }
        }
    }

    /// Tries edge values for the symbols of the constraints that do not
    /// have their truth value (at most [`MOST_FAULT_SYMBOLS`] of them,
    /// every combination); true when one makes every constraint hold.
    pub fn try_edges(&mut self) -> bool {
        let failing: Vec<ConstraintId> = (self.kept.clone().into_iter())
            .filter(|(id, truth)| self.evaluate(*id) != Some(*truth))
            .map(|(id, _)| id)
            .collect();
        let symbols = self.store.symbols_of(&failing);
        if symbols.is_empty() || symbols.len() > MOST_FAULT_SYMBOLS {
            return false;
        }
        let numbers = numbers_in(self.store, &failing);
        let choices: Vec<Vec<u128>> = (symbols.iter())
            .map(|n| edge_values(self.store.symbol(*n).get_size(), &numbers))
            .collect();
        let mut at = vec![0; symbols.len()];
        loop {
            let values: Vec<(SymbolId, u128)> = (symbols.iter().zip(&at))
                .enumerate()
                .map(|(i, (n, k))| (*n, choices[i][*k]))
                .collect();
            if self.try_values(&values) && self.all_hold() {
                return true;
            }
            if self.out_of_evaluations() || !next_combination(&mut at, &choices) {
                return false;
            }
        }
    }

    fn out_of_evaluations(&self) -> bool {
        self.evaluations >= MOST_EVALUATIONS
    }

    /// The value of `input`, read with its signedness; `None` when it has none.
    fn signed_value(&self, input: &Movable) -> Option<i128> {
        let value = self.values.get(&input.symbol)?;
        let bits = value.get_size();
        Some(sign_extend(concrete_term(value)?, bits, input.signed))
    }

    /// Sets the symbols to the values (bits) when every kept constraint
    /// mentioning one of them then keeps its truth value.
    fn try_values(&mut self, changes: &[(SymbolId, u128)]) -> bool {
        let before: Vec<(SymbolId, Option<BV>)> = (changes.iter())
            .map(|(n, value)| {
                let bits = self.store.symbol(*n).get_size();
                (*n, self.values.insert(*n, bv_u(*value, bits)))
            })
            .collect();
        let kept = self.kept.clone();
        let holds = (kept.iter())
            .filter(|(id, _)| {
                let mentioned = self.store.symbols(*id);
                changes.iter().any(|(n, _)| mentioned.contains(n))
            })
            .all(|(id, truth)| self.evaluate(*id) == Some(*truth));
        if !holds {
            for (n, old) in before {
                match old {
                    Some(old) => self.values.insert(n, old),
                    None => self.values.remove(&n),
                };
            }
        }
        holds
    }

    /// The truth value of constraint `id` under the values, when it
    /// simplifies to one.
    fn evaluate(&mut self, id: ConstraintId) -> Option<bool> {
        self.evaluations += 1;
        let pairs: Vec<(&BV, &BV)> = (self.store.symbols(id).iter())
            .filter_map(|n| Some((self.store.symbol(*n), self.values.get(n)?)))
            .collect();
        self.store
            .constraint(id)
            .substitute(&pairs)
            .simplify()
            .as_bool()
    }
}

/// `values` as a model (no Z3 check).
pub(super) fn model_of(store: &ConstraintStore, values: &BTreeMap<SymbolId, BV>) -> Model {
    let model = Model::new();
    for (n, value) in values {
        model.add_const_interp(&store.symbol(*n).decl(), value);
    }
    model
}

/// Edge values of a `bits`-wide symbol, as bits: 0, 1, -1, the extremes of
/// the signed range, and `numbers` (sign-extended) with their neighbours.
fn edge_values(bits: u32, numbers: &[u128]) -> Vec<u128> {
    let mask = if bits >= 128 {
        u128::MAX
    } else {
        (1u128 << bits) - 1
    };
    let min = 1u128 << (bits.clamp(1, 128) - 1);
    let mut values = vec![0, 1, u128::MAX, min, min.wrapping_sub(1)];
    for n in numbers {
        values.extend([*n, n.wrapping_add(1), n.wrapping_sub(1)]);
    }
    let mut seen = Vec::new();
    for v in values {
        let v = v & mask;
        if !seen.contains(&v) {
            seen.push(v);
        }
    }
    seen
}

/// Advances `at` (one index per list of `choices`) to the next
/// combination; false after the last.
fn next_combination(at: &mut [usize], choices: &[Vec<u128>]) -> bool {
    for (i, index) in at.iter_mut().enumerate() {
        *index += 1;
        if *index < choices[i].len() {
            return true;
        }
        *index = 0;
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use z3::ast::Bool;

    fn symbol(name: &str) -> BV {
        BV::new_const(name, 64)
    }

    fn number(n: i64) -> BV {
        BV::from_i64(n, 64)
    }

    /// The store with `constraints`, each to hold, and the values given.
    fn search<'s>(
        store: &'s mut ConstraintStore,
        constraints: &[Bool],
        values: &[(&str, i64)],
    ) -> Nearby<'s> {
        let kept: Vec<(ConstraintId, bool)> = constraints
            .iter()
            .map(|c| (store.intern(c), true))
            .collect();
        let model = Model::new();
        for (name, value) in values {
            model.add_const_interp(&symbol(name).decl(), &number(*value));
        }
        let values = Nearby::values_of(store, &kept, &model);
        Nearby::new(store, kept, values)
    }

    fn value_of(nearby: &Nearby, name: &str) -> i64 {
        let model = nearby.model();
        let value = model.eval(&symbol(name), true).and_then(|v| v.as_u64());
        value.expect("a number") as i64
    }

    #[test]
    fn inputs_move_toward_zero_while_the_path_holds() {
        let (a, b) = (symbol("a"), symbol("b"));
        // A path through a quotient: b != 0, a / b <= 0, b * (a / b) <= a.
        let quotient = a.bvsdiv(&b);
        let path = [
            b.eq(number(0)).not(),
            quotient.bvsle(number(0)),
            b.bvmul(&quotient).bvsle(&a),
            a.bvsgt(number(1000)),
        ];
        let mut store = ConstraintStore::default();
        let mut nearby = search(
            &mut store,
            &path,
            &[("a", 5_000_000), ("b", 5660943028384039694)],
        );
        assert!(nearby.all_hold());
        let inputs: Vec<Movable> = (0..2)
            .map(|symbol| Movable {
                symbol,
                signed: true,
                near: 100,
            })
            .collect();
        nearby.shrink(&inputs);
        assert!(nearby.all_hold());
        assert_eq!(value_of(&nearby, "a"), 1001);
        assert!(
            value_of(&nearby, "b").abs() > 1001,
            "a / b <= 0 needs |b| > a"
        );
        assert!(value_of(&nearby, "b") < 5660943028384039694);
    }

    #[test]
    fn a_fault_needing_two_edge_values_is_found() {
        let (a, b) = (symbol("a"), symbol("b"));
        let overflow = Bool::and(&[a.eq(number(i64::MIN)), b.eq(number(-1))]);
        let mut store = ConstraintStore::default();
        let path = [b.eq(number(0)).not(), overflow];
        let mut nearby = search(&mut store, &path, &[("a", 12), ("b", 7)]);
        assert!(!nearby.all_hold());
        assert!(nearby.try_edges());
        assert_eq!(value_of(&nearby, "a"), i64::MIN);
        assert_eq!(value_of(&nearby, "b"), -1);
    }

    #[test]
    fn a_fault_no_edge_value_meets_is_left_to_the_solver() {
        let a = symbol("a");
        let mut store = ConstraintStore::default();
        let path = [a.bvmul(&a).eq(number(49))];
        let mut nearby = search(&mut store, &path, &[("a", 12)]);
        assert!(!nearby.try_edges());
        assert_eq!(value_of(&nearby, "a"), 12);
    }
}
