//! The one door to Z3: path conditions as sets of interned constraints, checked
//! incrementally under assumptions, with a result cache, model reuse and counting.

use std::collections::{HashMap, HashSet};
use std::time::{Duration, Instant};
use z3::ast::{Ast, Bool, Dynamic, BV};
use z3::{Model, Params, SatResult, Solver};

/// Index of an interned constraint; a path condition is a list of them.
pub type ConstraintId = u32;

/// Time the incremental solver gets before a query moves to a fresh solver.
const INCREMENTAL_LIMIT: Duration = Duration::from_millis(200);

fn millis(d: Duration) -> u32 {
    d.as_millis().clamp(1, u128::from(u32::MAX)) as u32
}

fn timeout_params(ms: u32) -> Params {
    let mut params = Params::new();
    params.set_u32("timeout", ms);
    params
}

/// Most constraints the incremental solver holds before it starts afresh.
const SOLVER_CAPACITY: usize = 400;

/// Longest time spent looking for a more readable model than the first one.
const PREFERENCE_LIMIT: Duration = Duration::from_millis(500);

/// `x` is a 7-bit character (8-bit values) or within `bound` of zero (signed).
fn near_zero(x: &BV, bound: u64) -> Bool {
    let bits = x.get_size();
    if bits == 8 {
        return x.bvule(BV::from_u64(127, 8));
    }
    let bound = bound.min((1u64 << (bits - 2).min(62)) - 1);
    Bool::and(&[
        x.bvsge(BV::from_i64(-(bound as i64), bits)),
        x.bvsle(BV::from_u64(bound, bits)),
    ])
}

/// The bit-vector symbols occurring in `term`, and whether it multiplies or
/// divides two terms that are not numbers (nonlinear arithmetic).
fn scan(term: &Bool) -> (HashSet<BV>, bool) {
    use z3::DeclKind as K;
    let mut symbols = HashSet::new();
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
                    symbols.insert(bv);
                }
            }
            continue;
        }
        let children = term.children();
        if let Ok(decl) = term.safe_decl() {
            let multiplies = matches!(
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
            );
            let unknown_operands = children
                .iter()
                .filter(|c| c.as_bv().and_then(|b| crate::value::concrete(&b)).is_none())
                .count();
            nonlinear |= multiplies && unknown_operands >= 2;
        }
        stack.extend(children);
    }
    (symbols, nonlinear)
}

pub struct PathSolver {
    solver: Solver,
    /// Guard literal of each interned constraint; `guard => constraint` is asserted once.
    guards: Vec<Bool>,
    constraints: Vec<Bool>,
    /// The input symbols each constraint mentions (numbered by `symbol_ids`),
    /// for slicing a query down to the constraints it depends on.
    symbols: Vec<Vec<u32>>,
    symbol_ids: HashMap<BV, u32>,
    /// The symbols by number.
    symbol_list: Vec<BV>,
    /// Whether each constraint has nonlinear arithmetic.
    nonlinear: Vec<bool>,
    interned: HashMap<Bool, ConstraintId>,
    /// Whether `guard => constraint` is asserted in `solver` (done on first use).
    asserted: Vec<bool>,
    asserted_count: usize,
    cache: HashMap<Vec<ConstraintId>, bool>,
    last_model: Option<Model>,
    /// Truth of each constraint in `last_model`, filled as asked.
    truth_in_last_model: Vec<Option<bool>>,
    /// The time-out last given to Z3 (setting parameters is not free).
    timeout_ms: u32,
    pub calls: u64,
    deadline: Instant,
    /// Longest time one query may take, so that one hard query cannot eat the budget.
    query_limit: Duration,
    /// Set when a query gave up (time-out), so "infeasible" claims stay honest.
    pub gave_up: bool,
    /// Feasibility checks answer from the cache only, unknown counting as
    /// feasible: a bounded execution tree defers them to one disjunction.
    deferred: bool,
}

/// The answer to a disjunction of path conditions ([`PathSolver::any_alternative`]).
pub enum Alternatives {
    /// The alternative (by index) a model of the disjunction satisfies.
    Satisfied(usize),
    Unsatisfiable,
    /// The solver gave up (time-out); `gave_up` is set.
    Unknown,
}

