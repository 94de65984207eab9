//! Property tests against brute force on small random systems: every vector of
//! `(Z/W)^cols` is tried, which gives the exact solution set and kernel.

use lights_algebra::{minimum_weight, solve, Solution, SparseMatrix};
use num_bigint::BigUint;
use proptest::prelude::*;
use std::collections::HashSet;

const MODULI: [u32; 8] = [2, 3, 4, 5, 6, 8, 9, 12];

/// Most columns (at most 5) with `w^cols <= 20_000`, so brute force stays cheap.
fn max_cols(w: u32) -> usize {
    let mut c = 0;
    while c < 5 && (w as u64).pow(c as u32 + 1) <= 20_000 {
        c += 1;
    }
    c
}

#[derive(Clone, Debug)]
struct Case {
    w: u32,
    rows: usize,
    cols: usize,
    /// Dense row-major entries.
    a: Vec<u32>,
    b: Vec<u32>,
}

impl Case {
    fn matrix(&self) -> SparseMatrix {
        let mut m = SparseMatrix::new(self.rows, self.cols);
        for r in 0..self.rows {
            for c in 0..self.cols {
                let v = self.a[r * self.cols + c];
                if v != 0 {
                    m.push_entry(c, r, v);
                }
            }
        }
        m
    }

    /// `A·x mod w`, computed densely (independently of `SparseMatrix`).
    fn apply(&self, x: &[u32]) -> Vec<u32> {
        (0..self.rows).map(|r| (0..self.cols).map(|c| self.a[r * self.cols + c] * x[c]).sum::<u32>() % self.w).collect()
    }

    /// All vectors of `(Z/w)^cols`.
    fn all_vectors(&self) -> Vec<Vec<u32>> {
        let total = (self.w as usize).pow(self.cols as u32);
        (0..total)
            .map(|mut k| {
                (0..self.cols)
                    .map(|_| {
                        let d = (k % self.w as usize) as u32;
                        k /= self.w as usize;
                        d
                    })
                    .collect()
            })
            .collect()
    }
}

fn case_strategy() -> impl Strategy<Value = Case> {
    (0..MODULI.len(), 1..=5usize, 1..=5usize)
        .prop_flat_map(|(wi, rows, cols)| {
            let w = MODULI[wi];
            let cols = cols.min(max_cols(w));
            // Plenty of zeros and of zero divisors make kernels interesting.
            let entry = prop_oneof![2 => Just(0u32), 3 => 0..w];
            (
                Just(w),
                Just(rows),
                Just(cols),
                prop::collection::vec(entry, rows * cols),
                prop::collection::vec(0..w, rows),
                prop::collection::vec(0..w, cols),
                any::<bool>(),
            )
        })
        .prop_map(|(w, rows, cols, a, b, x0, consistent)| {
            let mut case = Case { w, rows, cols, a, b };
            if consistent {
                case.b = case.apply(&x0);
            }
            case
        })
}

fn order_of(v: &[u32], w: u32) -> u32 {
    (1..=w).find(|&k| v.iter().all(|&x| (x * k) % w == 0)).unwrap_or(0)
}

