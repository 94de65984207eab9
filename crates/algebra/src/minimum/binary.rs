//! The `W = 2` pipeline: reduce the kernel basis, split it into independent
//! blocks, and minimise each block with the cheapest method that proves it.
//!
//! 1. **Reduced echelon basis** over the cells (pivot cells in cell order):
//!    canonical, and every pivot cell has a one-bit signature.
//! 2. **Independent blocks**: basis vectors that share no cell, directly or
//!    through others, can be minimised separately (the weight is a sum over
//!    cells). A kernel of dimension 90 made of three separate boards of
//!    dimension 30 is three exact searches, not one impossible one.
//! 3. For each block of dimension `d`:
//!    * `d <= 20`: branch and bound with transform leaves straight away, to
//!      the end (at most `2^20` members);
//!    * otherwise an upper bound from one block descent (`heuristic`) and a
//!      lower bound from disjoint odd checks (`packing`; the triples are only
//!      looked for when they could reach the upper bound). When they meet the
//!      answer is proven without any search. Otherwise (`d <= 64`) the exact
//!      branch and bound (`branch`) from the best member found — to the end up
//!      to `d = 24`, above within the block's share of the call's work
//!      budget — then the descent with restarts if the search was cut short.
//!      An unfinished search still proves a lower bound: the least bound of
//!      the subtrees it left open.
//!
//! The block's lower bound (its cost when proven) adds up over the blocks.

use super::branch::{self, Limits, Problem};
use super::heuristic::{heuristic, Effort};
use super::packing::{self, Cells};
use super::{components, cost_of, restrict, Budget, Gen};
use crate::cancel::Canceller;
use crate::AlgebraError;

/// Blocks up to this dimension are searched without bounds from the descent,
/// to the end whatever the budget.
const DIRECT_DIM: usize = 20;
/// Blocks up to this dimension (and of at most `EXACT_CELLS` cells) are
/// searched to the end too, after the descent and the odd checks: at worst
/// `2^24` members in transform leaves, about `2^28` butterflies (15–20 ms).
const EXACT_DIM: usize = 24;
const EXACT_CELLS: usize = 1 << 16;
/// Part of a block's share the first (quick) descent may use.
const QUICK_PART: u64 = 4;
/// The branch and bound gets `(SEARCH_PART − 1) / SEARCH_PART` of what is left
/// after the descent and the odd checks; the descent with restarts the rest.
const SEARCH_PART: u64 = 4;
/// Branch-and-bound work units (groups visited, butterflies: vectorised) per
/// budget unit (about a nanosecond).
const BRANCH_UNITS: u64 = 16;
/// Budget units per pair of signature classes examined for odd triples, for
/// signatures of one word (two words: twice, more: four times per word).
const PAIR_COST: u64 = 3;
/// Largest reduction (`dimension² × words per vector` word operations) and
/// signature table (`cells × words per signature`) the pipeline takes on for a
/// kernel above `DIRECT_DIM`; beyond, it is searched by the descent alone, unproven.
const REDUCE_LIMIT: u64 = 1 << 27;
const SIGNATURE_LIMIT: u64 = 1 << 24;

/// A basis vector over the cells, as a bit set, with its pivot cell.
pub(super) struct Row {
    pivot: usize,
    pub(super) bits: Vec<u64>,
}

/// Basis vectors that only share cells among themselves.
struct Block {
    /// Indices into the basis, in pivot order.
    rows: Vec<usize>,
    /// The cells they touch, ascending.
    cells: Vec<usize>,
}

