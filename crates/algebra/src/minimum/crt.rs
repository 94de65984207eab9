//! `W = m·p` (p an odd prime, `gcd(m, p) = 1`): the cheapest member over a
//! member modulo m, when the coset modulo p is small.
//!
//! By Chinese remainders a member `a` modulo m and any member `b` modulo p
//! make one member modulo W, `x_j = CRT(a_j, b_j)`, whose cost is a sum of
//! per-cell costs `f_j(b_j)`. With at most `2^16` members modulo p, they are
//! all tried: cells with the same signature (their entries in every
//! generator modulo p) move together, so a class keeps one table
//! `T[τ] = Σ f_j(b₀_j + τ)` and a member costs one look-up per class. The
//! members are visited in odometer order, each step adding one generator
//! (so only the classes it touches are looked up again).
//!
//! 48×48 Klein bottle with every light on: `a` of 2304 presses modulo 4 and
//! the best of the 3^9 members modulo 3 give 8064 presses for W = 12 (the
//! search found 10,656); `a` of 768 modulo 2 gives 3840 for W = 6 (4032).

use super::{Budget, Gen};
use crate::cancel::Canceller;
use crate::AlgebraError;
use std::collections::HashMap;

/// Most members modulo p tried (as a power of two).
const MEMBERS_LOG2: f64 = 16.0;

/// Whether a coset modulo `p` spanned by `gens` (at most `p^gens` members)
/// is small enough for [`crt_enumerate`].
pub(super) fn enumerable(gens: usize, p: u32) -> bool {
    gens as f64 * (p as f64).log2() <= MEMBERS_LOG2
}

/// The cheapest member of `base + ⟨gens⟩` (over `Z/w`, `w = m·p`) whose
/// residues modulo `m` are `a`, over every member modulo `p`, and its cost;
/// `None` when the coset modulo p has more than `2^16` members or the work
/// is estimated not to fit `budget` (should it run out all the same, the
/// best of the members tried). `base_p` and `gens_p` are the coset modulo p.
pub(super) fn crt_enumerate(
    a: &[u32],
    (m, p): (u32, u32),
    base_p: &[u32],
    gens_p: &[Gen],
    budget: &mut Budget,
    canc: &mut Canceller<'_>,
) -> Result<Option<(Vec<u32>, u64)>, AlgebraError> {
    let n = a.len();
    let d = gens_p.len();
    if !enumerable(d, p) {
        return Ok(None);
    }
    // crt[r][β]: the value modulo m·p that is r modulo m and β modulo p.
    let w = m * p;
    let crt: Vec<Vec<u32>> =
        (0..m).map(|r| (0..p).map(|b| (0..w).find(|&x| x % m == r && x % p == b).unwrap_or(0)).collect()).collect();
    // Classes of cells with equal signatures modulo p.
    let mut sig = vec![0u32; n * d];
    for (t, g) in gens_p.iter().enumerate() {
        for &(i, v) in &g.support {
            sig[i as usize * d + t] = v % p;
        }
    }
    let mut class_of_sig: HashMap<&[u32], usize> = HashMap::new();
    let mut class_of = vec![0usize; n];
    for (j, class) in class_of.iter_mut().enumerate() {
        let next = class_of_sig.len();
        *class = *class_of_sig.entry(&sig[j * d..(j + 1) * d]).or_insert(next);
    }
    let k = class_of_sig.len();
    canc.tick(n * d)?;
    // Tables per class, and each class's signature.
    let mut table = vec![0u64; k * p as usize];
    let mut class_sig = vec![0u32; k * d];
    for j in 0..n {
        let c = class_of[j];
        class_sig[c * d..(c + 1) * d].copy_from_slice(&sig[j * d..(j + 1) * d]);
        for tau in 0..p {
            let b = (base_p[j] + tau) % p;
            table[c * p as usize + tau as usize] += crt[(a[j] % m) as usize][b as usize] as u64;
        }
    }
    // Classes touched by each generator, with the step it adds.
    let touched: Vec<Vec<(usize, u32)>> = (0..d)
        .map(|t| (0..k).filter(|&c| class_sig[c * d + t] != 0).map(|c| (c, class_sig[c * d + t])).collect())
        .collect();
    // The lowest digit moves at every member: about its classes per step.
    let members = (p as u64).pow(d as u32);
    let work = (n * d) as u64 + 2 * members * (touched.first().map_or(0, Vec::len) as u64 + 2);
    if work > budget.left() {
        return Ok(None);
    }
    let mut tau = vec![0u32; k];
    let mut cost: u64 = (0..k).map(|c| table[c * p as usize]).sum();
    let (mut best, mut best_digits) = (cost, vec![0u32; d]);
    let mut digits = vec![0u32; d];
    let mut steps = 0u64;
    'members: loop {
        // Odometer: the lowest digit that does not wrap moves; each digit
        // that changes adds its generator once (p additions give nothing).
        let mut t = 0;
        loop {
            if t == d {
                break 'members;
            }
            for &(c, s) in &touched[t] {
                let row = c * p as usize;
                cost -= table[row + tau[c] as usize];
                tau[c] = (tau[c] + s) % p;
                cost += table[row + tau[c] as usize];
            }
            steps += touched[t].len() as u64 + 1;
            digits[t] = (digits[t] + 1) % p;
            if digits[t] != 0 {
                break;
            }
            t += 1;
        }
        if cost < best {
            best = cost;
            best_digits.copy_from_slice(&digits);
        }
        if steps >= 1 << 16 {
            canc.tick(steps as usize)?;
            if 2 * steps > budget.left() {
                // Past the estimate and out of budget: the best member so
                // far is still a member.
                break;
            }
            budget.spend(2 * steps);
            steps = 0;
        }
    }
    budget.spend(2 * steps + (n * d) as u64);
    // The member: b = base_p + Σ digits·g, then CRT with a.
    let mut b = base_p.to_vec();
    for (t, g) in gens_p.iter().enumerate() {
        for &(i, v) in &g.support {
            b[i as usize] = (b[i as usize] + best_digits[t] * v) % p;
        }
    }
    let x: Vec<u32> = (0..n).map(|j| crt[(a[j] % m) as usize][b[j] as usize]).collect();
    let cost = x.iter().map(|&v| v as u64).sum::<u64>();
    if cost != best {
        return Err(AlgebraError::Internal("CRT enumeration: the member's cost is not its tables'".into()));
    }
    Ok(Some((x, cost)))
}
