//! Timings of `minimum_weight` over GF(2) on Lights Out boards and random kernels.
//!
//! ```text
//! cargo run --release -p lights-algebra --example minimum_timings [CASE ...]
//! ```
//!
//! A CASE is one of
//! * `TOPOLOGY:N` — the N×N cross-rule board with every light on, TOPOLOGY one
//!   of `plane`, `torus`, `klein`, `projective` (same gluing as the compiler);
//! * `random:N:D:SEED` — a random kernel of dimension D over N cells (each
//!   generator touches a cell with probability 1/4) and a random coset;
//! * a path to the JSON of `lights compile FILE --emit json`.
//!
//! Without arguments it runs the standard list below. Each case is solved once,
//! then `minimum_weight` is timed `--repeat=K` times (default 5; median and
//! spread reported).
//!
//! Release build on the 2-core development machine, shared with other builds
//! (load 3–5, so figures are inflated and noisy); medians of 5 (3 for the
//! projective plane), the code before (one transform over all `2^d` members
//! for `d <= 30`, heuristic above) and after (blocks, odd-check certificates,
//! branch and bound with transform leaves):
//!
//! | case | kernel dim | minimum | before | after |
//! |---|---|---|---|---|
//! | plane:19 | 16 | 141 | 0.55 ms | 0.18 ms |
//! | projective:48 | 30 | 768 | 6.4 s | 2.1 s (1.45 s on a quieter machine) |
//! | torus:48 | 64 | 768 | 86 ms, unproven | 27 ms, proven |
//! | klein:48 | 48 | 768 | 62 ms, unproven | 18 ms, proven |
//! | klein:60 | 28 | 1200 | 2.2 s | 0.72 s |
//! | random:400:24:1 | 24 | 148 | 94 ms | 26 ms |
//! | random:2000:28:2 | 28 | 869 | 1.3 s | 0.46 s |
//! | random:3000:40:3 | 40 | 1358 → 1341 (unproven) | 44 ms | 49 ms |
//! | torus:40 | 64 | 616 (unproven) | 132 ms | 131 ms |

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

/// The cell reached from `(r, c)` (possibly off the board), if any.
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

/// The cross-rule N×N board with every light on: `(A, b)` over GF(2).
fn board(topology: &str, n: usize) -> Option<(SparseMatrix, Vec<u32>)> {
    let glue = gluing(topology)?;
    let cells = n * n;
    let mut a = SparseMatrix::new(cells, cells);
    for r in 0..n as i64 {
        for c in 0..n as i64 {
            let press = (r * n as i64 + c) as usize;
            // A cell reached twice (through a corner) is changed once, as in the compiler.
            let mut hit: Vec<usize> = Vec::new();
            for (dr, dc) in [(0, 0), (1, 0), (-1, 0), (0, 1), (0, -1)] {
                if let Some((rr, cc)) = map_cell(glue, n as i64, r + dr, c + dc) {
                    let cell = (rr * n as i64 + cc) as usize;
                    if !hit.contains(&cell) {
                        hit.push(cell);
                        a.push_entry(press, cell, 1);
                    }
                }
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
        .map(|_| KernelGenerator { vector: (0..n).map(|_| (rng.next_u64() % 4 == 0) as u32).collect(), order: 2 })
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
            let (a, b) = board(topology, n).ok_or("unknown topology")?;
            (a, b, 2)
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
    let cases: Vec<String> = if args.is_empty() { STANDARD.iter().map(|s| s.to_string()).collect() } else { args };
    println!("| case | W | kernel dim | minimum | proven | median | min–max of {repeat} |");
    println!("|---|---|---|---|---|---|---|");
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
            Some(Ok(m)) => println!(
                "| {case} | {w} | {} | {} | {} | {:.2?} | {:.2?}–{:.2?} |",
                kernel.len(),
                m.cost,
                if m.optimal { "yes" } else { "no" },
                times[repeat / 2],
                times[0],
                times[repeat - 1]
            ),
            Some(Err(e)) => println!("| {case} | {w} | {} | error: {e} | | | |", kernel.len()),
            None => {}
        }
    }
}
