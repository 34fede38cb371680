//! Boundary goals, counted apart from branch goals: every ordered integer
//! comparison (`<`, `<=`, `>`, `>=`) the call under test makes whose sides
//! depend on the inputs, with its left side minus its right side equal to
//! -1, 0 and 1. Covering both branches of `a <= 0` with -5 and 7 leaves
//! `a < 0` and `a <= 1` unnoticed; tests at -1, 0 and 1 tell them apart.
//!
//! The coverage search keeps, per path, the comparisons the executor
//! reports (`Hooks::compared`). When a path completes, each boundary goal
//! still open among its comparisons is asked of the solver together with the
//! path condition: a model is a test on the same path (so it changes no
//! branch prediction) sitting on that boundary. An edge that needs another
//! path on (`n == 8` where `n` then counts a loop) gets one: at the
//! comparison, a path split off with the sides at that offset, when no
//! other path is after the goal already; such a path runs as one carrying
//! an uncovered branch would, until the goal is covered.

use crate::explore::PerState;
use crate::state::StateId;
use ir::Span;
use std::collections::{BTreeMap, BTreeSet};
use testcase::Boundary;
use z3::ast::{Bool, BV};

/// Comparisons kept per place and path: a loop's condition is compared on
/// every iteration, and a few of them give the boundary where there is one.
const COMPARISONS_PER_PLACE: usize = 8;

/// Completed paths on which a boundary goal may be asked without a test
/// before it is given up: one no path can reach costs a few queries only.
const TRIES_PER_GOAL: u32 = 32;

/// Paths split off for one boundary goal, at most.
const SPLITS_PER_GOAL: u32 = 4;

/// One comparison made on a path: its place and left minus right side.
#[derive(Clone)]
struct Comparison {
    span: Span,
    difference: BV,
}

/// The boundary goals of one exploration.
#[derive(Default)]
pub struct Boundaries {
    /// Per path: the comparisons made so far.
    made: PerState<Vec<Comparison>>,
    covered: BTreeSet<Boundary>,
    /// Per goal: the completed paths on which it was asked without a test.
    tried: BTreeMap<Boundary, u32>,
    /// Per path: the goals it was split off to meet.
    aims: PerState<Vec<Boundary>>,
    /// Per goal: the paths alive that were split off to meet it.
    pursuers: BTreeMap<Boundary, u32>,
    /// Per goal: the paths split off to meet it so far.
    splits: BTreeMap<Boundary, u32>,
}

impl Boundaries {
    pub fn forked(&mut self, parent: StateId, child: StateId) {
        self.made.forked(parent, child);
        self.aims.forked(parent, child);
        for goal in self.aims.get_ref(child).into_iter().flatten() {
            *self.pursuers.entry(*goal).or_default() += 1;
        }
    }

    pub fn released(&mut self, state: StateId) {
        self.made.release(state);
        for goal in self.aims.get_ref(state).into_iter().flatten() {
            if let Some(count) = self.pursuers.get_mut(goal) {
                *count = count.saturating_sub(1);
            }
        }
        self.aims.release(state);
    }

    /// Whether a path should be split off to meet `goal`: open, no live
    /// path after it, and not too many split off for it already.
    pub fn wants_split(&self, goal: &Boundary) -> bool {
        self.is_open(goal)
            && self.pursuers.get(goal).copied().unwrap_or(0) == 0
            && self.splits.get(goal).copied().unwrap_or(0) < SPLITS_PER_GOAL
    }

    /// `child` was split off to meet `goal`.
    pub fn split(&mut self, child: StateId, goal: Boundary) {
        self.aims.entry(child).push(goal);
        *self.pursuers.entry(goal).or_default() += 1;
        *self.splits.entry(goal).or_default() += 1;
    }

    /// Whether `state` was split off for a goal still open.
    pub fn aims_at_open(&self, state: StateId) -> bool {
        let aims = self.aims.get_ref(state).into_iter().flatten();
        aims.into_iter().any(|goal| self.is_open(goal))
    }

    /// Whether a live path was split off for a goal still open.
    pub fn pursuing(&self) -> bool {
        self.pursuers
            .iter()
            .any(|(goal, count)| *count > 0 && self.is_open(goal))
    }

    /// Records a comparison made on `state`'s path.
    pub fn compared(&mut self, state: StateId, span: Span, difference: &BV) {
        let made = self.made.entry(state);
        let mut at_place = made.iter().filter(|c| c.span == span);
        // A statement run again after a fork reports its comparison again.
        if at_place.clone().count() >= COMPARISONS_PER_PLACE
            || at_place.any(|c| c.difference == *difference)
        {
            return;
        }
        made.push(Comparison {
            span,
            difference: difference.clone(),
        });
    }

