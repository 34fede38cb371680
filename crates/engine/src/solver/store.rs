//! Every constraint of every path, interned once, with what the solver's
//! layers need to know about it: a literal naming it, the input symbols it
//! mentions (for slicing), whether it has nonlinear arithmetic, and what
//! floating-point it has (symbols read as IEEE bits, constants).

use crate::stable_hash::{StableHashMap, StableHashSet};
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
    interned: StableHashMap<Bool, ConstraintId>,
    /// The symbols each constraint mentions, sorted.
    symbols: Vec<Vec<SymbolId>>,
    /// Whether each constraint has nonlinear arithmetic.
    nonlinear: Vec<bool>,
    /// The IEEE constants (bits, and their width) each floating constraint
    /// compares or computes with; `None` for a constraint without floating point.
    floating: Vec<Option<Vec<BV>>>,
    /// The symbols read as the bits of a `float` or `double`.
    float_symbols: StableHashSet<SymbolId>,
    symbol_ids: StableHashMap<BV, SymbolId>,
    symbol_list: Vec<BV>,
}

impl ConstraintStore {
    pub fn intern(&mut self, c: &Bool) -> ConstraintId {
        if let Some(id) = self.interned.get(c) {
            return *id;
        }
        let id = self.constraints.len() as ConstraintId;
        self.guards.push(Bool::new_const(format!("pc!{id}")));
        let scanned = scan(c);
        let mut symbols: Vec<SymbolId> = scanned
            .symbols
            .into_iter()
            .map(|x| self.symbol_id(x))
            .collect();
        symbols.sort_unstable();
        self.symbols.push(symbols);
        self.nonlinear.push(scanned.nonlinear);
        for x in scanned.float_symbols {
            let n = self.symbol_id(x);
            self.float_symbols.insert(n);
        }
        self.floating
            .push(scanned.floating.then_some(scanned.float_constants));
        self.constraints.push(c.clone());
        self.interned.insert(c.clone(), id);
        id
    }

    fn symbol_id(&mut self, x: BV) -> SymbolId {
        if let Some(n) = self.symbol_ids.get(&x) {
            return *n;
        }
        let n = self.symbol_list.len() as SymbolId;
        self.symbol_ids.insert(x.clone(), n);
        self.symbol_list.push(x);
        n
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

    /// Whether the constraint has floating-point operations.
    pub fn is_floating(&self, id: ConstraintId) -> bool {
        self.floating[id as usize].is_some()
    }

    /// The IEEE constants (as bit-vectors of their width) the floating
    /// constraints among `ids` use, without repeats, in order of appearance.
    pub fn float_constants(&self, ids: &[ConstraintId]) -> Vec<BV> {
        let mut all: Vec<BV> = Vec::new();
        for id in ids {
            for c in self.floating[*id as usize].iter().flatten() {
                if !all.contains(c) {
                    all.push(c.clone());
                }
            }
        }
        all
    }

    /// Whether symbol `n` is read as the bits of a `float` or `double`.
    pub fn is_float_symbol(&self, n: SymbolId) -> bool {
        self.float_symbols.contains(&n)
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

/// The input symbols `term` mentions, in the order a walk meets them.
pub fn symbols_in(term: &BV) -> Vec<BV> {
    scan(&term.eq(term)).symbols
}

/// What [`scan`] finds in a constraint. Symbols come in the order a walk
/// of the term meets them: they are numbered in that order, and queries
/// list them by number (a hash order would make models differ between runs).
struct Scanned {
    symbols: Vec<BV>,
    /// It multiplies or divides two terms that are not numbers.
    nonlinear: bool,
    /// It has floating-point operations.
    floating: bool,
    /// Symbols converted from IEEE bits to a floating value.
    float_symbols: Vec<BV>,
    /// IEEE bits of constants converted to floating values.
    float_constants: Vec<BV>,
}

/// The bit-vector symbols occurring in `term`, whether it multiplies or
/// divides two terms that are not numbers (nonlinear arithmetic), and the
/// floating-point symbols and constants it reads.
fn scan(term: &Bool) -> Scanned {
    use z3::DeclKind as K;
    let mut found = Scanned {
        symbols: Vec::new(),
        nonlinear: false,
        floating: false,
        float_symbols: Vec::new(),
        float_constants: Vec::new(),
    };
    let mut seen = StableHashSet::default();
    let mut stack: Vec<Dynamic> = vec![Dynamic::from_ast(term)];
    while let Some(term) = stack.pop() {
        if !seen.insert(term.clone()) {
            continue;
        }
        if term.is_const() {
            if let Some(bv) = term.as_bv() {
                if crate::value::concrete_term(&bv).is_none() {
                    found.symbols.push(bv);
                }
            }
            continue;
        }
        let children = term.children();
        let kind = term.safe_decl().map(|decl| decl.kind());
        // Floating values are made from bits by a one-operand `to_fp`.
        if let (Ok(K::FpaToFp), [bits]) = (&kind, children.as_slice()) {
            found.floating = true;
            if let Some(bits) = bits.as_bv() {
                if crate::value::concrete_term(&bits).is_some() {
                    if !found.float_constants.contains(&bits) {
                        found.float_constants.push(bits);
                    }
                } else if bits.is_const() && !found.float_symbols.contains(&bits) {
                    found.float_symbols.push(bits);
                }
            }
        }
        let multiplies = kind.as_ref().is_ok_and(|kind| {
            matches!(
                kind,
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
        if multiplies && !found.nonlinear {
            let unknown_operands = children
                .iter()
                .filter(|c| {
                    c.as_bv()
                        .and_then(|b| crate::value::concrete_term(&b))
                        .is_none()
                })
                .count();
            found.nonlinear = unknown_operands >= 2;
        }
        stack.extend(children);
    }
    found
}
