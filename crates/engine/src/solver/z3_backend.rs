//! The last layer: Z3 itself. One incremental solver holds `guard =>
//! constraint` for the constraints asked so far and checks a query under
//! the guards of its constraints as assumptions (fast on the many easy
//! queries); a query it cannot settle quickly goes to a fresh,
//! non-incremental solver. A query with floating point goes to a fresh solver
//! at once: only its preprocessing folds floating operations on constants,
//! under assumptions a query with every input fixed still took over 50 ms.
//! So does a query with products or quotients of unknown terms: in the
//! incremental solver their circuits would stay, and every later query
//! would pay for them (a linear query about another symbol went from
//! 0.1 ms to 130-580 ms after one `b * (a / b) > a` on 64 bits). A fresh
//! check is priced first: bit-blasting, which Z3's work limit does not
//! count, gets its estimate (`ConstraintStore::blast_work`) out of the
//! check's work, and a check whose estimate alone exceeds it answers
//! unknown without asking (`priced_out`).

use super::interrupt::{check_params, work_for, Checks};
use super::query::{Answer, Context, Effort, Query, QuerySolver};
use super::store::{ConstraintId, ConstraintStore};
use super::SolverOptions;
use crate::stable_hash::{StableHashMap, StableHashSet};
use std::time::{Duration, Instant};
use z3::ast::Bool;
use z3::{SatResult, Solver};

/// Time the incremental solver gets before a query moves to a fresh solver.
const INCREMENTAL_LIMIT: Duration = Duration::from_millis(200);

/// Most bit-blasting work (see `store::blast_work`) a query may carry into
/// the incremental solver, whose work limit does not count it: products
/// of an index with a structure's size (a few set bits) blast in well
/// under a millisecond, and a fresh solver costs about 8 ms to set up.
const INCREMENTAL_BLAST: u64 = 1024;

/// Most constraints the incremental solver holds before it starts afresh:
/// every query pays for every constraint it holds, used or not.
const SOLVER_CAPACITY: usize = 400;

pub struct Z3Backend {
    solver: Solver,
    /// Whether `guard => constraint` is asserted in `solver`.
    asserted: Vec<bool>,
    asserted_count: usize,
    /// The work limit last given to `solver` (setting parameters is not free).
    limit_ms: u32,
    checks: Checks,
}

impl Z3Backend {
    pub fn new(checks: Checks) -> Z3Backend {
        Z3Backend {
            solver: Solver::new(),
            asserted: Vec::new(),
            asserted_count: 0,
            limit_ms: 0,
            checks,
        }
    }

    /// Asserts `guard => constraint` for the constraints of `ids` not yet
    /// in the solver, starting afresh when it would hold too many.
    fn assert_guarded(&mut self, ids: &[ConstraintId], store: &ConstraintStore) {
        if self.asserted_count + ids.len() > SOLVER_CAPACITY {
            self.solver = Solver::new();
            self.limit_ms = 0;
            self.asserted.clear();
            self.asserted_count = 0;
        }
        self.asserted.resize(store.count(), false);
        for id in ids {
            if !self.asserted[*id as usize] {
                self.asserted[*id as usize] = true;
                self.asserted_count += 1;
                self.solver
                    .assert(store.guard(*id).implies(store.constraint(*id)));
            }
        }
    }
}

impl QuerySolver for Z3Backend {
    fn solve(&mut self, query: &Query, cx: &mut Context) -> Answer {
        let started = Instant::now();
        let answer = self.check(query, cx);
        cx.counts.z3_time += started.elapsed();
        answer
    }
}

impl Z3Backend {
    /// A transient formula is asserted in a scope popped after the query:
    /// interned, every path's preference would stay in the solver and slow
    /// down all later queries.
    fn check(&mut self, query: &Query, cx: &mut Context) -> Answer {
        let left = match query.effort {
            Effort::Within(limit) => limit,
            // Only in a chain without the time-limit layer (unit tests).
            Effort::Full => Duration::MAX,
            Effort::KnownOnly => return Answer::Unknown,
        };
        let floating = query.constraints.iter().any(|id| cx.store.is_floating(*id));
        let blast = cx.store.blast_work(query.constraints, query.transient);
        if floating || blast > INCREMENTAL_BLAST {
            return fresh_check(query, cx, left, blast, &self.checks);
        }
        *cx.calls += 1;
        let quick = left.min(INCREMENTAL_LIMIT);
        if millis(quick) != self.limit_ms {
            self.solver.set_params(&check_params(work_for(quick)));
            self.limit_ms = millis(quick);
        }
        self.assert_guarded(query.constraints, cx.store);
        let assumptions: Vec<Bool> = query
            .constraints
            .iter()
            .map(|id| cx.store.guard(*id).clone())
            .collect();
        if let Some(transient) = query.transient {
            self.solver.push();
            self.solver.assert(transient);
        }
        // Without multipliers or dividers Z3's work limit stops the check in
        // time; the clock's watch, whose verdict changes with the machine's
        // load, is left to the checks that have them.
        let incremental = self.checks.run(Duration::MAX, || {
            self.solver.check_assumptions(&assumptions)
        });
        let answer = match incremental {
            SatResult::Unknown if left > INCREMENTAL_LIMIT => {
                fresh_check(query, cx, left - INCREMENTAL_LIMIT, 0, &self.checks)
            }
            result => answer_of(result, query.wants_model, &self.solver),
        };
        if query.transient.is_some() {
            self.solver.pop(1);
        }
        answer
    }
}

