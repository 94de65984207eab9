//! Timings on dense random systems and on a cross board with scrambled unknowns
//! (no band structure): the worst cases for the windowed eliminators.
//!
//! `cargo run --release -p lights-algebra --example dense_timings` prints:
//!
//! 1. a table of `solve_gf2_dense` (the bit-packed API) on random square
//!    systems of 1,000 / 4,000 / 10,000 unknowns, consistent and inconsistent
//!    (median of several runs; the whole call: elimination, particular solution
//!    or certificate, kernel basis, self-checks);
//! 2. the sparse `solve` on dense and scrambled inputs.
//!
//! `dense_timings N` times `solve_gf2_dense` on one `N × N` system (both
//! right-hand sides); `dense_timings N W` times `solve` on a dense `N × N`
//! system modulo `W`; `RUNS=k` sets the number of runs per table row.
//!
//! The on-CPU column (Linux: the thread's scheduler time) sees through time
//! slicing on a shared machine, not through contention for caches and memory.
//! Figures seen on the 2-core development machine (shared; medians):
//! 1,000 unknowns ~1 ms, 4,000 ~17–20 ms, 10,000 ~0.21–0.30 s, consistent or
//! not (the sparse `solve` path took 2–3 s at 10,000, 4.5–10 s inconsistent).

use lights_algebra::{solve, solve_gf2_dense, BitMatrix, SparseMatrix, SplitMix64};
use std::time::Instant;

fn random_dense(n: usize, w: u32, rng: &mut SplitMix64) -> SparseMatrix {
    let mut a = SparseMatrix::new(n, n);
    for c in 0..n {
        for r in 0..n {
            let v = (rng.next_u64() % w as u64) as u32;
            if v != 0 {
                a.push_entry(c, r, v);
            }
        }
    }
    a
}

fn scrambled_cross(n: usize, rng: &mut SplitMix64) -> SparseMatrix {
    let mut perm: Vec<usize> = (0..n * n).collect();
    for i in (1..perm.len()).rev() {
        let j = (rng.next_u64() % (i as u64 + 1)) as usize;
        perm.swap(i, j);
    }
    let mut a = SparseMatrix::new(n * n, n * n);
    for r in 0..n {
        for c in 0..n {
            let press = perm[r * n + c];
            for (dr, dc) in [(0i64, 0i64), (1, 0), (-1, 0), (0, 1), (0, -1)] {
                let (rr, cc) = (r as i64 + dr, c as i64 + dc);
                if rr >= 0 && cc >= 0 && (rr as usize) < n && (cc as usize) < n {
                    a.push_entry(press, rr as usize * n + cc as usize, 1);
                }
            }
        }
    }
    a
}

fn run(label: &str, a: &SparseMatrix, w: u32) {
    let b = vec![1; a.rows];
    let (t, c) = (Instant::now(), cpu_ns());
    let r = solve(a, &b, w);
    let dt = t.elapsed().as_secs_f64() * 1e3;
    let cpu = match (c, cpu_ns()) {
        (Some(c0), Some(c1)) => format!(" ({:.0} ms on CPU)", (c1 - c0) as f64 / 1e6),
        _ => String::new(),
    };
    match r {
        Ok(s) => println!(
            "{label} W={w}: {dt:.1} ms{cpu}, consistent {}, {} generators",
            s.consistent,
            s.kernel.generators.len()
        ),
        Err(e) => println!("{label} W={w}: error {e} after {dt:.1} ms"),
    }
}

fn random_bits(rows: usize, cols: usize, rng: &mut SplitMix64) -> BitMatrix {
    let mut a = BitMatrix::zeros(rows, cols);
    for r in 0..rows {
        for w in a.row_mut(r) {
            *w = rng.next_u64();
        }
        if !cols.is_multiple_of(64) {
            a.row_mut(r)[cols / 64] &= (1u64 << (cols % 64)) - 1;
        }
    }
    a
}

