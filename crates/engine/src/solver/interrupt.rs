//! Cuts short the Z3 check in progress when the search must stop now: on
//! cancellation (Ctrl-C), which Z3's per-query time-out cannot see, and at
//! the deadline, as a guard besides that time-out; and when the check runs
//! far past its own limit. Z3's work limit (`rlimit`) does not count
//! bit-blasting: with a 5 ms limit, a fault query on a product of two
//! 64-bit quotients took 646 ms. The layers price that work in advance
//! (`store::blast_work`); this is the net under that estimate.
//!
//! `Z3_interrupt` may come from any thread, but outside a check it leaves a
//! flag set that makes the context's next operation fail (a `simplify` then
//! returns NULL, which the z3 crate turns into a panic) until a check
//! clears it. So the watchdog interrupts only while a check runs, and a
//! check that may have been interrupted just as it ended is followed by an
//! empty one, which clears the flag.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};
use z3::Params;

/// How often the watchdog looks at the clock and the cancel flag.
const POLL: Duration = Duration::from_millis(20);

/// A check still running after this many times its limit, plus
/// [`OVERRUN_SLACK`], is interrupted (and answers unknown). Generous: a
/// check that Z3's work limit stops in time is never cut by the clock,
/// whose verdict would change with the machine's load.
const OVERRUN_FACTOR: u32 = 4;
const OVERRUN_SLACK: Duration = Duration::from_millis(50);

/// The context of a check in progress.
struct RunningCheck(z3_sys::Z3_context);

// SAFETY: the pointer is only passed to `Z3_interrupt`, which Z3 documents
// as callable from another thread, and only while the check runs (the
// context is alive: its thread is inside the check).
unsafe impl Send for RunningCheck {}

#[derive(Default)]
struct InFlight {
    check: Option<RunningCheck>,
    /// When the check in progress has overrun its limit.
    overrun_at: Option<Instant>,
    /// Whether the check in progress received an interrupt.
    interrupted: bool,
}

/// The checks of one solver, which the watchdog may interrupt.
#[derive(Clone, Default)]
pub struct Checks {
    in_flight: Arc<Mutex<InFlight>>,
}

impl Checks {
    /// Runs `check`, a Z3 check on this thread's context limited to about
    /// `limit`; interrupted, it answers unknown.
    pub fn run<T>(&self, limit: Duration, check: impl FnOnce() -> T) -> T {
        let context = z3::Context::thread_local().get_z3_context();
        {
            let mut in_flight = self.in_flight();
            in_flight.check = Some(RunningCheck(context));
            let overrun = (limit.saturating_mul(OVERRUN_FACTOR)).saturating_add(OVERRUN_SLACK);
            in_flight.overrun_at = Instant::now().checked_add(overrun);
        }
        let result = check();
        let interrupted = {
            let mut in_flight = self.in_flight();
            in_flight.check = None;
            in_flight.overrun_at = None;
            std::mem::take(&mut in_flight.interrupted)
        };
        if interrupted {
            // The interrupt may have come after Z3 finished the check.
            let empty = z3::Solver::new();
            empty.set_params(&check_params(u64::MAX));
            empty.check();
        }
        result
    }

    /// Interrupts the check in progress, if any, when `stop` says so or it
    /// has overrun its limit; the time until the watchdog should look again.
    fn watch(&self, stop: &StopWhen) -> Duration {
        let mut in_flight = self.in_flight();
        let now = Instant::now();
        let overrun_at = in_flight.overrun_at;
        if let Some(RunningCheck(context)) = &in_flight.check {
            if stop.now() || overrun_at.is_some_and(|at| now >= at) {
                // SAFETY: see `RunningCheck`; the lock keeps the check running.
                unsafe { z3_sys::Z3_interrupt(*context) };
                in_flight.interrupted = true;
                in_flight.overrun_at = None;
            }
        }
        match in_flight.overrun_at {
            Some(at) => at.saturating_duration_since(now).min(POLL),
            None => POLL,
        }
    }

    /// A panic elsewhere cannot leave the state inconsistent: take it as is.
    fn in_flight(&self) -> MutexGuard<'_, InFlight> {
        self.in_flight
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
    }
}

/// Z3's work units ("rlimit") a check may spend per millisecond of its
/// limit: about what Z3 did in a millisecond on the reference machine
/// shared by three to four jobs (550 to 1,250, see BENCHMARKS.md). Checks are
/// limited by work, not by Z3's own time-out: with a time-out set, Z3
/// answers the same query with different models from run to run, and tests
/// would change with the machine's load. The search's deadline still
/// holds: the watchdog interrupts a check running past it.
const WORK_PER_MS: u64 = 1_000;

/// Z3's work units for about `limit` of checking.
pub fn work_for(limit: Duration) -> u64 {
    u64::try_from(limit.as_millis())
        .unwrap_or(u64::MAX)
        .saturating_mul(WORK_PER_MS)
}

/// Reads the work Z3 has done on this thread's context: unlike time, the
/// same on every run, so a budget of work decides the same way each time.
pub struct WorkMeter(z3::Solver);

impl WorkMeter {
    pub fn new() -> WorkMeter {
        WorkMeter(z3::Solver::new())
    }

    /// The work units of every check made so far (a solver's statistics
    /// carry the context's count).
    pub fn done(&self) -> u64 {
        match self.0.get_statistics().value("rlimit count") {
            Some(z3::StatisticsValue::UInt(count)) => u64::from(count),
            // Past what 32 bits hold, Z3 reports the count as a double.
            Some(z3::StatisticsValue::Double(count)) => count as u64,
            None => 0,
        }
    }
}

