//! Gaussian elimination over GF(2) with bit-packed rows.
//!
//! Each equation is a row of bits packed 64 to a `u64`, so one XOR handles 64
//! unknowns. Rows are *windowed*: a row stores only the words between its first
//! and last nonzero word. Lights Out matrices are banded (a press touches its
//! neighbours only), and elimination in column order keeps the fill-in inside
//! the band, so a windowed row stays a few words long and a 10,000-unknown
//! board costs about `n · band²/64` word operations instead of `n³/64`.
//!
//! Pivots are found through buckets indexed by leading column: when column `c`
//! is processed, exactly the rows in bucket `c` have a 1 there (all earlier
//! columns are already eliminated). The shortest of them becomes the pivot and
//! is XORed into the others, which then move to the bucket of their new leading
//! column. No row is ever scanned for a pivot.
//!
//! Where the matrix is dense (many long rows hit by the same few columns), a
//! "Method of Four Russians" step eliminates 8 columns at once: it finds the
//! block's pivots on the 8 block bits only, tabulates all 256 XOR combinations
//! of those pivot rows, and clears the block from every other row with a single
//! XOR of one table entry. That cuts the passes over the data about fourfold
//! (a dense 10,000 × 10,000 system drops from ~5 s to ~2 s); banded puzzle
//! matrices, with short rows, stay on the one-column path.
//!
//! Where the rows still to eliminate are genuinely dense (at least one bit in
//! eight set, over at least 128 rows: random dense systems, scrambled boards,
//! the leftover corner of a wrapped board), the rest of the work goes to the
//! dense eliminator of [`crate::gf2_m4ri`] (contiguous rows, four Four-Russians
//! tables per pass) and its echelon rows come back as windowed rows. A dense
//! 10,000 × 10,000 system drops from 2–3 s here to ~0.2 s there. The density
//! test costs a pass over the rows, so it runs only where rows are long, and
//! ever more rarely after a miss; banded boards never reach it. A dense input
//! matrix is converted through column bitsets and a bit transpose.
//!
//! The result is a row echelon form; the particular solution and the kernel
//! basis come from back-substitution (one pass per free column).

use crate::cancel::Canceller;
use crate::error::{try_bit_matrix, try_transposed, try_vec, try_with_capacity};
use crate::gf2_m4ri;
use crate::linear::LinearResult;
use crate::sparse::{SparseMatrix, SparseRow};
use crate::AlgebraError;

/// A row of bits with its right-hand side. `words[t]` holds bits
/// `64·(lo + t) .. 64·(lo + t + 1)`; words before `first` are zero and kept
/// (dropping them would copy the row on every word boundary crossed by the
/// elimination). Invariant after `trim`: `words[first]` and the last word are
/// nonzero, or the row is empty.
#[derive(Clone, Debug, Default)]
struct BitRow {
    lo: usize,
    first: usize,
    words: Vec<u64>,
    rhs: bool,
}

impl BitRow {
    fn from_sparse(entries: &SparseRow, rhs: bool) -> Self {
        let odd = entries.iter().filter(|&&(_, v)| v & 1 == 1);
        let (mut min_w, mut max_w) = (usize::MAX, 0usize);
        for &(c, _) in odd.clone() {
            let w = c as usize / 64;
            min_w = min_w.min(w);
            max_w = max_w.max(w);
        }
        if min_w == usize::MAX {
            return BitRow { lo: 0, first: 0, words: Vec::new(), rhs };
        }
        let mut words = vec![0u64; max_w - min_w + 1];
        for &(c, _) in odd {
            let c = c as usize;
            words[c / 64 - min_w] ^= 1u64 << (c % 64);
        }
        let mut row = BitRow { lo: min_w, first: 0, words, rhs };
        row.trim();
        row
    }

    /// The stored nonzero span.
    fn live(&self) -> &[u64] {
        &self.words[self.first..]
    }

    /// Number of words in the nonzero span.
    fn len(&self) -> usize {
        self.words.len() - self.first
    }

    /// Bits `c .. c + k` (`k <= 32`) as an integer, bit `i` = column `c + i`.
    fn bits_at(&self, c: usize, k: usize) -> u64 {
        let word = |w: usize| -> u64 { w.checked_sub(self.lo).and_then(|t| self.words.get(t)).copied().unwrap_or(0) };
        let (w0, sh) = (c / 64, c % 64);
        let mut v = word(w0) >> sh;
        if sh + k > 64 {
            v |= word(w0 + 1) << (64 - sh);
        }
        v & ((1u64 << k) - 1)
    }