/// The lightest member found of `base + span(gens)` over `GF(2)`: `(x, its
/// cost as computed by the searches, a proven lower bound)`, within `budget`.
/// Generators that share no cell (through others) are first taken apart, so
/// that the reduction below works on each group alone.
pub(super) fn minimise(
    base: &[u32],
    gens: &[&Gen],
    budget: &mut Budget,
    canc: &mut Canceller<'_>,
) -> Result<(Vec<u32>, u64, u64), AlgebraError> {
    let n = base.len();
    let mut groups = components(gens, n);
    canc.tick(gens.iter().map(|g| g.support.len()).sum())?;
    if groups.len() == 1 {
        return minimise_connected(base, gens, budget, canc);
    }
    groups.sort_by_key(Vec::len);
    let large = groups.iter().filter(|g| g.len() > DIRECT_DIM).count();
    let mut large_done = 0;
    let mut x: Vec<u32> = base.iter().map(|&v| v & 1).collect();
    let mut local_of = vec![u32::MAX; n];
    let (mut cost, mut lower) = (cost_of(&x), 0u64);
    let mut lower_fixed = cost;
    for group in &groups {
        let (cells, local_base, local) = restrict(&x, gens, group, &mut local_of);
        let refs: Vec<&Gen> = local.iter().collect();
        let units = if group.len() > DIRECT_DIM {
            large_done += 1;
            budget.share(large - large_done + 1)
        } else {
            budget.left()
        };
        let mut sub = Budget::new(units);
        let (bits, c, l) = minimise_connected(&local_base, &refs, &mut sub, canc)?;
        budget.spend(units - sub.left());
        let before = cost_of(&local_base);
        for (k, &cell) in cells.iter().enumerate() {
            x[cell as usize] = bits[k];
        }
        (cost, lower, lower_fixed) = (cost - before + c, lower + l, lower_fixed - before);
    }
    Ok((x, cost, lower + lower_fixed))
}

/// [`minimise`] for generators that may share cells.
fn minimise_connected(
    base: &[u32],
    gens: &[&Gen],
    budget: &mut Budget,
    canc: &mut Canceller<'_>,
) -> Result<(Vec<u32>, u64, u64), AlgebraError> {
    let n = base.len();
    let (d, words) = (gens.len() as u64, n.div_ceil(64) as u64);
    let huge = d * d * words > REDUCE_LIMIT || n as u64 * d.div_ceil(64) > SIGNATURE_LIMIT;
    if huge && d > DIRECT_DIM as u64 {
        let (x, cost) = budget.limited(u64::MAX, |units| heuristic(base, gens, 2, 0, Effort::Full, units, canc))?;
        return Ok((x, cost, 0));
    }
    let vectors = bit_vectors(n, gens);
    let basis = reduced_basis(&vectors, canc)?;
    budget.spend(basis.len() as u64 * (vectors.len() as u64 + 1) * words);
    let mut blocks = split(&basis, n);
    // Small blocks first: they are searched to the end and leave the larger
    // ones what remains of the budget.
    blocks.sort_by_key(|b| b.rows.len());
    let mut x: Vec<u32> = base.iter().map(|&v| v & 1).collect();
    let mut in_block = vec![false; n];
    let mut reported = 0u64;
    let mut lower = 0u64;
    let mut local_of = vec![u32::MAX; n];
    let large = blocks.iter().filter(|b| b.rows.len() > DIRECT_DIM).count();
    let mut large_done = 0;
    for block in &blocks {
        for (k, &c) in block.cells.iter().enumerate() {
            local_of[c] = k as u32;
            in_block[c] = true;
        }
        let share = if block.rows.len() > DIRECT_DIM {
            large_done += 1;
            budget.share(large - large_done + 1)
        } else {
            0
        };
        let (bits, cost, bound) = solve_block(&basis, &vectors, block, &x, &local_of, share, budget, canc)?;
        for (k, &c) in block.cells.iter().enumerate() {
            x[c] = bits[k] as u32;
        }
        reported += cost;
        lower += bound;
    }
    // Cells no kernel vector touches keep their value.
    let fixed = (0..n).filter(|&c| !in_block[c]).map(|c| x[c] as u64).sum::<u64>();
    Ok((x, reported + fixed, lower + fixed))
}

/// The generators mod 2, as bit sets over the cells.
pub(super) fn bit_vectors(n: usize, gens: &[&Gen]) -> Vec<Vec<u64>> {
    gens.iter()
        .map(|g| {
            let mut v = vec![0u64; n.div_ceil(64)];
            for &(i, val) in &g.support {
                if val & 1 == 1 {
                    v[i as usize / 64] ^= 1 << (i % 64);
                }
            }
            v
        })
        .collect()
}

