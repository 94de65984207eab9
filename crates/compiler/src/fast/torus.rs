//! The polynomial method (docs/solver.md) for the cross rule over GF(2) on
//! the torus: an `m × n` board whose rows and columns both wrap around, with
//! no locked cells (`m, n ≥ 3`). Like [`poly`](super::poly) it costs a few
//! bit-parallel chases plus polynomial arithmetic of degree `n`, about
//! `m·n/64 + n²/32` word operations.
//!
//! Rows are cycles of width `n`: row vector `v` is `Σ v_j z^j` in
//! `R = GF(2)[z]/(U)`, `U = z^n + 1`, and the row operator `T` (the cell and
//! its left and right neighbours) is multiplication by `t = 1 + z + z^{n−1}`.
//! With `P_i` the presses of row `i` and `b_i` the change row `i` needs, the
//! chase is `P_{i+1} = b_i + t·P_i + P_{i−1}`, and on the torus
//! `P_{−1} = P_{m−1}`. The unknowns are the *seed* `x = P_0`, `y = P_{−1}`:
//! `P_k = f_k·x + f_{k−1}·y + d_k` with `f_{−1} = 0`, `f_0 = 1`,
//! `f_{k+1} = t·f_k + f_{k−1}` and `d_k` the chase of `b` from `x = y = 0`.
//! The board is solved iff the chase closes, `P_m = x` and `P_{m−1} = y`:
//!
//! ```text
//! M·[x; y] = [d_m; d_{m−1}]  (mod U),   M = [[f_m + 1, f_{m−1}], [f_{m−1}, f_{m−2} + 1]] = α·A + β·I
//! ```
//!
//! with `A = [[t, 1], [1, 0]]` (the chase's transfer matrix; `M = A^m + I`),
//! `α = f_{m−1}` and `β = f_{m−2} + 1`. That shape diagonalises in one step:
//! with `g = gcd(α, β) = s·α + r·β`, `α' = α/g`, `β' = β/g`,
//!
//! ```text
//! L = [[s, r], [β', α']],   R = [[0, 1], [1, w]],   w = t·s·α' + s·β' + r·α',
//! L·M·R = diag(g, h),   h = det M / g = α·α' + t·α'·β + β·β',
//! ```
//!
//! both `L` and `R` of determinant 1, so invertible over `R`. The system
//! becomes two scalar ones, `g·X'_0 ≡ D'_0` and `h·X'_1 ≡ D'_1 (mod U)` with
//! `D' = L·[d_m; d_{m−1}]` and `[x; y] = R·X'`; each is solved as in
//! [`poly`](super::poly): with `G = gcd(a, U)` and `σ·a ≡ G`, `a·X ≡ C` is
//! solvable iff `G | C`, by `X = σ·C/G`, and its quiet solutions are the
//! multiples of `U/G`, a space of dimension `deg G` with basis
//! `z^k·U/G, k < deg G`. So the nullity is `deg G_1 + deg G_2 ≤ 2n` (and, by
//! transposing the board, `≤ 2m`).
//!
//! The cross matrix on the torus is symmetric, so a certificate of
//! unsolvability is a quiet pattern `q` with `q·b = 1`. For the quiet pattern
//! of seed `(x, y)`, `q·b = x·S_1 + y·S_2` with `S_1 = Σ_i f_i(T)·b_i` and
//! `S_2 = Σ_i f_{i−1}(T)·b_i`: the last two rows of one chase from the bottom
//! row up, so every basis seed is tried with two dot products.

use lights_algebra::gf2poly::Poly;

use super::bits::{self, chase_step, words, BitGrid, RowRhs, RowShape};
use super::poly::Rhs;
use super::FastError;

/// The seed of a torus pattern: its first row `x = P_0` and its last row
/// `y = P_{m−1}` (each `words(width)` words); [`expand`] chases the rest.
pub type Seed = (Vec<u64>, Vec<u64>);

