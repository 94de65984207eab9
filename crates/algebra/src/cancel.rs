//! Cheap cooperative cancellation.
//!
//! The elimination loops report how much work they did (roughly: machine words or
//! field elements touched). Once enough work has accumulated for about a
//! millisecond of computation, the caller's callback is polled. This keeps the
//! callback out of the inner loops while still reacting within a few ms.

use crate::AlgebraError;

/// Work units (word or element operations) between two polls of the callback.
const POLL_INTERVAL: u64 = 1 << 20;

/// Wraps the caller's `cancel()` callback with a work counter.
pub(crate) struct Canceller<'a> {
    cancel: &'a dyn Fn() -> bool,
    work: u64,
}

impl<'a> Canceller<'a> {
    pub(crate) fn new(cancel: &'a dyn Fn() -> bool) -> Self {
        Canceller { cancel, work: 0 }
    }

    /// Polls the callback unconditionally.
    pub(crate) fn check(&mut self) -> Result<(), AlgebraError> {
        self.work = 0;
        if (self.cancel)() {
            Err(AlgebraError::Cancelled)
        } else {
            Ok(())
        }
    }

    /// Records `units` of work and polls the callback when enough has accumulated.
    #[inline]
    pub(crate) fn tick(&mut self, units: usize) -> Result<(), AlgebraError> {
        self.work = self.work.saturating_add(units as u64 + 1);
        if self.work >= POLL_INTERVAL {
            self.check()
        } else {
            Ok(())
        }
    }
}
