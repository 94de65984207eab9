//! Elimination of a dense GF(2) matrix by the Method of the Four Russians
//! (M4RI), with the row operations kept for certificates at no extra cost.
//!
//! **Forward pass** ([`reduce_forward`]): columns are eliminated a *block* (up
//! to 64 columns) at a time.
//!
//! 1. The block's pivots are found on the block bits alone (one `u64` per row,
//!    scanning the rows below the current rank until the block is full),
//!    reduced among themselves on those bits, and their full rows are then
//!    combined once to the same effect and swapped up to the current rank.
//! 2. The block is cut into groups of `k ≤ 8` columns. For each group a table
//!    of all `2^k` combinations of that group's pivot rows is built (one XOR per
//!    entry, each entry extending an earlier one by one row).
//! 3. Every row below reads its block bits and XORs in one entry per group, in
//!    a single fused pass over its words right of the block start.
//!
//! So each row is read and written once per block instead of once per column,
//! and the inner loop is a plain word-parallel XOR the compiler vectorises. The
//! result is a row echelon form whose pivot rows are reduced within their block.
//!
//! **Upward pass** ([`Echelon::reduce_upward`], optional): the same tables,
//! block by block from the last, clear the pivot columns from the rows above,
//! giving the reduced echelon form. Back-substitution is cheaper when only a few
//! vectors are wanted; the caller chooses with [`Echelon::upward_cost`].
//!
//! **Certificates for free.** The tables never touch the pivot columns: a row's
//! bits there are left as they were, and they say exactly which pivot rows were
//! added to it (where the echelon form has zeros anyway). Together with the
//! per-block log (swaps and the small pivot-combination matrix), this stores the
//! whole transformation `T` with `T·A = E` inside the matrix, and a row of `T`
//! is recovered backwards, block by block, in about `rows` bit reads per block
//! ([`Echelon::row_combination`]). Consistent systems pay nothing for it.

use crate::bitmatrix::{xor4, BitMatrix};
use crate::cancel::Canceller;
use crate::AlgebraError;

/// Block and group sizes.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Params {
    /// Columns per block, `1..=64`.
    pub(crate) block: usize,
    /// Columns per table, `1..=8`.
    pub(crate) group: usize,
}

impl Params {
    /// Sizes that suit a matrix of `rows` rows of `words` words: a table of
    /// `2^k` rows only pays off when many rows use it, and small tables stay in
    /// the cache. Four tables per block: one fused pass reads four table rows
    /// per matrix row; eight (two passes' worth of columns) once the matrix
    /// outgrows the L3 cache, where each pass over it costs memory bandwidth.
    /// (Measured on the 2-core development machine, 32 MB of L3: from 2,000 to
    /// 8,000 rows 6-column groups beat 8-column ones by 10–15 %; at 10,000
    /// rows 8-column groups of 4 or 8 tables are within 5 %; at 20,000 rows
    /// (50 MB) 8 tables save 15–20 %.)
    pub(crate) fn for_shape(rows: usize, words: usize) -> Params {
        let group = match rows {
            0..=63 => 2,
            64..=767 => 4,
            768..=8191 => 6,
            _ => 8,
        };
        let tables = if rows.saturating_mul(words) > 3 << 20 { 8 } else { 4 };
        Params { block: tables * group, group }
    }
}

/// What one block of the forward pass did, for [`Echelon::row_combination`]
/// and the upward pass.
#[derive(Clone, Debug)]
struct BlockLog {
    /// First column of the block.
    c0: usize,
    /// Number of columns of the block.
    len: usize,
    /// The pivots were placed at slots `first_slot ..`.
    first_slot: usize,
    /// Pivot columns relative to `c0`, increasing; pivot `a` is at `first_slot + a`.
    leads: Vec<u8>,
    /// Row swaps, in the order done.
    swaps: Vec<(u32, u32)>,
    /// The new pivot row `a` is the XOR of the old rows `first_slot + b` for the
    /// bits `b` of `combos[a]` (on the columns from `c0` on).
    combos: Vec<u64>,
}

impl BlockLog {
    fn lead_mask(&self) -> u64 {
        self.leads.iter().fold(0u64, |m, &l| m | 1u64 << l)
    }
}

