//! Versions, caching, cancellation, time budgets and crashes: the server
//! never blocks, never dies, and never shows an older version's answers.
//! Test solvers (slow, never finishing, panicking) are swapped in through
//! `Options`. A "slow" solver or analysis waits at a [`Gate`] the test
//! opens when it has seen what it wanted to see meanwhile: no test depends
//! on work landing inside a window of time.

mod common;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

use common::*;
use lights_compiler::sliding_check::{BuildProgress, BuildStage, TableStore};
use lights_compiler::{Block, BlockReport, FileAnalysis, SolveError};
use serde_json::{json, Value};

const ALL_ON: &str = "puzzle \"all-on\" {\n  size 5x5\n  lights on\n}\n";

fn change_params(version: i32, text: &str) -> Value {
    json!({"textDocument": {"uri": URI, "version": version}, "contentChanges": [{"text": text}]})
}

fn puzzle(name: &str, lights: &str) -> String {
    format!("puzzle \"{name}\" {{\n  size 4x4\n  lights {lights}\n}}\n")
}

fn symbol_names(c: &mut Client) -> Vec<String> {
    let symbols = c.request("textDocument/documentSymbol", json!({"textDocument": {"uri": URI}}));
    symbols.as_array().unwrap().iter().map(|s| s["name"].as_str().unwrap().to_string()).collect()
}

#[test]
fn an_older_version_never_overwrites_a_newer_one() {
    for order in [[3, 2], [2, 3]] {
        let (mut c, _) = start(Options::default());
        c.open(URI, 1, &puzzle("one", "on"));
        c.diagnostics(URI, 1);
        // Both changes in one write: the server has them at once.
        let mut frames = Vec::new();
        for v in order {
            let note = json!({"jsonrpc": "2.0", "method": "textDocument/didChange",
                              "params": change_params(v, &puzzle(&format!("v{v}"), "at 1,1"))});
            frames.extend(frame_json(&note));
        }
        c.send_raw(&frames).unwrap();
        c.diagnostics(URI, 3);
        assert_eq!(symbol_names(&mut c), ["v3"], "order {order:?}");
        // Version 2 is never published after version 3.
        let versions: Vec<i64> = c.publishes(URI).iter().map(|p| p["version"].as_i64().unwrap()).collect();
        let last3 = versions.iter().rposition(|&v| v == 3).unwrap();
        assert!(versions[last3..].iter().all(|&v| v == 3), "{versions:?}");
    }
}

#[test]
fn unchanged_puzzles_are_not_solved_again() {
    let pack = example("examples/level-pack.lights");
    let (mut c, stats) = start(Options::default());
    c.open(URI, 1, &pack);
    c.diagnostics(URI, 1);
    let first = stats.solves_started();
    assert!(first >= 3, "the pack has several puzzles: {first}");
    // A comment and an expect line change nothing the solver depends on.
    let commented = format!("// a new comment\n{pack}");
    c.change(URI, 2, &commented);
    c.diagnostics(URI, 2);
    assert_eq!(stats.solves_started(), first);
    // Changing one puzzle's lights re-solves that puzzle only.
    let idx = commented.find("\n  lights at ").unwrap() + 3;
    let line_end = idx + commented[idx..].find('\n').unwrap();
    let mut edited = commented.clone();
    edited.replace_range(idx..line_end, "lights at 1,1");
    c.change(URI, 3, &edited);
    c.diagnostics(URI, 3);
    assert_eq!(stats.solves_started(), first + 1);
}

/// Where test work waits until the test lets it go on (a static, as the
/// solver and the analysis are plain `fn`s). Each gate serves one test.
struct Gate {
    open: Mutex<bool>,
    opened: Condvar,
}

impl Gate {
    const fn new() -> Gate {
        Gate { open: Mutex::new(false), opened: Condvar::new() }
    }

    /// Let everything waiting (and all that comes later) through.
    fn open(&self) {
        *self.open.lock().unwrap() = true;
        self.opened.notify_all();
    }

    /// Wait until the gate is open (true) or `stop()` says to give up
    /// (false). The timed wait only looks at `stop` again now and then.
    fn wait(&self, stop: &dyn Fn() -> bool) -> bool {
        let mut open = self.open.lock().unwrap();
        while !*open {
            if stop() {
                return false;
            }
            open = self.opened.wait_timeout(open, Duration::from_millis(5)).unwrap().0;
        }
        true
    }
}

