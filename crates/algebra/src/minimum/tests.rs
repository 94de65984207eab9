//! Tests of the minimum search: brute force on small kernels, an independent
//! syndrome search on large kernels over few cells, the parts against each other.

use super::binary;
use super::branch::{self, Limits, Problem};
use super::gray::gray_minimise;
use super::heuristic::{heuristic, Effort};
use super::packing::{self, Cells};
use super::transform::wht_minimise;
use super::*;
use crate::kernel::KernelGenerator;
use crate::SplitMix64;
use proptest::prelude::*;
use std::cell::Cell;

fn never() -> bool {
    false
}

/// A `W = 2` instance: `x₀` (entries may exceed 1: only their parity counts)
/// and generators (odd entries are the ones that count).
#[derive(Clone, Debug)]
pub(super) struct Instance {
    pub(super) x0: Vec<u32>,
    pub(super) gens: Vec<Vec<u32>>,
}

impl Instance {
    pub(super) fn kernel(&self) -> Kernel {
        Kernel { generators: self.gens.iter().map(|v| KernelGenerator { vector: v.clone(), order: 2 }).collect() }
    }
}

fn bitset(v: &[u32]) -> Vec<u64> {
    let mut b = vec![0u64; v.len().div_ceil(64).max(1)];
    for (i, &x) in v.iter().enumerate() {
        if x & 1 == 1 {
            b[i / 64] |= 1 << (i % 64);
        }
    }
    b
}

fn weight(b: &[u64]) -> u64 {
    b.iter().map(|w| w.count_ones() as u64).sum()
}

/// The minimum over all `2^d` members, enumerated in Gray code order.
pub(super) fn brute_min(inst: &Instance) -> u64 {
    let gens: Vec<Vec<u64>> = inst.gens.iter().map(|g| bitset(g)).collect();
    let mut x = bitset(&inst.x0);
    let mut best = weight(&x);
    for k in 1u64..(1 << gens.len()) {
        let j = k.trailing_zeros() as usize;
        for (a, b) in x.iter_mut().zip(&gens[j]) {
            *a ^= b;
        }
        best = best.min(weight(&x));
    }
    best
}

/// Whether `v` is in the span of `rows` (all bit sets of one length).
fn in_span(v: &[u64], rows: &[Vec<u64>]) -> bool {
    let mut basis: Vec<Vec<u64>> = Vec::new();
    let lead = |r: &[u64]| r.iter().position(|&w| w != 0).map(|i| i * 64 + r[i].trailing_zeros() as usize);
    let reduce = |mut r: Vec<u64>, basis: &[Vec<u64>]| {
        for b in basis {
            let p = lead(b).unwrap();
            if r[p / 64] >> (p % 64) & 1 == 1 {
                for (x, y) in r.iter_mut().zip(b) {
                    *x ^= y;
                }
            }
        }
        r
    };
    for r in rows {
        let r = reduce(r.clone(), &basis);
        if lead(&r).is_some() {
            basis.push(r);
        }
    }
    lead(&reduce(v.to_vec(), &basis)).is_none()
}

/// Checks the answer is a 0/1 member of the coset with the stated cost.
pub(super) fn check_member(inst: &Instance, m: &Minimum) {
    assert_eq!(m.x.len(), inst.x0.len());
    assert!(m.x.iter().all(|&v| v < 2));
    assert_eq!(m.cost, cost_of(&m.x));
    let diff: Vec<u64> = bitset(&m.x).iter().zip(bitset(&inst.x0)).map(|(a, b)| a ^ b).collect();
    let gens: Vec<Vec<u64>> = inst.gens.iter().map(|g| bitset(g)).collect();
    assert!(in_span(&diff, &gens), "the answer is not in the coset");
}

