//! The polynomial method (docs/solver.md) for the cross rule over GF(2) on
//! uniform boards whose rows are paths (plane) or cycles (cylinder), with no
//! locked cells: the whole solve costs two bit-parallel chases plus
//! polynomial arithmetic of degree `width`, about `height·width/64 +
//! width²/32` word operations, so a 10,000×10,000 board takes milliseconds.
//!
//! The chase: with `P_i` the presses of row `i` and `b_i` the change row `i`
//! needs, `P_{i+1} = b_i + T·P_i + P_{i−1}` (`T` = the row's cross operator:
//! the cell and its left and right neighbours), from `P_{−1} = 0` and a free
//! first row `P_0 = x`; the board is solved when the row past the last one,
//! `P_m`, is zero. `P_m = f_m(T)·x + c` with `f_0 = 1`, `f_1 = t`,
//! `f_{k+1} = t·f_k + f_{k−1}`, and `c` the `P_m` of the chase from `x = 0`.
//!
//! Rows become polynomials: on a cycle of width `n`, row vector `v` is
//! `Σ v_j z^j` in `GF(2)[z]/(z^n + 1)` and `T` is multiplication by
//! `1 + z + z^{n−1}`. On a path, the adjacency `A` has the cyclic vector
//! `e_0` with `e_j = u_j(A)·e_0` (`u` obeys the same recurrence as `f`), so `v`
//! is `Σ v_j u_j(s)` in `GF(2)[s]/(u_n(s))`, `A` is multiplication by `s` and
//! `T = A + I` by `s + 1`. Either way the leftover system is `h·X ≡ C (mod U)`:
//! with `g = gcd(h, U)` and `s·h ≡ g`, it is solvable iff `g | C`, the
//! solutions are `X = s·C/g + multiples of U/g`, and the quiet patterns form
//! a space of dimension `deg g`.
//!
//! The cross matrix is symmetric, so a certificate of unsolvability is a quiet
//! pattern `q` with `q·b = 1`; for a quiet pattern chased from first row `x`,
//! `q·b = x·S` with `S = Σ_i f_i(T)·b_i` — one chase from the bottom row up.

use lights_algebra::gf2poly::Poly;

use super::bits::{self, chase_step, row_operator, words, BitGrid, RowRhs, RowShape};
use super::FastError;

/// A board for the polynomial method: `height` rows of `width` cells, chased
/// from the first row down.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CrossBoard {
    pub height: usize,
    pub width: usize,
    pub shape: RowShape,
}

/// The change each cell needs (`goal − lights`), bit-packed.
#[derive(Clone, Copy, Debug)]
pub enum Rhs<'a> {
    /// Every cell the same (All Lights: `Uniform(true)`).
    Uniform(bool),
    /// One bit per cell, `height × width`.
    Grid(&'a BitGrid),
}

impl Rhs<'_> {
    fn row(&self, i: usize) -> RowRhs<'_> {
        match self {
            Rhs::Uniform(false) => RowRhs::Zero,
            Rhs::Uniform(true) => RowRhs::Ones,
            Rhs::Grid(g) => RowRhs::Row(g.row(i)),
        }
    }
}

/// Everything the polynomial method knows about one board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PolyAnswer {
    pub solvable: bool,
    /// The dimension of the quiet patterns: `2^nullity` solutions when solvable.
    pub nullity: usize,
    /// A solution (`height × width`), when solvable.
    pub solution: Option<BitGrid>,
    /// First rows of a basis of the quiet patterns ([`chase`] each with a zero
    /// right-hand side for the whole pattern).
    pub quiet_first_rows: Vec<Vec<u64>>,
    /// When unsolvable: the first row of a quiet pattern `q` with `q·b = 1`.
    pub certificate_first_row: Option<Vec<u64>>,
}

/// Rows between two polls of `cancel`.
const POLL_ROWS: usize = 256;