/// [`slow_solve`] waits here until the test has seen "solving…".
static SOLVE_GATE: Gate = Gate::new();

/// A solve that takes as long as the test wants: it ends when
/// [`SOLVE_GATE`] opens (or it is cancelled).
fn slow_solve(
    b: &Block,
    _: &lights_compiler::SolveOptions,
    cancel: &dyn Fn() -> bool,
) -> Result<BlockReport, SolveError> {
    if !SOLVE_GATE.wait(cancel) {
        return Err(SolveError::Cancelled);
    }
    b.solve(cancel)
}

#[test]
fn a_slow_puzzle_shows_solving_then_its_answer() {
    let options = Options { solve: slow_solve, first_publish_wait: Duration::from_millis(20), ..Options::default() };
    let (mut c, _) = start(options);
    c.open(URI, 1, ALL_ON);
    let first = c.diagnostics(URI, 1);
    assert!(first.is_empty());
    assert_eq!(c.code_lens_titles(URI), ["⋯ solving…"]);
    // The solve ends now, whenever that is.
    SOLVE_GATE.open();
    // The answer is published again when the solve ends, and lenses are refreshed.
    c.wait_for("code lens refresh", |m| m["method"] == "workspace/codeLens/refresh");
    assert_eq!(c.publishes(URI).len(), 2);
    assert_eq!(c.code_lens_titles(URI)[0], "✓ 4 solutions · minimum 15 presses");
}

static CANCELLED: AtomicUsize = AtomicUsize::new(0);

fn solve_until_cancelled(
    _: &Block,
    _: &lights_compiler::SolveOptions,
    cancel: &dyn Fn() -> bool,
) -> Result<BlockReport, SolveError> {
    loop {
        if cancel() {
            CANCELLED.fetch_add(1, Ordering::SeqCst);
            return Err(SolveError::Cancelled);
        }
        std::thread::sleep(Duration::from_millis(2));
    }
}

#[test]
fn a_newer_edit_cancels_stale_work() {
    let options =
        Options { solve: solve_until_cancelled, first_publish_wait: Duration::from_millis(10), ..Options::default() };
    let (mut c, _) = start(options);
    c.open(URI, 1, &puzzle("p", "on"));
    c.diagnostics(URI, 1);
    assert_eq!(c.code_lens_titles(URI), ["⋯ solving…"]);
    let before = CANCELLED.load(Ordering::SeqCst);
    c.change(URI, 2, &puzzle("p", "at 2,2"));
    c.diagnostics(URI, 2);
    let deadline = Instant::now() + Duration::from_secs(20);
    while CANCELLED.load(Ordering::SeqCst) == before {
        assert!(Instant::now() < deadline, "the stale solve was never cancelled");
        std::thread::sleep(Duration::from_millis(10));
    }
    // Closing the document cancels the rest and clears its diagnostics.
    let before = CANCELLED.load(Ordering::SeqCst);
    c.close(URI);
    c.wait_for("cleared diagnostics", |m| {
        m["method"] == "textDocument/publishDiagnostics"
            && m["params"]["diagnostics"] == json!([])
            && m["params"]["version"].is_null()
    });
    let deadline = Instant::now() + Duration::from_secs(20);
    while CANCELLED.load(Ordering::SeqCst) == before {
        assert!(Instant::now() < deadline, "closing did not cancel");
        std::thread::sleep(Duration::from_millis(10));
    }
}

fn never_finishes(
    _: &Block,
    _: &lights_compiler::SolveOptions,
    cancel: &dyn Fn() -> bool,
) -> Result<BlockReport, SolveError> {
    while !cancel() {
        std::thread::sleep(Duration::from_millis(2));
    }
    Err(SolveError::Cancelled)
}