impl PathSolver {
    pub fn new(deadline: Instant, query_limit: Duration) -> PathSolver {
        PathSolver {
            solver: Solver::new(),
            guards: Vec::new(),
            constraints: Vec::new(),
            symbols: Vec::new(),
            symbol_ids: HashMap::new(),
            symbol_list: Vec::new(),
            nonlinear: Vec::new(),
            interned: HashMap::new(),
            asserted: Vec::new(),
            asserted_count: 0,
            cache: HashMap::new(),
            last_model: None,
            truth_in_last_model: Vec::new(),
            timeout_ms: 0,
            calls: 0,
            deadline,
            query_limit,
            gave_up: false,
            deferred: false,
        }
    }

    /// Defers feasibility checks (see the `deferred` field) until called with false.
    pub fn defer_feasibility(&mut self, deferred: bool) {
        self.deferred = deferred;
    }

    /// One query for several alternative paths (seed 003's PBCC): is the
    /// disjunction of their conditions satisfiable, and by which one? An
    /// infeasible or hard (nonlinear) alternative then does not hide a
    /// feasible one.
    pub fn any_alternative(&mut self, alternatives: &[&[ConstraintId]]) -> Alternatives {
        let left = self
            .deadline
            .saturating_duration_since(Instant::now())
            .min(self.query_limit);
        let solver = Solver::new();
        solver.set_params(&timeout_params(millis(left)));
        // A selector per alternative says which one the model satisfies
        // (evaluating the conditions in the model is not reliable for every
        // operator, e.g. the overflow predicates).
        let selectors: Vec<Bool> = (0..alternatives.len())
            .map(|i| Bool::new_const(format!("alternative!{i}")))
            .collect();
        for (selector, path) in selectors.iter().zip(alternatives) {
            for id in path.iter() {
                solver.assert(selector.implies(&self.constraints[*id as usize]));
            }
        }
        solver.assert(Bool::or(&selectors));
        self.calls += 1;
        match solver.check() {
            SatResult::Sat => {
                let chosen = solver.get_model().and_then(|model| {
                    selectors
                        .iter()
                        .position(|s| model.eval(s, true).and_then(|b| b.as_bool()) == Some(true))
                });
                match chosen {
                    Some(i) => Alternatives::Satisfied(i),
                    None => Alternatives::Unknown,
                }
            }
            SatResult::Unsat => Alternatives::Unsatisfiable,
            SatResult::Unknown => {
                self.gave_up = true;
                Alternatives::Unknown
            }
        }
    }

