//! The performance targets of docs/PERFORMANCE.md, measured and printed as a
//! table: `cargo run --release -p lights-compiler --example targets [-- --huge]`
//! (`bench/targets` runs this and the CLI figures). Single thread.
//! `--skip-48` leaves out the 144 boards of 48×48 (the slowest part);
//! `--only-48` times only them.
//!
//! Each figure is the best of a few runs (the machine is shared); the
//! 100,000×100,000 board runs once and only with `--huge` (about 1.2 GB).

use std::time::{Duration, Instant};

use lights_algebra::{solve_gf2_dense, BitMatrix};
use lights_compiler::fast::bits::RowShape;
use lights_compiler::fast::poly::{self, CrossBoard, Rhs};
use lights_compiler::model::{Puzzle, Rule, Topology};
use lights_compiler::solve::{solve_with, SolveOptions};

fn puzzle(n: usize, states: u32, rule: Rule, topology: Topology) -> Puzzle {
    let mut p = Puzzle::new(n, n, states, rule, topology);
    p.lights = lights_compiler::model::Board::uniform(p.cells(), 1);
    p
}

/// Best wall time of `runs` calls.
fn best(runs: usize, mut f: impl FnMut()) -> Duration {
    (0..runs)
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed()
        })
        .min()
        .unwrap()
}

fn ms(d: Duration) -> String {
    let m = d.as_secs_f64() * 1e3;
    if m >= 1000.0 {
        format!("{:.2} s", m / 1e3)
    } else if m >= 10.0 {
        format!("{m:.0} ms")
    } else {
        format!("{m:.1} ms")
    }
}

fn row(workload: &str, target: Duration, measured: Duration, note: &str) {
    let status = if measured < target { "met" } else { "NOT MET" };
    println!("| {workload} | < {} | {} | {status} | {note} |", ms(target), ms(measured));
}

/// Peak resident memory of this process so far, from /proc (Linux).
fn peak_rss_mb() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse::<u64>().ok().map(|kb| kb / 1024)
}

fn solve_board(p: &Puzzle) -> String {
    let r =
        solve_with(p, SolveOptions { search_minimum: false, ..SolveOptions::default() }, &|| false).expect("solves");
    format!("{} solutions", if r.solvable { r.solutions.to_string() } else { "0 (unsolvable)".into() })
}

fn main() {
    let huge = std::env::args().any(|a| a == "--huge");
    let skip_48 = std::env::args().any(|a| a == "--skip-48");
    let only_48 = std::env::args().any(|a| a == "--only-48");
    println!("| workload | target | measured | status | answer / note |");
    println!("|---|---|---|---|---|");

    // 48×48 All Lights, every rule × topology × W ≤ 12, from the file's text.
    if !skip_48 {
        small_boards();
    }
    if !only_48 {
        big_boards(huge);
    }
}

fn small_boards() {
    let mut worst = (Duration::ZERO, String::new());
    let mut over = Vec::new();
    let (mut solvable, mut proven, mut unproven) = (0, 0, Vec::new());
    for rule in ["cross", "king", "flip", "merlin"] {
        for topo in ["plane", "cylinder", "torus", "mobius", "klein", "projective"] {
            for w in [2u32, 3, 4, 5, 6, 12] {
                let src = format!(
                    "puzzle \"p\" {{\n  size 48x48\n  states {w}\n  rule {rule}\n  topology {topo}\n  lights on\n}}\n"
                );
                let t = best(2, || {
                    let a = lights_compiler::check_source(&src);
                    assert!(a.blocks[0].report.is_some());
                });
                let a = lights_compiler::check_source(&src);
                if let Some(m) =
                    a.blocks[0].report.as_ref().and_then(|r| r.as_lights()).and_then(|r| r.minimum.as_ref())
                {
                    solvable += 1;
                    if m.optimal {
                        proven += 1;
                    } else {
                        unproven.push(format!("{rule} {topo} W={w} ({}, at least {})", m.cost, m.lower_bound));
                    }
                }
                let name = format!("{rule} {topo} W={w}");
                if t >= Duration::from_millis(20) {
                    over.push(format!("{name}: {}", ms(t)));
                }
                if t > worst.0 {
                    worst = (t, name);
                }
            }
        }
    }
    let note = if over.is_empty() {
        format!("144 boards; slowest: {}", worst.1)
    } else {
        format!("144 boards; over 20 ms: {}", over.join(", "))
    };
    row(
        "48×48 All Lights, any rule/topology, W ≤ 12 (parse + solve + minimum + check)",
        Duration::from_millis(20),
        worst.0,
        &note,
    );
    println!(
        "| 48×48 All Lights: minimum proven with the default budget | {solvable} of {solvable} | {proven} of {solvable} | {} | not proven: {} |",
        if proven == solvable { "met" } else { "NOT MET" },
        if unproven.is_empty() { "none".to_string() } else { unproven.join(", ") }
    );
}