/// Chases from first row `x`. Fills `grid` (`height × width`) when given and
/// returns the row past the last, which is zero exactly when the presses
/// solve the board. With `reversed`, row `i` of the right-hand side is taken
/// from row `height − 1 − i`.
pub fn chase(
    board: &CrossBoard,
    x: &[u64],
    rhs: &Rhs<'_>,
    reversed: bool,
    mut grid: Option<&mut BitGrid>,
    cancel: &dyn Fn() -> bool,
) -> Result<Vec<u64>, FastError> {
    let (m, n) = (board.height, board.width);
    let nw = words(n);
    let rhs_row = |i: usize| rhs.row(if reversed { m - 1 - i } else { i });
    let mut prev = vec![0u64; nw];
    let mut cur = x.to_vec();
    let mut next = vec![0u64; nw];
    for i in 0..m {
        if i % POLL_ROWS == 0 && cancel() {
            return Err(FastError::Cancelled);
        }
        if let Some(g) = grid.as_deref_mut() {
            g.row_mut(i).copy_from_slice(&cur);
        }
        chase_step(&mut next, &cur, &prev, rhs_row(i), n, board.shape);
        std::mem::swap(&mut prev, &mut cur);
        std::mem::swap(&mut cur, &mut next);
    }
    Ok(cur)
}

/// Solves the board exactly (see the module docs).
pub fn solve(board: &CrossBoard, rhs: &Rhs<'_>, cancel: &dyn Fn() -> bool) -> Result<PolyAnswer, FastError> {
    let (m, n) = (board.height, board.width);
    if n == 0 || m == 0 {
        return Err(FastError::Internal("empty board".into()));
    }
    if board.shape == RowShape::Cycle && n < 3 {
        return Err(FastError::Internal("a cycle row needs at least 3 cells".into()));
    }
    let nw = words(n);
    let zero_row = vec![0u64; nw];
    let c = chase(board, &zero_row, rhs, false, None, cancel)?;
    let ring = Ring::new(board);
    let h = ring.chase_polynomial(m, cancel)?;
    let big_c = ring.to_poly(&c);
    let (g, cofactor) = Poly::gcd_cofactor(&h, &ring.modulus);
    let nullity = g.degree().ok_or_else(|| FastError::Internal("gcd with the ring modulus is zero".into()))?;
    if cancel() {
        return Err(FastError::Cancelled);
    }
    let (c_over_g, remainder) = big_c.div_rem(&g);
    let solvable = remainder.is_zero();

    // Quiet patterns: the multiples of U/g, i.e. X_k = t^k·(U/g) for k < deg g.
    let base = ring.modulus.div_rem(&g).0;
    let mut quiet_first_rows = Vec::with_capacity(nullity);
    let mut v = ring.to_row(&base);
    for _ in 0..nullity {
        let next = ring.times_generator(&v);
        quiet_first_rows.push(std::mem::replace(&mut v, next));
    }

    let mut solution = None;
    let mut certificate_first_row = None;
    if solvable {
        let x_poly = cofactor.mul(&c_over_g).rem(&ring.modulus);
        let x = ring.to_row(&x_poly);
        let mut grid = bits::try_grid(m, n)?;
        let past = chase(board, &x, rhs, false, Some(&mut grid), cancel)?;
        if past.iter().any(|&w| w != 0) {
            return Err(FastError::Internal("the polynomial method's solution leaves lights wrong".into()));
        }
        solution = Some(grid);
    } else {
        let s = chase(board, &zero_row, rhs, true, None, cancel)?;
        let cert = quiet_first_rows.iter().find(|q| bits::dot(q, &s)).cloned().ok_or_else(|| {
            FastError::Internal("unsolvable, yet no quiet pattern meets the right-hand side oddly".into())
        })?;
        certificate_first_row = Some(cert);
    }
    Ok(PolyAnswer { solvable, nullity, solution, quiet_first_rows, certificate_first_row })
}

