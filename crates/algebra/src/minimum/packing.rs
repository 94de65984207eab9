//! A lower bound for `W = 2` from disjoint odd checks (a certificate of optimality).
//!
//! A set `Y` of cells whose signatures XOR to zero is a *check*: every member
//! `x` of the coset has the same parity on `Y` (that of `x₀`). When that parity
//! is odd, every member presses at least one cell of `Y`. Disjoint odd checks
//! therefore bound the minimum from below by their number. Two kinds are used:
//!
//! * pairs — two cells with the same signature and different `x₀` bits;
//! * triples — three cells whose signatures XOR to zero, with odd `x₀` parity.
//!
//! Many puzzles are tiled by such checks (the 48×48 torus and Klein bottle with
//! every light on are tiled by 768 odd triples, so their minimum, 768, is proven
//! without any search). The packing is chosen greedily, most constrained class
//! first; it is verified before it is returned.

use super::table::{SigTable, U64Table, WordTable};
use crate::cancel::Canceller;
use crate::AlgebraError;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// Most pairs of signature classes examined when looking for triples; beyond
/// (or beyond the caller's limit), each class is only paired with its next
/// classes (in cell order, which for boards tends to keep the local triples).
const PAIR_LIMIT: usize = 1 << 24;
/// Classes of bit 1 searched before giving up on finding any odd triple.
const SAMPLE_CLASSES: usize = 64;

/// Cells as seen by the bound: `words` 64-bit words of signature per cell.
pub(super) struct Cells<'a> {
    pub(super) sigs: &'a [u64],
    pub(super) words: usize,
    pub(super) bits: &'a [u8],
}

impl Cells<'_> {
    pub(super) fn len(&self) -> usize {
        self.bits.len()
    }

    pub(super) fn sig(&self, c: usize) -> &[u64] {
        &self.sigs[c * self.words..(c + 1) * self.words]
    }
}

/// The disjoint odd checks found.
pub(super) struct Packing {
    /// Odd pairs plus odd triples: a lower bound on the minimum weight.
    pub(super) bound: u64,
    /// Cells covered by a packed triple (pairs are not marked: cells with equal
    /// signatures stay together in the branch and bound, which counts them).
    pub(super) in_triple: Vec<bool>,
    /// Number of packed triples.
    pub(super) triples: u64,
    /// The cells of each packed triple (what `lifted` weighs modulo 4).
    pub(super) triple_cells: Vec<[u32; 3]>,
    /// Pairs of classes examined looking for triples.
    pub(super) examined: u64,
}

/// Cells sharing one signature, after removing the odd pairs among them.
struct Class {
    /// One of its cells (for the signature).
    first: usize,
    /// The `x₀` bit of the cells left over (all equal once pairs are removed).
    bit: u8,
    /// The cells left over.
    left: Vec<usize>,
}

/// The cells grouped by signature, with the odd pairs inside each group
/// counted: the first step of a packing.
pub(super) struct Classes {
    classes: Vec<Class>,
    /// The cells of each odd pair (one check each).
    pair_cells: Vec<[u32; 2]>,
}

impl Classes {
    pub(super) fn new(cells: &Cells<'_>, canc: &mut Canceller<'_>) -> Result<Self, AlgebraError> {
        let (classes, pair_cells) = classes_after_pairs(cells, canc)?;
        Ok(Classes { classes, pair_cells })
    }

    /// The odd pairs counted by the packings, as cells.
    pub(super) fn pair_cells(&self) -> &[[u32; 2]] {
        &self.pair_cells
    }

    /// The number of odd pairs.
    fn pairs(&self) -> u64 {
        self.pair_cells.len() as u64
    }

    /// The best bound odd checks could give: the pairs, and every cell left
    /// over in a triple. Below a known cost, triples cannot prove it.
    pub(super) fn ceiling(&self) -> u64 {
        self.pairs() + self.classes.iter().map(|c| c.left.len() as u64).sum::<u64>() / 3
    }

    /// The packing of the pairs alone.
    pub(super) fn pairs_only(&self, cells: &Cells<'_>) -> Packing {
        Packing {
            bound: self.pairs(),
            in_triple: vec![false; cells.len()],
            triples: 0,
            triple_cells: Vec::new(),
            examined: 0,
        }
    }

