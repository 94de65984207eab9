//! Board-sized values kept in the size of what the author wrote.
//!
//! `lights on` on a 10,000×10,000 board is one word of text; [`Board`] keeps
//! it as one value (`Uniform`), an `at` list as its entries (`Sparse`), and
//! only a written grid cell by cell (`Dense`, itself as large as the text).
//! Paths that need every cell ask for one cell ([`Board::get`]), walk the
//! cells in order ([`Board::iter`]), or read the cells that differ from the
//! board's base value ([`Board::base`], [`Board::exceptions`]); nothing
//! expands a board the user wrote in one word.
//!
//! Solutions go the other way: [`Presses`] packs press counts into the
//! fewest bits a count below W needs (1 bit for W = 2), so a 10,000² answer
//! is 12.5 MB, not 400.

use lights_syntax::Span;

use crate::key::Unkeyed;

/// The cells of one board-sized value (lights, goal, a lock mask, a written
/// solution), row-major. Equality and hash are by value, whatever the written
/// form (a grid and an `at` list of the same cells are one cache key).
#[derive(Clone, Debug)]
pub struct Board {
    len: usize,
    cells: Cells,
    /// Where each cell was written, when it was (see [`CellSpans`]).
    pub cell_spans: Unkeyed<Option<CellSpans>>,
}

/// The written form. Kept canonical by the constructors: `Uniform` exactly
/// when every cell is the same.
#[derive(Clone, Debug)]
enum Cells {
    /// Every cell the same (`on`, `off`, or a grid of one value).
    Uniform(u16),
    /// 0 except the listed cells: sorted by index, no index twice, no 0 value.
    Sparse(Vec<(usize, u16)>),
    /// One value per cell.
    Dense(Vec<u16>),
}

/// Where the cells of a value were written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CellSpans {
    /// A grid: one span per cell.
    Grid(Vec<Span>),
    /// An `at` list: the entry that set a cell, else the whole list.
    List { list: Span, entries: Vec<(usize, Span)> },
}

impl CellSpans {
    /// The span of cell `i` (`None` only past the end of a grid).
    pub fn get(&self, i: usize) -> Option<Span> {
        match self {
            CellSpans::Grid(spans) => spans.get(i).copied(),
            CellSpans::List { list, entries } => match entries.binary_search_by_key(&i, |&(c, _)| c) {
                Ok(k) => Some(entries[k].1),
                Err(_) => Some(*list),
            },
        }
    }
}

impl Board {
    /// `len` cells, all `value`.
    pub fn uniform(len: usize, value: u16) -> Board {
        Board { len, cells: Cells::Uniform(value), cell_spans: Unkeyed(None) }
    }

    /// `len` cells, all 0.
    pub fn zeros(len: usize) -> Board {
        Board::uniform(len, 0)
    }

    /// One value per cell.
    pub fn dense(values: Vec<u16>) -> Board {
        let len = values.len();
        let cells = match values.first() {
            Some(&v) if values.iter().all(|&x| x == v) => Cells::Uniform(v),
            None => Cells::Uniform(0),
            _ => Cells::Dense(values),
        };
        Board { len, cells, cell_spans: Unkeyed(None) }
    }

    /// `len` cells, 0 except `entries` (index, value), in any order; a later
    /// entry for the same cell wins.
    pub fn sparse(len: usize, mut entries: Vec<(usize, u16)>) -> Board {
        entries.sort_by_key(|&(i, _)| i);
        // Keep the last of equal indices (sort is stable).
        let mut kept: Vec<(usize, u16)> = Vec::with_capacity(entries.len());
        for e in entries {
            match kept.last_mut() {
                Some(last) if last.0 == e.0 => *last = e,
                _ => kept.push(e),
            }
        }
        kept.retain(|&(i, v)| v != 0 && i < len);
        let cells = match kept.first() {
            None => Cells::Uniform(0),
            Some(&(_, v)) if kept.len() == len && kept.iter().all(|&(_, x)| x == v) => Cells::Uniform(v),
            _ => Cells::Sparse(kept),
        };
        Board { len, cells, cell_spans: Unkeyed(None) }
    }

