//! Coverage-directed search over path states: fewest loop iterations first,
//! then states carrying or closest (in the CFG) to uncovered goals, then the
//! smallest input shapes, then the shortest paths. One test per completed path that covers a new goal.
//! With [`HardGoalStrategy::Trees`], the goals it leaves when it stalls go
//! to bounded execution trees (`trees`) solved one disjunction per goal.

use crate::distance::{bfs, block_graph, FAR};
use crate::exec::{initial_state, Machine, Turn};
use crate::extract;
use crate::solver::{Alternatives, ConstraintId, PathSolver};
use crate::state::State;
use crate::trees;
use crate::value::Stop;
use crate::{EngineConfig, GoalSelection, HardGoalStrategy};
use ir::{BlockId, Body, FuncId, Goal, Program, Terminator};
use std::cmp::Reverse;
use std::collections::{BTreeMap, BTreeSet, BinaryHeap};
use std::time::Instant;
use testcase::{FunctionReport, Stats, TestCase, Uncovered};

/// Shortest distance (in CFG edges) from every block to the block deciding each goal.
struct Distances {
    /// Per goal: the block whose terminator is its condition.
    site_block: BTreeMap<Goal, BlockId>,
    /// Per deciding block: distance from each block to it.
    to_block: BTreeMap<BlockId, Vec<u32>>,
}

impl Distances {
    fn new(body: &Body, goals: &[Goal]) -> Distances {
        let (_, predecessors) = block_graph(body);
        let mut site_block = BTreeMap::new();
        let mut to_block = BTreeMap::new();
        for goal in goals {
            let Some(b) = body
                .blocks
                .iter()
                .position(|blk| term_site(&blk.term) == Some(goal.site))
            else {
                continue;
            };
            let block = BlockId(b as u32);
            site_block.insert(*goal, block);
            to_block
                .entry(block)
                .or_insert_with(|| bfs(&predecessors, [b]));
        }
        Distances {
            site_block,
            to_block,
        }
    }

    /// Distance from `block` to the nearest goal of `uncovered`.
    fn nearest(&self, block: BlockId, uncovered: &BTreeSet<Goal>) -> u32 {
        uncovered
            .iter()
            .map(|g| self.distance(block, g))
            .min()
            .unwrap_or(FAR)
    }

    fn distance(&self, block: BlockId, goal: &Goal) -> u32 {
        let Some(site) = self.site_block.get(goal) else {
            return FAR;
        };
        self.to_block
            .get(site)
            .and_then(|d| d.get(block.index()).copied())
            .unwrap_or(FAR)
    }
}

fn term_site(term: &Terminator) -> Option<ir::BranchId> {
    match term {
        Terminator::Branch { site, .. } | Terminator::Switch { site, .. } => Some(*site),
        _ => None,
    }
}

/// Coverage order: fewest loop iterations, then carrying or closest to an
/// uncovered goal, then fewest input objects (smallest shapes), then shortest
/// path; the last field is the state's number.
type CoverageKey = (u32, u32, usize, u64, u64);
/// Depth order (a max-heap): most loop iterations, longest path, fewest
/// input objects, newest.
type DepthKey = (u32, u64, Reverse<usize>, u64);

struct Search<'p, 'c> {
    program: &'p Program,
    config: &'c EngineConfig,
    func: FuncId,
    distances: Distances,
    uncovered: BTreeSet<Goal>,
    /// Why goals reachable from a dropped path may stay uncovered.
    reasons: BTreeMap<Goal, Uncovered>,
    /// Queued states by number; both orders below index into it.
    pending: BTreeMap<u64, State>,
    by_coverage: BinaryHeap<Reverse<CoverageKey>>,
    by_depth: BinaryHeap<DepthKey>,
    /// Statements run for states of each order (coverage, depth). The orders
    /// share the running time equally: breadth with rising loop bounds, and
    /// depth, which reaches goals behind many iterations whose every level
    /// branches (sharing turns instead would let a loop spinning on a cyclic
    /// input take nearly all the time, its turns being the longest).
    statements: [u64; 2],
    /// Whether the last state came from the depth order.
    deep_turn: bool,
    seq: u64,
    tests: Vec<TestCase>,
    paths: u64,
    /// A function without conditions still gets one test (of its only path).
    wants_entry_test: bool,
    /// A function without goals runs every path it has, for findings.
    runs_every_path: bool,
}

