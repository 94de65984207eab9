//! Versions, caching, cancellation, time budgets and crashes: the server
//! never blocks, never dies, and never shows an older version's answers.
//! Test solvers (slow, never finishing, panicking) are swapped in through
//! `Options`.

mod common;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use common::*;
use lights_compiler::model::Puzzle;
use lights_compiler::sliding_check::{BuildProgress, BuildStage, SlidingError, SlidingReport};
use lights_compiler::solve::{solve, Report, SolveError};
use lights_compiler::FileAnalysis;
use lights_compiler::SlidingPuzzle;
use lights_lsp::Options;
use serde_json::{json, Value};

const ALL_ON: &str = "puzzle \"all-on\" {\n  size 5x5\n  lights on\n}\n";

fn change_params(version: i32, text: &str) -> Value {
    json!({"textDocument": {"uri": URI, "version": version}, "contentChanges": [{"text": text}]})
}

fn puzzle(name: &str, lights: &str) -> String {
    format!("puzzle \"{name}\" {{\n  size 4x4\n  lights {lights}\n}}\n")
}

async fn symbol_names(c: &mut Client) -> Vec<String> {
    let symbols = c.request("textDocument/documentSymbol", json!({"textDocument": {"uri": URI}})).await;
    symbols.as_array().unwrap().iter().map(|s| s["name"].as_str().unwrap().to_string()).collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_older_version_never_overwrites_a_newer_one() {
    for order in [[3, 2], [2, 3]] {
        let mut c = Client::start(Options::default()).await;
        c.open(URI, 1, &puzzle("one", "on")).await;
        c.diagnostics(URI, 1).await;
        let notes = order
            .iter()
            .map(|&v| ("textDocument/didChange", change_params(v, &puzzle(&format!("v{v}"), "at 1,1"))))
            .collect();
        c.notify_concurrently(notes).await;
        c.diagnostics(URI, 3).await;
        assert_eq!(symbol_names(&mut c).await, ["v3"], "order {order:?}");
        // Version 2 is never published after version 3.
        let versions: Vec<i64> = c.publishes(URI).iter().map(|p| p["version"].as_i64().unwrap()).collect();
        let last3 = versions.iter().rposition(|&v| v == 3).unwrap();
        assert!(versions[last3..].iter().all(|&v| v == 3), "{versions:?}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn unchanged_puzzles_are_not_solved_again() {
    let pack = example("examples/level-pack.lights");
    let mut c = Client::start(Options::default()).await;
    c.open(URI, 1, &pack).await;
    c.diagnostics(URI, 1).await;
    let first = c.server().solves_started();
    assert!(first >= 3, "the pack has several puzzles: {first}");
    // A comment and an expect line change nothing the solver depends on.
    let commented = format!("// a new comment\n{pack}");
    c.change(URI, 2, &commented).await;
    c.diagnostics(URI, 2).await;
    assert_eq!(c.server().solves_started(), first);
    // Changing one puzzle's lights re-solves that puzzle only.
    let idx = commented.find("\n  lights at ").unwrap() + 3;
    let line_end = idx + commented[idx..].find('\n').unwrap();
    let mut edited = commented.clone();
    edited.replace_range(idx..line_end, "lights at 1,1");
    c.change(URI, 3, &edited).await;
    c.diagnostics(URI, 3).await;
    assert_eq!(c.server().solves_started(), first + 1);
}

static SLOW_CALLS: AtomicUsize = AtomicUsize::new(0);

fn slow_solve(p: &Puzzle, cancel: &dyn Fn() -> bool) -> Result<Report, SolveError> {
    SLOW_CALLS.fetch_add(1, Ordering::SeqCst);
    let start = Instant::now();
    while start.elapsed() < Duration::from_millis(600) {
        if cancel() {
            return Err(SolveError::Cancelled);
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    solve(p, cancel)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_slow_puzzle_shows_solving_then_its_answer() {
    let options = Options { solve: slow_solve, first_publish_wait: Duration::from_millis(20), ..Options::default() };
    let mut c = Client::start(options).await;
    c.open(URI, 1, ALL_ON).await;
    let first = c.diagnostics(URI, 1).await;
    assert!(first.is_empty());
    assert_eq!(c.code_lens_titles(URI).await, ["⋯ solving…"]);
    // The answer is published again when the solve ends, and lenses are refreshed.
    c.wait_for("code lens refresh", |m| m["method"] == "workspace/codeLens/refresh").await;
    assert_eq!(c.publishes(URI).len(), 2);
    assert_eq!(c.code_lens_titles(URI).await[0], "✓ 4 solutions · minimum 15 presses");
}

static CANCELLED: AtomicUsize = AtomicUsize::new(0);

fn solve_until_cancelled(_: &Puzzle, cancel: &dyn Fn() -> bool) -> Result<Report, SolveError> {
    loop {
        if cancel() {
            CANCELLED.fetch_add(1, Ordering::SeqCst);
            return Err(SolveError::Cancelled);
        }
        std::thread::sleep(Duration::from_millis(2));
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_newer_edit_cancels_stale_work() {
    let options =
        Options { solve: solve_until_cancelled, first_publish_wait: Duration::from_millis(10), ..Options::default() };
    let mut c = Client::start(options).await;
    c.open(URI, 1, &puzzle("p", "on")).await;
    c.diagnostics(URI, 1).await;
    assert_eq!(c.code_lens_titles(URI).await, ["⋯ solving…"]);
    let before = CANCELLED.load(Ordering::SeqCst);
    c.change(URI, 2, &puzzle("p", "at 2,2")).await;
    c.diagnostics(URI, 2).await;
    let deadline = Instant::now() + Duration::from_secs(20);
    while CANCELLED.load(Ordering::SeqCst) == before {
        assert!(Instant::now() < deadline, "the stale solve was never cancelled");
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    // Closing the document cancels the rest and clears its diagnostics.
    let before = CANCELLED.load(Ordering::SeqCst);
    c.notify("textDocument/didClose", json!({"textDocument": {"uri": URI}})).await;
    c.wait_for("cleared diagnostics", |m| {
        m["method"] == "textDocument/publishDiagnostics"
            && m["params"]["diagnostics"] == json!([])
            && m["params"]["version"].is_null()
    })
    .await;
    let deadline = Instant::now() + Duration::from_secs(20);
    while CANCELLED.load(Ordering::SeqCst) == before {
        assert!(Instant::now() < deadline, "closing did not cancel");
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

fn never_finishes(_: &Puzzle, cancel: &dyn Fn() -> bool) -> Result<Report, SolveError> {
    while !cancel() {
        std::thread::sleep(Duration::from_millis(2));
    }
    Err(SolveError::Cancelled)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_time_budget_is_reported() {
    let options =
        Options { solve: never_finishes, first_publish_wait: Duration::from_millis(10), ..Options::default() };
    let mut c =
        Client::start_with(options, capabilities(false), json!({"lights": {"solver": {"timeBudgetMs": 100}}})).await;
    c.open(URI, 1, ALL_ON).await;
    let diags = c.first_problems("the timeout").await;
    assert_eq!(codes(&diags), ["L0301"]);
    assert_eq!(diags[0]["severity"], 2, "a warning");
    assert!(diags[0]["message"].as_str().unwrap().contains("within the time budget of 100 ms"));
    assert_eq!(c.code_lens_titles(URI).await, ["⏱ not solved within 100 ms"]);
}

fn panics_on_boom(p: &Puzzle, cancel: &dyn Fn() -> bool) -> Result<Report, SolveError> {
    if p.name == "boom" {
        panic!("the solver exploded");
    }
    solve(p, cancel)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_solver_panic_becomes_a_diagnostic() {
    let options = Options { solve: panics_on_boom, ..Options::default() };
    let mut c = Client::start(options).await;
    let text = format!("{ALL_ON}\npuzzle \"boom\" {{\n  size 3x3\n  lights on\n}}\n");
    c.open(URI, 1, &text).await;
    // (Printing a panic's backtrace can take longer than the first publish waits.)
    let diags = c.first_problems("the crash").await;
    assert_eq!(codes(&diags), ["L0302"]);
    assert!(diags[0]["message"].as_str().unwrap().contains("the solver exploded"));
    assert_eq!(diags[0]["range"]["start"]["line"], 5);
    // Still serving: the other puzzle's answer, hover, a new version.
    assert_eq!(c.code_lens_titles(URI).await[0], "✓ 4 solutions · minimum 15 presses");
    c.change(URI, 2, ALL_ON).await;
    assert!(c.diagnostics(URI, 2).await.is_empty());
}

fn panics_on_marker(src: &str) -> FileAnalysis {
    if src.contains("EXPLODE") {
        panic!("the parser exploded");
    }
    lights_compiler::analyze(src)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_analysis_panic_becomes_a_diagnostic() {
    let options = Options { analyze: panics_on_marker, ..Options::default() };
    let mut c = Client::start(options).await;
    c.open(URI, 1, "// EXPLODE\n").await;
    let diags = c.diagnostics(URI, 1).await;
    assert_eq!(codes(&diags), ["L0302"]);
    assert!(diags[0]["message"].as_str().unwrap().contains("the parser exploded"));
    assert_eq!(symbol_names(&mut c).await, Vec::<String>::new());
    c.change(URI, 2, ALL_ON).await;
    assert!(c.diagnostics(URI, 2).await.is_empty());
    assert_eq!(symbol_names(&mut c).await, ["all-on"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_board_beyond_the_solver_is_declined_at_once() {
    let mut c = Client::start(Options::default()).await;
    let text =
        format!("puzzle \"huge\" {{\n  size 3000x3000\n  rule flip\n  topology mobius\n  lights on\n}}\n{ALL_ON}");
    c.open(URI, 1, &text).await;
    let diags = c.diagnostics(URI, 1).await;
    assert_eq!(codes(&diags), ["L0205"]);
    assert_eq!(c.code_lens_titles(URI).await[..2], ["⚠ too large to verify", "✓ 4 solutions · minimum 15 presses"]);
}

const SLIDING: &str = "sliding \"eight\" {\n  size 3x3\n  tiles {\n    1 2 3\n    4 5 6\n    7 . 8\n  }\n}\n";

fn sliding_never_finishes(_: &SlidingPuzzle, cancel: &dyn Fn() -> bool) -> Result<SlidingReport, SlidingError> {
    while !cancel() {
        std::thread::sleep(Duration::from_millis(2));
    }
    Err(SlidingError::Cancelled)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sliding_blocks_have_the_same_time_budget() {
    let options = Options {
        solve_sliding: sliding_never_finishes,
        first_publish_wait: Duration::from_millis(10),
        ..Options::default()
    };
    let mut c =
        Client::start_with(options, capabilities(false), json!({"lights": {"solver": {"timeBudgetMs": 100}}})).await;
    c.open(URI, 1, SLIDING).await;
    let diags = c.first_problems("the timeout").await;
    assert_eq!(codes(&diags), ["L0301"]);
    let message = diags[0]["message"].as_str().unwrap();
    assert!(
        message.starts_with("sliding puzzle \"eight\" was not solved within the time budget of 100 ms"),
        "{message}"
    );
    assert_eq!(c.code_lens_titles(URI).await, ["⏱ not solved within 100 ms"]);
}

fn sliding_panics(_: &SlidingPuzzle, _: &dyn Fn() -> bool) -> Result<SlidingReport, SlidingError> {
    panic!("the sliding solver exploded");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_sliding_solver_panic_becomes_a_diagnostic_and_the_rest_is_solved() {
    let options = Options { solve_sliding: sliding_panics, ..Options::default() };
    let mut c = Client::start(options).await;
    c.open(URI, 1, &format!("{ALL_ON}\n{SLIDING}")).await;
    let diags = c.first_problems("the crash").await;
    assert_eq!(codes(&diags), ["L0302"]);
    assert!(diags[0]["message"].as_str().unwrap().contains("the sliding solver exploded"));
    assert_eq!(diags[0]["range"]["start"]["line"], 5);
    assert_eq!(c.code_lens_titles(URI).await[..2], ["✓ 4 solutions · minimum 15 presses", "insert minimum solution"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_edit_to_a_sliding_block_resolves_only_it() {
    let mut c = Client::start(Options::default()).await;
    c.open(URI, 1, &format!("{ALL_ON}\n{SLIDING}")).await;
    c.diagnostics(URI, 1).await;
    let first = c.server().solves_started();
    assert_eq!(first, 2, "one Lights Out puzzle and one sliding block");
    // A comment and an `expect` line change nothing the solver depends on.
    c.change(URI, 2, &format!("{ALL_ON}\n// note\n{}", SLIDING.replace("}\n}", "}\n  expect moves 1\n}"))).await;
    assert!(c.diagnostics(URI, 2).await.is_empty());
    assert_eq!(c.server().solves_started(), first);
    // Another start is another solve.
    c.change(URI, 3, &format!("{ALL_ON}\n{}", SLIDING.replace("7 . 8", ". 7 8"))).await;
    c.diagnostics(URI, 3).await;
    assert_eq!(c.server().solves_started(), first + 1);
}

/// "Builds the tables", reporting as the real build does, and taking longer
/// than the time budget of the tests below.
fn slow_table_build(_: &SlidingPuzzle, tables: &dyn Fn(BuildProgress)) -> Option<String> {
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
    Some("could not write the cache file /nowhere/lights-pdb.bin: read-only file system; kept in memory".into())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn building_the_pattern_databases_shows_work_done_progress() {
    let options = Options { prepare_sliding: slow_table_build, ..Options::default() };
    let mut caps = capabilities(false);
    caps["window"] = json!({"workDoneProgress": true});
    let mut c = Client::start_with(options, caps, Value::Null).await;
    c.open(URI, 1, SLIDING).await;
    c.wait_for("the end of the progress", |m| m["method"] == "$/progress" && m["params"]["value"]["kind"] == "end")
        .await;
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
    assert_eq!(c.settled_lenses(URI).await[0], "✓ optimal 1 move");
    // Why the next session will build again is logged.
    let log = c.wait_for("the cache warning", |m| m["method"] == "window/logMessage").await;
    assert_eq!(log["params"]["type"], 2, "a warning");
    assert!(log["params"]["message"].as_str().unwrap().contains("could not write the cache file"), "{log}");

    // A client without work-done progress gets none, and the same answer;
    // the build does not count against the time budget (100 ms here).
    let options = Options { prepare_sliding: slow_table_build, ..Options::default() };
    let mut c =
        Client::start_with(options, capabilities(false), json!({"lights": {"solver": {"timeBudgetMs": 100}}})).await;
    c.open(URI, 1, SLIDING).await;
    assert_eq!(c.settled_lenses(URI).await[0], "✓ optimal 1 move");
    assert!(!c.received.iter().any(|m| m["method"] == "$/progress" || m["method"] == "window/workDoneProgress/create"));
}
