//! The one door to Z3. `PathSolver` keeps the constraints of every path,
//! interned, and answers questions about path conditions through a chain of
//! small layers over one narrow interface (`query::QuerySolver`), on
//! KLEE's model, assembled in one function (`chain`):
//!
//!   slicing -> cache -> counterexample -> near_zero_first -> float_candidates
//!     -> time_limit -> [dump] -> z3_backend
//!
//! In concrete mode (`concrete`, set by a search with an input-value
//! oracle) questions about paths are answered by evaluation instead.
//!
//! Each layer answers a query itself or passes it on, perhaps changed.
//! Besides, a watchdog thread (`interrupt`) cuts short the check in
//! progress once the search is cancelled or past its deadline.

mod cache;
mod concrete;
mod counterexample;
mod dump;
mod float_candidates;
mod guesses;
mod interrupt;
mod near_zero_first;
mod nearby;
mod query;
mod slicing;
mod smtlib;
mod store;
pub use store::symbols_in;
#[cfg(test)]
mod testing;
mod time_limit;
mod z3_backend;

pub use concrete::{symbol_name, ValueOracle};
pub use interrupt::{work_for, StopWhen};
pub use store::ConstraintId;

use crate::stable_hash::StableHashSet;
use crate::value::concrete_term;
use concrete::Assignment;
use interrupt::{Checks, Watchdog, WorkMeter};
use nearby::{Movable, Nearby};
use query::{Answer, Context, Effort, Query, QuerySolver};
use std::path::PathBuf;
use std::rc::Rc;
use std::time::{Duration, Instant};
use store::ConstraintStore;
use z3::ast::{Bool, BV};
use z3::Model;

/// Longest time spent on a wish: a more readable model than the first one,
/// or a first try near zero.
const WISH_LIMIT: Duration = Duration::from_millis(500);

/// Longest time spent, in concrete mode, on a model of a path the values
/// do not satisfy (can this fault happen on the candidate's path?): a
/// candidate is to stay cheap; the symbolic search asks in full.
const CONCRETE_ASK_LIMIT: Duration = Duration::from_millis(5);

/// A value the test chooses, with the signedness of its C type: a small
/// unsigned value is near zero from above, never a wrapped-around negative.
#[derive(Clone, Debug)]
pub struct InputSymbol {
    pub value: BV,
    pub signed: bool,
    /// A whole integer variable, not a field or byte of an object.
    pub whole: bool,
}

/// `x` is a 7-bit character (8-bit values) or within `bound` of zero
/// (signed), or at most `bound` (unsigned).
fn near_zero(x: &BV, bound: u64, signed: bool) -> Bool {
    let bits = x.get_size();
    let (limit, signed) = near_zero_limit(bits, bound, signed);
    if !signed {
        return x.bvule(BV::from_u64(limit, bits));
    }
    Bool::and(&[
        x.bvsge(BV::from_i64(-(limit as i64), bits)),
        x.bvsle(BV::from_u64(limit, bits)),
    ])
}

/// Whether `value`, the bits of a `bits`-wide integer, is [`near_zero`].
fn is_near_zero(value: u128, bits: u32, bound: u64, signed: bool) -> bool {
    let (limit, signed) = near_zero_limit(bits, bound, signed);
    let magnitude = crate::value::sign_extend(value, bits, signed).unsigned_abs();
    magnitude <= u128::from(limit)
}

/// The largest magnitude [`near_zero`] allows, and whether it reads the
/// value as signed: 127 and unsigned for a byte (a 7-bit character).
fn near_zero_limit(bits: u32, bound: u64, signed: bool) -> (u64, bool) {
    if bits == 8 {
        return (127, false);
    }
    (
        bound.min((1u64 << bits.saturating_sub(2).min(62)) - 1),
        signed,
    )
}