    /// The index of the first set bit.
    fn leading(&self) -> Option<usize> {
        self.words.get(self.first).map(|w| (self.lo + self.first) * 64 + w.trailing_zeros() as usize)
    }

    fn trim(&mut self) {
        while self.words.last() == Some(&0) {
            self.words.pop();
        }
        while self.first < self.words.len() && self.words[self.first] == 0 {
            self.first += 1;
        }
        if self.words.is_empty() {
            self.lo = 0;
            self.first = 0;
        }
    }

    /// `self ^= other` (bits and right-hand side).
    fn xor_assign(&mut self, other: &BitRow) {
        self.xor_words(other.lo + other.first, other.live(), other.rhs);
    }

    /// `self ^= (words placed at word index lo, rhs)`.
    fn xor_words(&mut self, lo: usize, words: &[u64], rhs: bool) {
        self.rhs ^= rhs;
        // Ignore zero words at either end so that windows do not grow needlessly.
        let lead = words.iter().take_while(|&&w| w == 0).count();
        let words = &words[lead..];
        let trail = words.iter().rev().take_while(|&&w| w == 0).count();
        let words = &words[..words.len() - trail];
        if words.is_empty() {
            return;
        }
        let other_lo = lo + lead;
        let other_hi = other_lo + words.len();
        if self.len() == 0 {
            self.words.clear();
            self.lo = other_lo;
            self.first = 0;
            self.words.extend_from_slice(words);
            return;
        }
        if other_lo < self.lo {
            let pad = self.lo - other_lo;
            self.words.splice(0..0, std::iter::repeat_n(0u64, pad));
            self.lo = other_lo;
            self.first += pad;
        }
        if other_hi > self.lo + self.words.len() {
            self.words.resize(other_hi - self.lo, 0);
        }
        let off = other_lo - self.lo;
        self.first = self.first.min(off);
        for (a, b) in self.words[off..off + words.len()].iter_mut().zip(words) {
            *a ^= *b;
        }
        self.trim();
    }
}

/// Row echelon form: pivot `(column, row)` pairs in elimination order.
struct Echelon {
    rows: Vec<BitRow>,
    pivots: Vec<(usize, usize)>,
    consistent: bool,
    /// The column from which the dense eliminator took over, if it did (read by the tests).
    #[cfg_attr(not(test), allow(dead_code))]
    dense_from: Option<usize>,
}

/// Columns handled at once by the Four Russians step (table of `2^K` rows).
const M4RI_K: usize = 8;
/// Minimum number of rows touched by a column block for the table to pay off:
/// naive elimination costs about `rows · K/2` row XORs, the table method
/// `rows + 2^K`.
const M4RI_MIN_ROWS: usize = 64;
/// Minimum row length (in words) for the table method.
const M4RI_MIN_WORDS: usize = 16;

/// Elimination state: rows, buckets of rows by leading column, zero rows,
/// pivots found so far.
struct Eliminator {
    bits: Vec<BitRow>,
    buckets: Vec<Vec<u32>>,
    zero_rows: Vec<usize>,
    pivots: Vec<(usize, usize)>,
    ncols: usize,
}

impl Eliminator {
    /// Files row `r` (whose columns before `min_col` are all zero) under its
    /// leading column.
    fn place(&mut self, r: usize, min_col: usize) -> Result<(), AlgebraError> {
        match self.bits[r].leading() {
            Some(c) if c >= min_col && c < self.ncols => self.buckets[c].push(r as u32),
            Some(c) => {
                return Err(AlgebraError::Internal(format!(
                    "gf2: leading column {c} outside {min_col}..{}",
                    self.ncols
                )))
            }
            None => self.zero_rows.push(r),
        }
        Ok(())
    }