/// Reduced row echelon form of the vectors over the cells.
pub(super) fn reduced_basis(vectors: &[Vec<u64>], canc: &mut Canceller<'_>) -> Result<Vec<Row>, AlgebraError> {
    Ok(reduced_basis_within(vectors, usize::MAX, canc)?.unwrap_or_default())
}

/// [`reduced_basis`], given up (`None`) as soon as its rank passes `max_rank`.
pub(super) fn reduced_basis_within(
    vectors: &[Vec<u64>],
    max_rank: usize,
    canc: &mut Canceller<'_>,
) -> Result<Option<Vec<Row>>, AlgebraError> {
    let mut basis: Vec<Row> = Vec::new();
    for v in vectors {
        let mut v = v.clone();
        let words = v.len();
        for r in &basis {
            if v[r.pivot / 64] >> (r.pivot % 64) & 1 == 1 {
                xor_into(&mut v, &r.bits);
            }
        }
        let Some(pivot) = lowest_bit(&v) else { continue };
        for r in &mut basis {
            if r.bits[pivot / 64] >> (pivot % 64) & 1 == 1 {
                xor_into(&mut r.bits, &v);
            }
        }
        basis.push(Row { pivot, bits: v });
        if basis.len() > max_rank {
            return Ok(None);
        }
        canc.tick(2 * basis.len() * words)?;
    }
    basis.sort_unstable_by_key(|r| r.pivot);
    Ok(Some(basis))
}

pub(super) fn xor_into(dst: &mut [u64], src: &[u64]) {
    for (d, s) in dst.iter_mut().zip(src) {
        *d ^= s;
    }
}

pub(super) fn lowest_bit(v: &[u64]) -> Option<usize> {
    v.iter().position(|&w| w != 0).map(|i| i * 64 + v[i].trailing_zeros() as usize)
}

/// Indices of the set bits of `v`.
pub(super) fn set_bits(v: &[u64]) -> impl Iterator<Item = usize> + '_ {
    v.iter().enumerate().flat_map(|(i, &w)| {
        let mut w = w;
        std::iter::from_fn(move || {
            if w == 0 {
                return None;
            }
            let b = w.trailing_zeros() as usize;
            w &= w - 1;
            Some(i * 64 + b)
        })
    })
}

/// Groups basis vectors connected through shared cells (union–find).
fn split(basis: &[Row], n: usize) -> Vec<Block> {
    fn find(parent: &mut [usize], mut i: usize) -> usize {
        while parent[i] != i {
            parent[i] = parent[parent[i]];
            i = parent[i];
        }
        i
    }
    let mut parent: Vec<usize> = (0..basis.len()).collect();
    let mut owner = vec![usize::MAX; n];
    for (j, r) in basis.iter().enumerate() {
        for c in set_bits(&r.bits) {
            if owner[c] == usize::MAX {
                owner[c] = j;
            } else {
                let (a, b) = (find(&mut parent, owner[c]), find(&mut parent, j));
                if a != b {
                    parent[a.max(b)] = a.min(b);
                }
            }
        }
    }
    let mut block_of = vec![usize::MAX; basis.len()];
    let mut blocks: Vec<Block> = Vec::new();
    for j in 0..basis.len() {
        let root = find(&mut parent, j);
        if block_of[root] == usize::MAX {
            block_of[root] = blocks.len();
            blocks.push(Block { rows: Vec::new(), cells: Vec::new() });
        }
        blocks[block_of[root]].rows.push(j);
    }
    for (c, &o) in owner.iter().enumerate() {
        if o != usize::MAX {
            let root = find(&mut parent, o);
            blocks[block_of[root]].cells.push(c);
        }
    }
    blocks
}