#[test]
fn the_time_budget_is_reported() {
    let options =
        Options { solve: never_finishes, first_publish_wait: Duration::from_millis(10), ..Options::default() };
    let (mut c, _) = start_with(options, capabilities(false), json!({"lights": {"solver": {"timeBudgetMs": 100}}}));
    c.open(URI, 1, ALL_ON);
    let diags = c.first_problems("the timeout");
    assert_eq!(codes(&diags), ["L0301"]);
    assert_eq!(diags[0]["severity"], 2, "a warning");
    assert!(diags[0]["message"].as_str().unwrap().contains("within the time budget of 100 ms"));
    assert_eq!(c.code_lens_titles(URI), ["⏱ not solved within 100 ms"]);
}

fn panics_on_boom(
    b: &Block,
    options: &lights_compiler::SolveOptions,
    cancel: &dyn Fn() -> bool,
) -> Result<BlockReport, SolveError> {
    match b {
        Block::Lights(p) if p.header.name == "boom" => panic!("the solver exploded"),
        Block::Sliding(_) => panic!("the sliding solver exploded"),
        _ => b.solve_with(options, cancel),
    }
}

#[test]
fn a_solver_panic_becomes_a_diagnostic() {
    let options = Options { solve: panics_on_boom, ..Options::default() };
    let (mut c, _) = start(options);
    let text = format!("{ALL_ON}\npuzzle \"boom\" {{\n  size 3x3\n  lights on\n}}\n");
    c.open(URI, 1, &text);
    // (Printing a panic's backtrace can take longer than the first publish waits.)
    let diags = c.first_problems("the crash");
    assert_eq!(codes(&diags), ["L0302"]);
    assert!(diags[0]["message"].as_str().unwrap().contains("the solver exploded"));
    assert_eq!(diags[0]["range"]["start"]["line"], 5);
    // Still serving: the other puzzle's answer, hover, a new version.
    assert_eq!(c.code_lens_titles(URI)[0], "✓ 4 solutions · minimum 15 presses");
    c.change(URI, 2, ALL_ON);
    assert!(c.diagnostics(URI, 2).is_empty());
}

fn panics_on_marker(src: &str) -> FileAnalysis {
    assert!(!src.contains("EXPLODE"), "the parser exploded");
    lights_compiler::analyze(src)
}

#[test]
fn an_analysis_panic_becomes_a_diagnostic() {
    let options = Options { analyze: panics_on_marker, ..Options::default() };
    let (mut c, _) = start(options);
    c.open(URI, 1, "// EXPLODE\n");
    let diags = c.diagnostics(URI, 1);
    assert_eq!(codes(&diags), ["L0302"]);
    assert!(diags[0]["message"].as_str().unwrap().contains("the parser exploded"));
    assert_eq!(symbol_names(&mut c), Vec::<String>::new());
    c.change(URI, 2, ALL_ON);
    assert!(c.diagnostics(URI, 2).is_empty());
    assert_eq!(symbol_names(&mut c), ["all-on"]);
}

/// The server has no limits of its own: a board the solver declines (no
/// fast path, too many unknowns for elimination) is declined as `lights
/// check` declines it, at once, and the rest of the file is answered.
#[test]
fn a_board_beyond_the_solver_is_declined_as_the_command_line_declines_it() {
    let (mut c, _) = start(Options::default());
    let text =
        format!("puzzle \"huge\" {{\n  size 3000x3000\n  rule flip\n  topology mobius\n  lights on\n  locked at 1,1\n}}\n{ALL_ON}");
    c.open(URI, 1, &text);
    let diags = c.diagnostics(URI, 1);
    assert_eq!(codes(&diags), ["L0205"]);
    assert_eq!(c.code_lens_titles(URI)[..2], ["✗ too large to verify", "✓ 4 solutions · minimum 15 presses"]);
    let doc = lights_ide::Document::new(text);
    let cli = lights_ide::diagnostics(&doc, &lights_ide::Solved::all(&doc));
    assert_eq!(
        diags[0]["message"].as_str().unwrap().split("\nnote: ").next(),
        Some(cli[0].diagnostic.message.as_str())
    );
}

const SLIDING: &str = "sliding \"eight\" {\n  size 3x3\n  tiles {\n    1 2 3\n    4 5 6\n    7 . 8\n  }\n}\n";