/// Everything the polynomial method knows about one torus.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TorusAnswer {
    pub solvable: bool,
    /// The dimension of the quiet patterns: `2^nullity` solutions when
    /// solvable. At most `2·min(height, width)`.
    pub nullity: usize,
    /// A solution (`height × width`), when solvable.
    pub solution: Option<BitGrid>,
    /// Seeds of a basis of the quiet patterns ([`expand`] each with a zero
    /// right-hand side for the whole pattern); `nullity` of them.
    pub quiet_seeds: Vec<Seed>,
    /// When unsolvable: the seed of a quiet pattern `q` with `q·b = 1`.
    pub certificate_seed: Option<Seed>,
}

/// Rows between two polls of `cancel`.
const POLL_ROWS: usize = 256;

/// Solves the torus exactly (see the module docs).
pub fn solve(height: usize, width: usize, rhs: &Rhs<'_>, cancel: &dyn Fn() -> bool) -> Result<TorusAnswer, FastError> {
    check(height, width, rhs)?;
    let (m, n) = (height, width);
    let nw = words(n);
    let ring = Ring::new(n);
    let zero_row = vec![0u64; nw];

    // f_{m−2} and f_{m−1}: the chase of e_0 with no right-hand side (on a
    // cycle the row f_k(T)·e_0 is the polynomial f_k itself).
    let mut e0 = zero_row.clone();
    bits::flip(&mut e0, 0);
    let (f_before, f_last) = run(m - 1, m, n, &zero_row, &e0, &Rhs::Uniform(false), false, None, cancel)?;
    let alpha = Poly::from_words(f_last);
    let mut beta = Poly::from_words(f_before);
    beta.flip(0);
    // d_{m−1} and d_m.
    let (d_before, d_last) = run(m, m, n, &zero_row, &zero_row, rhs, false, None, cancel)?;
    let (d_before, d_last) = (Poly::from_words(d_before), Poly::from_words(d_last));
    if cancel() {
        return Err(FastError::Cancelled);
    }

    let diag = diagonalize(&ring, &alpha, &beta)?;
    let [[l00, l01], [l10, l11]] = &diag.l;
    let d0 = ring.reduce(&sum(&l00.mul(&d_last), &l01.mul(&d_before)));
    let d1 = ring.reduce(&sum(&l10.mul(&d_last), &l11.mul(&d_before)));
    let first = ring.scalar(&diag.g, &d0);
    let second = ring.scalar(&diag.h, &d1);
    let nullity = first.dimension() + second.dimension();
    let solvable = first.solution.is_some() && second.solution.is_some();
    if cancel() {
        return Err(FastError::Cancelled);
    }

    // Quiet seeds: R·(z^k·U/G_1, 0) = (0, z^k·U/G_1) and
    // R·(0, z^k·U/G_2) = z^k·(U/G_2, w·U/G_2).
    let mut quiet_seeds = Vec::with_capacity(nullity);
    if first.dimension() > 0 {
        let mut y = ring.to_row(&first.quiet);
        for _ in 0..first.dimension() {
            let next = ring.times_z(&y);
            quiet_seeds.push((zero_row.clone(), std::mem::replace(&mut y, next)));
        }
    }
    if second.dimension() > 0 {
        let mut x = ring.to_row(&second.quiet);
        let mut y = ring.to_row(&ring.mul(&diag.w, &second.quiet));
        for _ in 0..second.dimension() {
            let (next_x, next_y) = (ring.times_z(&x), ring.times_z(&y));
            quiet_seeds.push((std::mem::replace(&mut x, next_x), std::mem::replace(&mut y, next_y)));
        }
    }

    let mut solution = None;
    let mut certificate_seed = None;
    if let (Some(x0), Some(x1)) = (&first.solution, &second.solution) {
        let y = ring.reduce(&sum(x0, &diag.w.mul(x1)));
        let seed = (ring.to_row(x1), ring.to_row(&y));
        let mut grid = bits::try_grid(m, n)?;
        if !expand(m, n, &seed, rhs, &mut grid, cancel)? {
            return Err(FastError::Internal("the torus method's solution leaves lights wrong".into()));
        }
        solution = Some(grid);
    } else {
        let (s2, s1) = run(m, m, n, &zero_row, &zero_row, rhs, true, None, cancel)?;
        let cert =
            quiet_seeds.iter().find(|(x, y)| bits::dot(x, &s1) ^ bits::dot(y, &s2)).cloned().ok_or_else(|| {
                FastError::Internal("unsolvable torus, yet no quiet pattern meets the right-hand side oddly".into())
            })?;
        certificate_seed = Some(cert);
    }
    Ok(TorusAnswer { solvable, nullity, solution, quiet_seeds, certificate_seed })
}

