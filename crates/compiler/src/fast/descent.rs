//! The minimum search of boards too large to spell their quiet patterns out
//! cell by cell for the algebra: a descent over the chase's leftover kernel
//! (the polynomial and torus methods hand each quiet pattern over as the
//! first rows or seed it is chased from). Each step chases one pattern (or
//! takes it from a bounded cache) and keeps it when it lowers the number of
//! presses; passes repeat while one helps and the budget lasts. Never worse
//! than the solution it starts from; never proven.

use super::bits::BitGrid;
use super::FastError;

/// Quiet patterns kept between passes, in bytes; beyond, a pattern is
/// chased again each time it is tried.
const CACHE_BYTES: usize = 64 << 20;
/// Work units for chasing a pattern, per word of the grid.
const CHASE_UNITS: u64 = 8;

/// `solution` with quiet patterns added while each lowers its cost, within
/// `work` units (one per word compared; `CHASE_UNITS` per word chased).
pub(super) fn descend(
    mut x: BitGrid,
    nullity: usize,
    quiet: &dyn Fn(usize) -> Result<BitGrid, FastError>,
    work: u64,
    cancel: &dyn Fn() -> bool,
) -> Result<BitGrid, FastError> {
    let words = x.data.len().max(1) as u64;
    let keep = CACHE_BYTES / (x.data.len().max(1) * 8);
    let mut cache: Vec<Option<BitGrid>> = Vec::new();
    let mut left = work;
    let mut improved = true;
    while improved {
        improved = false;
        for k in 0..nullity {
            if cancel() {
                return Err(FastError::Cancelled);
            }
            let is_cached = cache.get(k).is_some_and(Option::is_some);
            let cost = words + if is_cached { 0 } else { words * CHASE_UNITS };
            let Some(rest) = left.checked_sub(cost) else { return Ok(x) };
            left = rest;
            let fresh = if is_cached { None } else { Some(quiet(k)?) };
            let Some(q) = fresh.as_ref().or_else(|| cache.get(k).and_then(Option::as_ref)) else {
                return Err(FastError::Internal("a quiet pattern left the descent's cache".into()));
            };
            // Presses gained where the pattern meets no press, lost where it meets one.
            let (mut gain, mut loss) = (0u64, 0u64);
            for (a, b) in x.data.iter().zip(&q.data) {
                gain += u64::from((b & !a).count_ones());
                loss += u64::from((b & a).count_ones());
            }
            if loss > gain {
                for (a, b) in x.data.iter_mut().zip(&q.data) {
                    *a ^= b;
                }
                improved = true;
            }
            if let Some(q) = fresh {
                if k < keep {
                    if cache.len() <= k {
                        cache.resize_with(k + 1, || None);
                    }
                    cache[k] = Some(q);
                }
            }
        }
    }
    Ok(x)
}
