//! Exact branch and bound over the kernel coefficients `a ∈ GF(2)^d` (`d <= 64`),
//! with a Walsh–Hadamard transform at the leaves.
//!
//! Cell `c` of the member `x₀ + Σ a_j g_j` is `x₀_c ⊕ ⟨s_c, a⟩`, `s_c` its
//! signature. The search fixes `a_0, a_1, …` one at a time. At a node, the
//! cells are grouped by their *residual* signature (the bits of `s_c` not yet
//! fixed) and their *effective* bit (`x₀_c` ⊕ the fixed part of `⟨s_c, a⟩`):
//! a group is pressed either on its cells with effective bit 1 (if
//! `⟨residual, rest⟩ = 0`) or on the others, so `Σ min(zeros, ones)` over the
//! groups, plus the exact cost of cells with no residual, plus one per packed
//! odd triple (see `packing`), is a lower bound for the whole subtree. Items are
//! kept sorted by residual signature with the next coordinate in bit 0, so the
//! two groups that merge when a coordinate is fixed are adjacent and a child is
//! built in one linear pass.
//!
//! Once `leaf_dim` coordinates or fewer remain, the subtree is solved exactly by
//! one transform of size `2^leaf_dim` (at most `2^16`, in 16-bit lanes when the
//! block has fewer than 32,768 cells: it stays in the L2 cache), whose last
//! stage only computes the maximum. With no pruning at all the search is the
//! transform chunked over the fixed prefix, at about `leaf_dim` butterflies per
//! member (plus `#groups / 2^leaf_dim` for the scatter) instead of `d`.

use super::meter::Meter;
use super::transform::{locate_max, transform_max};
use crate::cancel::Canceller;
use crate::AlgebraError;
use std::ops::{Add, Sub};

/// Work units per item of an internal node (a unit is about a butterfly of
/// the vectorised leaf transforms: a node's merge pass, tens of times more).
const NODE_COST: usize = 64;
/// Smallest and largest leaf transform (as powers of two).
const LEAF_MIN: usize = 8;
const LEAF_MAX: usize = 16;
/// Leaves have about `2^LEAF_EXTRA` entries per group of cells: the scatter
/// and the internal nodes above a leaf then cost a fraction of its butterflies.
const LEAF_EXTRA: usize = 4;

/// Cells sharing a residual signature, split by effective bit; the `free_`
/// counts leave out the cells of packed triples (whose cost the bound counts
/// as one per triple instead).
#[derive(Clone, Copy, Debug, Default)]
struct Item {
    sig: u64,
    zeros: u32,
    ones: u32,
    free_zeros: u32,
    free_ones: u32,
}

/// A `W = 2` minimum-weight problem in signature form.
pub(super) struct Problem<'a> {
    /// Per cell, `dim` bits: which basis vectors touch it.
    pub(super) sigs: &'a [u64],
    /// Per cell, the bit of `x₀`.
    pub(super) bits: &'a [u8],
    /// Per cell, whether it belongs to a packed odd triple.
    pub(super) in_triple: &'a [bool],
    /// Number of packed odd triples (each costs at least one press).
    pub(super) triples: u64,
    /// Number of coordinates (`<= 64`).
    pub(super) dim: usize,
}

/// The result of a search.
#[derive(Debug)]
pub(super) struct Outcome {
    /// The best member found strictly below the starting upper bound:
    /// `(cost, coefficient mask)`.
    pub(super) best: Option<(u64, u64)>,
    /// `true` when the search space was exhausted: nothing cheaper than
    /// `best` (or than the upper bound, if `best` is `None`) exists.
    pub(super) complete: bool,
    /// A proven lower bound on every member: the best cost (or the upper
    /// bound) when complete, else the least bound of the subtrees the budget
    /// left unexplored, if lower.
    pub(super) lower: u64,
    /// Work units spent.
    pub(super) used: u64,
}

/// How much a search may do.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Limits {
    /// Work units (about one per group visited or butterfly); `None`: no limit.
    pub(super) budget: Option<u64>,
    /// Size of the leaf transforms (as a power of two); `None`: chosen from the
    /// number of groups. Tests use small leaves to exercise the branching.
    pub(super) leaf_dim: Option<usize>,
}

