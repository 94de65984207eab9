//! Edit → diagnostics latency of `lights lsp` on the 48×48 example
//! (`examples/all-lights-48.lights`), through the real binary and its stdio
//! transport: each iteration sends a full-text `textDocument/didChange` and
//! waits for the `textDocument/publishDiagnostics` of that version.
//!
//! - `resolve`: every edit toggles one light, so the puzzle must be solved
//!   again. The lights follow a Gray code (edit k lights the cells of the set
//!   bits of k ^ (k >> 1), spread over the board), so consecutive edits differ
//!   by one cell and no content repeats: the server's cache never answers.
//! - `cached`: every edit changes only a comment; the puzzle means the same,
//!   so its answer comes from the cache.
//!
//! The file gets one extra claim, `expect solutions 2` (it has exactly one),
//! whose L0202 error only appears once the solve is done: the iteration waits
//! for a publish of its version that carries it, so a publish sent before the
//! solve finished is never taken for the answer.
//!
//! Both run on one server, `resolve` first: by the time `cached` runs, the
//! server holds its full cache of past results (a long editing session), and
//! each edit's cost grows with that cache.
//!
//! Run: `cargo bench -p lights-cli --bench lsp_latency`. Besides criterion's
//! estimates, each benchmark prints the median, 90th percentile and maximum
//! of every edit it timed.

use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use criterion::{criterion_group, criterion_main, Criterion};
use lights_test_client::{frame_json, Client};
use serde_json::{json, Value};

const URI: &str = "file:///bench/all-lights-48.lights";
const CELLS: u64 = 48 * 48;
/// How long one edit may take before the benchmark gives up.
const TIMEOUT: Duration = Duration::from_secs(30);

struct Lsp {
    client: Client,
    version: i32,
}

impl Lsp {
    fn start(text: &str) -> Lsp {
        let mut command = Command::new(env!("CARGO_BIN_EXE_lights"));
        command.arg("lsp");
        let mut client = Client::spawn(command);
        client.keep_log(false);
        client.initialize(json!({}), Value::Null);
        client.open(URI, 1, text);
        client.skip_until("the first answer", TIMEOUT, |m| solved(m, 1));
        Lsp { client, version: 1 }
    }

    /// Send `text` as the next version and wait for its solved diagnostics;
    /// the time from just before the write to the publish.
    fn edit(&mut self, text: &str) -> Duration {
        self.version += 1;
        let version = self.version;
        let bytes = frame_json(&json!({
            "jsonrpc": "2.0",
            "method": "textDocument/didChange",
            "params": {"textDocument": {"uri": URI, "version": version}, "contentChanges": [{"text": text}]},
        }));
        let start = Instant::now();
        self.client.send_raw(&bytes).expect("the server reads its input");
        self.client.skip_until("the answer", TIMEOUT, |m| solved(m, version));
        start.elapsed()
    }

    fn stop(self) {
        self.client.shutdown_and_exit();
    }
}

/// A publish of `version` with the solver's answer in it (the marker claim's L0202).
fn solved(m: &Value, version: i32) -> bool {
    m["method"] == "textDocument/publishDiagnostics"
        && m["params"]["version"] == version
        && m["params"]["diagnostics"].as_array().is_some_and(|d| d.iter().any(|d| d["code"] == "L0202"))
}

/// The example, with the lights of Gray-code step `k`, a comment numbered
/// `comment`, and the marker claim.
fn variant(example: &str, k: u64, comment: u64) -> String {
    let gray = k ^ (k >> 1);
    let cells: Vec<String> = (0..64)
        .filter(|bit| gray >> bit & 1 == 1)
        .map(|bit| {
            let cell = (bit * 37 + 5) % CELLS; // 37 is prime to 2304: distinct cells, spread over the board
            format!("{},{}", cell / 48 + 1, cell % 48 + 1)
        })
        .collect();
    let lights =
        if cells.is_empty() { "  lights off\n".to_string() } else { format!("  lights at {}\n", cells.join(" ")) };
    assert!(example.contains("  lights off\n") && example.contains("  expect unique\n"), "the example changed");
    let text = example
        .replace("  lights off\n", &lights)
        .replace("  expect unique\n", "  expect unique\n  expect solutions 2 // marker: fails once solved\n");
    format!("// edit {comment}\n{text}")
}

fn percentiles(name: &str, mut times: Vec<Duration>) {
    if times.is_empty() {
        return;
    }
    times.sort();
    let at = |q: f64| times[((times.len() - 1) as f64 * q).round() as usize];
    eprintln!(
        "{name}: {} edits, median {:.2?}, p90 {:.2?}, max {:.2?}",
        times.len(),
        at(0.5),
        at(0.9),
        times[times.len() - 1]
    );
}

fn bench(c: &mut Criterion) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/all-lights-48.lights");
    let example = std::fs::read_to_string(&path).expect("read examples/all-lights-48.lights");
    let mut group = c.benchmark_group("lsp_edit_to_diagnostics_48x48");
    group.sample_size(20).measurement_time(Duration::from_secs(10));

    let mut lsp = Lsp::start(&variant(&example, 0, 0));
    let mut step = 0u64;
    let mut all = Vec::new();
    group.bench_function("resolve", |b| {
        b.iter_custom(|iters| {
            let mut total = Duration::ZERO;
            for _ in 0..iters {
                step += 1;
                let text = variant(&example, step, 0);
                let t = lsp.edit(&text);
                all.push(t);
                total += t;
            }
            total
        });
    });
    percentiles("resolve", std::mem::take(&mut all));

    let mut comment = 0u64;
    group.bench_function("cached", |b| {
        b.iter_custom(|iters| {
            let mut total = Duration::ZERO;
            for _ in 0..iters {
                comment += 1;
                let text = variant(&example, step, comment);
                let t = lsp.edit(&text);
                all.push(t);
                total += t;
            }
            total
        });
    });
    percentiles("cached", all);
    group.finish();
    lsp.stop();
}

criterion_group!(benches, bench);
criterion_main!(benches);
