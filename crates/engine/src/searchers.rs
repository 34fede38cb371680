//! General searchers (state orders) and the combinator that interleaves two.
//! Each search module builds its order from these, with its own ranking.

use crate::explore::{Change, Frontier, Searcher};
use crate::stable_hash::StableHashMap;
use crate::state::{State, StateId};
use std::collections::BTreeMap;

/// Which of two states with equal rank runs first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ties {
    /// The one queued first.
    Oldest,
    /// The one queued last (depth-first among equals).
    Newest,
}

/// Lowest rank first. The ranking may consult the objective `O`; a state
/// ranked `None` comes first (the objective no longer wants it: the loop
/// drops it when selected). With `rerank`, the rank of the state about to
/// be selected is computed again, for rankings that only get worse as the
/// search goes (e.g. distance to the goals not covered yet): a state whose
/// rank got worse goes back in line.
pub struct BestFirst<K, F> {
    rank: F,
    ties: Ties,
    rerank: bool,
    order: BTreeMap<(Option<K>, i64), StateId>,
    placed: StableHashMap<StateId, (Option<K>, i64)>,
    queued: i64,
}

impl<K: Ord + Clone, F> BestFirst<K, F> {
    pub fn new(rank: F, ties: Ties, rerank: bool) -> Self {
        BestFirst {
            rank,
            ties,
            rerank,
            order: BTreeMap::new(),
            placed: StableHashMap::default(),
            queued: 0,
        }
    }

    fn place(&mut self, id: StateId, key: (Option<K>, i64)) {
        self.order.insert(key.clone(), id);
        self.placed.insert(id, key);
    }

    fn remove(&mut self, id: StateId) {
        if let Some(key) = self.placed.remove(&id) {
            self.order.remove(&key);
        }
    }
}

impl<O: ?Sized, K: Ord + Clone, F: Fn(&State, &O) -> Option<K>> Searcher<O> for BestFirst<K, F> {
    fn select(&mut self, frontier: &Frontier, objective: &O) -> Option<StateId> {
        loop {
            let (key, id) = self
                .order
                .first_key_value()
                .map(|(k, id)| (k.clone(), *id))?;
            if !self.rerank {
                return Some(id);
            }
            let state = frontier.get(id)?;
            let now = (self.rank)(state, objective);
            if now == key.0 {
                return Some(id);
            }
            self.remove(id);
            self.place(id, (now, key.1));
        }
    }

    fn update(&mut self, frontier: &Frontier, objective: &O, change: &Change) {
        for id in change.removed {
            self.remove(*id);
        }
        for id in change.added {
            let Some(state) = frontier.get(*id) else {
                continue;
            };
            self.queued += 1;
            let tie = match self.ties {
                Ties::Oldest => self.queued,
                Ties::Newest => -self.queued,
            };
            let key = ((self.rank)(state, objective), tie);
            self.place(*id, key);
        }
    }

    fn is_empty(&self) -> bool {
        self.order.is_empty()
    }
}

/// A random waiting state each time, from a seeded generator: the same
/// seed and the same updates give the same choices.
pub struct RandomOrder {
    states: Vec<StateId>,
    position: StableHashMap<StateId, usize>,
    random: SplitMix64,
}

impl RandomOrder {
    pub fn new(seed: u64) -> Self {
        RandomOrder {
            states: Vec::new(),
            position: StableHashMap::default(),
            random: SplitMix64(seed),
        }
    }
}

impl<O: ?Sized> Searcher<O> for RandomOrder {
    fn select(&mut self, _frontier: &Frontier, _objective: &O) -> Option<StateId> {
        if self.states.is_empty() {
            return None;
        }
        let at = self.random.below(self.states.len() as u64) as usize;
        Some(self.states[at])
    }

    fn update(&mut self, _frontier: &Frontier, _objective: &O, change: &Change) {
        for id in change.removed {
            if let Some(at) = self.position.remove(id) {
                self.states.swap_remove(at);
                if let Some(moved) = self.states.get(at) {
                    self.position.insert(*moved, at);
                }
            }
        }
        for id in change.added {
            self.position.insert(*id, self.states.len());
            self.states.push(*id);
        }
    }

    fn is_empty(&self) -> bool {
        self.states.is_empty()
    }
}

/// Sebastiano Vigna's SplitMix64: small, fast, and the same on every platform.
pub(crate) struct SplitMix64(u64);

impl SplitMix64 {
    pub(crate) fn new(seed: u64) -> SplitMix64 {
        SplitMix64(seed)
    }

    pub(crate) fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (n > 0), without the bias of a plain remainder.
    pub(crate) fn below(&mut self, n: u64) -> u64 {
        let zone = u64::MAX - u64::MAX % n;
        loop {
            let x = self.next();
            if x < zone {
                return x % n;
            }
        }
    }
}

/// Two searchers sharing the running time equally: the one whose states
/// have run fewer statements selects next (the second on a tie), the other
/// when it has none. Both see every update. Taking turns by statements
/// rather than by turns keeps a state that spins in a long loop (its turns
/// being the longest) from taking nearly all the time.
pub struct Interleave<A, B> {
    first: A,
    second: B,
    ran: [u64; 2],
    last: usize,
}

impl<A, B> Interleave<A, B> {
    pub fn new(first: A, second: B) -> Self {
        Interleave {
            first,
            second,
            ran: [0, 0],
            last: 0,
        }
    }
}

