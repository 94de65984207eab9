//! Minimum number of presses: the lightest member of a coset `x₀ + kernel`.
//!
//! The cost of `x` is `Σ x_i` with entries read as integers `0..W−1` (the number
//! of presses). Finding the minimum is minimum-weight decoding, NP-hard in
//! general, so the strategy depends on the kernel's size:
//!
//! * `W = 2` and kernel dimension `d <= 30`: **Walsh–Hadamard transform**.
//!   Give each cell the `d`-bit signature of which generators touch it; the
//!   coset member `x₀ + Σ a_j g_j` has cell value `x₀_i ⊕ ⟨a, s_i⟩`, so its weight
//!   is `(T − F̂(a))/2` where `F(s) = #{cells with signature s and x₀_i = 0} −
//!   #{… and x₀_i = 1}` and `F̂` is its Walsh–Hadamard transform. One transform
//!   scores all `2^d` coset members in `O(d·2^d)`. The transform is chunked over
//!   the top `d − 20` bits (a chunk is a 2^20-entry array, 4 MB), so memory
//!   stays bounded whatever `d`; `d = 30` takes on the order of seconds.
//! * other `W` with at most `2^24` kernel elements: **exhaustive enumeration**
//!   in a mixed-radix reflected Gray code (Knuth's Algorithm H). Consecutive
//!   elements differ by `±` one generator, so each step only touches that
//!   generator's support and updates the cost incrementally. Generators with
//!   the smallest support take the fastest-changing digits.
//! * anything larger: **block coordinate descent** — repeatedly pick a block of
//!   generators small enough to search exhaustively (by the two methods above)
//!   and move to the best point of `x + span(block)`, with shuffled blocks and a
//!   few deterministic random restarts. The answer is flagged `optimal = false`.

use crate::cancel::Canceller;
use crate::kernel::Kernel;
use crate::modular::reduce_vec;
use crate::solve::check_modulus;
use crate::AlgebraError;

/// The lightest solution found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Minimum {
    /// The solution (entries `0..W`).
    pub x: Vec<u32>,
    /// `Σ x_i`, the number of presses.
    pub cost: u64,
    /// `true` when the search was exhaustive, so `cost` is the true minimum.
    pub optimal: bool,
}

/// Largest kernel dimension for which `W = 2` is solved exactly by the transform.
const WHT_MAX_DIM: usize = 30;
/// Size of one transform chunk, as a power of two.
const WHT_CHUNK_BITS: usize = 20;
/// Largest kernel size enumerated exhaustively for `W != 2` (as a power of two).
const GRAY_MAX_LOG2: u32 = 24;
/// Search-space size of one block in the heuristic descent.
const BLOCK_SIZE: u64 = 1 << 12;
/// Generators per block in the `W = 2` heuristic descent (transformed, not enumerated).
const WHT_BLOCK_DIM: usize = 16;
/// Most random restarts of the heuristic descent (besides the start from `x₀`).
const RESTARTS: usize = 64;
/// Stop restarting after this many restarts in a row brought no improvement.
const FRUITLESS_RESTARTS: usize = 12;
/// Rounds without improvement before a descent stops.
const STALE_ROUNDS: usize = 2;
/// Upper bound on rounds of one descent.
const MAX_ROUNDS: usize = 40;
/// Rough bound on elementary operations spent by the heuristic.
const HEURISTIC_BUDGET: u64 = 400_000_000;

/// A kernel generator restricted to its support.
struct Gen {
    support: Vec<(u32, u32)>,
    order: u32,
}