/// The ring `GF(2)[t]/(U)` in which a row is a polynomial and the row
/// operator `T` is a multiplication.
struct Ring {
    shape: RowShape,
    width: usize,
    /// `u_n(s)` (path) or `z^n + 1` (cycle).
    modulus: Poly,
}

impl Ring {
    fn new(board: &CrossBoard) -> Self {
        let n = board.width;
        let modulus = match board.shape {
            RowShape::Path => path_characteristic(n),
            RowShape::Cycle => {
                let mut p = Poly::monomial(n);
                p.flip(0);
                p
            }
        };
        Ring { shape: board.shape, width: n, modulus }
    }

    /// `h = f_m(T)` as an element of the ring: `f_m(s + 1)` on a path, and on
    /// a cycle the row `f_m(T)·e_0` (which is the polynomial itself).
    fn chase_polynomial(&self, m: usize, cancel: &dyn Fn() -> bool) -> Result<Poly, FastError> {
        let n = self.width;
        match self.shape {
            RowShape::Cycle => {
                let nw = words(n);
                let mut prev = vec![0u64; nw];
                let mut cur = vec![0u64; nw];
                bits::flip(&mut cur, 0);
                let mut next = vec![0u64; nw];
                for k in 0..m {
                    if k % POLL_ROWS == 0 && cancel() {
                        return Err(FastError::Cancelled);
                    }
                    chase_step(&mut next, &cur, &prev, RowRhs::Zero, n, RowShape::Cycle);
                    std::mem::swap(&mut prev, &mut cur);
                    std::mem::swap(&mut cur, &mut next);
                }
                Ok(Poly::from_words(cur))
            }
            RowShape::Path => {
                // g_0 = 1, g_1 = s + 1, g_{k+1} = (s + 1)·g_k + g_{k−1} (mod u_n), in
                // buffers of n + 1 bits so the product before reduction fits.
                let len = words(n + 1);
                let mut modulus = self.modulus.words().to_vec();
                modulus.resize(len, 0);
                let mut prev = vec![0u64; len];
                prev[0] = 1;
                let mut cur = vec![0u64; len];
                times_s_plus_one_mod(&mut cur, &prev, &modulus, n);
                for k in 1..m {
                    if k % POLL_ROWS == 0 && cancel() {
                        return Err(FastError::Cancelled);
                    }
                    // prev := (s + 1)·cur + prev, then swap: the buffer of g_{k−1} becomes g_{k+1}.
                    let mut next = vec![0u64; len];
                    times_s_plus_one_mod(&mut next, &cur, &modulus, n);
                    for (d, &p) in next.iter_mut().zip(&prev) {
                        *d ^= p;
                    }
                    prev = std::mem::replace(&mut cur, next);
                }
                Ok(Poly::from_words(cur))
            }
        }
    }

    /// The polynomial of a row vector.
    fn to_poly(&self, row: &[u64]) -> Poly {
        match self.shape {
            RowShape::Cycle => Poly::from_words(row.to_vec()),
            RowShape::Path => {
                // Clenshaw: β_j = v_j + s·β_{j+1} + β_{j+2}; the polynomial is β_0.
                let n = self.width;
                let len = words(n + 1);
                let mut b1 = vec![0u64; len]; // β_{j+1}
                let mut b2 = vec![0u64; len]; // β_{j+2}
                for j in (0..n).rev() {
                    let mut next = b2; // reuse the buffer of β_{j+2}
                    let mut carry = 0u64;
                    for w in 0..len {
                        let v = b1[w];
                        next[w] ^= v << 1 | carry;
                        carry = v >> 63;
                    }
                    if bits::get(row, j) {
                        bits::flip(&mut next, 0);
                    }
                    b2 = std::mem::replace(&mut b1, next);
                }
                Poly::from_words(b1)
            }
        }
    }