/// The query asked of a new, non-incremental solver within `limit`, of
/// which bit-blasting takes about `blast` work units.
fn fresh_check(
    query: &Query,
    cx: &mut Context,
    limit: Duration,
    blast: u64,
    checks: &Checks,
) -> Answer {
    let work = work_for(limit);
    if blast >= work {
        cx.counts.priced_out += 1;
        return Answer::Unknown;
    }
    *cx.calls += 1;
    cx.counts.blast_work += blast;
    // Bit-vectors alone get the solver for their logic: the general one
    // takes about 7 ms to set up per check, even of `x == 1` (0.4 ms).
    let floating = query.constraints.iter().any(|id| cx.store.is_floating(*id));
    let fresh = match floating {
        false => Solver::new_for_logic("QF_BV").unwrap_or_default(),
        true => Solver::new(),
    };
    fresh.set_params(&check_params(work - blast));
    for id in query.constraints {
        fresh.assert(cx.store.constraint(*id));
    }
    if let Some(transient) = query.transient {
        fresh.assert(transient);
    }
    // Bit-blasting, which Z3's work limit does not count, is what the
    // clock watches for (see the incremental check).
    let watched = if blast > 0 || floating {
        limit
    } else {
        Duration::MAX
    };
    let result = checks.run(watched, || fresh.check());
    answer_of(result, query.wants_model, &fresh)
}

fn answer_of(result: SatResult, wants_model: bool, solver: &Solver) -> Answer {
    match result {
        SatResult::Sat => Answer::Sat(wants_model.then(|| solver.get_model()).flatten()),
        SatResult::Unsat => Answer::Unsat,
        SatResult::Unknown => Answer::Unknown,
    }
}

fn millis(d: Duration) -> u32 {
    d.as_millis().clamp(1, u128::from(u32::MAX)) as u32
}

/// A minimal set of the constraints of `path` that contradict `extra`
/// (which is always part of the contradiction): Z3's unsat core, shrunk by
/// dropping each constraint whose absence leaves it unsatisfiable. `None`
/// when `path` and `extra` are satisfiable together, or unknown within
/// the time `options` leave; shrinking stops there too. An explanation,
/// not a query: it needs the core, which no layer of the chain gives.
pub fn minimal_unsat_core(
    store: &ConstraintStore,
    path: &[ConstraintId],
    extra: &Bool,
    options: &SolverOptions,
    checks: &Checks,
    calls: &mut u64,
) -> Option<Vec<ConstraintId>> {
    let limit = super::time_limit::time_left(options.stop.deadline, options.query_limit);
    let solver = Solver::new();
    solver.set_params(&check_params(work_for(limit)));
    solver.assert(extra);
    let mut guard_of = StableHashMap::default();
    for id in path {
        let guard = Bool::new_const(format!("core!{id}"));
        solver.assert(guard.implies(store.constraint(*id)));
        guard_of.insert(*id, guard);
    }
    let guards =
        |ids: &[ConstraintId]| -> Vec<Bool> { ids.iter().map(|id| guard_of[id].clone()).collect() };
    let mut ids: Vec<ConstraintId> = guard_of.keys().copied().collect();
    ids.sort_unstable();
    *calls += 1;
    if checks.run(limit, || solver.check_assumptions(&guards(&ids))) != SatResult::Unsat {
        return None;
    }
    let core: StableHashSet<Bool> = solver.get_unsat_core().into_iter().collect();
    let mut kept: Vec<ConstraintId> = ids
        .into_iter()
        .filter(|id| core.contains(&guard_of[id]))
        .collect();
    let mut i = 0;
    while i < kept.len() && !options.stop.now() {
        let mut without = kept.clone();
        without.remove(i);
        *calls += 1;
        if checks.run(limit, || solver.check_assumptions(&guards(&without))) == SatResult::Unsat {
            kept = without;
        } else {
            i += 1;
        }
    }
    Some(kept)
}
