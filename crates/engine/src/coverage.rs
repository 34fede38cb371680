//! Coverage-directed search: the default objective of `cairn gen`. Every
//! completed path that covers a goal no earlier test covered becomes a test;
//! the goals left get the reason why (a budget, something unmodelled, paths
//! ending in a finding first, or infeasible when nothing cut the search).
//!
//! Its default order: fewest loop iterations first, then states carrying or
//! closest (in the CFG) to uncovered goals, then the smallest input shapes,
//! then the shortest paths; taking turns by running time with the deepest
//! state first (which reaches goals behind many iterations whose every level
//! branches). Also a random order, alone or taking turns with the default.
//! With [`HardGoalStrategy::Trees`], the goals it leaves when it stalls go
//! to bounded execution trees (`trees`) solved one disjunction per goal.
//! Boundary goals (`boundary`) add tests on the paths it completes, and
//! never make it run another path. The states it leaves (they could cover
//! nothing more) then run for findings only (`hunt_findings`).
//!
//! Before it, and for the goals it leaves when a query timed out, concrete
//! candidate inputs (`cheap`) cover what random inputs hit easily, the
//! solver asked nothing per branch; the symbolic search gets what they leave.

use crate::boundary::{Boundaries, BoundaryGoal, Flip, OpenGoal};
use crate::bounds::SET_ASIDE_STATES;
use crate::cheap::{self, Plan, Tried};
use crate::config::{
    AllocationFailure, EngineConfig, GoalSelection, HardGoalStrategy, SearchOrder,
};
use crate::distance::{GoalDistances, FAR};
use crate::exec::{Cut, Executor, Hooks, PathEnd, ProgramFacts};
use crate::explore::{self, Budget, Ending, Objective, Searcher};
use crate::searchers::{BestFirst, Interleave, RandomOrder, Ties};
use crate::solver::{self, Alternatives, ConstraintId, PathSolver};
use crate::stable_hash::StableHashMap;
use crate::state::{State, StateId};
use crate::trees;
use ir::decisions::Decision;
use ir::{BlockId, FuncId, Goal, Program, Span};
use std::cell::RefCell;
use std::cmp::Reverse;
use std::collections::{BTreeMap, BTreeSet};
use std::time::{Duration, Instant};
use testcase::Bound;
use testcase::{Boundary, FunctionReport, TestCase, Uncovered};
use z3::ast::{Bool, BV};

/// Why a goal only paths with a failing allocation reach has no test, when
/// no test can make one fail.
const ONLY_FAILING_ALLOCATIONS: &str =
    "only reached when an allocation fails, which a test cannot make happen";

const ONLY_UNHANDLED_FAILURES: &str =
    "only reached by paths that fault or leak after an allocation fails";

/// Rank of a state in the coverage order: fewest calls building its inputs
/// (short constructions first), fewest loop iterations, then
/// carrying or closest to an uncovered goal, then fewest input objects
/// (smallest shapes), then shortest path.
type CoverageRank = (usize, u32, u32, usize, u64);
/// Rank in the depth order: fewest calls building its inputs, then (highest
/// first) most loop iterations, longest path, fewest input objects.
type DepthRank = (usize, Reverse<(u32, u64, Reverse<usize>)>);

/// The coverage objective of one function.
struct Coverage {
    distances: GoalDistances,
    uncovered: BTreeSet<Goal>,
    /// Memo of the distance from each block to the nearest goal of
    /// `uncovered`, forgotten when a goal is covered: every state is
    /// ranked, and most goals stay uncovered for many states.
    nearest_uncovered: RefCell<StableHashMap<(FuncId, BlockId), u32>>,
    /// Why goals reachable from a dropped path may stay uncovered.
    reasons: BTreeMap<Goal, Uncovered>,
    /// The first reason a path stopped: why there is no test, if none.
    first_stop: Option<Uncovered>,
    /// Every bound that cut a path toward a goal left.
    cut_by: BTreeSet<Bound>,
    tests: Vec<TestCase>,
    /// A function without conditions still gets one test (of its only path).
    wants_entry_test: bool,
    /// A function without goals runs every path it has, for findings.
    runs_every_path: bool,
    /// States the search left before their paths ended (they could cover
    /// nothing more), at most [`SET_ASIDE_STATES`]: run for findings once it is
    /// over (see [`hunt_findings`]).
    aside: Vec<State>,
    /// Goals the running state could still cover (for the reason given
    /// when its path is cut).
    reachable: Vec<Goal>,
    /// Boundary goals (`--no-boundary-tests`: `None`): more tests on the
    /// paths completed for branch goals, never a reason to run a path.
    boundaries: Option<Boundaries>,
    /// While a flipped input runs: the way out its boundary goals count for.
    running_flipped: Option<Option<Span>>,
    /// Under MC/DC, the decisions of the searched functions whose vectors
    /// are goals (see [`Coverage::retire_shown_decisions`]).
    decisions: Vec<(FuncId, Decision)>,
    /// Goals the tests so far cover first.
    covered: BTreeSet<Goal>,
}