    /// Pairs of classes [`Classes::with_triples`] examines with no limit.
    pub(super) fn pair_count(&self) -> u64 {
        let k1 = self.classes.iter().filter(|c| c.bit & 1 == 1).count() as u64;
        let k0 = self.classes.len() as u64 - k1;
        k1 * k0 + k1 * k1.saturating_sub(1) / 2
    }

    /// Adds a greedy packing of odd triples to the pairs, examining at most
    /// about `max_pairs` pairs of classes.
    pub(super) fn with_triples(
        &self,
        cells: &Cells<'_>,
        max_pairs: u64,
        canc: &mut Canceller<'_>,
    ) -> Result<Packing, AlgebraError> {
        let (triples, examined) = find_triples(cells, &self.classes, max_pairs, canc)?;
        let chosen = pack(&self.classes, &triples, canc)?;
        // Assign concrete cells to the chosen triples and check each one.
        let mut in_triple = vec![false; cells.len()];
        let mut triple_cells = Vec::with_capacity(chosen.len());
        let mut left: Vec<Vec<usize>> = self.classes.iter().map(|c| c.left.clone()).collect();
        for t in &chosen {
            let mut cs = [0usize; 3];
            for (k, &class) in t.iter().enumerate() {
                cs[k] = left[class as usize]
                    .pop()
                    .ok_or_else(|| AlgebraError::Internal("odd-check packing used a class beyond its cells".into()))?;
            }
            let xor_zero = (0..cells.words).all(|w| {
                let at = |c: usize| cells.sigs[c * cells.words + w];
                at(cs[0]) ^ at(cs[1]) ^ at(cs[2]) == 0
            });
            let odd = (cells.bits[cs[0]] ^ cells.bits[cs[1]] ^ cells.bits[cs[2]]) & 1 == 1;
            if !xor_zero || !odd || cs.iter().any(|&c| in_triple[c]) {
                return Err(AlgebraError::Internal("odd-check packing produced an invalid triple".into()));
            }
            for &c in &cs {
                in_triple[c] = true;
            }
            triple_cells.push(cs.map(|c| c as u32));
        }
        Ok(Packing {
            bound: self.pairs() + chosen.len() as u64,
            in_triple,
            triples: chosen.len() as u64,
            triple_cells,
            examined,
        })
    }
}

/// Greedy packing of odd pairs and triples.
#[cfg(test)]
pub(super) fn odd_checks(cells: &Cells<'_>, canc: &mut Canceller<'_>) -> Result<Packing, AlgebraError> {
    Classes::new(cells, canc)?.with_triples(cells, u64::MAX, canc)
}

/// Groups cells by signature, counts the odd pairs inside each group and keeps
/// the cells left over (all with the same bit) as a class.
fn classes_after_pairs(
    cells: &Cells<'_>,
    canc: &mut Canceller<'_>,
) -> Result<(Vec<Class>, Vec<[u32; 2]>), AlgebraError> {
    let n = cells.len();
    let mut table = SigTable::new(n, cells.words);
    let mut groups: Vec<(Vec<usize>, Vec<usize>)> = Vec::new();
    for c in 0..n {
        let g = table.insert(c, groups.len() as u32, cells.sigs) as usize;
        if g == groups.len() {
            groups.push((Vec::new(), Vec::new()));
        }
        if cells.bits[c] & 1 == 0 {
            groups[g].0.push(c);
        } else {
            groups[g].1.push(c);
        }
    }
    canc.tick(n * cells.words)?;
    let mut pairs = Vec::new();
    let mut classes = Vec::new();
    for (zeros, ones) in groups {
        let first = zeros.first().or(ones.first()).copied().unwrap_or(0);
        pairs.extend(zeros.iter().zip(&ones).map(|(&a, &b)| [a as u32, b as u32]));
        let (bit, left) = if zeros.len() > ones.len() {
            (0, zeros[ones.len()..].to_vec())
        } else {
            (1, ones[zeros.len()..].to_vec())
        };
        if !left.is_empty() {
            classes.push(Class { first, bit, left });
        }
    }
    Ok((classes, pairs))
}

