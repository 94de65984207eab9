//! The solves `lights play` runs at once: one per core, and a short queue
//! of requests waiting for a turn. A request beyond the queue is answered
//! 503 with `Retry-After` at once, so that 200 clients cost the threads and
//! memory of a few solves, not of 200.

use std::sync::atomic::{AtomicUsize, Ordering};

use axum::http::StatusCode;
use tokio::sync::{Semaphore, SemaphorePermit};

use super::{error, Failure};

/// How many requests may wait for a turn, per solve that may run.
const WAITING_PER_SOLVER: usize = 8;
/// What a refused client is told to wait before asking again, in seconds.
pub(super) const RETRY_AFTER_SECONDS: u32 = 1;

pub(super) struct SolvePool {
    turns: Semaphore,
    waiting: AtomicUsize,
    max_waiting: usize,
}

/// Counts a request as waiting while it lives.
struct Waiting<'a>(&'a AtomicUsize);

impl Drop for Waiting<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::AcqRel);
    }
}

impl SolvePool {
    /// `solvers` solves at once (at least one).
    pub(super) fn new(solvers: usize) -> SolvePool {
        let solvers = solvers.max(1);
        SolvePool {
            turns: Semaphore::new(solvers),
            waiting: AtomicUsize::new(0),
            max_waiting: solvers * WAITING_PER_SOLVER,
        }
    }

    /// One solve per core of this machine.
    pub(super) fn per_core() -> SolvePool {
        SolvePool::new(std::thread::available_parallelism().map_or(1, std::num::NonZero::get))
    }

    /// The solves that may run at once.
    pub(super) fn solvers(&self) -> usize {
        self.max_waiting / WAITING_PER_SOLVER
    }

    /// A turn to solve (held until dropped): at once if one is free, after
    /// the solves ahead if the queue has room, else a 503 to retry later.
    /// A request dropped while it waits (its client went away) leaves the
    /// queue.
    pub(super) async fn turn(&self) -> Result<SemaphorePermit<'_>, Failure> {
        if let Ok(permit) = self.turns.try_acquire() {
            return Ok(permit);
        }
        if self.waiting.fetch_add(1, Ordering::AcqRel) >= self.max_waiting {
            self.waiting.fetch_sub(1, Ordering::AcqRel);
            return Err(busy());
        }
        let _waiting = Waiting(&self.waiting);
        // The semaphore is never closed.
        self.turns.acquire().await.map_err(|_| busy())
    }
}

fn busy() -> Failure {
    let mut failure = error(
        StatusCode::SERVICE_UNAVAILABLE,
        format!("the server is busy solving for other requests; ask again in {RETRY_AFTER_SECONDS} s"),
    );
    failure.retry_after = Some(RETRY_AFTER_SECONDS);
    failure
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn turns_then_a_bounded_queue_then_busy() {
        let pool = SolvePool::new(2);
        let first = pool.turn().await.ok().unwrap();
        let _second = pool.turn().await.ok().unwrap();
        // Both turns taken: 16 may wait, the 17th is told to come back.
        let waiters: Vec<_> = (0..16).map(|_| Box::pin(pool.turn())).collect();
        let mut waiters = waiters;
        for w in &mut waiters {
            assert!(futures_poll_once(w.as_mut()).is_none(), "a turn was given while none was free");
        }
        assert_eq!(pool.waiting.load(Ordering::Acquire), 16);
        let refused = pool.turn().await.expect_err("the 17th waiter was queued");
        assert_eq!(refused.status, StatusCode::SERVICE_UNAVAILABLE);
        assert_eq!(refused.retry_after, Some(RETRY_AFTER_SECONDS));
        // A waiter that goes away leaves the queue; a turn given back goes on.
        waiters.pop();
        assert_eq!(pool.waiting.load(Ordering::Acquire), 15);
        drop(first);
        let next = waiters.remove(0).await;
        assert!(next.is_ok());
        assert_eq!(pool.waiting.load(Ordering::Acquire), 14);
    }

    /// Poll a future once; its output if it was ready.
    fn futures_poll_once<F: std::future::Future>(f: std::pin::Pin<&mut F>) -> Option<F::Output> {
        let waker = std::task::Waker::noop();
        match f.poll(&mut std::task::Context::from_waker(waker)) {
            std::task::Poll::Ready(v) => Some(v),
            std::task::Poll::Pending => None,
        }
    }
}