    /// Eliminates column `c` with one pivot XORed into each row of bucket `c`.
    fn naive_column(&mut self, c: usize, canc: &mut Canceller<'_>) -> Result<(), AlgebraError> {
        let bucket = std::mem::take(&mut self.buckets[c]);
        // The shortest row makes the least fill-in.
        let Some(&piv) = bucket.iter().min_by_key(|&&r| self.bits[r as usize].len()) else {
            return Ok(());
        };
        let piv = piv as usize;
        let pivot_row = std::mem::take(&mut self.bits[piv]);
        for &r in &bucket {
            let r = r as usize;
            if r == piv {
                continue;
            }
            let row = &mut self.bits[r];
            row.xor_assign(&pivot_row);
            canc.tick(row.len() + pivot_row.len())?;
            self.place(r, c + 1)?;
        }
        self.bits[piv] = pivot_row;
        self.pivots.push((c, piv));
        Ok(())
    }

    /// Eliminates columns `c0..end` (at most `M4RI_K`) at once, "Method of Four
    /// Russians" style: find the block's pivots on the block bits only, then
    /// clear the block from every other row with a single XOR of a precomputed
    /// combination of pivot rows. Cuts the passes over a dense matrix by ~K/2.
    fn m4ri_block(&mut self, c0: usize, end: usize, canc: &mut Canceller<'_>) -> Result<(), AlgebraError> {
        let k = end - c0;
        let mut rows: Vec<usize> = Vec::new();
        for c in c0..end {
            rows.extend(std::mem::take(&mut self.buckets[c]).into_iter().map(|r| r as usize));
        }
        // Block bits of each row, kept reduced by the pivots found so far, and
        // the mask of pivots (by index in this block) applied to get there.
        let mut minis: Vec<u64> = rows.iter().map(|&r| self.bits[r].bits_at(c0, k)).collect();
        let mut masks: Vec<u32> = vec![0; rows.len()];
        let mut is_pivot = vec![false; rows.len()];
        let mut block_pivots: Vec<usize> = Vec::new(); // row ids
        for bit in 0..k {
            let Some(idx) = (0..rows.len())
                .filter(|&i| !is_pivot[i] && (minis[i] >> bit) & 1 == 1)
                .min_by_key(|&i| self.bits[rows[i]].len())
            else {
                continue;
            };
            // Materialise the reduced pivot row: original ⊕ earlier block pivots.
            let r = rows[idx];
            let mut prow = std::mem::take(&mut self.bits[r]);
            for (j, &pr) in block_pivots.iter().enumerate() {
                if (masks[idx] >> j) & 1 == 1 {
                    prow.xor_assign(&self.bits[pr]);
                }
            }
            canc.tick(prow.len() * block_pivots.len())?;
            if prow.leading() != Some(c0 + bit) {
                return Err(AlgebraError::Internal("gf2: block pivot has wrong leading column".into()));
            }
            self.bits[r] = prow;
            let j = block_pivots.len();
            let m = minis[idx];
            for i in 0..rows.len() {
                if i != idx && !is_pivot[i] && (minis[i] >> bit) & 1 == 1 {
                    minis[i] ^= m;
                    masks[i] ^= 1 << j;
                }
            }
            is_pivot[idx] = true;
            block_pivots.push(r);
            self.pivots.push((c0 + bit, r));
        }
        // Table of all combinations, flat over the union of the pivot windows:
        // entry s = XOR of the block pivots whose bits are set in s.
        let np = block_pivots.len();
        let span_lo = block_pivots.iter().map(|&r| self.bits[r].lo + self.bits[r].first).min().unwrap_or(0);
        let span_hi =
            block_pivots.iter().map(|&r| self.bits[r].lo + self.bits[r].words.len()).max().unwrap_or(0).max(span_lo);
        let width = span_hi - span_lo;
        let mut table = vec![0u64; (1usize << np) * width];
        let mut table_rhs = vec![false; 1usize << np];
        for s in 1usize..(1 << np) {
            let base = s & (s - 1);
            let pr = &self.bits[block_pivots[s.trailing_zeros() as usize]];
            let (head, tail) = table.split_at_mut(s * width);
            let entry = &mut tail[..width];
            entry.copy_from_slice(&head[base * width..(base + 1) * width]);
            let off = pr.lo + pr.first - span_lo;
            for (a, b) in entry[off..off + pr.len()].iter_mut().zip(pr.live()) {
                *a ^= *b;
            }
            table_rhs[s] = table_rhs[base] ^ pr.rhs;
            canc.tick(width)?;
        }
        for (i, &r) in rows.iter().enumerate() {
            if is_pivot[i] {
                continue;
            }
            if minis[i] != 0 {
                return Err(AlgebraError::Internal("gf2: block not cleared".into()));
            }
            let m = masks[i] as usize;
            let row = &mut self.bits[r];
            row.xor_words(span_lo, &table[m * width..(m + 1) * width], table_rhs[m]);
            canc.tick(row.len() + width)?;
            self.place(r, end)?;
        }
        Ok(())
    }
}