    pub fn with_spans(mut self, spans: CellSpans) -> Board {
        self.cell_spans = Unkeyed(Some(spans));
        self
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The value of cell `i` (`i < len`).
    pub fn get(&self, i: usize) -> u16 {
        match &self.cells {
            Cells::Uniform(v) => *v,
            Cells::Sparse(entries) => match entries.binary_search_by_key(&i, |&(c, _)| c) {
                Ok(k) => entries[k].1,
                Err(_) => 0,
            },
            Cells::Dense(values) => values[i],
        }
    }

    /// Every cell in order.
    pub fn iter(&self) -> impl Iterator<Item = u16> + '_ {
        let mut next_entry = 0usize;
        (0..self.len).map(move |i| match &self.cells {
            Cells::Uniform(v) => *v,
            Cells::Dense(values) => values[i],
            Cells::Sparse(entries) => match entries.get(next_entry) {
                Some(&(c, v)) if c == i => {
                    next_entry += 1;
                    v
                }
                _ => 0,
            },
        })
    }

    /// Every cell, spelled out (for small boards and dense paths).
    pub fn to_vec(&self) -> Vec<u16> {
        match &self.cells {
            Cells::Dense(values) => values.clone(),
            _ => self.iter().collect(),
        }
    }

    /// The value most cells have in the written form: the uniform value, or 0.
    pub fn base(&self) -> u16 {
        match &self.cells {
            Cells::Uniform(v) => *v,
            _ => 0,
        }
    }

    /// The cells whose value is not [`base`](Self::base), in order.
    pub fn exceptions(&self) -> Box<dyn Iterator<Item = (usize, u16)> + '_> {
        match &self.cells {
            Cells::Uniform(_) => Box::new(std::iter::empty()),
            Cells::Sparse(entries) => Box::new(entries.iter().copied()),
            Cells::Dense(values) => Box::new(values.iter().copied().enumerate().filter(|&(_, v)| v != 0)),
        }
    }

    /// `Some(v)` when every cell is `v`.
    pub fn uniform_value(&self) -> Option<u16> {
        match &self.cells {
            Cells::Uniform(v) => Some(*v),
            Cells::Sparse(_) => None,
            Cells::Dense(values) => {
                let first = *values.first()?;
                values.iter().all(|&v| v == first).then_some(first)
            }
        }
    }

    /// Some cell is not 0.
    pub fn any_nonzero(&self) -> bool {
        match &self.cells {
            Cells::Uniform(v) => *v != 0 && self.len > 0,
            Cells::Sparse(entries) => !entries.is_empty(),
            // Canonical: a dense board is never all one value, so never all 0.
            Cells::Dense(_) => true,
        }
    }

    /// A mask of the cells not 0 in either (values become 1).
    pub fn union_mask(&self, other: &Board) -> Board {
        debug_assert_eq!(self.len, other.len);
        if !other.any_nonzero() {
            return self.clone();
        }
        if !self.any_nonzero() {
            return other.clone();
        }
        if self.base() != 0 || other.base() != 0 {
            return Board::uniform(self.len, 1);
        }
        let entries: Vec<(usize, u16)> = self.exceptions().chain(other.exceptions()).map(|(i, _)| (i, 1)).collect();
        Board::sparse(self.len, entries)
    }

    /// How many cells are not 0.
    pub fn count_nonzero(&self) -> usize {
        match &self.cells {
            Cells::Uniform(0) => 0,
            Cells::Uniform(_) => self.len,
            Cells::Sparse(entries) => entries.len(),
            Cells::Dense(values) => values.iter().filter(|&&v| v != 0).count(),
        }
    }

    /// The sum of all cells.
    pub fn total(&self) -> u64 {
        match &self.cells {
            Cells::Uniform(v) => u64::from(*v) * self.len as u64,
            Cells::Sparse(entries) => entries.iter().map(|&(_, v)| u64::from(v)).sum(),
            Cells::Dense(values) => values.iter().map(|&v| u64::from(v)).sum(),
        }
    }

    /// The same value in every cell, whatever the written forms.
    pub fn same_values(&self, other: &Board) -> bool {
        if self.len != other.len {
            return false;
        }
        match (&self.cells, &other.cells) {
            (Cells::Uniform(a), Cells::Uniform(b)) => a == b || self.len == 0,
            (Cells::Sparse(a), Cells::Sparse(b)) => a == b,
            (Cells::Dense(a), Cells::Dense(b)) => a == b,
            // Canonical forms: a uniform board never equals a non-uniform one.
            (Cells::Uniform(_), _) | (_, Cells::Uniform(_)) => false,
            _ => self.exceptions().eq(other.exceptions()),
        }
    }

    /// Sets cell `i` (the board becomes a grid: for small boards and tests).
    pub fn set(&mut self, i: usize, value: u16) {
        let mut values = self.to_vec();
        values[i] = value;
        self.cells = Board::dense(values).cells;
    }

    /// Bytes held (for caches that keep within a budget).
    pub fn heap_bytes(&self) -> usize {
        let cells = match &self.cells {
            Cells::Uniform(_) => 0,
            Cells::Sparse(e) => e.capacity() * std::mem::size_of::<(usize, u16)>(),
            Cells::Dense(v) => v.capacity() * 2,
        };
        let spans = match self.cell_spans.as_ref() {
            None => 0,
            Some(CellSpans::Grid(s)) => s.capacity() * std::mem::size_of::<Span>(),
            Some(CellSpans::List { entries, .. }) => entries.capacity() * std::mem::size_of::<(usize, Span)>(),
        };
        cells + spans
    }
}

