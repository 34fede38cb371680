//! Cheap inputs first (issue 11): before the symbolic search, and again
//! for the goals it leaves when a query timed out, concrete candidate
//! inputs run through the executor. A candidate is first *screened*: its
//! input scalars are native numbers, so its one path is native work, and
//! it only tells whether it reaches a goal the objective lacks, sits on an
//! edge of a comparison it lacks, or certainly faults. Only then does it
//! run in full, with the solver in concrete mode (`solver::ValueOracle`):
//! each input symbol gets the same value, taken when first met, every
//! branch is decided by evaluating its condition under the values, and a
//! path covering a new goal becomes a test as any other (its model is the
//! candidate's values). Goals a random input hits easily (a root of a
//! cubic, a loop over nondeterministic values) then cost the solver
//! nothing, and the candidates that reach nothing new cost no term either.
//!
//! Values: zero, small numbers, the code's constants (with the bytes of
//! string literals it hands to the C library) and their neighbours,
//! numbers between two neighbouring constants (the ranges the code's
//! comparisons tell apart) or near one (within its magnitude), numbers of a
//! random magnitude, any number of the width, each from the candidate's
//! seed and the input's name. Among the states a choice forked, the fewest
//! building calls and failing allocations come first, then those within
//! the candidate's input allowance, then a pick seeded by the choices so
//! far (a lazy input pointer's NULL, a link back into its structure, or a
//! new object): both runs of a candidate take the same shape. A candidate
//! passes each parameter its own input: a buffer or node two parameters
//! share (an alias a finding may need) is left to the symbolic search,
//! which tries them after distinct ones. The allowance grows with the
//! candidate's number: the first candidates pass NULL or one node, later
//! ones longer lists, so a goal a small input reaches gets a small test,
//! as in the symbolic search's order.

use crate::exec::{Executor, Hooks, PathEnd};
use crate::explore::{self, Budget, Objective, Searcher};
use crate::searchers::{BestFirst, SplitMix64, Ties};
use crate::solver::{symbol_name, ConstraintId, ValueOracle};
use crate::stable_hash::{mix, FixedHasher, StableHashMap};
use crate::state::{NativeInputs, State, StateId};
use crate::value::{bv_u, sign_extend, LazyIdx};
use ir::{Arm, BlockId, ExprKind, FuncId, Goal, Program, Span, Terminator, Type};
use std::collections::BTreeSet;
use std::hash::Hasher;
use std::rc::Rc;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Instant;
use z3::ast::{Bool, BV};

/// Loop iterations a candidate's path may make: a random bound of a loop
/// would otherwise spin to the search's bound on every candidate. Enough
/// for a loop over a whole frame of samples or a line of text.
const CANDIDATE_ITERATIONS: u32 = 256;

/// Most elements of a candidate's input array (not a string): concrete values
/// cost no solving, so a candidate may pass the whole buffer a function
/// reads at fixed indices (160 samples of a speech frame), where the
/// symbolic search's `max_array` keeps its forks few.
const CANDIDATE_ARRAY: u64 = 256;

/// Full runs of screened candidates that made no test, per goal or edge
/// they were run for, before that one alone stops being worth a full run:
/// a screened run may reach what its full run does not (a formatted
/// number whose term does not simplify under the values), or sit on an
/// edge the full run's comparison does not report (its inputs fixed by an
/// earlier index).
const FULL_RUN_TRIES: u32 = 2;

/// Candidates per unit of input allowance ([`State::input_size`]):
/// candidate `n` builds up to `n / CANDIDATES_PER_INPUT` without penalty.
const CANDIDATES_PER_INPUT: u64 = 8;

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
    let search_elements = exec.max_elements;
    exec.max_elements = search_elements.max(CANDIDATE_ARRAY);
    let budget = Budget {
        max_paths: 1,
        ..Budget::until(plan.deadline, exec.config)
    };
    let cancelled = || budget.cancel.is_some_and(|c| c.load(Ordering::Relaxed));
    let mut misses: StableHashMap<Wanted, u32> = StableHashMap::default();
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
        let values: Rc<dyn ValueOracle> = Rc::new(Sampler {
            seed,
            constants: Arc::clone(constants),
        });
        let sampled = |screened| Run::Sampled {
            seed,
            allowance: number / CANDIDATES_PER_INPUT,
            screened,
        };
        let Some(screened) =
            run_candidate(exec, objective, &values, sampled(true), &budget, &mut tried)
        else {
            break;
        };
        let worth_it = screened.progress
            || (screened.wanted.iter())
                .any(|wanted| misses.get(wanted).copied().unwrap_or(0) < FULL_RUN_TRIES);
        let progress = worth_it
            && run_candidate(
                exec,
                objective,
                &values,
                sampled(false),
                &budget,
                &mut tried,
            )
            .is_some_and(|ran| ran.progress);
        if worth_it && !progress {
            for wanted in screened.wanted {
                *misses.entry(wanted).or_default() += 1;
            }
        }
        if progress {
            fruitless = 0;
            patience = patience.max(2 * tried.candidates);
        } else {
            fruitless += 1;
        }
    }
    exec.solver.leave_concrete_mode();
    exec.max_iterations = search_bound;
    exec.max_elements = search_elements;
    tried
}