/// The parameters of a check limited to `work` units. Z3 would otherwise
/// catch SIGINT during a check, which would then only cut that check
/// short, and cairn would never see the Ctrl-C.
pub fn check_params(work: u64) -> Params {
    let mut params = Params::new();
    // 0 means no limit to Z3: a limit that large is none either.
    params.set_u32("rlimit", u32::try_from(work.max(1)).unwrap_or(0));
    params.set_bool("ctrl_c", false);
    params
}

/// When a search must stop: at its deadline, or once `cancel` is set.
#[derive(Clone, Debug)]
pub struct StopWhen {
    pub deadline: Instant,
    pub cancel: Option<Arc<AtomicBool>>,
}

impl StopWhen {
    pub fn now(&self) -> bool {
        let cancelled = self
            .cancel
            .as_ref()
            .is_some_and(|c| c.load(Ordering::Relaxed));
        cancelled || Instant::now() >= self.deadline
    }
}

/// A thread that interrupts `checks` whenever a check runs once the search
/// must stop; it ends when dropped.
pub struct Watchdog {
    dropped: Arc<AtomicBool>,
}

impl Watchdog {
    pub fn start(checks: Checks, stop: StopWhen) -> Watchdog {
        let dropped = Arc::new(AtomicBool::new(false));
        let gone = dropped.clone();
        let watch = move || {
            while !gone.load(Ordering::Relaxed) {
                std::thread::sleep(checks.watch(&stop));
            }
        };
        // Without the thread, Z3's per-query time-out still bounds each
        // check; only a cancellation then waits for the current one.
        let _ = std::thread::Builder::new()
            .name("cairn-watchdog".into())
            .spawn(watch);
        Watchdog { dropped }
    }
}

impl Drop for Watchdog {
    fn drop(&mut self) {
        self.dropped.store(true, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use z3::ast::{Ast, Bool, BV};
    use z3::{SatResult, Solver};

    /// Two 32-bit factors of a 64-bit number: minutes of bit-blasting.
    fn hard_formula() -> Bool {
        let x = BV::new_const("x", 64);
        let y = BV::new_const("y", 64);
        let one = BV::from_u64(1, 64);
        let bound = BV::from_u64(1 << 32, 64);
        Bool::and(&[
            x.bvmul(&y).eq(BV::from_u64(0x9f3a_5c71_2b4d_e6a7, 64)),
            x.bvugt(&one),
            y.bvugt(&one),
            x.bvult(&bound),
            y.bvult(&bound),
        ])
    }

    #[test]
    fn cancelling_stops_a_long_check_and_leaves_the_context_usable() {
        let checks = Checks::default();
        let cancel = Arc::new(AtomicBool::new(false));
        let stop = StopWhen {
            deadline: Instant::now() + Duration::from_secs(600),
            cancel: Some(cancel.clone()),
        };
        let _watchdog = Watchdog::start(checks.clone(), stop);
        let solver = Solver::new();
        solver.assert(hard_formula());
        let setter = std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(200));
            cancel.store(true, Ordering::Relaxed);
        });
        let start = Instant::now();
        let long = Duration::from_secs(600);
        assert_eq!(checks.run(long, || solver.check()), SatResult::Unknown);
        assert!(start.elapsed() < Duration::from_secs(5));
        setter.join().expect("setter thread");
        let a = BV::new_const("a", 32);
        assert_eq!((a.clone() + BV::from_u64(0, 32)).simplify(), a);
    }

    #[test]
    fn an_interrupt_as_a_check_ends_does_not_fail_what_follows() {
        let checks = Checks::default();
        let solver = Solver::new();
        let a = BV::new_const("a", 32);
        solver.assert(a.bvugt(BV::from_u64(3, 32)));
        let stopped = StopWhen {
            deadline: Instant::now(),
            cancel: None,
        };
        let result = checks.run(Duration::from_secs(600), || {
            let result = solver.check();
            checks.watch(&stopped);
            result
        });
        assert_eq!(result, SatResult::Sat);
        assert_eq!((a.clone() + BV::from_u64(0, 32)).simplify(), a);
    }

    #[test]
    fn the_deadline_stops_a_check_without_a_time_out() {
        let checks = Checks::default();
        let stop = StopWhen {
            deadline: Instant::now() + Duration::from_millis(200),
            cancel: None,
        };
        let _watchdog = Watchdog::start(checks.clone(), stop);
        let solver = Solver::new();
        solver.assert(hard_formula());
        let start = Instant::now();
        let long = Duration::from_secs(600);
        assert_eq!(checks.run(long, || solver.check()), SatResult::Unknown);
        assert!(start.elapsed() < Duration::from_secs(5));
    }

    #[test]
    fn a_check_far_past_its_own_limit_is_stopped() {
        let checks = Checks::default();
        let stop = StopWhen {
            deadline: Instant::now() + Duration::from_secs(600),
            cancel: None,
        };
        let _watchdog = Watchdog::start(checks.clone(), stop);
        let solver = Solver::new();
        solver.assert(hard_formula());
        let start = Instant::now();
        let brief = Duration::from_millis(10);
        assert_eq!(checks.run(brief, || solver.check()), SatResult::Unknown);
        assert!(start.elapsed() < Duration::from_secs(5));
    }
}
