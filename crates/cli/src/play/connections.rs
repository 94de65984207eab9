//! The accept loop of `lights play`: HTTP/1.1 connections, each given a
//! bounded time to send a request's headers, and a bounded number open.
//!
//! - A connection that does not send a whole request header within the
//!   header timeout (the first request's or, kept alive, the next one's) is
//!   closed: idle and half-open connections do not stay.
//! - At most `max_connections` are open. A new client beyond the limit
//!   closes the oldest connection open for at least `IDLE_GRACE` that has
//!   never sent a request (it has nothing to lose), else the oldest such one
//!   with no request running (closed once its answer is written, as HTTP
//!   allows for kept-alive connections); if there is none, the new one
//!   waits until one ends or grows old enough (those behind it wait in the
//!   kernel's queue). So thousands of idle connections never keep a new
//!   client out for more than `IDLE_GRACE`, and a burst of honest clients,
//!   whose requests are on their way, is not cut off.
//! - A request's body must arrive within the header timeout too (else 408
//!   and the connection closes), so a request trickling its body cannot
//!   hold a connection, counted as running, for long.
//! - Out of file descriptors (`accept` fails), the same: an idle connection
//!   is closed, and the accept is tried again a moment later.

use std::collections::BTreeMap;
use std::future::Future;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use axum::extract::Request;
use axum::http::StatusCode;
use axum::response::IntoResponse;
use axum::Router;
use http_body_util::BodyExt;
use hyper::body::Incoming;
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::Notify;

use super::{error, Failure};

/// How connections are bounded.
#[derive(Clone, Copy, Debug)]
pub(super) struct Limits {
    /// The time a request's headers may take to arrive.
    pub(super) header_timeout: Duration,
    /// The connections open at once.
    pub(super) max_connections: usize,
    /// After the server is told to stop, how long requests running may take.
    pub(super) shutdown_grace: Duration,
}

/// How long a new connection may take to send its request before a newer
/// client may close it to make room (the header timeout, if shorter).
const IDLE_GRACE: Duration = Duration::from_millis(500);
/// After `accept` fails (out of file descriptors, say), how long to wait
/// before trying again.
const ACCEPT_RETRY: Duration = Duration::from_millis(10);

/// One open connection, as the accept loop sees it.
struct Connection {
    opened: Instant,
    /// Requests being answered on it now.
    running: AtomicUsize,
    /// Whether it has sent a request at all.
    asked: AtomicBool,
    /// Told when the connection is to close.
    close: Notify,
}

/// The open connections, oldest first.
#[derive(Default)]
struct Open {
    by_age: Mutex<(u64, BTreeMap<u64, Arc<Connection>>)>,
    /// Told whenever a connection ends.
    ended: Notify,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

impl Open {
    fn len(&self) -> usize {
        lock(&self.by_age).1.len()
    }

    fn add(&self) -> (u64, Arc<Connection>) {
        let mut open = lock(&self.by_age);
        let id = open.0;
        open.0 += 1;
        let connection = Arc::new(Connection {
            opened: Instant::now(),
            running: AtomicUsize::new(0),
            asked: AtomicBool::new(false),
            close: Notify::new(),
        });
        open.1.insert(id, connection.clone());
        (id, connection)
    }

    fn remove(&self, id: u64) {
        lock(&self.by_age).1.remove(&id);
        self.ended.notify_waiters();
    }

    /// Room for one more connection: at once under the limit, else by
    /// closing an idle one open for `grace`, else once one ends or an idle
    /// one has been open that long.
    async fn room(&self, max: usize, grace: Duration) {
        loop {
            let ended = self.ended.notified();
            let mut ended = std::pin::pin!(ended);
            // Registered before looking, so an end in between is not missed.
            ended.as_mut().enable();
            if self.len() < max {
                return;
            }
            match self.close_one_idle(grace) {
                Ok(()) => return,
                Err(Some(wait)) => {
                    tokio::select! {
                        () = ended => {}
                        () = tokio::time::sleep(wait) => {}
                    }
                }
                Err(None) => ended.await,
            }
        }
    }

    /// Close the oldest connection open for `grace` that never asked, else
    /// the oldest such one with no request running. If there is none: when
    /// the oldest idle one will be old enough (None: no idle one).
    fn close_one_idle(&self, grace: Duration) -> Result<(), Option<Duration>> {
        let mut open = lock(&self.by_age);
        let now = Instant::now();
        let idle = |c: &Connection| c.running.load(Ordering::Acquire) == 0;
        let old = |c: &Connection| now.duration_since(c.opened) >= grace;
        let chosen = open
            .1
            .iter()
            .find(|(_, c)| idle(c) && old(c) && !c.asked.load(Ordering::Acquire))
            .or_else(|| open.1.iter().find(|(_, c)| idle(c) && old(c)))
            .map(|(&id, _)| id);
        let Some(connection) = chosen.and_then(|id| open.1.remove(&id)) else {
            // The oldest idle one is the first to grow old enough.
            let first = open.1.values().find(|c| idle(c));
            return Err(first.map(|c| grace.saturating_sub(now.duration_since(c.opened))));
        };
        connection.close.notify_one();
        Ok(())
    }

