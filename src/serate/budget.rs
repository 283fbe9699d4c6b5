//! A time limit on one rating, checked where the engine spends its time:
//! in the chainers' loops over cells, before each cell's work. Time
//! running out is sticky: once [`expired`] has said so, every later check
//! says so too, a chainer stops at once, and the run discards the step it
//! was on (a chainer stopped early may offer a hint that is not SE's).
//!
//! The limit lives with the thread that rates (each rating runs on one
//! thread, start to end), so the rules' signatures stay SE's.

use std::cell::Cell;
use std::time::Instant;

thread_local! {
    static DEADLINE: Cell<Option<Instant>> = const { Cell::new(None) };
    static EXPIRED: Cell<bool> = const { Cell::new(false) };
    static REACHED: Cell<f64> = const { Cell::new(0.0) };
}

/// Restores the thread's limit as it was, also on a panic.
struct Restore(Option<Instant>, bool, f64);

impl Drop for Restore {
    fn drop(&mut self) {
        DEADLINE.set(self.0);
        EXPIRED.set(self.1);
        REACHED.set(self.2);
    }
}

/// Runs `f` with `deadline` as this thread's limit (`None`: no limit) and
/// returns what it returns; the limit before is restored after.
pub(crate) fn within<T>(deadline: Option<Instant>, f: impl FnOnce() -> T) -> T {
    let _restore = Restore(DEADLINE.get(), EXPIRED.get(), REACHED.get());
    DEADLINE.set(deadline);
    EXPIRED.set(false);
    REACHED.set(0.0);
    f()
}

/// True once the limit has passed (and from then on).
pub(crate) fn expired() -> bool {
    if EXPIRED.get() {
        return true;
    }
    let past = DEADLINE.get().is_some_and(|d| Instant::now() >= d);
    if past {
        EXPIRED.set(true);
    }
    past
}

/// Notes that a chainer of base difficulty `base` has started on this
/// step: every rule before it found nothing, so the step rates at least
/// `base` (SE asks its chainers in rising order of base). A chainer
/// started after another stopped early proves nothing and is not noted.
pub(crate) fn reached(base: f64) {
    if !stopped() {
        REACHED.set(REACHED.get().max(base));
    }
}

/// True when a check has found the limit passed: a chainer stopped early
/// and the step under way is not SE's. Unlike [`expired`], it does not
/// look at the clock, so a step that needed no chainer stands even when
/// the limit passed during it.
pub(crate) fn stopped() -> bool {
    EXPIRED.get()
}

/// The highest base [`reached`] since [`start_step`].
pub(crate) fn step_floor() -> f64 {
    REACHED.get()
}

/// Starts a step: nothing reached yet.
pub(crate) fn start_step() {
    REACHED.set(0.0);
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn no_limit_never_expires_and_a_past_one_sticks() {
        assert!(!within(None, expired));
        let past = Instant::now();
        within(Some(past), || {
            assert!(expired());
            assert!(expired());
        });
        // The limit is the run's only: after it, none again.
        assert!(!expired());
        let far = Instant::now() + Duration::from_secs(3600);
        assert!(!within(Some(far), expired));
    }

    #[test]
    fn a_chainer_started_past_the_limit_raises_no_floor() {
        within(Some(Instant::now()), || {
            // The rules before the first chainer are never stopped.
            reached(6.5);
            assert!(!stopped(), "no check yet");
            assert!(expired() && stopped());
            reached(7.5);
            assert_eq!(step_floor(), 6.5);
        });
        within(None, || {
            reached(8.5);
            assert_eq!(step_floor(), 8.5);
        });
    }

    #[test]
    fn the_floor_is_the_highest_base_reached_this_step() {
        within(None, || {
            reached(6.5);
            reached(8.5);
            reached(7.5);
            assert_eq!(step_floor(), 8.5);
            start_step();
            assert_eq!(step_floor(), 0.0);
        });
    }
}
