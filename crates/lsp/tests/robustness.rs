//! Messages a client gets wrong, and what it gets back: an answer to every
//! request (`$/` ones included), a log line for every notification that is
//! ignored, an error that says what is unknown; and how a session ends
//! (`exit` without `shutdown`). Also ranged `didChange`s, which the server
//! takes although it asks for whole texts.

mod common;

use std::time::Duration;

use common::*;
use serde_json::{json, Value};

const ALL_ON: &str = "puzzle \"all-on\" {\n  size 5x5\n  lights on\n}\n";

/// How long a log line may take (it is sent at once; a busy machine).
const LOG_WAIT: Duration = Duration::from_secs(20);

fn is_log(m: &Value) -> bool {
    m["method"] == "window/logMessage"
}

fn is_publish_for(uri: &'static str) -> impl Fn(&Value) -> bool {
    move |m: &Value| m["method"] == "textDocument/publishDiagnostics" && m["params"]["uri"] == uri
}

fn symbols(c: &mut Client, uri: &str) -> Value {
    c.request("textDocument/documentSymbol", json!({"textDocument": {"uri": uri}}))
}

#[test]
fn a_dollar_request_is_answered_with_method_not_found_and_a_dollar_notification_is_not_answered() {
    // Before `initialize` too.
    let (mut c, _) = connect(Options::default());
    let r = c.request_raw("$/unknown", Value::Null);
    assert_eq!(error_code(&r), -32601, "{r}");

    let (mut c, _) = start(Options::default());
    let r = c.request_raw("$/foo", json!({"x": 1}));
    assert_eq!(error_code(&r), -32601, "{r}");
    assert_eq!(r["error"]["data"], "$/foo", "{r}");
    // The same method as a notification is ignored, as the specification says.
    c.notify("$/foo", json!({"x": 1}));
    c.notify("$/anotherNotification", Value::Null);
    c.open(URI, 1, ALL_ON);
    assert_eq!(symbols(&mut c, URI)[0]["name"], "all-on");
    c.drain(Duration::from_millis(300));
    c.assert_no_stray_responses();
    c.shutdown_and_exit();
}

#[test]
fn serve_says_whether_shutdown_came_before_exit() {
    let (mut c, _, serving) = connect_and_watch(Options::default());
    c.initialize(capabilities(false), Value::Null);
    c.notify("exit", Value::Null);
    let ending = serving.join().expect("the server thread");
    assert_eq!(ending, Ending::WithoutShutdown);
    assert_eq!(ending.exit_status(), 1);

    let (mut c, _, serving) = connect_and_watch(Options::default());
    c.initialize(capabilities(false), Value::Null);
    c.shutdown_and_exit();
    let ending = serving.join().expect("the server thread");
    assert_eq!(ending, Ending::AfterShutdown);
    assert_eq!(ending.exit_status(), 0);

    // A `shutdown` refused (before `initialize`) does not count.
    let (mut c, _, serving) = connect_and_watch(Options::default());
    let r = c.request_raw("shutdown", Value::Null);
    assert_eq!(error_code(&r), -32002, "{r}");
    c.notify("exit", Value::Null);
    assert_eq!(serving.join().expect("the server thread"), Ending::WithoutShutdown);
}

#[test]
fn did_open_with_an_invalid_uri_is_logged_and_the_server_goes_on() {
    let (mut c, _) = start(Options::default());
    let doc = json!({"uri": "not a uri", "languageId": "lights", "version": 1, "text": ALL_ON});
    c.notify("textDocument/didOpen", json!({"textDocument": doc}));
    let log = c.wait_for_within("a log line about the invalid URI", LOG_WAIT, is_log);
    let message = log["params"]["message"].as_str().unwrap();
    assert!(matches!(log["params"]["type"].as_i64(), Some(1 | 2)), "an error or a warning: {log}");
    assert!(message.contains("textDocument/didOpen: invalid URI \"not a uri\""), "{message}");
    // Params of the wrong shape are logged too.
    c.notify("textDocument/didOpen", json!({"textDocument": {"uri": URI}}));
    let log = c.wait_for_within("a log line about missing fields", LOG_WAIT, is_log);
    assert!(log["params"]["message"].as_str().unwrap().contains("missing field"), "{log}");
    // Still serving.
    c.open(URI, 1, ALL_ON);
    assert!(c.diagnostics(URI, 1).is_empty());
    assert_eq!(symbols(&mut c, URI)[0]["name"], "all-on");
    c.shutdown_and_exit();
}

