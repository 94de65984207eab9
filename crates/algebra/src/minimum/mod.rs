//! Minimum number of presses: the lightest member of a coset `x₀ + kernel`.
//!
//! The cost of `x` is `Σ x_i` with entries read as integers `0..W−1` (the number
//! of presses). Finding the minimum is minimum-weight decoding, NP-hard in
//! general, so every call works within a fixed **work budget**
//! (`WORK_BUDGET`, about 10 ms of search) and reports what it proved: the
//! member found, and a **lower bound** on the minimum (equal to the cost when
//! the answer is optimal).
//!
//! First, generators that share no cell (directly or through others) are
//! taken apart: each group is minimised on its own and the costs and bounds
//! add up. Then, by modulus:
//!
//! * `W = 2` (`binary`): the basis of each group is reduced and split further
//!   into blocks that share no cell. A block is proven either by a
//!   **certificate** — disjoint odd checks (`packing`) whose number equals the
//!   cost found by the descent — or by an exact **branch and bound** over the
//!   kernel coefficients with **Walsh–Hadamard transforms** at the leaves
//!   (`branch`, `transform`). Blocks of dimension up to 24 are searched to the
//!   end; larger ones within their share of the budget (an unfinished search
//!   still bounds the minimum: by the least bound of the subtrees it left).
//! * other `W` (`general`): cells with equal kernel signatures (up to a unit)
//!   form classes with cost tables, and a **branch and bound** over the
//!   coefficients bounds each group of classes with the same residual
//!   signature by the cheapest value the subgroup its entries generate can
//!   reach (exact for composite `W`: generator orders may divide `W`). Blocks
//!   of at most `2^16` members are searched to the end (very small ones by
//!   Gray-code enumeration, `gray`). For composite `W` the coset reduced
//!   modulo each prime `p | W` gives a lower bound too (by the same pipeline,
//!   so `W = 4, 6, 12` inherit the odd-check certificates of `W = 2`); for
//!   `4 | W` those odd checks are weighed modulo 4 (`lifted`), and for
//!   `W = 4` the member found modulo 2 is lifted to its cheapest member
//!   modulo 4 (`hensel`).
//! * a caller that knows symmetries of the coset (`lights-compiler`: the
//!   board's shifts) can search only the members light on a window whose
//!   copies cover the cells (`window`, `W = 2`).
//! * whatever is left unproven: **block coordinate descent** (`heuristic`)
//!   for the member, within the budget; `optimal = false`.

mod binary;
mod branch;
mod crt;
mod general;
#[cfg(test)]
mod general_tests;
mod gray;
mod hensel;
mod heuristic;
mod lifted;
mod meter;
mod packing;
mod parts;
mod split;
mod table;
#[cfg(test)]
mod tests;
mod transform;
mod window;

pub use parts::{part_bound, Parts};
pub use window::{window_search, SymmetricWindow, WindowOutcome};

use crate::cancel::Canceller;
use crate::kernel::Kernel;
use crate::modular::{gcd, reduce_vec};
use crate::solve::check_modulus;
use crate::AlgebraError;

/// The lightest solution found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Minimum {
    /// The solution (entries `0..W`).
    pub x: Vec<u32>,
    /// `Σ x_i`, the number of presses.
    pub cost: u64,
    /// `true` when the search was exhaustive or the cost meets a proven lower
    /// bound, so `cost` is the true minimum (then `lower_bound == cost`).
    pub optimal: bool,
    /// A proven lower bound on the minimum number of presses: no solution has
    /// fewer. Equal to `cost` exactly when `optimal`; below it, the gap is what
    /// the search could not close within its work budget (0 when nothing
    /// better is known).
    pub lower_bound: u64,
}

/// Work units allowed to one call (about a nanosecond each on the 2-core
/// development machine): every search, descent and bound draws from it, so a
/// call on a 48×48 board returns within about 15 ms whatever the kernel.
/// Blocks small enough to search outright (`W = 2`: dimension up to 24; other
/// `W`: up to `2^16` members) are always searched to the end and also count.
pub(crate) const WORK_BUDGET: u64 = 10_000_000;

/// The work budget of [`minimum_weight`], for callers that scale it.
pub const DEFAULT_WORK_UNITS: u64 = WORK_BUDGET;

/// Work left for the searches of one call.
#[derive(Debug)]
pub(super) struct Budget {
    left: u64,
}

impl Budget {
    pub(super) fn new(units: u64) -> Self {
        Budget { left: units }
    }

    /// Units left.
    pub(super) fn left(&self) -> u64 {
        self.left
    }