/// Every `Σ c_i g_i` with `0 <= c_i < order_i`.
fn kernel_elements(s: &Solution, cols: usize, w: u32) -> Vec<Vec<u32>> {
    let mut out = vec![vec![0u32; cols]];
    for g in &s.kernel.generators {
        let mut next = Vec::with_capacity(out.len() * g.order as usize);
        for v in &out {
            for c in 0..g.order {
                next.push(v.iter().zip(&g.vector).map(|(&a, &b)| (a + c * b) % w).collect());
            }
        }
        out = next;
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1000, ..ProptestConfig::default() })]

    #[test]
    fn matches_brute_force(case in case_strategy()) {
        let w = case.w;
        let a = case.matrix();
        let s = solve(&a, &case.b, w).expect("solve");
        let all = case.all_vectors();
        let zero = vec![0u32; case.rows];
        let kernel: HashSet<Vec<u32>> = all.iter().filter(|x| case.apply(x) == zero).cloned().collect();
        let solutions: Vec<&Vec<u32>> = all.iter().filter(|x| case.apply(x) == case.b).collect();

        // Consistency and exact count.
        prop_assert_eq!(s.consistent, !solutions.is_empty());
        prop_assert_eq!(s.count(), BigUint::from(solutions.len()));
        prop_assert_eq!(s.kernel.size(), BigUint::from(kernel.len()));
        prop_assert_eq!(s.modulus, w);

        // Particular solution or certificate.
        if s.consistent {
            let x = s.particular.clone().expect("particular");
            prop_assert_eq!(case.apply(&x), case.b.clone());
            prop_assert!(s.certificate.is_none());
        } else {
            prop_assert!(s.particular.is_none());
            let y = s.certificate.clone().expect("certificate");
            prop_assert_eq!(y.len(), case.rows);
            for c in 0..case.cols {
                let t: u32 = (0..case.rows).map(|r| y[r] * case.a[r * case.cols + c]).sum::<u32>() % w;
                prop_assert_eq!(t, 0);
            }
            let yb: u32 = y.iter().zip(&case.b).map(|(&p, &q)| p * q).sum::<u32>() % w;
            prop_assert_ne!(yb, 0);
        }

        // Kernel: true orders, a direct sum that spans exactly the brute-force kernel.
        for g in &s.kernel.generators {
            prop_assert!(g.order > 1);
            prop_assert_eq!(order_of(&g.vector, w), g.order);
            prop_assert!(g.vector.iter().all(|&v| v < w));
        }
        let elems = kernel_elements(&s, case.cols, w);
        let distinct: HashSet<Vec<u32>> = elems.iter().cloned().collect();
        prop_assert_eq!(distinct.len(), elems.len(), "representation is not unique");
        prop_assert_eq!(&distinct, &kernel);

        // Minimum weight.
        if let Some(x0) = &s.particular {
            let m = minimum_weight(x0, &s.kernel, w, &|| false).expect("minimum");
            let best = solutions.iter().map(|x| x.iter().map(|&v| v as u64).sum::<u64>()).min();
            prop_assert_eq!(Some(m.cost), best);
            prop_assert!(m.optimal);
            prop_assert_eq!(case.apply(&m.x), case.b.clone());
            prop_assert_eq!(m.x.iter().map(|&v| v as u64).sum::<u64>(), m.cost);
        }
    }
}

/// Larger random systems over arbitrary moduli (up to 65536): no brute force,
/// but the results must be coherent (self-checks pass, counts multiply over
/// the CRT factors, minimum is a valid solution no worse than the particular one).
fn wide_case() -> impl Strategy<Value = Case> {
    (
        prop_oneof![2..=65536u32, Just(65536u32), Just(65535u32), Just(4u32), Just(72u32), Just(1024u32)],
        1..=12usize,
        1..=12usize,
    )
        .prop_flat_map(|(w, rows, cols)| {
            let entry = prop_oneof![3 => Just(0u32), 1 => Just(w / 2), 1 => 0..w, 1 => Just(2 % w)];
            (
                Just(w),
                Just(rows),
                Just(cols),
                prop::collection::vec(entry, rows * cols),
                prop::collection::vec(0..w, rows),
                prop::collection::vec(0..w, cols),
                any::<bool>(),
            )
        })
        .prop_map(|(w, rows, cols, a, b, x0, consistent)| {
            let mut case = Case { w, rows, cols, a, b };
            if consistent {
                let m = case.matrix();
                case.b = m.mul_vec(&x0, w);
            }
            case
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn wide_moduli_are_coherent(case in wide_case()) {
        let w = case.w;
        let a = case.matrix();
        let s = solve(&a, &case.b, w).expect("solve");
        let mut product = BigUint::from(1u32);
        for (p, e) in lights_algebra::factorize(w) {
            let q = p.pow(e);
            let bq: Vec<u32> = case.b.iter().map(|&v| v % q).collect();
            let mut aq = SparseMatrix::new(case.rows, case.cols);
            for (c, col) in a.columns.iter().enumerate() {
                for &(r, v) in col {
                    aq.push_entry(c, r as usize, v % q);
                }
            }
            let sq = solve(&aq, &bq, q).expect("solve mod q");
            product *= sq.count();
        }
        prop_assert_eq!(s.count(), product);
        if let Some(x0) = &s.particular {
            let m = minimum_weight(x0, &s.kernel, w, &|| false).expect("minimum");
            prop_assert_eq!(a.mul_vec(&m.x, w), case.b.clone());
            prop_assert!(m.cost <= x0.iter().map(|&v| v as u64).sum::<u64>());
        }
    }
}
