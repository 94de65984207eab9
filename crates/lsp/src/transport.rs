//! The stdio transport, with a guard in front of the protocol library.
//!
//! `tower-lsp-server` reads frames with tokio-util's `FramedRead`, which ends
//! the stream after the first frame it cannot decode — so one malformed
//! message would make the server exit. The guard reads the frames itself,
//! answers undecodable ones with a JSON-RPC error (as the library would),
//! resynchronises after a bad header, and forwards only well-formed messages.
//! The library's output goes through the same writer as those answers, so
//! frames never interleave. The library serves the server through the
//! layer in `rpc`.

use std::sync::atomic::Ordering;
use std::time::Duration;

use serde_json::{json, Value};
use tokio::io::{AsyncBufRead, AsyncBufReadExt, AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt, BufReader};
use tokio::sync::mpsc;
use tower_lsp_server::jsonrpc::{Request, Response};
use tower_lsp_server::{ClientSocket, LspService};

use crate::rpc::Rpc;
use crate::server::Server;

/// Messages larger than this are declined (and skipped).
const MAX_MESSAGE: usize = 512 << 20;
const HEADER: &str = "Content-Length:";

/// How a session ended, for the exit status of `lights lsp`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    /// `shutdown` was answered before `exit` (or before the input ended).
    AfterShutdown,
    /// `exit` (or the end of the input) came without a `shutdown` first.
    WithoutShutdown,
}

impl Ending {
    /// 0 after `shutdown`, else 1, as the LSP specification asks of `exit`.
    pub fn exit_status(self) -> u8 {
        match self {
            Ending::AfterShutdown => 0,
            Ending::WithoutShutdown => 1,
        }
    }
}

/// Serve `service` on the given input and output until `exit` or end of
/// input; says whether `shutdown` came first.
pub async fn serve<I, O>(input: I, output: O, service: LspService<Server>, socket: ClientSocket) -> Ending
where
    I: AsyncRead + Unpin + Send + 'static,
    O: AsyncWrite + Unpin + Send + 'static,
{
    let (to_server, server_in) = tokio::io::duplex(1 << 16);
    let (server_out, from_server) = tokio::io::duplex(1 << 16);
    let (answers_tx, answers_rx) = mpsc::unbounded_channel();
    let reader = tokio::spawn(filter_input(BufReader::new(input), to_server, answers_tx));
    let writer = tokio::spawn(write_output(BufReader::new(from_server), answers_rx, output));
    let (service, shutdown) = Rpc::new(service);
    tower_lsp_server::Server::new(server_in, server_out, socket).serve(service).await;
    reader.abort();
    // The library's output is closed: let the writer flush what is left.
    let _ = tokio::time::timeout(Duration::from_secs(2), writer).await;
    if shutdown.load(Ordering::SeqCst) {
        Ending::AfterShutdown
    } else {
        Ending::WithoutShutdown
    }
}

/// Copy well-formed frames from `input` to the library; answer the others.
async fn filter_input<R, W>(mut input: R, mut to_server: W, answers: mpsc::UnboundedSender<Value>)
where
    R: AsyncBufRead + Unpin,
    W: AsyncWrite + Unpin,
{
    let mut line = Vec::new();
    // A header line carried over after resynchronising on a bad frame.
    let mut pending: Option<Vec<u8>> = None;
    loop {
        // Headers, up to the blank line.
        let mut length: Option<Result<usize, ()>> = None;
        let mut saw_header = false;
        loop {
            let current = match pending.take() {
                Some(l) => l,
                None => {
                    line.clear();
                    match input.read_until(b'\n', &mut line).await {
                        Ok(0) | Err(_) => return, // end of input: the library sees EOF and stops
                        Ok(_) => line.clone(),
                    }
                }
            };
            let text = String::from_utf8_lossy(&current);
            let trimmed = text.trim_end_matches(['\r', '\n']);
            if trimmed.is_empty() {
                if saw_header {
                    break;
                }
                continue; // stray blank line between messages
            }
            saw_header = true;
            if let Some((name, value)) = trimmed.split_once(':') {
                if name.trim().eq_ignore_ascii_case("content-length") {
                    length = Some(value.trim().parse::<usize>().map_err(|_| ()));
                }
            }
        }
        let Some(Ok(len)) = length else {
            let _ = answers.send(error(Value::Null, -32700, "Parse error: missing or invalid Content-Length header"));
            pending = resync(&mut input).await;
            if pending.is_none() {
                return;
            }
            continue;
        };
        if len > MAX_MESSAGE {
            let _ = answers.send(error(Value::Null, -32600, "Invalid request: message too large"));
            if tokio::io::copy(&mut (&mut input).take(len as u64), &mut tokio::io::sink()).await.is_err() {
                return;
            }
            continue;
        }
        let mut body = vec![0; len];
        if input.read_exact(&mut body).await.is_err() {
            return;
        }
        match check(&body) {
            Ok(()) => {
                let header = format!("Content-Length: {len}\r\n\r\n");
                if to_server.write_all(header.as_bytes()).await.is_err() || to_server.write_all(&body).await.is_err() {
                    return;
                }
                let _ = to_server.flush().await;
            }
            Err(answer) => {
                let _ = answers.send(answer);
            }
        }
    }
}

