//! Boundary goals, counted apart from branch goals: every ordered integer
//! comparison (`<`, `<=`, `>`, `>=`) the call under test makes whose sides
//! depend on the inputs, with its left side minus its right side equal to
//! -1, 0 and 1. Covering both branches of `a <= 0` with -5 and 7 leaves
//! `a < 0` and `a <= 1` unnoticed; tests at -1, 0 and 1 tell them apart.
//!
//! A test on the boundary tells a mutant apart only when the rest of its
//! path lets the comparison decide: `if (x > 1000 || y < 2) return -1;`
//! tested at x = 1001 with y = 0 returns -1 whichever way `x > 1000` goes.
//! So a goal is a boundary *and a way out of the function* (the `return`
//! the path left by): the boundary is asked on paths out through each exit.
//!
//! The coverage search keeps, per path, the comparisons the executor
//! reports (`Hooks::compared`). When a path completes, each boundary goal
//! still open among its comparisons is asked of the solver together with the
//! path condition: a model is a test on the same path (so it changes no
//! branch prediction) sitting on that boundary. When the path's own branch
//! at the comparison rules the boundary out (x = 1001 on a path through
//! `x <= 1000`), the boundary is asked with the rest of the path's
//! conditions instead (y in range), after the search with the time it
//! leaves: that input flips the comparison, so it is run concretely to
//! learn what it does; it shows the boundary on the way out the original
//! path took. No path is forked for
//! them, so they cost a few queries per completed path and nothing else,
//! and those queries stop once they have taken a quarter of the function's
//! time budget.

use crate::explore::PerState;
use crate::solver::InputSymbol;
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
const TRIES_PER_GOAL: u32 = 4;

/// One comparison made on a path: its place and left minus right side.
#[derive(Clone)]
struct Comparison {
    span: Span,
    difference: BV,
    /// How many constraints the path had when it was made: the next one is
    /// the branch the comparison decided, when it decided one.
    path_len: usize,
}

/// A boundary goal as the search pursues it: the boundary, on a path out
/// of the function through `exit`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct BoundaryGoal {
    pub boundary: Boundary,
    /// `None` for a path that left without returning (a test of a
    /// function that ends the program).
    pub exit: Option<Span>,
}

/// A flipped boundary to ask after the search, with the time left: the
/// conditions of a path but its branch at the comparison, and the
/// comparison at its boundary. Its input leaves the path (it flips the
/// comparison) and is then run to learn what it does.
pub struct PendingFlip {
    pub conditions: Vec<Bool>,
    pub inputs: Vec<InputSymbol>,
    /// The way out of the path whose other conditions the input meets.
    pub exit: Option<Span>,
}

/// A boundary the path's own branch rules out, asked with the path's
/// other conditions: `path_len` constraints before the comparison, its
/// `condition`, and the ones after the branch it decided.
pub struct Flip {
    pub path_len: usize,
    pub condition: Bool,
}

/// The boundary goals of one exploration.
pub struct Boundaries {
    /// Per path: the comparisons made so far.
    made: PerState<Vec<Comparison>>,
    covered: BTreeSet<BoundaryGoal>,
    /// Every boundary of the comparisons any path made.
    seen: BTreeSet<Boundary>,
    /// Per goal: the completed paths on which it was asked without a test.
    tried: BTreeMap<BoundaryGoal, u32>,
    /// Whether goals a path rules out are asked flipped ([`Flip`]): only
    /// where candidates can run, as their inputs must be run to be known.
    flips: bool,
    /// The goals asked flipped (once per way out: the rest of a path that
    /// returns elsewhere may hide the edge, as a right triangle's edge
    /// `a > 100` shows only on a path that finds one), and the questions
    /// not asked yet.
    flipped: BTreeSet<BoundaryGoal>,
    pending: Vec<PendingFlip>,
    /// The solver work their queries may take, and have taken: a path's
    /// queries can be slow (a formatted number), and branch goals come
    /// first. Work, not time, so that runs choose the same tests.
    budget: u64,
    spent: u64,
}

