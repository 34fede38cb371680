//! Every constraint of every path, interned once, with what the solver's
//! layers need to know about it: a literal naming it, the input symbols it
//! mentions (for slicing), its multiplications and divisions of unknown
//! terms (what bit-blasting them costs, whether any is nonlinear), and
//! what floating-point it has (symbols read as IEEE bits, constants).

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
    /// The multiplications and divisions of unknown terms of each constraint.
    circuits: Vec<Circuits>,
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
        self.circuits.push(scanned.circuits);
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

    /// Whether the constraint multiplies or divides two unknown terms.
    pub fn is_nonlinear(&self, id: ConstraintId) -> bool {
        self.circuits[id as usize].nonlinear
    }

    /// The work of bit-blasting the multiplications and divisions of `ids`
    /// and `transient` (each distinct one once), in Z3's work units.
    pub fn blast_work(&self, ids: &[ConstraintId], transient: Option<&Bool>) -> u64 {
        let extra = transient.map(circuits_in).unwrap_or_default();
        let all = ids.iter().flat_map(|id| &self.circuits[*id as usize].work);
        let mut seen = StableHashSet::default();
        all.chain(&extra.work)
            .filter(|(node, _)| seen.insert(node))
            .map(|(_, work)| work)
            .sum()
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

    /// The number of the symbol `x`, when a constraint mentions it.
    pub fn symbol_id_of(&self, x: &BV) -> Option<SymbolId> {
        self.symbol_ids.get(x).copied()
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
    /// Its multipliers and dividers ([`circuits_in`]).
    circuits: Circuits,
    /// It has floating-point operations.
    floating: bool,
    /// Symbols converted from IEEE bits to a floating value.
    float_symbols: Vec<BV>,
    /// IEEE bits of constants converted to floating values.
    float_constants: Vec<BV>,
}

/// The multiplications and divisions of a term on operands that mention
/// symbols: what bit-blasting it costs.
#[derive(Default)]
pub struct Circuits {
    /// Each operation, with its [`blast_work`].
    pub work: Vec<(Dynamic, u64)>,
    /// Some of them multiply or divide two such operands.
    pub nonlinear: bool,
}

/// Whether `kind` multiplies (a product, or whether it overflows).
fn multiplies(kind: z3::DeclKind) -> bool {
    use z3::DeclKind as K;
    matches!(
        kind,
        K::Bmul | K::BsmulNoOvfl | K::BumulNoOvfl | K::BsmulNoUdfl
    )
}

/// Whether `kind` divides (a quotient or a remainder).
fn divides(kind: z3::DeclKind) -> bool {
    use z3::DeclKind as K;
    matches!(kind, K::Bsdiv | K::Budiv | K::Bsrem | K::Burem | K::Bsmod)
}

/// Z3's work units (those of its `rlimit`, see `interrupt::work_for`) that
/// bit-blasting one multiplication or division on `bits`-bit operands
/// takes, which Z3 does not count in its work. Measured (BENCHMARKS.md,
/// "Bit-blasting"; Z3's own timing of its `bit-blast` tactic, about 840
/// units a millisecond that day): a divider by an unknown term grows about
/// as the cube of the width, 10 ms on 32 bits, 0.4 to 0.9 s on 64 and
/// 2.9 s on 128; a multiplier, or a divider by a number (Z3 simplifies
/// it), an eighth of that order (30 and 20 ms on 64 bits, 0.2 and 0.4 s on
/// 128); a product with a number only adds the shifted operand once per
/// set bit, and an unsigned division by a power of two is a bit extraction
/// as a product with one (an array's index scaled by its element's size)
/// is a bit concatenation.
fn blast_work(kind: z3::DeclKind, bits: u32, by_number: Option<&Dynamic>) -> u64 {
    use z3::DeclKind as K;
    let bits = u64::from(bits);
    let number = by_number.and_then(|n| n.as_bv()?.as_u64());
    let by_power_of_two = number.is_some_and(u64::is_power_of_two);
    match (divides(kind), by_number.is_some()) {
        (true, true) if matches!(kind, K::Budiv | K::Burem) && by_power_of_two => 0,
        (false, true) if kind == K::Bmul && by_power_of_two => 0,
        (true, false) => 2 * bits.pow(3),
        (true, true) | (false, false) => bits.pow(3) / 8,
        // One shifted copy of the operand added per set bit.
        (false, true) if kind == K::Bmul => match number {
            Some(n) => bits * u64::from(n.count_ones()),
            None => bits.pow(2),
        },
        (false, true) => bits.pow(2),
    }
}

/// Whether `node` is an input symbol: a bit-vector constant that is no number.
fn is_symbol(node: &Dynamic) -> bool {
    node.is_const()
        && node.as_bv().is_some()
        && !node
            .safe_decl()
            .is_ok_and(|decl| decl.kind() == z3::DeclKind::Bnum)
}

/// The multiplications and divisions in `term` whose operands (the
/// dividend, or either factor) mention symbols. Whether a term mentions
/// one is worked out once per node, from its operands up (simplifying
/// operands instead costs time quadratic in a deep term's size).
pub fn circuits_in(term: &Bool) -> Circuits {
    let mut unknown: StableHashMap<Dynamic, bool> = StableHashMap::default();
    let mut found = Circuits::default();
    let mut stack = vec![(Dynamic::from_ast(term), false)];
    while let Some((node, operands_done)) = stack.pop() {
        if unknown.contains_key(&node) {
            continue;
        }
        let operands = node.children();
        if !operands_done {
            stack.push((node, true));
            stack.extend(operands.into_iter().map(|c| (c, false)));
            continue;
        }
        let kind = node.safe_decl().map(|decl| decl.kind());
        if let (Ok(kind), [left, right]) = (kind, operands.as_slice()) {
            let arithmetic = multiplies(kind) || divides(kind);
            let (left_unknown, right_unknown) = (unknown[left], unknown[right]);
            let bits = left.as_bv().map(|bv| bv.get_size());
            if let (true, Some(bits)) = (arithmetic, bits) {
                let number = match (left_unknown, right_unknown) {
                    (true, true) => None,
                    (true, false) => Some(right),
                    (false, true) if multiplies(kind) => Some(left),
                    // A number divided by an unknown: a whole divider.
                    (false, true) => None,
                    (false, false) => Some(right),
                };
                if left_unknown || right_unknown {
                    found.nonlinear |= left_unknown && right_unknown;
                    found
                        .work
                        .push((node.clone(), blast_work(kind, bits, number)));
                }
            }
        }
        let is_unknown = is_symbol(&node) || operands.iter().any(|c| unknown[c]);
        unknown.insert(node, is_unknown);
    }
    found
}

/// The bit-vector symbols occurring in `term`, its multiplications and
/// divisions of unknown terms, and the floating-point symbols and
/// constants it reads.
fn scan(term: &Bool) -> Scanned {
    use z3::DeclKind as K;
    let mut found = Scanned {
        symbols: Vec::new(),
        circuits: Circuits::default(),
        floating: false,
        float_symbols: Vec::new(),
        float_constants: Vec::new(),
    };
    let mut any_arithmetic = false;
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
        any_arithmetic |= kind.is_ok_and(|kind| multiplies(kind) || divides(kind));
        stack.extend(children);
    }
    if any_arithmetic {
        found.circuits = circuits_in(term);
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;
    use z3::ast::BV;

    fn work_of(term: &Bool) -> u64 {
        circuits_in(term).work.iter().map(|(_, work)| work).sum()
    }

    #[test]
    fn an_index_scaled_by_a_power_of_two_costs_no_blasting() {
        let index = BV::new_const("index", 64);
        let size = |n| BV::from_u64(n, 64);
        let within = |product: BV| product.bvult(size(4096));
        assert_eq!(work_of(&within(index.bvmul(size(1)))), 0);
        assert_eq!(work_of(&within(size(16).bvmul(&index))), 0);
        assert!(work_of(&within(index.bvmul(size(24)))) > 0);
        assert!(work_of(&within(index.bvmul(&index))) > 0);
    }
}