    /// Records `units` spent (saturating at nothing left).
    pub(super) fn spend(&mut self, units: u64) {
        self.left = self.left.saturating_sub(units);
    }

    /// Runs `f` with at most `cap` of the units left (it decrements what it is
    /// given), then records what it used.
    pub(super) fn limited<T>(&mut self, cap: u64, f: impl FnOnce(&mut u64) -> T) -> T {
        let given = cap.min(self.left);
        let mut units = given;
        let out = f(&mut units);
        self.spend(given - units.min(given));
        out
    }

    /// A fair part of what is left for one of `parts` remaining tasks.
    pub(super) fn share(&self, parts: usize) -> u64 {
        self.left / parts.max(1) as u64
    }
}

/// A kernel generator restricted to its support.
pub(super) struct Gen {
    pub(super) support: Vec<(u32, u32)>,
    pub(super) order: u32,
}

/// What a pipeline found: a member, its cost, and a proven lower bound.
#[derive(Debug)]
pub(super) struct Found {
    pub(super) x: Vec<u32>,
    pub(super) cost: u64,
    pub(super) lower: u64,
}

/// Among all `particular + kernel element`, one minimising `Σ x_i`.
///
/// Every call works within a fixed budget of work (about 10 ms of search on
/// the development machine; a 48×48 board of any rule, surface and `W <= 12`
/// takes at most about 16 ms in all). The answer is exact (`optimal = true`,
/// `lower_bound == cost`) when the search finishes or a lower bound meets the
/// cost found: `W = 2` by odd-check certificates or the branch and bound over
/// independent blocks of the kernel; other `W` by a branch and bound over
/// classes of cells with equal kernel signatures (plus, for composite `W`,
/// bounds from the coset reduced modulo the primes dividing `W`). Small
/// kernels are always exact. Otherwise the best member found,
/// `optimal = false`, and the best lower bound proven. Polls `cancel()` every
/// few milliseconds.
pub fn minimum_weight(
    particular: &[u32],
    kernel: &Kernel,
    w: u32,
    cancel: &dyn Fn() -> bool,
) -> Result<Minimum, AlgebraError> {
    minimum_weight_with_budget(particular, kernel, w, WORK_BUDGET, cancel)
}

/// [`minimum_weight`] with the work budget given: work units, about a
/// nanosecond each on the development machine, counted rather than timed so
/// the answer does not depend on the machine (tests use small budgets).
pub fn minimum_weight_with_budget(
    particular: &[u32],
    kernel: &Kernel,
    w: u32,
    units: u64,
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
    let gens: Vec<Gen> = kernel
        .generators
        .iter()
        .filter_map(|g| {
            let support = sparse(&g.vector, w);
            // The order of the vector itself (the group it generates is what counts).
            let order = order_of(support.iter().map(|&(_, v)| v), w);
            (!support.is_empty() && order > 1).then_some(Gen { support, order })
        })
        .collect();
    if gens.is_empty() {
        let cost = cost_of(&base);
        return Ok(Minimum { cost, x: base, optimal: true, lower_bound: cost });
    }
    let mut budget = Budget::new(units);
    let found = minimise(&base, &gens, w, &mut budget, &mut canc)?;
    finish(found)
}

/// The minimum over `base + ⟨gens⟩` (any generating set: orders are those of
/// the vectors, and the sum need not be direct) for any `W`.
pub(super) fn minimise(
    base: &[u32],
    gens: &[Gen],
    w: u32,
    budget: &mut Budget,
    canc: &mut Canceller<'_>,
) -> Result<Found, AlgebraError> {
    let mut refs: Vec<&Gen> = gens.iter().collect();
    // Cheapest generators first: they take the fastest-changing Gray digits.
    refs.sort_by_key(|g| g.support.len());
    if w == 2 && i32::try_from(base.len()).is_ok() {
        let (x, cost, lower) = binary::minimise(base, &refs, budget, canc)?;
        return Ok(Found { x, cost, lower });
    }
    general::minimise(base, &refs, w, budget, canc)
}

/// Re-derives the cost from `x` (cheap) and checks it against the search's
/// value and its lower bound.
fn finish(found: Found) -> Result<Minimum, AlgebraError> {
    let Found { x, cost, lower } = found;
    let actual = cost_of(&x);
    if actual != cost {
        return Err(AlgebraError::Internal(format!(
            "minimum weight: search reported cost {cost} but the vector costs {actual}"
        )));
    }
    if lower > cost {
        return Err(AlgebraError::Internal(format!(
            "minimum weight: lower bound {lower} above the cost {cost} of a member"
        )));
    }
    Ok(Minimum { x, cost, optimal: lower == cost, lower_bound: lower })
}

