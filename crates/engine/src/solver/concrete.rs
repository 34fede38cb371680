//! Concrete mode (issue 11, cheap inputs first): while an input-value
//! oracle is set, every input symbol has one value, the oracle's for its
//! name, taken when a constraint first mentions it, and whether a path is feasible is
//! answered by evaluating its constraints under those values (substituted,
//! then simplified to a constant) instead of a Z3 check. A branch then has
//! exactly one arm: the executor follows the one path of those inputs. A
//! model of a path the values satisfy is the values; of one they do not (a
//! possible fault on the candidate's path), the solver's, as without the mode.
//!
//! A constraint that does not simplify to a constant counts as false: the
//! mode only ever finds paths, it never proves one infeasible.

use super::store::{ConstraintId, ConstraintStore, SymbolId};
use crate::stable_hash::{StableHashMap, StableHashSet};
use std::collections::BTreeMap;
use std::rc::Rc;
use z3::ast::{Ast, Bool, BV};

/// Questions one run asks the solver about possible faults its values do
/// not hit. A run over a whole buffer meets one at each product (1,440 in
/// a speech frame's autocorrelation, at 10 to 250 ms each): past these the
/// symbolic search asks on its own paths, and the candidates go on.
const MOST_ASKS: usize = 16;

/// Chooses the value of each input symbol in concrete mode. A value
/// depends on the symbol's name alone, never on the order symbols are met:
/// a run whose inputs are native numbers ([`crate::state::State::native_inputs`])
/// and a run in concrete mode then give the same input the same values.
pub trait ValueOracle {
    /// Bits for the input symbol named `name`, of `bits` bits; `float` when
    /// the code reads them as a `float` or `double`.
    fn value(&self, name: &str, bits: u32, float: bool) -> u128;
}

/// The name of the symbol `symbol`, as its oracle knows it.
pub fn symbol_name(symbol: &BV) -> String {
    symbol.decl().name()
}

/// The values chosen so far, and which constraints they satisfy.
pub(super) struct Assignment {
    oracle: Rc<dyn ValueOracle>,
    /// By symbol number: the model of a test lists them in that order.
    values: BTreeMap<SymbolId, BV>,
    holds: StableHashMap<ConstraintId, bool>,
    /// The conditions the values refuted: the executor took the other way
    /// without a constraint (this one being "infeasible"), a decision a
    /// model the solver finds must respect too.
    refuted: Vec<ConstraintId>,
    /// The sets of constraints the values fail that the solver was asked
    /// about (a possible fault on a candidate's path): once each.
    asked: StableHashSet<Vec<ConstraintId>>,
}

impl Assignment {
    pub(super) fn new(oracle: Rc<dyn ValueOracle>) -> Assignment {
        Assignment {
            oracle,
            values: BTreeMap::new(),
            holds: StableHashMap::default(),
            refuted: Vec::new(),
            asked: StableHashSet::default(),
        }
    }

    /// The oracle's value of `symbol`.
    pub(super) fn oracle_value(&self, symbol: &BV, float: bool) -> u128 {
        self.oracle
            .value(&symbol_name(symbol), symbol.get_size(), float)
    }

    /// Whether every constraint of `ids` holds under the values.
    pub(super) fn all_hold(&mut self, store: &ConstraintStore, ids: &[ConstraintId]) -> bool {
        ids.iter().all(|id| self.holds(store, *id))
    }

    /// Whether the path `key` holds with `added`, its newest constraint,
    /// noting `added` as refuted when only it fails.
    pub(super) fn holds_with(
        &mut self,
        store: &ConstraintStore,
        key: &[ConstraintId],
        added: Option<ConstraintId>,
    ) -> bool {
        if self.all_hold(store, key) {
            return true;
        }
        if let Some(added) = added {
            let rest: Vec<ConstraintId> = key.iter().copied().filter(|c| *c != added).collect();
            if self.all_hold(store, &rest) && !self.refuted.contains(&added) {
                self.refuted.push(added);
            }
        }
        false
    }

    /// Whether the solver is to be asked about `key`, which the values fail:
    /// only the first time the same constraints fail (the same possible
    /// fault on the same path), as the symbolic search would ask once, and
    /// at most [`MOST_ASKS`] times a run.
    pub(super) fn first_ask(&mut self, store: &ConstraintStore, key: &[ConstraintId]) -> bool {
        if self.asked.len() >= MOST_ASKS {
            return false;
        }
        let failing: Vec<ConstraintId> = key
            .iter()
            .copied()
            .filter(|c| !self.holds(store, *c))
            .collect();
        self.asked.insert(failing)
    }