impl Search<'_, '_> {
    /// Priority of a state, `None` when it can no longer cover anything.
    fn key(&self, st: &State) -> Option<(u32, u32, usize, u64)> {
        let carries_new =
            self.wants_entry_test || st.trace.iter().any(|g| self.uncovered.contains(g));
        let nearest = st
            .frames
            .iter()
            .filter(|f| f.func == self.func)
            .map(|f| self.distances.nearest(f.block, &self.uncovered))
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
        Some((st.loop_level, closeness, st.input_objects(), st.blocks_run))
    }

    fn push(&mut self, state: State) {
        if let Some((level, closeness, nodes, length)) = self.key(&state) {
            self.seq += 1;
            self.by_coverage
                .push(Reverse((level, closeness, nodes, length, self.seq)));
            self.by_depth
                .push((level, state.blocks_run, Reverse(nodes), self.seq));
            self.pending.insert(self.seq, state);
        }
    }

    /// The next state to run, taking turns between the two orders.
    fn pop(&mut self) -> Option<State> {
        let chosen = if self.statements[1] <= self.statements[0] {
            self.pop_deepest()
        } else {
            None
        };
        self.deep_turn = chosen.is_some();
        chosen.or_else(|| self.pop_by_coverage())
    }

    fn pop_deepest(&mut self) -> Option<State> {
        while let Some((_, _, _, seq)) = self.by_depth.pop() {
            let Some(state) = self.pending.remove(&seq) else {
                continue;
            };
            if self.key(&state).is_some() {
                return Some(state);
            }
        }
        None
    }

    /// Re-ranks entries whose goals got covered since they were queued.
    fn pop_by_coverage(&mut self) -> Option<State> {
        while let Some(Reverse(queued)) = self.by_coverage.pop() {
            let seq = queued.4;
            let Some(state) = self.pending.get(&seq) else {
                continue;
            };
            let Some((level, closeness, nodes, length)) = self.key(state) else {
                self.pending.remove(&seq);
                continue;
            };
            let key = (level, closeness, nodes, length, seq);
            let still_first = self
                .by_coverage
                .peek()
                .is_none_or(|Reverse(next)| key <= *next);
            if key == queued || still_first {
                return self.pending.remove(&seq);
            }
            self.by_coverage.push(Reverse(key));
        }
        None
    }

    /// Goals a state could still cover (for the reason given when it is dropped).
    fn reachable(&self, st: &State) -> Vec<Goal> {
        let roots: Vec<BlockId> = st
            .frames
            .iter()
            .filter(|f| f.func == self.func)
            .map(|f| f.block)
            .collect();
        self.uncovered
            .iter()
            .filter(|g| {
                st.trace.contains(g) || roots.iter().any(|b| self.distances.distance(*b, g) != FAR)
            })
            .copied()
            .collect()
    }

    fn completed(&mut self, machine: &mut Machine, st: State) {
        self.paths += 1;
        let new_goals: Vec<Goal> = dedup(
            st.trace
                .iter()
                .filter(|g| self.uncovered.contains(g))
                .copied(),
        );
        if new_goals.is_empty() && !self.wants_entry_test {
            return;
        }
        let Some(model) = machine.solver.readable_model(&st.path, &st.input_symbols) else {
            return;
        };
        let path_goals = dedup(st.trace.iter().copied());
        for g in &new_goals {
            self.uncovered.remove(g);
        }
        self.wants_entry_test = false;
        self.tests.push(extract::test_case(
            self.program,
            self.config,
            &st,
            &model,
            self.func,
            new_goals,
            path_goals,
        ));
    }
}

/// With [`HardGoalStrategy::Trees`], the coverage search stops after this
/// fraction of the time budget without a new test.
const STALL_SHARE: u32 = 4;

/// The hard goals of one bounded tree, for [`trees::explore`].
struct HardTargets<'s> {
    distances: &'s Distances,
    func: FuncId,
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
        state
            .frames
            .iter()
            .filter(|f| f.func == self.func)
            .any(|f| self.distances.nearest(f.block, &ahead) != FAR)
    }
}