impl Boundaries {
    /// Boundary goals whose queries may take `budget` units of solver
    /// work in all, asked flipped when `flips`.
    pub fn new(budget: u64, flips: bool) -> Boundaries {
        Boundaries {
            made: PerState::new(),
            covered: BTreeSet::new(),
            seen: BTreeSet::new(),
            tried: BTreeMap::new(),
            flips,
            flipped: BTreeSet::new(),
            pending: Vec::new(),
            budget,
            spent: 0,
        }
    }

    /// Whether their queries have work left.
    pub fn has_work_left(&self) -> bool {
        self.spent < self.budget
    }

    pub fn spend(&mut self, work: u64) {
        self.spent = self.spent.saturating_add(work);
    }

    pub fn forked(&mut self, parent: StateId, child: StateId) {
        self.made.forked(parent, child);
    }

    pub fn released(&mut self, state: StateId) {
        self.made.release(state);
    }

    /// Records a comparison made on `state`'s path, which has `path_len`
    /// constraints so far.
    pub fn compared(&mut self, state: StateId, span: Span, difference: &BV, path_len: usize) {
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
            path_len,
        });
        self.seen
            .extend(Boundary::OFFSETS.map(|offset| Boundary { span, offset }));
    }

    /// Whether a boundary of a comparison some path made has no test on
    /// any way out yet (the ways out come with the paths the search
    /// completes anyway: they do not keep it going).
    pub fn any_open(&self) -> bool {
        self.seen
            .iter()
            .any(|boundary| !self.tested_on_any_exit(boundary))
    }

    /// Whether some test sits on `boundary`, whichever way out it took.
    pub fn tested_on_any_exit(&self, boundary: &Boundary) -> bool {
        self.covered.iter().any(|goal| goal.boundary == *boundary)
    }

    /// The goals still open among the comparisons of `state`'s path, out
    /// through `exit`, each with its condition: one of the comparisons at
    /// its place is at its offset. In the order of the places, then of the
    /// offsets.
    pub fn open_on(&self, state: StateId, exit: Option<Span>) -> Vec<(BoundaryGoal, Bool)> {
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
                let goal = BoundaryGoal {
                    boundary: Boundary { span, offset },
                    exit,
                };
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

    /// The boundary `goal` asked with the conditions of the rest of
    /// `state`'s path instead of its branch at the comparison (the first
    /// one made at its place), when a branch followed it and its boundary
    /// was not asked so before.
    pub fn flip(&self, state: StateId, goal: &BoundaryGoal, path_len: usize) -> Option<Flip> {
        if !self.flips || self.flipped.contains(goal) {
            return None;
        }
        let made = self.made.get_ref(state)?;
        let first = made.iter().find(|c| c.span == goal.boundary.span)?;
        if first.path_len >= path_len {
            return None;
        }
        let d = &first.difference;
        Some(Flip {
            path_len: first.path_len,
            condition: d.eq(BV::from_i64(i64::from(goal.boundary.offset), d.get_size())),
        })
    }

    /// Not covered yet, nor given up.
    pub fn is_open(&self, goal: &BoundaryGoal) -> bool {
        !self.covered.contains(goal) && self.tried.get(goal).copied().unwrap_or(0) < TRIES_PER_GOAL
    }

    /// Keeps of `boundaries` (those a new test out through `exit` sits on)
    /// the ones no earlier test covered on that way out, and counts them
    /// covered.
    pub fn cover(&mut self, boundaries: &mut Vec<Boundary>, exit: Option<Span>) {
        boundaries.retain(|boundary| {
            self.covered.insert(BoundaryGoal {
                boundary: *boundary,
                exit,
            })
        });
    }

    /// `goal` is to be asked flipped, with `conditions` of the path
    /// choosing `inputs`.
    pub fn flipped(&mut self, goal: BoundaryGoal, conditions: Vec<Bool>, inputs: Vec<InputSymbol>) {
        self.flipped.insert(goal);
        self.pending.push(PendingFlip {
            conditions,
            inputs,
            exit: goal.exit,
        });
    }

    /// The flipped questions not asked yet.
    pub fn take_flipped(&mut self) -> Vec<PendingFlip> {
        std::mem::take(&mut self.pending)
    }

    /// `goal` was asked on a completed path, which cannot meet it.
    pub fn missed(&mut self, goal: BoundaryGoal) {
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

    const EXIT: Option<Span> = Some(Span {
        file: 0,
        line: 20,
        col: 5,
    });

    fn symbol(name: &str) -> BV {
        BV::new_const(name, 33)
    }

    #[test]
    fn each_place_has_three_goals_until_covered() {
        let mut boundaries = Boundaries::new(u64::MAX, true);
        let state = StateId(1);
        boundaries.compared(state, span(3), &symbol("x").bvsub(bv_u(10, 33)), 0);
        boundaries.compared(state, span(4), &symbol("y"), 1);
        let open: Vec<BoundaryGoal> = boundaries
            .open_on(state, EXIT)
            .into_iter()
            .map(|(g, _)| g)
            .collect();
        assert_eq!(open.len(), 6);
        assert_eq!(
            open[0].boundary,
            Boundary {
                span: span(3),
                offset: -1
            }
        );
        let mut sat_on = vec![open[1].boundary, open[4].boundary];
        boundaries.cover(&mut sat_on, EXIT);
        assert_eq!(sat_on.len(), 2);
        let mut again = vec![open[1].boundary];
        boundaries.cover(&mut again, EXIT);
        assert!(again.is_empty(), "a goal is new to one test only");
        let mut other_exit = vec![open[1].boundary];
        boundaries.cover(&mut other_exit, Some(span(9)));
        assert_eq!(other_exit.len(), 1, "another way out is another goal");
        assert_eq!(boundaries.open_on(state, EXIT).len(), 4);
    }

    #[test]
    fn a_goal_no_path_meets_is_given_up() {
        let mut boundaries = Boundaries::new(u64::MAX, true);
        let goal = BoundaryGoal {
            boundary: Boundary {
                span: span(3),
                offset: 1,
            },
            exit: EXIT,
        };
        for _ in 0..TRIES_PER_GOAL {
            assert!(boundaries.is_open(&goal));
            boundaries.missed(goal);
        }
        assert!(!boundaries.is_open(&goal));
    }

    #[test]
    fn a_boundary_the_path_rules_out_is_asked_once_with_the_rest_of_the_path() {
        let mut boundaries = Boundaries::new(u64::MAX, true);
        let state = StateId(1);
        boundaries.compared(state, span(3), &symbol("x"), 2);
        let (goal, _) = boundaries.open_on(state, EXIT)[0].clone();
        let flip = boundaries.flip(state, &goal, 4).expect("a branch followed");
        assert_eq!(flip.path_len, 2);
        assert!(
            boundaries.flip(state, &goal, 2).is_none(),
            "no branch followed"
        );
        boundaries.flipped(goal, Vec::new(), Vec::new());
        assert!(boundaries.flip(state, &goal, 4).is_none(), "asked once");
        let pending = boundaries.take_flipped();
        assert_eq!(pending.len(), 1);
        assert_eq!(pending[0].exit, EXIT);
        let mut without = Boundaries::new(u64::MAX, false);
        without.compared(state, span(3), &symbol("x"), 2);
        assert!(without.flip(state, &goal, 4).is_none());
    }

    #[test]
    fn queries_stop_when_their_work_is_spent() {
        let mut boundaries = Boundaries::new(10_000, true);
        assert!(boundaries.has_work_left());
        boundaries.spend(10_000);
        assert!(!boundaries.has_work_left());
    }

    #[test]
    fn a_fork_copies_the_comparisons_and_a_repeat_is_kept_once() {
        let mut boundaries = Boundaries::new(u64::MAX, true);
        let (parent, child) = (StateId(1), StateId(2));
        let difference = symbol("x");
        boundaries.compared(parent, span(3), &difference, 0);
        boundaries.forked(parent, child);
        boundaries.compared(child, span(3), &difference, 0);
        boundaries.released(parent);
        assert!(boundaries.open_on(parent, EXIT).is_empty());
        assert_eq!(boundaries.open_on(child, EXIT).len(), 3);
    }

    #[test]
    fn a_loop_condition_keeps_a_bounded_number_of_comparisons() {
        let mut boundaries = Boundaries::new(u64::MAX, true);
        let state = StateId(1);
        for i in 0..20 {
            boundaries.compared(state, span(3), &symbol("n").bvsub(bv_u(i, 33)), 0);
        }
        let kept = boundaries.made.get_ref(state).map_or(0, Vec::len);
        assert_eq!(kept, COMPARISONS_PER_PLACE);
    }
}
