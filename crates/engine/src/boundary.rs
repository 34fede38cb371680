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
use crate::stable_hash::{StableHashMap, StableHashSet};
use crate::state::{State, StateId};
use crate::value::{address, concrete_term, symbols_of};
use ir::Span;
use std::collections::BTreeSet;
use std::rc::Rc;
use testcase::Boundary;
use z3::ast::{Ast, Bool, Dynamic, BV};

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
    /// The symbols of `difference`, by address.
    symbols: Rc<[usize]>,
    /// How many constraints the path had when it was made: the next one is
    /// the branch the comparison decided, when it decided one.
    path_len: usize,
}

/// A boundary goal as the search pursues it: the boundary, on a path out
/// of the function through `exit`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
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

/// A goal open on a completed path.
pub struct OpenGoal {
    pub goal: BoundaryGoal,
    /// One of the comparisons at its place is at its offset; `None` when
    /// the values the path fixed rule that out (each comparison there is
    /// a number, none the offset).
    pub condition: Option<Bool>,
}

/// The boundary goals of one exploration.
pub struct Boundaries {
    /// Per path: the comparisons made so far.
    made: PerState<Vec<Comparison>>,
    covered: StableHashSet<BoundaryGoal>,
    /// Places (with a way out) none of whose goals is open.
    closed_places: StableHashSet<(Span, Option<Span>)>,
    /// The boundaries of `covered`, whichever way out.
    tested: BTreeSet<Boundary>,
    /// The number a difference is with its symbols fixed to values, by the
    /// difference and the values: paths that share a prefix fix the same.
    settled: SettledDifferences,
    /// Every boundary of the comparisons any path made.
    seen: BTreeSet<Boundary>,
    /// The ways out of the completed paths.
    exits: BTreeSet<Option<Span>>,
    /// Per goal: the completed paths on which it was asked without a test.
    tried: StableHashMap<BoundaryGoal, u32>,
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
            covered: StableHashSet::default(),
            tested: BTreeSet::new(),
            closed_places: StableHashSet::default(),
            settled: SettledDifferences::default(),
            seen: BTreeSet::new(),
            exits: BTreeSet::new(),
            tried: StableHashMap::default(),
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
            symbols: symbols_of(&Dynamic::from_ast(difference)),
            path_len,
        });
        self.seen
            .extend(Boundary::OFFSETS.map(|offset| Boundary { span, offset }));
    }

    /// Whether a boundary of a comparison some path made is open on a
    /// way out some completed path took (other ways out come with the
    /// paths the search completes anyway: they do not keep it going).
    pub fn any_open(&self) -> bool {
        self.seen.iter().any(|boundary| {
            (self.exits.iter()).any(|exit| {
                self.is_open(&BoundaryGoal {
                    boundary: *boundary,
                    exit: *exit,
                })
            })
        })
    }

    /// Whether `goal` is open at a place where a path made a comparison
    /// that depended on its inputs.
    pub fn lacks(&self, goal: &BoundaryGoal) -> bool {
        self.seen.contains(&goal.boundary) && self.is_open(goal)
    }

    /// Whether some test sits on `boundary`, whichever way out it took.
    pub fn tested_on_any_exit(&self, boundary: &Boundary) -> bool {
        self.tested.contains(boundary)
    }

    /// The goals still open among the comparisons of `st`'s path, out
    /// through `exit`, each with its condition under the values the path
    /// fixed. In the order of the places, then of the offsets.
    pub fn open_on(&mut self, st: &State, exit: Option<Span>) -> Vec<OpenGoal> {
        self.exits.insert(exit);
        let Some(made) = self.made.get_ref(st.id) else {
            return Vec::new();
        };
        let mut by_place: Vec<&Comparison> = made
            .iter()
            .filter(|c| !self.closed_places.contains(&(c.span, exit)))
            .collect();
        by_place.sort_by_key(|c| c.span);
        let mut open = Vec::new();
        for comparisons in by_place.chunk_by(|a, b| a.span == b.span) {
            let span = comparisons[0].span;
            let goals: Vec<BoundaryGoal> = Boundary::OFFSETS
                .into_iter()
                .map(|offset| BoundaryGoal {
                    boundary: Boundary { span, offset },
                    exit,
                })
                .filter(|goal| self.is_open(goal))
                .collect();
            if goals.is_empty() {
                continue;
            }
            let values: Vec<Option<u128>> = comparisons
                .iter()
                .map(|c| self.settled.value(c, st))
                .collect();
            for goal in goals {
                let offset = goal.boundary.offset;
                let may_meet = values.iter().zip(comparisons).any(|(value, c)| {
                    value.is_none_or(|v| v == offset_bits(offset, c.difference.get_size()))
                });
                let condition = may_meet.then(|| {
                    let at_offset: Vec<Bool> = comparisons
                        .iter()
                        .map(|c| {
                            let d = &c.difference;
                            d.eq(BV::from_i64(i64::from(offset), d.get_size()))
                        })
                        .collect();
                    Bool::or(&at_offset)
                });
                open.push(OpenGoal { goal, condition });
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
            self.tested.insert(*boundary);
            self.covered.insert(BoundaryGoal {
                boundary: *boundary,
                exit,
            })
        });
        for boundary in boundaries.iter() {
            self.note_if_closed(boundary.span, exit);
        }
    }

    /// Notes the place `span` closed on `exit` once none of its goals
    /// there is open: paths then skip its comparisons at once.
    fn note_if_closed(&mut self, span: Span, exit: Option<Span>) {
        let open = Boundary::OFFSETS.into_iter().any(|offset| {
            self.is_open(&BoundaryGoal {
                boundary: Boundary { span, offset },
                exit,
            })
        });
        if !open {
            self.closed_places.insert((span, exit));
        }
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
        self.note_if_closed(goal.boundary.span, goal.exit);
    }
}

