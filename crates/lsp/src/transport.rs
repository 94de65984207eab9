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

/// Messages larger than this are answered with an error and skipped.
const MAX_MESSAGE: usize = 512 << 20;
/// Requests handled at once. The library's default (4) would let four slow
/// requests (lenses of a huge document, which run off the loop) hold back a
/// hover on another document; the slow work itself is bounded by the
/// engine's cores and the blocking pool, not by this.
const MAX_CONCURRENT_REQUESTS: usize = 64;
/// Header lines are read at most this long (a longer one is not a header).
const MAX_HEADER_LINE: usize = 8 << 10;
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
    tower_lsp_server::Server::new(server_in, server_out, socket)
        .concurrency_level(MAX_CONCURRENT_REQUESTS)
        .serve(service)
        .await;
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
///
/// Recovery: a frame's header starts wherever `Content-Length:` is found,
/// also in the middle of a line (after a body shorter than its stated
/// length, the rest of it runs into the next header) and after lines that
/// are not headers. Header lines are read at most [`MAX_HEADER_LINE`] bytes
/// at a time; a message over [`MAX_MESSAGE`] is answered with an error and
/// skipped up to the next header, so memory follows what was sent, never
/// what a header claims.
async fn filter_input<R, W>(mut input: R, mut to_server: W, answers: mpsc::UnboundedSender<Value>)
where
    R: AsyncBufRead + Unpin,
    W: AsyncWrite + Unpin,
{
    // A header line carried over after resynchronising on a bad frame.
    let mut pending: Option<Vec<u8>> = None;
    loop {
        let Some(header) = read_header(&mut input, &mut pending, &answers).await else { return };
        let len = match header {
            Header::Length(len) if len <= MAX_MESSAGE => len,
            Header::Length(len) => {
                let message = format!("Invalid request: message too large ({len} bytes; at most {MAX_MESSAGE})");
                let _ = answers.send(error(Value::Null, -32600, &message));
                match resync(&mut input).await {
                    Some(line) => pending = Some(line),
                    None => return,
                }
                continue;
            }
            Header::Invalid => {
                let _ =
                    answers.send(error(Value::Null, -32700, "Parse error: missing or invalid Content-Length header"));
                match resync(&mut input).await {
                    Some(line) => pending = Some(line),
                    None => return,
                }
                continue;
            }
        };
        // Grown as the bytes arrive: a stated length costs nothing until it is sent.
        let mut body = Vec::new();
        match (&mut input).take(len as u64).read_to_end(&mut body).await {
            Ok(n) if n == len => {}
            _ => return, // the input ended inside the body
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

/// What a frame's header block said.
enum Header {
    Length(usize),
    /// No `Content-Length`, one that is not a number, or lines that are not headers.
    Invalid,
}

/// Read header lines up to the blank line that ends them (`None` at end of
/// input). A line holding `Content-Length:` after other bytes, or after a
/// line that is not a header, starts the header block afresh there; a
/// broken block given up that way is answered with an error.
async fn read_header<R: AsyncBufRead + Unpin>(
    input: &mut R,
    pending: &mut Option<Vec<u8>>,
    answers: &mpsc::UnboundedSender<Value>,
) -> Option<Header> {
    let mut length: Option<Result<usize, ()>> = None;
    let (mut saw_header, mut broken) = (false, false);
    loop {
        let (mut current, too_long) = match pending.take() {
            Some(l) => (l, false),
            None => match read_line(input, MAX_HEADER_LINE).await {
                Line::Text(l) => (l, false),
                Line::TooLong(tail) => (tail, true),
                Line::End => return None,
            },
        };
        let found = find(&current, HEADER.as_bytes());
        if let Some(at) = found.filter(|&at| at > 0 || too_long || broken) {
            if broken {
                let _ = answers.send(error(Value::Null, -32700, "Parse error: invalid header"));
            }
            current.drain(..at);
            (length, saw_header, broken) = (None, false, false);
        } else if too_long {
            (saw_header, broken) = (true, true);
            continue;
        }
        let text = String::from_utf8_lossy(&current);
        let trimmed = text.trim_end_matches(['\r', '\n']);
        if trimmed.is_empty() {
            if saw_header {
                break;
            }
            continue; // stray blank line between messages
        }
        saw_header = true;
        match trimmed.split_once(':') {
            Some((name, value)) if name.trim().eq_ignore_ascii_case("content-length") => {
                length = Some(value.trim().parse::<usize>().map_err(|_| ()));
            }
            Some((name, _)) if is_token(name) => {} // another header (Content-Type)
            _ => broken = true,
        }
    }
    Some(match length {
        Some(Ok(len)) if !broken => Header::Length(len),
        _ => Header::Invalid,
    })
}

/// A header name: an HTTP token.
fn is_token(name: &str) -> bool {
    !name.is_empty() && name.bytes().all(|b| b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b))
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}

/// One line read with a cap on what is kept.
enum Line {
    /// The line, its line break included (absent at the end of input).
    Text(Vec<u8>),
    /// A line longer than the cap: its last `cap` bytes (the rest was skipped).
    TooLong(Vec<u8>),
    End,
}

/// Read up to and including the next `\n`, keeping at most about `cap`
/// bytes whatever the line's length (a longer one keeps its tail, where a
/// header after garbage would be).
async fn read_line<R: AsyncBufRead + Unpin>(input: &mut R, cap: usize) -> Line {
    let mut line = Vec::new();
    let mut too_long = false;
    loop {
        let Ok(buf) = input.fill_buf().await else { return Line::End };
        if buf.is_empty() {
            return match (line.is_empty(), too_long) {
                (true, false) => Line::End,
                (_, false) => Line::Text(line),
                (_, true) => Line::TooLong(line),
            };
        }
        let (used, done) = match buf.iter().position(|&b| b == b'\n') {
            Some(i) => (i + 1, true),
            None => (buf.len(), false),
        };
        line.extend_from_slice(&buf[..used]);
        input.consume(used);
        if line.len() > 2 * cap {
            too_long = true;
            line.drain(..line.len() - cap);
        }
        if done {
            if line.len() > cap {
                too_long = true;
                line.drain(..line.len() - cap);
            }
            return if too_long { Line::TooLong(line) } else { Line::Text(line) };
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
/// Lines are read with the header cap, so a long body costs no memory.
async fn resync<R: AsyncBufRead + Unpin>(input: &mut R) -> Option<Vec<u8>> {
    loop {
        let (Line::Text(line) | Line::TooLong(line)) = read_line(input, MAX_HEADER_LINE).await else { return None };
        if let Some(at) = find(&line, HEADER.as_bytes()) {
            return Some(line[at..].to_vec());
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Reads every line of `input` with a cap of 16 bytes.
    fn lines(input: &[u8]) -> Vec<(bool, Vec<u8>)> {
        let runtime = tokio::runtime::Builder::new_current_thread().build().unwrap();
        runtime.block_on(async {
            // A small buffer: lines arrive in several reads.
            let mut reader = BufReader::with_capacity(5, input);
            let mut out = Vec::new();
            loop {
                match read_line(&mut reader, 16).await {
                    Line::Text(l) => out.push((false, l)),
                    Line::TooLong(l) => out.push((true, l)),
                    Line::End => return out,
                }
            }
        })
    }

    #[test]
    fn a_line_keeps_at_most_its_cap_and_a_long_one_its_tail() {
        let mut input = vec![b'x'; 100_000];
        input.extend_from_slice(b"Content-Length: 2\n");
        input.extend_from_slice(b"short\nend");
        let got = lines(&input);
        assert_eq!(got.len(), 3, "{got:?}");
        assert!(got[0].0 && got[0].1.len() == 16, "{got:?}");
        assert!(got[0].1.ends_with(b"Length: 2\n"), "the tail is kept: {got:?}");
        assert_eq!(got[1], (false, b"short\n".to_vec()));
        assert_eq!(got[2], (false, b"end".to_vec()));
    }
}
