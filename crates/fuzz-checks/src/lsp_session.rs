//! [`lsp`](crate::lsp)'s driver: any bytes make a whole session with the
//! language server, in process, spoken by the tests' own client
//! (`lights-test-client`: its framing, its answers to the server's
//! requests), so the fuzzer and the tests read and write LSP one way.

use std::io::{Read, Write};
use std::time::Duration;

use lights_lsp::Options;
use lights_test_client::{frame_json, is_response, Client};
use serde_json::{json, Value};
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};
use tokio::runtime::Handle;

/// How long one message may take to be answered before the driver moves on.
const PER_MESSAGE: Duration = Duration::from_secs(2);

/// One end of the in-memory connection, read or written from a plain
/// thread (the test client's), the runtime doing the work.
struct Blocking<T> {
    io: T,
    runtime: Handle,
}

impl<T: AsyncRead + Unpin> Read for Blocking<T> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        self.runtime.block_on(self.io.read(buf))
    }
}

impl<T: AsyncWrite + Unpin> Write for Blocking<T> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.runtime.block_on(self.io.write(buf))
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.runtime.block_on(self.io.flush())
    }
}

/// Run one session on `data`: `initialize` and `initialized`, then every
/// chunk of `data` between 0 bytes that is JSON, sent as a message (a
/// request is waited for, up to a bounded time), then `shutdown` and
/// `exit`, through the real transport. The server's requests are answered
/// as an editor answers them. Panics are not caught: one in the server's
/// transport surfaces here; a frame the client cannot read, and an internal
/// error in an answer (a panic the server turned into an error), become
/// panics too. Bounded time: a few seconds per message at most.
pub(crate) fn drive(data: &[u8]) {
    let runtime =
        tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().expect("a tokio runtime");
    let options = Options { first_publish_wait: Duration::from_millis(10), ..Options::default() };
    let (service, socket) = lights_lsp::service(options);
    let (ours, theirs) = tokio::io::duplex(1 << 16);
    let (input, output) = tokio::io::split(theirs);
    let server = runtime.spawn(lights_lsp::serve(input, output, service, socket));
    let (from_server, to_server) = tokio::io::split(ours);
    let handle = runtime.handle();
    let mut client = Client::over(
        Blocking { io: from_server, runtime: handle.clone() },
        Blocking { io: to_server, runtime: handle.clone() },
    );
    session(&mut client, data);
    drop(client);
    // (The timer is made inside the runtime, which it needs.)
    let ended = runtime.block_on(async { tokio::time::timeout(PER_MESSAGE * 5, server).await });
    if let Ok(Err(e)) = ended {
        if e.is_panic() {
            std::panic::resume_unwind(e.into_panic());
        }
    }
    // Solves still running are left to finish on their own.
    runtime.shutdown_timeout(Duration::from_millis(100));
}

fn session(c: &mut Client, data: &[u8]) {
    let init = json!({"jsonrpc": "2.0", "id": "drive-initialize", "method": "initialize",
                      "params": {"capabilities": {}, "initializationOptions": {"lights": {"solver": {"timeBudgetMs": 200}}}}});
    if send(c, &init) {
        answered(c, &json!("drive-initialize"));
    }
    send(c, &json!({"jsonrpc": "2.0", "method": "initialized", "params": {}}));
    for chunk in data.split(|&b| b == 0) {
        let Ok(msg) = serde_json::from_slice::<Value>(chunk) else { continue };
        let request = msg.get("method").and(msg.get("id")).cloned();
        let exit = msg["method"] == "exit";
        if !send(c, &msg) || exit {
            break;
        }
        if let Some(id) = request {
            answered(c, &id);
        }
    }
    if send(c, &json!({"jsonrpc": "2.0", "id": "drive-shutdown", "method": "shutdown"})) {
        answered(c, &json!("drive-shutdown"));
    }
    send(c, &json!({"jsonrpc": "2.0", "method": "exit"}));
    c.close_input();
    c.drain(Duration::ZERO);
    for response in c.received.iter().filter(|m| is_response(m)) {
        check(response);
    }
}

/// Send one message; false when the server no longer reads (it has stopped).
fn send(c: &mut Client, msg: &Value) -> bool {
    c.send_raw(&frame_json(msg)).is_ok()
}

/// Wait (a bounded time) for the response with `id`, or with id `null` (the
/// answer to a message the transport could not read), and take it; not
/// once the server has stopped.
fn answered(c: &mut Client, id: &Value) {
    let this = |m: &Value| is_response(m) && (&m["id"] == id || m["id"].is_null());
    if c.arrives_within(PER_MESSAGE, this) {
        c.wait_for_within("the response", Duration::ZERO, this);
    }
}

/// An internal error is a panic the server caught, or a result it could not write.
fn check(response: &Value) {
    assert!(response["error"]["code"] != -32603, "the server answered with an internal error: {response}");
}