/// Chases the torus from `seed = (x, y)` (`P_0 = x`, `P_{−1} = y`), filling
/// `grid` (`height × width`) with the presses `P_0 … P_{m−1}`. Returns whether
/// the chase closes (`P_m = x` and `P_{m−1} = y`), i.e. whether the presses
/// make exactly the change `rhs` on the torus.
pub fn expand(
    height: usize,
    width: usize,
    seed: &Seed,
    rhs: &Rhs<'_>,
    grid: &mut BitGrid,
    cancel: &dyn Fn() -> bool,
) -> Result<bool, FastError> {
    check(height, width, rhs)?;
    let nw = words(width);
    let (x, y) = seed;
    if x.len() != nw || y.len() != nw || grid.rows != height || grid.cols != width {
        return Err(FastError::Internal("a torus seed or grid of the wrong size".into()));
    }
    let (before, last) = run(height, height, width, y, x, rhs, false, Some(grid), cancel)?;
    Ok(&last == x && &before == y)
}

/// Rejects boards the method does not handle.
fn check(height: usize, width: usize, rhs: &Rhs<'_>) -> Result<(), FastError> {
    if height < 3 || width < 3 {
        return Err(FastError::Internal("the torus method needs at least 3 rows and 3 columns".into()));
    }
    if let Rhs::Grid(g) = rhs {
        if g.rows != height || g.cols != width {
            return Err(FastError::Internal("a right-hand side of the wrong size".into()));
        }
    }
    Ok(())
}

/// The right-hand side of row `i`.
fn rhs_row<'a>(rhs: &Rhs<'a>, i: usize) -> RowRhs<'a> {
    match *rhs {
        Rhs::Uniform(false) => RowRhs::Zero,
        Rhs::Uniform(true) => RowRhs::Ones,
        Rhs::Grid(g) => RowRhs::Row(g.row(i)),
    }
}

/// Chases `steps` rows on cycles of width `n` from `P_{−1} = before` and
/// `P_0 = first`, taking row `i`'s right-hand side from row `i` of a board of
/// `height` rows (row `height − 1 − i` when `reversed`). Writes `P_0 …
/// P_{steps−1}` into `grid` when given and returns `(P_{steps−1}, P_steps)`.
#[allow(clippy::too_many_arguments)]
fn run(
    steps: usize,
    height: usize,
    n: usize,
    before: &[u64],
    first: &[u64],
    rhs: &Rhs<'_>,
    reversed: bool,
    mut grid: Option<&mut BitGrid>,
    cancel: &dyn Fn() -> bool,
) -> Result<(Vec<u64>, Vec<u64>), FastError> {
    let mut prev = before.to_vec();
    let mut cur = first.to_vec();
    let mut next = vec![0u64; cur.len()];
    for i in 0..steps {
        if i % POLL_ROWS == 0 && cancel() {
            return Err(FastError::Cancelled);
        }
        if let Some(g) = grid.as_deref_mut() {
            g.row_mut(i).copy_from_slice(&cur);
        }
        let row = rhs_row(rhs, if reversed { height - 1 - i } else { i });
        chase_step(&mut next, &cur, &prev, row, n, RowShape::Cycle);
        std::mem::swap(&mut prev, &mut cur);
        std::mem::swap(&mut cur, &mut next);
    }
    Ok((prev, cur))
}

fn sum(a: &Poly, b: &Poly) -> Poly {
    let mut s = a.clone();
    s.add_assign(b);
    s
}

/// `L·M·R = diag(g, h) (mod U)` for `M = α·A + β·I`, `R = [[0, 1], [1, w]]`.
struct Diagonal {
    l: [[Poly; 2]; 2],
    w: Poly,
    g: Poly,
    h: Poly,
}

