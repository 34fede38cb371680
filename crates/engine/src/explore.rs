//! The one exploration loop, shared by every kind of search.
//!
//! A search is two parts. Its [`Searcher`] is the order in which waiting
//! path states run (KLEE's interface: select one, be told which states a
//! step added and removed, say when empty). Its [`Objective`] says what the
//! search is for: which states are worth keeping, what a finished path
//! means, when it is done; it also hears the executor's events ([`Hooks`])
//! and keeps its per-state data keyed by [`StateId`]. The loop alone owns
//! the waiting states, the budgets (deadline, paths, stall, waiting states),
//! cancellation and the statistics.
//!
//! To add a search strategy: write a [`Searcher`] (see `searchers` for the
//! general ones and the combinator that interleaves two), and, when it is
//! for something other than coverage, an [`Objective`].

use crate::config::EngineConfig;
use crate::exec::{Cut, Executor, Hooks, Outcome, PathEnd};
use crate::stable_hash::StableHashMap;
use crate::state::{State, StateId};
use ir::{Goal, Span};
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};
use testcase::Bound;
use testcase::Stats;

/// The path states waiting to run, by identity.
#[derive(Default)]
pub struct Frontier {
    states: BTreeMap<StateId, State>,
}

impl Frontier {
    pub fn get(&self, id: StateId) -> Option<&State> {
        self.states.get(&id)
    }

    pub fn contains(&self, id: StateId) -> bool {
        self.states.contains_key(&id)
    }

    pub fn len(&self) -> usize {
        self.states.len()
    }

    pub(crate) fn insert(&mut self, state: State) {
        self.states.insert(state.id, state);
    }

    fn take(&mut self, id: StateId) -> Option<State> {
        self.states.remove(&id)
    }

    fn drain(&mut self) -> impl Iterator<Item = State> {
        std::mem::take(&mut self.states).into_values()
    }
}

/// What one step changed in the frontier, for [`Searcher::update`].
pub struct Change<'c> {
    /// States queued by the step (the selected state again when it goes on).
    pub added: &'c [StateId],
    /// States that left the frontier (the selected one, and any dropped).
    pub removed: &'c [StateId],
    /// Statements the selected state ran during the step.
    pub statements: u64,
}

/// The order in which waiting states run. `O` is what it may consult to
/// rank them (the objective of its search).
pub trait Searcher<O: ?Sized> {
    /// The next state to run, among the frontier's; `None` when it has none.
    fn select(&mut self, frontier: &Frontier, objective: &O) -> Option<StateId>;
    /// Removes `change.removed`, then ranks `change.added`.
    fn update(&mut self, frontier: &Frontier, objective: &O, change: &Change);
    /// Whether it holds no state.
    fn is_empty(&self) -> bool;
}

impl<O: ?Sized, S: Searcher<O> + ?Sized> Searcher<O> for Box<S> {
    fn select(&mut self, frontier: &Frontier, objective: &O) -> Option<StateId> {
        (**self).select(frontier, objective)
    }
    fn update(&mut self, frontier: &Frontier, objective: &O, change: &Change) {
        (**self).update(frontier, objective, change)
    }
    fn is_empty(&self) -> bool {
        (**self).is_empty()
    }
}

/// What a search is for.
pub trait Objective: Hooks {
    /// Whether a new `state` may serve the objective; the others are dropped.
    fn admit(&mut self, _state: &State) -> bool {
        true
    }
    /// Whether `state`, about to run, still may (the objective may have
    /// moved on since it was admitted); the others are dropped.
    fn keeps(&self, _state: &State) -> bool {
        true
    }
    /// `state` is about to run a turn.
    fn selected(&mut self, _state: &State) {}
    /// The path of `state` returned from the function under test; true
    /// when that is progress (e.g. a new test), which resets the stall clock.
    fn completed(&mut self, exec: &mut Executor, state: State) -> bool;
    /// The selected state's path ended without a test (a finding, `exit`,
    /// `abort`).
    fn ended(&mut self, _end: &PathEnd) {}
    /// Something the engine does not model (named) stopped the selected state's path.
    fn unsupported(&mut self, _what: &str) {}
    /// A budget (named) cut the selected state's path, or one of its choices.
    fn cut(&mut self, _bound: Bound) {}
    /// A budget cut one of the selected state's choices where `cut` says.
    fn cut_at(&mut self, cut: &Cut) {
        self.cut(cut.bound);
    }
    /// `state` left the search for good: what was tracked for it may go.
    fn released(&mut self, _state: StateId) {}
    /// `state` left this search before its path ended (not admitted, no
    /// longer kept, or still waiting when the search stopped), after
    /// [`Self::released`]: the objective may keep it for a later search.
    fn set_aside(&mut self, _state: State) {}
    /// Nothing more to do.
    fn done(&self) -> bool {
        false
    }
    /// Whether more concrete candidate inputs could help (`cheap`): goals
    /// no test reached, or others only a candidate's values can meet.
    fn wants_candidates(&self) -> bool {
        !self.done()
    }
    /// Whether a path reaching `goal` would be progress: a goal the
    /// objective still lacks. A screened candidate that reaches one is run
    /// in full ([`crate::cheap`]).
    fn lacks(&self, _goal: &Goal) -> bool {
        true
    }
    /// Whether a test on the completed path of `state`, at the edge
    /// `offset` of the comparison at `span`, could be progress (see
    /// [`crate::exec::Hooks::at_edge`]).
    fn lacks_edge(&self, _state: &State, _span: Span, _offset: i8) -> bool {
        false
    }
    /// Whether any completed path would be progress, whatever it reaches
    /// (the one test of a function without goals).
    fn lacks_any_path(&self) -> bool {
        false
    }
}