impl Coverage {
    /// Rank of a state, `None` when it can no longer cover anything.
    fn rank(&self, st: &State) -> Option<CoverageRank> {
        // The call under test is over and a declared invariant is checked
        // on what it left: short work that may end in a finding.
        if st.checking_invariant_on_exit() {
            return Some((0, 0, 0, 0, st.blocks_run));
        }
        let carries_new =
            self.wants_entry_test || st.trace.iter().any(|g| self.uncovered.contains(g));
        let nearest = (st.frames.iter())
            .map(|f| self.nearest_uncovered(f.func, f.block))
            .min()
            .unwrap_or(FAR);
        if !carries_new && nearest == FAR && !self.runs_every_path {
            return None;
        }
        let closeness = if carries_new {
            0
        } else {
            nearest.saturating_add(1)
        };
        Some((
            st.build_calls(),
            st.loop_level,
            closeness,
            st.input_size(),
            st.blocks_run,
        ))
    }

    /// Distance from `block` to the nearest uncovered goal.
    fn nearest_uncovered(&self, func: FuncId, block: BlockId) -> u32 {
        *(self.nearest_uncovered.borrow_mut())
            .entry((func, block))
            .or_insert_with(|| self.distances.nearest(func, block, &self.uncovered))
    }

    /// Goals a state could still cover.
    fn reachable_from(&self, st: &State) -> Vec<Goal> {
        let roots: Vec<(FuncId, BlockId)> = st.frames.iter().map(|f| (f.func, f.block)).collect();
        (self.uncovered.iter())
            .filter(|g| self.lies_behind(g, &roots, &st.trace))
            .copied()
            .collect()
    }

    /// Whether a path at `roots` (the blocks of its frames) that passed
    /// `passed` has reached or may reach `goal`.
    fn lies_behind(&self, goal: &Goal, roots: &[(FuncId, BlockId)], passed: &[Goal]) -> bool {
        passed.contains(goal)
            || (roots.iter()).any(|(func, block)| self.distances.may_reach(*func, *block, goal))
    }

    /// The first reason stays, except that any other budget replaces
    /// `max_iterations`: a loop that spins on a cyclic input is cut by it
    /// while the goal needs more nodes.
    fn cut_goals(&mut self, goals: &[Goal], bound: Bound) {
        self.stopped(Uncovered::Budget(bound));
        if !goals.is_empty() {
            self.cut_by.insert(bound);
        }
        for g in goals {
            let reason = self.reasons.entry(*g).or_insert(Uncovered::Budget(bound));
            if *reason == Uncovered::Budget(Bound::MaxIterations) {
                *reason = Uncovered::Budget(bound);
            }
        }
    }

    /// `reached` are reached by a path that makes no test, `why`.
    fn reached_without_test(&mut self, reached: &[Goal], why: &str) {
        // Reached is known, whatever bound cut other paths toward them.
        for g in reached {
            if matches!(self.reasons.get(g), Some(Uncovered::Budget(_))) {
                self.reasons.remove(g);
            }
        }
        self.explain(reached, why);
    }

    fn stopped(&mut self, why: Uncovered) {
        self.first_stop.get_or_insert(why);
    }

    /// A decision whose every condition the tests so far show independent
    /// needs none of its other vectors: they leave the goals, so that the
    /// budget goes to what MC/DC still lacks (a decision of ranges has many
    /// vectors no input takes, each slow to rule out).
    fn retire_shown_decisions(&mut self) {
        for (func, decision) in &self.decisions {
            let goal = |n: usize| Goal {
                func: *func,
                site: decision.site,
                arm: decision.arm_of(n),
            };
            let vectors = 0..decision.vectors.len();
            let open: Vec<Goal> = (vectors.clone().map(goal))
                .filter(|g| self.uncovered.contains(g))
                .collect();
            if open.is_empty() {
                continue;
            }
            let taken: Vec<usize> = vectors
                .filter(|&n| self.covered.contains(&goal(n)))
                .collect();
            let all_shown = (decision.conditions.iter().enumerate()).all(|(c, condition)| {
                condition.constant.is_some() || decision.independence_pair(c, &taken).is_some()
            });
            if all_shown {
                for g in open {
                    self.uncovered.remove(&g);
                    self.reasons.insert(g, Uncovered::NotSought);
                }
            }
        }
    }

    fn explain(&mut self, goals: &[Goal], why: &str) {
        self.stopped(Uncovered::Unsupported(why.to_string()));
        for g in goals {
            self.reasons
                .entry(*g)
                .or_insert_with(|| Uncovered::Unsupported(why.to_string()));
        }
    }
}

