//! Minimum number of presses: the lightest member of a coset `x₀ + kernel`.
//!
//! The cost of `x` is `Σ x_i` with entries read as integers `0..W−1` (the number
//! of presses). Finding the minimum is minimum-weight decoding, NP-hard in
//! general, so the strategy depends on the modulus and the kernel:
//!
//! * `W = 2` (`binary`): the kernel basis is reduced and split into blocks that
//!   share no cell; each block is minimised separately. A block is proven either
//!   by a **certificate** — disjoint odd checks (`packing`) whose number equals
//!   the cost found by the descent — or by an exact **branch and bound** over
//!   the kernel coefficients with **Walsh–Hadamard transforms** at the leaves
//!   (`branch`, `transform`). The search always completes for blocks of
//!   dimension up to 30; above, it has a work budget and a block it cannot
//!   finish is reported unproven.
//! * other `W` with at most `2^24` kernel elements: **exhaustive enumeration**
//!   in a mixed-radix reflected Gray code (`gray`). Generators with the
//!   smallest support take the fastest-changing digits.
//! * anything larger: **block coordinate descent** (`heuristic`). The answer is
//!   flagged `optimal = false`.

mod binary;
mod branch;
mod gray;
mod heuristic;
mod packing;
mod table;
#[cfg(test)]
mod tests;
mod transform;

use crate::cancel::Canceller;
use crate::kernel::Kernel;
use crate::modular::reduce_vec;
use crate::solve::check_modulus;
use crate::AlgebraError;
use gray::gray_minimise;
use heuristic::{heuristic, Effort};

/// The lightest solution found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Minimum {
    /// The solution (entries `0..W`).
    pub x: Vec<u32>,
    /// `Σ x_i`, the number of presses.
    pub cost: u64,
    /// `true` when the search was exhaustive or the cost meets a proven lower
    /// bound, so `cost` is the true minimum.
    pub optimal: bool,
}

/// Largest kernel size enumerated exhaustively for `W != 2` (as a power of two).
const GRAY_MAX_LOG2: u32 = 24;

/// A kernel generator restricted to its support.
struct Gen {
    support: Vec<(u32, u32)>,
    order: u32,
}

/// Among all `particular + kernel element`, one minimising `Σ x_i`.
///
/// Exact (`optimal = true`) when the search is complete or certified: `W = 2`
/// whenever every independent block of the kernel has dimension at most 30, or
/// is certified by disjoint odd checks, or its budgeted search finishes; other
/// `W` with at most 2^24 kernel elements; a trivial kernel. Otherwise a good
/// heuristic answer with `optimal = false`. Polls `cancel()` every few
/// milliseconds.
pub fn minimum_weight(
    particular: &[u32],
    kernel: &Kernel,
    w: u32,
    cancel: &dyn Fn() -> bool,
) -> Result<Minimum, AlgebraError> {
    check_modulus(w)?;
    let n = particular.len();
    for g in &kernel.generators {
        if g.vector.len() != n {
            return Err(AlgebraError::DimensionMismatch {
                what: "kernel generator length vs particular solution length",
                expected: n,
                found: g.vector.len(),
            });
        }
    }
    let mut canc = Canceller::new(cancel);
    canc.check()?;
    let base = reduce_vec(particular, w);
    let mut gens: Vec<Gen> = kernel
        .generators
        .iter()
        .filter_map(|g| {
            let support: Vec<(u32, u32)> =
                g.vector.iter().enumerate().filter_map(|(i, &v)| (v % w != 0).then_some((i as u32, v % w))).collect();
            let order = g.order.min(w);
            (!support.is_empty() && order > 1).then_some(Gen { support, order })
        })
        .collect();
    if gens.is_empty() {
        return Ok(Minimum { cost: cost_of(&base), x: base, optimal: true });
    }
    // Cheapest generators first: they take the fastest-changing Gray digits.
    gens.sort_by_key(|g| g.support.len());
    let refs: Vec<&Gen> = gens.iter().collect();

    if w == 2 && n <= i32::MAX as usize {
        let (x, cost, optimal) = binary::minimise(&base, &refs, &mut canc)?;
        return finish(x, cost, optimal);
    }
    let log2: f64 = refs.iter().map(|g| (g.order as f64).log2()).sum();
    if log2 <= GRAY_MAX_LOG2 as f64 + 1e-9 {
        let radices: Vec<u32> = refs.iter().map(|g| g.order).collect();
        let (cost, digits) = gray_minimise(&base, &refs, &radices, w, &mut canc)?;
        let mut x = base;
        apply(&mut x, &refs, &digits, w);
        return finish(x, cost, true);
    }
    let (x, cost) = heuristic(&base, &refs, w, 0, Effort::Full, &mut canc)?;
    finish(x, cost, false)
}

/// Re-derives the cost from `x` (cheap) and checks it against the search's value.
fn finish(x: Vec<u32>, cost: u64, optimal: bool) -> Result<Minimum, AlgebraError> {
    let actual = cost_of(&x);
    if actual != cost {
        return Err(AlgebraError::Internal(format!(
            "minimum weight: search reported cost {cost} but the vector costs {actual}"
        )));
    }
    Ok(Minimum { x, cost, optimal })
}

fn cost_of(x: &[u32]) -> u64 {
    x.iter().map(|&v| v as u64).sum()
}

/// `x += Σ digits_j · g_j (mod w)`.
fn apply(x: &mut [u32], gens: &[&Gen], digits: &[u32], w: u32) {
    let w64 = w as u64;
    for (g, &d) in gens.iter().zip(digits) {
        if d == 0 {
            continue;
        }
        for &(i, v) in &g.support {
            let xi = &mut x[i as usize];
            *xi = ((*xi as u64 + d as u64 * v as u64) % w64) as u32;
        }
    }
}
