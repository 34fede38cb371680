//! Goal-oriented search (seed 002): one input whose run executes a source
//! line, or takes one direction of a condition, at least K times; or a proof
//! that none exists; or the bound that stopped the search.
//!
//! What counts as one execution (the choice gcov makes for a line): entering
//! a block that has code on the line from a block that has none, or at the
//! start of a call. So `x = a && b;` split over three blocks counts once, and
//! a line is counted in every frame of the function under test (recursion
//! included) but not in other functions. A branch counts each time its edge
//! (condition block to the arm's block) is taken. The search counts per
//! state, from the executor's events (`Hooks::entering`).
//!
//! Search order. A state that has executed the target K times only has to
//! finish: it runs first, depth-first. The others are ranked by executions so
//! far (most first: a state in the target's loop keeps iterating it), then
//! share the running time equally between two orders, as the coverage search
//! does: loop iterations raised step by step with the CFG distance to the
//! target next (short paths first), and depth: most iterations of loops
//! outside the target's own loop (iterating a loop nested in it only delays
//! the next execution; a loop before it, such as one building a list of n
//! nodes, decides how often it runs), then the longest path. On Josephus the
//! depth order builds the longest list first and eliminates with m = 1: its
//! cost grows linearly with K (a search by loop level grew as K^3). A state
//! from which the target cannot be executed again is dropped when that is
//! certain: the function cannot re-enter itself.
//!
//! Loops: a run executing a line K times enters some blocks K times or more,
//! so the iteration bound becomes at least `2 K + 16` (the search's
//! `max_iterations` when larger).

use crate::config::EngineConfig;
use crate::distance::{bfs, block_graph, FAR};
use crate::exec::{Executor, Hooks, ProgramFacts};
use crate::explore::{self, Budget, Change, Frontier, Obstacle, PerState, Searcher};
use crate::searchers::{BestFirst, Interleave, Ties};
use crate::state::{Frame, State, StateId};
use ir::{BlockId, Body, Callee, FuncId, Goal, Program, StmtKind, Terminator};
use std::cmp::Reverse;
use std::collections::BTreeSet;
use std::fmt;
use std::time::Instant;
use testcase::Bound;
use testcase::{FunctionReport, TestCase};

/// What to execute.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Code {
    /// Any code on this line of the function's file.
    Line(u32),
    /// One direction of one condition of the function.
    Branch(Goal),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReachTarget {
    pub code: Code,
    /// Executions needed (at least 1).
    pub times: u32,
    /// Exactly `times` executions, not at least.
    pub exact: bool,
    /// Count only the executions before this one's first execution, which
    /// the run must reach (e.g. iterations of an inner loop during the first
    /// iteration of the outer one).
    pub before: Option<Code>,
}

