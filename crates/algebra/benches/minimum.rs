//! `minimum_weight` over GF(2): cross-rule N×N boards with every light on
//! (plane 19×19, kernel dimension 16; torus and Klein bottle 48×48, 64 and 48,
//! proven by disjoint odd checks; projective plane 48×48, 30, proven by the
//! exhaustive search) and random kernels of dimension 22 and 40. The system is
//! solved once outside the measurement; each iteration is one whole
//! `minimum_weight` call (reduction, blocks, bounds, search, self-check).
//!
//! Run: `cargo bench -p lights-algebra --bench minimum`. For a quick table
//! instead: `cargo run --release -p lights-algebra --example minimum_timings`.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use lights_algebra::{minimum_weight, solve, Kernel, KernelGenerator, SparseMatrix, SplitMix64};
use std::time::Duration;

/// The N×N cross-rule board, every light on; `glue = (columns, rows)`, each
/// 0 open, 1 glued, 2 glued with a twist (the compiler's topologies; a cell
/// reached twice through a corner is changed once, as there).
fn board(n: usize, glue: (u8, u8)) -> (Vec<u32>, Kernel) {
    let n_i = n as i64;
    let cross = |mut r: i64, mut c: i64| -> Option<usize> {
        if !(0..n_i).contains(&c) {
            let twist = glue.0 == 2 && c.div_euclid(n_i) % 2 != 0;
            if glue.0 == 0 {
                return None;
            }
            c = c.rem_euclid(n_i);
            if twist {
                r = n_i - 1 - r;
            }
        }
        if !(0..n_i).contains(&r) {
            let twist = glue.1 == 2 && r.div_euclid(n_i) % 2 != 0;
            if glue.1 == 0 {
                return None;
            }
            r = r.rem_euclid(n_i);
            if twist {
                c = n_i - 1 - c;
            }
        }
        Some((r * n_i + c) as usize)
    };
    let mut a = SparseMatrix::new(n * n, n * n);
    for r in 0..n_i {
        for c in 0..n_i {
            let mut hit = Vec::new();
            for (dr, dc) in [(0, 0), (1, 0), (-1, 0), (0, 1), (0, -1)] {
                if let Some(cell) = cross(r + dr, c + dc) {
                    if !hit.contains(&cell) {
                        hit.push(cell);
                        a.push_entry((r * n_i + c) as usize, cell, 1);
                    }
                }
            }
        }
    }
    let s = solve(&a, &vec![1; n * n], 2).expect("solve");
    (s.particular.expect("all lights is solvable on these boards"), s.kernel)
}

/// A random coset of a random kernel (each generator touches a cell with
/// probability 1/4), SplitMix64.
fn random(n: usize, d: usize, seed: u64) -> (Vec<u32>, Kernel) {
    let mut rng = SplitMix64(seed);
    let mut next = || rng.next_u64();
    let x0 = (0..n).map(|_| (next() & 1) as u32).collect();
    let generators = (0..d)
        .map(|_| KernelGenerator { vector: (0..n).map(|_| (next() % 4 == 0) as u32).collect(), order: 2 })
        .collect();
    (x0, Kernel { generators })
}

fn bench(c: &mut Criterion) {
    let mut quick = c.benchmark_group("minimum_weight");
    quick.sample_size(20).measurement_time(Duration::from_secs(5));
    let cases = [
        ("plane 19x19 (d=16)", board(19, (0, 0))),
        ("torus 48x48 (d=64, certified)", board(48, (1, 1))),
        ("klein 48x48 (d=48, certified)", board(48, (1, 2))),
        ("random n=1500 d=22", random(1500, 22, 5)),
        ("random n=3000 d=40 (budgeted)", random(3000, 40, 3)),
    ];
    for (name, (x0, kernel)) in &cases {
        quick.bench_with_input(BenchmarkId::from_parameter(name), &(x0, kernel), |b, (x0, kernel)| {
            b.iter(|| minimum_weight(x0, kernel, 2, &|| false).expect("minimum"));
        });
    }
    quick.finish();

    // About two seconds per call: the fewest samples criterion allows.
    let mut slow = c.benchmark_group("minimum_weight_exhaustive");
    slow.sample_size(10).measurement_time(Duration::from_secs(30));
    let (x0, kernel) = board(48, (2, 2));
    slow.bench_function("projective 48x48 (d=30)", |b| {
        b.iter(|| minimum_weight(&x0, &kernel, 2, &|| false).expect("minimum"));
    });
    slow.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
