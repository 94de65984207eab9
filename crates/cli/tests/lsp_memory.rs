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

/// The peak resident memory of process `pid`, in kB.
fn peak_kb(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).expect("the server's /proc status");
    let line = status.lines().find(|l| l.starts_with("VmHWM:")).expect("a VmHWM line");
    line.split_whitespace().nth(1).and_then(|kb| kb.parse().ok()).expect("a number of kB")
}

/// The largest peak resident memory of this process's finished children, in kB.
#[allow(unsafe_code)]
fn children_peak_kb() -> u64 {
    /// `struct rusage` of Linux (64-bit): two timevals, then `ru_maxrss` and 13 more longs.
    #[repr(C)]
    struct Rusage {
        times: [i64; 4],
        maxrss: i64,
        rest: [i64; 13],
    }
    extern "C" {
        fn getrusage(who: i32, usage: *mut Rusage) -> i32;
    }
    const RUSAGE_CHILDREN: i32 = -1;
    let mut usage = Rusage { times: [0; 4], maxrss: 0, rest: [0; 13] };
    // SAFETY: `usage` is a valid, writable `struct rusage`.
    let status = unsafe { getrusage(RUSAGE_CHILDREN, &mut usage) };
    assert_eq!(status, 0, "getrusage");
    usage.maxrss as u64
}

/// 200,000 `puzzle "a" {` lines: every block unclosed, two errors each.
#[test]
fn many_unclosed_blocks_cost_the_server_little_more_than_the_analysis() {
    let text = "puzzle \"a\" {\n".repeat(BLOCKS);
    // What `lights check` takes for the same file: the shared analysis.
    let dir = std::env::temp_dir().join(format!("lights-lsp-memory-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("unclosed.lights");
    std::fs::write(&file, &text).unwrap();
    let check = Command::new(env!("CARGO_BIN_EXE_lights")).arg("check").arg(&file).output().unwrap();
    assert!(!check.status.success(), "the file has errors");
    let _ = std::fs::remove_dir_all(&dir);
    let check_peak = children_peak_kb();

    let mut command = Command::new(env!("CARGO_BIN_EXE_lights"));
    command.arg("lsp");
    let mut lsp = Client::spawn(command);
    lsp.keep_log(false);
    let pid = lsp.pid().expect("a spawned server");
    lsp.initialize(json!({}), serde_json::Value::Null);
    lsp.open(URI, 1, &text);
    let published = lsp.diagnostics_within(URI, 1, Duration::from_secs(600));
    assert_eq!(published.len(), 500, "at most 500 diagnostics are published");
    let symbols = lsp.request("textDocument/documentSymbol", json!({"textDocument": {"uri": URI}}));
    let answer = symbols.to_string().len() as u64;
    let peak = peak_kb(pid);
    eprintln!(
        "{BLOCKS} unclosed blocks ({} kB): server peak {peak} kB, `lights check` peak {check_peak} kB, symbols answer {} kB",
        text.len() >> 10,
        answer >> 10
    );
    assert!(answer < 2 << 20, "a documentSymbol answer of {answer} bytes");
    // docs/lsp.md: the server holds the analysis once, and little besides.
    assert!(peak * 10 <= check_peak * 12, "server peak {peak} kB against {check_peak} kB for `lights check`");
    lsp.shutdown_and_exit();
}

const BLOCKS: usize = 200_000;
