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
//!    * `d <= 20`: branch and bound with transform leaves straight away;
//!    * otherwise an upper bound from one block descent (`heuristic`) and a
//!      lower bound from disjoint odd checks (`packing`; the triples are only
//!      looked for when they could reach the upper bound). When they meet the
//!      answer is proven without any search. Otherwise, above `d = 30`, the
//!      descent with restarts (as before), then the exact branch and bound
//!      (`branch`) from the best member found — without a work limit up to
//!      `d = 30` (exact whatever it costs, as before), with one above
//!      (`d <= 64`); a search cut short leaves the block unproven.

use super::branch::{self, Limits, Problem};
use super::heuristic::{heuristic, Effort};
use super::packing::{self, Cells};
use super::Gen;
use crate::cancel::Canceller;
use crate::AlgebraError;

/// Blocks up to this dimension are searched without bounds from the descent.
const DIRECT_DIM: usize = 20;
/// Blocks up to this dimension are always searched to the end.
const EXACT_DIM: usize = 30;
/// Work units (about one per group visited or butterfly) allowed to the search
/// of a block above `EXACT_DIM`: a few tens of milliseconds, about what the
/// descent costs. Enough when the bounds prune well (the search then ends
/// early); visiting all `2^31` members would take a hundred times more.
const SEARCH_BUDGET: u64 = 1 << 28;
/// Largest reduction (`dimension² × words per vector` word operations) and
/// signature table (`cells × words per signature`) the pipeline takes on for a
/// kernel above `EXACT_DIM`; beyond, it is searched by the descent alone, unproven.
const REDUCE_LIMIT: u64 = 1 << 31;
const SIGNATURE_LIMIT: u64 = 1 << 24;

/// A basis vector over the cells, as a bit set, with its pivot cell.
struct Row {
    pivot: usize,
    bits: Vec<u64>,
}

/// Basis vectors that only share cells among themselves.
struct Block {
    /// Indices into the basis, in pivot order.
    rows: Vec<usize>,
    /// The cells they touch, ascending.
    cells: Vec<usize>,
}

/// The lightest member found of `base + span(gens)` over `GF(2)`:
/// `(x, its cost as computed by the searches, proven optimal)`.
pub(super) fn minimise(
    base: &[u32],
    gens: &[&Gen],
    canc: &mut Canceller<'_>,
) -> Result<(Vec<u32>, u64, bool), AlgebraError> {
    minimise_with_budget(base, gens, SEARCH_BUDGET, canc)
}

/// [`minimise`] with the work budget of the searches above `EXACT_DIM` given.
pub(super) fn minimise_with_budget(
    base: &[u32],
    gens: &[&Gen],
    budget: u64,
    canc: &mut Canceller<'_>,
) -> Result<(Vec<u32>, u64, bool), AlgebraError> {
    let n = base.len();
    let (d, words) = (gens.len() as u64, n.div_ceil(64) as u64);
    let huge = d * d * words > REDUCE_LIMIT || n as u64 * d.div_ceil(64) > SIGNATURE_LIMIT;
    // (Up to `EXACT_DIM` the kernel is searched exactly whatever its size, as before.)
    if huge && d > EXACT_DIM as u64 {
        let (x, cost) = heuristic(base, gens, 2, 0, Effort::Full, canc)?;
        return Ok((x, cost, false));
    }
    let vectors = bit_vectors(n, gens);
    let basis = reduced_basis(&vectors, canc)?;
    let blocks = split(&basis, n);
    let mut x: Vec<u32> = base.iter().map(|&v| v & 1).collect();
    let mut in_block = vec![false; n];
    let mut reported = 0u64;
    let mut optimal = true;
    let mut local_of = vec![u32::MAX; n];
    for block in &blocks {
        for (k, &c) in block.cells.iter().enumerate() {
            local_of[c] = k as u32;
            in_block[c] = true;
        }
        let (bits, cost, proven) = solve_block(&basis, &vectors, block, &x, &local_of, budget, canc)?;
        for (k, &c) in block.cells.iter().enumerate() {
            x[c] = bits[k] as u32;
        }
        reported += cost;
        optimal &= proven;
    }
    // Cells no kernel vector touches keep their value.
    reported += (0..n).filter(|&c| !in_block[c]).map(|c| x[c] as u64).sum::<u64>();
    Ok((x, reported, optimal))
}

/// The generators mod 2, as bit sets over the cells.
fn bit_vectors(n: usize, gens: &[&Gen]) -> Vec<Vec<u64>> {
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
fn reduced_basis(vectors: &[Vec<u64>], canc: &mut Canceller<'_>) -> Result<Vec<Row>, AlgebraError> {
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
        for r in basis.iter_mut() {
            if r.bits[pivot / 64] >> (pivot % 64) & 1 == 1 {
                xor_into(&mut r.bits, &v);
            }
        }
        basis.push(Row { pivot, bits: v });
        canc.tick(2 * basis.len() * words)?;
    }
    basis.sort_unstable_by_key(|r| r.pivot);
    Ok(basis)
}

fn xor_into(dst: &mut [u64], src: &[u64]) {
    for (d, s) in dst.iter_mut().zip(src) {
        *d ^= s;
    }
}