impl Eliminator {
    /// Whether the rows not yet eliminated at column `c` are dense enough for
    /// the dense eliminator (see [`M4riPolicy`]). Costs a walk over them (the
    /// ones are counted in a sample only).
    fn dense_enough(&self, c: usize, policy: M4riPolicy) -> bool {
        let active = self.bits.len() - self.pivots.len() - self.zero_rows.len();
        if active < policy.dense_min_rows.max(1) {
            return false;
        }
        let needed = active.saturating_mul(self.ncols - c);
        // Window lengths bound the ones from above and are cheaper to add up.
        let span: usize = self.buckets[c..].iter().flatten().map(|&r| self.bits[r as usize].len()).sum();
        if span.saturating_mul(64).saturating_mul(policy.dense_ratio) < needed {
            return false;
        }
        // The ones are estimated from a sample of about 512 rows.
        let step = (active / 512).max(1);
        let (mut sampled, mut ones) = (0usize, 0usize);
        for &r in self.buckets[c..].iter().flatten().step_by(step) {
            sampled += 1;
            ones += self.bits[r as usize].live().iter().map(|w| w.count_ones() as usize).sum::<usize>();
        }
        let ones = ones.saturating_mul(active) / sampled.max(1);
        ones.saturating_mul(policy.dense_ratio) >= needed
    }

    /// Eliminates columns `c ..` of the remaining rows with the dense Four
    /// Russians eliminator: the rows (from word `c / 64` on, right-hand side
    /// as an extra last column) go into a [`BitMatrix`](crate::BitMatrix), and its echelon rows
    /// come back as pivot rows and zero rows.
    fn finish_dense(&mut self, c: usize, canc: &mut Canceller<'_>) -> Result<(), AlgebraError> {
        let w_c = c / 64;
        let base = w_c * 64;
        let rhs_col = self.ncols - base;
        let active: Vec<usize> = self.buckets[c..].iter_mut().flat_map(std::mem::take).map(|r| r as usize).collect();
        let mut m = try_bit_matrix(active.len(), rhs_col + 1)?;
        for (i, &r) in active.iter().enumerate() {
            let row = &self.bits[r];
            let dst = m.row_mut(i);
            let start = (row.lo + row.first)
                .checked_sub(w_c)
                .ok_or_else(|| AlgebraError::Internal("gf2: row left of the dense part is not eliminated".into()))?;
            for (d, s) in dst[start..].iter_mut().zip(row.live()) {
                *d = *s;
            }
            if row.rhs {
                dst[rhs_col / 64] |= 1u64 << (rhs_col % 64);
            }
            canc.tick(row.len())?;
        }
        let params = gf2_m4ri::Params::for_shape(m.rows, m.words_per_row);
        let ech = gf2_m4ri::reduce_forward(m, params, canc)?;
        for (slot, &r) in active.iter().enumerate() {
            let pivot = ech.pivots.get(slot).map(|&(col, _)| col);
            let mut row = BitRow::default();
            match pivot {
                Some(col) if col < rhs_col => {
                    // The row left of its pivot holds the eliminator's log: clear it.
                    let mut words = ech.m.row(slot)[col / 64..].to_vec();
                    words[0] &= !0u64 << (col % 64);
                    let rhs_word = rhs_col / 64 - col / 64;
                    row.rhs = (words[rhs_word] >> (rhs_col % 64)) & 1 == 1;
                    words[rhs_word] &= !(1u64 << (rhs_col % 64));
                    row.lo = w_c + col / 64;
                    row.words = words;
                    row.trim();
                    if row.leading() != Some(base + col) {
                        return Err(AlgebraError::Internal("gf2: dense pivot row lost its pivot".into()));
                    }
                    self.pivots.push((base + col, r));
                }
                // A pivot in the right-hand side: the equation 0 = 1.
                Some(_) => {
                    row.rhs = true;
                    self.zero_rows.push(r);
                }
                None => self.zero_rows.push(r),
            }
            self.bits[r] = row;
        }
        Ok(())
    }
}