/// Among all `particular + kernel element`, one minimising `Σ x_i`.
///
/// Exact (`optimal = true`) when the search is complete (`W = 2` with kernel
/// dimension at most 30, other `W` with at most 2^24 kernel elements, or a
/// trivial kernel); otherwise a good heuristic answer with `optimal = false`.
/// Polls `cancel()` every few milliseconds.
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

    if w == 2 && refs.len() <= WHT_MAX_DIM && n <= i32::MAX as usize {
        let (cost, a) = wht_minimise(&base, &refs, &mut canc)?;
        let digits: Vec<u32> = (0..refs.len()).map(|j| ((a >> j) & 1) as u32).collect();
        let mut x = base;
        apply(&mut x, &refs, &digits, w);
        return finish(x, cost, true);
    }
    let log2: f64 = refs.iter().map(|g| (g.order as f64).log2()).sum();
    if log2 <= GRAY_MAX_LOG2 as f64 + 1e-9 {
        let radices: Vec<u32> = refs.iter().map(|g| g.order).collect();
        let (cost, digits) = gray_minimise(&base, &refs, &radices, w, &mut canc)?;
        let mut x = base;
        apply(&mut x, &refs, &digits, w);
        return finish(x, cost, true);
    }
    let (x, cost) = heuristic(&base, &refs, w, &mut canc)?;
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

/// In-place unnormalised Walsh–Hadamard transform.
fn fwht(a: &mut [i32], canc: &mut Canceller<'_>) -> Result<(), AlgebraError> {
    let len = a.len();
    let mut h = 1;
    while h < len {
        for chunk in a.chunks_exact_mut(2 * h) {
            let (l, r) = chunk.split_at_mut(h);
            for (x, y) in l.iter_mut().zip(r.iter_mut()) {
                let (u, v) = (*x, *y);
                *x = u + v;
                *y = u - v;
            }
        }
        canc.tick(len)?;
        h *= 2;
    }
    Ok(())
}

/// Exact minimum over `base + span(gens)` for `W = 2` (`gens.len() <= 30`).
/// Returns the weight and the coefficient bit mask `a` of the best member
/// (the smallest `a` among ties).
fn wht_minimise(base: &[u32], gens: &[&Gen], canc: &mut Canceller<'_>) -> Result<(u64, u64), AlgebraError> {
    let d = gens.len();
    if d > WHT_MAX_DIM {
        return Err(AlgebraError::Internal("transform dimension too large".into()));
    }
    let n = base.len();
    let mut sig = vec![0u32; n];
    for (j, g) in gens.iter().enumerate() {
        for &(i, v) in &g.support {
            if v & 1 == 1 {
                sig[i as usize] ^= 1 << j;
            }
        }
    }
    // F(s) = #(signature s, bit 0) − #(signature s, bit 1), as sparse pairs.
    let mut pairs: Vec<(u32, i32)> =
        sig.iter().zip(base).map(|(&s, &b)| (s, if b & 1 == 0 { 1 } else { -1 })).collect();
    pairs.sort_unstable_by_key(|&(s, _)| s);
    let mut agg: Vec<(u32, i32)> = Vec::new();
    for (s, f) in pairs {
        match agg.last_mut() {
            Some((ls, lf)) if *ls == s => *lf += f,
            _ => agg.push((s, f)),
        }
    }
    agg.retain(|&(_, f)| f != 0);
    canc.tick(n * (d + 1))?;

    let d_lo = d.min(WHT_CHUNK_BITS);
    let d_hi = d - d_lo;
    let lo_mask = (1u32 << d_lo) - 1;
    let total = n as i64;
    let mut arr = vec![0i32; 1 << d_lo];
    let mut best = (u64::MAX, 0u64);
    for hi in 0..(1u64 << d_hi) {
        arr.fill(0);
        for &(s, f) in &agg {
            let neg = ((s >> d_lo) as u64 & hi).count_ones() & 1 == 1;
            arr[(s & lo_mask) as usize] += if neg { -f } else { f };
        }
        fwht(&mut arr, canc)?;
        // Largest transform value = smallest weight; first index wins ties.
        let mut best_t = i32::MIN;
        let mut best_lo = 0usize;
        for (lo, &t) in arr.iter().enumerate() {
            if t > best_t {
                best_t = t;
                best_lo = lo;
            }
        }
        let weight = ((total - best_t as i64) / 2) as u64;
        if weight < best.0 {
            best = (weight, (hi << d_lo) | best_lo as u64);
        }
        canc.tick(arr.len() + agg.len())?;
    }
    Ok(best)
}

