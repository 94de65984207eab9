//! Timings on dense random systems and on a cross board with scrambled unknowns
//! (no band structure): the worst cases for the windowed eliminators.
//!
//! `cargo run --release -p lights-algebra --example dense_timings`

use lights_algebra::{solve, SparseMatrix};
use std::time::Instant;

struct Rng(u64);
impl Rng {
    /// SplitMix64 (nonlinear: a linear generator such as xorshift would make
    /// the low bits of a "random" matrix have rank about 64 over GF(2)).
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

fn random_dense(n: usize, w: u32, rng: &mut Rng) -> SparseMatrix {
    let mut a = SparseMatrix::new(n, n);
    for c in 0..n {
        for r in 0..n {
            let v = (rng.next() % w as u64) as u32;
            if v != 0 {
                a.push_entry(c, r, v);
            }
        }
    }
    a
}

fn scrambled_cross(n: usize, rng: &mut Rng) -> SparseMatrix {
    let mut perm: Vec<usize> = (0..n * n).collect();
    for i in (1..perm.len()).rev() {
        let j = (rng.next() % (i as u64 + 1)) as usize;
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
    let t = Instant::now();
    let r = solve(a, &b, w);
    let dt = t.elapsed().as_secs_f64() * 1e3;
    match r {
        Ok(s) => {
            println!("{label} W={w}: {dt:.1} ms, consistent {}, {} generators", s.consistent, s.kernel.generators.len())
        }
        Err(e) => println!("{label} W={w}: error {e} after {dt:.1} ms"),
    }
}

fn main() {
    let mut rng = Rng(0x1234_5678_9abc_def1);
    let args: Vec<usize> = std::env::args().skip(1).filter_map(|a| a.parse().ok()).collect();
    if let [n, w] = args[..] {
        let a = random_dense(n, w as u32, &mut rng);
        run(&format!("dense {n}x{n}"), &a, w as u32);
        return;
    }
    for (n, w) in [(2304, 2), (5000, 2), (10000, 2), (784, 3), (784, 4), (1500, 65521)] {
        let a = random_dense(n, w, &mut rng);
        run(&format!("dense {n}x{n}"), &a, w);
    }
    for (n, w) in [(48, 2), (100, 2), (28, 3)] {
        let a = scrambled_cross(n, &mut rng);
        run(&format!("scrambled cross {n}x{n}"), &a, w);
    }
}