/// The equations of a GF(2) system, in either of the layouts callers have.
pub(crate) enum Gf2Input<'a> {
    /// Sparse rows (values read modulo 2).
    Rows(&'a [SparseRow]),
    /// The column-major input matrix itself: converting it straight to bit rows
    /// avoids building sparse row lists (which dominate for dense inputs).
    Columns(&'a SparseMatrix),
}

/// Whether a matrix has at least one entry in 32 (its bit matrix then takes
/// at most half the memory of its entry lists).
fn is_dense(a: &SparseMatrix) -> bool {
    let nnz: usize = a.columns.iter().map(Vec::len).sum();
    a.rows >= 64 && nnz.saturating_mul(32) >= a.rows.saturating_mul(a.cols)
}

impl Gf2Input<'_> {
    /// One bit row per equation. The buffers with one entry per equation
    /// are fallible: a board-sized system is `OutOfMemory`, not an abort.
    fn to_bit_rows(&self, rhs: &[u32]) -> Result<Vec<BitRow>, AlgebraError> {
        let rhs_bit = |i: usize| rhs.get(i).is_some_and(|&v| v & 1 == 1);
        Ok(match self {
            Gf2Input::Rows(rows) => {
                let mut bits = try_with_capacity(rows.len())?;
                bits.extend(rows.iter().enumerate().map(|(i, r)| BitRow::from_sparse(r, rhs_bit(i))));
                bits
            }
            Gf2Input::Columns(a) if is_dense(a) => {
                // Column bitsets (writes stay within one column), then a bit
                // transpose: scattering the entries straight into rows misses
                // the cache on nearly every entry of a dense matrix.
                let mut by_column = try_bit_matrix(a.cols, a.rows)?;
                for (c, col) in a.columns.iter().enumerate().take(a.cols) {
                    let bits = by_column.row_mut(c);
                    for &(r, v) in col {
                        if let (Some(w), true) = (bits.get_mut(r as usize / 64), v & 1 == 1 && (r as usize) < a.rows) {
                            *w ^= 1u64 << (r % 64);
                        }
                    }
                }
                let by_row = try_transposed(&by_column)?;
                drop(by_column);
                let mut bits = try_with_capacity(a.rows)?;
                bits.extend((0..a.rows).map(|r| {
                    let mut row = BitRow { lo: 0, first: 0, words: by_row.row(r).to_vec(), rhs: rhs_bit(r) };
                    row.trim();
                    row
                }));
                bits
            }
            Gf2Input::Columns(a) => {
                // Pass 1: word span of each row; pass 2: set (toggle) the bits.
                let mut span = try_vec(a.rows, (usize::MAX, 0usize))?;
                for (c, col) in a.columns.iter().enumerate() {
                    for &(r, v) in col {
                        if let (Some(s), true) = (span.get_mut(r as usize), v & 1 == 1) {
                            s.0 = s.0.min(c / 64);
                            s.1 = s.1.max(c / 64);
                        }
                    }
                }
                let mut bits: Vec<BitRow> = try_with_capacity(a.rows)?;
                bits.extend(span.iter().enumerate().map(|(i, &(lo, hi))| BitRow {
                    lo: if lo == usize::MAX { 0 } else { lo },
                    first: 0,
                    words: if lo == usize::MAX { Vec::new() } else { vec![0; hi - lo + 1] },
                    rhs: rhs_bit(i),
                }));
                for (c, col) in a.columns.iter().enumerate() {
                    for &(r, v) in col {
                        if let (Some(row), true) = (bits.get_mut(r as usize), v & 1 == 1) {
                            if let Some(word) = row.words.get_mut(c / 64 - row.lo) {
                                *word ^= 1u64 << (c % 64);
                            }
                        }
                    }
                }
                for row in &mut bits {
                    row.trim();
                }
                bits
            }
        })
    }
}