impl Coverage {
    /// The way out of `st`'s completed path that its boundary goals count
    /// for: where it returned, or, for a flipped input being run, the way
    /// out of the path whose other conditions it meets.
    fn exit_of(&self, st: &State) -> Option<Span> {
        self.running_flipped.unwrap_or(st.returned_at)
    }

    /// One test more on `st`'s completed path for each boundary goal still
    /// open among its comparisons; true when it made any. A goal the path
    /// rules out is asked flipped, its input kept to run after the search.
    fn boundary_tests(&mut self, exec: &mut Executor, st: &State) -> bool {
        // A candidate's values answer for its path: one that misses an
        // edge says nothing of the path's other inputs.
        let candidate = exec.solver.in_concrete_mode();
        let exit = self.exit_of(st);
        // A flipped input's values are its test: the goals they meet need
        // no question, so no clock decides which it gets.
        let flipped = self.running_flipped.is_some();
        let Some(boundaries) = &mut self.boundaries else {
            return false;
        };
        let open = boundaries.open_on(st, exit);
        let sat_on = boundaries_of(&open);
        let mut made = false;
        for OpenGoal { goal, condition } in &open {
            // A test made for an earlier goal may sit on this one too.
            if !boundaries.is_open(goal) || !(flipped || boundaries.has_work_left()) {
                continue;
            }
            // On another way out, a candidate only counts where its own
            // values sit: a question per candidate and exit would take the
            // time of the first test of each boundary.
            let values_only = flipped || boundaries.tested_on_any_exit(&goal.boundary);
            let test = match condition {
                None => None,
                Some(condition)
                    if values_only && exec.solver.values_meet(condition) == Some(false) =>
                {
                    None
                }
                Some(condition) => {
                    let work_before = exec.solver.work_done();
                    let test = exec.solve_test_on(st, Vec::new(), Some(condition), &sat_on);
                    boundaries.spend(exec.solver.work_done() - work_before);
                    test
                }
            };
            match test {
                Some(mut test) => {
                    boundaries.cover(&mut test.boundaries, exit);
                    // A flip's input may be one a test has already (a case
                    // range's edge seen from each other arm): the goal is
                    // met, and the test is not written twice.
                    if !self.tests.iter().any(|t| t.inputs == test.inputs) {
                        self.tests.push(test);
                    }
                    made = true;
                }
                None => {
                    if !candidate {
                        boundaries.missed(*goal);
                    }
                    if let Some(flip) = boundaries.flip(st.id, goal, st.path.len()) {
                        let conditions = flipped_conditions(exec, st, flip);
                        boundaries.flipped(*goal, conditions, st.input_symbols.to_vec());
                    }
                }
            }
        }
        made
    }
}

/// The boundaries of `goals` the path may meet, each with its condition.
fn boundaries_of(goals: &[OpenGoal]) -> Vec<(Boundary, Bool)> {
    goals
        .iter()
        .filter_map(|open| Some((open.goal.boundary, open.condition.clone()?)))
        .collect()
}

/// The conditions of `st`'s path, but for the branch `flip` replaces by
/// its boundary: as terms, which outlive the constraints of a candidate.
fn flipped_conditions(exec: &Executor, st: &State, flip: Flip) -> Vec<Bool> {
    let before = &st.path[..flip.path_len];
    let after = &st.path[flip.path_len + 1..];
    let kept = before
        .iter()
        .chain(after)
        .map(|id| exec.solver.constraint(*id));
    kept.chain([flip.condition]).collect()
}

/// Asks each flipped boundary left (while they have spent less than
/// `work` units of solver work, within the function's `deadline`, which
/// alone sets how long a query may take) and runs its input: what it does
/// is a test when it sits on a boundary goal still open.
fn run_flips(
    exec: &mut Executor,
    coverage: &mut Coverage,
    (work, deadline): (u64, Instant),
    ending: &mut Ending,
) {
    let Some(pending) = coverage.boundaries.as_mut().map(Boundaries::take_flipped) else {
        return;
    };
    let work_until = exec.solver.work_done().saturating_add(work);
    // The counts (flips, paths) and the work bound them the same way on
    // every run and machine; the deadline is only a safety net.
    for flip in pending.into_iter().take(MOST_FLIPS) {
        let out_of_paths = ending.paths >= exec.config.max_paths;
        if out_of_paths || exec.solver.work_done() >= work_until || exec.solver.must_stop() {
            break;
        }
        // Asked of a solver of its own: an incremental solver's answers
        // depend on what it was asked before, which a flip must not.
        let mut own = PathSolver::for_config(exec.config, deadline);
        let path: Vec<ConstraintId> = (flip.conditions.iter()).map(|c| own.intern(c)).collect();
        let Some(model) = own.quick_readable_model(&path, &flip.inputs) else {
            continue;
        };
        let values: Vec<(BV, u128)> = (flip.inputs.iter())
            .filter_map(|input| {
                let value = model.eval(&input.value, true)?;
                Some((input.value.clone(), crate::value::concrete_term(&value)?))
            })
            .collect();
        coverage.running_flipped = Some(flip.exit);
        let ran = cheap::replay(exec, coverage, values, exec.config.seed, deadline);
        coverage.running_flipped = None;
        ending.paths += ran.paths;
        ending.statements += ran.statements;
    }
}

