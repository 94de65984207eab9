//! Timings of `minimum_weight` on Lights Out boards and random kernels.
//!
//! ```text
//! cargo run --release -p lights-algebra --example minimum_timings [CASE ...]
//! ```
//!
//! A CASE is one of
//! * `TOPOLOGY:N` — the N×N cross-rule board with every light on over GF(2),
//!   TOPOLOGY one of `plane`, `cylinder`, `torus`, `mobius`, `klein`,
//!   `projective` (same gluing as the compiler);
//! * `RULE:TOPOLOGY:N:W` — the N×N "All Lights" board of a named rule
//!   (`cross`, `king`, `flip`, `merlin`, as in `crates/compiler/src/lower.rs`)
//!   with W states: every light at W−1, goal 0;
//! * `all:N` — every rule × topology × W ∈ {2, 3, 4, 5, 6, 12} on N×N (the
//!   boards with no solution are reported on standard error and skipped);
//! * `random:N:D:SEED` — a random kernel of dimension D over N cells (each
//!   generator touches a cell with probability 1/4) and a random coset;
//! * a path to the JSON of `lights compile FILE --emit json`.
//!
//! Without arguments it runs the standard list below. Each case is solved once,
//! then `minimum_weight` is timed `--repeat=K` times (default 5; median and
//! spread reported), with the presses found, the lower bound proven and
//! whether they meet.
//!
//! Release build on the 2-core development machine (load about 1): the code
//! before the work budget (W = 2: blocks of dimension up to 30 searched to the
//! end; other W: Gray-code enumeration up to 2^24 members, a long descent
//! above; medians of 3) and after (a budget of about 10 ms of work per call,
//! lower bounds, the branch and bound over classes for W ≠ 2, medians of 5).
//! `all:48` now runs each of its 135 solvable cases in at most about 16–18 ms
//! (was up to 0.9 s), 95 of them proven.
//!
//! | case | kernel | before | after: presses, lower bound, time |
//! |---|---|---|---|
//! | plane:19 | 2^16 | 141, proven, 0.10 ms | 141 = 141, 0.10 ms |
//! | torus:48 | 2^64 | 768, proven, 13.4 ms | 768 = 768, 7.6 ms |
//! | projective:48 | 2^30 | 768, proven, 0.92 s | 768, ≥ 570, 11–17 ms |
//! | random:400:24:1 | 2^24 | 148, proven, 16 ms | 148 = 148, 15 ms |
//! | king:torus:48:2 | 2^188 | 256, 73 ms | 256, ≥ 0, 4–8 ms |
//! | cross:torus:48:3 | 3^17 | 1152, 0.22 s | 1152, ≥ 16, 8 ms |
//! | cross:klein:48:3 | 3^9 | 1152, proven, 17 ms | 1152 = 1152, 0.66 ms |
//! | king:torus:48:3 | 3^188 | 256, 0.20 s | 256, ≥ 0, 10 ms |
//! | king:cylinder:48:4 | 4^96 | 256, 96 ms | 256 = 256, 0.14 ms |
//! | cross:torus:48:4 | 4^64 | 2304, 0.33 s | 2304, ≥ 768, 15 ms |
//! | cross:torus:48:12 | 4^64·3^17 | 8448, 0.32 s | 9216, ≥ 768, 16 ms |
//! | king:projective:48:12 | 2^337 | 1024, 0.34 s | 1600, ≥ 0, 12 ms |
//! | flip:projective:48:12 | 2^6195 | 6336, 0.57 s | 6336 = 6336, 8.7 ms |
//! | random:2000:28:2 | 2^28 | 869, proven, 0.29 s | 879, ≥ 2, 10 ms |

use lights_algebra::{minimum_weight, solve, Kernel, KernelGenerator, SparseMatrix, SplitMix64};
use std::time::{Duration, Instant};

const STANDARD: &[&str] = &[
    "plane:5",
    "plane:19",
    "torus:48",
    "klein:48",
    "projective:48",
    "random:400:24:1",
    "random:2000:28:2",
    "random:3000:40:3",
];

/// How a border of the board is crossed (as in the compiler's topologies).
#[derive(Clone, Copy, PartialEq)]
enum Gluing {
    Open,
    Glued,
    Twisted,
}

/// `(columns, rows)` gluing of each topology.
fn gluing(topology: &str) -> Option<(Gluing, Gluing)> {
    Some(match topology {
        "plane" => (Gluing::Open, Gluing::Open),
        "cylinder" => (Gluing::Glued, Gluing::Open),
        "torus" => (Gluing::Glued, Gluing::Glued),
        "mobius" => (Gluing::Twisted, Gluing::Open),
        "klein" => (Gluing::Glued, Gluing::Twisted),
        "projective" => (Gluing::Twisted, Gluing::Twisted),
        _ => return None,
    })
}

