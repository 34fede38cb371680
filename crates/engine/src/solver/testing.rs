//! For the layers' unit tests: a store of constraints to ask about, and a
//! probe layer that records every query reaching it.

use super::query::{Answer, Context, Effort, Query, QuerySolver};
use super::store::{ConstraintId, ConstraintStore};
use super::z3_backend::Z3Backend;
use std::cell::RefCell;
use std::rc::Rc;
use z3::ast::{Bool, BV};

/// A query as it reached the probe.
pub struct Seen {
    pub constraints: Vec<ConstraintId>,
    pub transient: bool,
    pub wants_model: bool,
    pub effort: Effort,
}

pub type Log = Rc<RefCell<Vec<Seen>>>;

/// Records each query, then asks Z3, or answers unknown when over nothing.
pub struct Probe {
    log: Log,
    inner: Option<Box<dyn QuerySolver>>,
}

impl QuerySolver for Probe {
    fn solve(&mut self, query: &Query, cx: &mut Context) -> Answer {
        self.log.borrow_mut().push(Seen {
            constraints: query.constraints.to_vec(),
            transient: query.transient.is_some(),
            wants_model: query.wants_model,
            effort: query.effort,
        });
        match &mut self.inner {
            Some(inner) => inner.solve(query, cx),
            None => Answer::Unknown,
        }
    }
}

/// A probe over Z3, and its log.
pub fn probe_over_z3() -> (Box<dyn QuerySolver>, Log) {
    let log = Log::default();
    let probe = Probe {
        log: log.clone(),
        inner: Some(Box::new(Z3Backend::new(Default::default()))),
    };
    (Box::new(probe), log)
}

/// A probe that answers unknown (as a time-out would) to every query but
/// those with a transient constraint, which it asks Z3; and its log.
pub fn probe_unknown_unless_transient() -> (Box<dyn QuerySolver>, Log) {
    struct TransientOnly(Z3Backend);
    impl QuerySolver for TransientOnly {
        fn solve(&mut self, query: &Query, cx: &mut Context) -> Answer {
            match query.transient {
                Some(_) => self.0.solve(query, cx),
                None => Answer::Unknown,
            }
        }
    }
    let log = Log::default();
    let probe = Probe {
        log: log.clone(),
        inner: Some(Box::new(TransientOnly(Z3Backend::new(Default::default())))),
    };
    (Box::new(probe), log)
}

/// A probe that answers every query unknown (as a time-out would), and its log.
pub fn probe_unknown() -> (Box<dyn QuerySolver>, Log) {
    let log = Log::default();
    let probe = Probe {
        log: log.clone(),
        inner: None,
    };
    (Box::new(probe), log)
}

/// A 32-bit input symbol.
pub fn symbol(name: &str) -> BV {
    BV::new_const(name, 32)
}

pub fn number(n: u64) -> BV {
    BV::from_u64(n, 32)
}

/// A feasibility question about `constraints` (sorted), asked in full.
pub fn feasibility(constraints: &[ConstraintId]) -> Query<'_> {
    Query {
        constraints,
        added: None,
        transient: None,
        wants_model: false,
        effort: Effort::Full,
    }
}

/// The state a layer works against: the interned constraints and the counters.
#[derive(Default)]
pub struct Bed {
    pub store: ConstraintStore,
    pub calls: u64,
    pub counts: testcase::SolverCounts,
    pub gave_up: bool,
}

impl Bed {
    pub fn intern(&mut self, c: &Bool) -> ConstraintId {
        self.store.intern(c)
    }

    pub fn ask(&mut self, solver: &mut dyn QuerySolver, query: &Query) -> Answer {
        let mut cx = Context {
            store: &self.store,
            calls: &mut self.calls,
            counts: &mut self.counts,
            gave_up: &mut self.gave_up,
        };
        solver.solve(query, &mut cx)
    }
}
