//! The one narrow interface of the solver's layers (KLEE's solver chain):
//! each layer answers a query itself or passes it, perhaps changed, to the
//! layer below, and the last one asks Z3.

use super::store::{ConstraintId, ConstraintStore};
use std::time::Duration;
use z3::ast::Bool;
use z3::Model;

/// Is the conjunction of some interned constraints satisfiable?
#[derive(Clone, Copy)]
pub struct Query<'a> {
    /// Sorted, without duplicates.
    pub constraints: &'a [ConstraintId],
    /// The one constraint added to a set known to be satisfiable (a live
    /// path's condition), when so: only it can make the query unsatisfiable.
    pub added: Option<ConstraintId>,
    /// Asserted for this query only, never interned: a wish for readable
    /// values, or a disjunction of alternative paths. Such a query is
    /// neither cached nor sliced.
    pub transient: Option<&'a Bool>,
    pub wants_model: bool,
    pub effort: Effort,
}

/// How much a query may cost.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Effort {
    /// As long as the solver's limits allow; an unknown answer means the
    /// solver gave up.
    Full,
    /// At most this long: a wish or a quick first try, whose unknown answer
    /// is no failure. The time-limit layer turns every effort into this one.
    Within(Duration),
    /// Answered from what is already known, unknown otherwise (deferred
    /// feasibility checks).
    KnownOnly,
}

impl Effort {
    /// This effort, but no longer than `limit`.
    pub fn at_most(self, limit: Duration) -> Effort {
        match self {
            Effort::Full => Effort::Within(limit),
            Effort::Within(d) => Effort::Within(d.min(limit)),
            Effort::KnownOnly => Effort::KnownOnly,
        }
    }
}

pub enum Answer {
    /// Satisfiable, with a model when one was wanted.
    Sat(Option<Model>),
    Unsat,
    Unknown,
}

impl Answer {
    pub fn is_sat(&self) -> bool {
        matches!(self, Answer::Sat(_))
    }
}

/// What every layer may read or update besides its own state.
pub struct Context<'a> {
    pub store: &'a ConstraintStore,
    /// Z3 checks made.
    pub calls: &'a mut u64,
    /// How questions were answered.
    pub counts: &'a mut testcase::SolverCounts,
    /// Set when a query asked with full effort came back unknown, so that
    /// "infeasible" claims stay honest.
    pub gave_up: &'a mut bool,
}

pub trait QuerySolver {
    fn solve(&mut self, query: &Query, cx: &mut Context) -> Answer;
}