#[test]
fn sliding_blocks_have_the_same_time_budget() {
    let options =
        Options { solve: never_finishes, first_publish_wait: Duration::from_millis(10), ..Options::default() };
    let (mut c, _) = start_with(options, capabilities(false), json!({"lights": {"solver": {"timeBudgetMs": 100}}}));
    c.open(URI, 1, SLIDING);
    let diags = c.first_problems("the timeout");
    assert_eq!(codes(&diags), ["L0301"]);
    let message = diags[0]["message"].as_str().unwrap();
    assert!(
        message.starts_with("sliding puzzle \"eight\" was not solved within the time budget of 100 ms"),
        "{message}"
    );
    assert_eq!(c.code_lens_titles(URI), ["⏱ not solved within 100 ms"]);
}

#[test]
fn a_sliding_solver_panic_becomes_a_diagnostic_and_the_rest_is_solved() {
    let options = Options { solve: panics_on_boom, ..Options::default() };
    let (mut c, _) = start(options);
    c.open(URI, 1, &format!("{ALL_ON}\n{SLIDING}"));
    let diags = c.first_problems("the crash");
    assert_eq!(codes(&diags), ["L0302"]);
    assert!(diags[0]["message"].as_str().unwrap().contains("the sliding solver exploded"));
    assert_eq!(diags[0]["range"]["start"]["line"], 5);
    assert_eq!(c.code_lens_titles(URI)[..2], ["✓ 4 solutions · minimum 15 presses", "insert minimum solution"]);
}

#[test]
fn an_edit_to_a_sliding_block_resolves_only_it() {
    let (mut c, stats) = start(Options::default());
    c.open(URI, 1, &format!("{ALL_ON}\n{SLIDING}"));
    c.diagnostics(URI, 1);
    let first = stats.solves_started();
    assert_eq!(first, 2, "one Lights Out puzzle and one sliding block");
    // A comment and an `expect` line change nothing the solver depends on.
    c.change(URI, 2, &format!("{ALL_ON}\n// note\n{}", SLIDING.replace("}\n}", "}\n  expect moves 1\n}")));
    assert!(c.diagnostics(URI, 2).is_empty());
    assert_eq!(stats.solves_started(), first);
    // Another start is another solve.
    c.change(URI, 3, &format!("{ALL_ON}\n{}", SLIDING.replace("7 . 8", ". 7 8")));
    c.diagnostics(URI, 3);
    assert_eq!(stats.solves_started(), first + 1);
}

/// The store the server is given (`lights lsp` gives its cache file).
struct Store;

impl TableStore for Store {
    fn load(&self) -> Result<Option<Vec<u8>>, String> {
        Ok(None)
    }
    fn save(&self, _: &[u8]) -> Result<(), String> {
        Err("read-only file system".into())
    }
    fn location(&self) -> String {
        "/nowhere/lights-pdb.bin".into()
    }
}

/// "Builds the tables", reporting as the real build does, and taking longer
/// than the time budget of the tests below; the note names the store the
/// server passed on.
fn slow_table_build(block: &Block, store: Option<&dyn TableStore>, tables: &dyn Fn(BuildProgress)) -> Option<String> {
    if !matches!(block, Block::Sliding(_)) {
        return None;
    }
    let store = store.expect("the server passes its store on");
    let total = 300;
    tables(BuildProgress { stage: BuildStage::Loading, done: 0, total });
    for finished in 0..3 {
        tables(BuildProgress {
            stage: BuildStage::Building { finished, tables: 3 },
            done: finished as u64 * 100,
            total,
        });
        std::thread::sleep(Duration::from_millis(100));
    }
    tables(BuildProgress { stage: BuildStage::Saving, done: total, total });
    tables(BuildProgress { stage: BuildStage::Finished, done: total, total });
    let err = store.save(&[]).unwrap_err();
    Some(format!("could not write {}: {err}; kept in memory", store.location()))
}