impl PartialEq for Board {
    fn eq(&self, other: &Board) -> bool {
        self.same_values(other)
    }
}

impl Eq for Board {}

/// By value: `Uniform` is canonical (every cell the same), and any other
/// form hashes its nonzero cells in order, so a grid and a list agree.
impl std::hash::Hash for Board {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.len.hash(state);
        match &self.cells {
            Cells::Uniform(v) => (0u8, *v).hash(state),
            _ => {
                1u8.hash(state);
                for (i, v) in self.exceptions() {
                    (i, v).hash(state);
                }
            }
        }
    }
}

/// Press counts, one per cell, each below the modulus W, packed into the
/// fewest bits that hold W − 1 (1, 2, 4, 8 or 16: an entry never straddles
/// two words).
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Presses {
    len: usize,
    bits: u32,
    words: Vec<u64>,
}

impl Presses {
    /// Bits per entry for counts below `states`.
    fn bits_for(states: u32) -> u32 {
        let need = 32 - (states.max(2) - 1).leading_zeros();
        need.next_power_of_two().min(32)
    }

    /// `len` zeros, for counts below `states`.
    pub fn zeros(len: usize, states: u32) -> Presses {
        let bits = Self::bits_for(states);
        Presses { len, bits, words: vec![0; (len * bits as usize).div_ceil(64)] }
    }

    /// From one count per cell (each below `states`).
    pub fn from_values(values: &[u32], states: u32) -> Presses {
        let mut p = Presses::zeros(values.len(), states);
        for (i, &v) in values.iter().enumerate().filter(|(_, &v)| v != 0) {
            p.set(i, v);
        }
        p
    }

