//! Cheap inputs first (issue 11): before the symbolic search, and again
//! for the goals it leaves when a query timed out, concrete candidate
//! inputs run through the executor with the solver in concrete mode
//! (`solver::ValueOracle`): each input symbol gets a sampled value when
//! first met, every branch is decided by evaluating its condition under
//! those values, so a candidate follows one path without a Z3 check. A
//! path covering a new goal becomes a test as any other (its model is the
//! candidate's values). Goals a random input hits easily (a root of a
//! cubic, a loop over nondeterministic values) then cost the solver nothing.
//!
//! Values: zero, small numbers, the code's constants and their neighbours,
//! numbers between two neighbouring constants (the ranges the code's
//! comparisons tell apart) or near one (within its magnitude), numbers of a
//! random magnitude, any number of the width. Among the states a choice
//! forked, the fewest building calls and failing allocations come first,
//! then a seeded pick (a lazy input pointer's NULL, alias or new object).

use crate::exec::{Executor, Hooks};
use crate::explore::{self, Budget, Objective, Searcher};
use crate::searchers::{BestFirst, SplitMix64, Ties};
use crate::solver::{ConstraintId, ValueOracle};
use crate::stable_hash::StableHashMap;
use crate::state::{State, StateId};
use crate::value::{bv_u, sign_extend, LazyIdx};
use ir::{Arm, BlockId, ExprKind, FuncId, Goal, Program, Span, Terminator, Type};
use std::collections::BTreeSet;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Instant;
use z3::ast::{Bool, BV};

/// Loop iterations a candidate's path may make: a random bound of a loop
/// would otherwise spin to the search's bound on every candidate.
const CANDIDATE_ITERATIONS: u32 = 64;

/// How many candidates to try, and when to stop trying.
#[derive(Clone, Copy)]
pub struct Plan {
    /// Seeds the values (with [`Self::first`]): the same plan gives the same candidates.
    pub seed: u64,
    /// Number of the first candidate, so that a later phase tries new ones.
    pub first: u64,
    pub most: u64,
    /// Stop after this many candidates in a row covered nothing new, or
    /// more when progress came late: twice as many as it took to come.
    pub patience: u64,
    /// Statements all candidates together may run: the bound that stops a
    /// phase of slow candidates the same way on every run and machine.
    pub statements: u64,
    /// Only a safety net: a phase stopped by it may stop elsewhere on
    /// another run (as any search stopped by its time budget).
    pub deadline: Instant,
}

/// What a phase of candidates did.
#[derive(Debug, Default, Clone, Copy)]
pub struct Tried {
    pub candidates: u64,
    pub paths: u64,
    pub statements: u64,
}

/// Runs candidates for `objective` (one path each, in concrete mode) as
/// `plan` says, stopping early once `objective` wants no more.
pub fn try_candidates<O: Objective>(
    exec: &mut Executor,
    objective: &mut O,
    constants: &Arc<[i128]>,
    plan: Plan,
) -> Tried {
    let mut tried = Tried::default();
    let search_bound = exec.max_iterations;
    exec.max_iterations = search_bound.min(CANDIDATE_ITERATIONS);
    let budget = Budget {
        max_paths: 1,
        ..Budget::until(plan.deadline, exec.config)
    };
    let cancelled = || budget.cancel.is_some_and(|c| c.load(Ordering::Relaxed));
    let mut fruitless = 0;
    let mut patience = plan.patience;
    while tried.candidates < plan.most
        && fruitless < patience
        && tried.statements < plan.statements
        && Instant::now() < plan.deadline
        && !cancelled()
        && objective.wants_candidates()
    {
        let number = plan.first + tried.candidates;
        tried.candidates += 1;
        let seed = mix(plan.seed, number);
        let sampler = Sampler {
            random: SplitMix64::new(seed),
            constants: Arc::clone(constants),
        };
        let Some(progress) = run_candidate(
            exec,
            objective,
            Box::new(sampler),
            (seed, false),
            (&budget, None),
            &mut tried,
        ) else {
            break;
        };
        if progress {
            fruitless = 0;
            patience = patience.max(2 * tried.candidates);
        } else {
            fruitless += 1;
        }
    }
    exec.solver.leave_concrete_mode();
    exec.max_iterations = search_bound;
    tried
}

/// Runs an input the solver chose (a value per input symbol, in the
/// order the path met them; 0 for symbols it does not name) for
/// `objective`, one path in concrete mode: what such an input does is
/// learnt by running it.
pub fn replay<O: Objective>(
    exec: &mut Executor,
    objective: &mut O,
    values: Vec<(BV, u128)>,
    seed: u64,
    deadline: Instant,
) -> Tried {
    let mut tried = Tried {
        candidates: 1,
        ..Tried::default()
    };
    let search_bound = exec.max_iterations;
    exec.max_iterations = search_bound.min(CANDIDATE_ITERATIONS);
    let budget = Budget {
        max_paths: 1,
        ..Budget::until(deadline, exec.config)
    };
    // Pinned on the path, every value stays in the test, also of inputs
    // the path never reads otherwise: they are what the flip is about.
    let pinned: Vec<Bool> = values
        .iter()
        .map(|(symbol, value)| symbol.eq(bv_u(*value, symbol.get_size())))
        .collect();
    let pinned = Bool::and(&pinned);
    let replayed = Box::new(Replayed(values.into_iter().collect()));
    run_candidate(
        exec,
        objective,
        replayed,
        (seed, true),
        (&budget, Some(&pinned)),
        &mut tried,
    );
    exec.solver.leave_concrete_mode();
    exec.max_iterations = search_bound;
    tried
}