impl ReachTarget {
    /// Does a final count of `hits` executions meet the target?
    fn met_by(&self, hits: u32) -> bool {
        if self.exact {
            hits == self.times
        } else {
            hits >= self.times
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The report's only test executes the target `hits` times (at least K).
    Reached { hits: u32 },
    /// Every path ran to its end or became infeasible, no bound cut any, and
    /// none executed the target K times: a proof.
    Unreachable,
    /// A bound, or a construct the engine does not model, stopped the
    /// search first.
    NotReached { stopped_by: Obstacle },
}

/// The answer of [`reach`]: its verdict and a report holding the test (if
/// any) under the same contract as [`crate::generate`]'s, for `emit`.
#[derive(Clone, Debug)]
pub struct ReachOutcome {
    pub verdict: Verdict,
    pub report: FunctionReport,
    /// Most executions of the target on any path that ended.
    pub best_hits: u32,
}

/// A target that names no code of the function.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReachError(pub String);

impl fmt::Display for ReachError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ReachError {}

/// The fewest entries into one block a run executing a line `times` times
/// may need.
pub fn iteration_bound(times: u32) -> u32 {
    times.saturating_mul(2).saturating_add(16)
}

/// Searches for an input of `func` that executes `target.code`
/// `target.times` times (at least, or exactly), before `target.before` if
/// given. Runs on its own thread (fresh Z3 context, deep stack).
pub fn reach(
    program: &Program,
    func: FuncId,
    target: &ReachTarget,
    config: &EngineConfig,
) -> Result<ReachOutcome, ReachError> {
    let Some(body) = &program.function(func).body else {
        return Err(ReachError(format!(
            "`{}` has no body to search",
            program.function(func).name
        )));
    };
    let watch = Watch {
        func,
        counted: edges(program, func, body, target.code)?,
        closing: match target.before {
            Some(code) => edges(program, func, body, code)?,
            None => BTreeSet::new(),
        },
    };
    let target = ReachTarget {
        times: target.times.max(1),
        ..*target
    };
    let times = target.times;
    let config = EngineConfig {
        max_iterations: config.max_iterations.max(iteration_bound(times)),
        ..config.clone()
    };
    explore::on_own_thread(|| search(program, func, watch, &target, &config)).map_err(ReachError)
}

/// A CFG edge of the function under test; `from == None` is the entry of a call.
type Edge = (Option<BlockId>, BlockId);

/// The CFG edges whose traversals count as executions of the target, and
/// those whose first traversal ends the counting (`before`).
#[derive(Debug)]
struct Watch {
    func: FuncId,
    counted: BTreeSet<Edge>,
    closing: BTreeSet<Edge>,
}

/// What entering a block does to the count.
struct Crossing {
    pub counted: bool,
    pub closes: bool,
}

impl Watch {
    /// Entering `to` from `frame`'s current position.
    fn crossing(&self, frame: &Frame, to: BlockId) -> Crossing {
        if frame.func != self.func {
            return Crossing {
                counted: false,
                closes: false,
            };
        }
        let entering_call = to.index() == 0 && frame.visits.first() == Some(&0);
        self.crossing_edge(((!entering_call).then_some(frame.block), to))
    }

    fn crossing_edge(&self, edge: Edge) -> Crossing {
        Crossing {
            counted: self.counted.contains(&edge),
            closes: self.closing.contains(&edge),
        }
    }
}

/// The edges that execute `code` (see the module documentation).
fn edges(
    program: &Program,
    func: FuncId,
    body: &Body,
    code: Code,
) -> Result<BTreeSet<Edge>, ReachError> {
    let name = &program.function(func).name;
    let mut edges = BTreeSet::new();
    match code {
        Code::Line(line) => {
            let file = program.function(func).span.file;
            let on_line: Vec<bool> = body
                .blocks
                .iter()
                .map(|b| {
                    b.stmts
                        .iter()
                        .map(|s| s.span)
                        .chain([b.term_span])
                        .any(|span| span.file == file && span.line == line)
                })
                .collect();
            if !on_line.contains(&true) {
                return Err(ReachError(format!(
                    "line {line} has no code of `{name}` (a blank line, a brace, a comment \
                     or a declaration without initializer?)"
                )));
            }
            if on_line[0] {
                edges.insert((None, BlockId(0)));
            }
            for (from, block) in body.blocks.iter().enumerate() {
                for to in block.term.successors() {
                    if on_line[to.index()] && !on_line[from] {
                        edges.insert((Some(BlockId(from as u32)), to));
                    }
                }
            }
        }
        Code::Branch(goal) => {
            let missing = || ReachError(format!("no such condition in `{name}`"));
            let info = ir::function_goals(program, func)
                .into_iter()
                .find(|info| info.goal == goal)
                .ok_or_else(missing)?;
            let site = body
                .blocks
                .iter()
                .position(|b| match &b.term {
                    Terminator::Branch { site, .. } | Terminator::Switch { site, .. } => {
                        *site == goal.site
                    }
                    _ => false,
                })
                .ok_or_else(missing)?;
            edges.insert((Some(BlockId(site as u32)), info.target));
        }
    }
    Ok(edges)
}

/// What the search knows of the function's CFG relative to the target.
struct TargetMap {
    /// Shortest distance (in edges) from each block to the start of a counted edge.
    distance: Vec<u32>,
    /// The same to a closing edge (`FAR` everywhere without `before`).
    to_close: Vec<u32>,
    /// Blocks on a cycle through the target (the target's own loop and the
    /// loops nested in it): iterating them only delays the next execution.
    in_target_loop: Vec<bool>,
}

impl TargetMap {
    fn new(watch: &Watch, body: &Body) -> TargetMap {
        let n = body.blocks.len();
        let (successors, predecessors) = block_graph(body);
        let sources = |edges: &BTreeSet<Edge>| {
            let starts: Vec<usize> = edges
                .iter()
                .filter_map(|(from, _)| *from)
                .map(BlockId::index)
                .collect();
            bfs(&predecessors, starts)
        };
        let distance = sources(&watch.counted);
        let to_close = sources(&watch.closing);
        let targets: Vec<usize> = watch.counted.iter().map(|(_, to)| to.index()).collect();
        let after_target = bfs(&successors, targets.iter().copied());
        let before_target = bfs(&predecessors, targets.iter().copied());
        let in_target_loop = (0..n)
            .map(|b| after_target[b] != FAR && before_target[b] != FAR)
            .collect();
        TargetMap {
            distance,
            to_close,
            in_target_loop,
        }
    }

    /// Nearest distance from the frames of the function under test.
    fn nearest(distances: &[u32], state: &State, func: FuncId) -> u32 {
        state
            .frames
            .iter()
            .filter(|f| f.func == func)
            .map(|f| distances[f.block.index()])
            .min()
            .unwrap_or(FAR)
    }

    /// Extra entries into blocks outside the target's loop (summed: the arm
    /// that stays in a loop gets ahead of the one that leaves it), in the
    /// frames of the function under test.
    fn outer_iterations(&self, state: &State, func: FuncId) -> u32 {
        state
            .frames
            .iter()
            .filter(|f| f.func == func)
            .flat_map(|f| f.visits.iter().enumerate())
            .filter(|(b, _)| !self.in_target_loop[*b])
            .map(|(_, v)| v.saturating_sub(1))
            .sum()
    }
}

/// Can a call of `func` lead to another call of `func` (directly, through
/// other functions, or possibly through a function pointer)?
fn may_reenter(program: &Program, func: FuncId) -> bool {
    let mut seen = BTreeSet::from([func]);
    let mut todo = vec![func];
    while let Some(f) = todo.pop() {
        let Some(body) = &program.function(f).body else {
            continue;
        };
        for stmt in body.blocks.iter().flat_map(|b| &b.stmts) {
            match &stmt.kind {
                StmtKind::Call {
                    callee: Callee::Indirect(_),
                    ..
                } => return true,
                StmtKind::Call {
                    callee: Callee::Direct(g),
                    ..
                } => {
                    if *g == func {
                        return true;
                    }
                    if seen.insert(*g) {
                        todo.push(*g);
                    }
                }
                StmtKind::Assign(..) => {}
            }
        }
    }
    false
}

/// Breadth rank (lowest first): most executions, fewest loop iterations,
/// closest to the target, fewest input objects, shortest path.
type BreadthRank = (Reverse<u32>, u32, u32, usize, u64);
/// Depth rank (highest first): most executions, most iterations of loops
/// outside the target's loop, longest path, fewest input objects.
type DepthRank = Reverse<(u32, u32, u64, Reverse<usize>)>;

/// Where a path stands with respect to the target.
#[derive(PartialEq, Eq)]
enum Standing {
    /// Any completion of it meets the target.
    Met,
    /// No completion of it can (certain, not a bound).
    Failed,
    Open,
}

/// Executions of the target on one path so far.
#[derive(Clone, Copy, Debug, Default)]
struct Count {
    hits: u32,
    /// A closing edge was traversed: `hits` is final.
    closed: bool,
}

/// The objective of a goal-oriented search.
struct Reach {
    target: ReachTarget,
    watch: Watch,
    map: TargetMap,
    func: FuncId,
    /// Whether a state that can no longer reach the target may be dropped.
    prune: bool,
    counts: PerState<Count>,
    /// The bound that cut the search, if any.
    cut: Option<Obstacle>,
    /// Most executions of the target on any path that ended.
    best_hits: u32,
    reached: Option<(TestCase, u32)>,
}

impl Reach {
    /// Where `state` stands now; `Open` ones get the distance to rank them by.
    fn standing(&self, state: &State) -> (Standing, u32) {
        let target = &self.target;
        let Count { hits, closed } = self.counts.get(state.id);
        if target.before.is_some() && closed {
            let standing = match target.met_by(hits) {
                true => Standing::Met,
                false => Standing::Failed,
            };
            return (standing, 0);
        }
        if target.exact && hits > target.times {
            return (Standing::Failed, 0);
        }
        if target.before.is_none() && !target.exact && hits >= target.times {
            return (Standing::Met, 0);
        }
        let to_count = TargetMap::nearest(&self.map.distance, state, self.func);
        let to_close = TargetMap::nearest(&self.map.to_close, state, self.func);
        // Only the function under test counts and (unless it can re-enter
        // itself) its blocks alone lead to the target.
        let hopeless = (to_count == FAR && hits < target.times)
            || (target.before.is_some() && to_close == FAR);
        if hopeless && self.prune {
            return (Standing::Failed, 0);
        }
        let distance = match target.before {
            Some(_) if hits >= target.times => to_close,
            _ => to_count,
        };
        (Standing::Open, distance)
    }

    fn breadth_rank(&self, state: &State) -> BreadthRank {
        let (_, distance) = self.standing(state);
        (
            Reverse(self.counts.get(state.id).hits),
            state.loop_level,
            distance,
            state.input_size(),
            state.blocks_run,
        )
    }

    fn depth_rank(&self, state: &State) -> DepthRank {
        Reverse((
            self.counts.get(state.id).hits,
            self.map.outer_iterations(state, self.func),
            state.blocks_run,
            Reverse(state.input_size()),
        ))
    }

    /// Records the bound that cut a path; any other replaces `max_iterations`,
    /// which also cuts loops spinning on cyclic inputs while another bound is
    /// the one to raise.
    fn note_bound(&mut self, obstacle: Obstacle) {
        if self
            .cut
            .as_ref()
            .is_none_or(|c| *c == Obstacle::Bound(Bound::MaxIterations))
        {
            self.cut = Some(obstacle);
        }
    }
}

impl Hooks for Reach {
    fn forked(&mut self, parent: StateId, child: StateId) {
        self.counts.forked(parent, child);
    }

    fn entering(&mut self, state: &State, block: BlockId) {
        let crossing = self.watch.crossing(state.frame(), block);
        let count = self.counts.entry(state.id);
        if !count.closed {
            count.hits += u32::from(crossing.counted);
        }
        count.closed |= crossing.closes;
    }
}

impl explore::Objective for Reach {
    fn admit(&mut self, state: &State) -> bool {
        self.standing(state).0 != Standing::Failed
    }

    fn completed(&mut self, exec: &mut Executor, state: State) -> bool {
        let Count { hits, closed } = self.counts.get(state.id);
        self.best_hits = self.best_hits.max(hits);
        let closed = self.target.before.is_none() || closed;
        if closed && self.target.met_by(hits) {
            self.reached = exec
                .solve_test(&state, state.trace.clone())
                .map(|test| (test, hits));
        }
        self.reached.is_some()
    }

    fn unsupported(&mut self, what: &str) {
        self.note_bound(Obstacle::Unsupported(what.to_string()));
    }

    fn cut(&mut self, bound: Bound) {
        self.note_bound(Obstacle::Bound(bound));
    }

    fn released(&mut self, state: StateId) {
        self.counts.release(state);
    }

    fn done(&self) -> bool {
        self.reached.is_some()
    }
}

/// States that met the target run first, depth-first: they only have to
/// finish. The others take turns by running time between the breadth order
/// (loop iterations raised step by step, closest first) and the depth order.
struct ReachOrder<B, D> {
    finishing: Vec<StateId>,
    open: Interleave<B, D>,
}

impl<B: Searcher<Reach>, D: Searcher<Reach>> Searcher<Reach> for ReachOrder<B, D> {
    fn select(&mut self, frontier: &Frontier, reach: &Reach) -> Option<StateId> {
        while let Some(id) = self.finishing.last() {
            if frontier.contains(*id) {
                return Some(*id);
            }
            self.finishing.pop();
        }
        self.open.select(frontier, reach)
    }

    fn update(&mut self, frontier: &Frontier, reach: &Reach, change: &Change) {
        self.finishing.retain(|id| !change.removed.contains(id));
        let mut open = Vec::new();
        for id in change.added {
            let met = frontier
                .get(*id)
                .is_some_and(|state| reach.standing(state).0 == Standing::Met);
            if met {
                self.finishing.push(*id);
            } else {
                open.push(*id);
            }
        }
        let change = Change {
            added: &open,
            removed: change.removed,
            statements: change.statements,
        };
        self.open.update(frontier, reach, &change);
    }

    fn is_empty(&self) -> bool {
        self.finishing.is_empty() && self.open.is_empty()
    }
}

fn reach_order() -> impl Searcher<Reach> {
    ReachOrder {
        finishing: Vec::new(),
        open: Interleave::new(
            BestFirst::new(
                |state: &State, reach: &Reach| Some(reach.breadth_rank(state)),
                Ties::Oldest,
                false,
            ),
            BestFirst::new(
                |state: &State, reach: &Reach| Some(reach.depth_rank(state)),
                Ties::Newest,
                false,
            ),
        ),
    }
}

fn search(
    program: &Program,
    func: FuncId,
    watch: Watch,
    target: &ReachTarget,
    config: &EngineConfig,
) -> ReachOutcome {
    let start = Instant::now();
    let deadline = start + config.max_time;
    let mut report = FunctionReport::empty(program, func);
    let Some(body) = &program.function(func).body else {
        return ReachOutcome {
            verdict: Verdict::Unreachable,
            report,
            best_hits: 0,
        };
    };
    let mut reach = Reach {
        target: *target,
        map: TargetMap::new(&watch, body),
        watch,
        func,
        prune: !may_reenter(program, func),
        counts: PerState::new(),
        cut: None,
        best_hits: 0,
        reached: None,
    };
    let facts = ProgramFacts::new(program, config);
    let mut exec = Executor::new(program, &facts, config, func, deadline);
    let initial = match exec.initial_state() {
        Ok(st) => {
            // The call's entry happened before the search tracked the state.
            let entry = reach.watch.crossing_edge((None, BlockId(0)));
            *reach.counts.entry(st.id) = Count {
                hits: u32::from(entry.counted),
                closed: entry.closes,
            };
            vec![st]
        }
        Err(what) => {
            reach.note_bound(Obstacle::Unsupported(what.to_string()));
            Vec::new()
        }
    };
    let budget = Budget::until(deadline, config);
    let ending = explore::run(&mut exec, &mut reach, &mut reach_order(), &budget, initial);
    if let Some(bound) = ending.stopped_by {
        reach.note_bound(Obstacle::Bound(bound));
    }
    let verdict = match (&reach.reached, reach.cut) {
        (Some((_, hits)), _) => Verdict::Reached { hits: *hits },
        (None, Some(stopped_by)) => Verdict::NotReached { stopped_by },
        (None, None) if exec.solver.gave_up => Verdict::NotReached {
            stopped_by: Obstacle::Bound(Bound::SolverTimeout),
        },
        (None, None) => Verdict::Unreachable,
    };
    report.stats = ending.stats(&exec, start);
    report.tests.extend(reach.reached.map(|(test, _)| test));
    report.findings = exec.findings;
    ReachOutcome {
        verdict,
        report,
        best_hits: reach.best_hits,
    }
}

/// Finds the goal `line:col:arm` of `func` (`arm` as `goal_key` writes it:
/// `T`, `F`, `C<n>`, `D`), for `--branch`.
pub fn goal_at(program: &Program, func: FuncId, line: u32, col: u32, arm: &str) -> Option<Goal> {
    ir::function_goals(program, func)
        .into_iter()
        .find(|info| {
            info.span.line == line && info.span.col == col && info.goal.arm.to_string() == arm
        })
        .map(|info| info.goal)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_programs::compile;
    use testcase::Value;

    /// The line of `source` holding `marker`.
    fn line_of(source: &str, marker: &str) -> u32 {
        let index = source.lines().position(|l| l.contains(marker));
        index.expect("marker in source") as u32 + 1
    }

    fn reach_line(test: &str, source: &str, name: &str, marker: &str, times: u32) -> ReachOutcome {
        let (program, func) = compile(test, source, name);
        let target = ReachTarget {
            code: Code::Line(line_of(source, marker)),
            times,
            exact: false,
            before: None,
        };
        reach(&program, func, &target, &EngineConfig::default()).expect("target has code")
    }

    fn int_arg(outcome: &ReachOutcome, n: usize) -> i128 {
        match &outcome.report.tests[0].inputs.args[n] {
            Value::Int { ty, bits } if ty.signed => {
                let shift = 128 - u32::from(ty.bits);
                ((*bits as i128) << shift) >> shift
            }
            other => panic!("argument {n} is not a signed int: {other:?}"),
        }
    }

    const SUM: &str = "int sum(int n)\n{\n    int s = 0;\n    for (int i = 0; i < n; i++)\n        s += i; /* body */\n    return s;\n}\n";

    #[test]
    fn a_loop_body_is_reached_k_times_with_an_input_that_runs_it_that_often() {
        let outcome = reach_line("sum", SUM, "sum", "/* body */", 12);
        let Verdict::Reached { hits } = outcome.verdict else {
            panic!("not reached: {:?}", outcome.verdict);
        };
        assert!(hits >= 12);
        assert_eq!(outcome.report.tests.len(), 1);
        assert!(int_arg(&outcome, 0) >= 12, "n must be at least 12");
    }

    #[test]
    fn contradictory_conditions_are_a_proof_of_unreachability() {
        let source = "int f(int x)\n{\n    if (x > 5 && x < 3)\n        return 1; /* never */\n    return 0;\n}\n";
        let outcome = reach_line("contra", source, "f", "/* never */", 1);
        assert_eq!(outcome.verdict, Verdict::Unreachable);
        assert!(outcome.report.tests.is_empty());
    }

    #[test]
    fn pointer_facts_that_contradict_are_a_proof_of_unreachability() {
        let source = "int f(int *p, int *q)\n{\n    if (p == q && p != 0 && q == 0)\n        return *p; /* never */\n    return 0;\n}\n";
        let outcome = reach_line("pointers", source, "f", "/* never */", 1);
        assert_eq!(outcome.verdict, Verdict::Unreachable);
    }

    #[test]
    fn a_loop_bounded_below_k_iterations_is_proved_unreachable_k_times() {
        let source = "int f(int n)\n{\n    int s = 0;\n    for (int i = 0; i < n && i < 3; i++)\n        s++; /* body */\n    return s;\n}\n";
        let three = reach_line("bounded3", source, "f", "/* body */", 3);
        assert_eq!(three.verdict, Verdict::Reached { hits: 3 });
        let four = reach_line("bounded4", source, "f", "/* body */", 4);
        assert_eq!(four.verdict, Verdict::Unreachable);
        assert_eq!(four.best_hits, 3);
    }

    #[test]
    fn a_bound_that_cuts_the_search_is_named_instead_of_a_proof() {
        let source = "struct node { int v; struct node *next; };\nint length(struct node *p)\n{\n    int n = 0;\n    while (p) {\n        n++; /* body */\n        p = p->next;\n    }\n    return n;\n}\n";
        let outcome = reach_line("list", source, "length", "/* body */", 20);
        assert!(
            matches!(&outcome.verdict, Verdict::NotReached { stopped_by } if *stopped_by == Obstacle::Bound(Bound::MaxNodes)),
            "{:?}",
            outcome.verdict
        );
    }

    #[test]
    fn recursive_calls_count_in_every_frame() {
        let source = "int depth(int n)\n{\n    if (n <= 0)\n        return 0;\n    return 1 + depth(n - 1); /* call */\n}\n";
        let outcome = reach_line("recursion", source, "depth", "/* call */", 4);
        assert!(matches!(outcome.verdict, Verdict::Reached { hits } if hits >= 4));
        assert!(int_arg(&outcome, 0) >= 4);
    }

    #[test]
    fn a_branch_direction_is_counted_per_traversal() {
        let (program, func) = compile("branch", SUM, "sum");
        let line = line_of(SUM, "for (");
        let info = ir::function_goals(&program, func)
            .into_iter()
            .find(|g| g.span.line == line)
            .expect("loop condition goal");
        let goal = goal_at(&program, func, line, info.span.col, "T").expect("true arm");
        let target = ReachTarget {
            code: Code::Branch(goal),
            times: 5,
            exact: false,
            before: None,
        };
        let outcome = reach(&program, func, &target, &EngineConfig::default()).expect("goal");
        assert!(matches!(outcome.verdict, Verdict::Reached { hits } if hits >= 5));
        assert!(int_arg(&outcome, 0) >= 5);
    }

    #[test]
    fn a_line_without_code_is_an_error() {
        let (program, func) = compile("nocode", SUM, "sum");
        let target = ReachTarget {
            code: Code::Line(2),
            times: 1,
            exact: false,
            before: None,
        };
        let error = reach(&program, func, &target, &EngineConfig::default()).unwrap_err();
        assert!(error.0.contains("line 2"), "{error}");
    }

    /// Seed 002's harder objective: the inner loop runs exactly four times
    /// during the first iteration of the outer one, which only m = 5 gives.
    #[test]
    fn josephus_inner_loop_runs_exactly_four_times_in_the_first_round() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../tests/corpus/reach/josephus.c");
        let source = std::fs::read_to_string(&path).expect("corpus file");
        let out = front::compile(&path, &front::FrontConfig::default()).expect("compiles");
        let func = out.program.function_by_name("josephus").expect("function");
        let target = ReachTarget {
            code: Code::Line(line_of(&source, "last = last->next;")),
            times: 4,
            exact: true,
            before: Some(Code::Line(line_of(&source, "reach: elimination"))),
        };
        let outcome = reach(&out.program, func, &target, &EngineConfig::default()).expect("lines");
        assert_eq!(outcome.verdict, Verdict::Reached { hits: 4 });
        assert_eq!(int_arg(&outcome, 1), 5, "m");
        assert!(int_arg(&outcome, 0) >= 2, "n");
    }

    #[test]
    fn an_exact_count_beyond_a_loop_bound_is_unreachable() {
        let source = "int f(int n)\n{\n    int s = 0;\n    for (int i = 0; i < n && i < 3; i++)\n        s++; /* body */\n    return s; /* end */\n}\n";
        let (program, func) = compile("exact", source, "f");
        let target = |times| ReachTarget {
            code: Code::Line(line_of(source, "/* body */")),
            times,
            exact: true,
            before: Some(Code::Line(line_of(source, "/* end */"))),
        };
        let config = EngineConfig::default();
        let two = reach(&program, func, &target(2), &config).expect("lines");
        assert_eq!(two.verdict, Verdict::Reached { hits: 2 });
        assert_eq!(int_arg(&two, 0), 2, "exactly two iterations need n == 2");
        let four = reach(&program, func, &target(4), &config).expect("lines");
        assert_eq!(four.verdict, Verdict::Unreachable);
    }
}
