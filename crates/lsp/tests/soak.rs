//! The soak test: a long random session against one server, to find leaks
//! and drift. Not part of the default run (`#[ignore]`); `bench/soak` runs it
//! in release:
//!
//! ```text
//! cargo test --release -p lights-lsp --test soak -- --ignored --nocapture
//! ```
//!
//! 20,000 edits (`LIGHTS_SOAK_EDITS`), chosen by a seeded generator
//! (`LIGHTS_SOAK_SEED`), over 4 documents that are opened and closed as it
//! goes: whole texts (the examples, and mutations of them) and ranged
//! changes (insertions, deletions, replacements; several per notification),
//! with hover, code lens and inlay hint requests in between. Every 500
//! edits, what the server holds is checked against the client's text (the
//! outline of every open document). At the end every document is closed and
//! the server must hold none, and the process's resident memory may have
//! grown by at most [`MAX_GROWTH`] over what it was after the warm-up (the
//! sliding tables built, every example solved once, the caches filled).
//! The figures are printed for docs/PERFORMANCE.md.

mod common;

use std::time::{Duration, Instant};

use common::*;
use serde_json::{json, Value};

/// How much the resident memory may grow after the warm-up. The server
/// keeps up to 256 spare solve results beyond those of open documents; the
/// allocator keeps some freed memory. A leak of one text per edit would
/// pass it within the first few thousand edits.
const MAX_GROWTH: u64 = 64 << 20;
const DOCUMENTS: usize = 4;
const DEFAULT_EDITS: usize = 20_000;
const DEFAULT_SEED: u64 = 0x5eed_2024;
/// Edits of the warm-up (after every example is opened once).
const WARM_UP_EDITS: usize = 1_000;
/// A text that grows past this is replaced by an example.
const MAX_TEXT: usize = 16 << 10;
/// How often what the server holds is checked.
const CHECK_EVERY: usize = 500;
/// How long a request may take (the analysis of a version is waited for).
const REQUEST_TIMEOUT: Duration = Duration::from_secs(120);

/// splitmix64: small, seeded, the same sequence everywhere.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

/// What the edits insert, besides lines of the examples. No `\r`: the
/// client's positions count lines by `\n` only.
const SNIPPETS: &[&str] = &[
    "1",
    ".",
    "0",
    "2",
    " ",
    "\n",
    "{",
    "}",
    "\"",
    "é",
    "𝄞",
    "size 3x3\n",
    "size 7x7",
    "lights on\n",
    "lights at 1,1 2,2\n",
    "puzzle \"soak\" {\n  size 4x4\n  lights on\n}\n",
    "expect solvable\n",
    "expect unsolvable\n",
    "rule king\n",
    "rule flip\n",
    "topology torus\n",
    "states 3\n",
    "// a comment\n",
    "solution {\n    1 .\n    . 1\n  }\n",
];

fn examples() -> Vec<String> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples");
    let mut paths: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "lights"))
        .collect();
    paths.sort();
    paths.iter().map(|p| std::fs::read_to_string(p).unwrap()).collect()
}

fn env_or<T: std::str::FromStr>(name: &str, default: T) -> T {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

/// The resident memory of this process (client and server), in bytes.
fn rss(field: &str) -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").expect("/proc/self/status");
    let line = status.lines().find(|l| l.starts_with(field)).unwrap_or_else(|| panic!("no {field}"));
    let kb: u64 = line.split_whitespace().nth(1).and_then(|n| n.parse().ok()).expect("a size in kB");
    kb << 10
}

fn mib(bytes: u64) -> f64 {
    bytes as f64 / (1 << 20) as f64
}

struct Doc {
    uri: String,
    /// The text the server has been sent; `None` while closed.
    text: Option<String>,
    version: i32,
}

#[derive(Default)]
struct Counts {
    edits: usize,
    whole: usize,
    ranged: usize,
    opens: usize,
    closes: usize,
    requests: usize,
}

struct Soak {
    client: Client,
    stats: Stats,
    rng: Rng,
    examples: Vec<String>,
    docs: Vec<Doc>,
    counts: Counts,
    /// Edits since the last check.
    unchecked: usize,
}

impl Soak {
    /// A random offset of `text` on a character boundary.
    fn boundary(&mut self, text: &str) -> usize {
        let mut at = self.rng.below(text.len() + 1);
        while !text.is_char_boundary(at) {
            at -= 1;
        }
        at
    }