/// Exact minimum over `base + {Σ c_j g_j : 0 <= c_j < radix_j}` by mixed-radix
/// reflected Gray code enumeration (Knuth, TAOCP 7.2.1.1, Algorithm H). Returns
/// the best cost and its digits (the first one met among ties).
fn gray_minimise(
    base: &[u32],
    gens: &[&Gen],
    radices: &[u32],
    w: u32,
    canc: &mut Canceller<'_>,
) -> Result<(u64, Vec<u32>), AlgebraError> {
    let n = gens.len();
    let mut x = base.to_vec();
    let mut cost = cost_of(&x) as i64;
    let mut best = cost;
    let mut digits = vec![0u32; n];
    let mut best_digits = digits.clone();
    if radices.iter().any(|&r| r < 2) || radices.len() != n {
        return Err(AlgebraError::Internal("Gray code radix below 2".into()));
    }
    let mut focus: Vec<usize> = (0..=n).collect();
    let mut up = vec![true; n];
    loop {
        let j = focus[0];
        focus[0] = 0;
        if j == n {
            break;
        }
        let g = gens[j];
        if up[j] {
            digits[j] += 1;
            for &(i, v) in &g.support {
                let xi = &mut x[i as usize];
                let old = *xi;
                let mut new = old + v;
                if new >= w {
                    new -= w;
                }
                *xi = new;
                cost += new as i64 - old as i64;
            }
        } else {
            digits[j] -= 1;
            for &(i, v) in &g.support {
                let xi = &mut x[i as usize];
                let old = *xi;
                let new = if old >= v { old - v } else { old + w - v };
                *xi = new;
                cost += new as i64 - old as i64;
            }
        }
        if cost < best {
            best = cost;
            best_digits.copy_from_slice(&digits);
        }
        if digits[j] == 0 || digits[j] == radices[j] - 1 {
            up[j] = !up[j];
            focus[j] = focus[j + 1];
            focus[j + 1] = j + 1;
        }
        canc.tick(g.support.len())?;
    }
    Ok((best as u64, best_digits))
}

/// A small deterministic generator (SplitMix64) for shuffles and restarts.
struct SplitMix(u64);

impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: u64) -> u64 {
        if n == 0 {
            0
        } else {
            self.next() % n
        }
    }
}