/// Memo of the numbers differences are under fixed values, by the
/// addresses of the difference and the values.
#[derive(Default)]
struct SettledDifferences(StableHashMap<(usize, Vec<usize>), Settled>);

/// A difference's number under some values, and the terms, kept so that
/// no other term takes their addresses.
struct Settled {
    _terms: Vec<BV>,
    value: Option<u128>,
}

impl SettledDifferences {
    /// The number `c`'s difference is with the values `st` fixed put in,
    /// when they are all of its symbols; `None` otherwise.
    fn value(&mut self, c: &Comparison, st: &State) -> Option<u128> {
        let pairs = st.fixed_among(&c.symbols);
        if pairs.len() < c.symbols.len() {
            return None;
        }
        let key = (
            address(&c.difference),
            pairs.iter().map(|(_, v)| address(*v)).collect(),
        );
        let settled = self.0.entry(key).or_insert_with(|| Settled {
            _terms: std::iter::once(&c.difference)
                .chain(pairs.iter().map(|(_, v)| *v))
                .cloned()
                .collect(),
            value: concrete_term(&c.difference.substitute(&pairs)),
        });
        settled.value
    }
}

/// `offset` as the bits of a `width`-bit number.
fn offset_bits(offset: i8, width: u32) -> u128 {
    let bits = i128::from(offset) as u128;
    if width >= 128 {
        bits
    } else {
        bits & ((1u128 << width) - 1)
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

    /// A path state numbered `id`, with nothing fixed.
    fn state(id: u64) -> State {
        State::new(&crate::test_programs::empty_program(), StateId(id))
    }

    fn goals(open: Vec<OpenGoal>) -> Vec<BoundaryGoal> {
        open.into_iter().map(|open| open.goal).collect()
    }

    #[test]
    fn each_place_has_three_goals_until_covered() {
        let mut boundaries = Boundaries::new(u64::MAX, true);
        let st = state(1);
        boundaries.compared(st.id, span(3), &symbol("x").bvsub(bv_u(10, 33)), 0);
        boundaries.compared(st.id, span(4), &symbol("y"), 1);
        let open = goals(boundaries.open_on(&st, EXIT));
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
        assert_eq!(boundaries.open_on(&st, EXIT).len(), 4);
    }

    #[test]
    fn a_goal_the_fixed_values_rule_out_has_no_condition() {
        let mut boundaries = Boundaries::new(u64::MAX, true);
        let mut st = state(1);
        let x = symbol("x");
        boundaries.compared(st.id, span(3), &x.bvsub(bv_u(10, 33)), 0);
        boundaries.compared(st.id, span(4), &symbol("y"), 1);
        Rc::make_mut(&mut st.fixed).push((x.clone(), bv_u(11, 33)));
        let open = boundaries.open_on(&st, EXIT);
        let at_line_3: Vec<bool> = open
            .iter()
            .filter(|open| open.goal.boundary.span == span(3))
            .map(|open| open.condition.is_some())
            .collect();
        // x - 10 is 1: only the goal at offset 1 may be met.
        assert_eq!(at_line_3, [false, false, true]);
        assert!(open
            .iter()
            .filter(|open| open.goal.boundary.span == span(4))
            .all(|open| open.condition.is_some()));
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
        let st = state(1);
        let state = st.id;
        boundaries.compared(state, span(3), &symbol("x"), 2);
        let goal = boundaries.open_on(&st, EXIT)[0].goal;
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
        let (parent_state, child_state) = (state(1), state(2));
        let (parent, child) = (parent_state.id, child_state.id);
        let difference = symbol("x");
        boundaries.compared(parent, span(3), &difference, 0);
        boundaries.forked(parent, child);
        boundaries.compared(child, span(3), &difference, 0);
        boundaries.released(parent);
        assert!(boundaries.open_on(&parent_state, EXIT).is_empty());
        assert_eq!(boundaries.open_on(&child_state, EXIT).len(), 3);
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