/// What stopped a search short of an answer: a bound, or a construct the
/// engine does not model.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Obstacle {
    Bound(Bound),
    Unsupported(String),
}

impl Obstacle {
    /// As a user reads it: the bound with what it cut and how to lift it.
    pub fn explained(&self) -> String {
        match self {
            Obstacle::Bound(bound) => bound.explained(),
            Obstacle::Unsupported(what) => format!("unsupported: {what}"),
        }
    }
}

/// How often the loop looks at the process's resident memory
/// ([`crate::bounds::RESIDENT_BYTES`]): a look reads a file.
const MEMORY_CHECK_EVERY: Duration = Duration::from_millis(20);

/// The limits of one run of the loop.
#[derive(Clone, Copy)]
pub struct Budget<'c> {
    pub deadline: Instant,
    /// Paths run to their end (returned, or ended by a finding, `exit` or `abort`).
    pub max_paths: u64,
    /// Statements run: a bound on work that stops a search at the same
    /// point on every run, however loaded the machine.
    pub max_statements: u64,
    /// The solver's work count (`PathSolver::work_done`) at which it
    /// stops: like statements, the same point on every run.
    pub solver_work_until: Option<u64>,
    /// Stop once no path has made progress for this long.
    pub stall: Option<Duration>,
    /// Most states waiting at once: the search stops there.
    pub max_waiting: Option<usize>,
    /// Most states waiting at once while the search goes on: past it a
    /// fork queues only the ways that fit (at least one), the rest cut.
    pub max_forked: usize,
    /// Set from outside (e.g. on Ctrl-C) to stop at the next turn.
    pub cancel: Option<&'c AtomicBool>,
}

impl<'c> Budget<'c> {
    /// Until `deadline`, with `config`'s paths and cancellation, no other limit.
    pub fn until(deadline: Instant, config: &'c EngineConfig) -> Budget<'c> {
        Budget {
            deadline,
            max_paths: config.max_paths,
            max_statements: u64::MAX,
            solver_work_until: None,
            stall: None,
            max_waiting: None,
            max_forked: config.max_waiting_states,
            cancel: config.cancel.as_deref(),
        }
    }
}

/// Why the loop stopped, and what it ran.
#[derive(Debug)]
pub struct Ending {
    /// The budget that stopped it (`max_time`, `max_paths`,
    /// `max_statements`, `max_solver_work`, `stalled`, `max_waiting`,
    /// `max_memory`, `interrupted`); `None` when the objective was done or
    /// no state was left.
    pub stopped_by: Option<Bound>,
    pub paths: u64,
    pub statements: u64,
}

impl Ending {
    /// The statistics of a search that started at `start`.
    pub fn stats(&self, exec: &Executor, start: Instant) -> Stats {
        Stats {
            paths: self.paths,
            solver_calls: exec.solver.calls,
            statements: self.statements,
            elapsed: start.elapsed(),
            solver: exec.solver.counts,
            cheap: testcase::CheapCounts::default(),
        }
    }