    fn snippet(&mut self) -> String {
        if self.rng.below(3) == 0 {
            let example = self.rng.below(self.examples.len());
            let lines: Vec<&str> = self.examples[example].lines().collect();
            format!("{}\n", self.rng.pick(&lines))
        } else {
            self.rng.pick(SNIPPETS).to_string()
        }
    }

    /// Change `text` at random (insert, delete or replace a short range);
    /// returns the ranged change that does it, in positions of the text before.
    fn mutate(&mut self, text: &mut String) -> Value {
        let start = self.boundary(text);
        let kind = self.rng.below(3);
        let mut end = start;
        if kind > 0 {
            end = (start + 1 + self.rng.below(40)).min(text.len());
            while !text.is_char_boundary(end) {
                end += 1;
            }
        }
        let new = if kind == 1 { String::new() } else { self.snippet() };
        let range = json!({"start": position(text, start, false), "end": position(text, end, false)});
        text.replace_range(start..end, &new);
        json!({"range": range, "text": new})
    }

    fn open(&mut self, d: usize) {
        let text = self.rng.pick(&self.examples).clone();
        let doc = &mut self.docs[d];
        doc.version += 1;
        self.client.open(&doc.uri, doc.version, &text);
        doc.text = Some(text);
        self.counts.opens += 1;
    }

    fn close(&mut self, d: usize) {
        let doc = &mut self.docs[d];
        self.client.close(&doc.uri);
        doc.text = None;
        self.counts.closes += 1;
    }

    /// One edit of document `d` (open): a whole text or ranged changes.
    fn edit(&mut self, d: usize) {
        let mut text = self.docs[d].text.take().expect("an open document");
        let roll = self.rng.below(100);
        let changes = if text.len() > MAX_TEXT || roll < 5 {
            text.clone_from(self.rng.pick(&self.examples));
            json!([{"text": text}])
        } else if roll < 20 {
            for _ in 0..1 + self.rng.below(5) {
                self.mutate(&mut text);
            }
            json!([{"text": text}])
        } else {
            let n = 1 + self.rng.below(3);
            Value::Array((0..n).map(|_| self.mutate(&mut text)).collect())
        };
        if changes[0].get("range").is_some() {
            self.counts.ranged += 1;
        } else {
            self.counts.whole += 1;
        }
        let doc = &mut self.docs[d];
        doc.version += 1;
        self.client.change_with(&doc.uri, doc.version, changes);
        doc.text = Some(text);
        self.counts.edits += 1;
    }

    /// The result of a request that must succeed; what else came meanwhile is dropped.
    fn request(&mut self, method: &str, params: Value) -> Value {
        self.counts.requests += 1;
        let r = self.client.request_skipping(method, params, REQUEST_TIMEOUT);
        assert!(r.get("error").is_none(), "{method} failed: {r}");
        r["result"].clone()
    }

    /// Hover, code lens or inlay hints on document `d` (open).
    fn ask(&mut self, d: usize) {
        let text = self.docs[d].text.clone().expect("an open document");
        let uri = json!({"uri": self.docs[d].uri});
        match self.rng.below(3) {
            0 => {
                let at = self.boundary(&text);
                let params = json!({"textDocument": uri, "position": position(&text, at, false)});
                self.request("textDocument/hover", params);
            }
            1 => {
                self.request("textDocument/codeLens", json!({"textDocument": uri}));
            }
            _ => {
                let end = position(&text, text.len(), false);
                let params = json!({"textDocument": uri, "range": {"start": {"line": 0, "character": 0}, "end": end}});
                self.request("textDocument/inlayHint", params);
            }
        }
    }

    /// The server's outline of every open document is the client's text's.
    fn check(&mut self) {
        for d in 0..DOCUMENTS {
            let Some(text) = self.docs[d].text.clone() else { continue };
            let uri = self.docs[d].uri.clone();
            let got = self.request("textDocument/documentSymbol", json!({"textDocument": {"uri": uri}}));
            let doc = lights_ide::Document::new(text.as_str());
            let want: Vec<Value> = lights_ide::symbols(&doc)
                .iter()
                .map(|s| {
                    let range = json!({"start": position(&text, s.span.start, false), "end": position(&text, s.span.end, false)});
                    json!({"name": s.name, "range": range})
                })
                .collect();
            let got: Vec<Value> = got
                .as_array()
                .expect("symbols")
                .iter()
                .map(|s| json!({"name": s["name"], "range": s["range"]}))
                .collect();
            assert_eq!(got, want, "the server's text of {uri} (version {}) is not the client's", self.docs[d].version);
        }
    }

