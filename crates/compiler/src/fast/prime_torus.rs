//! The polynomial method over GF(p) on the torus (cross rule, no locked
//! cells): the chase's leftover system, `2m` unknowns and `2m` equations for
//! rows of width `m`, solved in `R = GF(p)[z]/(z^m − 1)` in `O(m²)`
//! operations instead of the symbolic chase's `O(height·m²)` and the dense
//! leftover's `O(m³)`.
//!
//! The same system, with lines that are paths, comes from the cylinder and
//! the Möbius band chased across their seam (two columns of unknowns, the
//! last two columns' equations). `R` is then the ring of
//! [`prime_poly`](super::prime_poly) for paths, `GF(p)[s]/(u_m(s))`, where
//! multiplying by `s` applies the path's adjacency `A`. Every step of the
//! chase is a polynomial in `A` — also the Möbius band's seam, which
//! reverses the path: the reversal commutes with `A`, and a matrix that
//! commutes with one that has a cyclic vector (`e_0`) is a polynomial in it.
//! So the chase commutes with `A`, and the argument below holds word for
//! word with `s` for `z`; multiplying by `f` is the symmetric `f(A)`, so the
//! certificate needs no conjugation there.
//!
//! The chase on a torus takes its first two rows as unknowns, `x = P_0` and
//! `y = P_1`, and leaves the equations of its last two rows. Every row's
//! presses are `P_k = F_k·x + E_k·y + d_k` with `F_k`, `E_k` in `R` (the
//! board is the same seen from any column: moving `x` by one column moves
//! everything by one, which is multiplying by `z`). So the leftover
//! residuals (each equation's sum minus its need, rows `m − 2` and `m − 1`)
//! are `J·[x; y] + c` with `J` a 2×2 matrix over `R`: its columns are the
//! residuals of the chase with `x` (or `y`) one press at column 0 and no
//! needs, and `c` that of the chase with `x = y = 0`. The chase computes
//! those three (three numeric chases); this module solves `J·u = −c`.
//!
//! `R` is a principal ideal ring but not a domain: a 2×2 matrix over
//! `GF(p)[z]` is brought to diagonal form `L·J·R_c = diag(d_0, d_1)` by row
//! and column operations of determinant ±1 (extended gcds of its entries,
//! as for a Smith form), so invertible over `R` too. Each diagonal equation
//! `d_i·X_i ≡ f_i (mod U)` is the scalar one of [`prime_poly`](super::prime_poly):
//! with `g_i = gcd(d_i, U)`, solvable iff `g_i | f_i`, quiet solutions the
//! multiples of `U/g_i` (basis `z^k·U/g_i`, `k < deg g_i`), and `u = R_c·X`.
//!
//! The certificate is a left kernel vector of the leftover system with a
//! nonzero product with `c`. As vectors, multiplying by `f` is a circulant
//! matrix whose transpose multiplies by `f* = f(z^{−1})`, so the left kernel
//! is the kernel of `[[J_00*, J_10*], [J_01*, J_11*]]`, found the same way,
//! and one of its basis vectors meets `c` when the system is unsolvable.

use lights_algebra::{Kernel, KernelGenerator, Solution};

use super::prime_poly::{self, Poly, Ring, Row};
use super::FastError;

/// The torus's leftover system in the chase's terms, modulo a prime `p`
/// (or that of a cylinder or Möbius band chased across its seam).
pub(super) struct TorusLeftover<'a> {
    /// What a line is: a cycle on the torus, a path otherwise.
    pub(super) line: Row,
    pub(super) width: usize,
    pub(super) p: u32,
    /// Unknown `k` is slot `slot_of[k]`: `x`'s column `j` is slot `j`, `y`'s
    /// is slot `width + j`.
    pub(super) slot_of: &'a [usize],
    /// `J`'s columns: the residuals (row `m − 2`'s columns, then row
    /// `m − 1`'s) of the chase with `x`, then `y`, one press at column 0.
    pub(super) from_x: &'a [u32],
    pub(super) from_y: &'a [u32],
    /// The residuals with `x = y = 0`.
    pub(super) c: &'a [u32],
}

