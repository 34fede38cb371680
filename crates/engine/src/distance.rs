//! Distances in a function's control-flow graph, counted in blocks: how far
//! a state is from what a search steers toward.

use ir::{BlockId, Body, Callee, FuncId, Goal, Program, StmtKind, Terminator};
use std::collections::{BTreeMap, BTreeSet, VecDeque};

/// The distance of a block that cannot reach (or be reached from) the starts.
pub const FAR: u32 = u32::MAX;

/// Successor and predecessor lists of the blocks of `body`, by block index.
pub fn block_graph(body: &Body) -> (Vec<Vec<usize>>, Vec<Vec<usize>>) {
    let n = body.blocks.len();
    let mut successors: Vec<Vec<usize>> = vec![Vec::new(); n];
    let mut predecessors: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (b, block) in body.blocks.iter().enumerate() {
        for s in block.term.successors() {
            successors[b].push(s.index());
            predecessors[s.index()].push(b);
        }
    }
    (successors, predecessors)
}

/// Breadth-first distances over `edges` from `starts` (0 at each start):
/// over predecessor lists, how many blocks from each block to a start.
pub fn bfs(edges: &[Vec<usize>], starts: impl IntoIterator<Item = usize>) -> Vec<u32> {
    let mut dist = vec![FAR; edges.len()];
    let mut queue = VecDeque::new();
    for s in starts {
        dist[s] = 0;
        queue.push_back(s);
    }
    while let Some(at) = queue.pop_front() {
        for &next in &edges[at] {
            if dist[next] == FAR {
                dist[next] = dist[at] + 1;
                queue.push_back(next);
            }
        }
    }
    dist
}

/// How far each block of the functions searched lies from the block
/// deciding each goal: within the goal's own function along its CFG, and,
/// when goals span several functions (a whole program), also through the
/// calls that lead into a function holding a goal.
pub struct GoalDistances {
    /// Per goal: the block whose terminator is its condition.
    site_block: BTreeMap<Goal, BlockId>,
    /// Per function and deciding block: distance from each block to it.
    to_block: BTreeMap<(FuncId, BlockId), Vec<u32>>,
    /// Per searched function: each function it calls directly (every
    /// searched function for a call through a pointer), with the distance
    /// from each of its blocks to the calling block.
    calls: BTreeMap<FuncId, Vec<(FuncId, Vec<u32>)>>,
    /// Per searched function: the searched functions its calls may reach,
    /// itself included.
    reaches: BTreeMap<FuncId, BTreeSet<FuncId>>,
}

impl GoalDistances {
    /// Distances to `goals` from the blocks of `funcs` (the functions whose
    /// frames a search steers: the goals' functions, usually).
    pub fn new(program: &Program, funcs: &[FuncId], goals: &[Goal]) -> GoalDistances {
        let mut site_block = BTreeMap::new();
        let mut to_block = BTreeMap::new();
        let mut predecessors = BTreeMap::new();
        for &func in funcs {
            if let Some(body) = &program.function(func).body {
                predecessors.insert(func, block_graph(body).1);
            }
        }
        for goal in goals {
            let (Some(body), Some(preds)) = (
                &program.function(goal.func).body,
                predecessors.get(&goal.func),
            ) else {
                continue;
            };
            let Some(b) =
                (body.blocks.iter()).position(|blk| term_site(&blk.term) == Some(goal.site))
            else {
                continue;
            };
            let block = BlockId(b as u32);
            site_block.insert(*goal, block);
            to_block
                .entry((goal.func, block))
                .or_insert_with(|| bfs(preds, [b]));
        }
        let mut calls = BTreeMap::new();
        // One function alone: its own CFG is all a search needs.
        if funcs.len() > 1 {
            // What a call through a pointer, or into code outside the
            // functions searched (a library function calling back), may run.
            let callbacks: Vec<FuncId> = (ir::walk::address_taken(program).into_iter())
                .filter(|f| predecessors.contains_key(f))
                .collect();
            for (&func, preds) in &predecessors {
                let Some(body) = &program.function(func).body else {
                    continue;
                };
                let mut out = Vec::new();
                for (b, block) in body.blocks.iter().enumerate() {
                    for callee in block.stmts.iter().filter_map(|s| match &s.kind {
                        StmtKind::Call { callee, .. } => Some(callee),
                        _ => None,
                    }) {
                        let callees: Vec<FuncId> = match callee {
                            Callee::Direct(f) if predecessors.contains_key(f) => vec![*f],
                            Callee::Direct(_) | Callee::Indirect(_) => callbacks.clone(),
                        };
                        if callees.is_empty() {
                            continue;
                        }
                        let distance = bfs(preds, [b]);
                        out.extend(callees.into_iter().map(|f| (f, distance.clone())));
                    }
                }
                calls.insert(func, out);
            }
        }
        let reaches = funcs
            .iter()
            .map(|&f| (f, reached_from(f, &calls)))
            .collect();
        GoalDistances {
            site_block,
            to_block,
            calls,
            reaches,
        }
    }

