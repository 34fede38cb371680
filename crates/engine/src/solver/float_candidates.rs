//! Floating-point queries can keep Z3 busy for seconds (it turns every
//! operation into a circuit), where a human would try a few values. So a
//! query with floating point gets a bounded first try; when Z3 does not
//! answer within it, concrete candidates for its symbols are tried, each
//! briefly (the code's own constants and their neighbours, 0, +-1, small
//! integers, infinities, NaN; characters of numbers for bytes); only when
//! none satisfies does the query run with the rest of its time. Candidates
//! only ever find models: an unsatisfiable candidate says nothing, so a
//! query is called unsatisfiable by Z3 alone, never because of a time-out.
//! A candidate is first evaluated (its values put in, the constraints
//! simplified): one some constraint refutes costs no Z3 check.

use super::interrupt::{work_for, WorkMeter};
use super::query::{Answer, Context, Effort, Query, QuerySolver};
use super::store::{ConstraintId, ConstraintStore, SymbolId};
use crate::value::{bv_u, concrete_term};
use std::time::Duration;
use z3::ast::{Ast, Bool, BV};

/// How long a floating query runs before candidates are tried.
const FIRST_TRY: Duration = Duration::from_millis(1000);
/// How long one candidate assignment may take.
const CANDIDATE_LIMIT: Duration = Duration::from_millis(100);
/// How long all candidates of one query may take together, in Z3's work
/// (not time, so that runs try the same candidates); the last one tried
/// may take its own limit past it.
const CANDIDATES_BUDGET: Duration = Duration::from_millis(2000);
/// How many assignments of all symbols are tried at most.
const MAX_ASSIGNMENTS: usize = 64;

pub struct FloatCandidates {
    inner: Box<dyn QuerySolver>,
}

impl FloatCandidates {
    pub fn new(inner: Box<dyn QuerySolver>) -> FloatCandidates {
        FloatCandidates { inner }
    }
}

impl QuerySolver for FloatCandidates {
    fn solve(&mut self, query: &Query, cx: &mut Context) -> Answer {
        let floating = query.constraints.iter().any(|id| cx.store.is_floating(*id));
        if !floating || query.transient.is_some() || query.effort == Effort::KnownOnly {
            return self.inner.solve(query, cx);
        }
        let first_try = Query {
            effort: query.effort.at_most(FIRST_TRY),
            ..*query
        };
        let answer = self.inner.solve(&first_try, cx);
        if !matches!(answer, Answer::Unknown) {
            return answer;
        }
        let meter = WorkMeter::new();
        let work = |cx: &Context| meter.done() + cx.counts.blast_work;
        let work_until = work(cx).saturating_add(work_for(CANDIDATES_BUDGET));
        for values in assignments(cx.store, query) {
            if work(cx) >= work_until {
                break;
            }
            if refuted(cx.store, query.constraints, &values) {
                continue;
            }
            let assignment = Bool::and(
                &values
                    .iter()
                    .map(|(symbol, value)| cx.store.symbol(*symbol).eq(value))
                    .collect::<Vec<_>>(),
            );
            let candidate = Query {
                transient: Some(&assignment),
                effort: query.effort.at_most(CANDIDATE_LIMIT),
                ..*query
            };
            let answer = self.inner.solve(&candidate, cx);
            if answer.is_sat() {
                return answer;
            }
        }
        self.inner.solve(query, cx)
    }
}

/// Candidate values of one symbol, most likely first.
fn candidates(store: &ConstraintStore, symbol: SymbolId, constants: &[f64]) -> Vec<BV> {
    let x = store.symbol(symbol);
    let bits = x.get_size();
    if store.is_float_symbol(symbol) && matches!(bits, 32 | 64) {
        let mut values: Vec<f64> = vec![0.0, 1.0, -1.0, 2.0, 0.5, 10.0, -10.0, 100.0, 1e6];
        for c in constants {
            values.extend([*c, -*c, c + 1.0, c - 1.0, c * 2.0, c / 2.0]);
        }
        values.extend([f64::INFINITY, f64::NEG_INFINITY, f64::NAN, -0.0]);
        let mut seen = Vec::new();
        for v in values {
            let pattern = if bits == 32 {
                u128::from((v as f32).to_bits())
            } else {
                u128::from(v.to_bits())
            };
            if !seen.contains(&pattern) {
                seen.push(pattern);
            }
        }
        return seen.into_iter().map(|p| bv_u(p, bits)).collect();
    }
    let values: &[i128] = if bits == 8 {
        // The characters numbers are written with.
        &[0x30, 0x31, 0x35, 0x39, 0x2e, 0x65, 0x2d, 0x2b, 0]
    } else {
        &[0, 1, 2, 3, 7, 10, 100, 1000, -1, -2]
    };
    values.iter().map(|v| bv_u(*v as u128, bits)).collect()
}