    fn close_all(&self) {
        for connection in lock(&self.by_age).1.values() {
            connection.close.notify_one();
        }
    }
}

/// Counts a request as running while it lives.
struct Running(Arc<Connection>);

impl Running {
    fn start(connection: &Arc<Connection>) -> Running {
        connection.asked.store(true, Ordering::Release);
        connection.running.fetch_add(1, Ordering::AcqRel);
        Running(connection.clone())
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        self.0.running.fetch_sub(1, Ordering::AcqRel);
    }
}

/// Serve `router` on `listener` until `stop` ends, then give the requests
/// running `limits.shutdown_grace` to finish.
pub(super) async fn serve(listener: TcpListener, router: Router, limits: Limits, stop: impl Future<Output = ()>) {
    let open = Arc::new(Open::default());
    let mut stop = std::pin::pin!(stop);
    loop {
        let stream = tokio::select! {
            biased;
            () = &mut stop => break,
            accepted = listener.accept() => match accepted {
                Ok((stream, _)) => stream,
                Err(_) => {
                    // Out of descriptors, or a connection reset before it
                    // was accepted: free one and try again.
                    let _ = open.close_one_idle(Duration::ZERO);
                    tokio::time::sleep(ACCEPT_RETRY).await;
                    continue;
                }
            },
        };
        tokio::select! {
            biased;
            () = &mut stop => break,
            () = open.room(limits.max_connections, IDLE_GRACE.min(limits.header_timeout)) => {}
        }
        let (id, connection) = open.add();
        let open = open.clone();
        let router = router.clone();
        tokio::spawn(async move {
            serve_connection(stream, router, &connection, limits).await;
            open.remove(id);
        });
    }
    // Stopping: no new connections; those open finish what they run.
    open.close_all();
    let deadline = tokio::time::Instant::now() + limits.shutdown_grace;
    while open.len() > 0 && tokio::time::Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// The largest body read: axum's default limit, which the routes apply too.
const BODY_LIMIT: usize = 2 * 1024 * 1024;

/// The request with its body read in full, within `timeout`: 408 past it,
/// 413 over [`BODY_LIMIT`].
async fn read_body(request: Request<Incoming>, timeout: Duration) -> Result<Request, Failure> {
    let (parts, body) = request.into_parts();
    let read = tokio::time::timeout(timeout, http_body_util::Limited::new(body, BODY_LIMIT).collect()).await;
    match read {
        Ok(Ok(collected)) => Ok(Request::from_parts(parts, axum::body::Body::from(collected.to_bytes()))),
        Ok(Err(e)) if e.is::<http_body_util::LengthLimitError>() => {
            Err(error(StatusCode::PAYLOAD_TOO_LARGE, "the body is over 2 MB"))
        }
        Ok(Err(e)) => Err(error(StatusCode::BAD_REQUEST, format!("the body could not be read: {e}"))),
        Err(_) => Err(error(
            StatusCode::REQUEST_TIMEOUT,
            format!("the body did not arrive within {}", lights_ide::duration(timeout)),
        )),
    }
}

async fn serve_connection(stream: TcpStream, router: Router, connection: &Arc<Connection>, limits: Limits) {
    let counted = connection.clone();
    let service = hyper::service::service_fn(move |request: Request<Incoming>| {
        let running = Running::start(&counted);
        let mut router = router.clone();
        async move {
            let response = match read_body(request, limits.header_timeout).await {
                Ok(request) => tower_service::Service::call(&mut router, request).await,
                Err(failure) => Ok(failure.into_response()),
            };
            drop(running);
            response
        }
    });
    let mut builder = http1::Builder::new();
    builder.timer(TokioTimer::new()).header_read_timeout(limits.header_timeout);
    let mut served = std::pin::pin!(builder.serve_connection(TokioIo::new(stream), service));
    tokio::select! {
        _ = served.as_mut() => return,
        () = connection.close.notified() => {}
    }
    if !connection.asked.load(Ordering::Acquire) {
        return; // never asked: nothing to answer, closed at once
    }
    // Closed once the request running, if any, is answered.
    served.as_mut().graceful_shutdown();
    let _ = tokio::time::timeout(limits.shutdown_grace.max(limits.header_timeout), served).await;
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ids(open: &Open) -> Vec<u64> {
        lock(&open.by_age).1.keys().copied().collect()
    }

    #[test]
    fn the_oldest_that_never_asked_goes_first_then_the_oldest_idle() {
        let open = Open::default();
        let (_, asked_idle) = open.add(); // 0
        asked_idle.asked.store(true, Ordering::Release);
        let (_, running) = open.add(); // 1
        let request = Running::start(&running);
        let (_, never_asked) = open.add(); // 2
        let (_, never_asked_too) = open.add(); // 3
                                               // Too young to close: told how long until the oldest idle one is old enough.
        let grace = Duration::from_secs(3600);
        let wait = open.close_one_idle(grace).expect_err("a young connection was closed");
        assert!(wait.is_some_and(|w| w <= grace && w > grace / 2), "{wait:?}");
        assert_eq!(ids(&open), [0, 1, 2, 3]);
        // Old enough: the ones that never asked, oldest first, then the idle
        // one that asked; never the one running a request.
        for (closed, left) in [(&never_asked, vec![0, 1, 3]), (&never_asked_too, vec![0, 1]), (&asked_idle, vec![1])] {
            assert_eq!(open.close_one_idle(Duration::ZERO), Ok(()));
            assert_eq!(ids(&open), left);
            // Told to close (a permit is stored for its task).
            assert!(std::pin::pin!(closed.close.notified()).as_mut().enable());
        }
        assert_eq!(open.close_one_idle(Duration::ZERO), Err(None), "the running one was closed");
        drop(request);
        assert_eq!(open.close_one_idle(Duration::ZERO), Ok(()));
        assert!(ids(&open).is_empty());
    }
}
