//! `lights lsp` over its real transport: the binary is spawned with piped
//! standard input and output and spoken to in raw LSP framing
//! (`Content-Length: N\r\n\r\n<json>`), as an editor would. Each test runs
//! its own server process and ends it with `shutdown` + `exit`.
//!
//! The scenarios are the ones an editor cannot be trusted to avoid: broken
//! frames, methods the server does not know, a 10 MB document, a board far
//! beyond the solver.

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use serde_json::{json, Value};

/// How long a request may take to be answered.
const TIMEOUT: Duration = Duration::from_secs(20);
/// How long the diagnostics of a 10 MB document may take (an unoptimised build, a busy machine).
const BIG_TIMEOUT: Duration = Duration::from_secs(120);
/// How long the process may take to exit after `exit`.
const EXIT_TIMEOUT: Duration = Duration::from_secs(10);

// ------------------------------------------------------------------ framing

/// One LSP frame around `body`.
fn frame(body: &[u8]) -> Vec<u8> {
    let mut out = format!("Content-Length: {}\r\n\r\n", body.len()).into_bytes();
    out.extend_from_slice(body);
    out
}

/// Read one frame; `Ok(None)` at a clean end of the stream.
fn read_frame(r: &mut impl BufRead) -> Result<Option<Value>, String> {
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

fn is_response(m: &Value) -> bool {
    m.get("method").is_none() && m.get("id").is_some()
}

// ------------------------------------------------------------------ the server process

/// A running `lights lsp`; killed on drop if still running (a failed test).
struct Lsp {
    child: Child,
    stdin: Option<ChildStdin>,
    rx: Receiver<Result<Value, String>>,
    /// Notifications (and stray responses) received while waiting for something else.
    backlog: Vec<Value>,
    /// Every `publishDiagnostics` seen, in order.
    published: Vec<Value>,
    stderr: Arc<Mutex<String>>,
    /// The server's output has ended.
    closed: bool,
}

impl Lsp {
    fn spawn() -> Lsp {
        let mut child = Command::new(env!("CARGO_BIN_EXE_lights"))
            .arg("lsp")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("spawn `lights lsp`");
        let stdout = child.stdout.take().unwrap();
        let (tx, rx) = channel();
        thread::spawn(move || {
            let mut r = BufReader::new(stdout);
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
        let stderr = Arc::new(Mutex::new(String::new()));
        let mut err_pipe = child.stderr.take().unwrap();
        let sink = stderr.clone();
        thread::spawn(move || {
            let mut buf = [0u8; 4096];
            while let Ok(n) = err_pipe.read(&mut buf) {
                if n == 0 {
                    break;
                }
                sink.lock().unwrap().push_str(&String::from_utf8_lossy(&buf[..n]));
            }
        });
        let stdin = child.stdin.take();
        Lsp { child, stdin, rx, backlog: Vec::new(), published: Vec::new(), stderr, closed: false }
    }

    fn stderr(&self) -> String {
        self.stderr.lock().unwrap().clone()
    }

    /// Write raw bytes; an error when the server no longer reads.
    fn send_raw(&mut self, bytes: &[u8]) -> std::io::Result<()> {
        let stdin = self.stdin.as_mut().expect("stdin still open");
        stdin.write_all(bytes)?;
        stdin.flush()
    }

    fn send(&mut self, msg: &Value) {
        let bytes = frame(&serde_json::to_vec(msg).unwrap());
        if let Err(e) = self.send_raw(&bytes) {
            panic!("could not write to the server ({e}); its stderr: {}", self.stderr());
        }
    }

    fn notify(&mut self, method: &str, params: Value) {
        self.send(&json!({"jsonrpc": "2.0", "method": method, "params": params}));
    }

    /// The next message from the server, or `None` once its output has ended.
    /// Requests from the server are answered at once (with `null`).
    fn next(&mut self, deadline: Instant, waiting_for: &str) -> Option<Value> {
        if self.closed {
            return None;
        }
        let left = deadline.saturating_duration_since(Instant::now());
        match self.rx.recv_timeout(left) {
            Ok(Ok(m)) => {
                if m.get("method").is_some() && m.get("id").is_some() {
                    let id = m["id"].clone();
                    self.send(&json!({"jsonrpc": "2.0", "id": id, "result": null}));
                }
                if m["method"] == "textDocument/publishDiagnostics" {
                    self.published.push(m.clone());
                }
                Some(m)
            }
            Ok(Err(e)) => panic!("{e} (while waiting for {waiting_for})"),
            Err(RecvTimeoutError::Disconnected) => {
                self.closed = true;
                None
            }
            Err(RecvTimeoutError::Timeout) => {
                panic!("no {waiting_for} within the time allowed; stderr: {}", self.stderr())
            }
        }
    }

    /// Wait for the response with `id`, keeping what arrives meanwhile.
    fn response(&mut self, id: &Value, timeout: Duration) -> Value {
        if let Some(i) = self.backlog.iter().position(|m| is_response(m) && m["id"] == *id) {
            return self.backlog.remove(i);
        }
        let deadline = Instant::now() + timeout;
        let what = format!("the response to request {id}");
        loop {
            match self.next(deadline, &what) {
                Some(m) if is_response(&m) && m["id"] == *id => return m,
                Some(m) => self.backlog.push(m),
                None => panic!("the server closed its output before {what}; stderr: {}", self.stderr()),
            }
        }
    }

    /// Send a request and wait for its response (the whole message).
    fn request(&mut self, id: i64, method: &str, params: Value) -> Value {
        self.send(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        self.response(&json!(id), TIMEOUT)
    }

    /// The `result` of a request that must succeed.
    fn call(&mut self, id: i64, method: &str, params: Value) -> Value {
        let r = self.request(id, method, params);
        assert!(r.get("error").is_none(), "{method} failed: {r}");
        assert_eq!(r["jsonrpc"], "2.0", "{r}");
        r["result"].clone()
    }

    /// Wait for a notification `method` whose params satisfy `pred`.
    fn wait_notification(&mut self, method: &str, timeout: Duration, pred: impl Fn(&Value) -> bool) -> Value {
        let hit = |m: &Value| m["method"] == method && m.get("id").is_none() && pred(&m["params"]);
        if let Some(i) = self.backlog.iter().position(hit) {
            return self.backlog.remove(i)["params"].clone();
        }
        let deadline = Instant::now() + timeout;
        let what = format!("{method} notification");
        loop {
            match self.next(deadline, &what) {
                Some(m) if hit(&m) => return m["params"].clone(),
                Some(m) => self.backlog.push(m),
                None => panic!("the server closed its output before the {what}; stderr: {}", self.stderr()),
            }
        }
    }

    /// `initialize` (request id 1) and `initialized`; returns the capabilities.
    fn initialize(&mut self) -> Value {
        let result = self.call(1, "initialize", json!({"processId": null, "rootUri": null, "capabilities": {}}));
        let caps = result["capabilities"].clone();
        assert!(caps.is_object(), "initialize answered without capabilities: {result}");
        assert_eq!(caps["textDocumentSync"]["change"], 1, "full document sync: {caps}");
        assert_eq!(result["serverInfo"]["name"], "lights", "{result}");
        self.notify("initialized", json!({}));
        caps
    }

    fn open(&mut self, uri: &str, text: &str) {
        let doc = json!({"uri": uri, "languageId": "lights", "version": 1, "text": text});
        self.notify("textDocument/didOpen", json!({ "textDocument": doc }));
    }

    /// The diagnostics of `uri` at `version` once `pred` holds for them.
    fn diagnostics(
        &mut self,
        uri: &str,
        version: i64,
        timeout: Duration,
        pred: impl Fn(&[Value]) -> bool,
    ) -> Vec<Value> {
        let params = self.wait_notification("textDocument/publishDiagnostics", timeout, |p| {
            p["uri"] == uri && p["version"] == version && pred(p["diagnostics"].as_array().unwrap())
        });
        params["diagnostics"].as_array().unwrap().clone()
    }

    /// Wait up to `timeout` for the process to end.
    fn wait_exit(&mut self, timeout: Duration) -> Option<ExitStatus> {
        let deadline = Instant::now() + timeout;
        loop {
            if let Some(status) = self.child.try_wait().expect("try_wait") {
                return Some(status);
            }
            if Instant::now() >= deadline {
                return None;
            }
            thread::sleep(Duration::from_millis(20));
        }
    }

    /// `shutdown` (answered with `null`), then `exit`: the process must end with status 0.
    fn shutdown_and_exit(mut self, id: i64) {
        let r = self.request(id, "shutdown", Value::Null);
        assert!(r.get("error").is_none() && r["result"].is_null(), "shutdown: {r}");
        self.notify("exit", Value::Null);
        drop(self.stdin.take());
        let status = self.wait_exit(EXIT_TIMEOUT).expect("the server did not exit after `exit`");
        assert!(status.success(), "the server exited with {status}; stderr: {}", self.stderr());
        self.assert_no_stray_responses();
    }

    /// No response arrived that nobody asked for (e.g. to a notification).
    fn assert_no_stray_responses(&self) {
        let stray: Vec<&Value> = self.backlog.iter().filter(|m| is_response(m)).collect();
        assert!(stray.is_empty(), "responses nobody asked for: {stray:?}");
    }
}

impl Drop for Lsp {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

fn error_code(response: &Value) -> i64 {
    response["error"]["code"].as_i64().unwrap_or_else(|| panic!("not an error response: {response}"))
}

// ------------------------------------------------------------------ 1. malformed JSON-RPC

/// The broken frames, each with the JSON-RPC error the server answers it with.
fn malformed_frames() -> Vec<(&'static str, Vec<u8>, i64)> {
    vec![
        ("a body that is not JSON", frame(br#"{"jsonrpc": "2.0", "id": 1, "method": "#), -32700),
        ("a JSON array", frame(b"[1,2,3]"), -32600),
        ("a JSON object that is not JSON-RPC", frame(br#"{"foo": 1}"#), -32600),
        ("a Content-Length that is not a number", b"Content-Length: abc\r\n\r\n{}".to_vec(), -32700),
    ]
}

#[test]
fn malformed_frames_are_answered_with_jsonrpc_errors_and_do_not_crash_the_server() {
    for (what, bytes, code) in malformed_frames() {
        let mut lsp = Lsp::spawn();
        lsp.send_raw(&bytes).unwrap();
        let deadline = Instant::now() + TIMEOUT;
        let answer = lsp.next(deadline, &format!("an answer to {what}")).unwrap_or_else(|| {
            panic!("{what}: the server closed its output without answering; stderr: {}", lsp.stderr())
        });
        assert_eq!(answer["jsonrpc"], "2.0", "{what}: {answer}");
        assert!(answer["id"].is_null(), "{what}: an error about an unreadable message has id null: {answer}");
        assert_eq!(error_code(&answer), code, "{what}: {answer}");
        assert!(answer.get("result").is_none(), "{what}: {answer}");

        // The server keeps serving: it answers `initialize` and shuts down cleanly.
        let init = frame(br#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{}}}"#);
        lsp.send_raw(&init).unwrap_or_else(|e| panic!("{what}: the server no longer reads its input: {e}"));
        let m = lsp
            .next(Instant::now() + TIMEOUT, "the answer to initialize")
            .unwrap_or_else(|| panic!("{what}: the server closed its output; stderr: {}", lsp.stderr()));
        assert_eq!(m["id"], 1, "{what}: {m}");
        assert!(m["result"]["capabilities"].is_object(), "{what}: {m}");
        lsp.notify("initialized", json!({}));
        lsp.shutdown_and_exit(2);
    }
}

/// All the bad frames in a row on one server, then real work. (tower-lsp-server
/// alone stops reading after the first frame it cannot decode — tokio-util's
/// `FramedRead` ends its stream after a decoder error — so `lights lsp` puts a
/// guard in front of it: `crates/lsp/src/transport.rs`.)
#[test]
fn the_server_keeps_serving_after_malformed_frames() {
    let mut lsp = Lsp::spawn();
    for (what, bytes, code) in malformed_frames() {
        lsp.send_raw(&bytes).unwrap_or_else(|e| panic!("{what}: the server no longer reads its input: {e}"));
        let answer = lsp
            .next(Instant::now() + TIMEOUT, &format!("an answer to {what}"))
            .unwrap_or_else(|| panic!("{what}: the server closed its output"));
        assert_eq!(error_code(&answer), code, "{what}: {answer}");
        assert!(answer["id"].is_null(), "{what}: {answer}");
    }
    assert_eq!(lsp.child.try_wait().unwrap(), None, "the server exited after malformed frames");
    lsp.initialize();
    lsp.open("file:///alive.lights", "puzzle \"a\" {\n  size 3x3\n}\n");
    let symbols = lsp.call(2, "textDocument/documentSymbol", json!({"textDocument": {"uri": "file:///alive.lights"}}));
    assert_eq!(symbols[0]["name"], "a", "{symbols}");
    lsp.shutdown_and_exit(3);
}

// ------------------------------------------------------------------ 2. methods the server does not know

const CLASSIC: &str = "\
// Classic 5x5 Lights Out.
puzzle \"classic\" {
  size 5x5
  lights at 2,2 1,2 2,1 2,3 3,2
  expect solvable
}

puzzle \"second\" {
  size 3x3
  lights on
}
";

#[test]
fn unknown_methods_get_method_not_found_and_unknown_notifications_are_ignored() {
    let mut lsp = Lsp::spawn();
    // Before `initialize`, a request is refused as "server not initialized".
    let early = lsp.request(100, "textDocument/documentSymbol", json!({"textDocument": {"uri": "file:///a.lights"}}));
    assert_eq!(error_code(&early), -32002, "{early}");

    lsp.initialize();
    let unknown = lsp.request(2, "lights/doesNotExist", json!({"x": 1}));
    assert_eq!(unknown["id"], 2, "{unknown}");
    assert_eq!(error_code(&unknown), -32601, "method not found: {unknown}");
    assert!(unknown.get("result").is_none(), "{unknown}");
    // Without params at all, too.
    let bare = lsp.request(3, "lights/doesNotExist", Value::Null);
    assert_eq!(error_code(&bare), -32601, "{bare}");

    // Notifications the server does not know: no answer, no harm.
    lsp.notify("$/unknownThing", json!({"value": 42}));
    lsp.notify("lights/unknownNotification", json!([1, 2, 3]));
    // A response to a request the server never sent.
    lsp.send(&json!({"jsonrpc": "2.0", "id": "never-asked", "result": {"x": 1}}));
    // A known method with params of the wrong shape: invalid params.
    let bad_params = lsp.request(4, "textDocument/hover", json!({"foo": 1}));
    assert_eq!(error_code(&bad_params), -32602, "{bad_params}");

    let uri = "file:///classic.lights";
    lsp.open(uri, CLASSIC);
    let symbols = lsp.call(5, "textDocument/documentSymbol", json!({"textDocument": {"uri": uri}}));
    let names: Vec<&str> = symbols.as_array().unwrap().iter().map(|s| s["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["classic", "second"], "{symbols}");
    assert_eq!(symbols[0]["detail"], "5×5 · cross · plane · 2 states", "{symbols}");
    let diags = lsp.diagnostics(uri, 1, TIMEOUT, |_| true);
    assert!(diags.iter().all(|d| d["severity"] != 1), "a correct file has no errors: {diags:?}");

    // Still serving: another unknown request after all that.
    let again = lsp.request(6, "lights/doesNotExist", json!({}));
    assert_eq!(error_code(&again), -32601, "{again}");
    lsp.assert_no_stray_responses();

    // After `shutdown`, requests are invalid; `exit` then ends the process with 0.
    let r = lsp.request(7, "shutdown", Value::Null);
    assert!(r["result"].is_null() && r.get("error").is_none(), "{r}");
    let late = lsp.request(8, "textDocument/documentSymbol", json!({"textDocument": {"uri": uri}}));
    assert_eq!(error_code(&late), -32600, "{late}");
    lsp.notify("exit", Value::Null);
    let status = lsp.wait_exit(EXIT_TIMEOUT).expect("the server did not exit after `exit`");
    assert!(status.success(), "{status}");
}

// ------------------------------------------------------------------ 3. a 10 MB document

const TEN_MB: usize = 10_000_000;

/// About 10 MB of small puzzles with distinct names; every odd one carries a
/// false claim (`expect solutions 2` on a board with one solution), so each
/// has exactly one error. Returns the text, the number of puzzles and of errors.
fn many_puzzles() -> (String, usize, usize) {
    let mut text = String::with_capacity(TEN_MB + 100);
    let (mut n, mut wrong) = (0, 0);
    while text.len() < TEN_MB {
        let claim = if n % 2 == 1 {
            wrong += 1;
            "solutions 2"
        } else {
            "solvable"
        };
        text.push_str(&format!(
            "puzzle \"p{n}\" {{\n  size 3x3\n  lights at {},{}\n  expect {claim}\n}}\n",
            n % 3 + 1,
            n / 3 % 3 + 1
        ));
        n += 1;
    }
    (text, n, wrong)
}

/// Lines every puzzle of `many_puzzles` takes.
const LINES_PER_PUZZLE: usize = 5;

#[test]
fn a_ten_megabyte_document_of_puzzles_gets_at_most_500_diagnostics_and_answers() {
    let (text, puzzles, wrong) = many_puzzles();
    assert!(text.len() >= TEN_MB && wrong > 500);
    let mut lsp = Lsp::spawn();
    lsp.initialize();
    let uri = "file:///many.lights";
    lsp.open(uri, &text);
    drop(text);

    // The solver's findings are in the list once it is not empty (the file has no syntax errors).
    let diags = lsp.diagnostics(uri, 1, BIG_TIMEOUT, |d| !d.is_empty());
    assert_eq!(diags.len(), 500, "capped at 500");
    for d in &diags[..499] {
        assert_eq!(d["code"], "L0202", "{d}");
        assert_eq!(d["severity"], 1, "{d}");
        assert!(d["message"].as_str().unwrap().starts_with("`expect solutions 2` does not hold"), "{d}");
    }
    // The first errors, in file order: the odd puzzles.
    assert_eq!(diags[0]["range"]["start"]["line"], LINES_PER_PUZZLE + 3, "{}", diags[0]);
    let last = &diags[499];
    assert_eq!(last["severity"], 3, "an information: {last}");
    let more = wrong - 499;
    assert!(last["message"].as_str().unwrap().starts_with(&format!("{more} more problems are not shown")), "{last}");
    for p in &lsp.published {
        assert!(p["params"]["diagnostics"].as_array().unwrap().len() <= 500, "every publish is capped");
    }

    // Requests are answered, positions right at the end of the document too.
    let line = (puzzles - 1) * LINES_PER_PUZZLE;
    let hover = lsp.call(
        2,
        "textDocument/hover",
        json!({"textDocument": {"uri": uri}, "position": {"line": line, "character": 9}}),
    );
    let shown = hover["contents"]["value"].as_str().unwrap_or_else(|| panic!("no hover text: {hover}"));
    assert!(shown.contains(&format!("puzzle \"p{}\"", puzzles - 1)), "{shown}");
    assert!(shown.contains("3×3"), "{shown}");
    let folds = lsp.call(3, "textDocument/foldingRange", json!({"textDocument": {"uri": uri}}));
    assert!(folds.as_array().unwrap().len() >= puzzles, "a fold per puzzle at least");
    lsp.shutdown_and_exit(4);
}

/// About 10 MB of junk lines, each with an unclosed `{{` when `with_braces`.
fn junk(with_braces: bool) -> String {
    let mut text = String::with_capacity(TEN_MB + 100);
    let mut n: u64 = 0;
    while text.len() < TEN_MB {
        // A little pseudo-randomness so lines differ in length and content.
        let x = n.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407) >> 33;
        let open = if with_braces { "{{ " } else { "" };
        text.push_str(&format!("junk {n} ~~ @@ {open})) ]] 1,2 x{} {}\n", x % 1000, "#".repeat((x % 40) as usize)));
        n += 1;
    }
    text
}

#[test]
fn a_ten_megabyte_document_of_junk_gets_diagnostics_and_answers() {
    let text = junk(false);
    let mut lsp = Lsp::spawn();
    lsp.initialize();
    let uri = "file:///junk.lights";
    lsp.open(uri, &text);
    drop(text);

    let diags = lsp.diagnostics(uri, 1, BIG_TIMEOUT, |_| true);
    assert!(!diags.is_empty() && diags.len() <= 500, "{} diagnostics", diags.len());
    assert!(diags.iter().any(|d| d["code"] == "L0001" && d["severity"] == 1), "text outside a puzzle block");
    let symbols = lsp.call(2, "textDocument/documentSymbol", json!({"textDocument": {"uri": uri}}));
    assert_eq!(symbols, json!([]), "no puzzles in junk");
    let lenses = lsp.call(3, "textDocument/codeLens", json!({"textDocument": {"uri": uri}}));
    assert_eq!(lenses, json!([]));
    lsp.shutdown_and_exit(4);
}

/// Junk lines that open a brace and never close it: once these made the
/// parser scan the rest of the file for the `}` on every line (quadratic: a
/// 10 MB document never got its diagnostics). At the top level they are one
/// error; inside a puzzle block, one error per line, so the list is capped.
#[test]
fn a_ten_megabyte_document_of_junk_with_unclosed_braces_gets_diagnostics_and_answers() {
    let text = junk(true);
    let lines = text.lines().count();
    let mut lsp = Lsp::spawn();
    lsp.initialize();
    let top = "file:///junk-braces.lights";
    lsp.open(top, &text);
    let inside = "file:///junk-in-block.lights";
    lsp.open(inside, &format!("puzzle \"p\" {{\n  size 2x2\n{text}}}\n"));
    drop(text);

    let diags = lsp.diagnostics(top, 1, BIG_TIMEOUT, |_| true);
    assert!(!diags.is_empty() && diags.len() <= 500, "{} diagnostics", diags.len());
    assert!(diags.iter().any(|d| d["code"] == "L0001"), "text outside a puzzle block: {:?}", diags.first());

    let diags = lsp.diagnostics(inside, 1, BIG_TIMEOUT, |_| true);
    assert_eq!(diags.len(), 500, "capped at 500");
    assert!(diags[..499].iter().all(|d| d["severity"] == 1), "{:?}", diags[0]);
    assert_eq!(diags[0]["range"]["start"]["line"], 2, "the first junk line: {}", diags[0]);
    let last = diags[499]["message"].as_str().unwrap();
    let more = lines - 499;
    assert!(last.starts_with(&format!("{more} more problems are not shown")), "{last}");

    let symbols = lsp.call(2, "textDocument/documentSymbol", json!({"textDocument": {"uri": inside}}));
    assert_eq!(symbols.as_array().unwrap().len(), 1, "one puzzle");
    assert_eq!(symbols[0]["name"], "p");
    assert_eq!(symbols[0]["range"]["end"]["line"], lines + 2, "the block ends at its `}}`: {symbols}");
    let lenses = lsp.call(3, "textDocument/codeLens", json!({"textDocument": {"uri": inside}}));
    let title = lenses[0]["command"]["title"].as_str().unwrap();
    assert_eq!(title, format!("✗ {lines} errors"), "{lenses}");
    lsp.shutdown_and_exit(4);
}

// ------------------------------------------------------------------ 4. a huge board

const HUGE: &str = "\
puzzle \"huge\" {
  size 5000x5000
  rule flip
  topology mobius
  lights on
}

// The classic 5x5 board has 4 solutions for any solvable start.
puzzle \"small\" {
  size 5x5
  lights at 2,2
}
";

#[test]
fn a_huge_board_is_declined_and_the_small_puzzle_beside_it_still_gets_its_answer() {
    let mut lsp = Lsp::spawn();
    lsp.initialize();
    let uri = "file:///huge.lights";
    lsp.open(uri, HUGE);

    let diags = lsp.diagnostics(uri, 1, BIG_TIMEOUT, |d| d.iter().any(|d| d["code"] == "L0205"));
    let errors: Vec<&Value> = diags.iter().filter(|d| d["severity"] == 1).collect();
    assert_eq!(errors.len(), 1, "{diags:?}");
    let e = errors[0];
    assert_eq!(e["code"], "L0205", "{e}");
    assert_eq!(e["range"]["start"]["line"], 0, "on the huge puzzle's header: {e}");
    let message = e["message"].as_str().unwrap();
    assert!(message.contains("too large to verify") && message.contains("25000000 unknowns"), "{message}");

    // The small puzzle is solved all the same: its lens reports the answer
    // once the solve is done (ask until it no longer says "solving").
    let deadline = Instant::now() + TIMEOUT;
    let mut id = 10;
    let lenses = loop {
        id += 1;
        let lenses = lsp.call(id, "textDocument/codeLens", json!({"textDocument": {"uri": uri}}));
        let solving = lenses.as_array().unwrap().iter().any(|l| l["command"]["title"] == "⋯ solving…");
        if !solving || Instant::now() >= deadline {
            break lenses;
        }
        thread::sleep(Duration::from_millis(50));
    };
    let titles = |line: u64| -> Vec<String> {
        lenses
            .as_array()
            .unwrap()
            .iter()
            .filter(|l| l["range"]["start"]["line"] == line)
            .map(|l| l["command"]["title"].as_str().unwrap().to_string())
            .collect()
    };
    assert_eq!(titles(0), ["⚠ too large to verify"], "{lenses}");
    let small = titles(8);
    assert!(small.iter().any(|t| t.contains("solution")), "{small:?}");
    assert!(small[0].starts_with("✓ 4 solutions"), "{small:?}");

    // And the server goes on answering.
    let hover = lsp.call(
        100,
        "textDocument/hover",
        json!({"textDocument": {"uri": uri}, "position": {"line": 0, "character": 9}}),
    );
    let shown = hover["contents"]["value"].as_str().unwrap_or_else(|| panic!("no hover text: {hover}"));
    assert!(shown.contains("puzzle \"huge\"") && shown.contains("too large"), "{shown}");
    let symbols = lsp.call(101, "textDocument/documentSymbol", json!({"textDocument": {"uri": uri}}));
    assert_eq!(symbols[0]["detail"], "5000×5000 · flip · mobius · 2 states", "{symbols}");
    assert_eq!(symbols[1]["name"], "small", "{symbols}");
    lsp.shutdown_and_exit(102);
}