#[test]
fn building_the_pattern_databases_shows_work_done_progress() {
    let options = Options { prepare: slow_table_build, tables: Some(Arc::new(Store)), ..Options::default() };
    let mut caps = capabilities(false);
    caps["window"] = json!({"workDoneProgress": true});
    let (mut c, _) = start_with(options, caps, Value::Null);
    c.open(URI, 1, SLIDING);
    c.wait_for("the end of the progress", |m| m["method"] == "$/progress" && m["params"]["value"]["kind"] == "end");
    let create = c.received.iter().find(|m| m["method"] == "window/workDoneProgress/create").expect("a token");
    assert_eq!(create["params"]["token"], "lights/pattern-databases");
    let steps: Vec<(String, Value, String)> = c
        .received
        .iter()
        .filter(|m| m["method"] == "$/progress")
        .map(|m| {
            let v = &m["params"]["value"];
            (
                v["kind"].as_str().unwrap().to_string(),
                v["percentage"].clone(),
                v["message"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    let once = " (once; cached for next time)";
    assert_eq!(
        steps,
        [
            ("begin".to_string(), json!(0), format!("0 of 3 tables done{once}")),
            ("report".to_string(), json!(33), format!("1 of 3 tables done{once}")),
            ("report".to_string(), json!(66), format!("2 of 3 tables done{once}")),
            ("report".to_string(), json!(100), "saving to the cache".to_string()),
            ("end".to_string(), Value::Null, "ready".to_string()),
        ]
    );
    assert_eq!(c.settled(URI, 1, TIMEOUT).1[0], "✓ optimal 1 move");
    // Why the next session will build again is logged.
    let log = c.wait_for("the cache warning", |m| m["method"] == "window/logMessage");
    assert_eq!(log["params"]["type"], 2, "a warning");
    assert!(
        log["params"]["message"]
            .as_str()
            .unwrap()
            .contains("could not write /nowhere/lights-pdb.bin: read-only file system"),
        "{log}"
    );

    // A client without work-done progress gets none, and the same answer;
    // the build does not count against the time budget (100 ms here).
    let options = Options { prepare: slow_table_build, tables: Some(Arc::new(Store)), ..Options::default() };
    let (mut c, _) = start_with(options, capabilities(false), json!({"lights": {"solver": {"timeBudgetMs": 100}}}));
    c.open(URI, 1, SLIDING);
    assert_eq!(c.settled(URI, 1, TIMEOUT).1[0], "✓ optimal 1 move");
    assert!(!c.received.iter().any(|m| m["method"] == "$/progress" || m["method"] == "window/workDoneProgress/create"));
}

/// Analyses done by [`slow_analysis`] (one test uses it).
static ANALYSES: AtomicUsize = AtomicUsize::new(0);

/// [`slow_analysis`] waits here (but for the first version) until the test
/// has sent every edit and seen the server read them all.
static ANALYSIS_GATE: Gate = Gate::new();

fn slow_analysis(src: &str) -> FileAnalysis {
    ANALYSES.fetch_add(1, Ordering::SeqCst);
    if !src.contains("\"v1\"") {
        ANALYSIS_GATE.wait(&|| false);
    }
    lights_compiler::analyze(src)
}

/// Quick typing on a document that is slow to analyse: the versions typed
/// over are never analysed (before, each of six edits was, one after the
/// other, and a hover waited behind all of them), and a request cancelled
/// while it waits gets -32800.
#[test]
fn superseded_versions_are_dropped_and_cancelled_requests_answered() {
    let options = Options { analyze: slow_analysis, ..Options::default() };
    let (mut c, _) = start(options);
    c.open(URI, 1, &puzzle("v1", "on"));
    c.diagnostics(URI, 1);
    let before = ANALYSES.load(Ordering::SeqCst);
    let mut frames = Vec::new();
    for v in 2..=7 {
        let note = json!({"jsonrpc": "2.0", "method": "textDocument/didChange",
                          "params": change_params(v, &puzzle(&format!("v{v}"), "at 1,1"))});
        frames.extend(frame_json(&note));
    }
    // A hover waiting for version 7, cancelled at once.
    let hover = json!({"jsonrpc": "2.0", "id": 900, "method": "textDocument/hover",
                       "params": {"textDocument": {"uri": URI}, "position": {"line": 0, "character": 9}}});
    frames.extend(frame_json(&hover));
    frames.extend(frame_json(&json!({"jsonrpc": "2.0", "method": "$/cancelRequest", "params": {"id": 900}})));
    c.send_raw(&frames).unwrap();
    let answer = c.wait_for("the cancelled hover's answer", |m| m["id"] == 900);
    assert_eq!(answer["error"]["code"], -32800, "{answer}");
    // The server has read every edit (the cancel came after them): an
    // analysis started meanwhile may end now.
    ANALYSIS_GATE.open();
    c.diagnostics(URI, 7);
    assert_eq!(symbol_names(&mut c), ["v7"]);
    // Version 2 may have started before the rest arrived; 3 to 6 never are.
    let analysed = ANALYSES.load(Ordering::SeqCst) - before;
    assert!(analysed <= 2, "{analysed} analyses for 6 quick edits");
}

/// A large document opened, edited 10 times and closed: the server's cache
/// holds the open version's results plus at most its byte budget of older
/// ones, and nothing of the document once it is closed. (Bytes the server
/// accounts for, not wall-clock time or process memory.)
#[test]
fn cache_bytes_stay_within_the_budget_and_go_with_the_document() {
    const BUDGET: usize = 1 << 20; // `cache.budgetMb: 1`
    let (mut c, stats) = start_with(Options::default(), capabilities(false), json!({"cache": {"budgetMb": 1}}));
    // 1500×1500 all-on variants: each solution is 281 KB packed (W = 2).
    let text = |k: i32| format!("puzzle \"big\" {{\n  size 1500x1500\n  lights on\n  goal at {k},{k}\n}}\n");
    c.open(URI, 1, &text(1));
    c.diagnostics(URI, 1);
    let one = stats.cache_bytes();
    assert!(one >= 1500 * 1500 / 8, "the packed solution is counted: {one}");
    assert!(one < 1500 * 1500, "packed, not a value per cell: {one}");
    for v in 2..=11 {
        c.change(URI, v, &text(v));
        c.diagnostics(URI, v);
        let held = stats.cache_bytes();
        assert!(held <= one * 3 / 2 + BUDGET, "version {v}: {held} bytes held, budget {BUDGET}, one result {one}");
    }
    c.close(URI);
    // The close is a notification: ask something to know it was handled.
    let _ = c.request("textDocument/documentSymbol", json!({"textDocument": {"uri": URI}}));
    assert_eq!(stats.open_documents(), 0);
    assert_eq!(stats.cache_bytes(), 0, "a closed document's results go");
    c.shutdown_and_exit();
}

/// Waits (polling, up to 30 s) until no solve runs; panics otherwise.
fn until_no_solve_runs(stats: &Stats, what: &str) {
    let deadline = Instant::now() + Duration::from_secs(30);
    while stats.solves_running() > 0 {
        assert!(Instant::now() < deadline, "{what}: {} solves still running", stats.solves_running());
        std::thread::sleep(Duration::from_millis(10));
    }
}

#[test]
fn no_solve_runs_for_a_closed_document() {
    let options =
        Options { solve: solve_until_cancelled, first_publish_wait: Duration::from_millis(10), ..Options::default() };
    // A budget of an hour: only cancelling stops these solves.
    let (mut c, stats) = start_with(options, capabilities(false), json!({"solver": {"timeBudgetMs": 3_600_000}}));
    c.open(URI, 1, &puzzle("p", "on"));
    c.diagnostics(URI, 1);
    let deadline = Instant::now() + Duration::from_secs(30);
    while stats.solves_running() == 0 {
        assert!(Instant::now() < deadline, "the solve never started");
        std::thread::sleep(Duration::from_millis(10));
    }
    c.close(URI);
    until_no_solve_runs(&stats, "after didClose");

    // A lens request (which waits on the version's solves) and the close
    // in one write: the request's solves are cancelled too.
    for v in 2..6 {
        c.open(URI, v, &puzzle("p", &format!("at {v},1")));
        c.diagnostics(URI, v);
        let id = c.next_id();
        let lens = json!({"jsonrpc": "2.0", "id": id, "method": "textDocument/codeLens",
                          "params": {"textDocument": {"uri": URI}}});
        let close = json!({"jsonrpc": "2.0", "method": "textDocument/didClose",
                           "params": {"textDocument": {"uri": URI}}});
        let mut bytes = frame_json(&lens);
        bytes.extend(frame_json(&close));
        c.send_raw(&bytes).unwrap();
        c.wait_for("the lens answer", |m| is_response(m) && m["id"] == id);
        until_no_solve_runs(&stats, "after a lens request and didClose");
    }
    c.drain(Duration::from_millis(300));
    assert_eq!(stats.solves_running(), 0, "a solve started after the close");
    c.shutdown_and_exit();
}