impl Hooks for Coverage {
    fn forked(&mut self, parent: StateId, child: StateId) {
        if let Some(boundaries) = &mut self.boundaries {
            boundaries.forked(parent, child);
        }
    }

    fn compared(&mut self, state: &State, span: Span, difference: &BV) {
        if let Some(boundaries) = &mut self.boundaries {
            boundaries.compared(state.id, span, difference, state.path.len());
        }
    }
}

impl Objective for Coverage {
    fn admit(&mut self, state: &State) -> bool {
        self.rank(state).is_some()
    }

    fn keeps(&self, state: &State) -> bool {
        self.rank(state).is_some()
    }

    fn selected(&mut self, state: &State) {
        self.reachable = self.reachable_from(state);
    }

    fn completed(&mut self, exec: &mut Executor, st: State) -> bool {
        let new_goals: Vec<Goal> = st
            .trace
            .iter()
            .filter(|g| self.uncovered.contains(g))
            .copied()
            .collect();
        // No test can make an allocation fail: what the path reached is
        // reachable, but not by a test.
        if exec.config.allocation_failure == AllocationFailure::Explored
            && !st.failing_allocations.is_empty()
        {
            self.reached_without_test(&new_goals, ONLY_FAILING_ALLOCATIONS);
            return false;
        }
        let mut progress = false;
        if !new_goals.is_empty() || self.wants_entry_test {
            let exit = self.exit_of(&st);
            let open = match &mut self.boundaries {
                Some(boundaries) => boundaries_of(&boundaries.open_on(&st, exit)),
                None => Vec::new(),
            };
            let Some(mut test) = exec.solve_test_on(&st, new_goals, None, &open) else {
                return false;
            };
            for g in &test.new_goals {
                self.uncovered.remove(g);
                self.covered.insert(*g);
            }
            self.retire_shown_decisions();
            self.nearest_uncovered.borrow_mut().clear();
            if let Some(boundaries) = &mut self.boundaries {
                boundaries.cover(&mut test.boundaries, exit);
            }
            self.wants_entry_test = false;
            self.tests.push(test);
            progress = true;
        }
        self.boundary_tests(exec, &st) || progress
    }

    fn ended(&mut self, end: &PathEnd) {
        let reached = &end.reached;
        // After a fault the code may go on from where the path ended;
        // after `exit` or `abort` nothing does.
        let ahead: Vec<Goal> = match end.program_ends {
            true => Vec::new(),
            false => (self.reachable.iter())
                .filter(|g| !reached.contains(g) && self.lies_behind(g, &end.at, &[]))
                .copied()
                .collect(),
        };
        let why = match end.after_failed_allocation {
            true => ONLY_UNHANDLED_FAILURES,
            false => {
                "only reached by paths that end in a finding, exit, abort or a loop that never ends"
            }
        };
        self.reached_without_test(reached, why);
        self.explain(
            &ahead,
            "the paths toward it end in a finding, exit or abort first",
        );
    }

    fn released(&mut self, state: StateId) {
        if let Some(boundaries) = &mut self.boundaries {
            boundaries.released(state);
        }
    }

    fn unsupported(&mut self, what: &str) {
        let reachable = std::mem::take(&mut self.reachable);
        self.explain(&reachable, what);
        self.reachable = reachable;
    }

    fn cut(&mut self, bound: Bound) {
        let reachable = std::mem::take(&mut self.reachable);
        self.cut_goals(&reachable, bound);
        self.reachable = reachable;
    }

    /// Only the goals behind the cut: a bound met late in a turn that
    /// started at the entry does not cut the branches the turn passed by.
    fn cut_at(&mut self, cut: &Cut) {
        let behind: Vec<Goal> = (self.reachable.iter())
            .filter(|g| self.lies_behind(g, &cut.at, &cut.passed))
            .copied()
            .collect();
        self.cut_goals(&behind, cut.bound);
    }

    fn wants_candidates(&self) -> bool {
        !self.done() || self.boundaries.as_ref().is_some_and(Boundaries::any_open)
    }

    fn lacks(&self, goal: &Goal) -> bool {
        self.uncovered.contains(goal)
    }

    fn lacks_any_path(&self) -> bool {
        self.wants_entry_test
    }

    fn lacks_edge(&self, state: &State, span: Span, offset: i8) -> bool {
        let goal = BoundaryGoal {
            boundary: Boundary { span, offset },
            exit: self.exit_of(state),
        };
        (self.boundaries.as_ref()).is_some_and(|b| b.lacks(&goal))
    }

    fn done(&self) -> bool {
        self.uncovered.is_empty() && !self.wants_entry_test && !self.runs_every_path
    }