/// The values of the floating constants `query` uses, as doubles.
fn constant_values(store: &ConstraintStore, query: &Query) -> Vec<f64> {
    store
        .float_constants(query.constraints)
        .iter()
        .filter_map(|c| {
            let bits = concrete_term(c)?;
            match c.get_size() {
                32 => Some(f64::from(f32::from_bits(bits as u32))),
                64 => Some(f64::from_bits(bits as u64)),
                _ => None,
            }
        })
        .filter(|v| v.is_finite())
        .collect()
}

/// Whether a constraint of `ids` is false with `values` put in (Z3's
/// simplifier evaluates floating operations on numerals): the check would
/// say unsatisfiable.
fn refuted(store: &ConstraintStore, ids: &[ConstraintId], values: &[(SymbolId, BV)]) -> bool {
    let pairs: Vec<(&BV, &BV)> = values
        .iter()
        .map(|(symbol, value)| (store.symbol(*symbol), value))
        .collect();
    ids.iter().any(|id| {
        store
            .constraint(*id)
            .substitute(&pairs)
            .simplify()
            .as_bool()
            == Some(false)
    })
}

/// Assignments of every symbol of `query` to one of its candidates: first
/// the k-th candidate of each, then a deterministic spread of mixes.
fn assignments(store: &ConstraintStore, query: &Query) -> Vec<Vec<(SymbolId, BV)>> {
    let constants = constant_values(store, query);
    let symbols = store.symbols_of(query.constraints);
    if symbols.is_empty() {
        return vec![];
    }
    let lists: Vec<(SymbolId, Vec<BV>)> = symbols
        .iter()
        .map(|s| (*s, candidates(store, *s, &constants)))
        .collect();
    let longest = lists.iter().map(|(_, l)| l.len()).max().unwrap_or(0);
    // A fixed linear congruential sequence: the same query gets the same tries.
    let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut pick = |len: usize| {
        state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (state >> 33) as usize % len
    };
    (0..MAX_ASSIGNMENTS)
        .map(|k| {
            lists
                .iter()
                .map(|(s, list)| {
                    let index = if k < longest {
                        k % list.len()
                    } else {
                        pick(list.len())
                    };
                    (*s, list[index].clone())
                })
                .collect()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::testing::{feasibility, probe_unknown_unless_transient, Bed};
    use crate::value::ieee_value as value;
    use ir::FloatKind;

    #[test]
    fn a_slow_floating_query_is_answered_by_a_candidate() {
        let mut bed = Bed::default();
        let x = BV::new_const("x", 64);
        let above = value(&x, FloatKind::F64).gt(100.5f64);
        let id = bed.intern(&above);
        // Z3 "times out" on the query itself; only candidate queries reach it.
        let (probe, log) = probe_unknown_unless_transient();
        let mut layer = FloatCandidates::new(probe);
        let only = [id];
        let query = Query {
            wants_model: true,
            ..feasibility(&only)
        };
        let Answer::Sat(Some(model)) = bed.ask(&mut layer, &query) else {
            panic!("a candidate satisfies x > 100.5");
        };
        let bits = model
            .eval(&x, true)
            .and_then(|v| v.as_u64())
            .expect("value");
        assert!(f64::from_bits(bits) > 100.5);
        assert!(!bed.gave_up);
        assert!(!log.borrow()[0].transient, "the query itself first");
        // 0, 1, -1, 2, 0.5, 10, -10 and 100 come first, each refuted by
        // evaluation: Z3 is asked only about 1e6.
        assert_eq!(log.borrow().len(), 2, "the query and one candidate");
    }
}
