//! Goal-oriented search (seed 002): one input whose run executes a source
//! line, or takes one direction of a condition, at least K times; or a proof
//! that none exists; or the bound that stopped the search.
//!
//! What counts as one execution (the choice gcov makes for a line): entering
//! a block that has code on the line from a block that has none, or at the
//! start of a call. So `x = a && b;` split over three blocks counts once, and
//! a line is counted in every frame of the function under test (recursion
//! included) but not in other functions. A branch counts each time its edge
//! (condition block to the arm's block) is taken. The counter lives in the
//! state ([`State::watch_hits`]), updated by [`State::enter_block`].
//!
//! Search order. A state that has executed the target K times only has to
//! finish: it runs first, depth-first. The others are ranked by executions so
//! far (most first: a state in the target's loop keeps iterating it), then
//! share the running time equally between two orders, as the coverage search
//! does: loop iterations raised step by step with the CFG distance to the
//! target next (short paths first), and depth (most loop iterations, longest
//! path), which reaches targets behind long loops such as a list of K nodes
//! built first. A state from which the target cannot be executed again is
//! dropped when that is certain: the function cannot re-enter itself.
//!
//! Loops: a run executing a line K times enters some blocks K times or more,
//! so the iteration bound becomes at least `2 K + 16` (the search's
//! `max_iterations` when larger).

use crate::exec::{initial_state, Machine, Turn};
use crate::extract;
use crate::solver::PathSolver;
use crate::state::{Frame, State};
use crate::testcase::{FunctionReport, Stats};
use crate::value::Stop;
use crate::EngineConfig;
use ir::{BlockId, Body, Callee, FuncId, Goal, Program, StmtKind, Terminator};
use std::cmp::Reverse;
use std::collections::{BTreeMap, BTreeSet, BinaryHeap, VecDeque};
use std::fmt;
use std::rc::Rc;
use std::time::Instant;

/// What to execute.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Objective {
    /// Any code on this line of the function's file.
    Line(u32),
    /// One direction of one condition of the function.
    Branch(Goal),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReachTarget {
    pub objective: Objective,
    /// Executions needed (at least 1).
    pub times: u32,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The report's only test executes the target `hits` times (at least K).
    Reached { hits: u32 },
    /// Every path ran to its end or became infeasible, no bound cut any, and
    /// none executed the target K times: a proof.
    Unreachable,
    /// A bound stopped the search first (its name, e.g. `max_time`,
    /// `max_iterations`, or the construct the engine does not model).
    NotReached { bound: String },
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

/// Searches for an input of `func` that executes `target` at least
/// `target.times` times. Runs on its own thread (fresh Z3 context, deep stack).
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
    let watch = Watch::new(program, func, body, target.objective)?;
    let times = target.times.max(1);
    let config = EngineConfig {
        max_iterations: config
            .max_iterations
            .max(times.saturating_mul(2).saturating_add(16)),
        ..config.clone()
    };
    let outcome = std::thread::scope(|scope| {
        std::thread::Builder::new()
            .name("cairn-reach".into())
            .stack_size(crate::EXPLORER_STACK)
            .spawn_scoped(scope, || search(program, func, watch, times, &config))
            .map(|handle| handle.join())
    });
    match outcome {
        Ok(Ok(outcome)) => Ok(outcome),
        Ok(Err(_)) => Err(ReachError("internal error in the engine".into())),
        Err(e) => Err(ReachError(format!("cannot start the engine thread: {e}"))),
    }
}

/// The CFG edges whose traversals count as executions of the target.
#[derive(Debug)]
pub struct Watch {
    func: FuncId,
    /// `(from, to)`; `from == None` is the entry of a call.
    edges: BTreeSet<(Option<BlockId>, BlockId)>,
}