struct Search<'c, 'a> {
    dim: usize,
    leaf_dim: usize,
    triples: u64,
    /// Cost to beat (the best known so far).
    best_cost: u64,
    best_mask: Option<u64>,
    /// Proven lower bound for everything: stop once `best_cost` reaches it.
    floor: u64,
    /// Work accounting (budget, units spent, cancellation).
    meter: Meter<'c, 'a>,
    /// Least bound of a subtree left unexplored when the budget ran out.
    open_min: u64,
    /// `bufs[t]` holds the two children of the node being expanded at depth `t − 1`.
    bufs: Vec<[Vec<Item>; 2]>,
    arr16: Vec<i16>,
    arr32: Vec<i32>,
}

/// The buffers of a search, kept between the searches of a caller that makes
/// many short ones (`split`): freeing and faulting them in again each time
/// cost more than the searches.
#[derive(Default)]
pub(super) struct Scratch {
    bufs: Vec<[Vec<Item>; 2]>,
    arr16: Vec<i16>,
    arr32: Vec<i32>,
}

/// Searches for a member cheaper than `upper`. Without a budget the search
/// always completes (or is cancelled).
pub(super) fn search(
    p: &Problem<'_>,
    upper: u64,
    limits: Limits,
    canc: &mut Canceller<'_>,
) -> Result<Outcome, AlgebraError> {
    search_in(p, upper, limits, &mut Scratch::default(), canc)
}

/// [`search`] with buffers kept in `scratch`.
pub(super) fn search_in(
    p: &Problem<'_>,
    upper: u64,
    limits: Limits,
    scratch: &mut Scratch,
    canc: &mut Canceller<'_>,
) -> Result<Outcome, AlgebraError> {
    let n = p.sigs.len();
    if p.dim > 64 || p.bits.len() != n || p.in_triple.len() != n || n > i32::MAX as usize {
        return Err(AlgebraError::Internal("branch and bound: inconsistent problem".into()));
    }
    if p.dim < 64 && p.sigs.iter().any(|&s| s >> p.dim != 0) {
        return Err(AlgebraError::Internal("branch and bound: signature wider than the dimension".into()));
    }
    // Root items: cells aggregated by signature.
    let mut cells: Vec<Item> = (0..n)
        .map(|c| {
            let one = (p.bits[c] & 1) as u32;
            let free = !p.in_triple[c] as u32;
            Item { sig: p.sigs[c], zeros: 1 - one, ones: one, free_zeros: (1 - one) * free, free_ones: one * free }
        })
        .collect();
    cells.sort_unstable_by_key(|it| it.sig);
    let mut root: Vec<Item> = Vec::with_capacity(cells.len());
    let (mut exact_all, mut exact_free) = (0u64, 0u64);
    for it in cells {
        if it.sig == 0 {
            exact_all += it.ones as u64;
            exact_free += it.free_ones as u64;
        } else {
            push_merge(&mut root, it);
        }
    }
    canc.tick(n)?;
    let root_bound = exact_free + groups_bound(&root) + p.triples;
    // Leaves sized so that the scatter of the groups is about one pass.
    let groups_log2 = (usize::BITS - root.len().max(1).leading_zeros()) as usize;
    let leaf_dim = limits.leaf_dim.unwrap_or((groups_log2 + LEAF_EXTRA).clamp(LEAF_MIN, LEAF_MAX)).min(p.dim);
    let mut s = Search {
        dim: p.dim,
        leaf_dim,
        triples: p.triples,
        best_cost: upper,
        best_mask: None,
        floor: root_bound,
        meter: Meter::new(limits.budget, canc),
        open_min: u64::MAX,
        bufs: std::mem::take(&mut scratch.bufs),
        arr16: std::mem::take(&mut scratch.arr16),
        arr32: std::mem::take(&mut scratch.arr32),
    };
    s.bufs.resize_with(p.dim + 1, Default::default);
    if root_bound < upper {
        s.bufs[0][0] = root;
        s.node(0, 0, (exact_all, exact_free), 0, root_bound)?;
    }
    let best = s.best_mask.map(|m| (s.best_cost, m));
    // Every member is in a subtree searched to the end (nothing below the best
    // cost), pruned (its bound reached the best cost), or left open.
    let lower = s.best_cost.min(s.open_min).max(root_bound.min(s.best_cost));
    let outcome = Outcome { best, complete: !s.meter.exhausted(), lower, used: s.meter.used() };
    (scratch.bufs, scratch.arr16, scratch.arr32) = (s.bufs, s.arr16, s.arr32);
    Ok(outcome)
}

