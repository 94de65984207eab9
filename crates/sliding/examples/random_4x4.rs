//! Optimal solutions of seeded random 4×4 positions (uniform among the
//! solvable ones), for `docs/sliding-solver.md` and `docs/PERFORMANCE.md`.
//!
//! ```sh
//! cargo run --release -p lights-sliding --example random_4x4 -- [COUNT] [SEED] [--no-pdb]
//! ```
//!
//! Prints the two hardest 8-puzzle positions' solutions (31 moves), how
//! the pattern databases were obtained (and how long it took), then one
//! line per position (moves, nodes, time) and the median and maximum. The
//! tables are built in memory (the library keeps no files; `lights` keeps
//! them in the user's cache). `--no-pdb` searches with Manhattan distance +
//! linear conflict only (slow: use a small COUNT).

use std::cell::Cell;
use std::io::Write;
use std::time::{Duration, Instant};

use lights_sliding::{
    pattern_databases, random_solvable, solve, Board, BuildProgress, BuildStage, SolveOptions, Strategy,
};

fn median<T: Copy + Ord>(values: &[T]) -> T {
    let mut sorted = values.to_vec();
    sorted.sort_unstable();
    sorted[sorted.len() / 2]
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let flags: Vec<&str> = args.iter().filter(|a| a.starts_with("--")).map(String::as_str).collect();
    let numbers: Vec<u64> = args.iter().filter_map(|a| a.parse().ok()).collect();
    let count = numbers.first().copied().unwrap_or(100) as usize;
    let seed = numbers.get(1).copied().unwrap_or(2024);
    let use_pdb = !flags.contains(&"--no-pdb");

    let goal3 = Board::standard_goal(3, 3).expect("3×3 is a valid size");
    for cells in [[8, 6, 7, 2, 5, 4, 3, 0, 1], [6, 4, 7, 8, 5, 0, 3, 2, 1]] {
        let start = Board::new(3, 3, cells.to_vec()).expect("a 3×3 position");
        let started = Instant::now();
        let solution = solve(&start, &goal3, &SolveOptions::default()).expect("solvable");
        println!("8-puzzle {:?}: {} moves, {} nodes, {:.2?}", cells, solution.len(), solution.nodes, started.elapsed());
    }

    let goal = Board::standard_goal(4, 4).expect("4×4 is a valid size");
    if use_pdb {
        let last_percent = Cell::new(u64::MAX);
        let progress = |p: BuildProgress| {
            if let BuildStage::Building { .. } = p.stage {
                let percent = p.done * 100 / p.total.max(1);
                if percent != last_percent.get() {
                    last_percent.set(percent);
                    eprint!("\rbuilding pattern databases: {percent:3}%");
                    let _ = std::io::stderr().flush();
                }
            }
        };
        let started = Instant::now();
        let (databases, source) = pattern_databases(None, &progress, &|| false).expect("nothing cancels this build");
        if last_percent.get() != u64::MAX {
            eprintln!();
        }
        println!(
            "pattern databases: {source:?}, {} bytes, max values {:?}, in {:.2?}",
            databases.size_bytes(),
            databases.max_values(),
            started.elapsed()
        );
    }

    let options = SolveOptions {
        strategy: Strategy::OptimalOnly,
        node_limit: None,
        pattern_databases: use_pdb,
        ..SolveOptions::default()
    };
    let mut lengths = Vec::new();
    let mut times = Vec::new();
    let mut nodes = Vec::new();
    println!("{:>4} {:>6} {:>12} {:>12}", "#", "moves", "nodes", "time");
    for i in 0..count {
        let start = random_solvable(&goal, seed.wrapping_add(i as u64));
        let started = Instant::now();
        let solution = solve(&start, &goal, &options).expect("random_solvable is solvable");
        let elapsed = started.elapsed();
        println!("{i:>4} {:>6} {:>12} {:>12.2?}", solution.len(), solution.nodes, elapsed);
        lengths.push(solution.len());
        times.push(elapsed);
        nodes.push(solution.nodes);
    }
    if count == 0 {
        return;
    }
    let total: Duration = times.iter().sum();
    println!(
        "{count} positions (seed {seed}): moves median {} max {}; nodes median {} max {}; \
         time median {:.2?} max {:.2?} total {:.2?}",
        median(&lengths),
        lengths.iter().max().copied().unwrap_or(0),
        median(&nodes),
        nodes.iter().max().copied().unwrap_or(0),
        median(&times),
        times.iter().max().copied().unwrap_or_default(),
        total
    );
}
