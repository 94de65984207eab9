//! `lights lsp` over its real transport: the binary is spawned with piped
//! standard input and output and spoken to in raw LSP framing
//! (`Content-Length: N\r\n\r\n<json>`), as an editor would. Each test runs
//! its own server process and ends it with `shutdown` + `exit`.
//!
//! The scenarios are the ones an editor cannot be trusted to avoid: broken
//! frames, methods the server does not know, a 10 MB document, a board far
//! beyond the solver.

use std::process::Command;
use std::time::Duration;

use lights_test_client::{error_code, frame, Client, TIMEOUT};
use serde_json::{json, Value};

/// How long the diagnostics of a 10 MB document may take (an unoptimised build, a busy machine).
const BIG_TIMEOUT: Duration = Duration::from_secs(120);
/// How long the process may take to exit after `exit`.
const EXIT_TIMEOUT: Duration = Duration::from_secs(10);

/// A `lights lsp` process, spoken to through the shared test client.
fn spawn() -> Client {
    let mut command = Command::new(env!("CARGO_BIN_EXE_lights"));
    command.arg("lsp");
    Client::spawn(command)
}

/// `initialize` and `initialized`; returns the capabilities.
fn initialize(lsp: &mut Client) -> Value {
    let result = lsp.initialize(json!({}), Value::Null);
    let caps = result["capabilities"].clone();
    assert_eq!(caps["textDocumentSync"]["change"], 1, "full document sync: {caps}");
    assert_eq!(result["serverInfo"]["name"], "lights", "{result}");
    caps
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
        let mut lsp = spawn();
        lsp.send_raw(&bytes).unwrap();
        let answer = lsp.wait_for(&format!("an answer to {what}"), |_| true);
        assert_eq!(answer["jsonrpc"], "2.0", "{what}: {answer}");
        assert!(answer["id"].is_null(), "{what}: an error about an unreadable message has id null: {answer}");
        assert_eq!(error_code(&answer), code, "{what}: {answer}");
        assert!(answer.get("result").is_none(), "{what}: {answer}");

        // The server keeps serving: it answers `initialize` and shuts down cleanly.
        let init = frame(br#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{}}}"#);
        lsp.send_raw(&init).unwrap_or_else(|e| panic!("{what}: the server no longer reads its input: {e}"));
        let m = lsp.wait_for("the answer to initialize", |_| true);
        assert_eq!(m["id"], 1, "{what}: {m}");
        assert!(m["result"]["capabilities"].is_object(), "{what}: {m}");
        lsp.notify("initialized", json!({}));
        lsp.shutdown_and_exit();
    }
}

/// All the bad frames in a row on one server, then real work. (tower-lsp-server
/// alone stops reading after the first frame it cannot decode — tokio-util's
/// `FramedRead` ends its stream after a decoder error — so `lights lsp` puts a
/// guard in front of it: `crates/lsp/src/transport.rs`.)
#[test]
fn the_server_keeps_serving_after_malformed_frames() {
    let mut lsp = spawn();
    for (what, bytes, code) in malformed_frames() {
        lsp.send_raw(&bytes).unwrap_or_else(|e| panic!("{what}: the server no longer reads its input: {e}"));
        let answer = lsp.wait_for(&format!("an answer to {what}"), |_| true);
        assert_eq!(error_code(&answer), code, "{what}: {answer}");
        assert!(answer["id"].is_null(), "{what}: {answer}");
    }
    assert!(lsp.running(), "the server exited after malformed frames");
    initialize(&mut lsp);
    lsp.open("file:///alive.lights", 1, "puzzle \"a\" {\n  size 3x3\n}\n");
    let symbols = lsp.request("textDocument/documentSymbol", json!({"textDocument": {"uri": "file:///alive.lights"}}));
    assert_eq!(symbols[0]["name"], "a", "{symbols}");
    lsp.shutdown_and_exit();
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
    let mut lsp = spawn();
    // Before `initialize`, a request is refused as "server not initialized".
    let early = lsp.request_raw("textDocument/documentSymbol", json!({"textDocument": {"uri": "file:///a.lights"}}));
    assert_eq!(error_code(&early), -32002, "{early}");

    initialize(&mut lsp);
    let unknown = lsp.request_raw("lights/doesNotExist", json!({"x": 1}));
    assert_eq!(error_code(&unknown), -32601, "method not found: {unknown}");
    assert!(unknown.get("result").is_none(), "{unknown}");
    // Without params at all, too.
    let bare = lsp.request_raw("lights/doesNotExist", Value::Null);
    assert_eq!(error_code(&bare), -32601, "{bare}");

    // Notifications the server does not know: no answer, no harm.
    lsp.notify("$/unknownThing", json!({"value": 42}));
    lsp.notify("lights/unknownNotification", json!([1, 2, 3]));
    // A response to a request the server never sent.
    lsp.send(&json!({"jsonrpc": "2.0", "id": "never-asked", "result": {"x": 1}}));
    // A known method with params of the wrong shape: invalid params.
    let bad_params = lsp.request_raw("textDocument/hover", json!({"foo": 1}));
    assert_eq!(error_code(&bad_params), -32602, "{bad_params}");

    let uri = "file:///classic.lights";
    lsp.open(uri, 1, CLASSIC);
    let symbols = lsp.request("textDocument/documentSymbol", json!({"textDocument": {"uri": uri}}));
    let names: Vec<&str> = symbols.as_array().unwrap().iter().map(|s| s["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["classic", "second"], "{symbols}");
    assert_eq!(symbols[0]["detail"], "5×5 · cross · plane · 2 states", "{symbols}");
    let diags = lsp.diagnostics_where(uri, 1, TIMEOUT, |_| true);
    assert!(diags.iter().all(|d| d["severity"] != 1), "a correct file has no errors: {diags:?}");

    // Still serving: another unknown request after all that.
    let again = lsp.request_raw("lights/doesNotExist", json!({}));
    assert_eq!(error_code(&again), -32601, "{again}");
    lsp.assert_no_stray_responses();

    // After `shutdown`, requests are invalid; `exit` then ends the process with 0.
    let r = lsp.request_raw("shutdown", Value::Null);
    assert!(r["result"].is_null() && r.get("error").is_none(), "{r}");
    let late = lsp.request_raw("textDocument/documentSymbol", json!({"textDocument": {"uri": uri}}));
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
            // Nine boards repeat, so most puzzles copy an earlier one (L0208): allowed.
            "// lights: allow L0208\npuzzle \"p{n}\" {{\n  size 3x3\n  lights at {},{}\n  expect {claim}\n}}\n",
            n % 3 + 1,
            n / 3 % 3 + 1
        ));
        n += 1;
    }
    (text, n, wrong)
}