    /// Adds the work of a later run of the loop.
    pub fn absorb(&mut self, later: Ending) {
        self.paths += later.paths;
        self.statements += later.statements;
        self.stopped_by = later.stopped_by;
    }
}

/// Runs `initial` and every state it leads to, in `searcher`'s order, until
/// `objective` is done, no state is left, or a budget stops it.
pub fn run<O: Objective>(
    exec: &mut Executor,
    objective: &mut O,
    searcher: &mut dyn Searcher<O>,
    budget: &Budget,
    initial: Vec<State>,
) -> Ending {
    let mut frontier = Frontier::default();
    let mut ending = Ending {
        stopped_by: None,
        paths: 0,
        statements: 0,
    };
    let mut last_progress = Instant::now();
    let mut memory_checked = Instant::now();
    let added = queue(&mut frontier, objective, initial);
    searcher.update(
        &frontier,
        objective,
        &Change {
            added: &added,
            removed: &[],
            statements: 0,
        },
    );
    while !objective.done() && !searcher.is_empty() {
        let now = Instant::now();
        let stop = if budget.cancel.is_some_and(|c| c.load(Ordering::Relaxed)) {
            Some(Bound::Interrupted)
        } else if now >= budget.deadline {
            Some(Bound::MaxTime)
        } else if budget.stall.is_some_and(|s| now - last_progress >= s) {
            Some(Bound::Stalled)
        } else if ending.paths >= budget.max_paths {
            Some(Bound::MaxPaths)
        } else if ending.statements >= budget.max_statements {
            Some(Bound::MaxStatements)
        } else if budget
            .solver_work_until
            .is_some_and(|until| exec.solver.work_done() >= until)
        {
            Some(Bound::MaxSolverWork)
        } else if budget.max_waiting.is_some_and(|m| frontier.len() >= m) {
            Some(Bound::MaxWaiting)
        } else if now - memory_checked >= MEMORY_CHECK_EVERY && {
            memory_checked = now;
            crate::bounds::over_resident_bytes()
        } {
            Some(Bound::MaxMemory)
        } else {
            None
        };
        if stop.is_some() {
            ending.stopped_by = stop;
            break;
        }
        let Some(id) = searcher.select(&frontier, objective) else {
            break;
        };
        let state = frontier
            .take(id)
            .expect("a searcher selects a waiting state");
        if !objective.keeps(&state) {
            objective.released(id);
            objective.set_aside(state);
            let change = Change {
                added: &[],
                removed: &[id],
                statements: 0,
            };
            searcher.update(&frontier, objective, &change);
            continue;
        }
        objective.selected(&state);
        let step = exec.turn(state, objective);
        ending.statements += step.statements;
        for cut in &step.cuts {
            objective.cut_at(cut);
        }
        let mut added = Vec::new();
        match step.outcome {
            Outcome::Running(mut states) => {
                let room = budget.max_forked.saturating_sub(frontier.len()).max(1);
                if states.len() > room {
                    objective.cut(Bound::MaxWaitingStates);
                    for state in states.split_off(room) {
                        objective.released(state.id);
                        objective.set_aside(state);
                    }
                }
                added = queue(&mut frontier, objective, states);
            }
            Outcome::Completed(state) => {
                ending.paths += 1;
                if objective.completed(exec, *state) {
                    last_progress = Instant::now();
                }
            }
            Outcome::Ended(end) => {
                ending.paths += 1;
                objective.ended(&end);
            }
            Outcome::Infeasible => {}
            Outcome::Unsupported(what) => objective.unsupported(&what),
            Outcome::Cut(bound) => objective.cut(bound),
        }
        if !added.contains(&id) {
            objective.released(id);
        }
        let change = Change {
            added: &added,
            removed: &[id],
            statements: step.statements,
        };
        searcher.update(&frontier, objective, &change);
    }
    // Once cancelled, the solver answers nothing and paths die of it: what
    // the search left is not out of reach.
    if ending.stopped_by.is_none() && budget.cancel.is_some_and(|c| c.load(Ordering::Relaxed)) {
        ending.stopped_by = Some(Bound::Interrupted);
    }
    for state in frontier.drain() {
        objective.released(state.id);
        objective.set_aside(state);
    }
    ending
}

/// Puts the states `objective` admits into the frontier; their identities.
fn queue<O: Objective>(
    frontier: &mut Frontier,
    objective: &mut O,
    states: Vec<State>,
) -> Vec<StateId> {
    let mut added = Vec::new();
    for state in states {
        if objective.admit(&state) {
            added.push(state.id);
            frontier.insert(state);
        } else {
            objective.released(state.id);
            objective.set_aside(state);
        }
    }
    added
}

/// Per-state data a search tracks, keyed by [`StateId`]: a fork copies the
/// parent's entry to the child.
pub struct PerState<T> {
    entries: StableHashMap<StateId, T>,
}

impl<T: Clone + Default> PerState<T> {
    pub fn new() -> Self {
        PerState {
            entries: StableHashMap::default(),
        }
    }

    /// The entry of `state` (the default when none was made).
    pub fn get(&self, state: StateId) -> T {
        self.entries.get(&state).cloned().unwrap_or_default()
    }

    pub fn get_ref(&self, state: StateId) -> Option<&T> {
        self.entries.get(&state)
    }

    pub fn entry(&mut self, state: StateId) -> &mut T {
        self.entries.entry(state).or_default()
    }

    pub fn forked(&mut self, parent: StateId, child: StateId) {
        if let Some(data) = self.entries.get(&parent).cloned() {
            self.entries.insert(child, data);
        }
    }

    pub fn release(&mut self, state: StateId) {
        self.entries.remove(&state);
    }
}

impl<T: Clone + Default> Default for PerState<T> {
    fn default() -> Self {
        Self::new()
    }
}

/// Stack for one exploration: expression evaluation recurses on nesting depth.
const EXPLORER_STACK: usize = 64 << 20;

/// Runs `explore` on a thread of its own: a fresh Z3 context (its results
/// do not depend on what ran before) and a deep stack. An error names what
/// went wrong (a panic is an internal error of the engine).
pub fn on_own_thread<T: Send>(explore: impl FnOnce() -> T + Send) -> Result<T, String> {
    let outcome = std::thread::scope(|scope| {
        std::thread::Builder::new()
            .name("cairn-engine".into())
            .stack_size(EXPLORER_STACK)
            .spawn_scoped(scope, explore)
            .map(|handle| handle.join())
    });
    match outcome {
        Ok(Ok(value)) => Ok(value),
        Ok(Err(_)) => Err("internal error in the engine".into()),
        Err(e) => Err(format!("cannot start the engine thread: {e}")),
    }
}
