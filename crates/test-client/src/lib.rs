//! The one LSP client of the tests and benchmarks: LSP framing
//! (`Content-Length: N\r\n\r\n<json>`), requests with their responses,
//! notifications, waiting for what the server publishes — over a child
//! process (`lights lsp`, as an editor runs it) or over any pair of byte
//! streams (a server in the same process). Requests from the server are
//! answered at once (`workspace/applyEdit` as applied, the others with
//! `null`), as an editor would. [`board`] reads the play page's board data,
//! which the server and `lights play` both serve.

// A library reports through its return values; printing is the command line's.
#![deny(clippy::print_stdout, clippy::print_stderr)]

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use serde_json::{json, Value};

pub mod board;

/// How long a request may take to be answered, and a notification to come,
/// unless a test says otherwise (an unoptimised build on a busy machine).
pub const TIMEOUT: Duration = Duration::from_secs(60);

/// One LSP frame around `body`.
pub fn frame(body: &[u8]) -> Vec<u8> {
    let mut out = format!("Content-Length: {}\r\n\r\n", body.len()).into_bytes();
    out.extend_from_slice(body);
    out
}

/// One LSP frame around a JSON message.
pub fn frame_json(msg: &Value) -> Vec<u8> {
    frame(&serde_json::to_vec(msg).expect("JSON serialises"))
}

/// Read one frame; `Ok(None)` at a clean end of the stream.
pub fn read_frame(r: &mut impl BufRead) -> Result<Option<Value>, String> {
    let mut length = None;
    let mut line = String::new();
    loop {
        line.clear();
        let n = r.read_line(&mut line).map_err(|e| format!("reading a header: {e}"))?;
        if n == 0 {
            return if length.is_none() { Ok(None) } else { Err("end of output inside a header".into()) };
        }
        let header = line.trim_end_matches(['\r', '\n']);
        if header.is_empty() {
            if length.is_none() {
                continue; // a blank line between messages
            }
            break;
        }
        let (name, value) = header.split_once(':').ok_or_else(|| format!("malformed header line {header:?}"))?;
        if name.eq_ignore_ascii_case("content-length") {
            length = Some(value.trim().parse::<usize>().map_err(|e| format!("bad Content-Length {value:?}: {e}"))?);
        }
    }
    let length = length.ok_or("a frame without Content-Length")?;
    let mut body = vec![0; length];
    r.read_exact(&mut body).map_err(|e| format!("reading a body of {length} bytes: {e}"))?;
    serde_json::from_slice(&body).map(Some).map_err(|e| format!("the server sent a body that is not JSON: {e}"))
}

/// A response (an `id` without a `method`).
pub fn is_response(m: &Value) -> bool {
    m.get("method").is_none() && m.get("id").is_some()
}

/// The code of an error response.
pub fn error_code(response: &Value) -> i64 {
    response["error"]["code"].as_i64().unwrap_or_else(|| panic!("not an error response: {response}"))
}

/// Client capabilities like a modern editor's; `utf8` offers UTF-8 positions.
pub fn capabilities(utf8: bool) -> Value {
    let encodings = if utf8 { json!(["utf-8", "utf-16"]) } else { json!(["utf-16"]) };
    json!({
        "general": {"positionEncodings": encodings},
        "workspace": {
            "workspaceEdit": {"documentChanges": true},
            "codeLens": {"refreshSupport": true},
            "inlayHint": {"refreshSupport": true}
        },
        "textDocument": {"completion": {"completionItem": {"snippetSupport": true}}}
    })
}

/// A connection to a language server.
pub struct Client {
    writer: Option<Box<dyn Write + Send>>,
    incoming: Receiver<Result<Value, String>>,
    /// Messages received and not yet taken by a wait.
    backlog: Vec<Value>,
    /// Every message the server sent, in order.
    pub received: Vec<Value>,
    child: Option<Child>,
    stderr: Arc<Mutex<String>>,
    /// The server's output has ended.
    closed: bool,
    next_id: i64,
    /// Keep every message in `received` (off for long benchmarks).
    log: bool,
    /// The params of the newest publish of diagnostics, by document.
    published: HashMap<String, Value>,
}

