//! Queries with nonlinear arithmetic first try all their symbols near
//! zero, briefly: there the multiplier circuits are small and most models
//! are found at once, where the whole range can keep Z3 busy for seconds.

use super::query::{Answer, Context, Query, QuerySolver};
use super::{near_zero, WISH_LIMIT};
use z3::ast::Bool;

pub struct NearZeroFirst {
    inner: Box<dyn QuerySolver>,
}

impl NearZeroFirst {
    pub fn new(inner: Box<dyn QuerySolver>) -> NearZeroFirst {
        NearZeroFirst { inner }
    }
}

impl QuerySolver for NearZeroFirst {
    fn solve(&mut self, query: &Query, cx: &mut Context) -> Answer {
        let nonlinear = query
            .constraints
            .iter()
            .any(|id| cx.store.is_nonlinear(*id));
        if nonlinear && query.transient.is_none() {
            let small: Vec<Bool> = cx
                .store
                .symbols_of(query.constraints)
                .into_iter()
                .map(|n| near_zero(cx.store.symbol(n), 100, true))
                .collect();
            let small = Bool::and(&small);
            let first_try = Query {
                transient: Some(&small),
                effort: query.effort.at_most(WISH_LIMIT),
                ..*query
            };
            let answer = self.inner.solve(&first_try, cx);
            if answer.is_sat() {
                return answer;
            }
        }
        self.inner.solve(query, cx)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::query::Effort;
    use crate::solver::testing::{feasibility, number, probe_over_z3, symbol, Bed};

    #[test]
    fn nonlinear_queries_are_first_tried_briefly_near_zero() {
        let mut bed = Bed::default();
        let (x, y) = (symbol("x"), symbol("y"));
        let product = bed.intern(&x.bvmul(&y).eq(number(12)));
        let linear = bed.intern(&x.bvugt(number(1)));
        let (probe, log) = probe_over_z3();
        let mut layer = NearZeroFirst::new(probe);
        let only = [product];
        let query = Query {
            wants_model: true,
            ..feasibility(&only)
        };
        let Answer::Sat(Some(model)) = bed.ask(&mut layer, &query) else {
            panic!("x * y == 12 has a model");
        };
        let signed = |v: &z3::ast::BV| {
            let bits = model.eval(v, true).and_then(|n| n.as_u64()).unwrap();
            bits as u32 as i32
        };
        assert!(signed(&x).abs() <= 100 && signed(&y).abs() <= 100);
        assert!(log.borrow()[0].transient);
        assert_eq!(log.borrow()[0].effort, Effort::Within(WISH_LIMIT));
        assert_eq!(log.borrow().len(), 1);
        bed.ask(&mut layer, &feasibility(&[linear]));
        assert!(!log.borrow()[1].transient);
    }
}