/// A row echelon form `E = T·A` of a matrix, with `T` stored implicitly (see
/// the module docs).
pub(crate) struct Echelon {
    /// `E`, except that entries in pivot columns other than a row's own pivot
    /// hold the log of row operations (or, after the upward pass, leftovers)
    /// instead of zeros. All other entries are exact.
    pub(crate) m: BitMatrix,
    /// `(column, row)` of each pivot, by increasing column; the pivot rows are
    /// `0..rank` in this order.
    pub(crate) pivots: Vec<(usize, usize)>,
    log: Vec<BlockLog>,
    params: Params,
}

/// Bits `c .. c + len` of `row` (`len <= 64`), bit `i` = column `c + i`.
#[inline]
fn bits_at(row: &[u64], c: usize, len: usize) -> u64 {
    let (w, sh) = (c / 64, c % 64);
    let mut v = row[w] >> sh;
    if sh != 0 && sh + len > 64 {
        v |= row[w + 1] << (64 - sh);
    }
    if len < 64 {
        v &= (1u64 << len) - 1;
    }
    v
}

/// A pivot candidate of the current block.
struct Candidate {
    slot: usize,
    /// The block bits of the candidate's combination.
    mini: u64,
    /// Its pivot column (relative to the block start).
    lead: u32,
    /// Which candidates (by discovery index) are combined.
    combo: u64,
}

/// The combination tables of one block: `groups` tables of `2^group` entries
/// of `width` words (the words from the block's first word on).
#[derive(Default)]
struct Tables {
    data: Vec<u64>,
    /// Scratch: the pivot rows before and after combining.
    old: Vec<u64>,
    new: Vec<u64>,
    zero: Vec<u64>,
    groups: usize,
    group: usize,
    width: usize,
}

impl Tables {
    /// Builds the tables from the `leads.len()` pivot rows in `self.new` (each
    /// `width` words from word `c0 / 64`), after clearing in them the bits left
    /// of the block and the block's pivot columns (so the log is never touched).
    fn build(
        &mut self,
        leads: &[u8],
        c0: usize,
        len: usize,
        group: usize,
        canc: &mut Canceller<'_>,
    ) -> Result<(), AlgebraError> {
        let width = self.width;
        let low = (1u64 << (c0 % 64)) - 1;
        for a in 0..leads.len() {
            let row = &mut self.new[a * width..(a + 1) * width];
            row[0] &= !low;
            for &l in leads {
                let c = c0 % 64 + l as usize;
                row[c / 64] &= !(1u64 << (c % 64));
            }
        }
        let lead_mask = leads.iter().fold(0u64, |m, &l| m | 1u64 << l);
        let mut pivot_at = [usize::MAX; 64];
        for (a, &l) in leads.iter().enumerate() {
            pivot_at[l as usize] = a;
        }
        self.group = group;
        self.groups = len.div_ceil(group);
        let entries = 1usize << group;
        self.data.clear();
        self.data.resize(self.groups * entries * width, 0);
        self.zero.clear();
        self.zero.resize(width, 0);
        for g in 0..self.groups {
            let mask = (lead_mask >> (g * group)) & (entries as u64 - 1);
            let table = &mut self.data[g * entries * width..(g + 1) * entries * width];
            // Entries for the subsets s of the group's pivots, in increasing
            // order: s = (s without its lowest pivot) + that pivot's row.
            let mut s = 0u64;
            loop {
                s = s.wrapping_sub(mask) & mask;
                if s == 0 {
                    break;
                }
                let base = (s & (s - 1)) as usize;
                let a = pivot_at[g * group + s.trailing_zeros() as usize];
                let (head, tail) = table.split_at_mut(s as usize * width);
                let entry = &mut tail[..width];
                entry.copy_from_slice(&head[base * width..(base + 1) * width]);
                for (d, r) in entry.iter_mut().zip(&self.new[a * width..(a + 1) * width]) {
                    *d ^= *r;
                }
            }
            canc.tick(entries * width)?;
        }
        Ok(())
    }

    /// Entry `idx` of table `g` (the zero row for `g` past the last table).
    #[inline]
    fn entry(&self, g: usize, u: u64) -> &[u64] {
        if g < self.groups {
            let entries = 1usize << self.group;
            let idx = (u >> (g * self.group)) as usize & (entries - 1);
            let at = (g * entries + idx) * self.width;
            &self.data[at..at + self.width]
        } else {
            &self.zero
        }
    }