/// Instances with few distinct signatures (so repeated signatures, odd pairs
/// and triples abound), the odd entries 1 or 3, and now and then a zero or a
/// dependent generator.
fn structured(max_cells: usize, max_dim: usize) -> impl Strategy<Value = Instance> {
    (1..=max_cells, 1..=max_dim, 1..=24usize, any::<u64>()).prop_map(|(n, d, pool, seed)| {
        let mut rng = SplitMix64(seed);
        let sigs: Vec<u64> = (0..pool).map(|_| rng.next_u64() & ((1 << d) - 1)).collect();
        let mut gens = vec![vec![0u32; n]; d];
        let mut x0 = vec![0u32; n];
        for c in 0..n {
            // Mostly pool signatures, some fresh ones.
            let s = if rng.below(5) == 0 { rng.next_u64() } else { sigs[rng.below(pool as u64) as usize] };
            for (j, g) in gens.iter_mut().enumerate() {
                if s >> j & 1 == 1 {
                    g[c] = if rng.below(4) == 0 { 3 } else { 1 };
                } else if rng.below(8) == 0 {
                    g[c] = 2;
                }
            }
            x0[c] = rng.below(4) as u32;
        }
        if d >= 2 && rng.below(4) == 0 {
            let dep: Vec<u32> = gens[0].iter().zip(&gens[1]).map(|(a, b)| (a + b) % 2).collect();
            gens.push(dep);
        }
        if rng.below(6) == 0 {
            gens.push(vec![0; n]);
        }
        Instance { x0, gens }
    })
}

/// Several instances on disjoint cells, their generators then mixed by an
/// invertible (unit upper triangular) transform so that the blocks are hidden.
fn blocks() -> impl Strategy<Value = (Instance, u64)> {
    (prop::collection::vec(structured(30, 10), 2..=8), any::<u64>()).prop_map(|(parts, seed)| {
        let n: usize = parts.iter().map(|p| p.x0.len()).sum();
        let mut x0 = Vec::new();
        let mut gens: Vec<Vec<u32>> = Vec::new();
        let mut expected = 0;
        let mut offset = 0;
        for p in &parts {
            expected += brute_min(p);
            x0.extend_from_slice(&p.x0);
            for g in &p.gens {
                let mut v = vec![0u32; n];
                v[offset..offset + g.len()].copy_from_slice(g);
                gens.push(v);
            }
            offset += p.x0.len();
        }
        let mut rng = SplitMix64(seed);
        for j in 0..gens.len() {
            for l in j + 1..gens.len() {
                if rng.below(8) == 0 {
                    let add = gens[l].clone();
                    for (a, b) in gens[j].iter_mut().zip(add) {
                        *a = (*a + b) % 2;
                    }
                }
            }
        }
        (Instance { x0, gens }, expected)
    })
}

/// Signature form of an instance (`dim <= 64`): what the branch and bound sees.
fn signature_form(inst: &Instance) -> (Vec<u64>, Vec<u8>) {
    let n = inst.x0.len();
    let sigs =
        (0..n).map(|c| inst.gens.iter().enumerate().fold(0u64, |s, (j, g)| s | (((g[c] & 1) as u64) << j))).collect();
    (sigs, inst.x0.iter().map(|&v| (v & 1) as u8).collect())
}

fn mask_cost(sigs: &[u64], bits: &[u8], mask: u64) -> u64 {
    sigs.iter().zip(bits).map(|(&s, &b)| ((b as u32 ^ (s & mask).count_ones()) & 1) as u64).sum()
}

/// Smallest weight of `x` with `H·x = H·x₀`, by breadth-first search over the
/// syndromes (`H` given by columns, one bit per check).
fn syndrome_min(columns: &[u32], checks: usize, target: u32) -> u64 {
    let mut dist = vec![u64::MAX; 1 << checks];
    dist[0] = 0;
    let mut frontier = vec![0u32];
    while !frontier.is_empty() {
        let mut next = Vec::new();
        for &s in &frontier {
            for &col in columns {
                let t = (s ^ col) as usize;
                if dist[t] == u64::MAX {
                    dist[t] = dist[s as usize] + 1;
                    next.push(t as u32);
                }
            }
        }
        frontier = next;
    }
    dist[target as usize]
}