    /// The row vector of a polynomial of degree below `width`.
    fn to_row(&self, p: &Poly) -> Vec<u64> {
        let n = self.width;
        let nw = words(n);
        match self.shape {
            RowShape::Cycle => {
                let mut row = p.words().to_vec();
                row.resize(nw, 0);
                row
            }
            RowShape::Path => {
                // Horner: w = A·w + p_k·e_0 from the top coefficient down.
                let mut w = vec![0u64; nw];
                let mut tmp = vec![0u64; nw];
                let Some(d) = p.degree() else { return w };
                for k in (0..=d).rev() {
                    row_operator(&mut tmp, &w, n, RowShape::Path, false);
                    std::mem::swap(&mut w, &mut tmp);
                    if p.coeff(k) {
                        bits::flip(&mut w, 0);
                    }
                }
                w
            }
        }
    }

    /// Multiplication by the ring's generator (`s` ↔ `A` on a path, `z` ↔ a
    /// rotation on a cycle), on row vectors.
    fn times_generator(&self, row: &[u64]) -> Vec<u64> {
        let n = self.width;
        let mut out = vec![0u64; row.len()];
        match self.shape {
            RowShape::Path => row_operator(&mut out, row, n, RowShape::Path, false),
            RowShape::Cycle => {
                for c in 0..n {
                    if bits::get(row, c) {
                        bits::flip(&mut out, (c + 1) % n);
                    }
                }
            }
        }
        out
    }
}

/// `dst = (s + 1)·src mod u_n` for `src` of degree below `n` (`modulus` = u_n,
/// all buffers `words(n + 1)` long).
fn times_s_plus_one_mod(dst: &mut [u64], src: &[u64], modulus: &[u64], n: usize) {
    let mut carry = 0u64;
    for (d, &v) in dst.iter_mut().zip(src) {
        *d = (v << 1 | carry) ^ v;
        carry = v >> 63;
    }
    if bits::get(dst, n) {
        for (d, &u) in dst.iter_mut().zip(modulus) {
            *d ^= u;
        }
    }
}

/// `u_n(s)`, the characteristic polynomial of the path on `n` vertices over
/// GF(2): `u_0 = 1`, `u_1 = s`, `u_{k+1} = s·u_k + u_{k−1}`.
fn path_characteristic(n: usize) -> Poly {
    let len = words(n + 1);
    let mut prev = vec![0u64; len];
    prev[0] = 1;
    let mut cur = vec![0u64; len];
    if n == 0 {
        return Poly::from_words(prev);
    }
    cur[0] = 2;
    for _ in 1..n {
        let mut next = prev;
        let mut carry = 0u64;
        for w in 0..len {
            let v = cur[w];
            next[w] ^= v << 1 | carry;
            carry = v >> 63;
        }
        prev = std::mem::replace(&mut cur, next);
    }
    Poly::from_words(cur)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn path_characteristic_small() {
        // u_2 = s² + 1, u_3 = s³ (over GF(2): s³ + 2s).
        assert_eq!(path_characteristic(2), Poly::from_bits(&[true, false, true]));
        assert_eq!(path_characteristic(3), Poly::from_bits(&[false, false, false, true]));
    }

    #[test]
    fn row_and_polynomial_round_trip() {
        for shape in [RowShape::Path, RowShape::Cycle] {
            for n in [3usize, 5, 64, 65, 130] {
                let ring = Ring::new(&CrossBoard { height: 1, width: n, shape });
                let mut row = vec![0u64; words(n)];
                for c in (0..n).filter(|c| c % 3 == 0 || c % 7 == 1) {
                    bits::flip(&mut row, c);
                }
                let p = ring.to_poly(&row);
                assert!(p.degree().is_none_or(|d| d < n));
                assert_eq!(ring.to_row(&p), row, "{shape:?} {n}");
            }
        }
    }

    #[test]
    fn five_by_five_all_lights() {
        let board = CrossBoard { height: 5, width: 5, shape: RowShape::Path };
        let a = solve(&board, &Rhs::Uniform(true), &|| false).unwrap();
        assert!(a.solvable);
        assert_eq!(a.nullity, 2);
        assert_eq!(a.quiet_first_rows.len(), 2);
    }
}
