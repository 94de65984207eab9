//! Block coordinate descent: repeatedly pick a block of generators small
//! enough to search exhaustively (transform for `W = 2`, Gray code otherwise)
//! and move to the best point of `x + span(block)`, with shuffled blocks and a
//! few deterministic random restarts. Never claims optimality by itself.

use super::gray::gray_minimise;
use super::transform::wht_minimise;
use super::{apply, cost_of, Gen};
use crate::cancel::Canceller;
use crate::AlgebraError;
use crate::SplitMix64;

/// Search-space size of one block in the descent (`W != 2`).
const BLOCK_SIZE: u64 = 1 << 8;
/// Generators per block in the `W = 2` descent (transformed, not enumerated).
const WHT_BLOCK_DIM: usize = 16;
/// Transform work units (signatures and butterflies, vectorised) per budget
/// unit (about a nanosecond).
const WHT_UNITS: u64 = 12;
/// Cells of a board whose presses fit a cache; a Gray code step on a larger
/// one is charged [`MISS_UNITS`] an entry (its supports are scattered over
/// megabytes: 700×700, a 2 s budget took 5 s here before).
const CACHED_CELLS: u64 = 1 << 16;
const MISS_UNITS: u64 = 3;
/// Most random restarts of the descent (besides the start from `x₀`).
const RESTARTS: usize = 64;
/// Stop restarting after this many restarts in a row brought no improvement.
const FRUITLESS_RESTARTS: usize = 12;
/// Rounds without improvement before a descent stops.
const STALE_ROUNDS: usize = 2;
/// Upper bound on rounds of one descent.
const MAX_ROUNDS: usize = 40;

/// How hard the descent tries.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Effort {
    /// One descent from the start (an upper bound for an exact search).
    Quick,
    /// Random restarts until they stop paying (the final answer).
    Full,
}

/// Descent (with restarts for [`Effort::Full`]); returns the best `(x, cost)`
/// found. Stops as soon as the cost reaches `good_enough` (a proven lower
/// bound: nothing can beat it) or `budget` work units are spent (it is
/// decremented by the work done; a block is only searched when its work fits
/// what is left).
pub(super) fn heuristic(
    base: &[u32],
    gens: &[&Gen],
    w: u32,
    good_enough: u64,
    effort: Effort,
    budget: &mut u64,
    canc: &mut Canceller<'_>,
) -> Result<(Vec<u32>, u64), AlgebraError> {
    let mut rng = SplitMix64(0x5EED_1161_7A11_u64);
    let mut best = base.to_vec();
    let mut best_cost = descend(&mut best, gens, w, good_enough, &mut rng, budget, canc)?;
    let restarts = if effort == Effort::Full { RESTARTS } else { 0 };
    let mut fruitless = 0;
    for _ in 0..restarts {
        if best_cost <= good_enough || *budget == 0 || fruitless >= FRUITLESS_RESTARTS {
            break;
        }
        // Restart from a random coset member near nothing in particular.
        let moves: u64 = gens.iter().map(|g| g.support.len() as u64).sum::<u64>() + base.len() as u64;
        if *budget < moves {
            break;
        }
        *budget -= moves;
        let mut x = best.clone();
        let digits: Vec<u32> =
            gens.iter().map(|g| if rng.next_u64() & 1 == 0 { 0 } else { rng.below(g.order as u64) as u32 }).collect();
        apply(&mut x, gens, &digits, w);
        let c = descend(&mut x, gens, w, good_enough, &mut rng, budget, canc)?;
        if c < best_cost {
            best_cost = c;
            best = x;
            fruitless = 0;
        } else {
            fruitless += 1;
        }
    }
    Ok((best, best_cost))
}

/// Descends from `x` (updated in place) and returns its final cost (stopping
/// early at `good_enough`).
fn descend(
    x: &mut [u32],
    gens: &[&Gen],
    w: u32,
    good_enough: u64,
    rng: &mut SplitMix64,
    budget: &mut u64,
    canc: &mut Canceller<'_>,
) -> Result<u64, AlgebraError> {
    let mut cost = cost_of(x);
    let mut stale = 0;
    let mut order: Vec<usize> = (0..gens.len()).collect();
    for _ in 0..MAX_ROUNDS {
        // Fisher–Yates shuffle so that each round groups generators differently.
        for i in (1..order.len()).rev() {
            let j = rng.below(i as u64 + 1) as usize;
            order.swap(i, j);
        }
        let mut improved = false;
        let mut start = 0;
        while start < order.len() {
            // Grow a block while its search space stays small and its work
            // fits what is left of the budget.
            let work_of = |len: usize, size: u64, supports: u64| block_work(x.len() as u64, w, len, size, supports);
            let mut end = start;
            let (mut size, mut supports) = (1u64, 0u64);
            while end < order.len() {
                let g = gens[order[end]];
                let (s2, sup2) = (size * g.order as u64, supports + g.support.len() as u64);
                // (One generator always makes a block, whatever its order.)
                let too_big = end > start && if w == 2 { end - start >= WHT_BLOCK_DIM } else { s2 > BLOCK_SIZE };
                if too_big || work_of(end - start + 1, s2, sup2) > *budget {
                    break;
                }
                (size, supports) = (s2, sup2);
                end += 1;
            }
            if end == start {
                // Not even one generator fits what is left.
                return Ok(cost);
            }
            let block: Vec<&Gen> = order[start..end].iter().map(|&i| gens[i]).collect();
            *budget -= work_of(block.len(), size, supports);
            let (c, digits) = if w == 2 {
                let (c, a) = wht_minimise(x, &block, canc)?;
                (c, (0..block.len()).map(|j| ((a >> j) & 1) as u32).collect())
            } else {
                let radices: Vec<u32> = block.iter().map(|g| g.order).collect();
                gray_minimise(x, &block, &radices, w, canc)?
            };
            if c < cost {
                apply(x, &block, &digits, w);
                cost = c;
                improved = true;
            }
            start = end;
            if *budget == 0 || cost <= good_enough {
                return Ok(cost);
            }
        }
        if improved {
            stale = 0;
        } else {
            stale += 1;
            if stale >= STALE_ROUNDS {
                break;
            }
        }
    }
    Ok(cost)
}

/// The units a block of `len` generators costs on a board of `n` cells:
/// for W = 2 the transform (signatures plus the butterflies, vectorised:
/// cheap), otherwise the Gray code's `size` steps times the average of the
/// blocks' `supports`, each entry a cache miss on a large board. At least 1.
pub(super) fn block_work(n: u64, w: u32, len: usize, size: u64, supports: u64) -> u64 {
    if w == 2 {
        (n * len as u64 + ((len as u64) << len)) / WHT_UNITS
    } else {
        let miss = if n > CACHED_CELLS { MISS_UNITS } else { 1 };
        size * supports.div_ceil(len as u64) * miss
    }
    .max(1)
}