    /// The goals still open among the comparisons of `state`'s path, each
    /// with its condition: one of the comparisons at its place is at its
    /// offset. In the order of the places, then of the offsets.
    pub fn open_on(&self, state: StateId) -> Vec<(Boundary, Bool)> {
        let Some(made) = self.made.get_ref(state) else {
            return Vec::new();
        };
        let mut by_place: BTreeMap<Span, Vec<&BV>> = BTreeMap::new();
        for comparison in made {
            by_place
                .entry(comparison.span)
                .or_default()
                .push(&comparison.difference);
        }
        let mut open = Vec::new();
        for (span, differences) in by_place {
            for offset in Boundary::OFFSETS {
                let goal = Boundary { span, offset };
                if !self.is_open(&goal) {
                    continue;
                }
                let at_offset: Vec<Bool> = differences
                    .iter()
                    .map(|d| BV::eq(d, BV::from_i64(i64::from(offset), d.get_size())))
                    .collect();
                open.push((goal, Bool::or(&at_offset)));
            }
        }
        open
    }

    /// Not covered yet, nor given up.
    pub fn is_open(&self, goal: &Boundary) -> bool {
        !self.covered.contains(goal) && self.tried.get(goal).copied().unwrap_or(0) < TRIES_PER_GOAL
    }

    /// Keeps of `boundaries` (those a new test sits on) the ones no earlier
    /// test covered, and counts them covered.
    pub fn cover(&mut self, boundaries: &mut Vec<Boundary>) {
        boundaries.retain(|b| self.covered.insert(*b));
    }

    /// `goal` was asked on a completed path, which cannot meet it.
    pub fn missed(&mut self, goal: Boundary) {
        *self.tried.entry(goal).or_default() += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::value::bv_u;

    fn span(line: u32) -> Span {
        Span {
            file: 0,
            line,
            col: 5,
        }
    }

    fn symbol(name: &str) -> BV {
        BV::new_const(name, 33)
    }

    #[test]
    fn each_place_has_three_goals_until_covered() {
        let mut boundaries = Boundaries::default();
        let state = StateId(1);
        boundaries.compared(state, span(3), &symbol("x").bvsub(bv_u(10, 33)));
        boundaries.compared(state, span(4), &symbol("y"));
        let open: Vec<Boundary> = boundaries
            .open_on(state)
            .into_iter()
            .map(|(g, _)| g)
            .collect();
        assert_eq!(open.len(), 6);
        assert_eq!(
            open[0],
            Boundary {
                span: span(3),
                offset: -1
            }
        );
        let mut sat_on = vec![open[1], open[4]];
        boundaries.cover(&mut sat_on);
        assert_eq!(sat_on.len(), 2);
        let mut again = vec![open[1]];
        boundaries.cover(&mut again);
        assert!(again.is_empty(), "a goal is new to one test only");
        assert_eq!(boundaries.open_on(state).len(), 4);
    }

    #[test]
    fn a_goal_no_path_meets_is_given_up() {
        let mut boundaries = Boundaries::default();
        let goal = Boundary {
            span: span(3),
            offset: 1,
        };
        for _ in 0..TRIES_PER_GOAL {
            assert!(boundaries.is_open(&goal));
            boundaries.missed(goal);
        }
        assert!(!boundaries.is_open(&goal));
    }

    #[test]
    fn a_fork_copies_the_comparisons_and_a_repeat_is_kept_once() {
        let mut boundaries = Boundaries::default();
        let (parent, child) = (StateId(1), StateId(2));
        let difference = symbol("x");
        boundaries.compared(parent, span(3), &difference);
        boundaries.forked(parent, child);
        boundaries.compared(child, span(3), &difference);
        boundaries.released(parent);
        assert!(boundaries.open_on(parent).is_empty());
        assert_eq!(boundaries.open_on(child).len(), 3);
    }

    #[test]
    fn one_path_at_a_time_is_split_off_for_a_goal() {
        let mut boundaries = Boundaries::default();
        let goal = Boundary {
            span: span(3),
            offset: 0,
        };
        let (parent, child, grandchild) = (StateId(1), StateId(2), StateId(3));
        assert!(boundaries.wants_split(&goal));
        boundaries.split(child, goal);
        assert!(!boundaries.wants_split(&goal), "a path is after it");
        assert!(boundaries.aims_at_open(child) && !boundaries.aims_at_open(parent));
        assert!(boundaries.pursuing());
        boundaries.forked(child, grandchild);
        boundaries.released(child);
        assert!(boundaries.aims_at_open(grandchild));
        boundaries.released(grandchild);
        assert!(!boundaries.pursuing());
        assert!(boundaries.wants_split(&goal), "the paths after it died");
        let mut met = vec![goal];
        boundaries.cover(&mut met);
        assert!(!boundaries.wants_split(&goal));
    }

    #[test]
    fn a_loop_condition_keeps_a_bounded_number_of_comparisons() {
        let mut boundaries = Boundaries::default();
        let state = StateId(1);
        for i in 0..20 {
            boundaries.compared(state, span(3), &symbol("n").bvsub(bv_u(i, 33)));
        }
        let kept = boundaries.made.get_ref(state).map_or(0, Vec::len);
        assert_eq!(kept, COMPARISONS_PER_PLACE);
    }
}