    fn set_aside(&mut self, state: State) {
        if self.aside.len() < SET_ASIDE_STATES {
            self.aside.push(state);
        }
    }
}

/// The coverage order, recomputed for the state about to run: goals get
/// covered as the search goes.
fn coverage_order() -> impl Searcher<Coverage> {
    BestFirst::new(
        |st: &State, coverage: &Coverage| coverage.rank(st),
        Ties::Oldest,
        true,
    )
}

/// The deepest state first (the newest among equals).
fn depth_order() -> impl Searcher<Coverage> {
    BestFirst::new(
        |st: &State, _: &Coverage| -> Option<DepthRank> {
            Some((
                st.build_calls(),
                Reverse((st.loop_level, st.blocks_run, Reverse(st.input_size()))),
            ))
        },
        Ties::Newest,
        false,
    )
}

/// The order `config` asks for.
fn searcher(config: &EngineConfig) -> Box<dyn Searcher<Coverage>> {
    let default = || Interleave::new(coverage_order(), depth_order());
    match config.search {
        SearchOrder::Coverage => Box::new(default()),
        SearchOrder::Random => Box::new(RandomOrder::new(config.seed)),
        SearchOrder::CoverageAndRandom => {
            Box::new(Interleave::new(default(), RandomOrder::new(config.seed)))
        }
    }
}

/// Boundary queries, and then flipped ones, take at most the solver work
/// of this fraction of the time budget each. Z3's work count misses some of
/// the time nonlinear queries take (bit-blasting a product): sampled.c's
/// functions take 6 s rather than 3.5 s. An eighth for flips cost
/// triangle.c 7 of its 41 killed mutants.
const BOUNDARY_SHARE: u32 = 4;
/// Flipped boundaries asked after the search, at most.
const MOST_FLIPS: usize = 48;

/// The cheap phase before the symbolic search: at most this many
/// candidates and statements, stopping after [`CHEAP_PATIENCE`] in a row
/// covered nothing new (see [`Plan::patience`]); within this fraction of
/// the time budget, should candidates be slow.
const CHEAP_CANDIDATES: u64 = 1024;
const CHEAP_PATIENCE: u64 = 128;
const CHEAP_STATEMENTS: u64 = 100_000;
const CHEAP_SHARE: u32 = 4;
/// The cheap phase for the goals left after a query timed out: the rest of
/// the time, stopping after this many fruitless candidates in a row.
const CLOSING_CANDIDATES: u64 = 4096;
const CLOSING_PATIENCE: u64 = 512;

/// Runs a phase of candidates for `coverage`, adding what they ran to
/// `ending` and the tests they made to `counts`.
fn cover_cheaply(
    exec: &mut Executor,
    coverage: &mut Coverage,
    constants: &std::sync::Arc<[i128]>,
    plan: Plan,
    counts: &mut testcase::CheapCounts,
) -> Tried {
    let before = coverage.tests.len();
    let tried = cheap::try_candidates(exec, coverage, constants, plan);
    let made = &coverage.tests[before..];
    counts.candidates += tried.candidates;
    counts.tests += made.len() as u64;
    counts.goals += made.iter().map(|t| t.new_goals.len() as u64).sum::<u64>();
    tried
}

/// [`hunt_findings`] runs at most as many paths and statements as the
/// search before it, and at least this many.
const FINDING_PATHS: u64 = 64;
const FINDING_STATEMENTS: u64 = 10_000;
/// The solver work of about this long, in a time limit (`solver::work_for`).
const FINDING_WORK: Duration = Duration::from_secs(1);

/// How many times longer input arrays and strings may be when the search
/// runs again for the goals the length bound cut (see
/// [`cover_with_longer_inputs`]).
const LONGER_INPUTS: u64 = 8;

/// When the search ran out of paths with time left, and goals left that a
/// longer input may reach (`max_array` cut paths toward them: a header
/// read from a buffer, a loop over more elements), runs it again from the start with
/// inputs [`LONGER_INPUTS`] times as long, for the rest of the time. A goal
/// it does not reach keeps the reason the first search gave.
fn cover_with_longer_inputs(
    exec: &mut Executor,
    coverage: &mut Coverage,
    deadline: Instant,
    ending: &mut Ending,
) {
    let cut_by_length = coverage.cut_by.contains(&Bound::MaxArray);
    if !cut_by_length || coverage.uncovered.is_empty() || Instant::now() >= deadline {
        return;
    }
    let Ok(initial) = exec.initial_state() else {
        return;
    };
    let (elements, string) = (exec.max_elements, exec.max_string);
    exec.max_elements = elements.saturating_mul(LONGER_INPUTS);
    exec.max_string = string
        .saturating_mul(LONGER_INPUTS)
        .min(crate::bounds::RECORD_BYTES.max(string));
    let longer = explore::run(
        exec,
        coverage,
        &mut searcher(exec.config),
        &Budget::until(deadline, exec.config),
        vec![initial],
    );
    (exec.max_elements, exec.max_string) = (elements, string);
    ending.paths += longer.paths;
    ending.statements += longer.statements;
}

