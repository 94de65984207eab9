//! `lights lsp` gives memory back: documents opened, edited and closed
//! over and over leave the process's resident memory where the first
//! cycle left it (read from /proc/PID/status of the real process, with
//! the binary's own allocator).

use std::process::Command;
use std::time::Duration;

use lights_test_client::Client;
use serde_json::json;

const URI: &str = "file:///work/big.lights";
const CYCLES: usize = 10;

/// The resident memory of process `pid`, in kB.
fn rss_kb(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).expect("the server's /proc status");
    let line = status.lines().find(|l| l.starts_with("VmRSS:")).expect("a VmRSS line");
    line.split_whitespace().nth(1).and_then(|kb| kb.parse().ok()).expect("a number of kB")
}

/// A 40-byte document with a 10,000² board, its lights at `cell`.
fn board(cell: usize) -> String {
    format!("puzzle \"b\" {{\n  size 10000x10000\n  lights at 1,{cell}\n}}\n")
}

#[test]
fn resident_memory_after_ten_open_edit_close_cycles_stays_within_20_percent_of_the_first() {
    let mut command = Command::new(env!("CARGO_BIN_EXE_lights"));
    command.arg("lsp");
    let mut lsp = Client::spawn(command);
    let pid = lsp.pid().expect("a spawned server");
    lsp.initialize(json!({}), serde_json::Value::Null);
    let mut after = Vec::new();
    for cycle in 0..CYCLES {
        lsp.open(URI, 1, &board(1 + cycle));
        lsp.settled(URI, 1, Duration::from_secs(300));
        lsp.change(URI, 2, &board(100 + cycle));
        lsp.settled(URI, 2, Duration::from_secs(300));
        lsp.close(URI);
        // The close's empty publish: the server has handled the close.
        lsp.wait_for("the publish of the close", |m| {
            m["method"] == "textDocument/publishDiagnostics"
                && m["params"]["uri"] == URI
                && m["params"]["version"].is_null()
        });
        after.push(rss_kb(pid));
    }
    let (first, last) = (after[0], after[CYCLES - 1]);
    eprintln!("resident memory after each cycle (kB): {after:?}");
    assert!(last * 5 <= first * 6, "resident memory grew from {first} kB to {last} kB over {CYCLES} cycles: {after:?}");
    lsp.shutdown_and_exit();
}
