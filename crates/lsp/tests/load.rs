//! The server under load: slow requests (lenses of a huge board, formatting
//! and outlining large files) run off the message loop, so a request on
//! another document is answered first; a version's lenses are built once;
//! answers stay in proportion to what the user can use.

mod common;

use std::time::Duration;

use common::*;
use serde_json::{json, Value};

/// A 2,800² board: its insert-solution lens writes out a 15 MB solution grid.
const HUGE: &str = "puzzle \"huge\" {\n  size 2800x2800\n  goal on\n}\n";
const SMALL: &str = "puzzle \"small\" {\n  size 3x3\n  lights on\n}\n";
const HUGE_URI: &str = "file:///work/huge.lights";

fn lens_request(c: &mut Client, uri: &str) -> (i64, Value) {
    let id = c.next_id();
    (
        id,
        json!({"jsonrpc": "2.0", "id": id, "method": "textDocument/codeLens", "params": {"textDocument": {"uri": uri}}}),
    )
}

/// Wait until the blocks of `uri` are solved, asking for inlay hints (which
/// build no lenses).
fn solved(c: &mut Client, uri: &str) {
    let range = json!({"start": {"line": 0, "character": 0}, "end": {"line": 9, "character": 0}});
    for _ in 0..600 {
        let hints = c.request("textDocument/inlayHint", json!({"textDocument": {"uri": uri}, "range": range}));
        let labels = hints.as_array().unwrap().iter().map(|h| h["label"].to_string()).collect::<Vec<_>>();
        if !labels.is_empty() && !labels.iter().any(|l| l.contains("solving")) {
            return;
        }
        c.drain(Duration::from_millis(500));
    }
    panic!("{uri} was not solved");
}

#[test]
fn a_hover_on_another_document_is_answered_before_five_slow_lens_requests() {
    let init = json!({"inlayHints": {"enable": true}});
    let (mut c, stats) = start_with(Options::default(), capabilities(false), init);
    c.open(HUGE_URI, 1, HUGE);
    c.diagnostics_within(HUGE_URI, 1, Duration::from_secs(300));
    solved(&mut c, HUGE_URI);
    c.open(URI, 1, SMALL);
    c.diagnostics(URI, 1);
    let builds = stats.lens_builds();

    // Five lens requests and a hover, in one write: the server has them all at once.
    let mut bytes = Vec::new();
    let mut lenses = Vec::new();
    for _ in 0..5 {
        let (id, request) = lens_request(&mut c, HUGE_URI);
        lenses.push(id);
        bytes.extend(frame_json(&request));
    }
    let hover = c.next_id();
    let position = json!({"line": 0, "character": 2});
    bytes.extend(frame_json(&json!({"jsonrpc": "2.0", "id": hover, "method": "textDocument/hover",
                                     "params": {"textDocument": {"uri": URI}, "position": position}})));
    c.send_raw(&bytes).unwrap();

    // The order in which the answers arrive, not how long they took.
    let mut order = Vec::new();
    while order.len() < 6 {
        let m = c.wait_for_within("an answer", Duration::from_secs(300), is_response);
        assert!(m.get("error").is_none(), "{m}");
        order.push(m["id"].as_i64().unwrap());
    }
    assert_eq!(order[0], hover, "the hover waited behind the lenses: {order:?} (hover {hover})");
    assert!(lenses.iter().all(|id| order.contains(id)), "{order:?}");
    // One version, one set of answers: the lenses were built once.
    assert_eq!(stats.lens_builds() - builds, 1, "lenses rebuilt for the same version");
    // And a sixth request later, from the cache.
    let again = c.request("textDocument/codeLens", json!({"textDocument": {"uri": HUGE_URI}}));
    assert!(again.as_array().is_some_and(|l| !l.is_empty()), "{again}");
    assert_eq!(stats.lens_builds() - builds, 1, "lenses rebuilt for the same version");
    // A new version builds them again.
    c.change(HUGE_URI, 2, &HUGE.replace("huge", "huge2"));
    c.settled(HUGE_URI, 2, Duration::from_secs(300));
    assert!(stats.lens_builds() - builds >= 2);
    c.shutdown_and_exit();
}

#[test]
fn formatting_a_large_file_answers_with_the_lines_that_change() {
    let block = "puzzle \"a\" {\n  size 2x2\n  lights on\n}\n\n";
    let head = block.repeat(20_000);
    let text = format!("{head}puzzle \"b\"{{\nsize 2x2\n}}\n\n{head}puzzle \"z\" {{\n  size 2x2\n}}\n");
    let (mut c, _) = start(Options::default());
    c.open(URI, 1, &text);
    c.diagnostics_within(URI, 1, Duration::from_secs(300));
    let params = json!({"textDocument": {"uri": URI}, "options": {"tabSize": 2, "insertSpaces": true}});
    let edits = c.request("textDocument/formatting", params);
    let edits = edits.as_array().unwrap();
    assert_eq!(edits.len(), 1, "{edits:?}");
    // Only the block that changes: from its first line, a few bytes.
    let lines = head.lines().count() as u64;
    assert_eq!(edits[0]["range"]["start"], json!({"line": lines, "character": 0}), "{edits:?}");
    assert!(edits[0]["range"]["end"]["line"].as_u64().unwrap() <= lines + 3, "{edits:?}");
    assert!(edits[0]["newText"].as_str().unwrap().len() < 40, "{edits:?}");
    assert_eq!(apply_edits(&text, edits, false), lights_syntax::format::format_source(&text).unwrap());
    c.shutdown_and_exit();
}

#[test]
fn the_outline_of_many_blocks_is_bounded() {
    let text: String = (0..20_000).map(|i| format!("puzzle \"p{i}\" {{\n  size 2x2\n}}\n")).collect();
    let (mut c, _) = start(Options::default());
    c.open(URI, 1, &text);
    c.diagnostics_within(URI, 1, Duration::from_secs(300));
    let symbols = c.request("textDocument/documentSymbol", json!({"textDocument": {"uri": URI}}));
    let symbols = symbols.as_array().unwrap();
    assert_eq!(symbols.len(), 5_001);
    assert_eq!(symbols[4_999]["name"], "p4999");
    assert_eq!(symbols[5_000]["name"], "… 15000 more puzzles");
    assert_eq!(symbols[5_000]["range"]["start"]["line"], 15_000);
    c.shutdown_and_exit();
}
