//! Rough timings of `solve` (and `minimum_weight`) on cross-rule boards.
//!
//! Run with `cargo run --release -p lights-algebra --example timings [N M W ...]`.
//! Without arguments it times a fixed list of boards. Not a benchmark suite:
//! a quick way to see that the banded eliminators behave as expected.
//!
//! Figures seen on the 2-core development machine (release, whole `solve`
//! call including kernel extraction and self-checks; the machine was shared,
//! so expect ±50 % noise), all-lights right-hand side:
//!
//! | board (cross rule)   | W      | solve      | notes                          |
//! |----------------------|--------|------------|--------------------------------|
//! | 48×48 (2,304 unk.)   | 2      | ~1.7 ms    | unique solution, 1,096 presses |
//! | 100×100 (10,000)     | 2      | ~12–25 ms  | unique solution                |
//! | 200×200 (40,000)     | 2      | ~85–150 ms | unique solution                |
//! | 28×28 (784)          | 3      | ~1.2–2 ms  | unique solution                |
//! | 100×100              | 3/4/6  | ~90–190 ms |                                |
//! | 19×19 (361)          | 2      | ~0.4 ms    | d = 16, minimum 141 in ~0.6 ms |
//!
//! `minimum_weight` with W = 2 and kernel dimension 30 (exact transform): ~4 s.
//! Dense random systems (see `dense_timings`): 10,000×10,000 over GF(2) about
//! 2–3 s per elimination (twice that when inconsistent, for the certificate).

use lights_algebra::{minimum_weight, solve, SparseMatrix};
use std::time::Instant;

fn cross(n: usize, m: usize) -> SparseMatrix {
    let mut a = SparseMatrix::new(n * m, n * m);
    for r in 0..n {
        for c in 0..m {
            let press = r * m + c;
            for (dr, dc) in [(0i64, 0i64), (1, 0), (-1, 0), (0, 1), (0, -1)] {
                let (rr, cc) = (r as i64 + dr, c as i64 + dc);
                if rr >= 0 && cc >= 0 && (rr as usize) < n && (cc as usize) < m {
                    a.push_entry(press, rr as usize * m + cc as usize, 1);
                }
            }
        }
    }
    a
}

fn king(n: usize, m: usize) -> SparseMatrix {
    let mut a = SparseMatrix::new(n * m, n * m);
    for r in 0..n {
        for c in 0..m {
            for dr in -1i64..=1 {
                for dc in -1i64..=1 {
                    let (rr, cc) = (r as i64 + dr, c as i64 + dc);
                    if rr >= 0 && cc >= 0 && (rr as usize) < n && (cc as usize) < m {
                        a.push_entry(r * m + c, rr as usize * m + cc as usize, 1);
                    }
                }
            }
        }
    }
    a
}

/// Appends `extra` unknowns that repeat existing columns (kernel grows by `extra`).
fn with_duplicates(mut a: SparseMatrix, extra: usize) -> SparseMatrix {
    for k in 0..extra {
        let col = a.columns[(k * 7) % a.cols].clone();
        a.columns.push(col);
    }
    a.cols += extra;
    a
}

fn time_board(n: usize, m: usize, w: u32) {
    time_matrix(&format!("{n}x{m} cross"), &cross(n, m), w);
}

fn time_matrix(label: &str, a: &SparseMatrix, w: u32) {
    let (n, m) = (a.rows, a.cols);
    let b = vec![w - 1; a.rows];
    let t = Instant::now();
    let s = match solve(a, &b, w) {
        Ok(s) => s,
        Err(e) => {
            println!("{label} W={w}: error {e}");
            return;
        }
    };
    let solve_time = t.elapsed();
    let _ = (n, m);
    let t = Instant::now();
    let min = s.particular.as_ref().map(|x| minimum_weight(x, &s.kernel, w, &|| false));
    let min_time = t.elapsed();
    let min_text = match min {
        Some(Ok(m)) => format!("min {} (optimal: {})", m.cost, m.optimal),
        Some(Err(e)) => format!("min error {e}"),
        None => "no solution".into(),
    };
    println!(
        "{label} ({n} eq, {m} unknowns) W={w}: solve {:.2} ms, consistent {}, {} generators, count {}, {} in {:.2} ms",
        solve_time.as_secs_f64() * 1e3,
        s.consistent,
        s.kernel.generators.len(),
        s.count(),
        min_text,
        min_time.as_secs_f64() * 1e3
    );
}

fn main() {
    let args: Vec<usize> = std::env::args().skip(1).filter_map(|a| a.parse().ok()).collect();
    if args.len() >= 3 {
        for chunk in args.chunks_exact(3) {
            time_board(chunk[0], chunk[1], chunk[2] as u32);
        }
        return;
    }
    for (n, m, w) in [
        (5, 5, 2),
        (19, 19, 2),
        (48, 48, 2),
        (100, 100, 2),
        (28, 28, 3),
        (28, 28, 4),
        (28, 28, 6),
        (50, 50, 5),
        (40, 40, 65536),
        (200, 200, 2),
    ] {
        time_board(n, m, w);
    }
    // Minimum-weight regimes: exact transform at d = 30, heuristics beyond.
    time_matrix("king 8x8", &king(8, 8), 4);
    time_matrix("5x5 cross + 28 duplicate unknowns", &with_duplicates(cross(5, 5), 28), 2);
    time_matrix("10x10 cross + 60 duplicate unknowns", &with_duplicates(cross(10, 10), 60), 2);
    time_matrix("6x6 cross + 8 duplicate unknowns", &with_duplicates(cross(6, 6), 8), 6);
}