impl<O: ?Sized, A: Searcher<O>, B: Searcher<O>> Searcher<O> for Interleave<A, B> {
    fn select(&mut self, frontier: &Frontier, objective: &O) -> Option<StateId> {
        let second_first = self.ran[1] <= self.ran[0];
        let order = if second_first { [1, 0] } else { [0, 1] };
        for side in order {
            let chosen = match side {
                0 => self.first.select(frontier, objective),
                _ => self.second.select(frontier, objective),
            };
            if chosen.is_some() {
                self.last = side;
                return chosen;
            }
        }
        None
    }

    fn update(&mut self, frontier: &Frontier, objective: &O, change: &Change) {
        self.ran[self.last] += change.statements;
        self.first.update(frontier, objective, change);
        self.second.update(frontier, objective, change);
    }

    fn is_empty(&self) -> bool {
        self.first.is_empty() && self.second.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A frontier of states numbered 1..=n, state `k` having run `lengths[k-1]` blocks.
    fn frontier(lengths: &[u64]) -> (Frontier, Vec<StateId>) {
        let program = front::compile_preprocessed(
            "int f(void) { return 0; }".into(),
            "t.c",
            ir::DataModel::Lp64,
        )
        .expect("compiles")
        .program;
        let mut frontier = Frontier::default();
        let mut ids = Vec::new();
        for (k, length) in lengths.iter().enumerate() {
            let mut state = State::new(&program, StateId(k as u64 + 1));
            state.blocks_run = *length;
            ids.push(state.id);
            frontier.insert(state);
        }
        (frontier, ids)
    }

    fn added(ids: &[StateId]) -> Change<'_> {
        Change {
            added: ids,
            removed: &[],
            statements: 0,
        }
    }

    fn by_length(ties: Ties) -> impl Searcher<()> {
        BestFirst::new(|st: &State, _: &()| Some(st.blocks_run), ties, false)
    }

    #[test]
    fn best_first_runs_the_lowest_rank_and_breaks_ties_by_age() {
        let (frontier, ids) = frontier(&[5, 3, 3, 9]);
        let mut oldest = by_length(Ties::Oldest);
        oldest.update(&frontier, &(), &added(&ids));
        assert_eq!(oldest.select(&frontier, &()), Some(ids[1]));
        let mut newest = by_length(Ties::Newest);
        newest.update(&frontier, &(), &added(&ids));
        assert_eq!(newest.select(&frontier, &()), Some(ids[2]));
        let removed = [ids[2], ids[1]];
        let change = Change {
            added: &[],
            removed: &removed,
            statements: 0,
        };
        newest.update(&frontier, &(), &change);
        assert_eq!(newest.select(&frontier, &()), Some(ids[0]));
        assert!(!newest.is_empty());
    }

    #[test]
    fn best_first_reranks_the_state_about_to_run() {
        let (frontier, ids) = frontier(&[1, 2]);
        let threshold = std::cell::Cell::new(0);
        // Ranked by distance from a moving threshold.
        let rank = |st: &State, _: &()| Some(st.blocks_run.abs_diff(threshold.get()));
        let mut order = BestFirst::new(rank, Ties::Oldest, true);
        order.update(&frontier, &(), &added(&ids));
        assert_eq!(order.select(&frontier, &()), Some(ids[0]));
        threshold.set(5);
        assert_eq!(
            order.select(&frontier, &()),
            Some(ids[1]),
            "4 from 5, 3 from 5"
        );
    }

    #[test]
    fn interleave_shares_running_time_by_statements() {
        let (frontier, ids) = frontier(&[1, 2]);
        // The first prefers short paths, the second long ones.
        let mut both = Interleave::new(
            by_length(Ties::Oldest),
            BestFirst::new(
                |st: &State, _: &()| Some(std::cmp::Reverse(st.blocks_run)),
                Ties::Oldest,
                false,
            ),
        );
        both.update(&frontier, &(), &added(&ids));
        // A tie goes to the second.
        assert_eq!(both.select(&frontier, &()), Some(ids[1]));
        let ran = |statements| Change {
            added: &[],
            removed: &[],
            statements,
        };
        both.update(&frontier, &(), &ran(100));
        assert_eq!(both.select(&frontier, &()), Some(ids[0]));
        both.update(&frontier, &(), &ran(60));
        assert_eq!(both.select(&frontier, &()), Some(ids[0]), "60 < 100");
        both.update(&frontier, &(), &ran(60));
        assert_eq!(both.select(&frontier, &()), Some(ids[1]), "120 > 100");
    }

    #[test]
    fn random_order_is_reproducible_and_picks_waiting_states() {
        let (frontier, ids) = frontier(&[1, 2, 3, 4, 5, 6]);
        let picks = |seed| {
            let mut order = RandomOrder::new(seed);
            order.update(&frontier, &(), &added(&ids));
            let mut picked = Vec::new();
            while let Some(id) = order.select(&frontier, &()) {
                picked.push(id);
                let change = Change {
                    added: &[],
                    removed: &[id],
                    statements: 1,
                };
                order.update(&frontier, &(), &change);
            }
            picked
        };
        let first = picks(3);
        assert_eq!(first, picks(3));
        let mut sorted = first.clone();
        sorted.sort();
        assert_eq!(sorted, ids, "each waiting state exactly once");
        assert!((0..20).any(|seed| picks(seed) != first), "seeds matter");
    }

    #[test]
    fn splitmix_is_reproducible_and_spreads_over_the_range() {
        let draw = |seed| {
            let mut random = SplitMix64(seed);
            (0..1000).map(|_| random.below(10)).collect::<Vec<_>>()
        };
        assert_eq!(draw(7), draw(7));
        assert_ne!(draw(7), draw(8));
        let sample = draw(1);
        for digit in 0..10 {
            let count = sample.iter().filter(|x| **x == digit).count();
            assert!((60..140).contains(&count), "{digit} drawn {count} times");
        }
    }
}