/// Runs an input the solver chose (a value per input symbol, by name; 0
/// for symbols it does not name) for
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
    let replayed: Rc<dyn ValueOracle> = Rc::new(Replayed(
        (values.iter())
            .map(|(symbol, value)| (symbol_name(symbol), *value))
            .collect(),
    ));
    let pinned = Bool::and(&pinned);
    run_candidate(
        exec,
        objective,
        &replayed,
        Run::Replayed { seed, pinned },
        &budget,
        &mut tried,
    );
    exec.solver.leave_concrete_mode();
    exec.max_iterations = search_bound;
    tried
}

/// How a candidate's input came, and so how its path runs.
enum Run {
    /// Sampled values: states forked within `allowance` first
    /// ([`candidate_order`]), each parameter its own input. `screened`:
    /// the inputs are native numbers, no fault is asked or reported, and
    /// the run only tells whether the candidate reaches something the
    /// objective lacks or certainly faults (then it runs again, not
    /// screened, to make its test or finding). Most candidates reach
    /// nothing new, and a screened one costs native work only.
    Sampled {
        seed: u64,
        allowance: u64,
        screened: bool,
    },
    /// Values the solver chose, for their shape too: the path runs to its
    /// end whatever the objective wants, starting with `pinned` assumed.
    Replayed { seed: u64, pinned: Bool },
}

/// What one candidate's run showed.
struct Ran {
    /// Progress for the objective; screened, a fault met: worth running in full.
    progress: bool,
    /// Screened, what the path met that the objective lacks (worth running
    /// in full too).
    wanted: Vec<Wanted>,
}

/// What a screened path met that the objective lacks.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
enum Wanted {
    Goal(Goal),
    /// Any completed path ([`Objective::lacks_any_path`]).
    AnyPath,
    /// An edge of a comparison, by place and offset.
    Edge(Span, i8),
}

/// Runs one candidate whose input values `values` gives, as `run` says,
/// adding what it ran to `tried`; `None` when no run can start.
fn run_candidate<O: Objective>(
    exec: &mut Executor,
    objective: &mut O,
    values: &Rc<dyn ValueOracle>,
    run: Run,
    budget: &Budget,
    tried: &mut Tried,
) -> Option<Ran> {
    // Screened, the values also answer for the symbols that stay (an
    // input array's length, a cursor's index) as in a full run.
    exec.solver.enter_concrete_mode(Rc::clone(values));
    let screened = matches!(run, Run::Sampled { screened: true, .. });
    let native = screened.then(|| NativeInputs(Rc::clone(values)));
    let mut initial = exec.initial_state_of(native).ok()?;
    let (seed, allowance) = match &run {
        Run::Sampled {
            seed, allowance, ..
        } => (*seed, *allowance),
        Run::Replayed { seed, pinned } => {
            initial.path.push(exec.solver.intern(pinned));
            (*seed, u64::MAX)
        }
    };
    let mut one_path = OnePath {
        inner: objective,
        own_inputs: !matches!(run, Run::Replayed { .. }),
        screened,
        edges: Vec::new(),
        wanted: Vec::new(),
        finished: false,
        progress: false,
    };
    exec.noting_faults = screened.then_some(false);
    let ending = explore::run(
        exec,
        &mut one_path,
        &mut candidate_order(seed, allowance),
        budget,
        vec![initial],
    );
    let faulted = exec.noting_faults.take() == Some(true);
    tried.paths += ending.paths;
    tried.statements += ending.statements;
    Some(Ran {
        progress: one_path.progress || faulted,
        wanted: one_path.wanted,
    })
}

/// The order among the states a candidate's choices forked: fewest calls
/// building its inputs and fewest failing allocations first (as the
/// coverage order's short constructions: the plainest test of a goal),
/// then the least input beyond `allowance`, then a pick seeded by `seed`
/// (which shape of a lazy input pointer).
fn candidate_order<O>(seed: u64, allowance: u64) -> impl Searcher<O> {
    BestFirst::new(
        move |st: &State, _: &O| {
            Some((
                st.build_calls(),
                st.failing_allocations.len(),
                (st.input_size() as u64).saturating_sub(allowance),
                mix(seed, st.lineage),
            ))
        },
        Ties::Oldest,
        false,
    )
}