/// All triples of classes whose signatures XOR to zero with odd parity
/// (within the pair budget, see [`PAIR_LIMIT`]). An odd triple holds a class
/// of bit 1: pairs are formed from those only (with a class of bit 0, or a
/// later one of bit 1), so a light base (the descent's best member: few bits
/// set) makes the search short.
fn find_triples(
    cells: &Cells<'_>,
    classes: &[Class],
    max_pairs: u64,
    canc: &mut Canceller<'_>,
) -> Result<(Vec<[u32; 3]>, u64), AlgebraError> {
    let k = classes.len();
    let words = cells.words;
    let mut sigs = Vec::with_capacity(k * words);
    for c in classes {
        sigs.extend_from_slice(cells.sig(c.first));
    }
    let ones: Vec<usize> = (0..k).filter(|&c| classes[c].bit & 1 == 1).collect();
    let (k1, k0) = (ones.len() as u64, (k - ones.len()) as u64);
    let limit = (PAIR_LIMIT as u64).min(max_pairs);
    // Triples with one class of bit 1 first (the only ones a certificate for
    // a member with as many set bits as triples can use), then those with
    // three. Past the limit, each class of bit 1 meets the classes near it
    // (in cell order, which on boards tends to keep the local triples).
    let mixed = k1 * k0;
    let window = if mixed <= limit { k } else { (limit / (2 * k1.max(1))).max(1) as usize };
    let all_ones = limit.saturating_sub(mixed) >= k1 * k1.saturating_sub(1) / 2;
    let zeros: Vec<usize> = (0..k).filter(|&c| classes[c].bit & 1 == 0).collect();
    let plan = Plan { ones: &ones, zeros: &zeros, k, window, all_ones };
    // One table per bit: a triple's third class must have a known bit, so a
    // lookup only searches the classes it could accept (half the table: the
    // lookups are most of this function's time).
    let by_bit = [zeros.as_slice(), ones.as_slice()];
    if words == 1 {
        // Signatures of a block are nonzero, and so is the XOR of two distinct ones.
        let tables = by_bit.map(|of| {
            let mut table = U64Table::new(of.len());
            for &i in of {
                table.insert(sigs[i], i as u32);
            }
            table
        });
        return plan.scan(|a, b, bit| tables[bit].get(sigs[a] ^ sigs[b]), canc);
    }
    if words == 2 {
        let keys: Vec<u128> = sigs.chunks_exact(2).map(|s| s[0] as u128 | (s[1] as u128) << 64).collect();
        let tables = by_bit.map(|of| {
            let mut table = WordTable::new(of.len());
            for &i in of {
                table.insert(keys[i], i as u32);
            }
            table
        });
        return plan.scan(|a, b, bit| tables[bit].get(keys[a] ^ keys[b]), canc);
    }
    let tables = by_bit.map(|of| {
        let mut table = SigTable::new(of.len(), words);
        for &i in of {
            table.insert(i, i as u32, &sigs);
        }
        table
    });
    let mut xor = vec![0u64; words];
    plan.scan(
        |a, b, bit| {
            for (w, x) in xor.iter_mut().enumerate() {
                *x = sigs[a * words + w] ^ sigs[b * words + w];
            }
            tables[bit].get(&xor, &sigs)
        },
        canc,
    )
}

/// Which pairs of classes the triple search looks at.
struct Plan<'a> {
    /// The classes of bit 1, in order.
    ones: &'a [usize],
    /// The classes of bit 0, in order.
    zeros: &'a [usize],
    /// The number of classes.
    k: usize,
    /// Classes of bit 1 meet the classes at most this far from them.
    window: usize,
    /// Whether triples of three classes of bit 1 are looked for too.
    all_ones: bool,
}

