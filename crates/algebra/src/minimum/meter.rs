//! The work meter shared by the branch-and-bound searchers: polls for
//! cancellation, counts the work units spent and stops at the budget.

use crate::cancel::Canceller;
use crate::AlgebraError;

/// Work accounting of one search.
pub(super) struct Meter<'c, 'a> {
    canc: &'c mut Canceller<'a>,
    /// Remaining work units, if limited.
    budget: Option<u64>,
    /// Work units spent.
    used: u64,
    /// `true` once a charge went over the budget.
    exhausted: bool,
}

impl<'c, 'a> Meter<'c, 'a> {
    /// A meter allowing `budget` work units (`None`: no limit).
    pub(super) fn new(budget: Option<u64>, canc: &'c mut Canceller<'a>) -> Self {
        Meter { canc, budget, used: 0, exhausted: false }
    }

    /// Charges `work` units; `false` once the budget is spent.
    pub(super) fn charge(&mut self, work: usize) -> Result<bool, AlgebraError> {
        self.canc.tick(work)?;
        self.used += work as u64;
        if let Some(b) = self.budget.as_mut() {
            if *b < work as u64 {
                *b = 0;
                self.exhausted = true;
                return Ok(false);
            }
            *b -= work as u64;
        }
        Ok(true)
    }

    /// Work units spent (including a charge that went over the budget).
    pub(super) fn used(&self) -> u64 {
        self.used
    }

    /// `true` once the budget has run out.
    pub(super) fn exhausted(&self) -> bool {
        self.exhausted
    }
}
