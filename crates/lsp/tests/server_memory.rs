//! The language server's memory and latency on large documents, for
//! docs/PERFORMANCE.md. Not a test of wall-clock time: `#[ignore]`d, run by
//! `bench/server` in release, printing a Markdown table. (The bound the
//! server itself accounts for, its cache bytes, is asserted in
//! `lifecycle.rs`, in every run.)
//!
//! * a 40-byte document with a 10,000×10,000 board: resident memory after
//!   it is opened, after 10 quick edits (each a new board, published once
//!   the last is solved), and after it is closed;
//! * hover, document symbols and a cancelled request while a slow solve runs.

mod common;

use std::time::{Duration, Instant};

use common::*;
use lights_compiler::{Block, BlockReport, SolveError};
use serde_json::json;

/// Resident and peak resident memory of this process (the server runs in
/// it), from /proc/self/status, in MB.
fn memory() -> (u64, u64) {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let field = |name: &str| -> u64 {
        status
            .lines()
            .find(|l| l.starts_with(name))
            .and_then(|l| l.split_whitespace().nth(1))
            .and_then(|kb| kb.parse::<u64>().ok())
            .map_or(0, |kb| kb / 1024)
    };
    (field("VmRSS:"), field("VmHWM:"))
}

/// Asks for the code lenses until no puzzle of the document is being solved.
fn solved(c: &mut Client) {
    let deadline = Instant::now() + Duration::from_secs(300);
    while c.code_lens_titles(URI).iter().any(|t| t.contains("solving")) {
        assert!(Instant::now() < deadline, "still solving");
        std::thread::sleep(Duration::from_millis(2));
    }
}

fn big(k: usize) -> String {
    format!("puzzle \"big\" {{\n  size 10000x10000\n  goal at {k},{k}\n  lights on\n}}\n")
}

#[test]
#[ignore = "a measurement for bench/server, to run by hand in release"]
fn large_document_memory() {
    let (mut c, stats) = start(Options::default());
    let (base, _) = memory();
    let t = Instant::now();
    c.open(URI, 1, &big(1));
    c.diagnostics_within(URI, 1, Duration::from_secs(120));
    solved(&mut c);
    let opened = t.elapsed();
    let (after_open, _) = memory();
    let t = Instant::now();
    for v in 2..=11 {
        c.change(URI, v, &big(v as usize));
    }
    c.diagnostics_within(URI, 11, Duration::from_secs(300));
    solved(&mut c);
    let edited = t.elapsed();
    let (after_edits, peak) = memory();
    let cache = stats.cache_bytes() >> 20;
    c.close(URI);
    let _ = c.request("textDocument/documentSymbol", json!({"textDocument": {"uri": URI}}));
    std::thread::sleep(Duration::from_millis(500));
    let (after_close, _) = memory();
    c.shutdown_and_exit();
    println!("| what | figure |");
    println!("|---|---|");
    println!("| resident before opening | {base} MB |");
    println!(
        "| open 10,000² `lights on` + goal cell, solved (lens) | {} ms, {after_open} MB resident |",
        opened.as_millis()
    );
    println!(
        "| 10 quick edits (each a new board), last version solved (lens) | {} ms, {after_edits} MB resident, {peak} MB peak, cache {cache} MB |",
        edited.as_millis()
    );
    println!("| after close | {after_close} MB resident, cache {} MB |", stats.cache_bytes() >> 20);
}