    /// `row ^= Σ_g table_g[bits of u for group g]`, four tables per pass.
    #[inline]
    fn apply(&self, row: &mut [u64], u: u64) {
        for g in (0..self.groups).step_by(4) {
            xor4(row, self.entry(g, u), self.entry(g + 1, u), self.entry(g + 2, u), self.entry(g + 3, u));
        }
    }
}

/// Forward elimination of `m` to a row echelon form (pivot rows reduced within
/// their block), keeping the row operations (see the module docs).
pub(crate) fn reduce_forward(m: BitMatrix, params: Params, canc: &mut Canceller<'_>) -> Result<Echelon, AlgebraError> {
    let block = params.block.clamp(1, 64);
    let params = Params { block, group: params.group.clamp(1, 8).min(block) };
    let mut ech = Echelon { m, pivots: Vec::new(), log: Vec::new(), params };
    let mut tables = Tables::default();
    let (mut rank, mut c0) = (0, 0);
    while c0 < ech.m.cols && rank < ech.m.rows {
        let len = block.min(ech.m.cols - c0);
        if let Some(log) = ech.block_step(c0, len, rank, &mut tables, canc)? {
            for (a, &l) in log.leads.iter().enumerate() {
                ech.pivots.push((c0 + l as usize, rank + a));
            }
            rank += log.leads.len();
            ech.log.push(log);
        }
        c0 += len;
    }
    Ok(ech)
}

impl Echelon {
    /// Eliminates columns `c0 .. c0 + len` from the rows below, given `rank`
    /// pivots so far; `None` when the block has no pivot.
    fn block_step(
        &mut self,
        c0: usize,
        len: usize,
        rank: usize,
        tables: &mut Tables,
        canc: &mut Canceller<'_>,
    ) -> Result<Option<BlockLog>, AlgebraError> {
        let cands = self.find_pivots(c0, len, rank, canc)?;
        if cands.is_empty() {
            return Ok(None);
        }
        let cands = reduce_candidates(cands)?;
        let swaps = self.move_pivots_up(&cands, rank);
        self.combine_pivots(&cands, c0, len, rank, tables)?;
        let log = BlockLog {
            c0,
            len,
            first_slot: rank,
            leads: cands.iter().map(|c| c.lead as u8).collect(),
            swaps,
            combos: cands.iter().map(|c| c.combo).collect(),
        };
        tables.build(&log.leads, c0, len, self.params.group, canc)?;
        self.apply_tables(tables, &log, rank + cands.len()..self.m.rows, canc)?;
        Ok(Some(log))
    }

    /// Scans the rows from `rank` on for pivots of the block: each row's block
    /// bits are reduced by the candidates so far, and become a new candidate
    /// when something is left. Stops early when every column has a pivot.
    fn find_pivots(
        &self,
        c0: usize,
        len: usize,
        rank: usize,
        canc: &mut Canceller<'_>,
    ) -> Result<Vec<Candidate>, AlgebraError> {
        let mut cands: Vec<Candidate> = Vec::new();
        for slot in rank..self.m.rows {
            let mut mini = bits_at(self.m.row(slot), c0, len);
            if mini == 0 {
                continue;
            }
            let mut combo = 1u64 << cands.len();
            for c in &cands {
                if (mini >> c.lead) & 1 == 1 {
                    mini ^= c.mini;
                    combo ^= c.combo;
                }
            }
            canc.tick(cands.len())?;
            if mini != 0 {
                cands.push(Candidate { slot, mini, lead: mini.trailing_zeros(), combo });
                if cands.len() == len {
                    break;
                }
            }
        }
        Ok(cands)
    }

    /// Swaps the candidate rows to slots `rank ..` (in lead order); returns the swaps.
    fn move_pivots_up(&mut self, cands: &[Candidate], rank: usize) -> Vec<(u32, u32)> {
        let mut at: Vec<usize> = cands.iter().map(|c| c.slot).collect();
        let mut swaps = Vec::new();
        let wpr = self.m.words_per_row;
        for a in 0..cands.len() {
            let (target, from) = (rank + a, at[a]);
            if from == target {
                continue;
            }
            let (lo, hi) = (target.min(from), target.max(from));
            let (head, tail) = self.m.data.split_at_mut(hi * wpr);
            head[lo * wpr..(lo + 1) * wpr].swap_with_slice(&mut tail[..wpr]);
            swaps.push((target as u32, from as u32));
            // Whichever later candidate sat at the target moved to `from`.
            if let Some(b) = at[a + 1..].iter().position(|&s| s == target) {
                at[a + 1 + b] = from;
            }
            at[a] = target;
        }
        swaps
    }