/// A 2×2 matrix over `R`.
type Matrix = [[Poly; 2]; 2];

/// Solves `J·u = −c` over GF(p) (module docs): the particular solution, the
/// kernel and the certificate, indexed as the chase's leftover system is.
pub(super) fn solve(left: &TorusLeftover<'_>, cancel: &dyn Fn() -> bool) -> Result<Solution, FastError> {
    let TorusLeftover { line, width: m, p, slot_of, from_x, from_y, c } = *left;
    let ring = Ring::new(line, m, p);
    let half = |v: &[u32], i: usize| ring.to_poly(&v[i * m..(i + 1) * m]);
    let j: Matrix = [[half(from_x, 0), half(from_y, 0)], [half(from_x, 1), half(from_y, 1)]];
    let minus_c = [ring.neg(&half(c, 0)), ring.neg(&half(c, 1))];

    let diagonal = diagonalise(&ring, j.clone(), cancel)?;
    let f = apply(&ring, &diagonal.left, &minus_c);
    let mut x = [Vec::new(), Vec::new()];
    let mut consistent = true;
    for i in 0..2 {
        let (g, sigma) = &diagonal.gcd[i];
        let (quotient, remainder) = ring.divmod(&f[i], g);
        consistent &= remainder.is_empty();
        x[i] = ring.mul_mod(sigma, &quotient);
    }
    if cancel() {
        return Err(FastError::Cancelled);
    }
    let by_unknown = |pair: &[Poly; 2]| -> Vec<u32> {
        let slots: Vec<u32> = pair.iter().flat_map(|a| ring.to_vec(a)).collect();
        slot_of.iter().map(|&s| slots[s]).collect()
    };
    let particular = consistent.then(|| by_unknown(&apply(&ring, &diagonal.right, &x)));
    let generators = kernel_basis(&ring, &diagonal, cancel)?
        .iter()
        .map(|v| KernelGenerator { vector: slot_of.iter().map(|&s| v[s]).collect(), order: p })
        .collect();
    let certificate = if consistent {
        None
    } else {
        // The left kernel: the kernel of J's transpose (conjugated entries
        // on cycles; on paths multiplying by `f` is `f(A)`, symmetric).
        let star = |a: &Poly| ring.transposed(a);
        let transposed: Matrix = [[star(&j[0][0]), star(&j[1][0])], [star(&j[0][1]), star(&j[1][1])]];
        let left_diagonal = diagonalise(&ring, transposed, cancel)?;
        let basis = kernel_basis(&ring, &left_diagonal, cancel)?;
        let z = basis.into_iter().find(|z| ring.dot(z, c) != 0).ok_or_else(|| {
            FastError::Internal(
                "polynomial method on the torus: no kernel vector certifies the unsolvable board".into(),
            )
        })?;
        Some(z)
    };
    Ok(Solution { modulus: p, consistent, particular, kernel: Kernel { generators }, certificate })
}

/// The one-line system of a folded Klein bottle (`chase.rs`, `Layout`):
/// `2·rows` unknowns (the first line, a cycle) and as many equations (the
/// last line's), modulo a prime `p`.
pub(super) struct LineLeftover<'a> {
    pub(super) width: usize,
    pub(super) p: u32,
    /// Unknown `k` is the line's slot `slot_of[k]`.
    pub(super) slot_of: &'a [usize],
    /// `h`: the residuals of the chase with one press at slot 0, no needs.
    pub(super) from_x: &'a [u32],
    /// The residuals with no press.
    pub(super) c: &'a [u32],
}