/// The kernel of `H` (rows as `n`-bit masks): a basis of `{x : H·x = 0}`.
fn null_space(rows: &[u64], n: usize) -> Vec<u64> {
    let mut pivots: Vec<(usize, u64)> = Vec::new();
    for &r in rows {
        let mut r = r;
        for &(p, b) in &pivots {
            if r >> p & 1 == 1 {
                r ^= b;
            }
        }
        if r == 0 {
            continue;
        }
        let p = r.trailing_zeros() as usize;
        for (_, b) in &mut pivots {
            if *b >> p & 1 == 1 {
                *b ^= r;
            }
        }
        pivots.push((p, r));
    }
    (0..n)
        .filter(|&f| pivots.iter().all(|&(p, _)| p != f))
        .map(|f| pivots.iter().fold(1u64 << f, |v, &(p, b)| if b >> f & 1 == 1 { v | 1 << p } else { v }))
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    /// The W = 2 answer is the brute-force minimum, proven, and a member of the coset.
    #[test]
    fn gf2_minimum_matches_brute_force(inst in structured(200, 14)) {
        let m = minimum_weight(&inst.x0, &inst.kernel(), 2, &never).unwrap();
        check_member(&inst, &m);
        prop_assert_eq!(m.cost, brute_min(&inst));
        prop_assert!(m.optimal);
        prop_assert_eq!(m.lower_bound, m.cost);
    }

    /// Kernels made of independent blocks (up to 80 generators, mixed) are
    /// split and each block solved exactly: the minimum is the sum.
    #[test]
    fn independent_blocks_add_up((inst, expected) in blocks()) {
        let m = minimum_weight(&inst.x0, &inst.kernel(), 2, &never).unwrap();
        check_member(&inst, &m);
        prop_assert_eq!(m.cost, expected);
        prop_assert!(m.optimal);
        prop_assert_eq!(m.lower_bound, expected);
    }

    /// The branch and bound, with any leaf size and with the packed triples,
    /// finds the brute-force minimum; started at the minimum it proves that
    /// nothing is cheaper.
    #[test]
    fn branch_and_bound_matches_brute_force(inst in structured(120, 12), leaf in 0..14usize) {
        let (sigs, bits) = signature_form(&inst);
        let dim = inst.gens.len();
        let exact = brute_min(&inst);
        let cells = Cells { sigs: &sigs, words: 1, bits: &bits };
        let mut canc = Canceller::new(&never);
        let packing = packing::odd_checks(&cells, &mut canc).unwrap();
        for (in_triple, triples) in [(vec![false; sigs.len()], 0), (packing.in_triple.clone(), packing.triples)] {
            let p = Problem { sigs: &sigs, bits: &bits, in_triple: &in_triple, triples, dim };
            let limits = Limits { budget: None, leaf_dim: Some(leaf) };
            let out = branch::search(&p, u64::MAX, limits, &mut canc).unwrap();
            prop_assert!(out.complete);
            let (cost, mask) = out.best.unwrap();
            prop_assert_eq!(cost, exact);
            prop_assert_eq!(mask_cost(&sigs, &bits, mask), exact);
            let out = branch::search(&p, exact, limits, &mut canc).unwrap();
            prop_assert!(out.complete && out.best.is_none());
        }
    }

    /// The branch and bound and the transform agree (cost of the best member).
    #[test]
    fn branch_and_bound_agrees_with_transform(inst in structured(150, 14)) {
        let (sigs, bits) = signature_form(&inst);
        let gens: Vec<Gen> = inst.gens.iter().map(|g| Gen {
            support: g.iter().enumerate().filter(|(_, &v)| v & 1 == 1).map(|(i, _)| (i as u32, 1)).collect(),
            order: 2,
        }).collect();
        let refs: Vec<&Gen> = gens.iter().collect();
        let mut canc = Canceller::new(&never);
        let (wht, _) = wht_minimise(&inst.x0, &refs, &mut canc).unwrap();
        let no = vec![false; sigs.len()];
        let p = Problem { sigs: &sigs, bits: &bits, in_triple: &no, triples: 0, dim: inst.gens.len() };
        let out = branch::search(&p, u64::MAX, Limits::default(), &mut canc).unwrap();
        prop_assert_eq!(out.best.unwrap().0, wht);
    }

    /// Disjoint odd checks never exceed the minimum.
    #[test]
    fn odd_checks_bound_the_minimum(inst in structured(200, 14)) {
        let (sigs, bits) = signature_form(&inst);
        let cells = Cells { sigs: &sigs, words: 1, bits: &bits };
        let packing = packing::odd_checks(&cells, &mut Canceller::new(&never)).unwrap();
        prop_assert!(packing.bound <= brute_min(&inst));
        prop_assert_eq!(packing.in_triple.iter().filter(|&&b| b).count() as u64, 3 * packing.triples);
        prop_assert!(packing.triples <= packing.bound);
    }

    /// Kernels of dimension up to 45 on at most 48 cells (beyond brute force
    /// over the kernel; the minimum comes from the syndromes instead): the
    /// answer is a member with its stated cost, never below the minimum, and
    /// equal to it whenever it is claimed optimal, even with a small budget.
    #[test]
    fn large_kernels_are_honest(n in 20..=48usize, checks in 3..=10usize, seed in any::<u64>()) {
        let mut rng = SplitMix64(seed);
        let rows: Vec<u64> = (0..checks).map(|_| rng.next_u64() & ((1u64 << n) - 1)).collect();
        let basis = null_space(&rows, n);
        let x0: Vec<u32> = (0..n).map(|_| (rng.next_u64() & 1) as u32).collect();
        let inst = Instance {
            x0: x0.clone(),
            gens: basis.iter().map(|&b| (0..n).map(|c| (b >> c & 1) as u32).collect()).collect(),
        };
        let columns: Vec<u32> = (0..n).map(|c| rows.iter().enumerate().fold(0, |s, (i, r)| s | ((r >> c & 1) as u32) << i)).collect();
        let target = (0..n).filter(|&c| x0[c] == 1).fold(0, |s, c| s ^ columns[c]);
        let exact = syndrome_min(&columns, checks, target);
        let gens: Vec<Gen> = inst.gens.iter().map(|g| Gen {
            support: g.iter().enumerate().filter(|(_, &v)| v == 1).map(|(i, _)| (i as u32, 1)).collect(),
            order: 2,
        }).filter(|g| !g.support.is_empty()).collect();
        let refs: Vec<&Gen> = gens.iter().collect();
        for budget in [1u64 << 12, 1 << 22] {
            let mut units = Budget::new(budget);
            let (x, cost, lower) = binary::minimise(&x0, &refs, &mut units, &mut Canceller::new(&never)).unwrap();
            let m = finish(Found { x, cost, lower }).unwrap();
            prop_assert!(m.lower_bound <= exact);
            check_member(&inst, &m);
            prop_assert!(m.cost >= exact);
            if m.optimal {
                prop_assert_eq!(m.cost, exact);
            }
        }
    }
}