/// When the Four Russians step is used: at least `min_rows` rows touched by the
/// column block, with at least `min_words` words in one of them.
/// The dense switch: when at least `1/dense_ratio` of the bits of the rows
/// left to eliminate (in the columns left) are ones, and there are at least
/// `dense_min_rows` of them, the rest goes to [`crate::gf2_m4ri`].
#[derive(Clone, Copy)]
struct M4riPolicy {
    min_rows: usize,
    min_words: usize,
    dense_min_rows: usize,
    dense_ratio: usize,
}

const DEFAULT_POLICY: M4riPolicy =
    M4riPolicy { min_rows: M4RI_MIN_ROWS, min_words: M4RI_MIN_WORDS, dense_min_rows: 128, dense_ratio: 8 };

fn eliminate(
    input: &Gf2Input<'_>,
    ncols: usize,
    rhs: &[u32],
    policy: M4riPolicy,
    canc: &mut Canceller<'_>,
) -> Result<Echelon, AlgebraError> {
    let bits = input.to_bit_rows(rhs)?;
    let nrows = bits.len();
    let mut el =
        Eliminator { bits, buckets: vec![Vec::new(); ncols], zero_rows: Vec::new(), pivots: Vec::new(), ncols };
    for r in 0..el.bits.len() {
        el.place(r, 0)?;
    }
    canc.tick(nrows)?;
    let mut c = 0;
    let mut dense_from = None;
    // The density check costs a pass over the rows: it runs only where the
    // rows are long, and after each miss the next one waits twice as long.
    let (mut next_check, mut check_gap) = (0, 64);
    while c < ncols {
        let end = (c + M4RI_K).min(ncols);
        let touched: usize = el.buckets[c..end].iter().map(Vec::len).sum();
        // The table only pays off for many long rows (dense parts of the matrix);
        // banded puzzle matrices have short rows and stay on the simple path.
        let long_rows = touched >= policy.min_rows
            && el.buckets[c].iter().take(8).any(|&r| el.bits[r as usize].len() >= policy.min_words);
        if long_rows && c >= next_check {
            if el.dense_enough(c, policy) {
                el.finish_dense(c, canc)?;
                dense_from = Some(c);
                break;
            }
            next_check = c + check_gap;
            check_gap = check_gap.saturating_mul(2);
        }
        if end - c == M4RI_K && long_rows {
            el.m4ri_block(c, end, canc)?;
            c = end;
        } else {
            el.naive_column(c, canc)?;
            c += 1;
        }
    }
    let consistent = el.zero_rows.iter().all(|&r| !el.bits[r].rhs);
    Ok(Echelon { rows: el.bits, pivots: el.pivots, consistent, dense_from })
}

/// Back-substitution: fills the pivot coordinates of `x` (which must be 0 on
/// entry) from the free coordinates already set in `x`.
fn back_substitute(ech: &Echelon, x: &mut [u64], with_rhs: bool) {
    for &(c, r) in ech.pivots.iter().rev() {
        let row = &ech.rows[r];
        let mut acc = 0u64;
        for (w, xw) in row.live().iter().zip(&x[row.lo + row.first..]) {
            acc ^= w & xw;
        }
        let bit = (acc.count_ones() & 1 == 1) ^ (with_rhs && row.rhs);
        if bit {
            x[c / 64] |= 1u64 << (c % 64);
        }
    }
}

fn unpack(x: &[u64], ncols: usize) -> Vec<u32> {
    (0..ncols).map(|c| ((x[c / 64] >> (c % 64)) & 1) as u32).collect()
}

/// Solves `A·x ≡ b (mod 2)`. `rows` are the sparse rows of `A` (values are read
/// modulo 2), `rhs` the right-hand side. The kernel is returned as generators
/// of order 2 when `want_kernel` is set.
pub(crate) fn solve(
    input: Gf2Input<'_>,
    ncols: usize,
    rhs: &[u32],
    want_kernel: bool,
    canc: &mut Canceller<'_>,
) -> Result<LinearResult, AlgebraError> {
    solve_with(input, ncols, rhs, want_kernel, DEFAULT_POLICY, canc)
}