    /// Replaces the pivot rows (slots `rank ..`) by their combinations
    /// `combos`, on the columns from `c0` on; checks the block bits. Leaves the
    /// new rows (words from `c0 / 64`) in `tables.new`.
    fn combine_pivots(
        &mut self,
        cands: &[Candidate],
        c0: usize,
        len: usize,
        rank: usize,
        tables: &mut Tables,
    ) -> Result<(), AlgebraError> {
        let p = cands.len();
        let w0 = c0 / 64;
        let width = self.m.words_per_row - w0;
        tables.width = width;
        let low = (1u64 << (c0 % 64)) - 1; // bits left of the block in word w0 (the log)
        tables.old.clear();
        for a in 0..p {
            tables.old.extend_from_slice(&self.m.row(rank + a)[w0..]);
            tables.old[a * width] &= !low;
        }
        tables.new.clear();
        tables.new.resize(p * width, 0);
        for (a, cand) in cands.iter().enumerate() {
            let new = &mut tables.new[a * width..(a + 1) * width];
            let mut bits = cand.combo;
            while bits != 0 {
                let b = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                for (d, s) in new.iter_mut().zip(&tables.old[b * width..(b + 1) * width]) {
                    *d ^= *s;
                }
            }
            let row = &mut self.m.row_mut(rank + a)[w0..];
            let kept = row[0] & low;
            row.copy_from_slice(new);
            row[0] |= kept;
            if bits_at(self.m.row(rank + a), c0, len) != cand.mini || (cand.mini >> cand.lead) & 1 != 1 {
                return Err(AlgebraError::Internal("gf2 m4ri: combined pivot row has wrong block bits".into()));
            }
        }
        Ok(())
    }

    /// Clears the block's pivot columns from the rows in `slots` with the tables.
    fn apply_tables(
        &mut self,
        tables: &Tables,
        log: &BlockLog,
        slots: std::ops::Range<usize>,
        canc: &mut Canceller<'_>,
    ) -> Result<(), AlgebraError> {
        let wpr = self.m.words_per_row;
        let w0 = log.c0 / 64;
        let lead_mask = log.lead_mask();
        let work = tables.width * tables.groups.div_ceil(4);
        for row in self.m.data[slots.start * wpr..slots.end * wpr].chunks_exact_mut(wpr) {
            let u = bits_at(row, log.c0, log.len) & lead_mask;
            if u != 0 {
                tables.apply(&mut row[w0..], u);
                canc.tick(work)?;
            }
        }
        Ok(())
    }

    /// Word operations of [`Echelon::reduce_upward`], roughly.
    pub(crate) fn upward_cost(&self) -> usize {
        let wpr = self.m.words_per_row;
        let entries = 1usize << self.params.group;
        self.log
            .iter()
            .map(|log| {
                let width = wpr - log.c0 / 64;
                let groups = log.len.div_ceil(self.params.group);
                (log.first_slot * groups.div_ceil(4) + groups * entries) * width
            })
            .sum()
    }

    /// The upward pass: clears every pivot column above its pivot, block by
    /// block from the last, giving the reduced echelon form. Rows past the
    /// rank and the pivot rows of the last block keep their
    /// [`Echelon::row_combination`].
    pub(crate) fn reduce_upward(&mut self, canc: &mut Canceller<'_>) -> Result<(), AlgebraError> {
        let mut tables = Tables::default();
        let wpr = self.m.words_per_row;
        for i in (0..self.log.len()).rev() {
            let log = &self.log[i];
            if log.first_slot == 0 {
                continue;
            }
            let (w0, p) = (log.c0 / 64, log.leads.len());
            tables.width = wpr - w0;
            tables.new.clear();
            for a in 0..p {
                tables.new.extend_from_slice(&self.m.row(log.first_slot + a)[w0..]);
            }
            tables.build(&log.leads, log.c0, log.len, self.params.group, canc)?;
            let log = self.log[i].clone();
            self.apply_tables(&tables, &log, 0..log.first_slot, canc)?;
        }
        Ok(())
    }