/// The nonzero entries of `v` modulo `w`, as `(index, value)` (runs of zeros
/// are skipped eight at a time: kernel vectors of large boards are sparse).
fn sparse(v: &[u32], w: u32) -> Vec<(u32, u32)> {
    let mut out = Vec::new();
    let mut chunks = v.chunks_exact(8);
    let mut at = 0u32;
    for chunk in chunks.by_ref() {
        if chunk.iter().fold(0, |a, &b| a | b) != 0 {
            for (k, &e) in chunk.iter().enumerate() {
                if e != 0 && e % w != 0 {
                    out.push((at + k as u32, e % w));
                }
            }
        }
        at += 8;
    }
    for (k, &e) in chunks.remainder().iter().enumerate() {
        if e != 0 && e % w != 0 {
            out.push((at + k as u32, e % w));
        }
    }
    out
}

/// Groups generators connected through shared cells (union–find); each group
/// lists generator indices in their given order, the groups in order of
/// their first generator.
fn components(gens: &[&Gen], n: usize) -> Vec<Vec<usize>> {
    fn find(parent: &mut [usize], mut i: usize) -> usize {
        while parent[i] != i {
            parent[i] = parent[parent[i]];
            i = parent[i];
        }
        i
    }
    let mut parent: Vec<usize> = (0..gens.len()).collect();
    let mut owner = vec![usize::MAX; n];
    for (j, g) in gens.iter().enumerate() {
        for &(i, _) in &g.support {
            let o = owner[i as usize];
            if o == usize::MAX {
                owner[i as usize] = j;
            } else {
                let (a, b) = (find(&mut parent, o), find(&mut parent, j));
                if a != b {
                    parent[a.max(b)] = a.min(b);
                }
            }
        }
    }
    let mut index = vec![usize::MAX; gens.len()];
    let mut groups: Vec<Vec<usize>> = Vec::new();
    for j in 0..gens.len() {
        let root = find(&mut parent, j);
        if index[root] == usize::MAX {
            index[root] = groups.len();
            groups.push(Vec::new());
        }
        groups[index[root]].push(j);
    }
    groups
}

/// A group of generators on its own cells: the cells (ascending), `base` on
/// them and the generators in local numbering. `local_of` is scratch of `n`
/// entries, `u32::MAX` on the group's cells (the groups of [`components`]
/// share no cell, so one scratch that starts at `u32::MAX` serves them all).
fn restrict(base: &[u32], gens: &[&Gen], group: &[usize], local_of: &mut [u32]) -> (Vec<u32>, Vec<u32>, Vec<Gen>) {
    // Each cell once, then sorted: the supports together can be many times
    // the cells (29 dense patterns of a million cells), too many to sort.
    let mut cells: Vec<u32> = Vec::new();
    for &j in group {
        for &(i, _) in &gens[j].support {
            let slot = &mut local_of[i as usize];
            if *slot == u32::MAX {
                *slot = 0;
                cells.push(i);
            }
        }
    }
    cells.sort_unstable();
    for (k, &c) in cells.iter().enumerate() {
        local_of[c as usize] = k as u32;
    }
    let local_base = cells.iter().map(|&c| base[c as usize]).collect();
    let local = group
        .iter()
        .map(|&j| Gen {
            support: gens[j].support.iter().map(|&(i, v)| (local_of[i as usize], v)).collect(),
            order: gens[j].order,
        })
        .collect();
    (cells, local_base, local)
}

fn cost_of(x: &[u32]) -> u64 {
    x.iter().map(|&v| v as u64).sum()
}

/// The coset reduced modulo `m | w`: `(base mod m, generators mod m)`.
pub(super) fn reduce(base: &[u32], gens: &[Gen], m: u32) -> (Vec<u32>, Vec<Gen>) {
    let b = base.iter().map(|&v| v % m).collect();
    let g = gens
        .iter()
        .filter_map(|g| {
            let support: Vec<(u32, u32)> =
                g.support.iter().filter_map(|&(i, v)| (v % m != 0).then_some((i, v % m))).collect();
            let order = order_of(support.iter().map(|&(_, v)| v), m);
            (!support.is_empty() && order > 1).then_some(Gen { support, order })
        })
        .collect();
    (b, g)
}

/// The additive order in `Z/w` of a vector with the given entries.
fn order_of(entries: impl Iterator<Item = u32>, w: u32) -> u32 {
    w / entries.fold(w, gcd)
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