/// The cell reached from `(r, c)` (possibly off the board), if any: columns
/// first, then rows, each crossing of a twisted border mirroring the other
/// coordinate (`crates/compiler/src/lower.rs`, `map_cell`).
fn map_cell(glue: (Gluing, Gluing), n: i64, mut r: i64, mut c: i64) -> Option<(i64, i64)> {
    if !(0..n).contains(&c) {
        let crossings = c.div_euclid(n);
        c = c.rem_euclid(n);
        match glue.0 {
            Gluing::Open => return None,
            Gluing::Glued => {}
            Gluing::Twisted if crossings % 2 != 0 => r = n - 1 - r,
            Gluing::Twisted => {}
        }
    }
    if !(0..n).contains(&r) {
        let crossings = r.div_euclid(n);
        r = r.rem_euclid(n);
        match glue.1 {
            Gluing::Open => return None,
            Gluing::Glued => {}
            Gluing::Twisted if crossings % 2 != 0 => c = n - 1 - c,
            Gluing::Twisted => {}
        }
    }
    Some((r, c))
}

/// The named rules (docs/language.md, "Rules").
const RULES: &[&str] = &["cross", "king", "flip", "merlin"];
const TOPOLOGIES: &[&str] = &["plane", "cylinder", "torus", "mobius", "klein", "projective"];
const MODULI: &[u32] = &[2, 3, 4, 5, 6, 12];

/// Cross and King offsets, nearest the centre first, then reading order (the
/// compiler's order: when two land on one cell, the first counts).
const CROSS: &[(i64, i64)] = &[(0, 0), (-1, 0), (0, -1), (0, 1), (1, 0)];
const KING: &[(i64, i64)] = &[(0, 0), (-1, 0), (0, -1), (0, 1), (1, 0), (-1, -1), (-1, 1), (1, -1), (1, 1)];

/// The cells a press at `(r, c)` changes (each once), as `crates/compiler/src/lower.rs` builds them.
fn press(rule: &str, glue: (Gluing, Gluing), n: i64, r: i64, c: i64) -> Vec<usize> {
    let mut hit: Vec<usize> = Vec::new();
    let mut add = |cell: Option<(i64, i64)>| {
        if let Some((rr, cc)) = cell {
            let i = (rr * n + cc) as usize;
            if !hit.contains(&i) {
                hit.push(i);
            }
        }
    };
    match rule {
        "cross" | "king" => {
            for &(dr, dc) in if rule == "cross" { CROSS } else { KING } {
                add(map_cell(glue, n, r + dr, c + dc));
            }
        }
        "flip" => {
            add(Some((r, c)));
            let mut rows = vec![r];
            if glue.0 == Gluing::Twisted {
                rows.push(n - 1 - r);
            }
            let mut cols = vec![c];
            if glue.1 == Gluing::Twisted {
                cols.push(n - 1 - c);
            }
            for &lr in &rows {
                for cc in 0..n {
                    add(Some((lr, cc)));
                }
            }
            for &lc in &cols {
                for rr in 0..n {
                    add(Some((rr, lc)));
                }
            }
        }
        _ => {
            // Merlin: only borders that stay open on the surface are borders.
            let row_border = glue.1 == Gluing::Open && (r == 0 || r == n - 1);
            let col_border = glue.0 == Gluing::Open && (c == 0 || c == n - 1);
            let ir = if r == 0 { 1 } else { -1 };
            let ic = if c == 0 { 1 } else { -1 };
            let offsets: Vec<(i64, i64)> = match (row_border, col_border) {
                (true, true) => vec![(0, 0), (ir, 0), (0, ic), (ir, ic)],
                (true, false) => vec![(0, 0), (0, -1), (0, 1)],
                (false, true) => vec![(0, 0), (-1, 0), (1, 0)],
                (false, false) => CROSS.to_vec(),
            };
            for (dr, dc) in offsets {
                add(map_cell(glue, n, r + dr, c + dc));
            }
        }
    }
    hit
}

/// The N×N "All Lights" board of a rule and topology (every light at W−1,
/// goal 0, so the right-hand side is 1 everywhere): `(A, b)`.
fn board(rule: &str, topology: &str, n: usize) -> Option<(SparseMatrix, Vec<u32>)> {
    let glue = gluing(topology)?;
    if !RULES.contains(&rule) {
        return None;
    }
    let cells = n * n;
    let mut a = SparseMatrix::new(cells, cells);
    for r in 0..n as i64 {
        for c in 0..n as i64 {
            let col = (r * n as i64 + c) as usize;
            for cell in press(rule, glue, n as i64, r, c) {
                a.push_entry(col, cell, 1);
            }
        }
    }
    Some((a, vec![1; cells]))
}

/// The system in the JSON of `lights compile --emit json`.
fn from_json(path: &str) -> Result<(SparseMatrix, Vec<u32>, u32), String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
    let v: serde_json::Value = serde_json::from_str(&text).map_err(|e| format!("{path}: {e}"))?;
    let num = |v: &serde_json::Value| v.as_u64().ok_or_else(|| format!("{path}: expected a number"));
    let w = num(&v["modulus"])? as u32;
    let shape = v["matrix"]["shape"].as_array().ok_or("no matrix shape")?;
    let (rows, cols) = (num(&shape[0])? as usize, num(&shape[1])? as usize);
    let mut a = SparseMatrix::new(rows, cols);
    for e in v["matrix"]["entries"].as_array().ok_or("no matrix entries")? {
        let e = e.as_array().ok_or("bad entry")?;
        a.push_entry(num(&e[1])? as usize, num(&e[0])? as usize, num(&e[2])? as u32);
    }
    let b = v["b"].as_array().ok_or("no b")?.iter().map(|x| num(x).map(|x| x as u32)).collect::<Result<_, _>>()?;
    Ok((a, b, w))
}