impl Client {
    /// Start `command` (e.g. `lights lsp`) with piped standard streams.
    pub fn spawn(mut command: Command) -> Client {
        let mut child = command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("spawn the language server");
        let stdout = child.stdout.take().expect("piped stdout");
        let stdin = child.stdin.take().expect("piped stdin");
        let mut err_pipe = child.stderr.take().expect("piped stderr");
        let stderr = Arc::new(Mutex::new(String::new()));
        let sink = stderr.clone();
        thread::spawn(move || {
            let mut buf = [0u8; 4096];
            while let Ok(n) = err_pipe.read(&mut buf) {
                if n == 0 {
                    break;
                }
                sink.lock()
                    .unwrap_or_else(std::sync::PoisonError::into_inner)
                    .push_str(&String::from_utf8_lossy(&buf[..n]));
            }
        });
        let mut client = Client::over(stdout, stdin);
        client.child = Some(child);
        client.stderr = stderr;
        client
    }

    /// The process id of a spawned server (for reading its /proc entries).
    pub fn pid(&self) -> Option<u32> {
        self.child.as_ref().map(Child::id)
    }

    /// Speak to a server that reads `writer` and writes `reader`.
    pub fn over(reader: impl Read + Send + 'static, writer: impl Write + Send + 'static) -> Client {
        let (tx, rx) = channel();
        thread::spawn(move || {
            let mut r = BufReader::new(reader);
            loop {
                match read_frame(&mut r) {
                    Ok(Some(v)) => {
                        if tx.send(Ok(v)).is_err() {
                            return;
                        }
                    }
                    Ok(None) => return,
                    Err(e) => {
                        let _ = tx.send(Err(e));
                        return;
                    }
                }
            }
        });
        Client {
            writer: Some(Box::new(writer)),
            incoming: rx,
            backlog: Vec::new(),
            received: Vec::new(),
            child: None,
            stderr: Arc::new(Mutex::new(String::new())),
            closed: false,
            next_id: 0,
            log: true,
            published: HashMap::new(),
        }
    }

    /// Whether every message is kept in `received` (on by default; a long
    /// benchmark turns it off).
    pub fn keep_log(&mut self, on: bool) {
        self.log = on;
    }

    /// What the server process wrote on standard error so far.
    pub fn stderr(&self) -> String {
        self.stderr.lock().unwrap_or_else(std::sync::PoisonError::into_inner).clone()
    }

    /// Write raw bytes; an error when the server no longer reads.
    pub fn send_raw(&mut self, bytes: &[u8]) -> std::io::Result<()> {
        let writer = self.writer.as_mut().expect("the input is still open");
        writer.write_all(bytes)?;
        writer.flush()
    }

    pub fn send(&mut self, msg: &Value) {
        if let Err(e) = self.send_raw(&frame_json(msg)) {
            panic!("could not write to the server ({e}); its stderr: {}", self.stderr());
        }
    }

    /// Close the server's input (end of stream).
    pub fn close_input(&mut self) {
        self.writer = None;
    }

    pub fn notify(&mut self, method: &str, params: Value) {
        self.send(&json!({"jsonrpc": "2.0", "method": method, "params": params}));
    }

    /// A fresh request id.
    pub fn next_id(&mut self) -> i64 {
        self.next_id += 1;
        self.next_id
    }

    /// The next message before `deadline`: `Ok(None)` once the server's
    /// output has ended, `Err(())` when nothing came in time. Requests from
    /// the server are answered at once.
    fn receive(&mut self, deadline: Instant) -> Result<Option<Value>, ()> {
        if self.closed {
            return Ok(None);
        }
        let left = deadline.saturating_duration_since(Instant::now());
        match self.incoming.recv_timeout(left) {
            Ok(Ok(m)) => {
                if let (Some(method), Some(id)) = (m.get("method"), m.get("id")) {
                    let result = if method == "workspace/applyEdit" { json!({"applied": true}) } else { Value::Null };
                    let reply = json!({"jsonrpc": "2.0", "id": id.clone(), "result": result});
                    // The server may be gone already; that is for the caller to find out.
                    let _ = self.send_raw(&frame_json(&reply));
                }
                if m["method"] == "textDocument/publishDiagnostics" {
                    let uri = m["params"]["uri"].as_str().unwrap_or_default().to_string();
                    self.published.insert(uri, m["params"].clone());
                }
                if self.log {
                    self.received.push(m.clone());
                }
                Ok(Some(m))
            }
            Ok(Err(e)) => panic!("{e}; stderr: {}", self.stderr()),
            Err(RecvTimeoutError::Disconnected) => {
                self.closed = true;
                Ok(None)
            }
            Err(RecvTimeoutError::Timeout) => Err(()),
        }
    }