/// The bits `x` of a `float` or `double` hold zero or a number of at most
/// 8 fraction bits between 2^-8 and 2^20 in magnitude, an infinity or the
/// default NaN (`NAN`, whose payload is only the quiet bit: the one NaN
/// that `strtod` and a Test-Comp harness read back): a bit-vector
/// constraint (cheap), where a floating one would cost a query of its own.
fn readable_float(x: &BV) -> Bool {
    let width = x.get_size();
    let (fraction_bits, bias) = if width == 32 { (23, 127) } else { (52, 1023) };
    let exponent = x.extract(width - 2, fraction_bits);
    let exponent_width = width - 1 - fraction_bits;
    let short = x
        .extract(fraction_bits - 9, 0)
        .eq(BV::from_u64(0, fraction_bits - 8));
    let moderate = Bool::and(&[
        exponent.bvuge(BV::from_u64(bias - 8, exponent_width)),
        exponent.bvule(BV::from_u64(bias + 20, exponent_width)),
    ]);
    let zero = x.extract(width - 2, 0).eq(BV::from_u64(0, width - 1));
    let fraction = x.extract(fraction_bits - 1, 0);
    let special = Bool::and(&[
        exponent.eq(BV::from_u64((1 << exponent_width) - 1, exponent_width)),
        Bool::or(&[
            fraction.eq(BV::from_u64(0, fraction_bits)),
            fraction.eq(BV::from_u64(1 << (fraction_bits - 1), fraction_bits)),
        ]),
    ]);
    Bool::or(&[zero, special, Bool::and(&[short, moderate])])
}

/// How a [`PathSolver`] spends time, and where it writes its queries.
#[derive(Clone, Debug)]
pub struct SolverOptions {
    /// No query runs past the deadline, none starts once cancelled.
    pub stop: StopWhen,
    /// Longest time one query may take, so that one hard query cannot eat the budget.
    pub query_limit: Duration,
    /// Every query reaching Z3 is also written here, as an SMT-LIB 2 file.
    pub dump_dir: Option<PathBuf>,
}

/// The layers, in the order a query passes them.
fn chain(options: &SolverOptions, checks: &Checks) -> Box<dyn QuerySolver> {
    let mut z3: Box<dyn QuerySolver> = Box::new(z3_backend::Z3Backend::new(checks.clone()));
    if let Some(dir) = &options.dump_dir {
        z3 = Box::new(dump::QueryDump::new(dir, z3));
    }
    let timed = time_limit::TimeLimit::new(options.stop.clone(), options.query_limit, z3);
    let candidates = float_candidates::FloatCandidates::new(Box::new(timed));
    let near_zero_first = near_zero_first::NearZeroFirst::new(Box::new(candidates));
    let reuse = counterexample::CounterexampleReuse::new(Box::new(near_zero_first));
    let guesses = guesses::ValueGuesses::new(Box::new(reuse));
    let cached = cache::ResultCache::new(Box::new(guesses));
    Box::new(slicing::IndependenceSlicing::new(Box::new(cached)))
}

pub struct PathSolver {
    store: ConstraintStore,
    chain: Box<dyn QuerySolver>,
    options: SolverOptions,
    checks: Checks,
    /// Interrupts the solver's checks once it must stop; ends with it.
    _watchdog: Watchdog,
    /// Z3 checks made.
    pub calls: u64,
    pub counts: testcase::SolverCounts,
    /// Set when a query gave up (time-out), so "infeasible" claims stay honest.
    pub gave_up: bool,
    /// Feasibility checks answer from the cache only, unknown counting as
    /// feasible: a bounded execution tree defers them to one disjunction.
    deferred: bool,
    /// Set while answering a question that may go unanswered: the most
    /// time any of its checks may take.
    effort_cap: Option<Duration>,
    /// Concrete mode: the input values questions are answered under.
    concrete: Option<Assignment>,
    meter: WorkMeter,
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
    fn with_options(options: SolverOptions) -> PathSolver {
        let checks = Checks::default();
        PathSolver {
            store: ConstraintStore::default(),
            chain: chain(&options, &checks),
            _watchdog: Watchdog::start(checks.clone(), options.stop.clone()),
            checks,
            options,
            calls: 0,
            counts: testcase::SolverCounts::default(),
            gave_up: false,
            deferred: false,
            effort_cap: None,
            concrete: None,
            meter: WorkMeter::new(),
        }
    }

    /// The solver of one exploration under `config`, ending at `deadline`.
    pub fn for_config(config: &crate::config::EngineConfig, deadline: Instant) -> PathSolver {
        PathSolver::with_options(SolverOptions {
            stop: StopWhen {
                deadline,
                cancel: config.cancel.clone(),
            },
            query_limit: config.max_time / 4,
            dump_dir: config.dump_queries.clone(),
        })
    }