/// With [`HardGoalStrategy::Trees`], the coverage search stops after this
/// fraction of the time budget without a new test.
const STALL_SHARE: u32 = 4;

/// The hard goals of one bounded tree, for [`trees::grow`].
struct HardTargets<'s> {
    distances: &'s GoalDistances,
    hard: &'s BTreeSet<Goal>,
    /// Goals for which a smaller tree's disjunction was not refuted (the
    /// solver gave up, or alternatives were left out): all their paths are
    /// asked again, not only those new at this bound.
    unsettled: &'s BTreeSet<Goal>,
    bound: u32,
}

impl trees::Targets for HardTargets<'_> {
    fn wanted(&self, goal: &Goal, state: &State) -> bool {
        self.hard.contains(goal)
            && (state.loop_level >= self.bound || self.unsettled.contains(goal))
    }

    fn may_reach(&self, state: &State) -> bool {
        let ahead: BTreeSet<Goal> = self
            .hard
            .iter()
            .filter(|g| !state.trace.contains(g))
            .copied()
            .collect();
        (state.frames.iter()).any(|f| self.distances.nearest(f.func, f.block, &ahead) != FAR)
    }
}

/// Second phase for `hard` goals: bounded execution trees with the loop
/// bound raised 0, 1, 2, ..., each goal's alternatives at a bound asked in
/// one disjunction (only the paths new at this bound: the smaller trees'
/// paths were refuted already). A satisfied alternative is run on to a test.
fn cover_hard_goals(
    exec: &mut Executor,
    coverage: &mut Coverage,
    mut hard: BTreeSet<Goal>,
    deadline: Instant,
    ending: &mut Ending,
) {
    let mut unsettled = BTreeSet::new();
    for bound in 0..=exec.config.max_iterations {
        if hard.is_empty() || Instant::now() >= deadline {
            return;
        }
        let targets = HardTargets {
            distances: &coverage.distances,
            hard: &hard,
            unsettled: &unsettled,
            bound,
        };
        let (tree, grown) = trees::grow(exec, bound, &targets, deadline);
        ending.absorb(grown);
        for (goal, alternatives) in &tree.alternatives {
            if !coverage.uncovered.contains(goal) {
                continue;
            }
            let paths: Vec<&[ConstraintId]> =
                alternatives.iter().map(|st| st.path.as_slice()).collect();
            match exec.solver.any_alternative(&paths) {
                Alternatives::Satisfied(i) => {
                    // A satisfied alternative may find no completion within the budgets.
                    let finished = finish(exec, coverage, alternatives[i].clone(), deadline);
                    ending.absorb(finished);
                    if coverage.uncovered.contains(goal) {
                        unsettled.insert(*goal);
                    }
                }
                Alternatives::Unsatisfiable if !tree.truncated.contains(goal) => {
                    unsettled.remove(goal);
                }
                Alternatives::Unsatisfiable | Alternatives::Unknown => {
                    unsettled.insert(*goal);
                }
            }
        }
        hard.retain(|g| coverage.uncovered.contains(g));
        if !tree.bounded || tree.unfinished {
            return;
        }
    }
}

/// Runs `start` (a feasible path that has taken a hard goal's arm) on,
/// shortest continuation first and checking each branch again, until one
/// completes with a test.
fn finish(exec: &mut Executor, coverage: &mut Coverage, start: State, deadline: Instant) -> Ending {
    let budget = Budget {
        max_paths: u64::MAX,
        ..Budget::until(deadline, exec.config)
    };
    let mut first_test = FirstTest {
        tests: coverage.tests.len(),
        coverage,
    };
    explore::run(
        exec,
        &mut first_test,
        &mut trees::shortest_first(),
        &budget,
        vec![start],
    )
}

/// Runs until the coverage objective makes one more test.
struct FirstTest<'c> {
    coverage: &'c mut Coverage,
    tests: usize,
}

impl Hooks for FirstTest<'_> {}

impl Objective for FirstTest<'_> {
    fn completed(&mut self, exec: &mut Executor, state: State) -> bool {
        self.coverage.completed(exec, state)
    }

    fn done(&self) -> bool {
        self.coverage.tests.len() > self.tests
    }
}

