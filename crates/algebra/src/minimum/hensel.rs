//! `W = 4`: the cheapest member over a member modulo 2 (a Hensel lift).
//!
//! Every member `x` of a coset over `Z/4` is `y + 2z` with `y = x mod 2` a
//! member of the coset reduced modulo 2 and `z ∈ {0, 1}^n`, and costs
//! `|y| + 2|z|`. For a fixed `y`, the `z` that work are one coset of `W = 2`:
//! with `x₁` one member over `y` (`x₁ = base + Σ c_t g_t` for coefficients
//! `c` that give `y` modulo 2), the members over `y` are `x₁` plus the kernel
//! elements that vanish modulo 2, and halved those are spanned modulo 2 by
//! every generator (`2·g_t`, halved) and by each dependency `Σ_{t∈D} g_t ≡ 0
//! (mod 2)` among the generators (halved). So the cheapest member over `y`
//! is `y + 2z` for the lightest `z` of that coset: a problem of `W = 2`,
//! given to its whole pipeline.
//!
//! The 48×48 projective plane with every light on: `y` of 768 presses and
//! `z` of 768 give 2304 presses, where the search over `Z/4` finds 2976.

use super::binary::{lowest_bit, set_bits, xor_into};
use super::{minimise, Budget, Gen};
use crate::cancel::Canceller;
use crate::AlgebraError;

/// The cheapest member of `base + ⟨gens⟩` (over `Z/4`) congruent to `y`
/// modulo 2 that the pipeline of `W = 2` finds within `budget`, and its cost.
pub(super) fn hensel_partner(
    base: &[u32],
    gens: &[Gen],
    y: &[u32],
    budget: &mut Budget,
    canc: &mut Canceller<'_>,
) -> Result<(Vec<u32>, u64), AlgebraError> {
    let n = base.len();
    let d = gens.len();
    let words = n.div_ceil(64);
    let cwords = d.div_ceil(64).max(1);
    // Gaussian elimination of the generators modulo 2, each row remembering
    // which generators it sums (`combo`): a row that vanishes is a dependency.
    let mut rows: Vec<(Vec<u64>, Vec<u64>, usize)> = Vec::new(); // (bits, combo, pivot)
    let mut halves: Vec<Vec<u32>> = Vec::new();
    for (t, g) in gens.iter().enumerate() {
        let mut bits = vec![0u64; words];
        for &(i, v) in &g.support {
            if v % 2 == 1 {
                bits[i as usize / 64] |= 1 << (i % 64);
            }
        }
        let mut combo = vec![0u64; cwords];
        combo[t / 64] |= 1 << (t % 64);
        // 2·g_t vanishes modulo 2; halved it is g_t modulo 2.
        if bits.iter().any(|&w| w != 0) {
            halves.push(set_bits(&bits).map(|i| i as u32).collect());
        }
        for (rb, rc, p) in &rows {
            if bits[p / 64] >> (p % 64) & 1 == 1 {
                xor_into(&mut bits, rb);
                xor_into(&mut combo, rc);
            }
        }
        match lowest_bit(&bits) {
            Some(p) => rows.push((bits, combo, p)),
            None => {
                // Σ_{t ∈ combo} g_t is even everywhere: halved, a generator.
                let sum = combination(n, gens, &combo);
                let half: Vec<u32> = (0..n as u32).filter(|&i| sum[i as usize] % 4 == 2).collect();
                if !half.is_empty() {
                    halves.push(half);
                }
            }
        }
        canc.tick(g.support.len() + rows.len() * words / 8)?;
    }
    // Coefficients giving `y` modulo 2.
    let mut target = vec![0u64; words];
    for i in 0..n {
        if (y[i] ^ base[i]) & 1 == 1 {
            target[i / 64] |= 1 << (i % 64);
        }
    }
    let mut combo = vec![0u64; cwords];
    for (rb, rc, p) in &rows {
        if target[p / 64] >> (p % 64) & 1 == 1 {
            xor_into(&mut target, rb);
            xor_into(&mut combo, rc);
        }
    }
    if target.iter().any(|&w| w != 0) {
        return Err(AlgebraError::Internal("Hensel lift: y is not a member modulo 2".into()));
    }
    let shift = combination(n, gens, &combo);
    let x1: Vec<u32> = (0..n).map(|i| (base[i] + shift[i]) % 4).collect();
    // x₁ = y + 2·z₁.
    let z1: Vec<u32> = (0..n).map(|i| ((x1[i] + 4 - y[i] % 2) % 4) / 2).collect();
    let kernel: Vec<Gen> = halves
        .into_iter()
        .map(|cells| Gen { support: cells.into_iter().map(|i| (i, 1)).collect(), order: 2 })
        .collect();
    let found = minimise(&z1, &kernel, 2, budget, canc)?;
    let x: Vec<u32> = (0..n).map(|i| y[i] % 2 + 2 * (found.x[i] & 1)).collect();
    let cost = x.iter().map(|&v| v as u64).sum();
    Ok((x, cost))
}

/// `Σ_{t ∈ combo} g_t` over `Z/4`, densely.
fn combination(n: usize, gens: &[Gen], combo: &[u64]) -> Vec<u32> {
    let mut sum = vec![0u32; n];
    for t in set_bits(combo) {
        for &(i, v) in &gens[t].support {
            sum[i as usize] = (sum[i as usize] + v) % 4;
        }
    }
    sum
}