fn random_case(n: usize, d: usize, seed: u64) -> (Vec<u32>, Kernel) {
    let mut rng = SplitMix64(seed);
    let x0 = (0..n).map(|_| (rng.next_u64() & 1) as u32).collect();
    let generators = (0..d)
        .map(|_| KernelGenerator {
            vector: (0..n).map(|_| rng.next_u64().is_multiple_of(4) as u32).collect(),
            order: 2,
        })
        .collect();
    (x0, Kernel { generators })
}

/// `(particular, kernel, W)` of a case.
fn load(case: &str) -> Result<(Vec<u32>, Kernel, u32), String> {
    let parts: Vec<&str> = case.split(':').collect();
    let system = match parts.as_slice() {
        ["random", n, d, seed] => {
            let p = |s: &str| s.parse::<u64>().map_err(|e| format!("{case}: {e}"));
            let (x0, k) = random_case(p(n)? as usize, p(d)? as usize, p(seed)?);
            return Ok((x0, k, 2));
        }
        [topology, n] if gluing(topology).is_some() => {
            let n = n.parse::<usize>().map_err(|e| format!("{case}: {e}"))?;
            let (a, b) = board("cross", topology, n).ok_or("unknown topology")?;
            (a, b, 2)
        }
        [rule, topology, n, w] if RULES.contains(rule) && gluing(topology).is_some() => {
            let n = n.parse::<usize>().map_err(|e| format!("{case}: {e}"))?;
            let w = w.parse::<u32>().map_err(|e| format!("{case}: {e}"))?;
            let (a, b) = board(rule, topology, n).ok_or("unknown rule or topology")?;
            (a, b, w)
        }
        _ => from_json(case)?,
    };
    let (a, b, w) = system;
    let s = solve(&a, &b, w).map_err(|e| format!("{case}: {e}"))?;
    let x0 = s.particular.ok_or_else(|| format!("{case}: no solution"))?;
    Ok((x0, s.kernel, w))
}

fn main() {
    let mut repeat = 5usize;
    let mut args: Vec<String> = Vec::new();
    for a in std::env::args().skip(1) {
        match a.strip_prefix("--repeat=").map(str::parse::<usize>) {
            Some(Ok(k)) if k > 0 => repeat = k,
            Some(_) => eprintln!("--repeat takes a positive number"),
            None => args.push(a),
        }
    }
    let listed: Vec<String> =
        if args.is_empty() { STANDARD.iter().map(std::string::ToString::to_string).collect() } else { args };
    // `all:N`: every named rule × topology × W of issue 17 on N×N.
    let mut cases: Vec<String> = Vec::new();
    for case in listed {
        match case.strip_prefix("all:") {
            Some(n) => {
                for w in MODULI {
                    for rule in RULES {
                        for topology in TOPOLOGIES {
                            cases.push(format!("{rule}:{topology}:{n}:{w}"));
                        }
                    }
                }
            }
            None => cases.push(case),
        }
    }
    println!("| case | W | generators | log2 kernel | presses | lower bound | proven | median | min–max of {repeat} |");
    println!("|---|---|---|---|---|---|---|---|---|");
    let (mut solved, mut proven, mut slowest) = (0, 0, (Duration::ZERO, String::new()));
    for case in &cases {
        let (x0, kernel, w) = match load(case) {
            Ok(s) => s,
            Err(e) => {
                eprintln!("{e}");
                continue;
            }
        };
        let mut times: Vec<Duration> = Vec::new();
        let mut answer = None;
        for _ in 0..repeat {
            let t = Instant::now();
            let m = minimum_weight(&x0, &kernel, w, &|| false);
            times.push(t.elapsed());
            answer = Some(m);
        }
        times.sort();
        match answer {
            Some(Ok(m)) => {
                println!(
                    "| {case} | {w} | {} | {:.1} | {} | {} | {} | {:.2?} | {:.2?}–{:.2?} |",
                    kernel.len(),
                    kernel.log2_size(),
                    m.cost,
                    m.lower_bound,
                    if m.optimal { "yes" } else { "no" },
                    times[repeat / 2],
                    times[0],
                    times[repeat - 1]
                );
                solved += 1;
                proven += m.optimal as usize;
                if times[repeat / 2] > slowest.0 {
                    slowest = (times[repeat / 2], case.clone());
                }
            }
            Some(Err(e)) => println!("| {case} | {w} | {} | | error: {e} | | | | |", kernel.len()),
            None => {}
        }
    }
    if solved > 1 {
        println!("\n{proven} of {solved} proven; slowest median {:.2?} ({})", slowest.0, slowest.1);
    }
}
