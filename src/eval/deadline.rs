//! A deadline that evaluation checks as it goes (`render --timeout`).
//!
//! [`within`] runs a closure under a deadline. Evaluation calls [`checkpoint`] at every
//! expression, every iteration of a `for` expression or template directive, every user-function
//! call, every block and inside the built-in functions that loop over many elements; once the
//! deadline has passed, the next checkpoint unwinds straight back to [`within`], which returns
//! [`Expired`]. Unwinding (rather than an error value) is what makes the stop certain: no `try`,
//! `can` or error-collecting loop in between can swallow it, and no code path has to remember
//! to propagate it. The unwind uses [`std::panic::resume_unwind`], which runs no panic hook, so
//! nothing is printed; anything between a checkpoint and [`within`] that catches unwinds must
//! hand an [`Expired`] payload on (see [`is_expired`]).
//!
//! The deadline is per thread, so `check`'s parallel workers are unaffected by a render's.
//!
//! [`within_or_cancelled`] adds a flag another thread may raise (`function serve`: the caller
//! went away, or the server is stopping): the same checkpoints read it and unwind alike.

use std::any::Any;
use std::cell::{Cell, RefCell};
use std::panic::{AssertUnwindSafe, catch_unwind, resume_unwind};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// How many checkpoints pass between two readings of the clock. A checkpoint is at most a few
/// microseconds of work, so the clock is read at least every few milliseconds while costing
/// nothing measurable.
const CLOCK_EVERY: u32 = 256;

thread_local! {
    static DEADLINE: Cell<Option<Instant>> = const { Cell::new(None) };
    static TICKS: Cell<u32> = const { Cell::new(0) };
    static CANCEL: RefCell<Option<Arc<AtomicBool>>> = const { RefCell::new(None) };
}

/// The deadline passed before the work finished.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Expired;

/// Runs `work` under `deadline` (none: no limit), or returns [`Expired`] when the deadline
/// passes first — at once if it has already passed. A deadline set by an enclosing call still
/// applies when it is the earlier one.
pub fn within<T>(deadline: Option<Instant>, work: impl FnOnce() -> T) -> Result<T, Expired> {
    let outer = DEADLINE.get();
    let effective = match (outer, deadline) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    };
    if effective.is_some_and(|d| Instant::now() >= d) {
        return Err(Expired);
    }
    /// Puts the enclosing deadline back however `work` ends.
    struct Restore(Option<Instant>);
    impl Drop for Restore {
        fn drop(&mut self) {
            DEADLINE.set(self.0);
        }
    }
    let _restore = Restore(outer);
    DEADLINE.set(effective);
    match catch_unwind(AssertUnwindSafe(work)) {
        Ok(value) => Ok(value),
        Err(payload) if is_expired(payload.as_ref()) => Err(Expired),
        Err(payload) => resume_unwind(payload),
    }
}

/// Notes one unit of work; unwinds to [`within`] when the deadline has passed (the clock is
/// read every [`CLOCK_EVERY`] calls).
#[inline]
pub fn checkpoint() {
    let ticks = TICKS.get().wrapping_add(1);
    TICKS.set(ticks);
    if ticks % CLOCK_EVERY == 0 {
        check_clock();
    }
}

#[cold]
fn check_clock() {
    let cancelled =
        || CANCEL.with_borrow(|c| c.as_ref().is_some_and(|f| f.load(Ordering::Relaxed)));
    if DEADLINE.get().is_some_and(|d| Instant::now() >= d) || cancelled() {
        resume_unwind(Box::new(Expired));
    }
}

/// As [`within`], and also stops (with [`Expired`]) once `cancel` is raised, by this thread or
/// any other; the flag is read where the clock is.
pub fn within_or_cancelled<T>(
    deadline: Option<Instant>,
    cancel: &Arc<AtomicBool>,
    work: impl FnOnce() -> T,
) -> Result<T, Expired> {
    if cancel.load(Ordering::Relaxed) {
        return Err(Expired);
    }
    /// Puts the enclosing flag back however `work` ends.
    struct Restore(Option<Arc<AtomicBool>>);
    impl Drop for Restore {
        fn drop(&mut self) {
            let outer = self.0.take();
            CANCEL.with_borrow_mut(|c| *c = outer);
        }
    }
    let outer = CANCEL.with_borrow_mut(|c| c.replace(Arc::clone(cancel)));
    let _restore = Restore(outer);
    within(deadline, work)
}

/// Whether an unwind's payload is the deadline's: code that catches unwinds (a built-in
/// function's panic guard) must resume these.
pub fn is_expired(payload: &(dyn Any + Send)) -> bool {
    payload.is::<Expired>()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    fn spin() {
        loop {
            checkpoint();
        }
    }

    #[test]
    fn an_endless_loop_stops_at_the_deadline() {
        let deadline = Instant::now() + Duration::from_millis(20);
        assert_eq!(within(Some(deadline), spin), Err(Expired));
        // The deadline is gone once `within` returns.
        assert_eq!(DEADLINE.get(), None);
        for _ in 0..10 * CLOCK_EVERY {
            checkpoint();
        }
    }

    #[test]
    fn work_that_finishes_returns_its_value() {
        let deadline = Instant::now() + Duration::from_secs(60);
        assert_eq!(within(Some(deadline), || 42), Ok(42));
        assert_eq!(within(None, || 7), Ok(7));
    }

    #[test]
    fn a_passed_deadline_fails_before_starting() {
        let mut ran = false;
        let past = Instant::now() - Duration::from_millis(1);
        assert_eq!(within(Some(past), || ran = true), Err(Expired));
        assert!(!ran);
    }

    #[test]
    fn an_enclosing_deadline_still_applies() {
        let soon = Instant::now() + Duration::from_millis(20);
        let outer = within(Some(soon), || within(None, spin));
        // The inner call saw the outer deadline and reported it.
        assert_eq!(outer, Ok(Err(Expired)));
    }

    #[test]
    fn a_raised_flag_stops_the_work() {
        let cancel = Arc::new(AtomicBool::new(false));
        let raiser = Arc::clone(&cancel);
        let far = Instant::now() + Duration::from_secs(3600);
        let thread = std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(10));
            raiser.store(true, Ordering::Relaxed);
        });
        assert_eq!(within_or_cancelled(Some(far), &cancel, spin), Err(Expired));
        thread.join().unwrap();
        // Raised before the start: nothing runs.
        let mut ran = false;
        assert_eq!(
            within_or_cancelled(None, &cancel, || ran = true),
            Err(Expired)
        );
        assert!(!ran);
        // The flag is gone once the call returns.
        assert!(CANCEL.with_borrow(Option::is_none));
        let fresh = Arc::new(AtomicBool::new(false));
        assert_eq!(within_or_cancelled(None, &fresh, || 5), Ok(5));
    }

    #[test]
    fn other_panics_pass_through() {
        let deadline = Instant::now() + Duration::from_secs(60);
        let caught = catch_unwind(|| within(Some(deadline), || resume_unwind(Box::new("boom"))));
        let payload = caught.expect_err("the panic reached the caller");
        assert_eq!(payload.downcast_ref::<&str>(), Some(&"boom"));
        assert_eq!(DEADLINE.get(), None);
    }
}