    /// The row `y` (bits over the original rows) of the transformation `T`
    /// with `T·A = E` for slot `slot`: `yᵀ·A` is row `slot` of the echelon
    /// form. Valid for every slot after the forward pass; after the upward pass
    /// only for the slots it leaves alone (see there). Costs about `rows` bit
    /// reads per block.
    pub(crate) fn row_combination(&self, slot: usize, canc: &mut Canceller<'_>) -> Result<Vec<u64>, AlgebraError> {
        let n = self.m.rows;
        if slot >= n {
            return Err(AlgebraError::Internal(format!("gf2 m4ri: row {slot} out of range")));
        }
        let mut v = vec![0u64; n.div_ceil(64)];
        flip(&mut v, slot);
        // where_now[s]: where the row that sat at slot `s` after the block
        // being undone is at the end.
        let mut where_now: Vec<u32> = (0..n as u32).collect();
        for log in self.log.iter().rev() {
            let (r, p) = (log.first_slot, log.leads.len());
            let lead_mask = log.lead_mask();
            // Undo "each row below += the pivots named by its bits in the pivot columns".
            let mut acc = 0u64;
            for (wi, &word) in v.iter().enumerate().skip((r + p) / 64) {
                let mut bits = word;
                while bits != 0 {
                    let i = wi * 64 + bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    if i >= r + p {
                        acc ^= bits_at(self.m.row(where_now[i] as usize), log.c0, log.len) & lead_mask;
                    }
                }
            }
            canc.tick(n / 8)?;
            for (a, &l) in log.leads.iter().enumerate() {
                if (acc >> l) & 1 == 1 {
                    flip(&mut v, r + a);
                }
            }
            // Undo the combination of the pivot rows among themselves.
            let mut old = 0u64;
            for (a, &combo) in log.combos.iter().enumerate() {
                if get(&v, r + a) {
                    old ^= combo;
                }
            }
            for a in 0..p {
                if get(&v, r + a) != ((old >> a) & 1 == 1) {
                    flip(&mut v, r + a);
                }
            }
            // Undo the swaps, last first.
            for &(s, t) in log.swaps.iter().rev() {
                let (s, t) = (s as usize, t as usize);
                if get(&v, s) != get(&v, t) {
                    flip(&mut v, s);
                    flip(&mut v, t);
                }
                where_now.swap(s, t);
            }
        }
        Ok(v)
    }
}

/// Reduces the block's candidates among themselves on the block bits (each
/// then has a single 1 among the pivot columns) and orders them by pivot
/// column, renumbering the combinations accordingly.
fn reduce_candidates(mut cands: Vec<Candidate>) -> Result<Vec<Candidate>, AlgebraError> {
    let p = cands.len();
    // Back to front: candidate j is already zero on the leads of the ones before it.
    for j in (0..p).rev() {
        let (lead, mini, combo) = (cands[j].lead, cands[j].mini, cands[j].combo);
        for (i, c) in cands.iter_mut().enumerate() {
            if i != j && (c.mini >> lead) & 1 == 1 {
                c.mini ^= mini;
                c.combo ^= combo;
            }
        }
    }
    let mut order: Vec<usize> = (0..p).collect();
    order.sort_by_key(|&i| cands[i].lead);
    let mut rank_of = vec![0usize; p];
    for (a, &i) in order.iter().enumerate() {
        rank_of[i] = a;
    }
    for c in &mut cands {
        let mut renumbered = 0u64;
        for (i, &a) in rank_of.iter().enumerate() {
            renumbered |= ((c.combo >> i) & 1) << a;
        }
        c.combo = renumbered;
    }
    let mut by_lead: Vec<Option<Candidate>> = cands.into_iter().map(Some).collect();
    order
        .iter()
        .map(|&i| by_lead[i].take())
        .collect::<Option<Vec<_>>>()
        .ok_or_else(|| AlgebraError::Internal("gf2 m4ri: pivot order is not a permutation".into()))
}

fn get(v: &[u64], i: usize) -> bool {
    (v[i / 64] >> (i % 64)) & 1 == 1
}

fn flip(v: &mut [u64], i: usize) {
    v[i / 64] ^= 1u64 << (i % 64);
}