    fn ask(&mut self, query: &Query) -> Answer {
        self.counts.asked += 1;
        let mut cx = Context {
            store: &self.store,
            calls: &mut self.calls,
            counts: &mut self.counts,
            gave_up: &mut self.gave_up,
        };
        self.chain.solve(query, &mut cx)
    }

    /// Answers every question about paths under the input values `oracle`
    /// chooses (concrete mode), until [`Self::leave_concrete_mode`].
    pub fn enter_concrete_mode(&mut self, oracle: Rc<dyn ValueOracle>) {
        self.concrete = Some(Assignment::new(oracle));
    }

    /// Whether questions are answered under chosen input values.
    /// The value a model gives a symbol that no constraint of the path
    /// mentions: in concrete mode the oracle's, the one it takes once a
    /// constraint mentions it (`float` when the code reads it as one);
    /// otherwise 0, as a model completes it.
    pub fn value_of_free_symbol(&self, symbol: &BV, float: bool) -> u128 {
        match &self.concrete {
            Some(values) => values.oracle_value(symbol, float),
            None => 0,
        }
    }

    pub fn in_concrete_mode(&self) -> bool {
        self.concrete.is_some()
    }

    /// In concrete mode, the value of `term` under the input values.
    pub fn concrete_value(&self, term: &BV) -> Option<u128> {
        self.concrete.as_ref()?.value_of_term(&self.store, term)
    }

    /// Leaves concrete mode, forgetting every constraint and answer so far
    /// (no state of the phase may live on): the symbolic search then asks
    /// what it would have asked without the phase, and Z3's answers depend
    /// on the order in which constraints were interned.
    pub fn leave_concrete_mode(&mut self) {
        self.concrete = None;
        self.store = ConstraintStore::default();
        self.chain = chain(&self.options, &self.checks);
    }

    /// In concrete mode, whether `key` holds under the input values
    /// (`added` its newest constraint, noted as refuted when only it fails).
    fn holds_concretely(
        &mut self,
        key: &[ConstraintId],
        added: Option<ConstraintId>,
    ) -> Option<bool> {
        let values = self.concrete.as_mut()?;
        Some(values.holds_with(&self.store, key, added))
    }

    /// In concrete mode, the decisions the values made, which a model the
    /// solver finds must respect (it then follows the candidate's path).
    fn concrete_decisions(&self) -> Option<Bool> {
        Some(self.concrete.as_ref()?.decisions(&self.store))
    }

    /// The effort of a question asked in full outside concrete mode.
    fn full_effort(&self) -> Effort {
        match (self.effort_cap, &self.concrete) {
            (Some(cap), _) => Effort::Within(cap),
            (None, Some(_)) => Effort::Within(CONCRETE_ASK_LIMIT),
            (None, None) => Effort::Full,
        }
    }

    /// `wish` and, in concrete mode, the decisions the values made.
    fn with_decisions(&self, wish: Bool) -> Bool {
        match self.concrete_decisions() {
            Some(decisions) => Bool::and(&[wish, decisions]),
            None => wish,
        }
    }

    /// The constraints a model of `key` meets, each with its truth value:
    /// those of `key`, and in concrete mode the decisions the values made.
    fn path_of(&self, key: &[ConstraintId]) -> Vec<(ConstraintId, bool)> {
        match &self.concrete {
            Some(values) => values.path_of(key),
            None => key.iter().map(|id| (*id, true)).collect(),
        }
    }

    /// In concrete mode, when `key` holds under the input values, they are
    /// its model (no Z3 check). When it does not (a fault the candidate
    /// does not hit), `None`: the caller asks the solver, as the symbolic
    /// search would on this path, so that no finding is lost to a goal a
    /// candidate covered.
    fn concrete_model(&mut self, key: &[ConstraintId]) -> Option<Model> {
        if !self.holds_concretely(key, None)? {
            return None;
        }
        Some(nearby::model_of(
            &self.store,
            self.concrete.as_ref()?.values(),
        ))
    }