/// Every expression `body` evaluates, subexpressions included.
fn each_expression<'b>(body: &'b ir::Body, visit: &mut impl FnMut(&'b ir::Expr)) {
    ir::walk::operands(body, |operand| {
        if let ir::walk::Operand::Evaluated(expr) = operand {
            ir::walk::subexpressions(expr, visit);
        }
    });
}

/// The `float` and `double` constants of `func` and of the functions it
/// calls, as doubles, sorted, without repeats.
pub fn float_constants(program: &Program, func: FuncId) -> Vec<f64> {
    let mut found = Vec::new();
    for body in ir::walk::bodies_called_from(program, func) {
        each_expression(body, &mut |e| match (&e.kind, e.ty.as_ieee_float()) {
            (ExprKind::Float(bits), Some(ir::FloatKind::F32)) => {
                found.push(f64::from(f32::from_bits(*bits as u32)));
            }
            (ExprKind::Float(bits), Some(_)) => found.push(f64::from_bits(*bits)),
            _ => {}
        });
    }
    found.sort_by(f64::total_cmp);
    found.dedup_by(|a, b| a.to_bits() == b.to_bits());
    found
}

/// The integer constants of `func` and of the functions it calls (directly
/// or not), sign-extended, sorted, without repeats.
pub fn constants(program: &Program, func: FuncId) -> Arc<[i128]> {
    let mut found = BTreeSet::new();
    for body in ir::walk::bodies_called_from(program, func) {
        each_expression(body, &mut |e| {
            if let (ExprKind::Int(bits), Type::Int(it)) = (&e.kind, &e.ty) {
                found.insert(sign_extend(*bits, u32::from(it.bits), it.signed));
            }
        });
        for block in &body.blocks {
            if let Terminator::Switch { cases, .. } = &block.term {
                found.extend(cases.iter().map(|(case, _)| *case));
            }
        }
    }
    // The bytes of string literals handed to the C library
    // (`strspn(s, "0123456789")`): what it compares an input's bytes with,
    // though no comparison of the code shows them.
    for (callee, id) in ir::walk::literals_handed_to_bodiless(program, func) {
        if !testcase::c_library::is_stubbed(program, callee) {
            found.extend(program.strings[id.index()].iter().map(|b| i128::from(*b)));
        }
    }
    found.into_iter().collect()
}

/// Samples the values of one candidate: each input's from its name and
/// the candidate's seed alone (see [`ValueOracle`]).
struct Sampler {
    seed: u64,
    constants: Arc<[i128]>,
}

impl Sampler {
    /// A signed number, as described in the module's documentation.
    fn number(&self, random: &mut SplitMix64, bits: u32) -> i128 {
        let width = bits.clamp(1, 64);
        let pool = self.constants.len() as u64;
        let at = (pool > 0).then(|| random.below(pool) as usize);
        let constant = at.map(|at| self.constants[at]);
        match (random.below(16), constant) {
            (0, _) => 0,
            (1..=4, Some(c)) => c + i128::from(random.below(3)) - 1,
            // Between two neighbouring constants: each interval is a range
            // the code's comparisons may tell apart.
            (5..=8, Some(c)) => match at.and_then(|at| self.constants.get(at + 1)) {
                Some(next) => c + i128::from(random.below((next - c) as u64 + 1)),
                None => c + signed_below(random, width),
            },
            (9 | 10, Some(c)) => {
                let magnitude = 128 - c.unsigned_abs().leading_zeros();
                c + signed_below(random, magnitude.min(width))
            }
            (11 | 12, _) => signed_below(random, width),
            (13, _) => i128::from(random.next()),
            _ => i128::from(random.below(17)) - 8,
        }
    }
}

/// A number of magnitude below 2^k for a random k up to `bits`, of random sign.
fn signed_below(random: &mut SplitMix64, bits: u32) -> i128 {
    let k = random.below(u64::from(bits) + 1) as u32;
    let magnitude = if k >= 64 {
        random.next()
    } else {
        random.below(1u64 << k)
    };
    let magnitude = i128::from(magnitude);
    if random.below(2) == 0 {
        magnitude
    } else {
        -magnitude
    }
}