/// A right-hand side in the column space (`consistent`) or outside it: the
/// last row is made a copy of the first, with the opposite right-hand side.
fn system(n: usize, consistent: bool, rng: &mut SplitMix64) -> (BitMatrix, Vec<u64>) {
    let mut a = random_bits(n, n, rng);
    let x: Vec<u64> = random_bits(1, n, rng).data;
    let mut b = a.mul_vec(&x);
    if !consistent && n >= 2 {
        let first = a.row(0).to_vec();
        a.row_mut(n - 1).copy_from_slice(&first);
        b = a.mul_vec(&x);
        b[(n - 1) / 64] ^= 1 << ((n - 1) % 64);
    }
    (a, b)
}

/// Nanoseconds this thread has spent on a CPU (Linux), to see through the
/// time slicing of a shared machine; `None` elsewhere.
fn cpu_ns() -> Option<u64> {
    std::fs::read_to_string("/proc/thread-self/schedstat").ok()?.split_whitespace().next()?.parse().ok()
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v.get(v.len() / 2).copied().unwrap_or(f64::NAN)
}

/// Median wall and on-CPU times (ms) of `runs` calls of `solve_gf2_dense`, and the answer's shape.
fn time_dense(n: usize, consistent: bool, runs: usize, rng: &mut SplitMix64) -> (f64, f64, String) {
    let (a, b) = system(n, consistent, rng);
    let (mut wall, mut cpu) = (Vec::new(), Vec::new());
    let mut shape = String::new();
    for _ in 0..runs {
        let (t, c) = (Instant::now(), cpu_ns());
        let s = solve_gf2_dense(&a, &b, &|| false);
        wall.push(t.elapsed().as_secs_f64() * 1e3);
        if let (Some(c0), Some(c1)) = (c, cpu_ns()) {
            cpu.push((c1 - c0) as f64 / 1e6);
        }
        shape = match s {
            Ok(s) => format!("consistent {}, kernel {}", s.consistent, s.kernel.len()),
            Err(e) => format!("error {e}"),
        };
    }
    (median(wall), median(cpu), shape)
}

fn dense_table(sizes: &[usize], rng: &mut SplitMix64) {
    let runs: usize = std::env::var("RUNS").ok().and_then(|r| r.parse().ok()).unwrap_or(5);
    println!("| unknowns | right-hand side | wall (median of {runs}) | on-CPU (median) | answer |");
    println!("|---|---|---|---|---|");
    for &n in sizes {
        for consistent in [true, false] {
            let (ms, cpu, shape) = time_dense(n, consistent, runs, rng);
            let rhs = if consistent { "consistent" } else { "inconsistent" };
            // The kernel counts CPU time in scheduler ticks on some systems: too coarse below ~20 ms.
            let cpu = if ms >= 20.0 && cpu.is_finite() { format!("{cpu:.1} ms") } else { "–".into() };
            println!("| {n} | {rhs} | {ms:.1} ms | {cpu} | {shape} |");
        }
    }
}

fn main() {
    let mut rng = SplitMix64(0x1234_5678_9abc_def1);
    let args: Vec<usize> = std::env::args().skip(1).filter_map(|a| a.parse().ok()).collect();
    if let [n] = args[..] {
        dense_table(&[n], &mut rng);
        return;
    }
    if let [n, w] = args[..] {
        let a = random_dense(n, w as u32, &mut rng);
        run(&format!("dense {n}x{n}"), &a, w as u32);
        return;
    }
    dense_table(&[1000, 4000, 10_000], &mut rng);
    // The sparse API on the same matrices as before the dense kernel existed.
    let mut rng = SplitMix64(0x1234_5678_9abc_def1);
    for (n, w) in [(2304, 2), (5000, 2), (10000, 2), (784, 3), (784, 4), (1500, 65521)] {
        let a = random_dense(n, w, &mut rng);
        run(&format!("dense {n}x{n}"), &a, w);
    }
    for (n, w) in [(48, 2), (100, 2), (28, 3)] {
        let a = scrambled_cross(n, &mut rng);
        run(&format!("scrambled cross {n}x{n}"), &a, w);
    }
}