    /// In concrete mode, a model of `key` (which the values fail: a
    /// possible fault) found by setting the symbols it fails on to edge
    /// values, without Z3 (see `nearby`).
    fn model_near_values(&self, key: &[ConstraintId]) -> Option<Model> {
        let values = self.concrete.as_ref()?;
        let mut nearby = Nearby::new(&self.store, values.path_of(key), values.values().clone());
        nearby.try_edges().then(|| nearby.model())
    }

    /// A first model of `key`: in concrete mode the values, or values near
    /// them, before the solver is asked (with the values' decisions).
    fn first_model(&mut self, key: &[ConstraintId]) -> Option<Model> {
        if let Some(model) = self.concrete_model(key) {
            return Some(model);
        }
        if !self.worth_asking(key) {
            return None;
        }
        if let Some(model) = self.model_near_values(key) {
            return Some(model);
        }
        let (decisions, effort) = (self.concrete_decisions(), self.full_effort());
        self.model_of(key, decisions.as_ref(), effort)
    }

    /// Whether the solver is to be asked for a model of `key` (always
    /// outside concrete mode; see `Assignment::first_ask` in it).
    fn worth_asking(&mut self, key: &[ConstraintId]) -> bool {
        match self.concrete.as_mut() {
            Some(values) => values.first_ask(&self.store, key),
            None => true,
        }
    }

    /// Defers feasibility checks (see the `deferred` field) until called with false.
    /// Whether feasibility checks are deferred (an unknown answer is "feasible").
    pub fn defers_feasibility(&self) -> bool {
        self.deferred
    }

    pub fn defer_feasibility(&mut self, deferred: bool) {
        self.deferred = deferred;
    }

    /// One query for several alternative paths (seed 003's PBCC): is the
    /// disjunction of their conditions satisfiable, and by which one? An
    /// infeasible or hard (nonlinear) alternative then does not hide a
    /// feasible one.
    pub fn any_alternative(&mut self, alternatives: &[&[ConstraintId]]) -> Alternatives {
        // A selector per alternative says which one the model satisfies
        // (evaluating the conditions in the model is not reliable for every
        // operator, e.g. the overflow predicates).
        let selectors: Vec<Bool> = (0..alternatives.len())
            .map(|i| Bool::new_const(format!("alternative!{i}")))
            .collect();
        let mut parts = Vec::new();
        for (selector, path) in selectors.iter().zip(alternatives) {
            for id in path.iter() {
                parts.push(selector.implies(self.store.constraint(*id)));
            }
        }
        parts.push(Bool::or(&selectors));
        let disjunction = Bool::and(&parts);
        let answer = self.ask(&Query {
            constraints: &[],
            added: None,
            transient: Some(&disjunction),
            wants_model: true,
            effort: Effort::Full,
        });
        match answer {
            Answer::Sat(model) => {
                let chosen = model.and_then(|model| {
                    selectors
                        .iter()
                        .position(|s| model.eval(s, true).and_then(|b| b.as_bool()) == Some(true))
                });
                match chosen {
                    Some(i) => Alternatives::Satisfied(i),
                    None => Alternatives::Unknown,
                }
            }
            Answer::Unsat => Alternatives::Unsatisfiable,
            Answer::Unknown => Alternatives::Unknown,
        }
    }

    pub fn intern(&mut self, c: &Bool) -> ConstraintId {
        self.store.intern(c)
    }

    /// `path` plus `extra`, sorted and without duplicates, and the id of `extra`.
    fn key(
        &mut self,
        path: &[ConstraintId],
        extra: Option<&Bool>,
    ) -> (Vec<ConstraintId>, Option<ConstraintId>) {
        let added = extra.map(|c| self.intern(c));
        let mut key: Vec<ConstraintId> = path.iter().copied().chain(added).collect();
        key.sort_unstable();
        key.dedup();
        (key, added)
    }

    /// Is `path` (plus `extra`) satisfiable? Unknown counts as no and sets `gave_up`.
    /// With `extra`, `path` must be satisfiable (the path condition of a live
    /// state): then only the constraints sharing symbols with `extra`, directly
    /// or through others, can make it unsatisfiable, and only they are asked.
    pub fn feasible(&mut self, path: &[ConstraintId], extra: Option<&Bool>) -> bool {
        let (key, added) = self.key(path, extra);
        if let Some(holds) = self.holds_concretely(&key, added) {
            return holds;
        }
        let answer = self.ask(&Query {
            constraints: &key,
            added,
            transient: None,
            wants_model: false,
            effort: if self.deferred {
                Effort::KnownOnly
            } else {
                Effort::Full
            },
        });
        match answer {
            Answer::Sat(_) => true,
            Answer::Unsat => false,
            Answer::Unknown => self.deferred,
        }
    }