impl Plan<'_> {
    /// Looks up the class `c` of bit `bit` with `s_c = s_a ⊕ s_b` (by
    /// `find(a, b, bit)`) for each pair, keeping each odd triple once; also
    /// returns the number of pairs examined (the classes within the window,
    /// of either bit: the budget's measure).
    fn scan(
        &self,
        mut find: impl FnMut(usize, usize, usize) -> Option<u32>,
        canc: &mut Canceller<'_>,
    ) -> Result<(Vec<[u32; 3]>, u64), AlgebraError> {
        let k = self.k;
        let mut triples = Vec::new();
        let mut examined = 0u64;
        // Bits (1, 0, 0): a is the only class of bit 1, b < c. When the
        // first classes of bit 1 are in none, odd triples are taken to be
        // absent (boards have them everywhere or nowhere) and the rest of
        // the search is skipped.
        for (i, &a) in self.ones.iter().enumerate() {
            if i == SAMPLE_CLASSES && triples.is_empty() {
                return Ok((triples, examined));
            }
            let (lo, hi) = (a.saturating_sub(self.window), k.min(a + self.window + 1));
            let from = self.zeros.partition_point(|&b| b < lo);
            let to = self.zeros.partition_point(|&b| b < hi);
            for &b in &self.zeros[from..to] {
                if let Some(c) = find(a, b, 0) {
                    if c as usize > b {
                        triples.push([a as u32, b as u32, c]);
                    }
                }
            }
            examined += (hi - lo) as u64;
            canc.tick(hi - lo)?;
        }
        // Bits (1, 1, 1): a < b < c.
        if self.all_ones {
            for (i, &a) in self.ones.iter().enumerate() {
                for &b in &self.ones[i + 1..] {
                    if let Some(c) = find(a, b, 1) {
                        if c as usize > b {
                            triples.push([a as u32, b as u32, c]);
                        }
                    }
                }
                examined += (self.ones.len() - i) as u64;
                canc.tick(self.ones.len() - i)?;
            }
        }
        Ok((triples, examined))
    }
}

/// Greedy packing: repeatedly take the class with the fewest usable triples
/// and use its triple whose other classes have the fewest usable triples.
fn pack(classes: &[Class], triples: &[[u32; 3]], canc: &mut Canceller<'_>) -> Result<Vec<[u32; 3]>, AlgebraError> {
    let k = classes.len();
    let mut left: Vec<usize> = classes.iter().map(|c| c.left.len()).collect();
    // Triples of each class (compressed rows).
    let mut start = vec![0usize; k + 1];
    for t in triples {
        for &c in t {
            start[c as usize + 1] += 1;
        }
    }
    for i in 0..k {
        start[i + 1] += start[i];
    }
    let mut fill = start.clone();
    let mut of_class = vec![0u32; start[k]];
    for (ti, t) in triples.iter().enumerate() {
        for &c in t {
            of_class[fill[c as usize]] = ti as u32;
            fill[c as usize] += 1;
        }
    }
    let mut alive = vec![true; triples.len()];
    let mut usable: Vec<usize> = (0..k).map(|c| start[c + 1] - start[c]).collect();
    let mut heap: BinaryHeap<Reverse<(usize, usize)>> =
        (0..k).filter(|&c| usable[c] > 0).map(|c| Reverse((usable[c], c))).collect();
    let mut chosen = Vec::new();
    while let Some(Reverse((u, c))) = heap.pop() {
        if u != usable[c] || u == 0 || left[c] == 0 {
            continue;
        }
        let mut best: Option<(usize, usize)> = None;
        for &ti in &of_class[start[c]..start[c + 1]] {
            let ti = ti as usize;
            if !alive[ti] {
                continue;
            }
            let score: usize = triples[ti].iter().map(|&o| usable[o as usize]).sum();
            if best.is_none_or(|(s, _)| score < s) {
                best = Some((score, ti));
            }
        }
        let Some((_, ti)) = best else { continue };
        let t = triples[ti];
        chosen.push(t);
        for &o in &t {
            let o = o as usize;
            left[o] -= 1;
            if left[o] > 0 {
                continue;
            }
            // Class exhausted: its triples are no longer usable.
            for &tj in &of_class[start[o]..start[o + 1]] {
                let tj = tj as usize;
                if alive[tj] {
                    alive[tj] = false;
                    for &p in &triples[tj] {
                        let p = p as usize;
                        usable[p] -= 1;
                        if left[p] > 0 && usable[p] > 0 {
                            heap.push(Reverse((usable[p], p)));
                        }
                    }
                }
            }
        }
        if left[c] > 0 && usable[c] > 0 {
            heap.push(Reverse((usable[c], c)));
        }
        canc.tick(start[c + 1] - start[c])?;
    }
    Ok(chosen)
}