/// Block coordinate descent with restarts; returns the best `(x, cost)` found.
fn heuristic(base: &[u32], gens: &[&Gen], w: u32, canc: &mut Canceller<'_>) -> Result<(Vec<u32>, u64), AlgebraError> {
    let mut rng = SplitMix(0x5EED_1161_7A11_u64);
    let mut budget = HEURISTIC_BUDGET;
    let mut best = base.to_vec();
    let mut best_cost = descend(&mut best, gens, w, &mut rng, &mut budget, canc)?;
    let mut fruitless = 0;
    for _ in 0..RESTARTS {
        if budget == 0 || fruitless >= FRUITLESS_RESTARTS {
            break;
        }
        // Restart from a random coset member near nothing in particular.
        let mut x = best.clone();
        let digits: Vec<u32> =
            gens.iter().map(|g| if rng.next() & 1 == 0 { 0 } else { rng.below(g.order as u64) as u32 }).collect();
        apply(&mut x, gens, &digits, w);
        let c = descend(&mut x, gens, w, &mut rng, &mut budget, canc)?;
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

/// Descends from `x` (updated in place) and returns its final cost.
fn descend(
    x: &mut [u32],
    gens: &[&Gen],
    w: u32,
    rng: &mut SplitMix,
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
            // Grow a block while its search space stays small.
            let mut end = start + 1;
            let mut size = gens[order[start]].order as u64;
            if w == 2 {
                end = (start + WHT_BLOCK_DIM).min(order.len());
            } else {
                while end < order.len() && size * gens[order[end]].order as u64 <= BLOCK_SIZE {
                    size *= gens[order[end]].order as u64;
                    end += 1;
                }
            }
            let block: Vec<&Gen> = order[start..end].iter().map(|&i| gens[i]).collect();
            let supports: u64 = block.iter().map(|g| g.support.len() as u64).sum();
            // Transform: signatures plus the butterflies; Gray code: steps × support.
            let work = if w == 2 {
                x.len() as u64 * block.len() as u64 + ((block.len() as u64) << block.len())
            } else {
                size * supports.div_ceil(block.len() as u64)
            };
            *budget = budget.saturating_sub(work.max(1));
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
            if *budget == 0 {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernel::KernelGenerator;

    fn never() -> bool {
        false
    }

    #[test]
    fn trivial_kernel_is_optimal() {
        let m = minimum_weight(&[1, 2, 3], &Kernel::default(), 5, &never).unwrap();
        assert_eq!(m, Minimum { x: vec![1, 2, 3], cost: 6, optimal: true });
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
        let mut rng = SplitMix(7);
        for _ in 0..30 {
            let n = 1 + rng.below(40) as usize;
            let d = 1 + rng.below(8) as usize;
            let base: Vec<u32> = (0..n).map(|_| (rng.next() & 1) as u32).collect();
            let gens: Vec<Gen> = (0..d)
                .map(|_| Gen {
                    support: (0..n as u32).filter(|_| rng.next() % 3 == 0).map(|i| (i, 1)).collect(),
                    order: 2,
                })
                .filter(|g| !g.support.is_empty())
                .collect();
            let refs: Vec<&Gen> = gens.iter().collect();
            let never = || false;
            let mut c = Canceller::new(&never);
            let (wc, _) = wht_minimise(&base, &refs, &mut c).unwrap();
            let radices = vec![2; refs.len()];
            let (gc, _) = gray_minimise(&base, &refs, &radices, 2, &mut c).unwrap();
            assert_eq!(wc, gc);
        }
    }

    #[test]
    fn heuristic_finds_a_decent_answer() {
        // 40 disjoint generators over W = 3: the descent should find the optimum
        // (each coordinate block is independent).
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
        let k = Kernel { generators };
        let m = minimum_weight(&base, &k, 3, &never).unwrap();
        assert!(!m.optimal);
        // Exact optimum: per pair (a, b) minimise (a + c) % 3 + (b + 2c) % 3.
        let exact: u64 = (0..40)
            .map(|j| {
                let (a, b) = (base[2 * j], base[2 * j + 1]);
                (0..3).map(|c| ((a + c) % 3 + (b + 2 * c) % 3) as u64).min().unwrap()
            })
            .sum();
        assert_eq!(m.cost, exact);
    }

    /// The heuristic never beats the exact answer, and usually matches it.
    #[test]
    fn heuristic_versus_exact_on_gf2() {
        let never = || false;
        let mut rng = SplitMix(11);
        let mut matches = 0;
        let rounds = 12;
        for _ in 0..rounds {
            let n = 120;
            let base: Vec<u32> = (0..n).map(|_| (rng.next() & 1) as u32).collect();
            let gens: Vec<Gen> = (0..20)
                .map(|_| Gen {
                    support: (0..n as u32).filter(|_| rng.next() % 4 == 0).map(|i| (i, 1)).collect(),
                    order: 2,
                })
                .filter(|g| !g.support.is_empty())
                .collect();
            let refs: Vec<&Gen> = gens.iter().collect();
            let mut c = Canceller::new(&never);
            let (exact, _) = wht_minimise(&base, &refs, &mut c).unwrap();
            let (x, h) = heuristic(&base, &refs, 2, &mut c).unwrap();
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
}