/// A budget too small to finish is reported, never passed off as complete.
#[test]
fn spent_budget_is_reported() {
    let mut rng = SplitMix64(5);
    let (n, dim) = (300, 12);
    let sigs: Vec<u64> = (0..n).map(|_| rng.next_u64() & ((1 << dim) - 1)).collect();
    let bits: Vec<u8> = (0..n).map(|_| (rng.next_u64() & 1) as u8).collect();
    let no = vec![false; n];
    let p = Problem { sigs: &sigs, bits: &bits, in_triple: &no, triples: 0, dim };
    let mut canc = Canceller::new(&never);
    let cut = branch::search(&p, u64::MAX, Limits { budget: Some(100), leaf_dim: Some(4) }, &mut canc).unwrap();
    assert!(!cut.complete);
    let full = branch::search(&p, u64::MAX, Limits { budget: None, leaf_dim: Some(4) }, &mut canc).unwrap();
    assert!(full.complete);

    // Through the pipeline: a random kernel of dimension 34 on 120 cells is not
    // certified by odd checks, and a budget of one unit cannot finish its search.
    let inst = Instance {
        x0: (0..120).map(|_| (rng.next_u64() & 1) as u32).collect(),
        gens: (0..34).map(|_| (0..120).map(|_| (rng.below(3) == 0) as u32).collect()).collect(),
    };
    let gens: Vec<Gen> = inst
        .gens
        .iter()
        .map(|g| Gen {
            support: g.iter().enumerate().filter(|(_, &v)| v == 1).map(|(i, _)| (i as u32, 1)).collect(),
            order: 2,
        })
        .collect();
    let refs: Vec<&Gen> = gens.iter().collect();
    let (x, cost, lower) = binary::minimise(&inst.x0, &refs, &mut Budget::new(1), &mut canc).unwrap();
    assert!(lower < cost);
    check_member(&inst, &finish(Found { x, cost, lower }).unwrap());
}

