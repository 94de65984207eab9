//! Dense GF(2) elimination: `solve_gf2_dense` on random square systems of
//! 4,000 and 10,000 unknowns, with a consistent and an inconsistent right-hand
//! side (the latter also builds the certificate). Every call does the whole
//! job: echelon form, particular solution or certificate, kernel basis, and the
//! self-checks.
//!
//! Run: `cargo bench -p lights-algebra --bench gf2_dense`. For a quick table
//! instead: `cargo run --release -p lights-algebra --example dense_timings`.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use lights_algebra::{solve_gf2_dense, BitMatrix, SplitMix64};
use std::time::Duration;

/// A random `n × n` system; when `consistent` is false the last row repeats
/// the first with the opposite right-hand side.
fn system(n: usize, consistent: bool, seed: u64) -> (BitMatrix, Vec<u64>) {
    let mut rng = SplitMix64(seed);
    let mut a = BitMatrix::zeros(n, n);
    for w in &mut a.data {
        *w = rng.next_u64();
    }
    if !n.is_multiple_of(64) {
        for r in 0..n {
            a.row_mut(r)[n / 64] &= (1u64 << (n % 64)) - 1;
        }
    }
    if !consistent {
        let first = a.row(0).to_vec();
        a.row_mut(n - 1).copy_from_slice(&first);
    }
    let x: Vec<u64> = (0..n.div_ceil(64)).map(|_| rng.next_u64()).collect();
    let mut b = a.mul_vec(&x);
    if !consistent {
        b[(n - 1) / 64] ^= 1 << ((n - 1) % 64);
    }
    (a, b)
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("solve_gf2_dense");
    group.sample_size(10).measurement_time(Duration::from_secs(10));
    for n in [4000, 10_000] {
        for consistent in [true, false] {
            let (a, b) = system(n, consistent, 7 + n as u64);
            let label = if consistent { "consistent" } else { "inconsistent" };
            group.bench_with_input(BenchmarkId::new(label, n), &(a, b), |bench, (a, b)| {
                bench.iter(|| {
                    let s = solve_gf2_dense(a, b, &|| false).expect("solve");
                    assert_eq!(s.consistent, consistent);
                    s
                });
            });
        }
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
