//! The sparse input matrix and its conversions to the row lists the
//! eliminators consume.

use crate::AlgebraError;

/// A sparse matrix over `Z/W`, stored column by column.
///
/// Column-major storage matches how a puzzle builds its system: pressing one
/// cell (one unknown, one column) touches a handful of cells (rows). Entries are
/// expected to be reduced and nonzero, but duplicates and unreduced values are
/// tolerated: duplicates add up, and everything is reduced modulo `w` when used.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SparseMatrix {
    /// Number of rows (equations, lit cells).
    pub rows: usize,
    /// Number of columns (unknowns, pressable cells).
    pub cols: usize,
    /// `columns[c]` lists `(row, value)` pairs of column `c`.
    pub columns: Vec<Vec<(u32, u32)>>,
}

/// A sparse row: `(column, value)` pairs, sorted by column, no duplicates,
/// values reduced and nonzero.
pub(crate) type SparseRow = Vec<(u32, u32)>;

impl SparseMatrix {
    /// An all-zero `rows × cols` matrix.
    pub fn new(rows: usize, cols: usize) -> Self {
        SparseMatrix { rows, cols, columns: vec![Vec::new(); cols] }
    }

    /// Adds `value` at `(row, col)`. Repeated entries add up; reducing modulo `w`
    /// is the caller's job (it also happens when the matrix is used).
    ///
    /// Never panics: an out-of-range `col` grows `columns` (leaving `cols` as it
    /// is), and `solve` then reports a [`AlgebraError::DimensionMismatch`].
    pub fn push_entry(&mut self, col: usize, row: usize, value: u32) {
        if col >= self.columns.len() {
            self.columns.resize(col + 1, Vec::new());
        }
        let row = u32::try_from(row).unwrap_or(u32::MAX);
        self.columns[col].push((row, value));
    }

    /// `A·x mod w`, a vector of length `rows`.
    ///
    /// Missing entries of `x` count as 0; out-of-range entries of the matrix are
    /// skipped. `w == 0` yields the zero vector.
    pub fn mul_vec(&self, x: &[u32], w: u32) -> Vec<u32> {
        if w == 0 {
            return vec![0; self.rows];
        }
        let w64 = w as u64;
        // With w <= 2^16 every product of reduced values is below 2^32, so a u64
        // accumulator absorbs 2^32 of them before it must be reduced.
        let small = w <= 1 << 16;
        let mut out = vec![0u64; self.rows];
        for (c, col) in self.columns.iter().enumerate().take(self.cols) {
            let xc = x.get(c).map_or(0, |&v| v as u64 % w64);
            if xc == 0 {
                continue;
            }
            for &(r, v) in col {
                if let Some(slot) = out.get_mut(r as usize) {
                    let v = if (v as u64) < w64 { v as u64 } else { v as u64 % w64 };
                    if small {
                        *slot += v * xc;
                    } else {
                        *slot = (*slot + v * xc) % w64;
                    }
                }
            }
        }
        out.into_iter().map(|v| (v % w64) as u32).collect()
    }

    /// `yᵀ·A mod w`, a vector of length `cols`.
    ///
    /// Missing entries of `y` count as 0; out-of-range entries are skipped.
    /// `w == 0` yields the zero vector.
    pub fn transpose_mul_vec(&self, y: &[u32], w: u32) -> Vec<u32> {
        let mut out = vec![0u32; self.cols];
        if w == 0 {
            return out;
        }
        let w64 = w as u64;
        let small = w <= 1 << 16;
        for (c, col) in self.columns.iter().enumerate().take(self.cols) {
            let mut acc = 0u64;
            for &(r, v) in col {
                if (r as usize) < self.rows {
                    let yr = y.get(r as usize).map_or(0, |&v| v as u64);
                    let yr = if yr < w64 { yr } else { yr % w64 };
                    let v = if (v as u64) < w64 { v as u64 } else { v as u64 % w64 };
                    if small {
                        acc += v * yr;
                    } else {
                        acc = (acc + v * yr) % w64;
                    }
                }
            }
            out[c] = (acc % w64) as u32;
        }
        out
    }

    /// Checks that the shape is coherent and every row index is in range.
    pub(crate) fn validate(&self) -> Result<(), AlgebraError> {
        if self.columns.len() != self.cols {
            return Err(AlgebraError::DimensionMismatch {
                what: "SparseMatrix::columns.len() vs cols",
                expected: self.cols,
                found: self.columns.len(),
            });
        }
        if u32::try_from(self.rows).is_err() || u32::try_from(self.cols).is_err() {
            return Err(AlgebraError::DimensionMismatch {
                what: "matrix dimension (must fit in u32)",
                expected: u32::MAX as usize,
                found: self.rows.max(self.cols),
            });
        }
        for col in &self.columns {
            for &(r, _) in col {
                if r as usize >= self.rows {
                    return Err(AlgebraError::DimensionMismatch {
                        what: "row index of a matrix entry",
                        expected: self.rows,
                        found: r as usize,
                    });
                }
            }
        }
        Ok(())
    }

