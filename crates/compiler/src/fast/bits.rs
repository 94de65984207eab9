//! Bit-packed boards over GF(2) and the row operations of the cross rule:
//! a row is `words(width)` words, bit `c` = word `c / 64`, bit `c % 64`;
//! bits past the width are always zero.

use super::FastError;

/// Words in a row of `width` bits.
pub fn words(width: usize) -> usize {
    width.div_ceil(64)
}

/// The mask of the last word of a row of `width` bits.
fn last_mask(width: usize) -> u64 {
    match width % 64 {
        0 => u64::MAX,
        r => (1u64 << r) - 1,
    }
}

/// Clears the bits past `width` in the last word.
pub fn mask_row(row: &mut [u64], width: usize) {
    if let Some(last) = row.last_mut() {
        *last &= last_mask(width);
    }
}

pub fn get(row: &[u64], c: usize) -> bool {
    row[c / 64] >> (c % 64) & 1 == 1
}

pub fn flip(row: &mut [u64], c: usize) {
    row[c / 64] ^= 1 << (c % 64);
}

/// Parity of the AND of two rows.
pub fn dot(a: &[u64], b: &[u64]) -> bool {
    a.iter().zip(b).fold(0u32, |acc, (x, y)| acc ^ (x & y).count_ones()) & 1 == 1
}

/// A `rows × cols` board of bits, row-major: the algebra's one bit matrix
/// (rows of `words(cols)` words, bits past `cols` zero).
pub use lights_algebra::BitMatrix as BitGrid;

/// [`BitGrid::zeros`] when memory allows: a board of billions of cells
/// (`size 2x4294967296`, which the polynomial method takes on) may not
/// fit, and that is an answer (`OutOfMemory`), not an abort.
pub fn try_grid(rows: usize, cols: usize) -> Result<BitGrid, FastError> {
    BitGrid::try_zeros(rows, cols).ok_or(FastError::OutOfMemory { bytes: BitGrid::bytes(rows, cols) })
}

/// The transposed grid (`cols × rows`), or `OutOfMemory`.
pub fn transposed(g: &BitGrid) -> Result<BitGrid, FastError> {
    g.try_transpose().ok_or(FastError::OutOfMemory { bytes: BitGrid::bytes(g.cols, g.rows) })
}

/// How the cells of one row are joined left–right.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RowShape {
    /// A path: the ends have one neighbour.
    Path,
    /// A cycle (width ≥ 3): the ends are neighbours.
    Cycle,
}

/// `dst = (left and right neighbours of src) [^ src when with_self]`:
/// the row operator of the cross rule (`with_self`) or the row adjacency.
pub fn row_operator(dst: &mut [u64], src: &[u64], width: usize, shape: RowShape, with_self: bool) {
    neighbours(dst, src);
    if with_self {
        xor_into(dst, src);
    }
    finish_row(dst, src, width, shape);
}

/// One chase step of the cross rule over GF(2):
/// `next = rhs ^ T·cur ^ prev` with `T = I + row adjacency`.
pub fn chase_step(next: &mut [u64], cur: &[u64], prev: &[u64], rhs: RowRhs<'_>, width: usize, shape: RowShape) {
    neighbours(next, cur);
    match rhs {
        RowRhs::Zero => {
            for ((d, &c), &p) in next.iter_mut().zip(cur).zip(prev) {
                *d ^= c ^ p;
            }
        }
        RowRhs::Ones => {
            for ((d, &c), &p) in next.iter_mut().zip(cur).zip(prev) {
                *d ^= !(c ^ p);
            }
        }
        RowRhs::Row(r) => {
            for (((d, &c), &p), &b) in next.iter_mut().zip(cur).zip(prev).zip(r) {
                *d ^= c ^ p ^ b;
            }
        }
    }
    finish_row(next, cur, width, shape);
}

/// `dst[w] = (src << 1) ^ (src >> 1)` across word boundaries (bits past the
/// row's width are masked by [`finish_row`]). Branch-free in the middle so
/// the compiler vectorises it.
fn neighbours(dst: &mut [u64], src: &[u64]) {
    let n = src.len();
    match n {
        0 => {}
        1 => dst[0] = (src[0] << 1) ^ (src[0] >> 1),
        _ => {
            dst[0] = (src[0] << 1) ^ (src[0] >> 1 | src[1] << 63);
            for (((d, &lo), &c), &hi) in dst[1..n - 1].iter_mut().zip(&src[..n - 2]).zip(&src[1..n - 1]).zip(&src[2..])
            {
                *d = (c << 1 | lo >> 63) ^ (c >> 1 | hi << 63);
            }
            dst[n - 1] = (src[n - 1] << 1 | src[n - 2] >> 63) ^ (src[n - 1] >> 1);
        }
    }
}

fn xor_into(dst: &mut [u64], src: &[u64]) {
    for (d, &s) in dst.iter_mut().zip(src) {
        *d ^= s;
    }
}

/// Masks the bits past the width and, on a cycle, joins the two ends.
fn finish_row(dst: &mut [u64], src: &[u64], width: usize, shape: RowShape) {
    mask_row(dst, width);
    if shape == RowShape::Cycle && width >= 3 {
        // Bit 0 also sees bit width−1 and bit width−1 sees bit 0.
        if get(src, width - 1) {
            flip(dst, 0);
        }
        if get(src, 0) {
            flip(dst, width - 1);
        }
    }
}

/// The right-hand side of one row.
#[derive(Clone, Copy, Debug)]
pub enum RowRhs<'a> {
    Zero,
    Ones,
    Row(&'a [u64]),
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_grid_too_large_is_out_of_memory_not_an_abort() {
        assert_eq!(try_grid(usize::MAX, 1 << 20), Err(FastError::OutOfMemory { bytes: usize::MAX }));
        let g = try_grid(3, 70).unwrap();
        assert_eq!((g.rows, g.cols, g.words_per_row, g.count_ones()), (3, 70, 2, 0));
    }

    #[test]
    fn transpose_round_trips() {
        for (rows, width) in [(1, 1), (3, 70), (64, 64), (130, 65), (5, 200)] {
            let mut g = BitGrid::zeros(rows, width);
            let mut s = 0x9E37_79B9_7F4A_7C15u64;
            for r in 0..rows {
                for c in 0..width {
                    s ^= s << 13;
                    s ^= s >> 7;
                    s ^= s << 17;
                    g.set(r, c, s & 1 == 1);
                }
            }
            let t = transposed(&g).unwrap();
            for r in 0..rows {
                for c in 0..width {
                    assert_eq!(g.get(r, c), t.get(c, r));
                }
            }
            assert_eq!(transposed(&t).unwrap(), g);
        }
    }

    #[test]
    fn row_operator_on_path_and_cycle() {
        let width = 70;
        let mut src = vec![0u64; words(width)];
        flip(&mut src, 0);
        flip(&mut src, 64);
        let mut dst = vec![0u64; words(width)];
        row_operator(&mut dst, &src, width, RowShape::Path, true);
        let set: Vec<usize> = (0..width).filter(|&c| get(&dst, c)).collect();
        assert_eq!(set, vec![0, 1, 63, 64, 65]);
        row_operator(&mut dst, &src, width, RowShape::Cycle, false);
        let set: Vec<usize> = (0..width).filter(|&c| get(&dst, c)).collect();
        assert_eq!(set, vec![1, 63, 65, 69]);
    }
}