    /// W = 2 presses from bit rows: row `r` of `width` cells is `row(r)`, bit
    /// `c` of word `c / 64` (the layout of the fast paths' bit grids).
    pub fn from_bit_rows<'a>(height: usize, width: usize, row: impl Fn(usize) -> &'a [u64]) -> Presses {
        let mut p = Presses::zeros(height * width, 2);
        for r in 0..height {
            let src = row(r);
            let start = r * width;
            // Copy `width` bits to bit offset `start`, a word at a time.
            let (word, shift) = (start / 64, (start % 64) as u32);
            let mut done = 0;
            for (k, &w) in src.iter().enumerate() {
                let take = (width - k * 64).min(64);
                if take == 0 {
                    break;
                }
                let w = if take < 64 { w & ((1u64 << take) - 1) } else { w };
                let at = word + k;
                p.words[at] |= w << shift;
                if shift > 0 && at + 1 < p.words.len() {
                    p.words[at + 1] |= w >> (64 - shift);
                }
                done += take;
            }
            debug_assert_eq!(done, width);
        }
        p
    }

    /// W = 2 presses from a bit grid's buffer, reusing it: `rows` rows of
    /// `width` bits, each padded to `words_per_row` words, are packed end
    /// to end in place (a packed bit never lies after its padded place, so
    /// every word is read before it is overwritten). No second board-sized
    /// buffer: what makes 100,000² fit.
    pub fn from_padded_bits(mut words: Vec<u64>, rows: usize, width: usize, words_per_row: usize) -> Presses {
        let len = rows * width;
        let (mut acc, mut filled, mut out) = (0u64, 0u32, 0usize);
        for r in 0..rows {
            let mut left = width;
            for k in 0..words_per_row {
                if left == 0 {
                    break;
                }
                let take = left.min(64);
                let mut w = words[r * words_per_row + k];
                if take < 64 {
                    w &= (1u64 << take) - 1;
                }
                left -= take;
                // Append `take` bits of `w` to the output stream.
                acc |= w << filled;
                let total = filled + take as u32;
                if total >= 64 {
                    words[out] = acc;
                    out += 1;
                    acc = if filled == 0 { 0 } else { w >> (64 - filled) };
                    filled = total - 64;
                } else {
                    filled = total;
                }
            }
        }
        if filled > 0 {
            words[out] = acc;
            out += 1;
        }
        words.truncate(out);
        words.resize(len.div_ceil(64), 0);
        words.shrink_to_fit();
        Presses { len, bits: 1, words }
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The count of cell `i`.
    pub fn get(&self, i: usize) -> u32 {
        let bit = i * self.bits as usize;
        let mask = if self.bits == 32 { u32::MAX as u64 } else { (1u64 << self.bits) - 1 };
        ((self.words[bit / 64] >> (bit % 64)) & mask) as u32
    }

    /// Sets the count of cell `i` (it must fit the modulus given at creation).
    pub fn set(&mut self, i: usize, value: u32) {
        let bit = i * self.bits as usize;
        let mask = if self.bits == 32 { u32::MAX as u64 } else { (1u64 << self.bits) - 1 };
        debug_assert!(u64::from(value) <= mask);
        let w = &mut self.words[bit / 64];
        *w = (*w & !(mask << (bit % 64))) | (u64::from(value) & mask) << (bit % 64);
    }

    /// Every count in order.
    pub fn iter(&self) -> impl Iterator<Item = u32> + '_ {
        (0..self.len).map(|i| self.get(i))
    }

    /// The counts of cells `start..start + n` into `out` (cleared first).
    pub fn row_into(&self, start: usize, n: usize, out: &mut Vec<u32>) {
        out.clear();
        out.extend((start..start + n).map(|i| self.get(i)));
    }

    pub fn to_vec(&self) -> Vec<u32> {
        self.iter().collect()
    }

    /// Whether each of cells `start..start + n` is pressed, as bits (cell
    /// `start + k` is bit `k % 64` of word `k / 64`), into `out`; a word at a
    /// time for W = 2.
    pub fn pressed_bits_into(&self, start: usize, n: usize, out: &mut Vec<u64>) {
        out.clear();
        out.resize(n.div_ceil(64), 0);
        if self.bits != 1 {
            for k in (0..n).filter(|&k| self.get(start + k) != 0) {
                out[k / 64] |= 1 << (k % 64);
            }
            return;
        }
        let shift = start % 64;
        let first = start / 64;
        for (k, o) in out.iter_mut().enumerate() {
            let lo = self.words.get(first + k).copied().unwrap_or(0) >> shift;
            let hi = if shift == 0 { 0 } else { self.words.get(first + k + 1).copied().unwrap_or(0) << (64 - shift) };
            *o = lo | hi;
        }
        if !n.is_multiple_of(64) {
            if let Some(last) = out.last_mut() {
                *last &= (1u64 << (n % 64)) - 1;
            }
        }
    }

    /// One bit per cell (W = 2): every count is 0 or 1.
    pub fn is_binary(&self) -> bool {
        self.bits == 1
    }

    /// The largest count (0 when empty).
    pub fn max(&self) -> u32 {
        if self.bits == 1 {
            return u32::from(self.words.iter().any(|&w| w != 0));
        }
        self.nonzero().map(|(_, v)| v).max().unwrap_or(0)
    }

    /// The total number of presses.
    pub fn sum(&self) -> u64 {
        if self.bits == 1 {
            return self.words.iter().map(|w| u64::from(w.count_ones())).sum();
        }
        self.iter().map(u64::from).sum()
    }

    /// How many cells are pressed at all.
    pub fn count_nonzero(&self) -> usize {
        if self.bits == 1 {
            return self.words.iter().map(|w| w.count_ones() as usize).sum();
        }
        self.iter().filter(|&v| v != 0).count()
    }

    /// The pressed cells and their counts, in order; words of unpressed
    /// cells are skipped whole, so a sparse answer on a huge board is quick.
    pub fn nonzero(&self) -> impl Iterator<Item = (usize, u32)> + '_ {
        let per_word = (64 / self.bits) as usize;
        self.words.iter().enumerate().filter(|&(_, &w)| w != 0).flat_map(move |(k, _)| {
            let first = k * per_word;
            (first..(first + per_word).min(self.len)).map(|i| (i, self.get(i))).filter(|&(_, v)| v != 0)
        })
    }

    /// Bytes held.
    pub fn heap_bytes(&self) -> usize {
        self.words.capacity() * 8
    }
}

