//! Bounded execution trees (seed 003): every path of the function whose
//! loops run at most `bound` extra iterations, shortest first, run without
//! asking the solver at each branch. The paths that take a hard goal's arm
//! are its alternatives; the search then asks one disjunction of their
//! conditions instead of one query per path.

use crate::exec::{initial_state, Machine, Turn};
use crate::solver::PathSolver;
use crate::state::State;
use crate::value::Stop;
use crate::EngineConfig;
use ir::Goal;
use std::collections::{BTreeMap, BTreeSet};
use std::time::Instant;

/// Most alternatives of one goal put into one disjunction (the shortest).
const MAX_ALTERNATIVES: usize = 64;

/// Most states a tree holds at once: unpruned, a tree grows exponentially
/// with the bound, and a larger bound's tree would only be larger.
const MAX_PENDING: usize = 4_096;

/// What one bounded tree found.
#[derive(Default)]
pub struct Tree {
    /// Per goal, the states that have just taken its arm, shortest first.
    pub alternatives: BTreeMap<Goal, Vec<State>>,
    /// Goals with more alternatives than [`MAX_ALTERNATIVES`].
    pub truncated: BTreeSet<Goal>,
    /// The bound cut some path: a larger bound has more paths.
    pub bounded: bool,
    /// The deadline or [`MAX_PENDING`] stopped the tree before it was explored.
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

/// Explores the tree bounded by `bound` loop iterations with `machine`'s
/// solver, feasibility checks deferred. Statements and findings are added
/// to `machine`'s.
pub fn explore(
    machine: &mut Machine,
    bound: u32,
    targets: &impl Targets,
    deadline: Instant,
) -> Tree {
    let config = EngineConfig {
        max_iterations: bound.saturating_add(1),
        ..machine.config.clone()
    };
    // Stands in for the solver while the bounded machine has it; never asked.
    let placeholder = PathSolver::for_config(&config, deadline);
    let solver = std::mem::replace(&mut machine.solver, placeholder);
    let mut bounded = Machine::new(machine.program, &config, solver, machine.root);
    bounded.solver.defer_feasibility(true);
    let tree = grow(&mut bounded, targets, deadline);
    bounded.solver.defer_feasibility(false);
    machine.solver = bounded.solver;
    machine.statements += bounded.statements;
    for finding in bounded.findings {
        let known = machine
            .findings
            .iter()
            .any(|f| f.kind == finding.kind && f.span == finding.span);
        if !known {
            machine.findings.push(finding);
        }
    }
    tree
}

/// Shortest paths first: infeasibility grows with path length (seed 003).
fn grow(machine: &mut Machine, targets: &impl Targets, deadline: Instant) -> Tree {
    let mut tree = Tree::default();
    let Ok(root) = initial_state(machine.program, machine.root) else {
        return tree;
    };
    let mut queue = ShortestFirst::default();
    queue.push(root);
    while let Some(state) = queue.pop() {
        if Instant::now() >= deadline || queue.len() >= MAX_PENDING {
            tree.unfinished = true;
            break;
        }
        let reached = state.trace.len();
        let outcome = machine.turn(state);
        machine.budget_cut = None;
        machine.ended_trace.clear();
        match outcome {
            Ok(Turn::Running(states)) | Err(Stop::Fork(states)) => {
                for state in states {
                    collect(&mut tree, targets, &state, reached);
                    if targets.may_reach(&state) {
                        queue.push(state);
                    }
                }
            }
            Ok(Turn::Completed(state)) => collect(&mut tree, targets, &state, reached),
            Err(Stop::Budget("max_iterations")) => tree.bounded = true,
            Err(_) => {}
        }
    }
    tree
}

/// Records `state` as an alternative of each wanted goal whose arm it took
/// since its trace had `reached` goals.
fn collect(tree: &mut Tree, targets: &impl Targets, state: &State, reached: usize) {
    for goal in &state.trace[reached.min(state.trace.len())..] {
        if !targets.wanted(goal, state) {
            continue;
        }
        let kept = tree.alternatives.entry(*goal).or_default();
        if kept.len() < MAX_ALTERNATIVES {
            kept.push(state.clone());
        } else {
            tree.truncated.insert(*goal);
        }
    }
}

/// States by path length, shortest first (then oldest first).
#[derive(Default)]
pub struct ShortestFirst {
    states: BTreeMap<(u64, u64), State>,
    pushed: u64,
}

impl ShortestFirst {
    pub fn push(&mut self, state: State) {
        self.pushed += 1;
        self.states.insert((state.blocks_run, self.pushed), state);
    }

    pub fn len(&self) -> usize {
        self.states.len()
    }

    pub fn pop(&mut self) -> Option<State> {
        self.states.pop_first().map(|(_, state)| state)
    }
}