fn solve_with(
    input: Gf2Input<'_>,
    ncols: usize,
    rhs: &[u32],
    want_kernel: bool,
    policy: M4riPolicy,
    canc: &mut Canceller<'_>,
) -> Result<LinearResult, AlgebraError> {
    let ech = eliminate(&input, ncols, rhs, policy, canc)?;
    let nwords = ncols.div_ceil(64);
    let particular = if ech.consistent {
        let mut x = vec![0u64; nwords];
        back_substitute(&ech, &mut x, true);
        Some(unpack(&x, ncols))
    } else {
        None
    };
    let mut kernel = Vec::new();
    if want_kernel {
        let mut is_pivot = vec![false; ncols];
        for &(c, _) in &ech.pivots {
            is_pivot[c] = true;
        }
        let work: usize = ech.pivots.iter().map(|&(_, r)| ech.rows[r].len()).sum::<usize>() + nwords;
        for f in (0..ncols).filter(|&f| !is_pivot[f]) {
            let mut x = vec![0u64; nwords];
            x[f / 64] |= 1u64 << (f % 64);
            back_substitute(&ech, &mut x, false);
            kernel.push((unpack(&x, ncols), 2));
            canc.tick(work)?;
        }
    }
    Ok(LinearResult { consistent: ech.consistent, particular, kernel })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 25: buffers with one entry per equation are fallible. A system
    /// taller than memory is `OutOfMemory` (reported as L0205), where
    /// `vec![…; rows]` panicked or aborted the process.
    #[test]
    fn a_system_taller_than_memory_is_out_of_memory() {
        let tall = SparseMatrix { rows: 1 << 60, cols: 1, columns: vec![vec![(0, 1)]] };
        let oom = |r: Result<Vec<BitRow>, AlgebraError>| matches!(r, Err(AlgebraError::OutOfMemory { .. }));
        assert!(oom(Gf2Input::Columns(&tall).to_bit_rows(&[1])));
        let mut c = Canceller::new(&|| false);
        let r = solve(Gf2Input::Columns(&tall), 1, &[1], true, &mut c);
        assert!(matches!(r, Err(AlgebraError::OutOfMemory { .. })), "{:?}", r.err());
        // The dense layout's bit matrices too.
        use crate::BitMatrix;
        assert!(BitMatrix::try_zeros(1 << 60, 128).is_none());
        assert!(BitMatrix::try_zeros(usize::MAX, 1 << 20).is_none());
        let small = BitMatrix::try_zeros(3, 70).expect("a small matrix fits");
        assert_eq!((small.words_per_row, small.data.len()), (2, 6));
        assert!(matches!(try_bit_matrix(1 << 60, 64), Err(AlgebraError::OutOfMemory { bytes }) if bytes == 1 << 63));
    }

    struct Lcg(u64);
    impl Lcg {
        fn bit(&mut self, percent: u64) -> bool {
            self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (self.0 >> 33) % 100 < percent
        }
    }

    fn dot(row: &SparseRow, x: &[u32]) -> u32 {
        row.iter().map(|&(c, v)| v * x[c as usize]).sum::<u32>() & 1
    }

    /// The Four Russians block step (forced on for every block) agrees with the
    /// column-at-a-time path, and both produce genuine solutions and kernels.
    #[test]
    fn four_russians_matches_naive() {
        let never = || false;
        let mut rng = Lcg(99);
        let always = M4riPolicy { min_rows: 0, min_words: 0, dense_min_rows: usize::MAX, dense_ratio: 0 };
        let never_m4ri =
            M4riPolicy { min_rows: usize::MAX, min_words: usize::MAX, dense_min_rows: usize::MAX, dense_ratio: 0 };
        for round in 0..60 {
            let n = 1 + (round * 13) % 150;
            let m = 1 + (round * 29) % 170;
            let density = [3, 10, 50, 80][round % 4];
            let rows: Vec<SparseRow> =
                (0..n).map(|_| (0..m as u32).filter(|_| rng.bit(density)).map(|c| (c, 1)).collect()).collect();
            // Half of the right-hand sides are made consistent.
            let rhs: Vec<u32> = if round % 2 == 0 {
                let x: Vec<u32> = (0..m).map(|_| rng.bit(50) as u32).collect();
                rows.iter().map(|r| dot(r, &x)).collect()
            } else {
                (0..n).map(|_| rng.bit(50) as u32).collect()
            };
            let mut c = Canceller::new(&never);
            let a = solve_with(Gf2Input::Rows(&rows), m, &rhs, true, always, &mut c).unwrap();
            let b = solve_with(Gf2Input::Rows(&rows), m, &rhs, true, never_m4ri, &mut c).unwrap();
            assert_eq!(a.consistent, b.consistent);
            assert_eq!(a.kernel.len(), b.kernel.len());
            if round % 2 == 0 {
                assert!(a.consistent);
            }
            if let Some(x) = &a.particular {
                for (r, &t) in rows.iter().zip(&rhs) {
                    assert_eq!(dot(r, x), t);
                }
            }
            for (g, order) in &a.kernel {
                assert_eq!(*order, 2);
                assert!(rows.iter().all(|r| dot(r, g) == 0));
            }
        }
    }

    /// Switching to the dense eliminator part-way gives exactly the answer of
    /// the column-at-a-time path (the particular solution with free unknowns 0
    /// and the kernel basis are unique once the pivot columns are), on rows
    /// that start at random columns so that the switch happens at many places.
    #[test]
    fn dense_switch_matches_naive() {
        let never = || false;
        let mut rng = Lcg(2024);
        let never_m4ri =
            M4riPolicy { min_rows: usize::MAX, min_words: usize::MAX, dense_min_rows: usize::MAX, dense_ratio: 0 };
        let (mut switched_at_0, mut switched_later) = (0, 0);
        for round in 0..80 {
            let n = 1 + (round * 17) % 190;
            let m = 1 + (round * 31) % 210;
            let density = [5, 30, 60][round % 3];
            let rows: Vec<SparseRow> = (0..n)
                .map(|_| {
                    let start = (rng.0 >> 40) as usize % m;
                    (start as u32..m as u32).filter(|_| rng.bit(density)).map(|c| (c, 1)).collect()
                })
                .collect();
            let rhs: Vec<u32> = if round % 2 == 0 {
                let x: Vec<u32> = (0..m).map(|_| rng.bit(50) as u32).collect();
                rows.iter().map(|r| dot(r, &x)).collect()
            } else {
                (0..n).map(|_| rng.bit(50) as u32).collect()
            };
            let switch =
                M4riPolicy { min_rows: round % 9, min_words: 0, dense_min_rows: round % 5, dense_ratio: 1 << 40 };
            let mut c = Canceller::new(&never);
            let input = Gf2Input::Rows(&rows);
            let dense = eliminate(&input, m, &rhs, switch, &mut c).unwrap();
            switched_at_0 += (dense.dense_from == Some(0)) as usize;
            switched_later += dense.dense_from.is_some_and(|c| c > 0) as usize;
            let a = solve_with(Gf2Input::Rows(&rows), m, &rhs, true, switch, &mut c).unwrap();
            let b = solve_with(Gf2Input::Rows(&rows), m, &rhs, true, never_m4ri, &mut c).unwrap();
            assert_eq!(a.consistent, b.consistent, "round {round}");
            assert_eq!(a.particular, b.particular, "round {round}");
            assert_eq!(a.kernel, b.kernel, "round {round}");
            if round % 2 == 0 {
                assert!(a.consistent);
            }
            if let Some(x) = &a.particular {
                for (r, &t) in rows.iter().zip(&rhs) {
                    assert_eq!(dot(r, x), t);
                }
            }
        }
        assert!(switched_at_0 > 5 && switched_later > 10, "switches at 0: {switched_at_0}, later: {switched_later}");
    }

    #[test]
    fn column_input_matches_row_input() {
        let never = || false;
        let mut rng = Lcg(5);
        for round in 0..30 {
            let (n, m) = (1 + (round * 37) % 150, 1 + (round * 7) % 90);
            let mut a = SparseMatrix::new(n, m);
            for c in 0..m {
                for r in 0..n {
                    if rng.bit(20) {
                        a.push_entry(c, r, 1 + 2 * (rng.bit(50) as u32));
                    }
                }
            }
            let rows = a.row_lists(2);
            let rhs: Vec<u32> = (0..n).map(|_| rng.bit(50) as u32).collect();
            let mut c = Canceller::new(&never);
            let x = solve(Gf2Input::Columns(&a), m, &rhs, true, &mut c).unwrap();
            let y = solve(Gf2Input::Rows(&rows), m, &rhs, true, &mut c).unwrap();
            assert_eq!(x.consistent, y.consistent);
            assert_eq!(x.particular, y.particular);
            assert_eq!(x.kernel, y.kernel);
        }
    }
}