    /// The first message (received earlier and not yet taken, or still to
    /// come within `timeout`) that `pred` accepts; it is taken.
    pub fn wait_for_within(&mut self, what: &str, timeout: Duration, pred: impl Fn(&Value) -> bool) -> Value {
        if let Some(i) = self.backlog.iter().position(&pred) {
            return self.backlog.remove(i);
        }
        let deadline = Instant::now() + timeout;
        loop {
            match self.receive(deadline) {
                Ok(Some(m)) if pred(&m) => return m,
                Ok(Some(m)) => self.backlog.push(m),
                Ok(None) => panic!("the server closed its output before {what}; stderr: {}", self.stderr()),
                Err(()) => panic!("no {what} within {timeout:?}; stderr: {}", self.stderr()),
            }
        }
    }

    /// The first message to come within `timeout` that `pred` accepts; the
    /// messages before it are dropped, not kept for later waits (for
    /// benchmarks, where they would pile up).
    pub fn skip_until(&mut self, what: &str, timeout: Duration, pred: impl Fn(&Value) -> bool) -> Value {
        self.backlog.clear();
        let deadline = Instant::now() + timeout;
        loop {
            match self.receive(deadline) {
                Ok(Some(m)) if pred(&m) => return m,
                Ok(Some(_)) => {}
                Ok(None) => panic!("the server closed its output before {what}; stderr: {}", self.stderr()),
                Err(()) => panic!("no {what} within {timeout:?}; stderr: {}", self.stderr()),
            }
        }
    }

    /// [`Client::wait_for_within`] with the default [`TIMEOUT`].
    pub fn wait_for(&mut self, what: &str, pred: impl Fn(&Value) -> bool) -> Value {
        self.wait_for_within(what, TIMEOUT, pred)
    }

    /// Whether a message `pred` accepts arrives within `timeout` (or was
    /// received and not taken yet); it is kept for a later wait.
    pub fn arrives_within(&mut self, timeout: Duration, pred: impl Fn(&Value) -> bool) -> bool {
        if self.backlog.iter().any(&pred) {
            return true;
        }
        let deadline = Instant::now() + timeout;
        while let Ok(Some(m)) = self.receive(deadline) {
            let hit = pred(&m);
            self.backlog.push(m);
            if hit {
                return true;
            }
        }
        false
    }

    /// Whether a message `pred` accepts was received already and not taken:
    /// it came before the messages taken since (an order, not a time).
    pub fn received_earlier(&self, pred: impl Fn(&Value) -> bool) -> bool {
        self.backlog.iter().any(pred)
    }

    /// Messages received within `timeout` from now (kept for later waits).
    pub fn drain(&mut self, timeout: Duration) {
        self.arrives_within(timeout, |_| false);
    }

    /// Whether the server's output has ended.
    pub fn output_closed(&mut self) -> bool {
        self.drain(Duration::ZERO);
        self.closed
    }

