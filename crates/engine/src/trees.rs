//! Bounded execution trees (seed 003): every path of the function whose
//! loops run at most `bound` extra iterations, shortest first, run without
//! asking the solver at each branch. The paths that take a hard goal's arm
//! are its alternatives; the search then asks one disjunction of their
//! conditions instead of one query per path.

use crate::exec::{Executor, Hooks};
use crate::explore::{self, Budget, Ending, Objective};
use crate::searchers::{BestFirst, Ties};
use crate::state::State;
use ir::Goal;
use std::collections::{BTreeMap, BTreeSet};
use std::time::Instant;
use testcase::Bound;

/// Most alternatives of one goal put into one disjunction (the shortest).
const MAX_ALTERNATIVES: usize = 64;

/// Most states a tree holds at once: unpruned, a tree grows exponentially
/// with the bound, and a larger bound's tree would only be larger.
const MAX_WAITING: usize = 4_096;

/// What one bounded tree found.
#[derive(Default)]
pub struct Tree {
    /// Per goal, the states that have just taken its arm, shortest first.
    pub alternatives: BTreeMap<Goal, Vec<State>>,
    /// Goals with more alternatives than [`MAX_ALTERNATIVES`].
    pub truncated: BTreeSet<Goal>,
    /// The bound cut some path: a larger bound has more paths.
    pub bounded: bool,
    /// A budget stopped the tree before it was explored.
    pub unfinished: bool,
}

/// What the tree needs from the search: which goals to collect
/// alternatives for and which states can still reach one.
pub trait Targets {
    /// Whether `state`, having just taken `goal`'s arm, is a new alternative for it.
    fn wanted(&self, goal: &Goal, state: &State) -> bool;
    /// Whether `state` may still take the arm of a goal it has not taken yet.
    fn may_reach(&self, state: &State) -> bool;
}

/// Shortest paths first (then oldest): infeasibility grows with path length (seed 003).
pub fn shortest_first<O: ?Sized>() -> BestFirst<u64, impl Fn(&State, &O) -> Option<u64>> {
    BestFirst::new(
        |state: &State, _: &O| Some(state.blocks_run),
        Ties::Oldest,
        false,
    )
}

/// Explores the tree bounded by `bound` loop iterations with `exec`,
/// feasibility checks deferred (findings are added to `exec`'s).
pub fn grow(
    exec: &mut Executor,
    bound: u32,
    targets: &impl Targets,
    deadline: Instant,
) -> (Tree, Ending) {
    let Ok(root) = exec.initial_state() else {
        let ending = Ending {
            stopped_by: None,
            paths: 0,
            statements: 0,
        };
        return (Tree::default(), ending);
    };
    // The paths budget is the coverage search's, spent before this phase.
    let budget = Budget {
        max_waiting: Some(MAX_WAITING),
        max_paths: u64::MAX,
        ..Budget::until(deadline, exec.config)
    };
    let mut growth = Growth {
        targets,
        tree: Tree::default(),
        reached: 0,
    };
    let unbounded = exec.max_iterations;
    exec.max_iterations = bound.saturating_add(1);
    exec.solver.defer_feasibility(true);
    let ending = explore::run(
        exec,
        &mut growth,
        &mut shortest_first(),
        &budget,
        vec![root],
    );
    exec.solver.defer_feasibility(false);
    exec.max_iterations = unbounded;
    growth.tree.unfinished = ending.stopped_by.is_some();
    (growth.tree, ending)
}

/// The objective of growing one tree.
struct Growth<'t, T> {
    targets: &'t T,
    tree: Tree,
    /// Goals the running state had taken when its turn began.
    reached: usize,
}

impl<T: Targets> Growth<'_, T> {
    /// Records `state` as an alternative of each wanted goal whose arm it
    /// took during the turn.
    fn collect(&mut self, state: &State) {
        for goal in &state.trace[self.reached.min(state.trace.len())..] {
            if !self.targets.wanted(goal, state) {
                continue;
            }
            let kept = self.tree.alternatives.entry(*goal).or_default();
            if kept.len() < MAX_ALTERNATIVES {
                kept.push(state.clone());
            } else {
                self.tree.truncated.insert(*goal);
            }
        }
    }
}

impl<T: Targets> Hooks for Growth<'_, T> {}

impl<T: Targets> Objective for Growth<'_, T> {
    fn admit(&mut self, state: &State) -> bool {
        self.collect(state);
        self.targets.may_reach(state)
    }

    fn selected(&mut self, state: &State) {
        self.reached = state.trace.len();
    }

    fn completed(&mut self, _exec: &mut Executor, state: State) -> bool {
        self.collect(&state);
        false
    }

    fn cut(&mut self, bound: Bound) {
        self.tree.bounded |= bound == Bound::MaxIterations;
    }
}
