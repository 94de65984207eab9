//! Solving times, for `docs/sliding-solver.md` and `docs/PERFORMANCE.md`.
//!
//! - `random_4x4/10_positions`: the first ten positions of
//!   `examples/random_4x4.rs` (seeds 2024…2033, uniform among solvable
//!   4×4 positions) solved optimally with the pattern databases, one
//!   iteration solving all ten.
//! - `hardest_3x3`: the two 31-move 8-puzzle positions (Manhattan + linear
//!   conflict).
//! - `reduction/5x5`, `reduction/10x10`, `reduction/100x100`: the
//!   constructive method on one random position each (100×100 through the
//!   reduction for large boards, `src/large.rs`; 256×256 is in
//!   `examples/large_boards.rs`, too slow for repeated samples).
//! - `pdb_load`: reading and checking the cache file.
//!
//! The pattern databases are built in memory once, outside the
//! measurements (the library keeps no files).
//!
//! Run: `cargo bench -p lights-sliding --bench solve`.

use criterion::{criterion_group, criterion_main, Criterion};
use lights_sliding::{pattern_databases, random_solvable, solve, Board, PatternDatabases, SolveOptions, Strategy};

fn optimal() -> SolveOptions<'static> {
    SolveOptions { strategy: Strategy::OptimalOnly, node_limit: None, ..SolveOptions::default() }
}

fn random_4x4(c: &mut Criterion) {
    let (databases, source) = pattern_databases(None, &|_| {}, &|| false).expect("nothing cancels");
    eprintln!("pattern databases: {source:?} ({} bytes)", databases.size_bytes());
    let goal = Board::standard_goal(4, 4).unwrap();
    let starts: Vec<Board> = (2024..2034).map(|s| random_solvable(&goal, s)).collect();
    let mut group = c.benchmark_group("random_4x4");
    group.sample_size(10);
    group.bench_function("10_positions", |b| {
        b.iter(|| starts.iter().map(|s| solve(s, &goal, &optimal()).unwrap().len()).sum::<usize>());
    });
    group.finish();
}

fn hardest_3x3(c: &mut Criterion) {
    let goal = Board::standard_goal(3, 3).unwrap();
    let hardest = [
        Board::new(3, 3, vec![8, 6, 7, 2, 5, 4, 3, 0, 1]).unwrap(),
        Board::new(3, 3, vec![6, 4, 7, 8, 5, 0, 3, 2, 1]).unwrap(),
    ];
    c.bench_function("hardest_3x3", |b| {
        b.iter(|| hardest.iter().map(|s| solve(s, &goal, &optimal()).unwrap().len()).sum::<usize>());
    });
}

fn reduction(c: &mut Criterion) {
    let options = SolveOptions { strategy: Strategy::NonOptimal, ..SolveOptions::default() };
    let mut group = c.benchmark_group("reduction");
    group.sample_size(10);
    for side in [5, 10, 100] {
        let goal = Board::standard_goal(side, side).unwrap();
        let start = random_solvable(&goal, 7);
        group.bench_function(format!("{side}x{side}"), |b| b.iter(|| solve(&start, &goal, &options).unwrap().len()));
    }
    group.finish();
}

/// Reading stored tables back (what a load from the cache costs besides the file read).
fn pdb_load(c: &mut Criterion) {
    let (databases, _) = pattern_databases(None, &|_| {}, &|| false).expect("nothing cancels");
    let bytes = databases.to_bytes();
    let mut group = c.benchmark_group("pdb_load");
    group.sample_size(10);
    group.bench_function("from_bytes", |b| b.iter(|| PatternDatabases::from_bytes(&bytes).unwrap().size_bytes()));
    group.finish();
}

criterion_group!(benches, random_4x4, hardest_3x3, reduction, pdb_load);
criterion_main!(benches);