fn lowest_bit(v: &[u64]) -> Option<usize> {
    v.iter().position(|&w| w != 0).map(|i| i * 64 + v[i].trailing_zeros() as usize)
}

/// Indices of the set bits of `v`.
fn set_bits(v: &[u64]) -> impl Iterator<Item = usize> + '_ {
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

/// Minimises one block. Returns its cells' bits (in `block.cells` order), the
/// cost reported by the search, and whether it is proven minimal.
fn solve_block(
    basis: &[Row],
    vectors: &[Vec<u64>],
    block: &Block,
    x: &[u32],
    local_of: &[u32],
    budget: u64,
    canc: &mut Canceller<'_>,
) -> Result<(Vec<u8>, u64, bool), AlgebraError> {
    let dim = block.rows.len();
    let k = block.cells.len();
    let words = dim.div_ceil(64);
    // Signatures over the block's basis vectors, in local cell numbering.
    let mut sigs = vec![0u64; k * words];
    for (j, &r) in block.rows.iter().enumerate() {
        for c in set_bits(&basis[r].bits) {
            sigs[local_of[c] as usize * words + j / 64] |= 1 << (j % 64);
        }
        canc.tick(basis[r].bits.len())?;
    }
    let bits: Vec<u8> = block.cells.iter().map(|&c| (x[c] & 1) as u8).collect();
    let no_triples = vec![false; k];
    if dim <= DIRECT_DIM {
        let p = Problem { sigs: &sigs, bits: &bits, in_triple: &no_triples, triples: 0, dim };
        let out = branch::search(&p, u64::MAX, Limits::default(), canc)?;
        let (cost, mask) = out.best.ok_or_else(|| AlgebraError::Internal("exhaustive search found nothing".into()))?;
        return Ok((apply_mask(&sigs, &bits, mask), cost, out.complete));
    }

    // An upper bound from the descent, a lower bound from odd checks: on many
    // symmetric boards they meet. The triples (a search over all pairs of
    // signatures) are only looked for when they could prove the cost found.
    let cells = Cells { sigs: &sigs, words, bits: &bits };
    let classes = packing::Classes::new(&cells, canc)?;
    // The descent works with the caller's generators restricted to the
    // block's cells (they span it: the kernel is the direct sum of its
    // blocks), in the caller's order: for a kernel in one block that is the
    // descent used before the exact searches existed, with the same result.
    let mut mask = vec![0u64; vectors.first().map_or(0, Vec::len)];
    for &c in &block.cells {
        mask[c / 64] |= 1 << (c % 64);
    }
    let gens: Vec<Gen> = vectors
        .iter()
        .map(|v| {
            let restricted: Vec<u64> = v.iter().zip(&mask).map(|(a, m)| a & m).collect();
            Gen { support: set_bits(&restricted).map(|c| (local_of[c], 1)).collect(), order: 2 }
        })
        .filter(|g| !g.support.is_empty())
        .collect();
    let refs: Vec<&Gen> = gens.iter().collect();
    let start: Vec<u32> = bits.iter().map(|&b| b as u32).collect();
    // One descent first (stopped as soon as odd checks could prove it): on
    // many symmetric boards the triples then prove it at once.
    let pairs = classes.pairs_only(&cells);
    let ceiling = classes.ceiling();
    let (mut hx, mut hcost) = heuristic(&start, &refs, 2, ceiling.max(pairs.bound), Effort::Quick, canc)?;
    let mut packing = if hcost <= ceiling { classes.with_triples(&cells, canc)? } else { pairs };
    if hcost > packing.bound && dim > EXACT_DIM {
        // The search below may not finish: the descent with its restarts too
        // (from the start, as before the exact searches existed).
        let (fx, fcost) = heuristic(&start, &refs, 2, packing.bound, Effort::Full, canc)?;
        if fcost < hcost {
            (hx, hcost) = (fx, fcost);
            if hcost <= ceiling && packing.triples == 0 {
                packing = classes.with_triples(&cells, canc)?;
            }
        }
    }
    if hcost < packing.bound {
        return Err(AlgebraError::Internal(format!(
            "minimum weight: a member of cost {hcost} beats the odd-check bound {}",
            packing.bound
        )));
    }
    let found: Vec<u8> = hx.iter().map(|&v| v as u8).collect();
    if hcost == packing.bound {
        return Ok((found, hcost, true));
    }
    if dim > 64 {
        return Ok((found, hcost, false));
    }
    let p = Problem { sigs: &sigs, bits: &bits, in_triple: &packing.in_triple, triples: packing.triples, dim };
    let budget = if dim <= EXACT_DIM { None } else { Some(budget) };
    let out = branch::search(&p, hcost, Limits { budget, leaf_dim: None }, canc)?;
    match out.best {
        Some((cost, mask)) => Ok((apply_mask(&sigs, &bits, mask), cost, out.complete)),
        None => Ok((found, hcost, out.complete)),
    }
}

/// The bits of the member with coefficient mask `mask` (one-word signatures).
fn apply_mask(sigs: &[u64], bits: &[u8], mask: u64) -> Vec<u8> {
    sigs.iter().zip(bits).map(|(&s, &b)| b ^ ((s & mask).count_ones() & 1) as u8).collect()
}
