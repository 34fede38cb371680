//! Which branch goals imply which, and the unconstrained goals (seed 003).
//!
//! The analysis works on the *edge graph* of a function: one node per CFG
//! edge (a virtual entry edge into block 0, one edge per goal of a branch or
//! switch, one per `goto`, and one from every `Return`/`Unreachable` block to
//! a single virtual exit), with node `e1 -> e2` when `e1` ends in the block
//! `e2` leaves. Edge `a` dominates edge `b` when every path from the entry to
//! `b` goes through `a`; `a` post-dominates `b` when every path from `b` to
//! the exit goes through `a`. Blocks that cannot reach the exit (an infinite
//! loop, a `while (1)` without `break`) get an extra edge to the exit, so
//! post-dominance never claims anything an endless run would not deliver.
//!
//! A test that covers `b` covers every edge that dominates or post-dominates
//! `b`, and nothing else is guaranteed: when `a` does neither, a path from the
//! entry to `b` avoiding `a` joined to a path from `b` to the exit avoiding `a`
//! is a whole execution path through `b` without `a`. So "covering `b` implies
//! covering `a`" is exactly `a dom b || a pdom b`.
//!
//! Seed 003 calls an edge *unconstrained* when it dominates no other edge and
//! post-dominates no other edge: no other edge's coverage implies it. Edges
//! that imply each other (one basic block's straight line, the paper's
//! "extended leaves") form one class, and the class counts once. Restricted to
//! branch goals: a goal is unconstrained when no goal outside its class implies
//! it, and the first goal of each such class stands for the class. Covering the
//! unconstrained goals covers every goal reachable from the entry, and no
//! smaller set does (each unconstrained class is implied by its members only).
//! Goals no path from the entry reaches are unconstrained and imply nothing,
//! so they stay visible as goals of their own.

use crate::goals::{function_goals, Goal};
use crate::program::{Block, FuncId, Program, Terminator};
use std::collections::BTreeSet;

/// Dominance, post-dominance and implication between one function's goals.
#[derive(Clone, Debug)]
pub struct GoalImplications {
    /// In `function_goals` order; the indices below refer to it.
    goals: Vec<Goal>,
    /// Goals dominating each goal (itself included).
    dominators: Vec<BTreeSet<usize>>,
    /// Goals post-dominating each goal (itself included).
    post_dominators: Vec<BTreeSet<usize>>,
    /// Whether a path from the entry reaches each goal.
    reachable: Vec<bool>,
}

/// The unconstrained goals of `func`, in `function_goals` order: covering
/// them covers every goal an execution can reach.
pub fn unconstrained_goals(program: &Program, func: FuncId) -> Vec<Goal> {
    GoalImplications::new(program, func).unconstrained()
}

/// Every goal of `func` that a set of tests covering `covered` necessarily
/// covers (the covered goals of `func` included; goals of other functions ignored).
pub fn implied_goals(program: &Program, func: FuncId, covered: &[Goal]) -> BTreeSet<Goal> {
    GoalImplications::new(program, func).implied_by(covered)
}

impl GoalImplications {
    pub fn new(program: &Program, func: FuncId) -> GoalImplications {
        let graph = EdgeGraph::new(program, func);
        let dom = immediate_dominators(&graph.succs, ENTRY);
        let pdom = immediate_dominators(&reversed(&graph.succs), graph.exit());
        let goal_ancestors = |idom: &[Option<usize>], node: usize| -> BTreeSet<usize> {
            ancestors(idom, node)
                .filter_map(|n| graph.node_goal[n])
                .collect()
        };
        let mut dominators = Vec::new();
        let mut post_dominators = Vec::new();
        let mut reachable = Vec::new();
        for (index, node) in graph.goal_nodes.iter().enumerate() {
            let reached = node.filter(|&n| dom[n].is_some());
            reachable.push(reached.is_some());
            if let Some(node) = reached {
                dominators.push(goal_ancestors(&dom, node));
                post_dominators.push(goal_ancestors(&pdom, node));
            } else {
                // Vacuous facts about a goal no run covers would hide the goals they name.
                dominators.push(BTreeSet::from([index]));
                post_dominators.push(BTreeSet::from([index]));
            }
        }
        GoalImplications {
            goals: graph.goals,
            dominators,
            post_dominators,
            reachable,
        }
    }