    /// A model of `path` (plus `extra`), or `None` when unsatisfiable or unknown.
    pub fn model(&mut self, path: &[ConstraintId], extra: Option<&Bool>) -> Option<Model> {
        let (key, _) = self.key(path, extra);
        self.first_model(&key)
    }

    fn model_of(
        &mut self,
        key: &[ConstraintId],
        transient: Option<&Bool>,
        effort: Effort,
    ) -> Option<Model> {
        let answer = self.ask(&Query {
            constraints: key,
            added: None,
            transient,
            wants_model: true,
            effort,
        });
        match answer {
            Answer::Sat(model) => model,
            Answer::Unsat | Answer::Unknown => None,
        }
    }

    /// A minimal set of the constraints of `path` that contradict `extra`
    /// (which is always part of the contradiction): Z3's unsat core, shrunk
    /// by dropping each constraint whose absence leaves it unsatisfiable.
    /// `None` when `path` and `extra` are satisfiable together, or unknown.
    pub fn unsat_core(&mut self, path: &[ConstraintId], extra: &Bool) -> Option<Vec<ConstraintId>> {
        z3_backend::minimal_unsat_core(
            &self.store,
            path,
            extra,
            &self.options,
            &self.checks,
            &mut self.calls,
        )
    }

    /// The solver work done so far on this thread (Z3's count, plus the
    /// estimated bit-blasting it does not count): a budget of it ends at
    /// the same point on every run, where one of time would not.
    pub fn work_done(&self) -> u64 {
        self.meter.done() + self.counts.blast_work
    }

    /// Whether the search is past its deadline or cancelled: the solver
    /// then answers nothing.
    pub fn must_stop(&self) -> bool {
        self.options.stop.now()
    }

    /// In concrete mode, whether the candidate's values meet `condition`
    /// (`None` outside it): a question the solver is not asked.
    pub fn values_meet(&mut self, condition: &Bool) -> Option<bool> {
        let id = self.intern(condition);
        let values = self.concrete.as_mut()?;
        Some(values.all_hold(&self.store, &[id]))
    }

    /// The condition `id` stands for.
    pub fn constraint(&self, id: ConstraintId) -> Bool {
        self.store.constraint(id).clone()
    }

    /// [`Self::readable_model`] with each check within [`WISH_LIMIT`]: for
    /// inputs only worth a short question (a flipped boundary's).
    pub fn quick_readable_model(
        &mut self,
        path: &[ConstraintId],
        inputs: &[InputSymbol],
    ) -> Option<Model> {
        self.effort_cap = Some(WISH_LIMIT);
        let model = self.readable_model(path, inputs);
        self.effort_cap = None;
        model
    }

    /// The terms of the store's symbols `symbols`.
    fn symbol_terms(&self, symbols: &[store::SymbolId]) -> StableHashSet<BV> {
        symbols
            .iter()
            .map(|n| self.store.symbol(*n).clone())
            .collect()
    }