impl Watch {
    fn new(
        program: &Program,
        func: FuncId,
        body: &Body,
        objective: Objective,
    ) -> Result<Watch, ReachError> {
        let name = &program.function(func).name;
        let mut edges = BTreeSet::new();
        match objective {
            Objective::Line(line) => {
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
            Objective::Branch(goal) => {
                let info = ir::function_goals(program, func)
                    .into_iter()
                    .find(|info| info.goal == goal)
                    .ok_or_else(|| ReachError(format!("no such condition in `{name}`")))?;
                let site = body
                    .blocks
                    .iter()
                    .position(|b| match &b.term {
                        Terminator::Branch { site, .. } | Terminator::Switch { site, .. } => {
                            *site == goal.site
                        }
                        _ => false,
                    })
                    .ok_or_else(|| ReachError(format!("no such condition in `{name}`")))?;
                edges.insert((Some(BlockId(site as u32)), info.target));
            }
        }
        Ok(Watch { func, edges })
    }

    /// Does entering `to` from `frame`'s current position traverse a watched edge?
    pub fn counts(&self, frame: &Frame, to: BlockId) -> bool {
        if frame.func != self.func {
            return false;
        }
        let entering_call = to.index() == 0 && frame.visits.first() == Some(&0);
        let from = (!entering_call).then_some(frame.block);
        self.edges.contains(&(from, to))
    }

    /// Shortest CFG distance from each block to the start of a watched edge.
    fn distances(&self, body: &Body) -> Vec<u32> {
        let mut predecessors: Vec<Vec<usize>> = vec![Vec::new(); body.blocks.len()];
        for (b, block) in body.blocks.iter().enumerate() {
            for s in block.term.successors() {
                predecessors[s.index()].push(b);
            }
        }
        let mut dist = vec![FAR; body.blocks.len()];
        let mut queue = VecDeque::new();
        for from in self.edges.iter().filter_map(|(from, _)| *from) {
            dist[from.index()] = 0;
            queue.push_back(from.index());
        }
        while let Some(at) = queue.pop_front() {
            for &p in &predecessors[at] {
                if dist[p] == FAR {
                    dist[p] = dist[at] + 1;
                    queue.push_back(p);
                }
            }
        }
        dist
    }
}

const FAR: u32 = u32::MAX;

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

/// Breadth order (a min-heap): most executions, fewest loop iterations,
/// closest to the target, fewest input objects, shortest path, oldest.
type BreadthKey = (Reverse<u32>, u32, u32, usize, u64, u64);
/// Depth order (a max-heap): most executions, most loop iterations, longest
/// path, fewest input objects, newest.
type DepthKey = (u32, u32, u64, Reverse<usize>, u64);

struct Queue {
    times: u32,
    distance: Vec<u32>,
    func: FuncId,
    /// Whether a state that can no longer reach the target may be dropped.
    prune: bool,
    /// Queued states by number; the orders below index into it.
    pending: BTreeMap<u64, State>,
    /// States that executed the target K times: they only need to finish.
    finishing: Vec<u64>,
    by_breadth: BinaryHeap<Reverse<BreadthKey>>,
    by_depth: BinaryHeap<DepthKey>,
    /// Statements run for states of each order (breadth, depth).
    statements: [u64; 2],
    deep_turn: bool,
    seq: u64,
}

impl Queue {
    fn push(&mut self, state: State) {
        self.seq += 1;
        let hits = state.watch_hits;
        if hits >= self.times {
            self.finishing.push(self.seq);
            self.pending.insert(self.seq, state);
            return;
        }
        let distance = state
            .frames
            .iter()
            .filter(|f| f.func == self.func)
            .map(|f| self.distance[f.block.index()])
            .min()
            .unwrap_or(FAR);
        if distance == FAR && self.prune {
            return;
        }
        let nodes = state.input_objects();
        let (level, length) = (state.loop_level, state.blocks_run);
        self.by_breadth.push(Reverse((
            Reverse(hits),
            level,
            distance,
            nodes,
            length,
            self.seq,
        )));
        self.by_depth
            .push((hits, level, length, Reverse(nodes), self.seq));
        self.pending.insert(self.seq, state);
    }

    /// The next state: a finishing one, else taking turns between the orders.
    fn pop(&mut self) -> Option<State> {
        while let Some(seq) = self.finishing.pop() {
            if let Some(state) = self.pending.remove(&seq) {
                return Some(state);
            }
        }
        self.deep_turn = self.statements[1] <= self.statements[0];
        let first = if self.deep_turn {
            self.pop_deepest()
        } else {
            self.pop_broadest()
        };
        first.or_else(|| {
            self.deep_turn = !self.deep_turn;
            if self.deep_turn {
                self.pop_deepest()
            } else {
                self.pop_broadest()
            }
        })
    }

    fn pop_deepest(&mut self) -> Option<State> {
        while let Some(key) = self.by_depth.pop() {
            if let Some(state) = self.pending.remove(&key.4) {
                return Some(state);
            }
        }
        None
    }