#[test]
fn did_change_of_a_document_never_opened_publishes_nothing_and_is_logged() {
    const NEVER: &str = "file:///work/never-opened.lights";
    let (mut c, stats) = start(Options::default());
    c.change(NEVER, 2, ALL_ON);
    // Another document's publish comes after anything the change would have published.
    c.open(URI, 1, ALL_ON);
    c.diagnostics(URI, 1);
    assert!(!c.arrives_within(Duration::from_millis(500), is_publish_for(NEVER)), "{:?}", c.publishes(NEVER));
    assert!(c.publishes(NEVER).is_empty(), "{:?}", c.publishes(NEVER));
    let log = c.wait_for_within("a warning about the change", LOG_WAIT, is_log);
    assert_eq!(log["params"]["type"], 2, "a warning: {log}");
    let message = log["params"]["message"].as_str().unwrap();
    assert!(message.contains(NEVER) && message.contains("not open"), "{message}");
    assert_eq!(stats.open_documents(), 1, "only the opened document is held");
    assert_eq!(c.request("textDocument/documentSymbol", json!({"textDocument": {"uri": NEVER}})), Value::Null);
    c.shutdown_and_exit();
}

#[test]
fn execute_command_names_the_unknown_document_or_puzzle() {
    let (mut c, _) = start(Options::default());
    let params = |uri: &str, index: u64| json!({"command": "lights.insertSolution", "arguments": [uri, index]});
    let r = c.request_raw("workspace/executeCommand", params("file:///work/nowhere.lights", 0));
    assert_eq!(error_code(&r), -32602, "{r}");
    let message = r["error"]["message"].as_str().unwrap();
    assert!(message.contains("unknown document file:///work/nowhere.lights"), "{message}");

    c.open(URI, 1, ALL_ON);
    c.settled(URI, 1, TIMEOUT);
    let r = c.request_raw("workspace/executeCommand", params(URI, 5));
    assert_eq!(error_code(&r), -32602, "{r}");
    let message = r["error"]["message"].as_str().unwrap();
    assert!(message.contains("unknown puzzle 5") && message.contains("1 block"), "{message}");
    // The puzzle that exists still gets its solution.
    assert_eq!(c.request("workspace/executeCommand", params(URI, 0)), Value::Null);
    c.wait_for("applyEdit", |m| m["method"] == "workspace/applyEdit");
    c.shutdown_and_exit();
}

#[test]
fn ranged_changes_apply_to_the_text_in_the_negotiated_encoding() {
    let text = "// é𝄞 clef\npuzzle \"p\" {\n  size 5x5\n  lights on\n}\n";
    for utf8 in [false, true] {
        let (mut c, _) = start_with(Options::default(), capabilities(utf8), Value::Null);
        c.open(URI, 1, text);
        c.diagnostics(URI, 1);
        // Line 0: replace "é𝄞" (3 UTF-16 units, 6 bytes) by "x"; then, in the
        // same notification, rename the puzzle on line 1 and make it 3×3.
        let units = if utf8 { 6 } else { 3 };
        let range = |line: u32, from: usize, to: usize| json!({"start": {"line": line, "character": from}, "end": {"line": line, "character": to}});
        let changes = json!([
            {"range": range(0, 3, 3 + units), "text": "x"},
            {"range": range(1, 8, 9), "text": "renamed"},
            {"range": range(2, 7, 10), "text": "3x3"},
        ]);
        c.change_with(URI, 2, changes);
        c.diagnostics(URI, 2);
        let expected = "// x clef\npuzzle \"renamed\" {\n  size 3x3\n  lights on\n}\n";
        let symbol = symbols(&mut c, URI)[0].clone();
        assert_eq!(symbol["name"], "renamed", "{symbol}");
        assert_eq!(symbol["detail"], "3×3 · cross · plane · 2 states", "{symbol}");
        let end = expected.len() - 1; // before the last line break
        assert_eq!(symbol["range"]["end"], position(expected, end, utf8), "{symbol}");
        // A whole text, then an insertion at its very end, in one notification.
        let two = "puzzle \"two\" {\n  size 2x2\n  lights on\n}\n";
        c.change_with(URI, 3, json!([{"text": ALL_ON}, {"range": range(4, 0, 0), "text": two}]));
        c.diagnostics(URI, 3);
        let names: Vec<Value> = symbols(&mut c, URI).as_array().unwrap().iter().map(|s| s["name"].clone()).collect();
        assert_eq!(names, ["all-on", "two"]);
        c.shutdown_and_exit();
    }
}

// ------------------------------------------------------------------ frame recovery

/// A documentSymbol request for [`URI`] as a raw frame, and its id.
fn symbols_frame(c: &mut Client) -> (i64, Vec<u8>) {
    let id = c.next_id();
    let msg = json!({"jsonrpc": "2.0", "id": id, "method": "textDocument/documentSymbol",
                     "params": {"textDocument": {"uri": URI}}});
    (id, frame_json(&msg))
}

