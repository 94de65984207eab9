//! A lower bound for moduli divisible by 4: the odd checks of `W = 2`,
//! weighed modulo 4.
//!
//! Reduced modulo 2, the coset's odd pairs and triples (`packing`) say that
//! every member presses each of them an odd number of times: one press at
//! least. Modulo 4 the same cells may say more. With `s_j` the signatures over
//! `Z/4` (the entries of every generator at cell `j`), when
//! `s_a + c_b·s_b (+ c_c·s_c) ≡ 0 (mod 4)` for signs `c ∈ {1, 3}`, every member
//! has `x_a + c_b·x_b (+ c_c·x_c) ≡ v (mod 4)`, `v` being that sum for `x₀`,
//! and the least `x_a + x_b (+ x_c)` over `x ∈ {0..3}` meeting it
//! ([`least_presses`]) is the check's weight: up to 3, not 1. The checks stay
//! disjoint, so their weights add up.
//!
//! Cells whose signature vanishes modulo 2 are checks of one cell: a zero
//! signature fixes the cell (`x₀`'s value), an even one its parity.
//!
//! The 48×48 torus and Klein bottle with every light on and `W = 4` are tiled by
//! 768 triples with `x_a + x_b + x_c ≡ 3`: 2304 presses, which the descent
//! finds, so the minimum is proven without any search. For `W = 8, 12, …` a
//! member's residues modulo 4 are a member of the coset reduced modulo 4 and
//! cost no more, so the bound holds there too.

use super::packing::{Cells, Classes};
use super::Gen;
use crate::cancel::Canceller;
use crate::AlgebraError;

/// Largest signature table (`cells × generators` entries) built here.
const SIGNATURE_LIMIT: u64 = 1 << 24;
/// Work units charged per signature entry and per pair of classes examined
/// for triples (measured: about 1 ns a unit, as the budget means).
const ENTRY_UNITS: u64 = 4;
const PAIR_UNITS: u64 = 2;

/// The bound, and the work it took in budget units (signature entries and
/// pairs of classes examined for triples). `base` and `gens` are over `Z/4`;
/// the triple search examines at most about `max_pairs` pairs of classes.
pub(super) fn lifted_bound(
    base: &[u32],
    gens: &[Gen],
    max_pairs: u64,
    canc: &mut Canceller<'_>,
) -> Result<(u64, u64), AlgebraError> {
    let n = base.len();
    let d = gens.len();
    if (n as u64) * (d.max(1) as u64) > SIGNATURE_LIMIT {
        return Ok((0, 0));
    }
    // Signatures over Z/4 (one byte an entry) and modulo 2 (bits).
    let mut sig4 = vec![0u8; n * d];
    let words = d.div_ceil(64).max(1);
    let mut sig2 = vec![0u64; n * words];
    for (t, g) in gens.iter().enumerate() {
        for &(i, v) in &g.support {
            let i = i as usize;
            sig4[i * d + t] = (v % 4) as u8;
            if v % 2 == 1 {
                sig2[i * words + t / 64] |= 1 << (t % 64);
            }
        }
        canc.tick(g.support.len())?;
    }
    let sig = |j: usize| &sig4[j * d..(j + 1) * d];
    // Cells constant modulo 2: checks of their own.
    let mut bound = 0u64;
    let mut kept = Vec::new();
    for j in 0..n {
        if sig2[j * words..(j + 1) * words].iter().any(|&w| w != 0) {
            kept.push(j);
        } else if sig(j).iter().all(|&e| e == 0) {
            bound += (base[j] % 4) as u64;
        } else {
            bound += (base[j] % 2) as u64;
        }
    }
    let sigs: Vec<u64> = kept.iter().flat_map(|&j| sig2[j * words..(j + 1) * words].iter().copied()).collect();
    let bits: Vec<u8> = kept.iter().map(|&j| (base[j] % 2) as u8).collect();
    let cells = Cells { sigs: &sigs, words, bits: &bits };
    let classes = Classes::new(&cells, canc)?;
    let packing = classes.with_triples(&cells, max_pairs, canc)?;
    let weigh = |local: &[u32]| -> u64 {
        let js: Vec<usize> = local.iter().map(|&l| kept[l as usize]).collect();
        weight(&js, sig, base)
    };
    for pair in classes.pair_cells() {
        bound += weigh(pair);
    }
    for triple in &packing.triple_cells {
        bound += weigh(triple);
    }
    canc.tick(packing.triple_cells.len() + classes.pair_cells().len())?;
    // Units of about a nanosecond: building the signatures and classes costs
    // a few per entry, the triple search a couple per pair examined.
    Ok((bound, ENTRY_UNITS * (n * d) as u64 + PAIR_UNITS * packing.examined))
}

/// The weight of an odd check of `W = 2` on the cells `js` (2 or 3) modulo 4:
/// the most [`least_presses`] over the signs that make it a check modulo 4,
/// and 1 (the odd check itself) when none does.
fn weight<'s>(js: &[usize], sig: impl Fn(usize) -> &'s [u8], base: &[u32]) -> u64 {
    let mut best = 1;
    let sigs: Vec<&[u8]> = js.iter().map(|&j| sig(j)).collect();
    let mut coeff = [1u32; 3];
    for signs in 0..1u32 << (js.len() - 1) {
        // The first cell's coefficient is 1; the others 1 or 3.
        for (k, c) in coeff.iter_mut().enumerate().take(js.len()).skip(1) {
            *c = if signs >> (k - 1) & 1 == 1 { 3 } else { 1 };
        }
        let coeff = &coeff[..js.len()];
        let vanishes =
            (0..sigs[0].len()).all(|t| sigs.iter().zip(coeff).map(|(s, &c)| s[t] as u32 * c).sum::<u32>() % 4 == 0);
        if vanishes {
            let v = js.iter().zip(coeff).map(|(&j, &c)| base[j] * c).sum::<u32>() % 4;
            best = best.max(least_presses(coeff, v));
        }
    }
    best
}

/// The least `Σ x_k` over `x ∈ {0..3}^k` with `Σ coeff_k·x_k ≡ v (mod 4)`.
pub(super) fn least_presses(coeff: &[u32], v: u32) -> u64 {
    let k = coeff.len() as u32;
    (0..4u32.pow(k))
        .filter_map(|code| {
            let (mut sum, mut presses) = (0u32, 0u64);
            for (i, &c) in coeff.iter().enumerate() {
                let x = code >> (2 * i) & 3;
                sum += x * c;
                presses += x as u64;
            }
            (sum % 4 == v % 4).then_some(presses)
        })
        .min()
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::least_presses;

    #[test]
    fn least_presses_of_small_checks() {
        // x_a + x_b + x_c ≡ 3: three presses (one cell three times, or each once).
        assert_eq!(least_presses(&[1, 1, 1], 3), 3);
        assert_eq!(least_presses(&[1, 1, 1], 1), 1);
        assert_eq!(least_presses(&[1, 1, 1], 0), 0);
        // x_a − x_b ≡ 2: two presses.
        assert_eq!(least_presses(&[1, 3], 2), 2);
        // x_a + x_b ≡ 3 and x_a − x_b − x_c ≡ 3: three, then one (x_b = 1).
        assert_eq!(least_presses(&[1, 1], 3), 3);
        assert_eq!(least_presses(&[1, 3, 3], 3), 1);
    }
}