impl ValueOracle for Sampler {
    fn value(&self, name: &str, bits: u32, float: bool) -> u128 {
        let mut named = FixedHasher::default();
        named.write(name.as_bytes());
        let mut random = SplitMix64::new(mix(self.seed, named.finish()));
        let number = self.number(&mut random, bits);
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

/// The values of an input the solver chose, by symbol name.
struct Replayed(StableHashMap<String, u128>);

impl ValueOracle for Replayed {
    fn value(&self, name: &str, _bits: u32, _float: bool) -> u128 {
        self.0.get(name).copied().unwrap_or(0)
    }
}

/// Runs one path for an objective, to its end whatever the objective
/// would drop (a screened path may meet an edge it lacks; one run in full
/// was found worth it): done once a path completes or ends; what cut or
/// stopped the others says nothing about the goals (a candidate is one
/// input among many), so only completed paths reach it.
struct OnePath<'o, O> {
    inner: &'o mut O,
    /// Admit only states whose parameters each have their own input.
    own_inputs: bool,
    /// A screening run ([`Run::Sampled`]): a completed or ended path is
    /// only checked for goals the objective lacks.
    screened: bool,
    /// Screened, the edges of comparisons the path met, by place and offset.
    edges: Vec<(Span, i8)>,
    /// Screened, what the path met that the objective lacks, once it is over.
    wanted: Vec<Wanted>,
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
    fn at_edge(&mut self, _state: &State, span: Span, offset: i8) {
        if !self.edges.contains(&(span, offset)) {
            self.edges.push((span, offset));
        }
    }
}

impl<O: Objective> OnePath<'_, O> {
    /// Notes the goals of `trace` the objective lacks as wanted.
    fn note_wanted(&mut self, trace: &[Goal]) {
        for goal in trace {
            let wanted = Wanted::Goal(*goal);
            if self.inner.lacks(goal) && !self.wanted.contains(&wanted) {
                self.wanted.push(wanted);
            }
        }
    }
}

impl<O: Objective> Objective for OnePath<'_, O> {
    fn admit(&mut self, state: &State) -> bool {
        !self.own_inputs || state.shared_inputs() == 0
    }
    fn selected(&mut self, state: &State) {
        self.inner.selected(state)
    }
    fn completed(&mut self, exec: &mut Executor, state: State) -> bool {
        self.finished = true;
        if self.screened {
            self.note_wanted(&state.trace);
            if self.inner.lacks_any_path() {
                self.wanted.push(Wanted::AnyPath);
            }
            let inner = &self.inner;
            let lacked = (self.edges.iter())
                .filter(|(span, offset)| inner.lacks_edge(&state, *span, *offset))
                .map(|(span, offset)| Wanted::Edge(*span, *offset));
            self.wanted.extend(lacked);
            return false;
        }
        self.progress = self.inner.completed(exec, state);
        self.progress
    }
    fn ended(&mut self, end: &PathEnd) {
        self.finished = true;
        // What a path ending in a finding reached counts once it is run
        // in full (the finding's test); screened, it is worth that run.
        if self.screened {
            self.note_wanted(&end.reached);
        }
    }
    fn released(&mut self, state: StateId) {
        self.inner.released(state)
    }
    fn done(&self) -> bool {
        self.finished
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sampler(constants: &[i128]) -> Sampler {
        Sampler {
            seed: 7,
            constants: constants.into(),
        }
    }

    /// The values of 200 symbols of `bits` bits.
    fn draw(s: &Sampler, bits: u32) -> Vec<u128> {
        (0..200)
            .map(|i| s.value(&format!("x#{i}"), bits, false))
            .collect()
    }

    #[test]
    fn values_fit_their_width_and_repeat_with_the_seed() {
        let draw = |bits| draw(&sampler(&[-1000, 1000]), bits);
        assert_eq!(draw(32), draw(32));
        assert!(draw(8).iter().all(|v| *v < 256));
        assert!(draw(1).iter().all(|v| *v < 2));
    }

    #[test]
    fn values_come_near_the_constants_and_zero() {
        let s = sampler(&[1900, 2100]);
        let values: Vec<i32> = (0..400)
            .map(|i| s.value(&format!("year#{i}"), 32, false) as u32 as i32)
            .collect();
        let between = values.iter().filter(|v| (1900..=2100).contains(*v)).count();
        assert!(between >= 40, "{between} of 400 in the code's range");
        assert!(values.contains(&0));
        assert!(values.contains(&1899) || values.contains(&2101));
        assert!(values.iter().any(|v| *v < 0));
    }

    #[test]
    fn float_values_are_numbers() {
        let s = sampler(&[3]);
        for i in 0..100 {
            let bits = s.value(&format!("d#{i}"), 64, true) as u64;
            assert!(f64::from_bits(bits).is_finite());
        }
    }

    #[test]
    fn signed_constants_are_sign_extended() {
        assert_eq!(sign_extend(0xFFFF_FC18, 32, true), -1000);
        assert_eq!(sign_extend(0xFFFF_FC18, 32, false), 0xFFFF_FC18);
    }
}