    fn pop_broadest(&mut self) -> Option<State> {
        while let Some(Reverse(key)) = self.by_breadth.pop() {
            if let Some(state) = self.pending.remove(&key.5) {
                return Some(state);
            }
        }
        None
    }
}

/// Records the bound that cut a path; any other replaces `max_iterations`,
/// which also cuts loops spinning on cyclic inputs while another bound is the one to raise.
fn note_bound(cut: &mut Option<String>, name: &str) {
    if cut.as_deref().is_none_or(|c| c == "max_iterations") {
        *cut = Some(name.to_string());
    }
}

fn search(
    program: &Program,
    func: FuncId,
    watch: Watch,
    times: u32,
    config: &EngineConfig,
) -> ReachOutcome {
    let start = Instant::now();
    let deadline = start + config.max_time;
    let mut report = FunctionReport {
        func,
        tests: Vec::new(),
        findings: Vec::new(),
        goals: ir::function_goals(program, func)
            .into_iter()
            .map(|g| g.goal)
            .collect(),
        uncovered: Vec::new(),
        stats: Stats::default(),
    };
    let distance = match &program.function(func).body {
        Some(body) => watch.distances(body),
        None => Vec::new(),
    };
    let mut queue = Queue {
        times,
        distance,
        func,
        prune: !may_reenter(program, func),
        pending: BTreeMap::new(),
        finishing: Vec::new(),
        by_breadth: BinaryHeap::new(),
        by_depth: BinaryHeap::new(),
        statements: [0, 0],
        deep_turn: false,
        seq: 0,
    };
    let mut machine = Machine::new(
        program,
        config,
        PathSolver::new(deadline, config.max_time / 4),
        func,
    );
    let mut cut: Option<String> = None;
    match initial_state(program, func) {
        Ok(mut st) => {
            // The call's entry happened before the watch was attached.
            let entry_watched = watch.edges.contains(&(None, BlockId(0)));
            st.watch_hits = u32::from(entry_watched);
            st.watch = Some(Rc::new(watch));
            queue.push(st);
        }
        Err(Stop::Unsupported(what)) => cut = Some(format!("unsupported: {what}")),
        Err(_) => {}
    }
    let mut paths = 0u64;
    let mut best_hits = 0;
    let mut reached = None;
    while reached.is_none() {
        if Instant::now() >= deadline {
            note_bound(&mut cut, "max_time");
            break;
        }
        if paths >= config.max_paths {
            note_bound(&mut cut, "max_paths");
            break;
        }
        let Some(st) = queue.pop() else { break };
        let ran_before = machine.statements;
        let outcome = machine.turn(st);
        queue.statements[usize::from(queue.deep_turn)] += machine.statements - ran_before;
        if let Some(name) = machine.budget_cut.take() {
            note_bound(&mut cut, name);
        }
        match outcome {
            Ok(Turn::Running(states)) | Err(Stop::Fork(states)) => {
                for s in states {
                    queue.push(s);
                }
            }
            Ok(Turn::Completed(st)) => {
                paths += 1;
                best_hits = best_hits.max(st.watch_hits);
                if st.watch_hits >= times {
                    reached = solved_test(program, config, &mut machine, &st, func);
                }
            }
            Err(Stop::Dead) => {}
            Err(Stop::Ended) => {
                paths += 1;
                machine.ended_trace.clear();
            }
            Err(Stop::Unsupported(what)) => note_bound(&mut cut, &format!("unsupported: {what}")),
            Err(Stop::Budget(name)) => note_bound(&mut cut, name),
        }
    }
    let verdict = match (&reached, cut) {
        (Some((_, hits)), _) => Verdict::Reached { hits: *hits },
        (None, Some(bound)) => Verdict::NotReached { bound },
        (None, None) if machine.solver.gave_up => Verdict::NotReached {
            bound: "solver timeout".into(),
        },
        (None, None) => Verdict::Unreachable,
    };
    report.stats = Stats {
        paths,
        solver_calls: machine.solver.calls,
        statements: machine.statements,
        elapsed: start.elapsed(),
    };
    report.tests.extend(reached.map(|(test, _)| test));
    report.findings = machine.findings;
    ReachOutcome {
        verdict,
        report,
        best_hits,
    }
}

/// The test of a completed path, with its number of executions of the target.
fn solved_test(
    program: &Program,
    config: &EngineConfig,
    machine: &mut Machine,
    st: &State,
    func: FuncId,
) -> Option<(crate::testcase::TestCase, u32)> {
    let model = machine.solver.readable_model(&st.path, &st.input_symbols)?;
    let goals = st.trace.clone();
    let test = extract::test_case(program, config, st, &model, func, goals.clone(), goals);
    Some((test, st.watch_hits))
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