/// Appends `it` to a list sorted by signature, merging equal signatures.
#[inline]
fn push_merge(list: &mut Vec<Item>, it: Item) {
    if let Some(last) = list.last_mut() {
        if last.sig == it.sig {
            last.zeros += it.zeros;
            last.ones += it.ones;
            last.free_zeros += it.free_zeros;
            last.free_ones += it.free_ones;
            return;
        }
    }
    list.push(it);
}

fn groups_bound(items: &[Item]) -> u64 {
    items.iter().map(|it| it.free_zeros.min(it.free_ones) as u64).sum()
}

impl Search<'_, '_> {
    /// `true` when nothing more needs to be searched.
    fn done(&self) -> bool {
        self.meter.exhausted() || self.best_cost <= self.floor
    }

    /// Notes a subtree of bound `bound` that the budget leaves unexplored.
    fn leave_open(&mut self, bound: u64) {
        self.open_min = self.open_min.min(bound);
    }

    /// Expands the node at depth `t` whose items are `bufs[t][slot]`
    /// (`bufs[0][0]` for the root), with `exact` the cost of its settled cells
    /// (all of them, and those outside packed triples) and `prefix` the
    /// coefficients fixed so far; `bound` is its lower bound.
    fn node(&mut self, t: usize, slot: usize, exact: (u64, u64), prefix: u64, bound: u64) -> Result<(), AlgebraError> {
        if self.meter.exhausted() {
            self.leave_open(bound);
            return Ok(());
        }
        if self.done() {
            return Ok(());
        }
        if self.dim - t <= self.leaf_dim {
            return self.leaf(t, slot, exact.0, prefix, bound);
        }
        let cur = std::mem::take(&mut self.bufs[t][slot]);
        if !self.meter.charge(NODE_COST * cur.len())? {
            self.bufs[t][slot] = cur;
            self.leave_open(bound);
            return Ok(());
        }
        let [mut c0, mut c1] = std::mem::take(&mut self.bufs[t + 1]);
        c0.clear();
        c1.clear();
        // Settled cells of each child: (all cells, cells outside triples).
        let (mut e0, mut f0, mut e1, mut f1) = (exact.0, exact.1, exact.0, exact.1);
        c0.reserve(cur.len());
        c1.reserve(cur.len());
        let mut i = 0;
        while i < cur.len() {
            // Items are sorted: the partner of an even signature (bit t clear)
            // is the next item if it differs only in bit t.
            let a = cur[i];
            let (even, odd) = if a.sig & 1 == 0 && i + 1 < cur.len() && cur[i + 1].sig == a.sig | 1 {
                i += 2;
                (a, cur[i - 1])
            } else if a.sig & 1 == 0 {
                i += 1;
                (a, Item::default())
            } else {
                i += 1;
                (Item::default(), a)
            };
            // a_t = 0 keeps every bit; a_t = 1 flips the cells whose signature has bit t.
            let sig = (even.sig | odd.sig) >> 1;
            let kept = Item {
                sig,
                zeros: even.zeros + odd.zeros,
                ones: even.ones + odd.ones,
                free_zeros: even.free_zeros + odd.free_zeros,
                free_ones: even.free_ones + odd.free_ones,
            };
            let one = Item {
                sig,
                zeros: even.zeros + odd.ones,
                ones: even.ones + odd.zeros,
                free_zeros: even.free_zeros + odd.free_ones,
                free_ones: even.free_ones + odd.free_zeros,
            };
            if sig == 0 {
                e0 += kept.ones as u64;
                f0 += kept.free_ones as u64;
                e1 += one.ones as u64;
                f1 += one.free_ones as u64;
            } else {
                c0.push(kept);
                c1.push(one);
            }
        }
        self.bufs[t][slot] = cur;
        // The bound counts settled cells outside triples only (triples count one each).
        let b0 = f0 + groups_bound(&c0) + self.triples;
        let b1 = f1 + groups_bound(&c1) + self.triples;
        self.bufs[t + 1] = [c0, c1];
        let order =
            if b1 < b0 { [(1u64, b1, (e1, f1)), (0, b0, (e0, f0))] } else { [(0u64, b0, (e0, f0)), (1, b1, (e1, f1))] };
        for (bit, child_bound, e) in order {
            if child_bound < self.best_cost {
                // (A child left because the budget ran out stays open.)
                self.node(t + 1, bit as usize, e, prefix | (bit << t), child_bound.max(bound))?;
            }
        }
        Ok(())
    }

