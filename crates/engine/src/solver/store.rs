//! Every constraint of every path, interned once, with what the solver's
//! layers need to know about it: a literal naming it, the input symbols it
//! mentions (for slicing) and whether it has nonlinear arithmetic.

use std::collections::{HashMap, HashSet};
use z3::ast::{Ast, Bool, Dynamic, BV};

/// Index of an interned constraint; a path condition is a list of them.
pub type ConstraintId = u32;

/// Index of an input symbol among those the constraints mention.
pub type SymbolId = u32;

#[derive(Default)]
pub struct ConstraintStore {
    constraints: Vec<Bool>,
    /// A literal naming each constraint, for assumptions. Made as the
    /// constraint is interned: Z3's answers depend on the order terms are
    /// made in, and made later they change the models, hence the tests.
    guards: Vec<Bool>,
    interned: HashMap<Bool, ConstraintId>,
    /// The symbols each constraint mentions, sorted.
    symbols: Vec<Vec<SymbolId>>,
    /// Whether each constraint has nonlinear arithmetic.
    nonlinear: Vec<bool>,
    symbol_ids: HashMap<BV, SymbolId>,
    symbol_list: Vec<BV>,
}

impl ConstraintStore {
    pub fn intern(&mut self, c: &Bool) -> ConstraintId {
        if let Some(id) = self.interned.get(c) {
            return *id;
        }
        let id = self.constraints.len() as ConstraintId;
        self.guards.push(Bool::new_const(format!("pc!{id}")));
        let (found, nonlinear) = scan(c);
        let mut symbols: Vec<SymbolId> = found
            .into_iter()
            .map(|x| match self.symbol_ids.get(&x) {
                Some(n) => *n,
                None => {
                    let n = self.symbol_list.len() as SymbolId;
                    self.symbol_ids.insert(x.clone(), n);
                    self.symbol_list.push(x);
                    n
                }
            })
            .collect();
        symbols.sort_unstable();
        self.symbols.push(symbols);
        self.nonlinear.push(nonlinear);
        self.constraints.push(c.clone());
        self.interned.insert(c.clone(), id);
        id
    }

    /// How many constraints are interned (ids are below this).
    pub fn count(&self) -> usize {
        self.constraints.len()
    }

    pub fn constraint(&self, id: ConstraintId) -> &Bool {
        &self.constraints[id as usize]
    }

    pub fn guard(&self, id: ConstraintId) -> &Bool {
        &self.guards[id as usize]
    }

    pub fn symbols(&self, id: ConstraintId) -> &[SymbolId] {
        &self.symbols[id as usize]
    }

    pub fn is_nonlinear(&self, id: ConstraintId) -> bool {
        self.nonlinear[id as usize]
    }

    pub fn symbol(&self, n: SymbolId) -> &BV {
        &self.symbol_list[n as usize]
    }

    /// The symbols the constraints `ids` mention, in order.
    pub fn symbols_of(&self, ids: &[ConstraintId]) -> Vec<SymbolId> {
        let mut numbers: Vec<SymbolId> = ids
            .iter()
            .flat_map(|id| self.symbols(*id).iter().copied())
            .collect();
        numbers.sort_unstable();
        numbers.dedup();
        numbers
    }
}

/// The bit-vector symbols occurring in `term`, in the order a walk of the
/// term meets them (symbols are numbered in that order, and queries list
/// them by number: a hash order would make the models differ between
/// runs), and whether it multiplies or divides two terms that are not
/// numbers (nonlinear arithmetic).
fn scan(term: &Bool) -> (Vec<BV>, bool) {
    use z3::DeclKind as K;
    let mut symbols = Vec::new();
    let mut nonlinear = false;
    let mut seen = HashSet::new();
    let mut stack: Vec<Dynamic> = vec![Dynamic::from_ast(term)];
    while let Some(term) = stack.pop() {
        if !seen.insert(term.clone()) {
            continue;
        }
        if term.is_const() {
            if let Some(bv) = term.as_bv() {
                if crate::value::concrete(&bv).is_none() {
                    symbols.push(bv);
                }
            }
            continue;
        }
        let children = term.children();
        let multiplies = term.safe_decl().is_ok_and(|decl| {
            matches!(
                decl.kind(),
                K::Bmul
                    | K::Bsdiv
                    | K::Budiv
                    | K::Bsrem
                    | K::Burem
                    | K::Bsmod
                    | K::BsmulNoOvfl
                    | K::BumulNoOvfl
                    | K::BsmulNoUdfl
            )
        });
        // Only then: simplifying every operand of every node costs time
        // quadratic in a deep term's size (a copy over a long array).
        if multiplies && !nonlinear {
            let unknown_operands = children
                .iter()
                .filter(|c| c.as_bv().and_then(|b| crate::value::concrete(&b)).is_none())
                .count();
            nonlinear = unknown_operands >= 2;
        }
        stack.extend(children);
    }
    (symbols, nonlinear)
}