/// Lines every puzzle of `many_puzzles` takes.
const LINES_PER_PUZZLE: usize = 6;

#[test]
fn a_ten_megabyte_document_of_puzzles_gets_at_most_500_diagnostics_and_answers() {
    let (text, puzzles, wrong) = many_puzzles();
    assert!(text.len() >= TEN_MB && wrong > 500);
    let mut lsp = spawn();
    initialize(&mut lsp);
    let uri = "file:///many.lights";
    lsp.open(uri, 1, &text);
    drop(text);

    // The solver's findings are in the list once it is not empty (the file has no syntax errors).
    let diags = lsp.diagnostics_where(uri, 1, BIG_TIMEOUT, |d| !d.is_empty());
    assert_eq!(diags.len(), 500, "capped at 500");
    for d in &diags[..499] {
        assert_eq!(d["code"], "L0202", "{d}");
        assert_eq!(d["severity"], 1, "{d}");
        assert!(d["message"].as_str().unwrap().starts_with("`expect solutions 2` does not hold"), "{d}");
    }
    // The first errors, in file order: the odd puzzles.
    assert_eq!(diags[0]["range"]["start"]["line"], LINES_PER_PUZZLE + 4, "{}", diags[0]);
    let last = &diags[499];
    assert_eq!(last["severity"], 3, "an information: {last}");
    let more = wrong - 499;
    assert!(last["message"].as_str().unwrap().starts_with(&format!("{more} more problems are not shown")), "{last}");
    for p in lsp.publishes(uri) {
        assert!(p["diagnostics"].as_array().unwrap().len() <= 500, "every publish is capped");
    }

    // Requests are answered, positions right at the end of the document too.
    let line = (puzzles - 1) * LINES_PER_PUZZLE + 1;
    let hover = lsp.request(
        "textDocument/hover",
        json!({"textDocument": {"uri": uri}, "position": {"line": line, "character": 9}}),
    );
    let shown = hover["contents"]["value"].as_str().unwrap_or_else(|| panic!("no hover text: {hover}"));
    assert!(shown.contains(&format!("puzzle \"p{}\"", puzzles - 1)), "{shown}");
    assert!(shown.contains("3×3"), "{shown}");
    let folds = lsp.request("textDocument/foldingRange", json!({"textDocument": {"uri": uri}}));
    assert!(folds.as_array().unwrap().len() >= puzzles, "a fold per puzzle at least");
    lsp.shutdown_and_exit();
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
    let mut lsp = spawn();
    initialize(&mut lsp);
    let uri = "file:///junk.lights";
    lsp.open(uri, 1, &text);
    drop(text);

    let diags = lsp.diagnostics_where(uri, 1, BIG_TIMEOUT, |_| true);
    assert!(!diags.is_empty() && diags.len() <= 500, "{} diagnostics", diags.len());
    assert!(diags.iter().any(|d| d["code"] == "L0001" && d["severity"] == 1), "text outside a puzzle block");
    let symbols = lsp.request("textDocument/documentSymbol", json!({"textDocument": {"uri": uri}}));
    assert_eq!(symbols, json!([]), "no puzzles in junk");
    let lenses = lsp.request("textDocument/codeLens", json!({"textDocument": {"uri": uri}}));
    assert_eq!(lenses, json!([]));
    lsp.shutdown_and_exit();
}

