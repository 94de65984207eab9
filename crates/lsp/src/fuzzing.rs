//! A driver for fuzzing the server (feature `fuzzing`): bytes in, a whole
//! session out, through the real transport.

use std::time::Duration;

use serde_json::{json, Value};
use tokio::io::{AsyncWriteExt, BufReader};
use tokio::sync::{mpsc, watch};

use crate::server::Options;

/// How long one message may take to be answered before the driver moves on.
const PER_MESSAGE: Duration = Duration::from_secs(2);

/// Run one session on `data`: `initialize` and `initialized`, then every
/// chunk of `data` between 0 bytes that is JSON, sent as a message (a
/// request is waited for, up to a bounded time), then `shutdown` and
/// `exit`. The server's requests are answered with `null`. Panics are not
/// caught: one in the server's transport surfaces here, and an internal
/// error in an answer (a panic the server turned into an error) becomes a
/// panic too. Bounded time: a few seconds per message at most.
pub fn drive(data: &[u8]) {
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("a tokio runtime");
    runtime.block_on(session(data));
    // Solves still running are left to finish on their own.
    runtime.shutdown_timeout(Duration::from_millis(100));
}

async fn session(data: &[u8]) {
    let options = Options { first_publish_wait: Duration::from_millis(10), ..Options::default() };
    let (service, socket) = crate::service(options);
    let (ours, theirs) = tokio::io::duplex(1 << 16);
    let (input, output) = tokio::io::split(theirs);
    // Tells the waits below that the server has stopped (or panicked).
    let (stopped_tx, stopped) = watch::channel(());
    let server = tokio::spawn(async move {
        crate::transport::serve(input, output, service, socket).await;
        drop(stopped_tx);
    });
    let (from_server, mut to_server) = tokio::io::split(ours);

    // Whatever goes to the server, in order.
    let (outgoing, mut queue) = mpsc::unbounded_channel::<Value>();
    let writer = tokio::spawn(async move {
        while let Some(msg) = queue.recv().await {
            let body = msg.to_string();
            let frame = format!("Content-Length: {}\r\n\r\n{body}", body.len());
            if to_server.write_all(frame.as_bytes()).await.is_err() || to_server.flush().await.is_err() {
                return;
            }
        }
    });
    // The server's output: its requests are answered, its responses passed on.
    let (responses_tx, mut responses) = mpsc::unbounded_channel::<Value>();
    let answers = outgoing.clone();
    let reader = tokio::spawn(async move {
        let mut from_server = BufReader::new(from_server);
        while let Some(frame) = crate::transport::read_frame(&mut from_server).await {
            let body = frame.windows(4).position(|w| w == b"\r\n\r\n").map_or(&frame[..], |at| &frame[at + 4..]);
            let Ok(msg) = serde_json::from_slice::<Value>(body) else { continue };
            match (msg.get("method"), msg.get("id")) {
                (Some(_), Some(id)) => {
                    let _ = answers.send(json!({"jsonrpc": "2.0", "id": id, "result": null}));
                }
                (None, Some(_)) => {
                    let _ = responses_tx.send(msg);
                }
                _ => {}
            }
        }
    });

    let mut waiter = Waiter { responses: &mut responses, stopped };
    let init = json!({"jsonrpc": "2.0", "id": "drive-initialize", "method": "initialize",
                      "params": {"capabilities": {}, "initializationOptions": {"lights": {"solver": {"timeBudgetMs": 200}}}}});
    let _ = outgoing.send(init);
    waiter.wait(&json!("drive-initialize")).await;
    let _ = outgoing.send(json!({"jsonrpc": "2.0", "method": "initialized", "params": {}}));
    for chunk in data.split(|&b| b == 0) {
        let Ok(msg) = serde_json::from_slice::<Value>(chunk) else { continue };
        let request = msg.get("method").and(msg.get("id")).cloned();
        let exit = msg["method"] == "exit";
        if outgoing.send(msg).is_err() || exit {
            break;
        }
        match request {
            Some(id) => waiter.wait(&id).await,
            None => tokio::task::yield_now().await,
        }
    }
    let _ = outgoing.send(json!({"jsonrpc": "2.0", "id": "drive-shutdown", "method": "shutdown"}));
    waiter.wait(&json!("drive-shutdown")).await;
    let _ = outgoing.send(json!({"jsonrpc": "2.0", "method": "exit"}));
    drop(outgoing);
    match tokio::time::timeout(PER_MESSAGE * 5, server).await {
        Ok(Err(e)) if e.is_panic() => std::panic::resume_unwind(e.into_panic()),
        _ => {}
    }
    writer.abort();
    reader.abort();
    while let Ok(r) = responses.try_recv() {
        check(&r);
    }
}

struct Waiter<'a> {
    responses: &'a mut mpsc::UnboundedReceiver<Value>,
    stopped: watch::Receiver<()>,
}

impl Waiter<'_> {
    /// Wait (a bounded time) for the response with `id` (or with id `null`,
    /// the answer to a message the transport could not read), checking every
    /// response on the way; not once the server has stopped.
    async fn wait(&mut self, id: &Value) {
        let Waiter { responses, stopped } = self;
        let answered = async {
            while let Some(r) = responses.recv().await {
                check(&r);
                if &r["id"] == id || r["id"].is_null() {
                    return;
                }
            }
        };
        tokio::select! {
            _ = tokio::time::timeout(PER_MESSAGE, answered) => {}
            _ = stopped.changed() => {}
        }
    }
}

/// An internal error is a panic the server caught, or a result it could not write.
fn check(response: &Value) {
    if response["error"]["code"] == -32603 {
        panic!("the server answered with an internal error: {response}");
    }
}