/// The 48×48 torus and Klein bottle with every light on (kernels of dimension
/// 64 and 48) are proven at 768 presses by 768 disjoint odd triples.
#[test]
fn glued_48_boards_are_certified() {
    for twisted_rows in [false, true] {
        let n = 48usize;
        let mut a = crate::SparseMatrix::new(n * n, n * n);
        for r in 0..n {
            for c in 0..n {
                for (dr, dc) in [(0i64, 0i64), (1, 0), (-1, 0), (0, 1), (0, -1)] {
                    let (mut rr, mut cc) = (r as i64 + dr, (c as i64 + dc).rem_euclid(n as i64));
                    if !(0..n as i64).contains(&rr) {
                        rr = rr.rem_euclid(n as i64);
                        if twisted_rows {
                            cc = n as i64 - 1 - cc;
                        }
                    }
                    a.push_entry(r * n + c, rr as usize * n + cc as usize, 1);
                }
            }
        }
        let s = crate::solve(&a, &vec![1; n * n], 2).unwrap();
        assert_eq!(s.kernel.len(), if twisted_rows { 48 } else { 64 });
        let m = minimum_weight(s.particular.as_ref().unwrap(), &s.kernel, 2, &never).unwrap();
        assert_eq!((m.cost, m.optimal), (768, true));
        assert!(a.mul_vec(&m.x, 2).iter().all(|&v| v == 1));
    }
}

/// A search is cancelled when asked to, even in the middle.
#[test]
fn cancellation_reaches_the_search() {
    let mut rng = SplitMix64(9);
    let inst = Instance {
        x0: (0..800).map(|_| (rng.next_u64() & 1) as u32).collect(),
        gens: (0..26).map(|_| (0..800).map(|_| (rng.below(4) == 0) as u32).collect()).collect(),
    };
    let polls = Cell::new(0);
    let cancel = || {
        polls.set(polls.get() + 1);
        polls.get() > 20
    };
    assert_eq!(minimum_weight(&inst.x0, &inst.kernel(), 2, &cancel), Err(AlgebraError::Cancelled));
}

#[test]
fn trivial_kernel_is_optimal() {
    let m = minimum_weight(&[1, 2, 3], &Kernel::default(), 5, &never).unwrap();
    assert_eq!(m, Minimum { x: vec![1, 2, 3], cost: 6, optimal: true, lower_bound: 6 });
}

#[test]
fn small_gray_example() {
    // W = 4, one generator (1, 1) of order 4 from (3, 3): best is (0, 0).
    let k = Kernel { generators: vec![KernelGenerator { vector: vec![1, 1], order: 4 }] };
    let m = minimum_weight(&[3, 3], &k, 4, &never).unwrap();
    assert_eq!(m.cost, 0);
    assert!(m.optimal);
}

#[test]
fn wht_agrees_with_gray_on_gf2() {
    let mut rng = SplitMix64(7);
    for _ in 0..30 {
        let n = 1 + rng.below(40) as usize;
        let d = 1 + rng.below(8) as usize;
        let base: Vec<u32> = (0..n).map(|_| (rng.next_u64() & 1) as u32).collect();
        let gens: Vec<Gen> = (0..d)
            .map(|_| Gen {
                support: (0..n as u32).filter(|_| rng.next_u64().is_multiple_of(3)).map(|i| (i, 1)).collect(),
                order: 2,
            })
            .filter(|g| !g.support.is_empty())
            .collect();
        let refs: Vec<&Gen> = gens.iter().collect();
        let mut c = Canceller::new(&never);
        let (wc, _) = wht_minimise(&base, &refs, &mut c).unwrap();
        let radices = vec![2; refs.len()];
        let (gc, _) = gray_minimise(&base, &refs, &radices, 2, &mut c).unwrap();
        assert_eq!(wc, gc);
    }
}