    pub fn intern(&mut self, c: &Bool) -> ConstraintId {
        if let Some(id) = self.interned.get(c) {
            return *id;
        }
        let id = self.constraints.len() as ConstraintId;
        let guard = Bool::new_const(format!("pc!{id}"));
        self.guards.push(guard);
        let (found, nonlinear) = scan(c);
        let mut symbols: Vec<u32> = found
            .into_iter()
            .map(|x| match self.symbol_ids.get(&x) {
                Some(n) => *n,
                None => {
                    let n = self.symbol_list.len() as u32;
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

    /// Is `path` (plus `extra`) satisfiable? Unknown counts as no and sets `gave_up`.
    /// With `extra`, `path` must be satisfiable (the path condition of a live
    /// state): then only the constraints sharing symbols with `extra`, directly
    /// or through others, can make it unsatisfiable, and only they are asked.
    pub fn feasible(&mut self, path: &[ConstraintId], extra: Option<&Bool>) -> bool {
        let mut key: Vec<ConstraintId> = match extra {
            Some(c) => {
                let id = self.intern(c);
                let mut slice = self.slice(path, id);
                slice.push(id);
                slice
            }
            None => path.to_vec(),
        };
        key.sort_unstable();
        key.dedup();
        if let Some(known) = self.cache.get(&key) {
            return *known;
        }
        if self.deferred {
            return true;
        }
        if self.last_model_satisfies(&key) {
            self.cache.insert(key, true);
            return true;
        }
        let answer = self.run(&key, None).is_some();
        self.cache.insert(key, answer);
        answer
    }

    /// A model of `path` (plus `extra`), or `None` when unsatisfiable or unknown.
    pub fn model(&mut self, path: &[ConstraintId], extra: Option<&Bool>) -> Option<Model> {
        let mut key: Vec<ConstraintId> = path.to_vec();
        if let Some(c) = extra {
            key.push(self.intern(c));
        }
        key.sort_unstable();
        key.dedup();
        if self.cache.get(&key) == Some(&false) {
            return None;
        }
        let model = self.run(&key, None);
        self.cache.insert(key, model.is_some());
        model
    }

    /// A minimal set of the constraints of `path` that contradict `extra`
    /// (which is always part of the contradiction): Z3's unsat core, shrunk
    /// by dropping each constraint whose absence leaves it unsatisfiable.
    /// `None` when `path` and `extra` are satisfiable together, or unknown.
    pub fn unsat_core(&mut self, path: &[ConstraintId], extra: &Bool) -> Option<Vec<ConstraintId>> {
        let left = self
            .deadline
            .saturating_duration_since(Instant::now())
            .min(self.query_limit);
        let solver = Solver::new();
        solver.set_params(&timeout_params(millis(left)));
        solver.assert(extra);
        let mut guard_of = HashMap::new();
        for id in path {
            let guard = Bool::new_const(format!("core!{id}"));
            solver.assert(guard.implies(&self.constraints[*id as usize]));
            guard_of.insert(*id, guard);
        }
        let guards = |ids: &[ConstraintId]| -> Vec<Bool> {
            ids.iter().map(|id| guard_of[id].clone()).collect()
        };
        let mut ids: Vec<ConstraintId> = guard_of.keys().copied().collect();
        ids.sort_unstable();
        self.calls += 1;
        if solver.check_assumptions(&guards(&ids)) != SatResult::Unsat {
            return None;
        }
        let core: HashSet<Bool> = solver.get_unsat_core().into_iter().collect();
        let mut kept: Vec<ConstraintId> = ids
            .into_iter()
            .filter(|id| core.contains(&guard_of[id]))
            .collect();
        let mut i = 0;
        while i < kept.len() {
            let mut without = kept.clone();
            without.remove(i);
            self.calls += 1;
            if solver.check_assumptions(&guards(&without)) == SatResult::Unsat {
                kept = without;
            } else {
                i += 1;
            }
        }
        Some(kept)
    }

    pub fn past_deadline(&self) -> bool {
        Instant::now() >= self.deadline
    }

    /// A model of `path` whose `inputs` are small where possible (readable
    /// tests): characters in ASCII, other integers near zero.
    pub fn readable_model(&mut self, path: &[ConstraintId], inputs: &[BV]) -> Option<Model> {
        // Most questions asked here (can this fault happen?) are answered no,
        // and a first model is often readable already: one query settles both.
        let first = self.model(path, None)?;
        if inputs.is_empty() {
            return Some(first);
        }
        let constrained = self.symbols_of(path);
        // Inputs the path never constrains (fields it never reads) are 0.
        let small = |bound: u64| -> Bool {
            let each: Vec<Bool> = inputs
                .iter()
                .map(|x| {
                    if constrained.contains(x) {
                        near_zero(x, bound)
                    } else {
                        x.eq(BV::from_u64(0, x.get_size()))
                    }
                })
                .collect();
            Bool::and(&each)
        };
        let preferred = small(100);
        if first.eval(&preferred, true).and_then(|b| b.as_bool()) == Some(true) {
            return Some(first);
        }
        let gave_up = self.gave_up;
        let limit = self.query_limit;
        self.query_limit = limit.min(PREFERENCE_LIMIT);
        let mut key = path.to_vec();
        key.sort_unstable();
        key.dedup();
        let mut found = self.run(&key, Some(&preferred));
        if found.is_none() {
            found = self.run(&key, Some(&small(30_000)));
        }
        self.query_limit = limit;
        self.gave_up = gave_up;
        found.or(Some(first))
    }

    /// The constraints of `path` connected to constraint `to` by shared symbols.
    fn slice(&self, path: &[ConstraintId], to: ConstraintId) -> Vec<ConstraintId> {
        let mut reached: HashSet<u32> = self.symbols[to as usize].iter().copied().collect();
        let mut rest: Vec<ConstraintId> = path.iter().copied().filter(|id| *id != to).collect();
        let mut slice = Vec::new();
        loop {
            let before = slice.len();
            rest.retain(|id| {
                let linked = self.symbols[*id as usize]
                    .iter()
                    .any(|x| reached.contains(x));
                if linked {
                    reached.extend(self.symbols[*id as usize].iter().copied());
                    slice.push(*id);
                }
                !linked
            });
            if slice.len() == before {
                return slice;
            }
        }
    }

    /// The bit-vector symbols occurring in the constraints of `path`.
    fn symbols_of(&self, path: &[ConstraintId]) -> HashSet<BV> {
        self.symbol_numbers(path)
            .into_iter()
            .map(|n| self.symbol_list[n as usize].clone())
            .collect()
    }

    /// The numbers of the symbols of `path`, in order.
    fn symbol_numbers(&self, path: &[ConstraintId]) -> Vec<u32> {
        let mut numbers: Vec<u32> = path
            .iter()
            .flat_map(|id| self.symbols[*id as usize].iter().copied())
            .collect();
        numbers.sort_unstable();
        numbers.dedup();
        numbers
    }

    /// Nonlinear queries first try all their symbols near zero, briefly:
    /// there the multiplier circuits are small, and most models are found at
    /// once, where the whole range can keep the solver busy for seconds.
    fn run(&mut self, key: &[ConstraintId], preference: Option<&Bool>) -> Option<Model> {
        if preference.is_none() && key.iter().any(|id| self.nonlinear[*id as usize]) {
            let small: Vec<Bool> = self
                .symbol_numbers(key)
                .into_iter()
                .map(|n| near_zero(&self.symbol_list[n as usize], 100))
                .collect();
            let gave_up = self.gave_up;
            let limit = self.query_limit;
            self.query_limit = limit.min(PREFERENCE_LIMIT);
            let found = self.run_once(key, Some(&Bool::and(&small)));
            self.query_limit = limit;
            self.gave_up = gave_up;
            if found.is_some() {
                return found;
            }
        }
        self.run_once(key, preference)
    }

    /// Asks the incremental solver first (fast on the many easy queries); a
    /// query it cannot settle quickly goes to a fresh, non-incremental solver,
    /// whose bit-blasting is several times faster on nonlinear arithmetic.
    /// A `preference` is asserted for this query only, in a scope popped
    /// after it: interned, every path's preference would stay in the solver
    /// and slow down all later queries.
    fn run_once(&mut self, key: &[ConstraintId], preference: Option<&Bool>) -> Option<Model> {
        self.calls += 1;
        let left = self
            .deadline
            .saturating_duration_since(Instant::now())
            .min(self.query_limit);
        let quick = millis(left.min(INCREMENTAL_LIMIT));
        // Re-set the time-out only when it changes (setting parameters is not free).
        if quick != self.timeout_ms {
            self.solver.set_params(&timeout_params(quick));
            self.timeout_ms = quick;
        }
        self.assert_guarded(key);
        let assumptions: Vec<Bool> = key
            .iter()
            .map(|id| self.guards[*id as usize].clone())
            .collect();
        if let Some(p) = preference {
            self.solver.push();
            self.solver.assert(p);
        }
        let incremental = self.solver.check_assumptions(&assumptions);
        let (answer, solver) = match incremental {
            SatResult::Unknown if left > INCREMENTAL_LIMIT => {
                self.calls += 1;
                let fresh = Solver::new();
                fresh.set_params(&timeout_params(millis(
                    left.saturating_sub(INCREMENTAL_LIMIT),
                )));
                for id in key {
                    fresh.assert(&self.constraints[*id as usize]);
                }
                if let Some(p) = preference {
                    fresh.assert(p);
                }
                (fresh.check(), Some(fresh))
            }
            answer => (answer, None),
        };
        let model = match answer {
            SatResult::Sat => {
                let solver = solver.as_ref().unwrap_or(&self.solver);
                self.last_model = solver.get_model();
                self.truth_in_last_model.clear();
                solver.get_model()
            }
            SatResult::Unsat => None,
            SatResult::Unknown => {
                self.gave_up = true;
                None
            }
        };
        if preference.is_some() {
            self.solver.pop(1);
        }
        model
    }

    /// Asserts `guard => constraint` for the constraints of `key` not yet in
    /// the solver. A solver holding too many starts afresh: every query pays
    /// for every constraint it holds, used or not.
    fn assert_guarded(&mut self, key: &[ConstraintId]) {
        if self.asserted_count + key.len() > SOLVER_CAPACITY {
            self.solver = Solver::new();
            self.timeout_ms = 0;
            self.asserted.clear();
            self.asserted_count = 0;
        }
        self.asserted.resize(self.constraints.len(), false);
        for id in key {
            let i = *id as usize;
            if !self.asserted[i] {
                self.asserted[i] = true;
                self.asserted_count += 1;
                self.solver
                    .assert(self.guards[i].implies(&self.constraints[i]));
            }
        }
    }

    fn last_model_satisfies(&mut self, key: &[ConstraintId]) -> bool {
        let Some(model) = &self.last_model else {
            return false;
        };
        if self.truth_in_last_model.len() < self.constraints.len() {
            self.truth_in_last_model
                .resize(self.constraints.len(), None);
        }
        for id in key {
            let slot = &mut self.truth_in_last_model[*id as usize];
            let truth = *slot.get_or_insert_with(|| {
                model
                    .eval(&self.constraints[*id as usize], true)
                    .and_then(|b| b.as_bool())
                    == Some(true)
            });
            if !truth {
                return false;
            }
        }
        true
    }
}
