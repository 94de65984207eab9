//! The kernel-64 rule of issue 28, measured: random solvable W = 2 cross
//! boards (torus and plane, a seeded sample of sizes) whose kernel
//! dimension is 25–64, solved with a given minimum budget. Prints one
//! Markdown row per board (size, kernel dimension, presses, proven bound,
//! the exact minimum where a Walsh–Hadamard transform over all members
//! fits — kernel ≤ 28, 1 GB —, proven / within 10 % / neither) and a
//! summary. Figures go in docs/PERFORMANCE.md; nothing here is a test
//! (kernels up to 24 are: tests/kernel_sample.rs).
//!
//!   cargo run --release -p lights-compiler --example minimum_sample [UNITS] [BOARDS]

use lights_algebra::SplitMix64;
use lights_compiler::model::{Puzzle, Rule, Topology};
use lights_compiler::report::{SolveOptions, DEFAULT_MINIMUM_WORK};
use lights_compiler::solve::solve_with;
use std::time::Instant;

#[path = "../tests/support/boards.rs"]
mod boards;
#[path = "../tests/support/walsh.rs"]
mod walsh;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let units: u64 = args.get(1).map_or(DEFAULT_MINIMUM_WORK, |s| s.parse().expect("UNITS"));
    let wanted: usize = args.get(2).map_or(12, |s| s.parse().expect("BOARDS"));
    let mut rng = SplitMix64(28);
    let (mut found, mut proven, mut close) = (0, 0, 0);
    println!("| board | kernel | presses | bound | exact | verdict | time |");
    println!("|---|---|---|---|---|---|---|");
    let mut tries = 0;
    while found < wanted && tries < 20_000 {
        tries += 1;
        let topology = if rng.below(2) == 0 { Topology::Torus } else { Topology::Plane };
        let (rows, cols) = (5 + rng.below(36) as usize, 20 + rng.below(71) as usize);
        let mut p = Puzzle::new(rows, cols, 2, Rule::from_name("cross").expect("cross"), topology);
        // Lights made by random presses, so the board is solvable.
        boards::press_randomly(&mut p, &mut rng);
        let quick = solve_with(&p, SolveOptions { search_minimum: false, ..SolveOptions::default() }, &|| false)
            .expect("solves");
        let k = quick.quiet_patterns.len();
        if !(25..=64).contains(&k) {
            continue;
        }
        found += 1;
        let t = Instant::now();
        let r = solve_with(&p, SolveOptions { search_minimum: true, minimum_work: units }, &|| false).expect("solves");
        let t = t.elapsed();
        let m = r.minimum.expect("solvable");
        let exact = if k <= 28 {
            let x0 = quick.minimum.as_ref().expect("solvable").presses.to_vec();
            let patterns: Vec<Vec<u32>> = quick.quiet_patterns.iter().map(|q| q.presses.to_vec()).collect();
            let e = walsh::reference_minimum(&x0, &patterns);
            assert!(m.lower_bound <= e && e <= m.cost, "bound {} ≤ exact {e} ≤ cost {}", m.lower_bound, m.cost);
            e.to_string()
        } else {
            "—".to_string()
        };
        let verdict = if m.optimal {
            proven += 1;
            "proven"
        } else if m.lower_bound * 10 >= m.cost * 9 {
            close += 1;
            "within 10 %"
        } else {
            "neither"
        };
        println!(
            "| {rows}×{cols} {} | {k} | {} | {} | {exact} | {verdict} | {:.1} ms |",
            topology.name(),
            m.cost,
            m.lower_bound,
            t.as_secs_f64() * 1e3
        );
    }
    println!(
        "\n{found} boards, {units} units: {proven} proven, {close} within 10 %, {} neither",
        found - proven - close
    );
}
