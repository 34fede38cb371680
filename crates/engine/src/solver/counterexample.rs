//! Counterexample reuse: the last model found often satisfies the next
//! question too (a path one branch longer), and checking it costs an
//! evaluation per constraint instead of a Z3 query.

use super::query::{Answer, Context, Query, QuerySolver};
use super::store::ConstraintId;
use z3::{Context as Z3Context, Model, Translate};

pub struct CounterexampleReuse {
    last_model: Option<Model>,
    /// Truth of each constraint in `last_model`, filled as asked.
    truth: Vec<Option<bool>>,
    inner: Box<dyn QuerySolver>,
}

impl CounterexampleReuse {
    pub fn new(inner: Box<dyn QuerySolver>) -> CounterexampleReuse {
        CounterexampleReuse {
            last_model: None,
            truth: Vec::new(),
            inner,
        }
    }

    fn last_model_satisfies(&mut self, ids: &[ConstraintId], cx: &Context) -> bool {
        let Some(model) = &self.last_model else {
            return false;
        };
        self.truth.resize(cx.store.count(), None);
        ids.iter().all(|id| {
            *self.truth[*id as usize].get_or_insert_with(|| {
                model
                    .eval(cx.store.constraint(*id), true)
                    .and_then(|b| b.as_bool())
                    == Some(true)
            })
        })
    }
}

impl QuerySolver for CounterexampleReuse {
    /// Answers only the questions that want no model: a model wanted (for
    /// a test) comes from Z3, asked for that very path.
    fn solve(&mut self, query: &Query, cx: &mut Context) -> Answer {
        if !query.wants_model
            && query.transient.is_none()
            && self.last_model_satisfies(query.constraints, cx)
        {
            cx.counts.from_last_model += 1;
            return Answer::Sat(None);
        }
        let with_model = Query {
            wants_model: true,
            ..*query
        };
        let answer = self.inner.solve(&with_model, cx);
        let Answer::Sat(Some(model)) = answer else {
            return answer;
        };
        self.truth.clear();
        if query.wants_model {
            // A model has one owner: the caller gets a copy.
            let copy = model.translate(&Z3Context::thread_local());
            self.last_model = Some(model);
            Answer::Sat(Some(copy))
        } else {
            self.last_model = Some(model);
            Answer::Sat(None)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::testing::{feasibility, number, probe_over_z3, symbol, Bed};

    #[test]
    fn the_last_model_answers_a_question_it_satisfies() {
        let mut bed = Bed::default();
        let x = symbol("x");
        let above_five = bed.intern(&x.bvugt(number(5)));
        let above_three = bed.intern(&x.bvugt(number(3)));
        let below_three = bed.intern(&x.bvult(number(3)));
        let (probe, log) = probe_over_z3();
        let mut reuse = CounterexampleReuse::new(probe);
        assert!(bed.ask(&mut reuse, &feasibility(&[above_five])).is_sat());
        assert_eq!(log.borrow().len(), 1);
        // Every model of x > 5 has x > 3.
        let weaker = [above_five, above_three];
        assert!(bed.ask(&mut reuse, &feasibility(&weaker)).is_sat());
        assert_eq!(log.borrow().len(), 1);
        assert_eq!(bed.counts.from_last_model, 1);
        // No model of x > 5 has x < 3: Z3 is asked, and says no.
        let contradiction = [above_five, below_three];
        assert!(matches!(
            bed.ask(&mut reuse, &feasibility(&contradiction)),
            Answer::Unsat
        ));
        assert_eq!(log.borrow().len(), 2);
    }

    #[test]
    fn a_wanted_model_is_asked_for_and_kept() {
        let mut bed = Bed::default();
        let x = symbol("x");
        let above_five = bed.intern(&x.bvugt(number(5)));
        let above_three = bed.intern(&x.bvugt(number(3)));
        let (probe, log) = probe_over_z3();
        let mut reuse = CounterexampleReuse::new(probe);
        let only = [above_five];
        let model_query = Query {
            wants_model: true,
            ..feasibility(&only)
        };
        assert!(matches!(
            bed.ask(&mut reuse, &model_query),
            Answer::Sat(Some(_))
        ));
        assert!(matches!(
            bed.ask(&mut reuse, &model_query),
            Answer::Sat(Some(_))
        ));
        assert_eq!(log.borrow().len(), 2);
        assert!(bed.ask(&mut reuse, &feasibility(&[above_three])).is_sat());
        assert_eq!(log.borrow().len(), 2);
        assert!(log.borrow().iter().all(|seen| seen.wants_model));
    }
}