fn is_error_with(code: i64) -> impl Fn(&Value) -> bool {
    move |m: &Value| is_response(m) && m["id"].is_null() && error_code(m) == code
}

/// The answer to request `id` names the all-on puzzle: the frame was read.
fn assert_answered(c: &mut Client, id: i64, what: &str) {
    let r = c.wait_for(&format!("the answer to the frame after {what}"), |m| is_response(m) && m["id"] == id);
    assert_eq!(r["result"][0]["name"], "all-on", "{what}: {r}");
}

#[test]
fn a_short_content_length_loses_only_its_own_message() {
    let (mut c, _) = start(Options::default());
    c.open(URI, 1, ALL_ON);
    // The body runs 20 bytes past its stated length, into the next frame's header.
    let (lost, first) = symbols_frame(&mut c);
    let body = &first[first.windows(4).position(|w| w == b"\r\n\r\n").unwrap() + 4..];
    let mut bytes = format!("Content-Length: {}\r\n\r\n", body.len() - 20).into_bytes();
    bytes.extend_from_slice(body);
    let (id, next) = symbols_frame(&mut c);
    bytes.extend_from_slice(&next);
    c.send_raw(&bytes).unwrap();
    c.wait_for("the parse error of the short body", is_error_with(-32700));
    assert_answered(&mut c, id, "a short Content-Length");
    // Its body spread over lines that look like headers: the same.
    let pretty = serde_json::to_string_pretty(&json!({"jsonrpc": "2.0", "id": lost, "method": "shutdown"})).unwrap();
    let mut bytes = format!("Content-Length: 10\r\n\r\n{pretty}\r\n").into_bytes();
    let (id, next) = symbols_frame(&mut c);
    bytes.extend_from_slice(&next);
    c.send_raw(&bytes).unwrap();
    assert_answered(&mut c, id, "a short Content-Length before lines of JSON");
    // Its first 10 bytes are not JSON; the rest is not headers: one error each.
    c.wait_for("the parse error of the short body", is_error_with(-32700));
    c.wait_for("the error about the lines that are not headers", is_error_with(-32700));
    assert!(!c.arrives_within(Duration::from_millis(200), |m| is_response(m) && m["id"] == lost));
    c.shutdown_and_exit();
}

#[test]
fn a_huge_content_length_is_refused_and_the_next_frame_is_read() {
    let (mut c, _) = start(Options::default());
    c.open(URI, 1, ALL_ON);
    let mut bytes =
        b"Content-Length: 99999999999\r\n\r\n{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"x\"}\r\n".to_vec();
    let (id, next) = symbols_frame(&mut c);
    bytes.extend_from_slice(&next);
    c.send_raw(&bytes).unwrap();
    let e = c.wait_for("the error about the size", is_error_with(-32600));
    assert!(e["error"]["message"].as_str().unwrap().contains("too large"), "{e}");
    assert_answered(&mut c, id, "a huge Content-Length");
    // A length past usize is not a number: refused the same way, as a parse error.
    let mut bytes = b"Content-Length: 99999999999999999999999999\r\n\r\n{}".to_vec();
    let (id, next) = symbols_frame(&mut c);
    bytes.extend_from_slice(&next);
    c.send_raw(&bytes).unwrap();
    c.wait_for("the parse error of the length", is_error_with(-32700));
    assert_answered(&mut c, id, "a Content-Length past usize");
    c.shutdown_and_exit();
}

#[test]
fn a_header_line_of_many_megabytes_is_skipped_and_the_next_frame_is_read() {
    let (mut c, _) = start(Options::default());
    c.open(URI, 1, ALL_ON);
    // 4 MB without a line break, then a valid frame on the same line.
    let mut bytes = vec![b'x'; 4 << 20];
    let (id, next) = symbols_frame(&mut c);
    bytes.extend_from_slice(&next);
    c.send_raw(&bytes).unwrap();
    assert_answered(&mut c, id, "a 4 MB line ending in a header");
    // 4 MB with line breaks of no header at all, then a valid frame: one error.
    let mut bytes = vec![b'y'; 4 << 20];
    bytes.extend_from_slice(b"\r\n\r\n");
    let (id, next) = symbols_frame(&mut c);
    bytes.extend_from_slice(&next);
    c.send_raw(&bytes).unwrap();
    c.wait_for("the error about the long line", is_error_with(-32700));
    assert_answered(&mut c, id, "a 4 MB line that is not a header");
    c.shutdown_and_exit();
}