    /// Send a request and wait up to `timeout` for its whole response.
    pub fn request_within(&mut self, method: &str, params: Value, timeout: Duration) -> Value {
        let id = self.next_id();
        self.send(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        let what = format!("the response to {method} (request {id})");
        self.wait_for_within(&what, timeout, |m| is_response(m) && m["id"] == id)
    }

    /// Send a request and wait up to `timeout` for its whole response;
    /// the messages before it are dropped, not kept for later waits (for
    /// long runs, where they would pile up).
    pub fn request_skipping(&mut self, method: &str, params: Value, timeout: Duration) -> Value {
        let id = self.next_id();
        self.send(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        let what = format!("the response to {method} (request {id})");
        self.skip_until(&what, timeout, |m| is_response(m) && m["id"] == id)
    }

    /// The whole response (with `result` or `error`).
    pub fn request_raw(&mut self, method: &str, params: Value) -> Value {
        self.request_within(method, params, TIMEOUT)
    }

    /// The `result` of a request that must succeed.
    pub fn request(&mut self, method: &str, params: Value) -> Value {
        let r = self.request_raw(method, params);
        assert!(r.get("error").is_none(), "{method} failed: {r}");
        assert_eq!(r["jsonrpc"], "2.0", "{r}");
        r["result"].clone()
    }

    /// `initialize` and `initialized`; returns the result of `initialize`.
    pub fn initialize(&mut self, capabilities: Value, initialization_options: Value) -> Value {
        let params = json!({"processId": null, "rootUri": null, "capabilities": capabilities,
                            "initializationOptions": initialization_options});
        let result = self.request("initialize", params);
        assert!(result["capabilities"].is_object(), "initialize answered without capabilities: {result}");
        self.notify("initialized", json!({}));
        result
    }

    pub fn open(&mut self, uri: &str, version: i32, text: &str) {
        let doc = json!({"uri": uri, "languageId": "lights", "version": version, "text": text});
        self.notify("textDocument/didOpen", json!({"textDocument": doc}));
    }

    pub fn change(&mut self, uri: &str, version: i32, text: &str) {
        self.change_with(uri, version, json!([{"text": text}]));
    }

    /// `textDocument/didChange` with these `contentChanges` (whole texts
    /// and ranged changes, applied in order).
    pub fn change_with(&mut self, uri: &str, version: i32, content_changes: Value) {
        let params = json!({"textDocument": {"uri": uri, "version": version}, "contentChanges": content_changes});
        self.notify("textDocument/didChange", params);
    }

    pub fn close(&mut self, uri: &str) {
        self.notify("textDocument/didClose", json!({"textDocument": {"uri": uri}}));
    }

    /// The diagnostics of the next publish for `uri` at `version`.
    pub fn diagnostics(&mut self, uri: &str, version: i32) -> Vec<Value> {
        self.diagnostics_within(uri, version, TIMEOUT)
    }

    pub fn diagnostics_within(&mut self, uri: &str, version: i32, timeout: Duration) -> Vec<Value> {
        self.diagnostics_where(uri, version, timeout, |_| true)
    }

    /// The diagnostics of the first publish for `uri` at `version` that
    /// `pred` accepts, waiting up to `timeout`.
    pub fn diagnostics_where(
        &mut self,
        uri: &str,
        version: i32,
        timeout: Duration,
        pred: impl Fn(&[Value]) -> bool,
    ) -> Vec<Value> {
        let m = self.wait_for_within("publishDiagnostics", timeout, |m| {
            m["method"] == "textDocument/publishDiagnostics"
                && m["params"]["uri"] == uri
                && m["params"]["version"] == version
                && pred(m["params"]["diagnostics"].as_array().map_or(&[], |d| d.as_slice()))
        });
        m["params"]["diagnostics"].as_array().cloned().unwrap_or_default()
    }

    /// The diagnostics of the first publish that has any (`what` names them
    /// in the failure message).
    pub fn first_problems(&mut self, what: &str) -> Vec<Value> {
        let m = self.wait_for(what, |m| {
            m["method"] == "textDocument/publishDiagnostics"
                && m["params"]["diagnostics"].as_array().is_some_and(|d| !d.is_empty())
        });
        m["params"]["diagnostics"].as_array().cloned().unwrap_or_default()
    }

    /// Every publish for `uri` received so far, oldest first (their params).
    pub fn publishes(&self, uri: &str) -> Vec<Value> {
        self.received
            .iter()
            .filter(|m| m["method"] == "textDocument/publishDiagnostics" && m["params"]["uri"] == uri)
            .map(|m| m["params"].clone())
            .collect()
    }

    pub fn code_lens_titles(&mut self, uri: &str) -> Vec<String> {
        let lenses = self.request("textDocument/codeLens", json!({"textDocument": {"uri": uri}}));
        lenses.as_array().unwrap().iter().map(|l| l["command"]["title"].as_str().unwrap_or("").to_string()).collect()
    }

    /// Once no block of `uri` (at `version`) is being solved any more: the
    /// diagnostics of the newest publish and the code lens titles. Waits up
    /// to `timeout` in all. The publishes it waited through are taken.
    pub fn settled(&mut self, uri: &str, version: i32, timeout: Duration) -> (Vec<Value>, Vec<String>) {
        let deadline = Instant::now() + timeout;
        let is_publish = |m: &Value| {
            m["method"] == "textDocument/publishDiagnostics"
                && m["params"]["uri"] == uri
                && m["params"]["version"] == version
        };
        loop {
            let titles = self.code_lens_titles(uri);
            if !titles.iter().any(|t| t.contains("solving")) {
                // The publish that follows the last answer may still be on its way.
                loop {
                    let more = self.arrives_within(Duration::from_millis(300), is_publish);
                    self.backlog.retain(|m| !is_publish(m));
                    if !more {
                        break;
                    }
                }
                let newest = self.published.get(uri).cloned().unwrap_or(Value::Null);
                assert_eq!(newest["version"], version, "the newest publish of {uri} is of another version");
                return (newest["diagnostics"].as_array().cloned().unwrap_or_default(), titles);
            }
            let left = deadline.saturating_duration_since(Instant::now());
            assert!(!left.is_zero(), "still solving after {timeout:?}: {titles:?}");
            // Wait for the next publish (or a little, and ask again).
            self.arrives_within(left.min(Duration::from_millis(500)), is_publish);
            self.backlog.retain(|m| !is_publish(m));
        }
    }

    pub fn code_actions(&mut self, uri: &str, line: u32, diagnostics: &[Value]) -> Vec<Value> {
        let here = json!({"line": line, "character": 0});
        let on_line: Vec<&Value> = diagnostics.iter().filter(|d| d["range"]["start"]["line"] == line).collect();
        let params = json!({"textDocument": {"uri": uri}, "range": {"start": here, "end": here},
                            "context": {"diagnostics": on_line}});
        self.request("textDocument/codeAction", params).as_array().cloned().unwrap_or_default()
    }

    /// Whether the server process is still running.
    pub fn running(&mut self) -> bool {
        let child = self.child.as_mut().expect("a server process");
        matches!(child.try_wait(), Ok(None))
    }

    /// Wait up to `timeout` for the server process to end.
    pub fn wait_exit(&mut self, timeout: Duration) -> Option<ExitStatus> {
        let child = self.child.as_mut().expect("a server process");
        let deadline = Instant::now() + timeout;
        loop {
            if let Some(status) = child.try_wait().expect("try_wait") {
                return Some(status);
            }
            if Instant::now() >= deadline {
                return None;
            }
            thread::sleep(Duration::from_millis(20));
        }
    }

    /// `shutdown` (answered with `null`), then `exit`; for a process, it
    /// must end with status 0 and no response may have come unasked.
    pub fn shutdown_and_exit(mut self) {
        let r = self.request_raw("shutdown", Value::Null);
        assert!(r.get("error").is_none() && r["result"].is_null(), "shutdown: {r}");
        self.notify("exit", Value::Null);
        self.close_input();
        if self.child.is_some() {
            let status = self.wait_exit(Duration::from_secs(10)).expect("the server did not exit after `exit`");
            assert!(status.success(), "the server exited with {status}; stderr: {}", self.stderr());
        }
        self.assert_no_stray_responses();
    }

    /// No response arrived that nobody asked for (e.g. to a notification).
    pub fn assert_no_stray_responses(&self) {
        let stray: Vec<&Value> = self.backlog.iter().filter(|m| is_response(m)).collect();
        assert!(stray.is_empty(), "responses nobody asked for: {stray:?}");
    }
}

impl Drop for Client {
    fn drop(&mut self) {
        if let Some(child) = &mut self.child {
            if let Ok(None) = child.try_wait() {
                let _ = child.kill();
                let _ = child.wait();
            }
        }
    }
}

/// The LSP position of byte `offset` of `text`, in UTF-16 code units (or
/// UTF-8 bytes when `utf8`); lines end at `\n`.
pub fn position(text: &str, offset: usize, utf8: bool) -> Value {
    let before = &text[..offset];
    let start = before.rfind('\n').map_or(0, |i| i + 1);
    let character = if utf8 { offset - start } else { before[start..].encode_utf16().count() };
    json!({"line": before.matches('\n').count(), "character": character})
}

/// Apply LSP text edits (UTF-16 or UTF-8 positions) to a text.
pub fn apply_edits(text: &str, edits: &[Value], utf8: bool) -> String {
    let offset = |pos: &Value| -> usize {
        let (line, character) = (pos["line"].as_u64().unwrap() as usize, pos["character"].as_u64().unwrap() as usize);
        let mut start = 0;
        for _ in 0..line {
            start += text[start..].find('\n').map_or(text.len() - start, |i| i + 1);
        }
        let mut units = 0;
        for (i, ch) in text[start..].char_indices() {
            if units >= character || ch == '\n' {
                return start + i;
            }
            units += if utf8 { ch.len_utf8() } else { ch.len_utf16() };
        }
        text.len()
    };
    let mut spans: Vec<(usize, usize, String)> = edits
        .iter()
        .map(|e| (offset(&e["range"]["start"]), offset(&e["range"]["end"]), e["newText"].as_str().unwrap().to_string()))
        .collect();
    spans.sort_by_key(|s| std::cmp::Reverse(s.0));
    let mut out = text.to_string();
    for (s, e, t) in spans {
        out.replace_range(s..e, &t);
    }
    out
}

/// The text edits of a workspace edit for `uri` (either form).
pub fn workspace_edits(edit: &Value, uri: &str) -> Vec<Value> {
    if let Some(changes) = edit["documentChanges"].as_array() {
        return changes
            .iter()
            .filter(|c| c["textDocument"]["uri"] == uri)
            .flat_map(|c| c["edits"].as_array().cloned().unwrap_or_default())
            .collect();
    }
    edit["changes"][uri].as_array().cloned().unwrap_or_default()
}

/// The codes of a diagnostic list, in order.
pub fn codes(diags: &[Value]) -> Vec<String> {
    diags.iter().map(|d| d["code"].as_str().unwrap_or("").to_string()).collect()
}