impl Search<'_, '_> {
    /// Second phase for `hard` goals: bounded execution trees with the loop
    /// bound raised 0, 1, 2, ..., each goal's alternatives at a bound asked
    /// in one disjunction (only the paths new at this bound: the smaller
    /// trees' paths were refuted already). A satisfied alternative is run
    /// on to a test.
    fn cover_hard_goals(
        &mut self,
        machine: &mut Machine,
        mut hard: BTreeSet<Goal>,
        deadline: Instant,
    ) {
        let mut unsettled = BTreeSet::new();
        for bound in 0..=self.config.max_iterations {
            if hard.is_empty() || Instant::now() >= deadline {
                return;
            }
            let targets = HardTargets {
                distances: &self.distances,
                func: self.func,
                hard: &hard,
                unsettled: &unsettled,
                bound,
            };
            let tree = trees::explore(machine, bound, &targets, deadline);
            for (goal, alternatives) in &tree.alternatives {
                if !self.uncovered.contains(goal) {
                    continue;
                }
                let paths: Vec<&[ConstraintId]> =
                    alternatives.iter().map(|st| st.path.as_slice()).collect();
                match machine.solver.any_alternative(&paths) {
                    Alternatives::Satisfied(i) => {
                        // A satisfied alternative may find no completion within the budgets.
                        self.finish(machine, alternatives[i].clone(), deadline);
                        if self.uncovered.contains(goal) {
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
            hard.retain(|g| self.uncovered.contains(g));
            if !tree.bounded || tree.unfinished {
                return;
            }
        }
    }

    /// Runs `start` (a feasible path that has taken a hard goal's arm) on,
    /// shortest continuation first and checking each branch again, until
    /// one completes with a test.
    fn finish(&mut self, machine: &mut Machine, start: State, deadline: Instant) {
        let mut queue = trees::ShortestFirst::default();
        queue.push(start);
        let tests = self.tests.len();
        while let Some(state) = queue.pop() {
            if Instant::now() >= deadline || self.tests.len() > tests {
                return;
            }
            let outcome = machine.turn(state);
            machine.budget_cut = None;
            machine.ended_trace.clear();
            match outcome {
                Ok(Turn::Running(states)) | Err(Stop::Fork(states)) => {
                    for state in states {
                        queue.push(state);
                    }
                }
                Ok(Turn::Completed(state)) => self.completed(machine, *state),
                Err(_) => {}
            }
        }
    }
}

/// Records that budget `name` cut paths toward `goals`. The first reason
/// stays, except that any other budget replaces `max_iterations`: a loop that
/// spins on a cyclic input is cut by it while the goal needs more nodes.
fn note_budget(reasons: &mut BTreeMap<Goal, Uncovered>, goals: &[Goal], name: &'static str) {
    for g in goals {
        let reason = reasons
            .entry(*g)
            .or_insert(Uncovered::Budget(name.to_string()));
        if *reason == Uncovered::Budget("max_iterations".to_string()) {
            *reason = Uncovered::Budget(name.to_string());
        }
    }
}

fn dedup(goals: impl Iterator<Item = Goal>) -> Vec<Goal> {
    let mut seen = BTreeSet::new();
    goals.filter(|g| seen.insert(*g)).collect()
}

/// Explores one function within the budgets and reports its tests.
pub fn explore(program: &Program, func: FuncId, config: &EngineConfig) -> FunctionReport {
    let start = Instant::now();
    let deadline = start + config.max_time;
    let mut report = FunctionReport::empty(program, func);
    let goals = report.goals.clone();
    let targets = match config.goals {
        GoalSelection::All => goals.clone(),
        GoalSelection::Unconstrained => ir::unconstrained_goals(program, func),
    };
    let Some(body) = &program.function(func).body else {
        return report;
    };
    let mut search = Search {
        program,
        config,
        func,
        distances: Distances::new(body, &targets),
        uncovered: targets.iter().copied().collect(),
        reasons: BTreeMap::new(),
        pending: BTreeMap::new(),
        by_coverage: BinaryHeap::new(),
        by_depth: BinaryHeap::new(),
        statements: [0, 0],
        deep_turn: false,
        seq: 0,
        tests: Vec::new(),
        paths: 0,
        wants_entry_test: goals.is_empty(),
        runs_every_path: goals.is_empty(),
    };
    let mut machine = Machine::new(
        program,
        config,
        PathSolver::for_config(config, deadline),
        func,
    );
    // With a second phase for hard goals, the coverage search hands over
    // the rest of the time once it has covered nothing new for a while.
    let stall_limit = match config.hard_goals {
        HardGoalStrategy::Off => config.max_time,
        HardGoalStrategy::Trees => config.max_time / STALL_SHARE,
    };
    let mut last_progress = start;
    let mut budget_hit: Option<&'static str> = None;
    match initial_state(program, func) {
        Ok(st) => search.push(st),
        Err(Stop::Unsupported(what)) => {
            for g in &goals {
                search
                    .reasons
                    .insert(*g, Uncovered::Unsupported(what.clone()));
            }
        }
        Err(_) => {}
    }
    while !search.uncovered.is_empty() || search.wants_entry_test || search.runs_every_path {
        let now = Instant::now();
        if now >= deadline || now - last_progress >= stall_limit {
            budget_hit = Some("max_time");
            break;
        }
        if search.paths >= config.max_paths {
            budget_hit = Some("max_paths");
            break;
        }
        let Some(st) = search.pop() else { break };
        let reachable = search.reachable(&st);
        let ran_before = machine.statements;
        let outcome = machine.turn(st);
        search.statements[usize::from(search.deep_turn)] += machine.statements - ran_before;
        if let Some(name) = machine.budget_cut.take() {
            note_budget(&mut search.reasons, &reachable, name);
        }
        match outcome {
            Ok(Turn::Running(states)) | Err(Stop::Fork(states)) => {
                for s in states {
                    search.push(s);
                }
            }
            Ok(Turn::Completed(st)) => {
                let tests = search.tests.len();
                search.completed(&mut machine, *st);
                if search.tests.len() > tests {
                    last_progress = Instant::now();
                }
            }
            Err(Stop::Dead) => {}
            Err(Stop::Ended) => {
                search.paths += 1;
                let reached = std::mem::take(&mut machine.ended_trace);
                let ahead = reachable.iter().filter(|g| !reached.contains(g));
                let explained = reached
                    .iter()
                    .map(|g| {
                        (
                            g,
                            "only reached by paths that end in a finding, exit or abort",
                        )
                    })
                    .chain(ahead.map(|g| {
                        (
                            g,
                            "the paths toward it end in a finding, exit or abort first",
                        )
                    }));
                for (g, why) in explained {
                    search
                        .reasons
                        .entry(*g)
                        .or_insert_with(|| Uncovered::Unsupported(why.to_string()));
                }
            }
            Err(Stop::Unsupported(what)) => {
                for g in reachable {
                    search
                        .reasons
                        .entry(g)
                        .or_insert_with(|| Uncovered::Unsupported(what.clone()));
                }
            }
            Err(Stop::Budget(name)) => note_budget(&mut search.reasons, &reachable, name),
        }
    }
    if budget_hit.is_none() && !search.pending.is_empty() {
        budget_hit = Some("max_time");
    }
    if config.hard_goals == HardGoalStrategy::Trees {
        // Goals the search proved infeasible (it ran out of paths, no budget
        // cut any, the solver always answered) are not hard, only out of reach.
        let proved = budget_hit.is_none() && !machine.solver.gave_up;
        let hard: BTreeSet<Goal> = search
            .uncovered
            .iter()
            .filter(|g| match search.reasons.get(g) {
                Some(reason) => matches!(reason, Uncovered::Budget(_)),
                None => !proved,
            })
            .copied()
            .collect();
        search.pending.clear();
        search.cover_hard_goals(&mut machine, hard, deadline);
    }
    let solver_gave_up = machine.solver.gave_up;
    // Every goal on a test's path is covered, targeted or not.
    let covered: BTreeSet<Goal> = search
        .tests
        .iter()
        .flat_map(|t| t.path_goals.iter().copied())
        .collect();
    for g in &goals {
        if covered.contains(g) {
            continue;
        }
        // A budget that cut a path toward the goal names the limit to raise.
        let reason = match (search.reasons.get(g), budget_hit) {
            (Some(r), _) => r.clone(),
            (None, Some(name)) => Uncovered::Budget(name.to_string()),
            (None, None) if solver_gave_up => Uncovered::Budget("solver timeout".to_string()),
            (None, None) => Uncovered::Infeasible,
        };
        report.uncovered.push((*g, reason));
    }
    report.stats = Stats {
        paths: search.paths,
        solver_calls: machine.solver.calls,
        statements: machine.statements,
        elapsed: start.elapsed(),
    };
    report.tests = search.tests;
    report.findings = machine.findings;
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
    report
}