    /// Distance from `block` of `func` to the nearest goal of `uncovered`:
    /// one in `func` itself, or behind a call (counted from the calling
    /// block, plus one).
    pub fn nearest(&self, func: FuncId, block: BlockId, uncovered: &BTreeSet<Goal>) -> u32 {
        let own = (uncovered.iter())
            .filter(|g| g.func == func)
            .map(|g| self.distance(func, block, g))
            .min()
            .unwrap_or(FAR);
        let through_calls = (self.calls.get(&func).into_iter().flatten())
            .filter(|(callee, _)| {
                self.reaches
                    .get(callee)
                    .is_some_and(|r| uncovered.iter().any(|g| r.contains(&g.func)))
            })
            .filter_map(|(_, to_call)| to_call.get(block.index()).copied())
            .filter(|&d| d != FAR)
            .map(|d| d.saturating_add(1))
            .min()
            .unwrap_or(FAR);
        own.min(through_calls)
    }

    /// Whether a path at `block` of `func` may still reach `goal`: along
    /// `func`'s CFG, or through a call that may lead into its function.
    /// Never false where a path could reach it: verdicts rest on it.
    pub fn may_reach(&self, func: FuncId, block: BlockId, goal: &Goal) -> bool {
        if goal.func == func && self.distance(func, block, goal) != FAR {
            return true;
        }
        (self.calls.get(&func).into_iter().flatten()).any(|(callee, to_call)| {
            to_call.get(block.index()).is_some_and(|&d| d != FAR)
                && self
                    .reaches
                    .get(callee)
                    .is_some_and(|r| r.contains(&goal.func))
        })
    }

    fn distance(&self, func: FuncId, block: BlockId, goal: &Goal) -> u32 {
        let Some(site) = self.site_block.get(goal) else {
            return FAR;
        };
        self.to_block
            .get(&(func, *site))
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

/// The functions `from` may reach by calls, itself included.
fn reached_from(
    from: FuncId,
    calls: &BTreeMap<FuncId, Vec<(FuncId, Vec<u32>)>>,
) -> BTreeSet<FuncId> {
    let mut seen = BTreeSet::from([from]);
    let mut stack = vec![from];
    while let Some(f) = stack.pop() {
        for (callee, _) in calls.get(&f).into_iter().flatten() {
            if seen.insert(*callee) {
                stack.push(*callee);
            }
        }
    }
    seen
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_programs::program;

    const SOURCE: &str = "
        #include <stdlib.h>
        static int by_value(const void *a, const void *b) {
            int x = *(const int *)a, y = *(const int *)b;
            if (x < y) return -1;
            return x > y;
        }
        static int halve(int v) { if (v > 10) return v / 2; return v; }
        static int unused(int v) { if (v) return 1; return 0; }
        int main(void) {
            int a[3] = {3, 1, 2};
            int h = halve(a[0]);
            qsort(a, 3, sizeof a[0], by_value);
            return h;
        }";

    fn goals_of(program: &Program, name: &str) -> Vec<Goal> {
        let func = program.function_by_name(name).expect("defined");
        ir::function_goals(program, func)
            .into_iter()
            .map(|g| g.goal)
            .collect()
    }

    #[test]
    fn goals_of_callees_lie_behind_the_calls_that_lead_to_them() {
        let program = program("goal_distances", SOURCE);
        let main = program.function_by_name("main").expect("main");
        let funcs = ir::program_functions(&program, main);
        let goals: Vec<Goal> = ["by_value", "halve", "unused"]
            .iter()
            .flat_map(|name| goals_of(&program, name))
            .collect();
        let distances = GoalDistances::new(&program, &funcs, &goals);
        let entry = BlockId(0);
        let uncovered =
            |name: &str| -> BTreeSet<Goal> { goals_of(&program, name).into_iter().collect() };
        // A direct call, and a comparator only the library calls back.
        for callee in ["halve", "by_value"] {
            let goal = goals_of(&program, callee)[0];
            assert!(distances.may_reach(main, entry, &goal), "{callee}");
            assert_ne!(
                distances.nearest(main, entry, &uncovered(callee)),
                FAR,
                "{callee}"
            );
        }
        // No call leads to it.
        let goal = goals_of(&program, "unused")[0];
        assert!(!distances.may_reach(main, entry, &goal));
        assert_eq!(distances.nearest(main, entry, &uncovered("unused")), FAR);
    }

    #[test]
    fn one_function_alone_counts_only_its_own_blocks() {
        let program = program("goal_distances_alone", SOURCE);
        let main = program.function_by_name("main").expect("main");
        let goals = goals_of(&program, "halve");
        let distances = GoalDistances::new(&program, &[main], &goals);
        assert!(!distances.may_reach(main, BlockId(0), &goals[0]));
    }
}