    /// The whole integer variables among `inputs` that no constraint of
    /// `path` mentions: any value of theirs takes the same path.
    pub fn free_variables<'i>(
        &mut self,
        path: &[ConstraintId],
        inputs: &'i [InputSymbol],
    ) -> Vec<&'i InputSymbol> {
        let (key, _) = self.key(path, None);
        let constrained = self.symbol_terms(&self.store.symbols_of(&key));
        inputs
            .iter()
            .filter(|input| input.whole && !constrained.contains(&input.value))
            .collect()
    }

    /// A model of `path` whose `inputs` are small where possible (readable
    /// tests): characters in ASCII, other integers near zero, floats and
    /// doubles short binary fractions of moderate size (0.5, 3.25, 1000),
    /// infinities or the default NaN.
    pub fn readable_model(
        &mut self,
        path: &[ConstraintId],
        inputs: &[InputSymbol],
    ) -> Option<Model> {
        // Most questions asked here (can this fault happen?) are answered no,
        // and a first model is often readable already: one query settles both.
        let (key, _) = self.key(path, None);
        // In concrete mode a candidate's values come first, made readable
        // below.
        let first = self.first_model(&key)?;
        if inputs.is_empty() {
            return Some(first);
        }
        let symbols = self.store.symbols_of(&key);
        let constrained = self.symbol_terms(&symbols);
        let floats: StableHashSet<BV> = symbols
            .iter()
            .filter(|n| self.store.is_float_symbol(**n))
            .map(|n| self.store.symbol(*n).clone())
            .collect();
        // Inputs the path never constrains (fields it never reads) are 0.
        let small = |bound: u64| -> Bool {
            let each: Vec<Bool> = inputs
                .iter()
                .map(|input| {
                    let x = &input.value;
                    if floats.contains(x) {
                        readable_float(x)
                    } else if constrained.contains(x) {
                        near_zero(x, bound, input.signed)
                    } else {
                        x.eq(BV::from_u64(0, x.get_size()))
                    }
                })
                .collect();
            Bool::and(&each)
        };
        // Integers are read from the model: evaluating the wish cost more
        // than the rest of a short path's test.
        let readable_already = if floats.is_empty() {
            inputs.iter().all(|input| {
                let x = &input.value;
                match first.eval(x, true).and_then(|v| concrete_term(&v)) {
                    Some(v) if constrained.contains(x) => {
                        is_near_zero(v, x.get_size(), 100, input.signed)
                    }
                    Some(v) => v == 0,
                    None => false,
                }
            })
        } else {
            first.eval(&small(100), true).and_then(|b| b.as_bool()) == Some(true)
        };
        if readable_already {
            return Some(first);
        }
        // Through multipliers or dividers, a wish costs what a first model
        // did (seconds on 64-bit quotients): the values are moved toward
        // zero by evaluation instead.
        let path = self.path_of(&key);
        let ids: Vec<ConstraintId> = path.iter().map(|(id, _)| *id).collect();
        if self.store.blast_work(&ids, None) > 0 {
            let values = Nearby::values_of(&self.store, &path, &first);
            let mut nearby = Nearby::new(&self.store, path, values);
            let movable: Vec<Movable> = (inputs.iter())
                .filter(|input| {
                    constrained.contains(&input.value) && !floats.contains(&input.value)
                })
                .filter_map(|input| {
                    let symbol = self.store.symbol_id_of(&input.value)?;
                    let (near, signed) = near_zero_limit(input.value.get_size(), 100, input.signed);
                    Some(Movable {
                        symbol,
                        signed,
                        near: u128::from(near),
                    })
                })
                .collect();
            nearby.shrink(&movable);
            return Some(nearby.model());
        }
        let preferred = small(100);
        let wish = Effort::Within(WISH_LIMIT);
        // Floats alone readable, when the integers cannot all be small: a
        // NaN the path needs is then still the default one.
        let readable_floats = || {
            let each: Vec<Bool> = inputs
                .iter()
                .filter(|input| floats.contains(&input.value))
                .map(|input| readable_float(&input.value))
                .collect();
            (!each.is_empty()).then(|| Bool::and(&each))
        };
        let preferred = self.with_decisions(preferred);
        self.model_of(&key, Some(&preferred), wish)
            .or_else(|| {
                let moderate = self.with_decisions(small(30_000));
                self.model_of(&key, Some(&moderate), wish)
            })
            .or_else(|| {
                let floats = self.with_decisions(readable_floats()?);
                self.model_of(&key, Some(&floats), wish)
            })
            .or(Some(first))
    }
}

#[cfg(test)]
mod near_zero_tests {
    use super::near_zero_limit;

    #[test]
    fn the_limit_holds_for_every_width_a_value_may_have() {
        // A `_Bool` input is one bit wide: no underflow, nothing to shrink.
        assert_eq!(near_zero_limit(1, 100, false), (0, false));
        assert_eq!(near_zero_limit(8, 100, true), (127, false));
        assert_eq!(near_zero_limit(32, 100, true), (100, true));
        assert_eq!(near_zero_limit(128, u64::MAX, false).0, (1u64 << 62) - 1);
    }
}