/// Whether the library can decode `body`; otherwise the error to answer.
fn check(body: &[u8]) -> Result<(), Value> {
    let value: Value = match serde_json::from_slice(body) {
        Ok(v) => v,
        Err(e) => return Err(error(Value::Null, -32700, &format!("Parse error: {e}"))),
    };
    // (Checked by key first: a missing `result` would deserialise as null.)
    let has = |key: &str| value.get(key).is_some();
    let request = has("method") && serde_json::from_value::<Request>(value.clone()).is_ok();
    let response = (has("result") || has("error")) && serde_json::from_value::<Response>(value.clone()).is_ok();
    if request || response {
        return Ok(());
    }
    let id = value.get("id").filter(|id| id.is_i64() || id.is_string()).cloned().unwrap_or(Value::Null);
    Err(error(id, -32600, "Invalid request: not a JSON-RPC 2.0 request, notification or response"))
}

fn error(id: Value, code: i64, message: &str) -> Value {
    json!({"jsonrpc": "2.0", "error": {"code": code, "message": message}, "id": id})
}

/// After a bad header block: skip input up to the next `Content-Length:`
/// and return the header line starting there (`None` at end of input).
async fn resync<R: AsyncBufRead + Unpin>(input: &mut R) -> Option<Vec<u8>> {
    let mut line = Vec::new();
    loop {
        line.clear();
        match input.read_until(b'\n', &mut line).await {
            Ok(0) | Err(_) => return None,
            Ok(_) => {}
        }
        let text = String::from_utf8_lossy(&line);
        if let Some(at) = text.find(HEADER) {
            return Some(text[at..].as_bytes().to_vec());
        }
    }
}

/// Write the library's frames and the guard's answers to `output`, one
/// whole frame at a time.
async fn write_output<R, O>(mut from_server: R, mut answers: mpsc::UnboundedReceiver<Value>, mut output: O)
where
    R: AsyncBufRead + Unpin,
    O: AsyncWrite + Unpin,
{
    let mut answers_open = true;
    loop {
        tokio::select! {
            frame = read_frame(&mut from_server) => match frame {
                Some(frame) => {
                    if output.write_all(&frame).await.is_err() {
                        return;
                    }
                    let _ = output.flush().await;
                }
                None => break,
            },
            answer = answers.recv(), if answers_open => match answer {
                Some(answer) => {
                    let body = answer.to_string();
                    let frame = format!("Content-Length: {}\r\n\r\n{body}", body.len());
                    if output.write_all(frame.as_bytes()).await.is_err() {
                        return;
                    }
                    let _ = output.flush().await;
                }
                None => answers_open = false,
            },
        }
    }
    let _ = output.flush().await;
}

/// One frame (headers and body) of the library's own, well-formed output.
pub(crate) async fn read_frame<R: AsyncBufRead + Unpin>(input: &mut R) -> Option<Vec<u8>> {
    let mut frame = Vec::new();
    let mut len = 0usize;
    loop {
        let start = frame.len();
        if input.read_until(b'\n', &mut frame).await.ok()? == 0 {
            return None;
        }
        let line = String::from_utf8_lossy(&frame[start..]).trim_end().to_string();
        if line.is_empty() {
            break;
        }
        if let Some(value) = line.strip_prefix(HEADER) {
            len = value.trim().parse().ok()?;
        }
    }
    let start = frame.len();
    frame.resize(start + len, 0);
    input.read_exact(&mut frame[start..]).await.ok()?;
    Some(frame)
}