/// Minimises one block with `share` work units (taken from `budget`). Returns
/// its cells' bits (in `block.cells` order), the cost reported by the search,
/// and a proven lower bound (the cost when proven minimal).
#[allow(clippy::too_many_arguments)]
fn solve_block(
    basis: &[Row],
    vectors: &[Vec<u64>],
    block: &Block,
    x: &[u32],
    local_of: &[u32],
    share: u64,
    budget: &mut Budget,
    canc: &mut Canceller<'_>,
) -> Result<(Vec<u8>, u64, u64), AlgebraError> {
    let dim = block.rows.len();
    let k = block.cells.len();
    let words = dim.div_ceil(64);
    let sigs = signatures(basis, block, local_of, canc)?;
    let bits: Vec<u8> = block.cells.iter().map(|&c| (x[c] & 1) as u8).collect();
    if dim <= DIRECT_DIM {
        return solve_small_block(&sigs, &bits, dim, budget, canc);
    }
    let start_left = budget.left();

    // An upper bound from the descent, a lower bound from odd checks: on many
    // symmetric boards they meet. The triples (a search over all pairs of
    // signatures) are only looked for when they could prove the cost found.
    let cells = Cells { sigs: &sigs, words, bits: &bits };
    let classes = packing::Classes::new(&cells, canc)?;
    // The descent works with the caller's generators restricted to the
    // block's cells (they span it: the kernel is the direct sum of its
    // blocks), in the caller's order: for a kernel in one block that is the
    // descent used before the exact searches existed, with the same result.
    let gens = restricted_generators(vectors, block, local_of);
    let refs: Vec<&Gen> = gens.iter().collect();
    let start: Vec<u32> = bits.iter().map(|&b| b as u32).collect();
    // One descent first (stopped as soon as odd checks could prove it): on
    // many symmetric boards the triples then prove it at once.
    let pairs = classes.pairs_only(&cells);
    let ceiling = classes.ceiling();
    let good = ceiling.max(pairs.bound);
    let quick = (share / QUICK_PART).max(1);
    let (mut hx, mut hcost) =
        budget.limited(quick, |units| heuristic(&start, &refs, 2, good, Effort::Quick, units, canc))?;
    let mut packing = pairs;
    let mut triples = Triples { sigs: &sigs, words, ceiling, share, start_left, tried: false };
    triples.add(hcost, &hx, &mut packing, budget, canc)?;
    if hcost < packing.bound {
        return Err(AlgebraError::Internal(format!(
            "minimum weight: a member of cost {hcost} beats the odd-check bound {}",
            packing.bound
        )));
    }
    let mut lower = packing.bound;
    if hcost > lower && dim <= 64 {
        let p = Problem { sigs: &sigs, bits: &bits, in_triple: &packing.in_triple, triples: packing.triples, dim };
        let units = triples.remaining(budget) / SEARCH_PART * (SEARCH_PART - 1);
        let exact = dim <= EXACT_DIM && k <= EXACT_CELLS;
        let limit = (!exact).then_some(units * BRANCH_UNITS);
        let out = branch::search(&p, hcost, Limits { budget: limit, leaf_dim: None }, canc)?;
        budget.spend(out.used / BRANCH_UNITS);
        lower = lower.max(out.lower);
        if let Some((cost, mask)) = out.best {
            hcost = cost;
            let bits = apply_mask(&sigs, &bits, mask);
            hx = bits.iter().map(|&b| b as u32).collect();
            // Odd checks may now prove it.
            triples.add(hcost, &hx, &mut packing, budget, canc)?;
            lower = lower.max(packing.bound);
        }
    }
    if hcost > lower {
        // Not proven: the descent with its restarts, with what is left.
        let (fx, fcost) = budget
            .limited(triples.remaining(budget), |units| heuristic(&hx, &refs, 2, lower, Effort::Full, units, canc))?;
        if fcost < hcost {
            (hx, hcost) = (fx, fcost);
            // Odd checks may now prove it.
            triples.add(hcost, &hx, &mut packing, budget, canc)?;
            lower = lower.max(packing.bound);
        }
    }
    if hcost < lower {
        return Err(AlgebraError::Internal(format!(
            "minimum weight: a member of cost {hcost} beats the proven bound {lower}"
        )));
    }
    Ok((hx.iter().map(|&v| v as u8).collect(), hcost, lower))
}

/// The odd checks' triples of a block, looked for once, when they could
/// prove a member found (its cost at most the pairs' `ceiling`), within
/// what is left of the block's `share` (`start_left`: the budget when the
/// block started).
struct Triples<'s> {
    sigs: &'s [u64],
    words: usize,
    ceiling: u64,
    share: u64,
    start_left: u64,
    tried: bool,
}

