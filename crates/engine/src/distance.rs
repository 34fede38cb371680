//! Distances in a function's control-flow graph, counted in blocks: how far
//! a state is from what a search steers toward.

use ir::Body;
use std::collections::VecDeque;

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
