//! What the first sliding check of a fresh process costs, with no cached
//! tables: the blocks of `examples/sliding.lights` that need pattern
//! databases (its 5×5, whose last 4×4 is finished with them) and two hard
//! random 4×4 positions (63 and 61 moves), solved as `lights check` solves
//! them, for `docs/sliding-solver.md` and `docs/PERFORMANCE.md`.
//!
//! ```sh
//! cargo build --release -p lights-sliding --example first_check
//! /usr/bin/time target/release/examples/first_check            # quick 5-5-5 tables first
//! /usr/bin/time target/release/examples/first_check --full     # build the 6-6-3 tables first (before)
//! target/release/examples/first_check --lights                 # the positions as a `.lights` pack
//! ```
//!
//! Run it as a new process each time: the tables a process holds are kept
//! for its lifetime. `/usr/bin/time` gives the CPU time.

use std::time::Instant;

use lights_sliding::{
    pattern_databases, random_solvable, small_table_nodes, solve, Board, SolveOptions, Tile, SMALL_TABLES_NODES,
};

fn positions() -> Vec<(String, Board, Board)> {
    let five = Board::standard_goal(5, 5).expect("5×5 is a valid size");
    let twenty_four: Vec<Tile> =
        vec![0, 7, 3, 4, 5, 2, 6, 1, 10, 14, 18, 13, 8, 24, 9, 11, 21, 20, 12, 15, 17, 16, 22, 23, 19];
    let four = Board::standard_goal(4, 4).expect("4×4 is a valid size");
    vec![
        ("twenty-four".to_string(), Board::new(5, 5, twenty_four).expect("the example's 5×5"), five),
        ("hard 4x4, seed 2057".to_string(), random_solvable(&four, 2057), four.clone()),
        ("hard 4x4, seed 2034".to_string(), random_solvable(&four, 2034), four),
    ]
}

/// The position as a `sliding` block of the language.
fn lights_block(name: &str, start: &Board, moves: usize) -> String {
    let mut out = format!("sliding \"{name}\" {{\n  size {}x{}\n  tiles {{\n", start.rows(), start.cols());
    for row in start.cells().chunks(start.cols()) {
        let cells: Vec<String> = row
            .iter()
            .map(|&t| if t == 0 { ".".to_string() } else { t.to_string() })
            .map(|c| format!("{c:>2}"))
            .collect();
        out.push_str(&format!("    {}\n", cells.join(" ")));
    }
    out.push_str(&format!("  }}\n  expect moves {moves}\n}}\n"));
    out
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let full = args.iter().any(|a| a == "--full");
    let lights = args.iter().any(|a| a == "--lights");
    let started = Instant::now();
    if full {
        let (databases, source) = pattern_databases(None, &|_| {}, &|| false).expect("nothing cancels this build");
        println!("6-6-3 tables: {source:?}, {} bytes, in {:.2?}", databases.size_bytes(), started.elapsed());
    }
    for (name, start, goal) in positions() {
        let at = Instant::now();
        let solution = solve(&start, &goal, &SolveOptions::default()).expect("solvable");
        if lights {
            if start.rows() == 4 {
                println!("{}", lights_block(&name.replace("hard 4x4, ", "hard, "), &start, solution.len()));
            }
            continue;
        }
        println!(
            "{name}: {} moves{}, {} nodes, tables {:?}, {:.2?}",
            solution.len(),
            if solution.optimal { " (optimal)" } else { "" },
            solution.nodes,
            solution.pdb_source,
            at.elapsed()
        );
    }
    if !lights {
        println!(
            "in all {:.2?}; {} nodes with the 5-5-5 tables (budget {SMALL_TABLES_NODES})",
            started.elapsed(),
            small_table_nodes()
        );
    }
}