    /// The function's goals, in `function_goals` order.
    pub fn goals(&self) -> &[Goal] {
        &self.goals
    }

    /// Every path from the entry to `b` takes goal `a` (`a == b` included).
    pub fn dominates(&self, a: Goal, b: Goal) -> bool {
        self.related(&self.dominators, a, b)
    }

    /// Every path from `b` to the exit takes goal `a` (`a == b` included).
    pub fn post_dominates(&self, a: Goal, b: Goal) -> bool {
        self.related(&self.post_dominators, a, b)
    }

    /// Whether every execution covering `a` also covers `b`.
    pub fn implies(&self, a: Goal, b: Goal) -> bool {
        self.dominates(b, a) || self.post_dominates(b, a)
    }

    /// Whether some path from the entry reaches `goal`.
    pub fn is_reachable(&self, goal: Goal) -> bool {
        self.index(goal).is_some_and(|i| self.reachable[i])
    }

    /// See [`unconstrained_goals`].
    pub fn unconstrained(&self) -> Vec<Goal> {
        let implied_by_others = |goal: usize| {
            (0..self.goals.len())
                .any(|other| self.implies_index(other, goal) && !self.implies_index(goal, other))
        };
        let first_of_class =
            |goal: usize| (0..goal).all(|earlier| !self.equivalent_index(earlier, goal));
        (0..self.goals.len())
            .filter(|&g| !implied_by_others(g) && first_of_class(g))
            .map(|g| self.goals[g])
            .collect()
    }

    /// See [`implied_goals`].
    pub fn implied_by(&self, covered: &[Goal]) -> BTreeSet<Goal> {
        covered
            .iter()
            .filter_map(|&goal| self.index(goal))
            .flat_map(|g| self.dominators[g].union(&self.post_dominators[g]))
            .map(|&i| self.goals[i])
            .collect()
    }

    fn index(&self, goal: Goal) -> Option<usize> {
        self.goals.iter().position(|g| *g == goal)
    }

    fn related(&self, relation: &[BTreeSet<usize>], a: Goal, b: Goal) -> bool {
        match (self.index(a), self.index(b)) {
            (Some(a), Some(b)) => relation[b].contains(&a),
            _ => false,
        }
    }

    fn implies_index(&self, a: usize, b: usize) -> bool {
        self.dominators[a].contains(&b) || self.post_dominators[a].contains(&b)
    }

    fn equivalent_index(&self, a: usize, b: usize) -> bool {
        self.implies_index(a, b) && self.implies_index(b, a)
    }
}

/// The virtual edge into the entry block.
const ENTRY: usize = 0;

/// A function's CFG edges as nodes, see the module comment.
struct EdgeGraph {
    succs: Vec<Vec<usize>>,
    goals: Vec<Goal>,
    /// The edge node of each goal (`None` only for a malformed body).
    goal_nodes: Vec<Option<usize>>,
    /// The goal each edge node stands for, if any.
    node_goal: Vec<Option<usize>>,
}

impl EdgeGraph {
    fn new(program: &Program, func: FuncId) -> EdgeGraph {
        let infos = function_goals(program, func);
        let blocks = match &program.function(func).body {
            Some(body) => body.blocks.as_slice(),
            None => &[],
        };
        let reaches_exit = blocks_reaching_exit(blocks);
        // Edge nodes: (source block, target block or `None` for the exit, goal).
        let mut edges: Vec<(Option<usize>, Option<usize>, Option<usize>)> =
            vec![(None, Some(0), None)];
        for (b, block) in blocks.iter().enumerate() {
            match &block.term {
                Terminator::Goto(t) => edges.push((Some(b), Some(t.index()), None)),
                Terminator::Branch { site, .. } | Terminator::Switch { site, .. } => {
                    for (g, info) in infos.iter().enumerate() {
                        if info.goal.site == *site {
                            edges.push((Some(b), Some(info.target.index()), Some(g)));
                        }
                    }
                }
                Terminator::Return(_) | Terminator::Unreachable => {}
            }
            if !reaches_exit[b] || block.term.successors().is_empty() {
                edges.push((Some(b), None, None));
            }
        }
        let exit = edges.len();
        let mut leaving: Vec<Vec<usize>> = vec![Vec::new(); blocks.len()];
        let mut goal_nodes = vec![None; infos.len()];
        for (node, (source, _, goal)) in edges.iter().enumerate() {
            if let Some(source) = source {
                leaving[*source].push(node);
            }
            if let Some(goal) = goal {
                goal_nodes[*goal] = Some(node);
            }
        }
        let mut succs: Vec<Vec<usize>> = edges
            .iter()
            .map(|(_, target, _)| match target {
                Some(t) => leaving.get(*t).cloned().unwrap_or_default(),
                None => vec![exit],
            })
            .collect();
        succs.push(vec![]);
        let mut node_goal: Vec<Option<usize>> = edges.iter().map(|e| e.2).collect();
        node_goal.push(None);
        EdgeGraph {
            succs,
            goals: infos.iter().map(|i| i.goal).collect(),
            goal_nodes,
            node_goal,
        }
    }