/// Runs the states the coverage search left, for findings only: which
/// faults a search sees must not hang on which value of an input it fixed
/// first (`slots[i] = 7; return slots[0];` faults for every `i` but the
/// one that covered the goals), nor on a broken invariant or a fault of
/// earlier calls hiding on paths that cover nothing new. Every statement
/// may fault (a local read uninitialized, a signed sum, a leak at
/// return), so no state is left out; the cheapest paths come first,
/// within the function's budgets, as many paths and statements again as
/// the search ran (`before`) and half its solver work (`searched_work`: a
/// search of hard queries must not take twice as long), at least
/// [`FINDING_PATHS`], [`FINDING_STATEMENTS`] and [`FINDING_WORK`]; counted in paths,
/// statements and solver work, never in time, so that it stops at the same
/// point on every run. A function whose goals were quick to cover does not
/// take its whole time budget. Completed paths make no test: the tests
/// stay those of the coverage search.
fn hunt_findings(
    exec: &mut Executor,
    aside: Vec<State>,
    deadline: Instant,
    before: &Ending,
    searched_work: u64,
) -> Ending {
    let work = (searched_work / 2).max(solver::work_for(FINDING_WORK));
    let budget = Budget {
        max_paths: (before.paths.max(FINDING_PATHS))
            .min(exec.config.max_paths.saturating_sub(before.paths)),
        max_statements: before.statements.max(FINDING_STATEMENTS),
        solver_work_until: Some(exec.solver.work_done().saturating_add(work)),
        ..Budget::until(deadline, exec.config)
    };
    let mut order = BestFirst::new(
        |st: &State, _: &Findings| {
            Some((
                st.build_calls(),
                st.loop_level,
                st.input_size(),
                st.blocks_run,
            ))
        },
        Ties::Oldest,
        false,
    );
    explore::run(exec, &mut Findings, &mut order, &budget, aside)
}

/// The objective of [`hunt_findings`]: the executor records the findings.
struct Findings;

impl Hooks for Findings {}

impl Objective for Findings {
    fn completed(&mut self, _: &mut Executor, _: State) -> bool {
        false
    }
}

