//! Matrices and vectors over Z/3 and Z/4 in two bit planes of `u64` words,
//! shared by [`crate::gf3_dense`] and [`crate::z4_dense`]: an entry `v` is
//! bit `v & 1` of the low plane and bit `v >> 1` of the high plane (over Z/3
//! that makes the planes `[v = 1]` and `[v = 2]`). The arithmetic on the
//! planes is each modulus's own and stays in its module.

use crate::error::try_vec;
use crate::sparse::SparseRow;
use crate::AlgebraError;

/// Entry `c` of a row (or vector) in two planes of `planes` words.
pub(crate) fn entry(row: &[u64], planes: usize, c: usize) -> u32 {
    let (word, bit) = (c / 64, c % 64);
    (row[word] >> bit & 1) as u32 | ((row[planes + word] >> bit & 1) as u32) << 1
}

/// Sets entry `c` to `v` (`v < 4`, already reduced by the caller).
pub(crate) fn set_entry(row: &mut [u64], planes: usize, c: usize, v: u32) {
    let (word, bit) = (c / 64, 1u64 << (c % 64));
    for (plane, on) in [(word, v & 1 == 1), (planes + word, v & 2 == 2)] {
        if on {
            row[plane] |= bit;
        } else {
            row[plane] &= !bit;
        }
    }
}

/// The entries `0..ncols` of a vector in two planes.
pub(crate) fn unpack(x: &[u64], planes: usize, ncols: usize) -> Vec<u32> {
    (0..ncols).map(|c| entry(x, planes, c)).collect()
}

/// `[A | b]` modulo `w` (3 or 4): row `i` at words `i·width ..`, its low
/// plane then its high plane, the right-hand side as column `ncols`.
pub(crate) struct PlaneMatrix {
    /// Words per plane.
    pub(crate) planes: usize,
    /// Words per row (both planes).
    pub(crate) width: usize,
    pub(crate) data: Vec<u64>,
}

impl PlaneMatrix {
    pub(crate) fn from_sparse(rows: &[SparseRow], ncols: usize, rhs: &[u32], w: u32) -> Result<Self, AlgebraError> {
        let planes = (ncols + 1).div_ceil(64);
        let width = 2 * planes;
        // Dense systems are a fraction of the board, but still sized by it.
        let mut data = try_vec(rows.len().saturating_mul(width), 0u64)?;
        for (i, row) in rows.iter().enumerate() {
            let words = &mut data[i * width..(i + 1) * width];
            for &(c, v) in row {
                let c = c as usize;
                if c >= ncols {
                    return Err(AlgebraError::Internal(format!(
                        "Z/{w} in bit planes: column {c} out of range {ncols}"
                    )));
                }
                let sum = (entry(words, planes, c) + v % w) % w;
                set_entry(words, planes, c, sum);
            }
            set_entry(words, planes, ncols, rhs.get(i).map_or(0, |&v| v % w));
        }
        Ok(PlaneMatrix { planes, width, data })
    }

    pub(crate) fn row(&self, i: usize) -> &[u64] {
        &self.data[i * self.width..(i + 1) * self.width]
    }

    /// Entry `c` of row `i`.
    pub(crate) fn get(&self, i: usize, c: usize) -> u32 {
        entry(self.row(i), self.planes, c)
    }

    /// Rows `a < b` change places.
    pub(crate) fn swap_rows(&mut self, a: usize, b: usize) {
        let width = self.width;
        let (top, bottom) = self.data.split_at_mut(b * width);
        top[a * width..(a + 1) * width].swap_with_slice(&mut bottom[..width]);
    }

    /// Row `i` (mutable) and the rows after it, for clearing a pivot column.
    pub(crate) fn pivot_and_rest(&mut self, i: usize) -> (&mut [u64], &mut [u64]) {
        let (done, rest) = self.data.split_at_mut((i + 1) * self.width);
        (&mut done[i * self.width..], rest)
    }
}