fn big_boards(huge: bool) {
    // 10,000×10,000 plane cross, W = 2, library API with the full solution.
    let board = CrossBoard { height: 10_000, width: 10_000, shape: RowShape::Path };
    let mut answer = None;
    let t = best(3, || answer = Some(poly::solve(&board, &Rhs::Uniform(true), &|| false).unwrap()));
    let a = answer.unwrap();
    row(
        "10,000×10,000 plane cross, W = 2: solvable, count, full solution",
        Duration::from_millis(100),
        t,
        &format!("solvable {}, 2^{} solutions (polynomial method)", a.solvable, a.nullity),
    );

    if huge {
        let board = CrossBoard { height: 100_000, width: 100_000, shape: RowShape::Path };
        let t = Instant::now();
        let a = poly::solve(&board, &Rhs::Uniform(true), &|| false).unwrap();
        let t = t.elapsed();
        let mem = peak_rss_mb().map_or("?".into(), |m| format!("{m} MB peak"));
        row(
            "100,000×100,000 plane cross, W = 2 (library API, solution in memory)",
            Duration::from_secs(15),
            t,
            &format!("solvable {}, 2^{} solutions; {mem} (target < 4 GB)", a.solvable, a.nullity),
        );
    }

    for (label, n, w, rule, topo, target_ms) in [
        ("2,000×2,000 torus cross, W = 2", 2000, 2, Rule::Cross, Topology::Torus, 500),
        ("1,000×1,000 King, plane, W = 2", 1000, 2, Rule::King, Topology::Plane, 1000),
        ("1,000×1,000 cross, mobius, W = 2", 1000, 2, Rule::Cross, Topology::Mobius, 2000),
        ("1,000×1,000 cross, klein, W = 2", 1000, 2, Rule::Cross, Topology::Klein, 2000),
        ("1,000×1,000 cross, projective, W = 2", 1000, 2, Rule::Cross, Topology::Projective, 2000),
        ("500×500 cross, W = 6", 500, 6, Rule::Cross, Topology::Plane, 2000),
    ] {
        let p = puzzle(n, w, rule, topo);
        let mut answer = String::new();
        let t = best(2, || answer = solve_board(&p));
        let path = match lights_compiler::fast::plan(&p) {
            lights_compiler::fast::Plan::Polynomial => "polynomial method",
            lights_compiler::fast::Plan::Chase => "symbolic chase",
            lights_compiler::fast::Plan::Flip => "flip reduction",
            lights_compiler::fast::Plan::Dense => "dense elimination",
        };
        row(label, Duration::from_millis(target_ms), t, &format!("{answer} ({path}; no minimum search)"));
    }

    // Dense fallback: a random 10,000 × 10,000 system over GF(2).
    let n = 10_000;
    let mut a = BitMatrix::zeros(n, n);
    let mut s = 0x9E37_79B9_7F4A_7C15u64;
    for word in &mut a.data {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        *word = s;
    }
    for r in 0..n {
        let wpr = a.words_per_row;
        a.row_mut(r)[wpr - 1] &= (1u64 << (n % 64)) - 1;
    }
    let mut b: Vec<u64> = (0..n.div_ceil(64)).map(|i| (i as u64 + 1) * 0x5851_F42D_4C95_7F2D).collect();
    if let Some(last) = b.last_mut() {
        *last &= (1u64 << (n % 64)) - 1; // no bits past the last row
    }
    let mut consistent = false;
    let t = best(2, || consistent = solve_gf2_dense(&a, &b, &|| false).unwrap().consistent);
    row(
        "dense fallback, 10,000 unknowns, W = 2",
        Duration::from_secs(1),
        t,
        &format!("random dense system, consistent: {consistent}"),
    );

    // Minimum presses, 19×19 All Lights (kernel dimension 16), proven.
    let p = puzzle(19, 2, Rule::Cross, Topology::Plane);
    let mut m = None;
    let t = best(3, || m = solve_with(&p, SolveOptions::default(), &|| false).unwrap().minimum);
    let m = m.unwrap();
    row(
        "minimum presses, 19×19 All Lights (kernel dim 16), proven",
        Duration::from_millis(50),
        t,
        &format!("{} presses, proven: {}", m.cost, m.optimal),
    );
}
