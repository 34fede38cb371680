//! The one interface through which the executor reports what happens on a
//! path to the search that drives it. A search keeps whatever it tracks per
//! path (counts, progress along a spec, reasons) in its own tables keyed by
//! [`StateId`], and these calls keep them up to date.

use crate::solver::ConstraintId;
use crate::state::{State, StateId};
use crate::value::LazyIdx;
use ir::{Arm, BlockId, Span};
use z3::ast::{Bool, BV};

/// Events of a turn, as they happen. Every method has a do-nothing default.
pub trait Hooks {
    /// `child` was split off `parent` to follow another choice: it shares
    /// the parent's history so far.
    fn forked(&mut self, _parent: StateId, _child: StateId) {}

    /// `state` is about to enter `block` in its top frame; the frame still
    /// shows where it comes from (a frame just pushed has not visited any block).
    fn entering(&mut self, _state: &State, _block: BlockId) {}

    /// Whether the arm of `state`'s current condition that leads to `block`
    /// is worth running at all; an unwanted arm is dropped before the solver
    /// is asked about it.
    fn wants_arm(&mut self, _state: &State, _block: BlockId) -> bool {
        true
    }

    /// `arm` of `state`'s current condition cannot be taken: `cond`
    /// contradicts the path condition.
    fn arm_infeasible(&mut self, _state: &State, _arm: Arm, _cond: &Bool) {}

    /// `state` took `arm` of its current condition, adding `constraint` to
    /// its path condition (`None`: the condition was decided without one,
    /// e.g. by the shape of the input).
    fn arm_taken(&mut self, _state: &State, _arm: Arm, _constraint: Option<ConstraintId>) {}

    /// An input pointer of `state` was decided (NULL, an alias or a new
    /// object) by the statement or condition at `span`.
    fn pointer_decided(&mut self, _state: &State, _lazy: LazyIdx, _span: Span) {}

    /// The call under test (or a function it calls) compared two integers
    /// with `<`, `<=`, `>` or `>=` at `span`, their left side minus their
    /// right side being `difference` (exact: one bit wider than the
    /// operands). Only comparisons whose outcome depends on the inputs.
    fn compared(&mut self, _state: &State, _span: Span, _difference: &BV) {}

    /// In a run whose inputs are numbers ([`State::native_inputs`]), a
    /// comparison at `span` (as [`Self::compared`] places them) whose sides
    /// differ by `offset`, -1, 0 or 1. Whether it depends on the inputs
    /// cannot be told there: the search knows which places did elsewhere.
    fn at_edge(&mut self, _state: &State, _span: Span, _offset: i8) {}
}

/// For runs no search tracks.
pub struct NoHooks;

impl Hooks for NoHooks {}