/// The one-step diagonalisation of the module docs; `M ≡ 0` when
/// `α = β = 0`, and then `L = I`, `w = 0` and `g = h = 0`.
fn diagonalize(ring: &Ring, alpha: &Poly, beta: &Poly) -> Result<Diagonal, FastError> {
    if alpha.is_zero() && beta.is_zero() {
        return Ok(Diagonal {
            l: [[Poly::one(), Poly::zero()], [Poly::zero(), Poly::one()]],
            w: Poly::zero(),
            g: Poly::zero(),
            h: Poly::zero(),
        });
    }
    let inexact = || FastError::Internal("an inexact division in the torus method".into());
    // g = s·α + r·β.
    let (g, s, r) = if beta.is_zero() {
        (alpha.clone(), Poly::one(), Poly::zero())
    } else {
        let (g, s) = Poly::gcd_cofactor(alpha, beta);
        let (r, rest) = sum(&g, &s.mul(alpha)).div_rem(beta);
        if !rest.is_zero() {
            return Err(inexact());
        }
        (g, s, r)
    };
    let (a1, rest_a) = alpha.div_rem(&g);
    let (b1, rest_b) = beta.div_rem(&g);
    if !rest_a.is_zero() || !rest_b.is_zero() {
        return Err(inexact());
    }
    let sa1 = ring.reduce(&s.mul(&a1));
    let w = ring.reduce(&sum(&sum(&ring.times_t(&sa1), &s.mul(&b1)), &r.mul(&a1)));
    let a1b = ring.reduce(&a1.mul(beta));
    let h = ring.reduce(&sum(&sum(&ring.times_t(&a1b), &alpha.mul(&a1)), &beta.mul(&b1)));
    Ok(Diagonal { l: [[s, r], [b1, a1]], w, g, h })
}

/// One scalar congruence `a·X ≡ c (mod U)`, solved.
struct Scalar {
    /// `G = gcd(a, U)`.
    gcd: Poly,
    /// `U/G` (meaningful when `deg G > 0`): the quiet solutions are its multiples.
    quiet: Poly,
    /// A solution, when there is one.
    solution: Option<Poly>,
}

impl Scalar {
    /// The dimension of the quiet solutions, `deg G`.
    fn dimension(&self) -> usize {
        self.gcd.degree().unwrap_or(0)
    }
}

/// The ring `GF(2)[z]/(z^n + 1)` of rows on a cycle of width `n`.
struct Ring {
    width: usize,
    /// `U = z^n + 1`.
    modulus: Poly,
    /// `t = 1 + z + z^{n−1}`, the row operator.
    t: Poly,
}

impl Ring {
    fn new(n: usize) -> Self {
        let mut modulus = Poly::monomial(n);
        modulus.flip(0);
        let mut t = Poly::monomial(n - 1);
        t.flip(0);
        t.flip(1);
        Ring { width: n, modulus, t }
    }

    fn reduce(&self, p: &Poly) -> Poly {
        p.rem(&self.modulus)
    }

    fn mul(&self, a: &Poly, b: &Poly) -> Poly {
        self.reduce(&a.mul(b))
    }

    /// `t·p` for `p` of degree below `n`.
    fn times_t(&self, p: &Poly) -> Poly {
        self.mul(&self.t, p)
    }

    /// Solves `a·X ≡ c` for `c` of degree below `n`.
    fn scalar(&self, a: &Poly, c: &Poly) -> Scalar {
        let (gcd, cofactor) = Poly::gcd_cofactor(a, &self.modulus);
        let (c_over_g, rest) = c.div_rem(&gcd);
        let solution = rest.is_zero().then(|| self.mul(&cofactor, &c_over_g));
        let quiet = self.modulus.div_rem(&gcd).0;
        Scalar { gcd, quiet, solution }
    }

    /// The row vector of a polynomial of degree below `n`.
    fn to_row(&self, p: &Poly) -> Vec<u64> {
        let mut row = p.words().to_vec();
        row.resize(words(self.width), 0);
        row
    }