/// Runs one candidate whose input values `oracle` gives, adding what it
/// ran to `tried`: whether it made progress for `objective`, `None` when
/// no run can start. `seed` orders the states its choices fork; with
/// `whole_path`, its path runs to the end whatever `objective` wants; it
/// starts assuming `assumed`.
fn run_candidate<O: Objective>(
    exec: &mut Executor,
    objective: &mut O,
    oracle: Box<dyn ValueOracle>,
    (seed, whole_path): (u64, bool),
    (budget, assumed): (&Budget, Option<&Bool>),
    tried: &mut Tried,
) -> Option<bool> {
    exec.solver.enter_concrete_mode(oracle);
    let mut initial = exec.initial_state().ok()?;
    if let Some(assumed) = assumed {
        initial.path.push(exec.solver.intern(assumed));
    }
    let mut one_path = OnePath {
        inner: objective,
        whole_path,
        finished: false,
        progress: false,
    };
    let ending = explore::run(
        exec,
        &mut one_path,
        &mut candidate_order(seed),
        budget,
        vec![initial],
    );
    tried.paths += ending.paths;
    tried.statements += ending.statements;
    Some(one_path.progress)
}

/// The order among the states a candidate's choices forked: fewest calls
/// building its inputs and fewest failing allocations first (as the
/// coverage order's short constructions: the plainest test of a goal),
/// then a pick seeded by `seed` (which shape of a lazy input pointer).
fn candidate_order<O>(seed: u64) -> impl Searcher<O> {
    BestFirst::new(
        move |st: &State, _: &O| {
            Some((
                st.build_calls(),
                st.failing_allocations.len(),
                mix(seed, st.id.0),
            ))
        },
        Ties::Oldest,
        false,
    )
}

/// The seed of candidate `number`.
fn mix(seed: u64, number: u64) -> u64 {
    SplitMix64::new(seed ^ number.wrapping_mul(0x9e37_79b9_7f4a_7c15)).next()
}

/// The integer constants of `func` and of the functions it calls (directly
/// or not), sign-extended, sorted, without repeats.
pub fn constants(program: &Program, func: FuncId) -> Arc<[i128]> {
    let mut found = BTreeSet::new();
    let mut seen = BTreeSet::from([func]);
    let mut todo = vec![func];
    while let Some(f) = todo.pop() {
        let Some(body) = &program.function(f).body else {
            continue;
        };
        ir::walk::operands(body, |operand| match operand {
            ir::walk::Operand::Called(callee) => {
                if seen.insert(callee) {
                    todo.push(callee);
                }
            }
            ir::walk::Operand::Evaluated(expr) => ir::walk::subexpressions(expr, &mut |e| {
                if let (ExprKind::Int(bits), Type::Int(it)) = (&e.kind, &e.ty) {
                    found.insert(sign_extend(*bits, u32::from(it.bits), it.signed));
                }
            }),
            ir::walk::Operand::Assigned(_) => {}
        });
        for block in &body.blocks {
            if let Terminator::Switch { cases, .. } = &block.term {
                found.extend(cases.iter().map(|(case, _)| *case));
            }
        }
    }
    found.into_iter().collect()
}

/// Samples the values of one candidate.
struct Sampler {
    random: SplitMix64,
    constants: Arc<[i128]>,
}

impl Sampler {
    /// A signed number, as described in the module's documentation.
    fn number(&mut self, bits: u32) -> i128 {
        let width = bits.clamp(1, 64);
        let pool = self.constants.len() as u64;
        let at = (pool > 0).then(|| self.random.below(pool) as usize);
        let constant = at.map(|at| self.constants[at]);
        match (self.random.below(16), constant) {
            (0, _) => 0,
            (1..=4, Some(c)) => c + i128::from(self.random.below(3)) - 1,
            // Between two neighbouring constants: each interval is a range
            // the code's comparisons may tell apart.
            (5..=8, Some(c)) => match at.and_then(|at| self.constants.get(at + 1)) {
                Some(next) => c + i128::from(self.random.below((next - c) as u64 + 1)),
                None => c + self.signed_below(width),
            },
            (9 | 10, Some(c)) => {
                let magnitude = 128 - c.unsigned_abs().leading_zeros();
                c + self.signed_below(magnitude.min(width))
            }
            (11 | 12, _) => self.signed_below(width),
            (13, _) => i128::from(self.random.next()),
            _ => i128::from(self.random.below(17)) - 8,
        }
    }

