//! Remembers whether each set of constraints asked is satisfiable: the
//! search asks the same path conditions again and again.

use super::query::{Answer, Context, Effort, Query, QuerySolver};
use super::store::ConstraintId;
use crate::bounds::CACHED_ANSWERS;
use crate::stable_hash::StableHashMap;

pub struct ResultCache {
    /// Satisfiability by the (sorted) constraints asked. Unknown is kept as
    /// unsatisfiable, as the engine reads it; `gave_up` records the doubt.
    known: StableHashMap<Vec<ConstraintId>, bool>,
    inner: Box<dyn QuerySolver>,
}

impl ResultCache {
    pub fn new(inner: Box<dyn QuerySolver>) -> ResultCache {
        ResultCache {
            known: StableHashMap::default(),
            inner,
        }
    }
}

impl QuerySolver for ResultCache {
    fn solve(&mut self, query: &Query, cx: &mut Context) -> Answer {
        if query.transient.is_some() {
            return self.inner.solve(query, cx);
        }
        match self.known.get(query.constraints) {
            Some(false) => {
                cx.counts.from_cache += 1;
                return Answer::Unsat;
            }
            // A wanted model still has to come from below.
            Some(true) if !query.wants_model => {
                cx.counts.from_cache += 1;
                return Answer::Sat(None);
            }
            None if query.effort == Effort::KnownOnly => return Answer::Unknown,
            _ => {}
        }
        let answer = self.inner.solve(query, cx);
        // A known answer stays: an unknown one (a model query timing out)
        // must not turn a proved satisfiable set into an unsatisfiable one.
        if !self.known.contains_key(query.constraints) {
            // Full, it starts afresh: answers asked again come from below.
            if self.known.len() >= CACHED_ANSWERS {
                self.known.clear();
            }
            self.known
                .insert(query.constraints.to_vec(), answer.is_sat());
        }
        answer
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::testing::{feasibility, number, probe_over_z3, symbol, Bed, Log};
    use crate::solver::ConstraintId;

    /// A cache over a logging probe of Z3, and `x > 5` and `x < 3`.
    fn cache_of_two() -> (Bed, ConstraintId, ConstraintId, ResultCache, Log) {
        let mut bed = Bed::default();
        let x = symbol("x");
        let above = bed.intern(&x.bvugt(number(5)));
        let below = bed.intern(&x.bvult(number(3)));
        let (probe, log) = probe_over_z3();
        (bed, above, below, ResultCache::new(probe), log)
    }

    #[test]
    fn a_repeated_question_does_not_reach_the_back_end() {
        let (mut bed, above, below, mut cache, log) = cache_of_two();
        for _ in 0..2 {
            assert!(bed.ask(&mut cache, &feasibility(&[above])).is_sat());
            let contradiction = [above, below];
            assert!(matches!(
                bed.ask(&mut cache, &feasibility(&contradiction)),
                Answer::Unsat
            ));
        }
        assert_eq!(log.borrow().len(), 2);
        assert_eq!(bed.counts.from_cache, 2);
    }

    #[test]
    fn a_wanted_model_comes_from_below_unless_known_unsatisfiable() {
        let (mut bed, above, below, mut cache, log) = cache_of_two();
        let contradiction = [above, below];
        bed.ask(&mut cache, &feasibility(&[above]));
        bed.ask(&mut cache, &feasibility(&contradiction));
        let model_of = |constraints| Query {
            wants_model: true,
            ..feasibility(constraints)
        };
        let satisfiable = [above];
        assert!(matches!(
            bed.ask(&mut cache, &model_of(&satisfiable)),
            Answer::Sat(Some(_))
        ));
        assert!(matches!(
            bed.ask(&mut cache, &model_of(&contradiction)),
            Answer::Unsat
        ));
        assert_eq!(log.borrow().len(), 3);
    }

    #[test]
    fn known_only_answers_unknown_for_a_new_question() {
        let (mut bed, above, _, mut cache, log) = cache_of_two();
        let only = [above];
        let deferred = Query {
            effort: Effort::KnownOnly,
            ..feasibility(&only)
        };
        assert!(matches!(bed.ask(&mut cache, &deferred), Answer::Unknown));
        assert!(log.borrow().is_empty());
        bed.ask(&mut cache, &feasibility(&only));
        assert!(bed.ask(&mut cache, &deferred).is_sat());
    }
}