    /// The rows of `A mod q` as sparse rows (sorted, merged, nonzero).
    pub(crate) fn row_lists(&self, q: u32) -> Vec<SparseRow> {
        let mut counts = vec![0usize; self.rows];
        for col in &self.columns {
            for &(r, _) in col {
                if let Some(n) = counts.get_mut(r as usize) {
                    *n += 1;
                }
            }
        }
        let mut rows: Vec<SparseRow> = counts.into_iter().map(Vec::with_capacity).collect();
        for (c, col) in self.columns.iter().enumerate() {
            for &(r, v) in col {
                if let Some(row) = rows.get_mut(r as usize) {
                    row.push((c as u32, v));
                }
            }
        }
        // Columns were visited in increasing order, so each row is sorted;
        // normalising merges duplicates and drops zeros.
        for row in &mut rows {
            normalize_in_place(row, q);
        }
        rows
    }

    /// The rows of the augmented transpose `[A | b]ᵀ mod q`: `cols + 1` rows
    /// with `rows` columns. Row `c < cols` is column `c` of `A`; the last row is `b`.
    ///
    /// Used for certificates: `y` with `yᵀA ≡ 0` and `y·b ≡ t` solves
    /// `[A | b]ᵀ·y = (0, …, 0, t)`.
    pub(crate) fn augmented_transpose_rows(&self, b: &[u32], q: u32) -> Vec<SparseRow> {
        let mut rows: Vec<SparseRow> = Vec::with_capacity(self.cols + 1);
        for col in &self.columns {
            let mut r: SparseRow = col.clone();
            r.sort_unstable_by_key(|&(i, _)| i);
            normalize_in_place(&mut r, q);
            rows.push(r);
        }
        let last: SparseRow = b.iter().enumerate().map(|(i, &v)| (i as u32, v)).collect();
        let mut last = last;
        normalize_in_place(&mut last, q);
        rows.push(last);
        rows
    }
}

/// Merges duplicate columns of a sorted sparse row, reduces modulo `q` and
/// drops zeros, in place.
pub(crate) fn normalize_in_place(row: &mut SparseRow, q: u32) {
    let q64 = q as u64;
    let mut out = 0usize;
    let mut i = 0usize;
    while i < row.len() {
        let c = row[i].0;
        let mut acc = row[i].1 as u64 % q64;
        i += 1;
        while i < row.len() && row[i].0 == c {
            acc = (acc + row[i].1 as u64) % q64;
            i += 1;
        }
        if acc != 0 {
            row[out] = (c, acc as u32);
            out += 1;
        }
    }
    row.truncate(out);
}

/// Reduces already normalised rows modulo a divisor `q` of their modulus.
pub(crate) fn reduce_rows(rows: &[SparseRow], q: u32) -> Vec<SparseRow> {
    rows.iter()
        .map(|r| {
            r.iter()
                .filter_map(|&(c, v)| {
                    let v = v % q;
                    (v != 0).then_some((c, v))
                })
                .collect()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mul_and_transpose() {
        // A = [[1, 2], [0, 3], [4, 0]] over Z/5
        let mut a = SparseMatrix::new(3, 2);
        a.push_entry(0, 0, 1);
        a.push_entry(0, 2, 4);
        a.push_entry(1, 0, 2);
        a.push_entry(1, 1, 3);
        assert_eq!(a.mul_vec(&[1, 1], 5), vec![3, 3, 4]);
        assert_eq!(a.transpose_mul_vec(&[1, 1, 1], 5), vec![0, 0]);
        assert_eq!(a.transpose_mul_vec(&[1, 0, 0], 5), vec![1, 2]);
        let rows = a.row_lists(5);
        assert_eq!(rows, vec![vec![(0, 1), (1, 2)], vec![(1, 3)], vec![(0, 4)]]);
        let t = a.augmented_transpose_rows(&[1, 2, 3], 5);
        assert_eq!(t, vec![vec![(0, 1), (2, 4)], vec![(0, 2), (1, 3)], vec![(0, 1), (1, 2), (2, 3)]]);
    }

    #[test]
    fn duplicates_and_out_of_range() {
        let mut a = SparseMatrix::new(2, 1);
        a.push_entry(0, 1, 3);
        a.push_entry(0, 1, 4);
        assert_eq!(a.row_lists(7), vec![vec![], vec![]]);
        assert_eq!(a.row_lists(5), vec![vec![], vec![(0, 2)]]);
        a.push_entry(3, 0, 1);
        assert!(a.validate().is_err());
        let mut b = SparseMatrix::new(1, 1);
        b.push_entry(0, 5, 1);
        assert!(b.validate().is_err());
        assert_eq!(b.mul_vec(&[1], 3), vec![0]);
        assert_eq!(b.mul_vec(&[1], 0), vec![0]);
    }
}
