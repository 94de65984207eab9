//! The constructive method on large random boards (uniform among the
//! solvable positions), for `docs/sliding-solver.md`.
//!
//! ```sh
//! cargo run --release -p lights-sliding --example large_boards -- [RxC …] [--seeds N]
//! ```
//!
//! Default sizes: 17x17 32x32 64x64 100x100 256x256 (one seed each). Prints
//! one line per board: moves, the time `solve` took (it checks the
//! invariant and replays its answer before returning, both included), the
//! time of that replay and of the invariant alone, and the lower bound.

use std::time::Instant;

use lights_sliding::{invariant, random_solvable, replay_to_goal, solve, Board, SolveOptions, Strategy};

fn parse_size(text: &str) -> Option<(usize, usize)> {
    let (r, c) = text.split_once(['x', 'X', '×'])?;
    Some((r.parse().ok()?, c.parse().ok()?))
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut seeds = 1u64;
    let mut sizes = Vec::new();
    let mut i = 0;
    while i < args.len() {
        if args[i] == "--seeds" {
            seeds = args.get(i + 1).and_then(|s| s.parse().ok()).unwrap_or(1);
            i += 2;
            continue;
        }
        match parse_size(&args[i]) {
            Some(size) => sizes.push(size),
            None => {
                eprintln!("not a size: {} (expected RxC, e.g. 100x100)", args[i]);
                std::process::exit(2);
            }
        }
        i += 1;
    }
    if sizes.is_empty() {
        sizes = vec![(17, 17), (32, 32), (64, 64), (100, 100), (256, 256)];
    }
    let options = SolveOptions { strategy: Strategy::NonOptimal, ..SolveOptions::default() };
    for (rows, cols) in sizes {
        let goal = match Board::standard_goal(rows, cols) {
            Ok(goal) => goal,
            Err(e) => {
                eprintln!("{rows}x{cols}: {e}");
                continue;
            }
        };
        for seed in 1..=seeds {
            let start = random_solvable(&goal, seed);
            let began = Instant::now();
            let solvable = invariant(&start, &goal).is_ok_and(|inv| inv.solvable);
            let checked = began.elapsed();
            assert!(solvable, "random_solvable gives solvable positions");
            let began = Instant::now();
            let solution = solve(&start, &goal, &options).expect("a solvable board");
            let solved = began.elapsed();
            let began = Instant::now();
            replay_to_goal(&start, &goal, &solution.moves).expect("solve replays its answers");
            let replayed = began.elapsed();
            println!(
                "{rows}x{cols} seed {seed}: {} moves, {:.1} ms (replay {:.1} ms, invariant {:.2} ms), lower bound {}",
                solution.len(),
                solved.as_secs_f64() * 1e3,
                replayed.as_secs_f64() * 1e3,
                checked.as_secs_f64() * 1e3,
                solution.lower_bound
            );
        }
    }
}