/// Solves `h·u = −c` in `R = GF(p)[z]/(z^m − 1)`: the chase of a folded
/// Klein bottle commutes with moving every line one step along itself, so
/// its residuals are `h·u + c` as on the torus, with one unknown line
/// instead of two: the scalar system of [`prime_poly::solve_scalar`], the
/// certificate from the kernel of the transpose, multiplying by `h(z^{−1})`.
pub(super) fn solve_line(left: &LineLeftover<'_>, cancel: &dyn Fn() -> bool) -> Result<Solution, FastError> {
    let LineLeftover { width: m, p, slot_of, from_x, c } = *left;
    let ring = Ring::new(Row::Cycle, m, p);
    let h = ring.to_poly(from_x);
    prime_poly::solve_scalar(&ring, &h, &ring.neg(&ring.to_poly(c)), slot_of, c, cancel)
}

/// `L·J·R = diag(d)`, `L` and `R` of determinant ±1, kept as each `d_i`'s
/// `(g_i, σ_i)`: `g_i = gcd(d_i, U)`, `σ_i·d_i ≡ g_i` (all the solve needs).
struct Diagonal {
    left: Matrix,
    right: Matrix,
    gcd: [(Poly, Poly); 2],
}

fn identity() -> Matrix {
    [[vec![1], Vec::new()], [Vec::new(), vec![1]]]
}

/// `a·b` for 2×2 matrices over `R`.
fn product(ring: &Ring, a: &Matrix, b: &Matrix) -> Matrix {
    let entry = |i: usize, k: usize| add(ring, &ring.mul_mod(&a[i][0], &b[0][k]), &ring.mul_mod(&a[i][1], &b[1][k]));
    [[entry(0, 0), entry(0, 1)], [entry(1, 0), entry(1, 1)]]
}

/// `a·v` for a 2×2 matrix and a pair over `R`.
fn apply(ring: &Ring, a: &Matrix, v: &[Poly; 2]) -> [Poly; 2] {
    let entry = |i: usize| add(ring, &ring.mul_mod(&a[i][0], &v[0]), &ring.mul_mod(&a[i][1], &v[1]));
    [entry(0), entry(1)]
}

fn add(ring: &Ring, a: &[u32], b: &[u32]) -> Poly {
    let mut out = a.to_vec();
    ring.sub_assign(&mut out, &ring.neg(b));
    out
}

/// The operation that clears `other` against `pivot` (a 2×2 matrix `E`
/// with `E·[pivot; other] = [g; 0]`, `g = gcd`, determinant ±1); `None`
/// when `other` is zero already.
fn clearing(ring: &Ring, pivot: &[u32], other: &[u32]) -> Option<Matrix> {
    if other.is_empty() {
        return None;
    }
    if pivot.is_empty() {
        return Some([[Vec::new(), vec![1]], [vec![1], Vec::new()]]);
    }
    let (q, r) = ring.divmod(other, pivot);
    if r.is_empty() {
        return Some([[vec![1], Vec::new()], [ring.neg(&q), vec![1]]]);
    }
    // s·pivot + t·other = g; det [[s, t], [−other/g, pivot/g]] = 1.
    let (g, s, t) = ring.ext_gcd(pivot, other);
    let (pivot_g, _) = ring.divmod(pivot, &g);
    let (other_g, _) = ring.divmod(other, &g);
    Some([[s, t], [ring.neg(&other_g), pivot_g]])
}

fn transpose(a: &Matrix) -> Matrix {
    [[a[0][0].clone(), a[1][0].clone()], [a[0][1].clone(), a[1][1].clone()]]
}

/// Row and column operations until `j` is diagonal: each clearing either
/// ends (the pivot divides the entry) or lowers the pivot's degree.
fn diagonalise(ring: &Ring, mut j: Matrix, cancel: &dyn Fn() -> bool) -> Result<Diagonal, FastError> {
    let (mut left, mut right) = (identity(), identity());
    loop {
        if cancel() {
            return Err(FastError::Cancelled);
        }
        if let Some(e) = clearing(ring, &j[0][0], &j[1][0]) {
            j = product(ring, &e, &j);
            left = product(ring, &e, &left);
        } else if let Some(e) = clearing(ring, &j[0][0], &j[0][1]) {
            // A column operation: E·[pivot; other] as rows is J·Eᵀ.
            let f = transpose(&e);
            j = product(ring, &j, &f);
            right = product(ring, &right, &f);
        } else {
            let gcd = [ring.gcd_with_cofactor(&j[0][0]), ring.gcd_with_cofactor(&j[1][1])];
            return Ok(Diagonal { left, right, gcd });
        }
    }
}