    /// `z·v` on a row vector: a rotation by one cell.
    fn times_z(&self, row: &[u64]) -> Vec<u64> {
        let n = self.width;
        let mut out = vec![0u64; row.len()];
        let mut carry = 0u64;
        for (d, &v) in out.iter_mut().zip(row) {
            *d = v << 1 | carry;
            carry = v >> 63;
        }
        bits::mask_row(&mut out, n);
        if bits::get(row, n - 1) {
            bits::flip(&mut out, 0);
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A fixed-seed xorshift generator.
    struct Rng(u64);

    impl Rng {
        fn bit(&mut self) -> bool {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0 >> 32 & 1 == 1
        }
    }

    /// Cells as bit vectors of `m·n` bits (cell `(r, c)` = bit `r·n + c`).
    fn cell_words(m: usize, n: usize) -> usize {
        words(m * n + 1)
    }

    fn set(v: &mut [u64], i: usize) {
        v[i / 64] ^= 1 << (i % 64);
    }

    fn test(v: &[u64], i: usize) -> bool {
        v[i / 64] >> (i % 64) & 1 == 1
    }

    /// The cells a press at `(r, c)` toggles on the torus.
    fn press(m: usize, n: usize, r: usize, c: usize) -> [usize; 5] {
        [r * n + c, (r + 1) % m * n + c, (r + m - 1) % m * n + c, r * n + (c + 1) % n, r * n + (c + n - 1) % n]
    }

    /// The change a grid of presses makes, straight from the definition.
    fn effect(m: usize, n: usize, presses: &BitGrid) -> Vec<u64> {
        let mut out = vec![0u64; cell_words(m, n)];
        for r in 0..m {
            for c in 0..n {
                if presses.get(r, c) {
                    for i in press(m, n, r, c) {
                        set(&mut out, i);
                    }
                }
            }
        }
        out
    }

    fn flatten(m: usize, n: usize, g: &BitGrid) -> Vec<u64> {
        let mut out = vec![0u64; cell_words(m, n)];
        for r in 0..m {
            for c in 0..n {
                if g.get(r, c) {
                    set(&mut out, r * n + c);
                }
            }
        }
        out
    }

    /// The rank of a list of bit vectors of `bits` bits.
    fn rank(mut rows: Vec<Vec<u64>>, bits: usize) -> usize {
        let mut rank = 0;
        for col in 0..bits {
            let Some(p) = (rank..rows.len()).find(|&i| test(&rows[i], col)) else { continue };
            rows.swap(rank, p);
            let pivot = rows[rank].clone();
            for (i, row) in rows.iter_mut().enumerate() {
                if i != rank && test(row, col) {
                    for (d, &s) in row.iter_mut().zip(&pivot) {
                        *d ^= s;
                    }
                }
            }
            rank += 1;
        }
        rank
    }

    /// Dense elimination of the torus system: `(rank, solvable)`.
    fn reference(m: usize, n: usize, b: &[u64]) -> (usize, bool) {
        let cells = m * n;
        // Row = equation of cell i: the presses that toggle it (the matrix
        // is built from the definition, press by press, then transposed).
        let mut rows = vec![vec![0u64; cell_words(m, n)]; cells];
        for r in 0..m {
            for c in 0..n {
                for i in press(m, n, r, c) {
                    set(&mut rows[i], r * n + c);
                }
            }
        }
        for (i, row) in rows.iter_mut().enumerate() {
            if test(b, i) {
                set(row, cells);
            }
        }
        let full = rank(rows.clone(), cells + 1);
        let coefficients = rank(rows, cells);
        (coefficients, full == coefficients)
    }

    fn rhs_cases(m: usize, n: usize, seed: u64) -> Vec<BitGrid> {
        let mut cases = Vec::new();
        let mut ones = BitGrid::zeros(m, n);
        for r in 0..m {
            for c in 0..n {
                ones.set(r, c, true);
            }
        }
        cases.push(ones);
        cases.push(BitGrid::zeros(m, n));
        let mut rng = Rng(seed);
        for _ in 0..4 {
            let mut g = BitGrid::zeros(m, n);
            for r in 0..m {
                for c in 0..n {
                    g.set(r, c, rng.bit());
                }
            }
            cases.push(g);
        }
        // One light on, which many tori cannot make alone.
        let mut one = BitGrid::zeros(m, n);
        one.set(m / 2, n / 3, true);
        cases.push(one);
        cases
    }

    /// Checks one board against the reference; returns whether it was solvable.
    fn check_board(m: usize, n: usize, b: &BitGrid, uniform: Option<bool>) -> bool {
        let never = || false;
        let rhs = match uniform {
            Some(v) => Rhs::Uniform(v),
            None => Rhs::Grid(b),
        };
        let a = solve(m, n, &rhs, &never).unwrap();
        let bv = flatten(m, n, b);
        let (rank_ref, solvable_ref) = reference(m, n, &bv);
        assert_eq!(a.solvable, solvable_ref, "{m}×{n} solvable");
        assert_eq!(a.nullity, m * n - rank_ref, "{m}×{n} nullity");
        assert_eq!(a.quiet_seeds.len(), a.nullity, "{m}×{n} seeds");
        assert!(a.nullity <= 2 * m.min(n));

        let zero = Rhs::Uniform(false);
        let mut expansions = Vec::new();
        for seed in &a.quiet_seeds {
            let mut g = BitGrid::zeros(m, n);
            assert!(expand(m, n, seed, &zero, &mut g, &never).unwrap(), "{m}×{n} quiet seed closes");
            assert!(effect(m, n, &g).iter().all(|&w| w == 0), "{m}×{n} quiet pattern is quiet");
            expansions.push(flatten(m, n, &g));
        }
        assert_eq!(rank(expansions, m * n), a.nullity, "{m}×{n} quiet patterns independent");

        match (&a.solution, &a.certificate_seed) {
            (Some(sol), None) => {
                assert!(a.solvable);
                assert_eq!(effect(m, n, sol), bv, "{m}×{n} solution solves");
                let mut g = BitGrid::zeros(m, n);
                let seed = (sol.row(0).to_vec(), sol.row(m - 1).to_vec());
                assert!(expand(m, n, &seed, &rhs, &mut g, &never).unwrap());
                assert_eq!(&g, sol);
            }
            (None, Some(cert)) => {
                assert!(!a.solvable);
                let mut g = BitGrid::zeros(m, n);
                assert!(expand(m, n, cert, &zero, &mut g, &never).unwrap());
                let q = flatten(m, n, &g);
                assert!(effect(m, n, &g).iter().all(|&w| w == 0), "{m}×{n} certificate is quiet");
                assert!(bits::dot(&q, &bv), "{m}×{n} certificate meets b oddly");
            }
            _ => panic!("{m}×{n}: exactly one of solution and certificate"),
        }
        a.solvable
    }

    fn check_sizes(sizes: &[(usize, usize)]) {
        let (mut solvable, mut unsolvable) = (0, 0);
        for &(m, n) in sizes {
            for (k, b) in rhs_cases(m, n, 0x9E37_79B9_7F4A_7C15 ^ (m * 1000 + n) as u64).iter().enumerate() {
                let uniform = match k {
                    0 => Some(true),
                    1 => Some(false),
                    _ => None,
                };
                let ok = check_board(m, n, b, uniform);
                // The uniform cases again, as explicit grids.
                if uniform.is_some() {
                    assert_eq!(check_board(m, n, b, None), ok);
                }
                if ok {
                    solvable += 1;
                } else {
                    unsolvable += 1;
                }
            }
        }
        assert!(solvable > 0 && unsolvable > 0, "both outcomes exercised");
    }

    #[test]
    fn matches_elimination_on_small_tori() {
        let sizes: Vec<(usize, usize)> = (3..=9).flat_map(|m| (3..=9).map(move |n| (m, n))).collect();
        check_sizes(&sizes);
    }

    #[test]
    fn matches_elimination_on_larger_tori() {
        check_sizes(&[
            (10, 12),
            (12, 10),
            (16, 16),
            (5, 64),
            (64, 5),
            (3, 65),
            (7, 130),
            (15, 15),
            (24, 24),
            (9, 63),
            (32, 32),
            (20, 40),
            (31, 33),
        ]);
    }

    #[test]
    fn full_nullity() {
        // M ≡ 0 (every seed closes): the nullity is 2n.
        let never = || false;
        let full: Vec<(usize, usize)> = (3..=12)
            .flat_map(|m| (3..=12).map(move |n| (m, n)))
            .filter(|&(m, n)| solve(m, n, &Rhs::Uniform(false), &never).unwrap().nullity == 2 * n)
            .collect();
        assert!(!full.is_empty());
        for &(m, n) in &full {
            check_board(m, n, &BitGrid::zeros(m, n), Some(false));
        }
    }

    #[test]
    fn rejects_small_and_mismatched_boards() {
        let never = || false;
        for (m, n) in [(2, 5), (5, 2), (1, 1), (0, 4)] {
            assert!(matches!(solve(m, n, &Rhs::Uniform(true), &never), Err(FastError::Internal(_))));
        }
        let g = BitGrid::zeros(4, 5);
        assert!(matches!(solve(5, 4, &Rhs::Grid(&g), &never), Err(FastError::Internal(_))));
        let mut grid = BitGrid::zeros(5, 5);
        let seed = (vec![0u64; 2], vec![0u64; 1]);
        assert!(matches!(expand(5, 5, &seed, &Rhs::Uniform(true), &mut grid, &never), Err(FastError::Internal(_))));
    }

    #[test]
    fn cancels() {
        let always = || true;
        assert_eq!(solve(300, 300, &Rhs::Uniform(true), &always), Err(FastError::Cancelled));
    }

    #[test]
    fn open_seed_does_not_close() {
        let never = || false;
        // 4×5 torus: find a board with nullity 0 and check a nonzero seed
        // fails to close with no right-hand side.
        for (m, n) in [(3, 4), (4, 5), (5, 7), (7, 9)] {
            let a = solve(m, n, &Rhs::Uniform(false), &never).unwrap();
            if a.nullity != 0 {
                continue;
            }
            let mut x = vec![0u64; words(n)];
            bits::flip(&mut x, 1);
            let mut g = BitGrid::zeros(m, n);
            assert!(!expand(m, n, &(x, vec![0u64; words(n)]), &Rhs::Uniform(false), &mut g, &never).unwrap());
            return;
        }
        panic!("no nullity-0 torus among the candidates");
    }

    /// Run by hand: `cargo test -p lights-compiler --lib --release
    /// fast::torus::tests::timing -- --ignored --nocapture`. Times the
    /// solve, then checks the answer by expanding (not timed).
    #[test]
    #[ignore = "a timing, to run by hand in release"]
    fn timing_2000_by_2000() {
        let never = || false;
        let zero = Rhs::Uniform(false);
        let mut rng = Rng(0x2545_F491_4F6C_DD1D);
        for (m, n) in [(2000, 2000), (2000, 2001), (1999, 2048), (4096, 4096)] {
            let mut random = BitGrid::zeros(m, n);
            for r in 0..m {
                for c in 0..n {
                    random.set(r, c, rng.bit());
                }
            }
            for rhs in [Rhs::Uniform(true), Rhs::Grid(&random)] {
                let start = std::time::Instant::now();
                let a = solve(m, n, &rhs, &never).unwrap();
                let elapsed = start.elapsed();
                let kind = if matches!(rhs, Rhs::Uniform(_)) { "all ones" } else { "random" };
                println!("{m}×{n} {kind}: {elapsed:?}, solvable {}, nullity {}", a.solvable, a.nullity);
                let mut g = BitGrid::zeros(m, n);
                for seed in &a.quiet_seeds {
                    assert!(expand(m, n, seed, &zero, &mut g, &never).unwrap());
                }
                if let Some(sol) = &a.solution {
                    let seed = (sol.row(0).to_vec(), sol.row(m - 1).to_vec());
                    assert!(expand(m, n, &seed, &rhs, &mut g, &never).unwrap());
                }
                if let Some(cert) = &a.certificate_seed {
                    assert!(expand(m, n, cert, &zero, &mut g, &never).unwrap());
                    let b = match rhs {
                        Rhs::Grid(b) => b,
                        Rhs::Uniform(_) => unreachable!("all ones solvable here"),
                    };
                    let odd = (0..m).fold(false, |acc, r| acc ^ bits::dot(g.row(r), b.row(r)));
                    assert!(odd);
                }
            }
        }
    }
}