    /// One step: an open or close now and then, else an edit, and sometimes a request.
    fn step(&mut self) {
        let d = self.rng.below(DOCUMENTS);
        if self.docs[d].text.is_none() {
            self.open(d);
            return;
        }
        if self.rng.below(100) < 2 {
            self.close(d);
            return;
        }
        self.edit(d);
        if self.rng.below(4) == 0 {
            self.ask(d);
        }
        self.unchecked += 1;
        if self.unchecked == CHECK_EVERY {
            self.unchecked = 0;
            self.check();
        }
    }

    /// Close every document; then the server holds none.
    fn close_all(&mut self) {
        for d in 0..DOCUMENTS {
            if self.docs[d].text.is_some() {
                self.close(d);
            }
        }
        // Answered after the closes are taken (notifications are taken in order).
        let uri = self.docs[0].uri.clone();
        assert_eq!(self.request("textDocument/documentSymbol", json!({"textDocument": {"uri": uri}})), Value::Null);
        assert_eq!(self.stats.open_documents(), 0, "the server still holds documents after all were closed");
    }
}

#[test]
#[ignore = "a long soak; run it with bench/soak"]
fn a_long_random_session_leaks_nothing() {
    let edits: usize = env_or("LIGHTS_SOAK_EDITS", DEFAULT_EDITS);
    let seed: u64 = env_or("LIGHTS_SOAK_SEED", DEFAULT_SEED);
    let init = json!({"lights": {"inlayHints": {"enable": true}, "solver": {"timeBudgetMs": 200}}});
    let (mut client, stats) = start_with(Options::default(), capabilities(false), init);
    client.keep_log(false);
    let docs =
        (0..DOCUMENTS).map(|i| Doc { uri: format!("file:///soak/doc{i}.lights"), text: None, version: 0 }).collect();
    let mut soak =
        Soak { client, stats, rng: Rng(seed), examples: examples(), docs, counts: Counts::default(), unchecked: 0 };

    // Warm-up: every example solved once (the sliding tables are built), then edits.
    let started = Instant::now();
    for i in 0..soak.examples.len() {
        let text = soak.examples[i].clone();
        let doc = &mut soak.docs[0];
        doc.version += 1;
        let (uri, version) = (doc.uri.clone(), doc.version);
        soak.client.open(&uri, version, &text);
        soak.client.settled(&uri, version, Duration::from_secs(300));
        soak.client.close(&uri);
    }
    while soak.counts.edits < WARM_UP_EDITS {
        soak.step();
    }
    soak.close_all();
    std::thread::sleep(Duration::from_secs(1));
    let before = rss("VmRSS:");
    println!("soak: warm-up of {WARM_UP_EDITS} edits in {:.1} s", started.elapsed().as_secs_f64());

    soak.counts = Counts::default();
    let started = Instant::now();
    while soak.counts.edits < edits {
        soak.step();
    }
    soak.check();
    let elapsed = started.elapsed().as_secs_f64();
    soak.close_all();
    std::thread::sleep(Duration::from_secs(1));
    let after = rss("VmRSS:");
    let peak = rss("VmHWM:");

    let c = &soak.counts;
    println!(
        "soak: seed {seed:#x}: {} edits ({} whole texts, {} with ranged changes), {} opens, {} closes, {} requests in {elapsed:.1} s: {:.0} edits/s",
        c.edits,
        c.whole,
        c.ranged,
        c.opens,
        c.closes,
        c.requests,
        c.edits as f64 / elapsed
    );
    println!(
        "soak: resident memory after the warm-up {:.1} MiB, at the end {:.1} MiB ({:+.1} MiB; bound +{} MiB), peak {:.1} MiB",
        mib(before),
        mib(after),
        mib(after) - mib(before),
        MAX_GROWTH >> 20,
        mib(peak)
    );
    assert!(
        after <= before + MAX_GROWTH,
        "resident memory grew by {:.1} MiB (bound {} MiB)",
        mib(after.saturating_sub(before)),
        MAX_GROWTH >> 20
    );
    soak.client.shutdown_and_exit();
}