    fn exit(&self) -> usize {
        self.succs.len() - 1
    }
}

/// Blocks from which some path ends the run (`Return` or `Unreachable`).
fn blocks_reaching_exit(blocks: &[Block]) -> Vec<bool> {
    let mut preds: Vec<Vec<usize>> = vec![Vec::new(); blocks.len()];
    let mut reaches: Vec<bool> = Vec::with_capacity(blocks.len());
    let mut work = Vec::new();
    for (b, block) in blocks.iter().enumerate() {
        let successors = block.term.successors();
        for s in &successors {
            if let Some(p) = preds.get_mut(s.index()) {
                p.push(b);
            }
        }
        reaches.push(successors.is_empty());
        if successors.is_empty() {
            work.push(b);
        }
    }
    while let Some(b) = work.pop() {
        for &p in &preds[b] {
            if !reaches[p] {
                reaches[p] = true;
                work.push(p);
            }
        }
    }
    reaches
}

fn reversed(succs: &[Vec<usize>]) -> Vec<Vec<usize>> {
    let mut preds = vec![Vec::new(); succs.len()];
    for (n, ss) in succs.iter().enumerate() {
        for &s in ss {
            preds[s].push(n);
        }
    }
    preds
}

/// `node`, its immediate dominator, and so on up to the root.
fn ancestors(idom: &[Option<usize>], node: usize) -> impl Iterator<Item = usize> + '_ {
    std::iter::successors(Some(node), move |&n| idom[n].filter(|&parent| parent != n))
}

/// Immediate dominators by Cooper, Harvey and Kennedy's iteration over the
/// reverse postorder; the root is its own, unreachable nodes have none.
fn immediate_dominators(succs: &[Vec<usize>], root: usize) -> Vec<Option<usize>> {
    let postorder = postorder(succs, root);
    let mut rank = vec![usize::MAX; succs.len()];
    for (i, &n) in postorder.iter().enumerate() {
        rank[n] = i;
    }
    let preds = reversed(succs);
    let mut idom: Vec<Option<usize>> = vec![None; succs.len()];
    idom[root] = Some(root);
    let intersect = |idom: &[Option<usize>], mut a: usize, mut b: usize| {
        while a != b {
            while rank[a] < rank[b] {
                a = idom[a].unwrap_or(root);
            }
            while rank[b] < rank[a] {
                b = idom[b].unwrap_or(root);
            }
        }
        a
    };
    let mut changed = true;
    while changed {
        changed = false;
        for &node in postorder.iter().rev().filter(|&&n| n != root) {
            let new_idom = preds[node]
                .iter()
                .copied()
                .filter(|&p| idom[p].is_some())
                .reduce(|a, b| intersect(&idom, a, b));
            if new_idom.is_some() && idom[node] != new_idom {
                idom[node] = new_idom;
                changed = true;
            }
        }
    }
    idom
}

/// Nodes reachable from `root` in depth-first postorder (iterative: no deep recursion).
fn postorder(succs: &[Vec<usize>], root: usize) -> Vec<usize> {
    let mut visited = vec![false; succs.len()];
    let mut order = Vec::new();
    let mut stack = vec![(root, 0usize)];
    visited[root] = true;
    while let Some((node, next)) = stack.pop() {
        if let Some(&s) = succs[node].get(next) {
            stack.push((node, next + 1));
            if !visited[s] {
                visited[s] = true;
                stack.push((s, 0));
            }
        } else {
            order.push(node);
        }
    }
    order
}