#[test]
fn heuristic_finds_a_decent_answer() {
    // 40 disjoint generators over W = 3 (3^40 members): the descent should
    // find the optimum (each coordinate block is independent), and the
    // pipeline proves it by splitting the kernel into its 40 blocks.
    let n = 80;
    let base: Vec<u32> = (0..n).map(|i| (i % 3) as u32).collect();
    let generators: Vec<KernelGenerator> = (0..40)
        .map(|j| {
            let mut v = vec![0u32; n];
            v[2 * j] = 1;
            v[2 * j + 1] = 2;
            KernelGenerator { vector: v, order: 3 }
        })
        .collect();
    // Exact optimum: per pair (a, b) minimise (a + c) % 3 + (b + 2c) % 3.
    let exact: u64 = (0..40)
        .map(|j| {
            let (a, b) = (base[2 * j], base[2 * j + 1]);
            (0..3).map(|c| ((a + c) % 3 + (b + 2 * c) % 3) as u64).min().unwrap()
        })
        .sum();
    let gens: Vec<Gen> = generators
        .iter()
        .map(|g| Gen {
            support: g.vector.iter().enumerate().filter(|(_, &v)| v != 0).map(|(i, &v)| (i as u32, v)).collect(),
            order: 3,
        })
        .collect();
    let refs: Vec<&Gen> = gens.iter().collect();
    let (x, h) =
        heuristic(&base, &refs, 3, 0, Effort::Full, &mut u64::MAX.clone(), &mut Canceller::new(&never)).unwrap();
    assert_eq!((cost_of(&x), h), (exact, exact));
    let k = Kernel { generators };
    let m = minimum_weight(&base, &k, 3, &never).unwrap();
    assert_eq!((m.cost, m.optimal, m.lower_bound), (exact, true, exact));
}

/// The heuristic never beats the exact answer, and usually matches it.
#[test]
fn heuristic_versus_exact_on_gf2() {
    let mut rng = SplitMix64(11);
    let mut matches = 0;
    let rounds = 12;
    for _ in 0..rounds {
        let n = 120;
        let base: Vec<u32> = (0..n).map(|_| (rng.next_u64() & 1) as u32).collect();
        let gens: Vec<Gen> = (0..20)
            .map(|_| Gen {
                support: (0..n as u32).filter(|_| rng.next_u64().is_multiple_of(4)).map(|i| (i, 1)).collect(),
                order: 2,
            })
            .filter(|g| !g.support.is_empty())
            .collect();
        let refs: Vec<&Gen> = gens.iter().collect();
        let mut c = Canceller::new(&never);
        let (exact, _) = wht_minimise(&base, &refs, &mut c).unwrap();
        let (x, h) = heuristic(&base, &refs, 2, 0, Effort::Full, &mut u64::MAX.clone(), &mut c).unwrap();
        assert_eq!(cost_of(&x), h);
        assert!(h >= exact);
        if h == exact {
            matches += 1;
        }
    }
    assert!(matches * 2 >= rounds, "heuristic matched only {matches}/{rounds}");
}

#[test]
fn cancellation_is_honoured() {
    let k = Kernel { generators: vec![KernelGenerator { vector: vec![1], order: 2 }] };
    let r = minimum_weight(&[1], &k, 2, &|| true);
    assert_eq!(r, Err(AlgebraError::Cancelled));
}

#[test]
fn bad_inputs_are_errors() {
    let k = Kernel { generators: vec![KernelGenerator { vector: vec![1, 0], order: 2 }] };
    assert!(matches!(minimum_weight(&[1], &k, 2, &never), Err(AlgebraError::DimensionMismatch { .. })));
    assert_eq!(minimum_weight(&[1], &Kernel::default(), 1, &never), Err(AlgebraError::BadModulus(1)));
    assert_eq!(minimum_weight(&[1], &Kernel::default(), 65537, &never), Err(AlgebraError::BadModulus(65537)));
}

#[test]
fn gray_code_blocks_on_large_boards_are_charged_their_cache_misses() {
    use super::heuristic::block_work;
    // 256 steps of supports averaging 40 entries: 10,240 units on a board
    // that fits a cache, three times that beyond 65,536 cells (a 2 s budget
    // took 5 s in these steps on a 700×700 board before).
    assert_eq!(block_work(2_304, 3, 2, 256, 80), 10_240);
    assert_eq!(block_work(1 << 16, 3, 2, 256, 80), 10_240);
    assert_eq!(block_work(490_000, 3, 2, 256, 80), 30_720);
    // W = 2 is the transform's cost, not the Gray code's.
    assert_eq!(block_work(490_000, 2, 4, 16, 80), (490_000 * 4 + 64) / 12);
}