impl std::fmt::Debug for Presses {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.len <= 4096 {
            f.debug_list().entries(self.iter()).finish()
        } else {
            write!(f, "Presses({} cells, {} pressed)", self.len, self.count_nonzero())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn forms_read_the_same() {
        let dense = Board::dense(vec![0, 3, 0, 0, 1, 0]);
        let sparse = Board::sparse(6, vec![(4, 1), (1, 2), (1, 3)]);
        assert!(dense.same_values(&sparse));
        assert_eq!(sparse.to_vec(), vec![0, 3, 0, 0, 1, 0]);
        assert_eq!(sparse.get(1), 3);
        assert_eq!(sparse.get(2), 0);
        assert_eq!(dense.exceptions().collect::<Vec<_>>(), sparse.exceptions().collect::<Vec<_>>());
        assert_eq!(Board::uniform(3, 2).to_vec(), vec![2, 2, 2]);
        assert!(Board::sparse(4, vec![]).same_values(&Board::zeros(4)));
        // Canonical uniform form, whatever was written.
        assert_eq!(Board::dense(vec![2, 2, 2]).uniform_value(), Some(2));
        assert_eq!(Board::sparse(2, vec![(0, 1), (1, 1)]).uniform_value(), Some(1));
        let hash = |b: &Board| {
            use std::hash::{Hash, Hasher};
            let mut h = std::collections::hash_map::DefaultHasher::new();
            b.hash(&mut h);
            h.finish()
        };
        assert_eq!(hash(&dense), hash(&sparse));
        assert_eq!(dense, sparse);
        assert_eq!(hash(&Board::dense(vec![1; 4])), hash(&Board::uniform(4, 1)));
        assert_ne!(hash(&Board::dense(vec![1; 4])), hash(&Board::uniform(5, 1)));
        assert_eq!(Board::uniform(5, 3).total(), 15);
        let mut b = Board::uniform(3, 1);
        b.set(1, 0);
        assert_eq!(b.to_vec(), vec![1, 0, 1]);
    }

    #[test]
    fn presses_pack_every_width() {
        for states in [2u32, 3, 4, 5, 12, 16, 17, 255, 256, 257, 65_536] {
            let values: Vec<u32> = (0..300u32).map(|i| (i * 7919 + 13) % states).collect();
            let p = Presses::from_values(&values, states);
            assert_eq!(p.to_vec(), values, "W = {states}");
            assert_eq!(p.sum(), values.iter().map(|&v| u64::from(v)).sum::<u64>());
        }
        assert_eq!(Presses::zeros(100, 2).heap_bytes(), 16);
    }

    #[test]
    fn bit_rows_copy_at_any_offset() {
        for width in [1usize, 3, 63, 64, 65, 130] {
            let height = 5;
            let rows: Vec<Vec<u64>> = (0..height)
                .map(|r| {
                    let mut row = vec![0u64; width.div_ceil(64)];
                    for c in (0..width).filter(|c| (c * 31 + r * 17) % 5 < 2) {
                        row[c / 64] |= 1 << (c % 64);
                    }
                    row
                })
                .collect();
            let p = Presses::from_bit_rows(height, width, |r| &rows[r]);
            // Garbage in the padding must not leak into the packed bits.
            let padded: Vec<u64> = rows
                .iter()
                .flat_map(|row| {
                    let mut row = row.clone();
                    if width % 64 != 0 {
                        *row.last_mut().unwrap() |= !0u64 << (width % 64);
                    }
                    row
                })
                .collect();
            let in_place = Presses::from_padded_bits(padded, height, width, width.div_ceil(64));
            assert_eq!(in_place, p, "in place, width {width}");
            let mut bits = Vec::new();
            for (r, row) in rows.iter().enumerate() {
                p.pressed_bits_into(r * width, width, &mut bits);
                assert_eq!(&bits, row, "{width} {r}");
            }
            for (r, row) in rows.iter().enumerate() {
                for c in 0..width {
                    assert_eq!(p.get(r * width + c), ((row[c / 64] >> (c % 64)) & 1) as u32, "{width} {r} {c}");
                }
            }
        }
    }
}