    /// Every decision the values made: [`Self::refuted`].
    pub(super) fn decisions(&self, store: &ConstraintStore) -> Bool {
        let each: Vec<Bool> = (self.refuted.iter())
            .map(|id| store.constraint(*id).not())
            .collect();
        Bool::and(&each)
    }

    /// The constraints of `key`, each to hold, and the refuted ones, each
    /// not to: what a model of the candidate's path meets.
    pub(super) fn path_of(&self, key: &[ConstraintId]) -> Vec<(ConstraintId, bool)> {
        let holding = key.iter().map(|id| (*id, true));
        holding
            .chain(self.refuted.iter().map(|id| (*id, false)))
            .collect()
    }

    /// The values chosen so far, by symbol.
    pub(super) fn values(&self) -> &BTreeMap<SymbolId, BV> {
        &self.values
    }

    /// The oracle's value of `symbol` (numbered `id` once a constraint
    /// mentions it), read as a float where the code reads it as one.
    fn oracle_bits(&self, store: &ConstraintStore, symbol: &BV, id: Option<SymbolId>) -> BV {
        let float = id.is_some_and(|n| store.is_float_symbol(n));
        crate::value::bv_u(self.oracle_value(symbol, float), symbol.get_size())
    }

    /// The value of `term` under the values (the oracle's for symbols no
    /// constraint mentions yet), when it simplifies to a number.
    pub(super) fn value_of_term(&self, store: &ConstraintStore, term: &BV) -> Option<u128> {
        let symbols = super::store::symbols_in(term);
        let values: Vec<BV> = (symbols.iter())
            .map(|symbol| {
                let id = store.symbol_id_of(symbol);
                match id.and_then(|n| self.values.get(&n)) {
                    Some(value) => value.clone(),
                    None => self.oracle_bits(store, symbol, id),
                }
            })
            .collect();
        let pairs: Vec<(&BV, &BV)> = symbols.iter().zip(&values).collect();
        crate::value::concrete_term(&term.substitute(&pairs).simplify())
    }

    fn holds(&mut self, store: &ConstraintStore, id: ConstraintId) -> bool {
        if let Some(known) = self.holds.get(&id) {
            return *known;
        }
        for n in store.symbols(id) {
            if !self.values.contains_key(n) {
                let value = self.oracle_bits(store, store.symbol(*n), Some(*n));
                self.values.insert(*n, value);
            }
        }
        let pairs: Vec<(&BV, &BV)> = store
            .symbols(id)
            .iter()
            .filter_map(|n| Some((store.symbol(*n), self.values.get(n)?)))
            .collect();
        let value = store.constraint(id).substitute(&pairs).simplify().as_bool() == Some(true);
        self.holds.insert(id, value);
        value
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Gives each symbol the value listed for its name.
    struct Listed(Vec<(&'static str, u128)>);

    impl ValueOracle for Listed {
        fn value(&self, name: &str, _bits: u32, _float: bool) -> u128 {
            let (_, value) = self.0.iter().find(|(n, _)| *n == name).expect("listed");
            *value
        }
    }

    #[test]
    fn a_symbol_is_named_as_the_path_named_it() {
        let name = "list->next[1].key#12";
        assert_eq!(symbol_name(&BV::new_const(name, 32)), name);
    }

    #[test]
    fn evaluates_nonlinear_constraints_under_the_values() {
        let mut store = ConstraintStore::default();
        let x = BV::new_const("x", 32);
        let cube = x.bvmul(&x).bvmul(&x);
        let root = store.intern(&cube.eq(BV::from_u64(8, 32)));
        let positive = store.intern(&x.bvsgt(BV::from_u64(0, 32)));
        let mut two = Assignment::new(Rc::new(Listed(vec![("x", 2)])));
        assert!(two.all_hold(&store, &[root, positive]));
        let mut three = Assignment::new(Rc::new(Listed(vec![("x", 3)])));
        assert!(!three.all_hold(&store, &[positive, root]));
        assert!(three.all_hold(&store, &[positive]));
    }

    #[test]
    fn values_follow_the_names_not_the_order_symbols_are_met() {
        let mut store = ConstraintStore::default();
        let x = BV::new_const("x", 8);
        let y = BV::new_const("y", 8);
        let first = store.intern(&x.bvult(BV::from_u64(4, 8)));
        let second = store.intern(&y.bvugt(&x));
        let mut values = Assignment::new(Rc::new(Listed(vec![("y", 5), ("x", 1)])));
        assert!(values.all_hold(&store, &[first, second]));
        let model = super::super::nearby::model_of(&store, values.values());
        let value = |v: &BV| model.eval(v, true).and_then(|n| n.as_u64());
        assert_eq!((value(&x), value(&y)), (Some(1), Some(5)));
    }
}
