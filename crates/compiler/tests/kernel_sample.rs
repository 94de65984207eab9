//! The minimum of mid-sized W = 2 boards against an exact reference that
//! shares nothing with the solver's search: a Walsh–Hadamard transform over
//! every member of the coset. A member `x₀ + Σ c_t q_t` (quiet patterns
//! `q_t`) has weight `(n − Σ_j (−1)^{x₀_j ⊕ ⟨g_j, c⟩}) / 2`, where `g_j` is
//! cell j's signature (its bit in each pattern); the sum is the transform of
//! `A[g] = Σ_{j: g_j = g} (−1)^{x₀_j}` at `c`, so one transform of 2^k
//! entries gives the weight of all 2^k members at once.
//!
//! Random boards (sizes, surfaces and rules drawn from a seed, lights made by
//! random presses so that they are solvable) whose kernel dimension is 16–24
//! are solved with the default budget. Every one must be proven, and its
//! minimum must equal the reference (issue 28's rule for kernels up to 24;
//! between 25 and 64 it is measured by the `minimum_sample` example, not
//! met). The bound may never exceed the reference, nor the cost fall below it.

use lights_algebra::SplitMix64;
use lights_compiler::model::{Puzzle, Rule, Topology};
use lights_compiler::report::{SolveOptions, DEFAULT_MINIMUM_WORK};
use lights_compiler::solve::solve_with;

#[path = "support/boards.rs"]
mod boards;
#[path = "support/walsh.rs"]
mod walsh;

use boards::press_randomly;
use walsh::reference_minimum;

#[test]
fn boards_with_kernels_up_to_24_are_proven_and_agree_with_the_transform() {
    let mut rng = SplitMix64(24);
    let (mut sampled, mut tries) = (0, 0);
    let rules = ["cross", "cross", "merlin", "king"];
    let topologies = [Topology::Plane, Topology::Torus, Topology::Torus, Topology::Klein, Topology::Cylinder];
    while sampled < 12 {
        tries += 1;
        assert!(tries < 5_000, "only {sampled} boards with a kernel of 16–24 in {tries} tries");
        let rule = rules[rng.below(rules.len() as u64) as usize];
        let topology = topologies[rng.below(topologies.len() as u64) as usize];
        let (rows, cols) = (4 + rng.below(30) as usize, 10 + rng.below(60) as usize);
        let mut p = Puzzle::new(rows, cols, 2, Rule::from_name(rule).expect("a rule"), topology);
        press_randomly(&mut p, &mut rng);
        let quick = solve_with(&p, SolveOptions { search_minimum: false, ..SolveOptions::default() }, &|| false)
            .expect("solves");
        let k = quick.quiet_patterns.len();
        if !(16..=24).contains(&k) || quick.quiet_patterns_omitted {
            continue;
        }
        sampled += 1;
        let x0 = quick.minimum.expect("solvable").presses.to_vec();
        let patterns: Vec<Vec<u32>> = quick.quiet_patterns.iter().map(|q| q.presses.to_vec()).collect();
        let exact = reference_minimum(&x0, &patterns);
        let full = SolveOptions { search_minimum: true, minimum_work: DEFAULT_MINIMUM_WORK };
        let m = solve_with(&p, full, &|| false).expect("solves").minimum.expect("solvable");
        let what = format!("{rows}×{cols} {rule} {} (kernel {k})", topology.name());
        assert!(m.lower_bound <= exact && exact <= m.cost, "{what}: bound {} ≤ {exact} ≤ {}", m.lower_bound, m.cost);
        assert!(m.optimal && m.cost == exact, "{what}: {} presses (optimal: {}), exactly {exact}", m.cost, m.optimal);
    }
}

#[test]
fn the_reference_is_exhaustive_search_on_small_kernels() {
    // Against plain enumeration of all 2^k members, on random cosets.
    let mut rng = SplitMix64(7);
    for _ in 0..50 {
        let (n, k) = (1 + rng.below(40) as usize, rng.below(9) as usize);
        let x0: Vec<u32> = (0..n).map(|_| rng.below(2) as u32).collect();
        let patterns: Vec<Vec<u32>> = (0..k).map(|_| (0..n).map(|_| rng.below(2) as u32).collect()).collect();
        let brute = (0..1usize << k)
            .map(|c| {
                (0..n)
                    .filter(|&j| {
                        let flips = (0..k).filter(|&t| c >> t & 1 == 1 && patterns[t][j] == 1).count();
                        (x0[j] as usize + flips) % 2 == 1
                    })
                    .count() as u64
            })
            .min()
            .unwrap();
        assert_eq!(reference_minimum(&x0, &patterns), brute);
    }
}