    /// Solves the subtree at depth `t` by one transform over the `dim − t`
    /// remaining coordinates.
    fn leaf(&mut self, t: usize, slot: usize, exact: u64, prefix: u64, bound: u64) -> Result<(), AlgebraError> {
        let m = self.dim - t;
        let items = std::mem::take(&mut self.bufs[t][slot]);
        if !self.meter.charge(items.len() + (m << m))? {
            self.bufs[t][slot] = items;
            self.leave_open(bound);
            return Ok(());
        }
        let total: i64 = items.iter().map(|it| (it.zeros + it.ones) as i64).sum();
        // Cost of the member with transform value `v` (`v <= total`).
        let cost = |v: i64| exact + ((total - v) / 2) as u64;
        // Every partial sum of the transform is at most `total` in absolute value.
        let found = if total <= i16::MAX as i64 {
            leaf_transform(&mut self.arr16, &items, m, |v| cost(v) < self.best_cost)
        } else {
            leaf_transform(&mut self.arr32, &items, m, |v| cost(v) < self.best_cost)
        };
        self.bufs[t][slot] = items;
        let found = found?;
        if let Some((v, i)) = found {
            self.best_cost = cost(v);
            // (`t` is 64 only for a leaf of dimension 0, whose index is 0.)
            self.best_mask = Some(prefix | (i as u64).checked_shl(t as u32).unwrap_or(0));
        }
        Ok(())
    }
}

/// Values the leaf transform works in: `i16` when the cell count allows
/// (twice the lanes per vector instruction), `i32` otherwise.
trait Lane: Copy + Default + Ord + Add<Output = Self> + Sub<Output = Self> {
    fn from_i32(v: i32) -> Self;
    fn to_i64(self) -> i64;
}

impl Lane for i16 {
    fn from_i32(v: i32) -> Self {
        v as i16
    }
    fn to_i64(self) -> i64 {
        self as i64
    }
}

impl Lane for i32 {
    fn from_i32(v: i32) -> Self {
        v
    }
    fn to_i64(self) -> i64 {
        self as i64
    }
}

/// Transforms `F(s) = zeros − ones` over the `2^m` residual signatures; when
/// its largest value `v` passes `wanted`, returns `v` and its first index.
fn leaf_transform<T: Lane>(
    arr: &mut Vec<T>,
    items: &[Item],
    m: usize,
    wanted: impl Fn(i64) -> bool,
) -> Result<Option<(i64, usize)>, AlgebraError> {
    arr.clear();
    arr.resize(1 << m, T::default());
    for it in items {
        let v = &mut arr[it.sig as usize];
        *v = *v + T::from_i32(it.zeros as i32 - it.ones as i32);
    }
    if m == 0 {
        return Ok(wanted(arr[0].to_i64()).then_some((arr[0].to_i64(), 0)));
    }
    let best = transform_max(arr);
    if !wanted(best.to_i64()) {
        return Ok(None);
    }
    match locate_max(arr, best) {
        Some(i) => Ok(Some((best.to_i64(), i))),
        None => Err(AlgebraError::Internal("transform maximum not found".into())),
    }
}