impl Triples<'_> {
    /// What is left of the block's share.
    fn remaining(&self, budget: &Budget) -> u64 {
        self.share.saturating_sub(self.start_left - budget.left())
    }

    /// The triples are looked for from the light member found, `hx` of cost
    /// `hcost` (any member has the same odd checks; few set bits make the
    /// search short); `packing` keeps the better bound.
    fn add(
        &mut self,
        hcost: u64,
        hx: &[u32],
        packing: &mut packing::Packing,
        budget: &mut Budget,
        canc: &mut Canceller<'_>,
    ) -> Result<(), AlgebraError> {
        if hcost > self.ceiling || self.tried {
            return Ok(());
        }
        self.tried = true;
        let words = self.words;
        let light: Vec<u8> = hx.iter().map(|&v| v as u8).collect();
        let cells = Cells { sigs: self.sigs, words, bits: &light };
        let classes = packing::Classes::new(&cells, canc)?;
        let cost = PAIR_COST * if words <= 2 { words as u64 } else { 4 * words as u64 };
        let pairs = (self.remaining(budget) / cost).min(classes.pair_count());
        let p = classes.with_triples(&cells, pairs, canc)?;
        budget.spend(p.examined * cost);
        if p.bound > packing.bound {
            *packing = p;
        }
        Ok(())
    }
}

/// The signatures of a block's cells over its basis vectors (`words` words
/// a cell, bit `j` for basis vector `block.rows[j]`), in local cell numbering.
fn signatures(
    basis: &[Row],
    block: &Block,
    local_of: &[u32],
    canc: &mut Canceller<'_>,
) -> Result<Vec<u64>, AlgebraError> {
    let words = block.rows.len().div_ceil(64);
    let mut sigs = vec![0u64; block.cells.len() * words];
    for (j, &r) in block.rows.iter().enumerate() {
        for c in set_bits(&basis[r].bits) {
            sigs[local_of[c] as usize * words + j / 64] |= 1 << (j % 64);
        }
        canc.tick(basis[r].bits.len())?;
    }
    Ok(sigs)
}

/// A block of at most [`DIRECT_DIM`] dimensions, searched exhaustively:
/// what [`solve_block`] returns.
fn solve_small_block(
    sigs: &[u64],
    bits: &[u8],
    dim: usize,
    budget: &mut Budget,
    canc: &mut Canceller<'_>,
) -> Result<(Vec<u8>, u64, u64), AlgebraError> {
    let no_triples = vec![false; bits.len()];
    let p = Problem { sigs, bits, in_triple: &no_triples, triples: 0, dim };
    let out = branch::search(&p, u64::MAX, Limits::default(), canc)?;
    budget.spend(out.used / BRANCH_UNITS);
    let (cost, mask) = out
        .best
        .filter(|_| out.complete)
        .ok_or_else(|| AlgebraError::Internal("exhaustive search found nothing".into()))?;
    Ok((apply_mask(sigs, bits, mask), cost, out.lower))
}

/// The caller's generators restricted to the block's cells, in local cell
/// numbering (those with nothing left there dropped).
fn restricted_generators(vectors: &[Vec<u64>], block: &Block, local_of: &[u32]) -> Vec<Gen> {
    let mut mask = vec![0u64; vectors.first().map_or(0, Vec::len)];
    for &c in &block.cells {
        mask[c / 64] |= 1 << (c % 64);
    }
    vectors
        .iter()
        .map(|v| {
            let restricted: Vec<u64> = v.iter().zip(&mask).map(|(a, m)| a & m).collect();
            Gen { support: set_bits(&restricted).map(|c| (local_of[c], 1)).collect(), order: 2 }
        })
        .filter(|g| !g.support.is_empty())
        .collect()
}

/// The bits of the member with coefficient mask `mask` (one-word signatures).
pub(super) fn apply_mask(sigs: &[u64], bits: &[u8], mask: u64) -> Vec<u8> {
    sigs.iter().zip(bits).map(|(&s, &b)| b ^ ((s & mask).count_ones() & 1) as u8).collect()
}