/// A basis of the kernel over GF(p), as vectors of `2m` slots: for each
/// diagonal entry, `R`'s column times `z^k·U/g` (`k < deg g`).
fn kernel_basis(ring: &Ring, diagonal: &Diagonal, cancel: &dyn Fn() -> bool) -> Result<Vec<Vec<u32>>, FastError> {
    let mut basis = Vec::new();
    for i in 0..2 {
        let column = [diagonal.right[0][i].clone(), diagonal.right[1][i].clone()];
        basis.extend(ring.quiet(&column, &diagonal.gcd[i].0, cancel)?);
    }
    Ok(basis)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A pseudo-random polynomial of degree below `m`.
    fn poly(seed: u64, m: usize, p: u32) -> Poly {
        let mut s = seed | 1;
        let mut out: Poly = (0..m)
            .map(|_| {
                s ^= s << 13;
                s ^= s >> 7;
                s ^= s << 17;
                (s % u64::from(p)) as u32
            })
            .collect();
        prime_poly::trim(&mut out);
        out
    }

    #[test]
    fn diagonalising_keeps_the_matrix() {
        // L·J·R is diagonal, and L, R are invertible: L·J·R = D with
        // J = L⁻¹·D·R⁻¹ checked through det L and det R being units.
        for (m, p) in [(5usize, 3u32), (6, 5), (8, 7), (9, 3), (12, 13)] {
            let ring = Ring::new(Row::Cycle, m, p);
            for seed in 0..30u64 {
                let mut j: Matrix = [
                    [poly(seed * 4 + 1, m, p), poly(seed * 4 + 2, m, p)],
                    [poly(seed * 4 + 3, m, p), poly(seed * 4 + 4, m, p)],
                ];
                if seed % 5 == 0 {
                    // Zero divisors: multiples of z − 1 (a factor of z^m − 1).
                    for e in j.iter_mut().flatten() {
                        *e = ring.mul_mod(e, &[p - 1, 1]);
                    }
                }
                let d = diagonalise(&ring, j.clone(), &|| false).unwrap();
                let ljr = product(&ring, &product(&ring, &d.left, &j), &d.right);
                assert!(ljr[0][1].is_empty() && ljr[1][0].is_empty(), "m = {m} p = {p}: not diagonal");
                let diagonal = [&ljr[0][0], &ljr[1][1]];
                for (entry, gcd) in diagonal.into_iter().zip(&d.gcd) {
                    assert_eq!(&ring.gcd_with_cofactor(entry), gcd, "m = {m} p = {p}");
                }
                for a in [&d.left, &d.right] {
                    let det =
                        add(&ring, &ring.mul_mod(&a[0][0], &a[1][1]), &ring.neg(&ring.mul_mod(&a[0][1], &a[1][0])));
                    assert!(det == vec![1] || det == vec![p - 1], "det {det:?}");
                }
            }
        }
    }

    #[test]
    fn the_transposed_polynomial_transposes_the_product() {
        // (a·u)·v = u·(a*·v) as vectors, on cycles (a* = a(z^{−1})) and
        // paths (a* = a).
        for row in [Row::Cycle, Row::Path] {
            let (m, p) = (7usize, 5u32);
            let ring = Ring::new(row, m, p);
            for seed in 0..10u64 {
                let a = poly(seed * 3 + 11, m, p);
                let (u, v) = (poly(seed * 3 + 12, m, p), poly(seed * 3 + 13, m, p));
                let left = ring.dot(&ring.to_vec(&ring.mul_mod(&a, &u)), &ring.to_vec(&v));
                let right = ring.dot(&ring.to_vec(&u), &ring.to_vec(&ring.mul_mod(&ring.transposed(&a), &v)));
                assert_eq!(left, right, "{row:?} seed {seed}");
            }
        }
    }
}
