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
//! branch prediction) sitting on that boundary. No path is forked for them,
//! so they cost a few queries per completed path and nothing else, and
//! those queries stop once they have taken a quarter of the function's
//! time budget.

use crate::explore::PerState;
use crate::state::StateId;
use ir::Span;
use std::collections::{BTreeMap, BTreeSet};
use std::time::Duration;
use testcase::Boundary;
use z3::ast::{Bool, BV};

/// Comparisons kept per place and path: a loop's condition is compared on
/// every iteration, and a few of them give the boundary where there is one.
const COMPARISONS_PER_PLACE: usize = 8;

/// Completed paths on which a boundary goal may be asked without a test
/// before it is given up: one no path can reach costs a few queries only.
const TRIES_PER_GOAL: u32 = 4;

/// One comparison made on a path: its place and left minus right side.
#[derive(Clone)]
struct Comparison {
    span: Span,
    difference: BV,
}

/// The boundary goals of one exploration.
pub struct Boundaries {
    /// Per path: the comparisons made so far.
    made: PerState<Vec<Comparison>>,
    covered: BTreeSet<Boundary>,
    /// Every goal of the comparisons any path made.
    seen: BTreeSet<Boundary>,
    /// Per goal: the completed paths on which it was asked without a test.
    tried: BTreeMap<Boundary, u32>,
    /// The time their queries may take, and have taken: a path's queries
    /// can be slow (a formatted number), and branch goals come first.
    budget: Duration,
    spent: Duration,
}

impl Boundaries {
    /// Boundary goals whose queries may take `budget` in all.
    pub fn new(budget: Duration) -> Boundaries {
        Boundaries {
            made: PerState::new(),
            covered: BTreeSet::new(),
            seen: BTreeSet::new(),
            tried: BTreeMap::new(),
            budget,
            spent: Duration::ZERO,
        }
    }

    /// Whether their queries have time left.
    pub fn has_time(&self) -> bool {
        self.spent < self.budget
    }

    pub fn spend(&mut self, time: Duration) {
        self.spent += time;
    }

    pub fn forked(&mut self, parent: StateId, child: StateId) {
        self.made.forked(parent, child);
    }

    pub fn released(&mut self, state: StateId) {
        self.made.release(state);
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
        self.seen
            .extend(Boundary::OFFSETS.map(|offset| Boundary { span, offset }));
    }

    /// Whether a goal of a comparison some path made is still open.
    pub fn any_open(&self) -> bool {
        self.seen.iter().any(|goal| self.is_open(goal))
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
        let mut boundaries = Boundaries::new(Duration::MAX);
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
        let mut boundaries = Boundaries::new(Duration::MAX);
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
    fn queries_stop_when_their_time_is_spent() {
        let mut boundaries = Boundaries::new(Duration::from_millis(10));
        assert!(boundaries.has_time());
        boundaries.spend(Duration::from_millis(10));
        assert!(!boundaries.has_time());
    }

    #[test]
    fn a_fork_copies_the_comparisons_and_a_repeat_is_kept_once() {
        let mut boundaries = Boundaries::new(Duration::MAX);
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
    fn a_loop_condition_keeps_a_bounded_number_of_comparisons() {
        let mut boundaries = Boundaries::new(Duration::MAX);
        let state = StateId(1);
        for i in 0..20 {
            boundaries.compared(state, span(3), &symbol("n").bvsub(bv_u(i, 33)));
        }
        let kept = boundaries.made.get_ref(state).map_or(0, Vec::len);
        assert_eq!(kept, COMPARISONS_PER_PLACE);
    }
}