    /// A number of magnitude below 2^k for a random k up to `bits`, of random sign.
    fn signed_below(&mut self, bits: u32) -> i128 {
        let k = self.random.below(u64::from(bits) + 1) as u32;
        let magnitude = if k >= 64 {
            self.random.next()
        } else {
            self.random.below(1u64 << k)
        };
        let magnitude = i128::from(magnitude);
        if self.random.below(2) == 0 {
            magnitude
        } else {
            -magnitude
        }
    }
}

impl ValueOracle for Sampler {
    fn value(&mut self, symbol: &BV, float: bool) -> u128 {
        let bits = symbol.get_size();
        let number = self.number(bits);
        let value = match (float, bits) {
            (true, 32) => u128::from((number as f32).to_bits()),
            (true, 64) => u128::from((number as f64).to_bits()),
            _ => number as u128,
        };
        if bits >= 128 {
            value
        } else {
            value & ((1u128 << bits) - 1)
        }
    }
}

/// The values of an input the solver chose.
struct Replayed(StableHashMap<BV, u128>);

impl ValueOracle for Replayed {
    fn value(&mut self, symbol: &BV, _float: bool) -> u128 {
        self.0.get(symbol).copied().unwrap_or(0)
    }
}

/// Runs one path for an objective: done once a path completes or ends;
/// what cut or stopped the others says nothing about the goals (a
/// candidate is one input among many), so only completed paths reach it.
struct OnePath<'o, O> {
    inner: &'o mut O,
    /// Run the path to its end, even where `inner` would drop it.
    whole_path: bool,
    finished: bool,
    /// The completed path was progress for the objective (a new test).
    progress: bool,
}

impl<O: Objective> Hooks for OnePath<'_, O> {
    fn forked(&mut self, parent: StateId, child: StateId) {
        self.inner.forked(parent, child)
    }
    fn entering(&mut self, state: &State, block: BlockId) {
        self.inner.entering(state, block)
    }
    fn wants_arm(&mut self, state: &State, block: BlockId) -> bool {
        self.inner.wants_arm(state, block)
    }
    fn arm_infeasible(&mut self, state: &State, arm: Arm, cond: &Bool) {
        self.inner.arm_infeasible(state, arm, cond)
    }
    fn arm_taken(&mut self, state: &State, arm: Arm, constraint: Option<ConstraintId>) {
        self.inner.arm_taken(state, arm, constraint)
    }
    fn pointer_decided(&mut self, state: &State, lazy: LazyIdx, span: Span) {
        self.inner.pointer_decided(state, lazy, span)
    }
    fn compared(&mut self, state: &State, span: Span, difference: &BV) {
        self.inner.compared(state, span, difference)
    }
}

impl<O: Objective> Objective for OnePath<'_, O> {
    fn admit(&mut self, state: &State) -> bool {
        self.whole_path || self.inner.admit(state)
    }
    fn keeps(&self, state: &State) -> bool {
        self.whole_path || self.inner.keeps(state)
    }
    fn selected(&mut self, state: &State) {
        self.inner.selected(state)
    }
    fn completed(&mut self, exec: &mut Executor, state: State) -> bool {
        self.finished = true;
        self.progress = self.inner.completed(exec, state);
        self.progress
    }
    fn ended(&mut self, _trace: &[Goal]) {
        self.finished = true;
    }
    fn released(&mut self, state: StateId) {
        self.inner.released(state)
    }
    fn done(&self) -> bool {
        self.finished || (!self.whole_path && self.inner.done())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sampler(constants: &[i128]) -> Sampler {
        Sampler {
            random: SplitMix64::new(7),
            constants: constants.into(),
        }
    }

    #[test]
    fn values_fit_their_width_and_repeat_with_the_seed() {
        let draw = |bits| {
            let mut s = sampler(&[-1000, 1000]);
            let x = BV::new_const("x", bits);
            (0..200).map(|_| s.value(&x, false)).collect::<Vec<_>>()
        };
        assert_eq!(draw(32), draw(32));
        assert!(draw(8).iter().all(|v| *v < 256));
        assert!(draw(1).iter().all(|v| *v < 2));
    }

    #[test]
    fn values_come_near_the_constants_and_zero() {
        let mut s = sampler(&[1900, 2100]);
        let x = BV::new_const("x", 32);
        let values: Vec<i32> = (0..400).map(|_| s.value(&x, false) as u32 as i32).collect();
        let between = values.iter().filter(|v| (1900..=2100).contains(*v)).count();
        assert!(between >= 40, "{between} of 400 in the code's range");
        assert!(values.contains(&0));
        assert!(values.contains(&1899) || values.contains(&2101));
        assert!(values.iter().any(|v| *v < 0));
    }

    #[test]
    fn float_values_are_numbers() {
        let mut s = sampler(&[3]);
        for _ in 0..100 {
            let bits = s.value(&BV::new_const("d", 64), true) as u64;
            assert!(f64::from_bits(bits).is_finite());
        }
    }

    #[test]
    fn signed_constants_are_sign_extended() {
        assert_eq!(sign_extend(0xFFFF_FC18, 32, true), -1000);
        assert_eq!(sign_extend(0xFFFF_FC18, 32, false), 0xFFFF_FC18);
    }
}