/// Explores one function within the budgets and reports its tests; `facts`
/// are those of `program` under `config`.
pub fn explore(
    program: &Program,
    facts: &ProgramFacts,
    func: FuncId,
    config: &EngineConfig,
) -> FunctionReport {
    let start = Instant::now();
    let deadline = start + config.max_time;
    let mut report = FunctionReport::empty(program, func);
    let searched = config.goal_scope.functions(program, func);
    report.goals = (searched.iter())
        .flat_map(|f| ir::function_goals(program, *f))
        .map(|info| info.goal)
        .collect();
    let goals = report.goals.clone();
    let targets: Vec<Goal> = match config.goals {
        GoalSelection::All => goals.clone(),
        GoalSelection::Unconstrained => (searched.iter())
            .flat_map(|f| ir::unconstrained_goals(program, *f))
            .collect(),
    };
    if program.function(func).body.is_none() {
        return report;
    }
    let mut coverage = Coverage {
        distances: GoalDistances::new(program, &searched, &targets),
        uncovered: targets.iter().copied().collect(),
        nearest_uncovered: RefCell::new(StableHashMap::default()),
        reasons: BTreeMap::new(),
        first_stop: None,
        cut_by: BTreeSet::new(),
        tests: Vec::new(),
        wants_entry_test: goals.is_empty(),
        runs_every_path: goals.is_empty(),
        aside: Vec::new(),
        reachable: Vec::new(),
        boundaries: None,
        running_flipped: None,
        decisions: (searched.iter())
            .filter_map(|f| Some((*f, program.function(*f).body.as_ref()?)))
            .flat_map(|(f, body)| body.decisions.iter().map(move |d| (f, d.clone())))
            .collect(),
        covered: BTreeSet::new(),
    };
    let mut exec = Executor::new(program, facts, config, func, deadline);
    let work_at_start = exec.solver.work_done();
    let boundary_work = solver::work_for(config.max_time / BOUNDARY_SHARE);
    // A flip's replayed values say nothing of the shapes of pointer inputs.
    let takes_pointers =
        (program.function(func).sig.params.iter()).any(|ty| matches!(ty, ir::Type::Pointer(_)));
    coverage.boundaries = config.boundary_tests.then(|| {
        let flips = config.flipped_boundaries && !takes_pointers;
        Boundaries::new(boundary_work, flips)
    });
    let constants = cheap::constants(program, func);
    let mut cheap_counts = testcase::CheapCounts::default();
    let mut cheap_tried = Tried::default();
    // A function without goals gets its one test from a candidate too:
    // asked of the solver, the path's fault checks could take the budget
    // first (64-bit quotients and products).
    if config.cheap_inputs {
        let plan = Plan {
            seed: config.seed,
            first: 0,
            most: CHEAP_CANDIDATES,
            patience: CHEAP_PATIENCE,
            statements: CHEAP_STATEMENTS,
            deadline: deadline.min(start + config.max_time / CHEAP_SHARE),
        };
        cheap_tried = cover_cheaply(
            &mut exec,
            &mut coverage,
            &constants,
            plan,
            &mut cheap_counts,
        );
    }
    let initial = match exec.initial_state() {
        Ok(st) => vec![st],
        Err(what) => {
            coverage.stopped(Uncovered::Unsupported(what.clone()));
            for g in &goals {
                coverage
                    .reasons
                    .insert(*g, Uncovered::Unsupported(what.clone()));
            }
            Vec::new()
        }
    };
    // With a second phase for hard goals, the coverage search hands over
    // the rest of the time once it has covered nothing new for a while.
    let budget = Budget {
        stall: (config.hard_goals == HardGoalStrategy::Trees)
            .then(|| config.max_time / STALL_SHARE),
        ..Budget::until(deadline, config)
    };
    let mut ending = explore::run(
        &mut exec,
        &mut coverage,
        &mut searcher(config),
        &budget,
        initial,
    );
    ending.paths += cheap_tried.paths;
    ending.statements += cheap_tried.statements;
    // A stalled search hands the rest of the time to the hard-goal phase:
    // for the goals it leaves, time was the budget.
    let budget_hit = ending.stopped_by.map(|bound| match bound {
        Bound::Stalled => Bound::MaxTime,
        other => other,
    });
    if budget_hit.is_none() {
        cover_with_longer_inputs(&mut exec, &mut coverage, deadline, &mut ending);
    }
    if config.hard_goals == HardGoalStrategy::Trees {
        // Goals the search proved infeasible (it ran out of paths, no budget
        // cut any, the solver always answered) are not hard, only out of reach.
        let proved = budget_hit.is_none() && !exec.solver.gave_up;
        let hard: BTreeSet<Goal> = coverage
            .uncovered
            .iter()
            .filter(|g| match coverage.reasons.get(g) {
                Some(reason) => matches!(reason, Uncovered::Budget(_)),
                None => !proved,
            })
            .copied()
            .collect();
        cover_hard_goals(&mut exec, &mut coverage, hard, deadline, &mut ending);
    }
    // Before the flips and the closing candidates: leaving concrete mode
    // forgets the constraints the states set aside are made of.
    let searched_gave_up = exec.solver.gave_up;
    let aside = std::mem::take(&mut coverage.aside);
    let searched_work = exec.solver.work_done() - work_at_start;
    let hunted = hunt_findings(&mut exec, aside, deadline, &ending, searched_work);
    ending.paths += hunted.paths;
    ending.statements += hunted.statements;
    // The findings phase's time-outs say nothing of the goals.
    exec.solver.gave_up = searched_gave_up;
    run_flips(
        &mut exec,
        &mut coverage,
        (boundary_work, deadline),
        &mut ending,
    );
    // A goal whose query timed out may still be hit by a sampled input.
    if config.cheap_inputs && exec.solver.gave_up && !coverage.uncovered.is_empty() {
        let plan = Plan {
            seed: config.seed,
            first: cheap_tried.candidates,
            most: CLOSING_CANDIDATES,
            patience: CLOSING_PATIENCE,
            statements: u64::MAX,
            deadline,
        };
        let closing = cover_cheaply(
            &mut exec,
            &mut coverage,
            &constants,
            plan,
            &mut cheap_counts,
        );
        ending.paths += closing.paths;
        ending.statements += closing.statements;
    }
    let solver_gave_up = exec.solver.gave_up;
    // Every goal on a test's path is covered, targeted or not.
    let covered: BTreeSet<Goal> = coverage
        .tests
        .iter()
        .flat_map(|t| t.path_goals.iter().copied())
        .collect();
    // A budget that cut a path toward the goal names the limit to raise.
    // When the time ran out, a bound no option lifts (a fixed bound of unit
    // tests, met on every path at the start) names the time instead: other
    // paths toward the goal were still waiting.
    let why_not = |recorded: Option<&Uncovered>| match (recorded, budget_hit) {
        (Some(Uncovered::Budget(bound)), Some(Bound::MaxTime)) if bound.is_fixed() => {
            Uncovered::Budget(Bound::MaxTime)
        }
        (Some(r), _) => r.clone(),
        (None, Some(bound)) => Uncovered::Budget(bound),
        (None, None) if solver_gave_up => Uncovered::Budget(Bound::SolverTimeout),
        (None, None) => Uncovered::Infeasible,
    };
    for g in &goals {
        if !covered.contains(g) {
            report
                .uncovered
                .push((*g, why_not(coverage.reasons.get(g))));
        }
    }
    if coverage.tests.is_empty() {
        report.untested = Some(why_not(coverage.first_stop.as_ref()));
    }
    report.stats = ending.stats(&exec, start);
    report.stats.cheap = cheap_counts;
    report.tests = coverage.tests;
    report.findings = exec.findings;
    report
}

/// The report of a function whose exploration could not run at all.
pub fn failed(program: &Program, func: FuncId, why: &str) -> FunctionReport {
    let mut report = FunctionReport::empty(program, func);
    report.uncovered = report
        .goals
        .iter()
        .map(|g| (*g, Uncovered::Unsupported(why.to_string())))
        .collect();
    report.untested = Some(Uncovered::Unsupported(why.to_string()));
    report
}