/// A solve that takes `SLOW` unless cancelled (a stand-in for any slow board).
fn slow_solve(
    _: &Block,
    _: &lights_compiler::SolveOptions,
    cancel: &dyn Fn() -> bool,
) -> Result<BlockReport, SolveError> {
    let end = Instant::now() + Duration::from_secs(5);
    while Instant::now() < end {
        if cancel() {
            return Err(SolveError::Cancelled);
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    Err(SolveError::Cancelled)
}

#[test]
#[ignore = "a measurement for bench/server, to run by hand in release"]
fn requests_during_a_slow_solve() {
    let (mut c, _) = start(Options { solve: slow_solve, ..Options::default() });
    let text = "puzzle \"slow\" {\n  size 5x5\n  lights on\n}\n";
    c.open(URI, 1, text);
    std::thread::sleep(Duration::from_millis(300));
    let mut worst = Duration::ZERO;
    for _ in 0..20 {
        let t = Instant::now();
        let _ = c.request(
            "textDocument/hover",
            json!({"textDocument": {"uri": URI}, "position": {"line": 0, "character": 9}}),
        );
        let _ = c.request("textDocument/documentSymbol", json!({"textDocument": {"uri": URI}}));
        worst = worst.max(t.elapsed());
    }
    c.shutdown_and_exit();
    println!(
        "| hover + document symbols while a 5 s solve runs (worst of 20 pairs) | {:.1} ms |",
        worst.as_secs_f64() * 1e3
    );
}

/// Waits until the blocks of `uri` are solved, by inlay hints (which build no lenses).
fn hinted(c: &mut Client, uri: &str) {
    let range = json!({"start": {"line": 0, "character": 0}, "end": {"line": 9, "character": 0}});
    loop {
        let hints = c.request("textDocument/inlayHint", json!({"textDocument": {"uri": uri}, "range": range}));
        if !hints.to_string().contains("solving") {
            return;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// How long a hover on another document waits behind 1 and 5 lens requests
/// on a board whose insert-solution lens writes a 15 MB grid, and behind
/// formatting a 9 MB document (issue 25, item 10: the target is < 50 ms).
#[test]
#[ignore = "a measurement for bench/server, to run by hand in release"]
fn hover_behind_slow_requests() {
    let init = json!({"inlayHints": {"enable": true}});
    let (mut c, _) = start_with(Options::default(), capabilities(false), init);
    let huge = "puzzle \"huge\" {\n  size 2800x2800\n  goal on\n}\n";
    let h = "file:///work/huge.lights";
    c.open(URI, 1, "puzzle \"small\" {\n  size 3x3\n  lights on\n}\n");
    c.diagnostics(URI, 1);
    let hover = |c: &mut Client| {
        let id = c.next_id();
        let position = json!({"line": 0, "character": 2});
        let msg = json!({"jsonrpc": "2.0", "id": id, "method": "textDocument/hover",
                         "params": {"textDocument": {"uri": URI}, "position": position}});
        (id, frame_json(&msg))
    };
    for (v, n) in [(1, 1), (2, 5)] {
        c.open(h, v, &huge.replace("huge", &format!("huge{v}")));
        c.diagnostics_within(h, v, Duration::from_secs(300));
        hinted(&mut c, h);
        let mut bytes = Vec::new();
        let mut lenses = Vec::new();
        for _ in 0..n {
            let id = c.next_id();
            lenses.push(id);
            let msg = json!({"jsonrpc": "2.0", "id": id, "method": "textDocument/codeLens",
                             "params": {"textDocument": {"uri": h}}});
            bytes.extend(frame_json(&msg));
        }
        let (id, frame) = hover(&mut c);
        bytes.extend(frame);
        let t = Instant::now();
        c.send_raw(&bytes).unwrap();
        c.wait_for("the hover", |m| is_response(m) && m["id"] == id);
        println!("| hover behind {n} lens request(s) on a 2,800² board | {:.1} ms |", t.elapsed().as_secs_f64() * 1e3);
        for lens in lenses {
            c.wait_for_within("a lens answer", Duration::from_secs(300), |m| is_response(m) && m["id"] == lens);
        }
        c.close(h);
    }
    let block = "puzzle \"a\" {\n  size 2x2\n  lights on\n}\n\n";
    let text = format!("{}puzzle \"b\"{{\nsize 2x2\n}}\n", block.repeat(250_000));
    let f = "file:///work/format.lights";
    c.open(f, 1, &text);
    c.diagnostics_within(f, 1, Duration::from_secs(300));
    let format = c.next_id();
    let options = json!({"tabSize": 2, "insertSpaces": true});
    let mut bytes = frame_json(&json!({"jsonrpc": "2.0", "id": format, "method": "textDocument/formatting",
                                       "params": {"textDocument": {"uri": f}, "options": options}}));
    let (id, frame) = hover(&mut c);
    bytes.extend(frame);
    let t = Instant::now();
    c.send_raw(&bytes).unwrap();
    c.wait_for("the hover", |m| is_response(m) && m["id"] == id);
    let waited = t.elapsed();
    let answer = c.wait_for_within("the edits", Duration::from_secs(300), |m| is_response(m) && m["id"] == format);
    println!(
        "| hover behind formatting a {} MB document | {:.1} ms (formatting answer {} bytes) |",
        text.len() >> 20,
        waited.as_secs_f64() * 1e3,
        answer.to_string().len()
    );
    c.shutdown_and_exit();
}
