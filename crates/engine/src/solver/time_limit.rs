//! Gives each query a time-out: what is left before the deadline, at most
//! the per-query limit (so that one hard query cannot eat the budget);
//! answers unknown at once when the search is cancelled or past its
//! deadline (even a 1 ms time-out lets Z3 spend long preprocessing a deep
//! term); and notes when a query asked in full came back unknown.

use super::interrupt::StopWhen;
use super::query::{Answer, Context, Effort, Query, QuerySolver};
use std::time::{Duration, Instant};

pub struct TimeLimit {
    stop: StopWhen,
    query_limit: Duration,
    inner: Box<dyn QuerySolver>,
}

impl TimeLimit {
    pub fn new(stop: StopWhen, query_limit: Duration, inner: Box<dyn QuerySolver>) -> TimeLimit {
        TimeLimit {
            stop,
            query_limit,
            inner,
        }
    }
}

/// The time the next query may take.
pub fn time_left(deadline: Instant, query_limit: Duration) -> Duration {
    deadline
        .saturating_duration_since(Instant::now())
        .min(query_limit)
}

impl QuerySolver for TimeLimit {
    fn solve(&mut self, query: &Query, cx: &mut Context) -> Answer {
        let answer = if self.stop.now() {
            Answer::Unknown
        } else {
            let limited = Query {
                effort: query
                    .effort
                    .at_most(time_left(self.stop.deadline, self.query_limit)),
                ..*query
            };
            self.inner.solve(&limited, cx)
        };
        if matches!(answer, Answer::Unknown) && query.effort == Effort::Full {
            *cx.gave_up = true;
        }
        answer
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::testing::{feasibility, number, probe_unknown, symbol, Bed};

    #[test]
    fn each_query_gets_at_most_the_query_limit_and_a_full_one_may_give_up() {
        let mut bed = Bed::default();
        let above = bed.intern(&symbol("x").bvugt(number(5)));
        let (probe, log) = probe_unknown();
        let limit = Duration::from_secs(2);
        let stop = StopWhen {
            deadline: Instant::now() + Duration::from_secs(60),
            cancel: None,
        };
        let mut timed = TimeLimit::new(stop, limit, probe);
        let only = [above];
        let brief = Query {
            effort: Effort::Within(Duration::from_millis(10)),
            ..feasibility(&only)
        };
        bed.ask(&mut timed, &brief);
        assert!(
            !bed.gave_up,
            "an unknown answer to a brief try is no failure"
        );
        assert_eq!(
            log.borrow()[0].effort,
            Effort::Within(Duration::from_millis(10))
        );
        bed.ask(&mut timed, &feasibility(&only));
        assert!(bed.gave_up);
        assert!(matches!(log.borrow()[1].effort, Effort::Within(d) if d <= limit));
    }

    #[test]
    fn past_the_deadline_nothing_is_asked() {
        let mut bed = Bed::default();
        let above = bed.intern(&symbol("x").bvugt(number(5)));
        let (probe, log) = probe_unknown();
        let stop = StopWhen {
            deadline: Instant::now(),
            cancel: None,
        };
        let mut timed = TimeLimit::new(stop, Duration::from_secs(2), probe);
        assert!(matches!(
            bed.ask(&mut timed, &feasibility(&[above])),
            Answer::Unknown
        ));
        assert!(log.borrow().is_empty());
    }

    #[test]
    fn a_cancelled_search_asks_nothing_more() {
        let mut bed = Bed::default();
        let above = bed.intern(&symbol("x").bvugt(number(5)));
        let (probe, log) = probe_unknown();
        let cancel = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(true));
        let stop = StopWhen {
            deadline: Instant::now() + Duration::from_secs(60),
            cancel: Some(cancel),
        };
        let mut timed = TimeLimit::new(stop, Duration::from_secs(2), probe);
        assert!(matches!(
            bed.ask(&mut timed, &feasibility(&[above])),
            Answer::Unknown
        ));
        assert!(log.borrow().is_empty());
        assert!(bed.gave_up);
    }
}