/// Junk lines that open a brace and never close it: once these made the
/// parser scan the rest of the file for the `}` on every line (quadratic: a
/// 10 MB document never got its diagnostics). At the top level they are one
/// error; inside a puzzle block, one error per line, so the list is capped.
#[test]
fn a_ten_megabyte_document_of_junk_with_unclosed_braces_gets_diagnostics_and_answers() {
    let text = junk(true);
    let lines = text.lines().count();
    let mut lsp = spawn();
    initialize(&mut lsp);
    let top = "file:///junk-braces.lights";
    lsp.open(top, 1, &text);
    let inside = "file:///junk-in-block.lights";
    lsp.open(inside, 1, &format!("puzzle \"p\" {{\n  size 2x2\n{text}}}\n"));
    drop(text);

    let diags = lsp.diagnostics_where(top, 1, BIG_TIMEOUT, |_| true);
    assert!(!diags.is_empty() && diags.len() <= 500, "{} diagnostics", diags.len());
    assert!(diags.iter().any(|d| d["code"] == "L0001"), "text outside a puzzle block: {:?}", diags.first());

    let diags = lsp.diagnostics_where(inside, 1, BIG_TIMEOUT, |_| true);
    assert_eq!(diags.len(), 500, "capped at 500");
    assert!(diags[..499].iter().all(|d| d["severity"] == 1), "{:?}", diags[0]);
    assert_eq!(diags[0]["range"]["start"]["line"], 2, "the first junk line: {}", diags[0]);
    let last = diags[499]["message"].as_str().unwrap();
    let more = lines - 499;
    assert!(last.starts_with(&format!("{more} more problems are not shown")), "{last}");

    let symbols = lsp.request("textDocument/documentSymbol", json!({"textDocument": {"uri": inside}}));
    assert_eq!(symbols.as_array().unwrap().len(), 1, "one puzzle");
    assert_eq!(symbols[0]["name"], "p");
    assert_eq!(symbols[0]["range"]["end"]["line"], lines + 2, "the block ends at its `}}`: {symbols}");
    let lenses = lsp.request("textDocument/codeLens", json!({"textDocument": {"uri": inside}}));
    let title = lenses[0]["command"]["title"].as_str().unwrap();
    assert_eq!(title, format!("✗ {lines} errors"), "{lenses}");
    lsp.shutdown_and_exit();
}

// ------------------------------------------------------------------ 4. a huge board

const HUGE: &str = "\
puzzle \"huge\" {
  size 5000x5000
  rule flip
  topology mobius
  lights on
  locked at 1,1
}

// The classic 5x5 board has 4 solutions for any solvable start.
puzzle \"small\" {
  size 5x5
  lights at 2,2
}
";

/// A board no method solves (no fast path applies to `flip` with a locked
/// cell, and 25 million unknowns are beyond elimination) is declined by the
/// server exactly as `lights check` declines it; the rest is answered.
#[test]
fn a_huge_board_is_declined_as_the_command_line_declines_it_and_the_rest_is_answered() {
    let mut lsp = spawn();
    initialize(&mut lsp);
    let uri = "file:///huge.lights";
    lsp.open(uri, 1, HUGE);

    let diags = lsp.diagnostics_where(uri, 1, BIG_TIMEOUT, |d| d.iter().any(|d| d["code"] == "L0205"));
    let errors: Vec<&Value> = diags.iter().filter(|d| d["severity"] == 1).collect();
    assert_eq!(errors.len(), 1, "{diags:?}");
    let e = errors[0];
    assert_eq!(e["code"], "L0205", "{e}");
    assert_eq!(e["range"]["start"]["line"], 0, "on the huge puzzle's header: {e}");
    let message = e["message"].as_str().unwrap();
    assert!(message.contains("too large to verify") && message.contains("24999999 unknowns"), "{message}");

    // The same message from `lights check`.
    let dir = std::env::temp_dir().join(format!("lights-huge-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("huge.lights");
    std::fs::write(&file, HUGE).unwrap();
    let out =
        Command::new(env!("CARGO_BIN_EXE_lights")).args(["check", "--format", "json"]).arg(&file).output().unwrap();
    let json: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json[0]["diagnostics"][0]["message"].as_str(), message.split("\nnote: ").next());
    let _ = std::fs::remove_dir_all(&dir);

    // The small puzzle is solved all the same.
    let (_, titles) = lsp.settled(uri, 1, TIMEOUT);
    assert_eq!(titles[0], "✗ too large to verify", "{titles:?}");
    assert!(titles[1].starts_with("✓ 4 solutions"), "{titles:?}");

    // And the server goes on answering.
    let hover = lsp
        .request("textDocument/hover", json!({"textDocument": {"uri": uri}, "position": {"line": 0, "character": 9}}));
    let shown = hover["contents"]["value"].as_str().unwrap_or_else(|| panic!("no hover text: {hover}"));
    assert!(shown.contains("puzzle \"huge\"") && shown.contains("too large"), "{shown}");
    let symbols = lsp.request("textDocument/documentSymbol", json!({"textDocument": {"uri": uri}}));
    assert_eq!(symbols[0]["detail"], "5000×5000 · flip · mobius · 2 states", "{symbols}");
    assert_eq!(symbols[1]["name"], "small", "{symbols}");
    lsp.shutdown_and_exit();
}
