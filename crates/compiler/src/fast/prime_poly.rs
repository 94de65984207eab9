//! The polynomial method over GF(p), and by Chinese remainders over `Z/W`
//! for `W` a product of distinct primes (6, 10, 15, …): the chase's leftover
//! system for the cross rule on a plane board (rows are paths) or a cylinder
//! chased along its open direction (rows are cycles), no locked cells, in
//! `O(height·width + width²)` operations instead of the symbolic chase's
//! `O(height·width²)` (1000×1000 with three states: seconds before).
//!
//! As in [`poly`](super::poly) for GF(2): with `P_i` the presses of row `i`,
//! the chase is `P_{i+1} = b_i − T·P_i − P_{i−1}` (`T` the row's cross
//! operator: the cell and its left and right neighbours), `P_{−1} = 0`,
//! `P_0 = u` the unknowns. So `P_k = G_k·u + d_k` with `G_0 = I`,
//! `G_1 = −T`, `G_{k+1} = −T·G_k − G_{k−1}`, and the leftover equations (the
//! last row's lights, `T·P_{n−1} + P_{n−2} = b_{n−1}`) read
//! `G_n·u = c` with `c` = the last row's sums at `u = 0`, minus `b_{n−1}`.
//!
//! Rows become polynomials. On a cycle of width `m`, `v ↦ Σ v_j z^j` in
//! `GF(p)[z]/(z^m − 1)` and `T` is multiplication by `1 + z + z^{m−1}`. On a
//! path the adjacency `A` has the cyclic vector `e_0`, with `e_j = u_j(A)·e_0`
//! for `u_0 = 1`, `u_1 = s`, `u_{j+1} = s·u_j − u_{j−1}`; so `v ↦ Σ v_j u_j(s)`
//! in `GF(p)[s]/(u_m(s))`, and `T = A + I` is multiplication by `s + 1`.
//! Either way `G_n` is multiplication by `h = g_n(t) mod U` and the system is
//! `h·X ≡ C (mod U)`: with `g = gcd(h, U) = σ·h + τ·U`, it is solvable iff
//! `g | C`, by `X = σ·C/g`; the kernel is the multiples of `U/g`, with basis
//! `U/g, s·U/g, …` (`deg g` of them: multiplying by the generator is applying
//! `A`, or a cyclic shift, to the vector). `G_n` is a polynomial in the
//! symmetric `T`, so symmetric: when `g ∤ C`, some kernel vector `z` has
//! `z·c ≠ 0`, and it is the leftover certificate.
//!
//! Everything it returns is in the chase's own terms (unknowns in the plan's
//! order, leftover equations as positions), and the chase re-checks the
//! whole report on boards of up to four million cells.

use lights_algebra::modular::mod_inv;
use lights_algebra::{Kernel, KernelGenerator, Solution};

use super::FastError;

/// A polynomial over GF(p): coefficients from degree 0, no trailing zeros.
pub(super) type Poly = Vec<u32>;

/// What a row is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Row {
    Path,
    Cycle,
}

/// The leftover system in the chase's terms: the unknowns are the first row
/// (`column_of[k]` is unknown `k`'s column), the leftover equations the last
/// row's lights, in column order.
pub(super) struct Leftover<'a> {
    pub(super) row: Row,
    pub(super) width: usize,
    pub(super) height: usize,
    pub(super) p: u32,
    pub(super) column_of: &'a [usize],
    /// `c`: per column, the last row's sum at `u = 0` minus its need.
    pub(super) c: &'a [u32],
}

/// The primes of `w` when it is a product of distinct primes (6 → 2, 3);
/// `None` for 1 and when a prime's square divides it (4, 12: `Z/p^e` has no
/// gcd of polynomials).
pub(super) fn squarefree_primes(w: u32) -> Option<Vec<u32>> {
    let mut primes = Vec::new();
    let mut rest = w;
    let mut d = 2;
    while d * d <= rest {
        if rest.is_multiple_of(d) {
            rest /= d;
            if rest.is_multiple_of(d) {
                return None;
            }
            primes.push(d);
        }
        d += 1;
    }
    if rest > 1 {
        primes.push(rest);
    }
    (!primes.is_empty()).then_some(primes)
}

/// Solves `G_n·u = c` over `Z/W` for a squarefree `W = p₁·…·p_k` (`left.p`
/// is W, `primes` its primes): each prime by [`solve`], then put together
/// by Chinese remainders — the particular solutions combined, each prime's
/// kernel generators scaled by `W/p` (order p), and the certificate of a
/// prime that has none scaled the same way (`(W/p)·z` is a left kernel
/// vector modulo W whose product with `c` is `(W/p)·(z·c) ≢ 0`).
pub(super) fn solve_squarefree(
    left: &Leftover<'_>,
    primes: &[u32],
    cancel: &dyn Fn() -> bool,
) -> Result<Solution, FastError> {
    combine_primes(left.p, left.c, primes, |p, c| solve(&Leftover { p, c, ..*left }, cancel))
}

/// A system over `Z/W`, `W` squarefree with these `primes`, from its
/// solutions modulo each prime (`solve_prime(p, c mod p)`), by Chinese
/// remainders ([`solve_squarefree`]'s docs). The unknowns are as many as
/// the particular solutions' entries.
pub(super) fn combine_primes(
    w: u32,
    c: &[u32],
    primes: &[u32],
    mut solve_prime: impl FnMut(u32, &[u32]) -> Result<Solution, FastError>,
) -> Result<Solution, FastError> {
    if let [only] = primes {
        if *only == w {
            let mut solution = solve_prime(w, c)?;
            systematic(&mut solution, w);
            return Ok(solution);
        }
    }
    let wide = u64::from(w);
    let mut particular: Option<Vec<u32>> = None;
    let mut consistent = true;
    let mut generators = Vec::new();
    let mut certificate = None;
    for &p in primes {
        let c: Vec<u32> = c.iter().map(|&v| v % p).collect();
        let mut part = solve_prime(p, &c)?;
        systematic(&mut part, p);
        let cofactor = w / p;
        // e ≡ 1 (mod p), ≡ 0 modulo the other primes.
        let unit = u64::from(cofactor) * u64::from(mod_inv(cofactor % p, p).unwrap_or(0)) % wide;
        match &part.particular {
            Some(xp) if consistent => {
                let x = particular.get_or_insert_with(|| vec![0u32; xp.len()]);
                for (a, &b) in x.iter_mut().zip(xp) {
                    *a = ((u64::from(*a) + unit * u64::from(b)) % wide) as u32;
                }
            }
            _ => {
                consistent = false;
                particular = None;
            }
        }
        let scale = |v: &[u32]| -> Vec<u32> {
            v.iter().map(|&x| ((u64::from(cofactor) * u64::from(x)) % wide) as u32).collect()
        };
        generators
            .extend(part.kernel.generators.iter().map(|g| KernelGenerator { vector: scale(&g.vector), order: p }));
        if certificate.is_none() {
            certificate = part.certificate.as_deref().map(scale);
        }
    }
    Ok(Solution { modulus: w, consistent, particular, kernel: Kernel { generators }, certificate })
}

/// Work of [`systematic`] (nullity² × unknowns) beyond which the basis is
/// left as the polynomials give it.
const SYSTEMATIC_WORK: usize = 1 << 28;

/// The kernel basis in systematic form over GF(p), as dense elimination
/// leaves it: each generator is 1 on an unknown of its own and 0 on the
/// others' (chosen from the last unknown back, as elimination from the
/// first leaves the last ones free), and the particular solution 0 on
/// them. The polynomials' basis is shifts of one vector, all of them dense,
/// and the minimum search does worse on it: a 200×204 torus with W = 7 was
/// proven (74,800 presses) from the dense basis, not from the shifts.
fn systematic(solution: &mut Solution, p: u32) {
    let rows = &mut solution.kernel.generators;
    let (k, u) = (rows.len(), rows.first().map_or(0, |g| g.vector.len()));
    if k == 0 || k.saturating_mul(k).saturating_mul(u) > SYSTEMATIC_WORK {
        return;
    }
    let wide = u64::from(p);
    let mut free = Vec::with_capacity(k);
    let mut done = 0;
    for col in (0..u).rev() {
        if done == k {
            break;
        }
        let Some(r) = (done..k).find(|&r| rows[r].vector[col] != 0) else { continue };
        rows.swap(done, r);
        let inv = u64::from(mod_inv(rows[done].vector[col], p).unwrap_or(0));
        for v in &mut rows[done].vector {
            *v = (u64::from(*v) * inv % wide) as u32;
        }
        let pivot = rows[done].vector.clone();
        for (r, row) in rows.iter_mut().enumerate() {
            let f = row.vector[col];
            if r != done && f != 0 {
                let f = wide - u64::from(f);
                for (x, &y) in row.vector.iter_mut().zip(&pivot) {
                    *x = ((u64::from(*x) + f * u64::from(y)) % wide) as u32;
                }
            }
        }
        free.push(col);
        done += 1;
    }
    if let Some(x) = &mut solution.particular {
        for (row, &col) in rows.iter().zip(&free) {
            let f = x[col];
            if f != 0 {
                let f = wide - u64::from(f);
                for (a, &y) in x.iter_mut().zip(&row.vector) {
                    *a = ((u64::from(*a) + f * u64::from(y)) % wide) as u32;
                }
            }
        }
    }
}

/// Solves `G_n·u = c` over GF(p), `left.p` prime (module docs): the
/// particular solution, the kernel and the certificate indexed as the
/// chase's leftover system is.
pub(super) fn solve(left: &Leftover<'_>, cancel: &dyn Fn() -> bool) -> Result<Solution, FastError> {
    let Leftover { row, width: m, height: n, p, column_of, c } = *left;
    let ring = Ring::new(row, m, p);
    // h = g_n(t) mod U.
    let mut prev: Poly = vec![1];
    let mut h = ring.neg(&ring.times_t(&prev));
    for k in 1..n {
        if k % 256 == 0 && cancel() {
            return Err(FastError::Cancelled);
        }
        let mut next = ring.neg(&ring.times_t(&h));
        ring.sub_assign(&mut next, &prev);
        prev = std::mem::replace(&mut h, next);
    }
    if cancel() {
        return Err(FastError::Cancelled);
    }
    solve_scalar(&ring, &h, &ring.to_poly(c), column_of, c, cancel)
}

/// Solves `h·X ≡ rhs (mod U)` over GF(p) and reads the answer in the chase's
/// terms: unknown `k` is slot `slot_of[k]` of the row, `c` the leftover
/// equations' residuals with no press. With `g = gcd(h, U) = σ·h + τ·U`
/// it is solvable iff `g | rhs`, by `X = σ·rhs/g`; the quiet solutions are
/// the multiples of `U/g`; the certificate, when it is not, is a quiet
/// vector of the transpose (multiplying by [`Ring::transposed`]`(h)`) with a
/// nonzero product with `c`.
pub(super) fn solve_scalar(
    ring: &Ring,
    h: &[u32],
    rhs: &[u32],
    slot_of: &[usize],
    c: &[u32],
    cancel: &dyn Fn() -> bool,
) -> Result<Solution, FastError> {
    let (g, sigma) = ring.gcd_with_cofactor(h);
    let (quotient, remainder) = ring.divmod(rhs, &g);
    let consistent = remainder.is_empty();
    let by_unknown = |slots: &[u32]| -> Vec<u32> { slot_of.iter().map(|&s| slots[s]).collect() };
    let particular = consistent.then(|| by_unknown(&ring.to_vec(&ring.mul_mod(&sigma, &quotient))));
    let one = [vec![1]];
    let basis = ring.quiet(&one, &g, cancel)?;
    let certificate = if consistent {
        None
    } else {
        // `h` is its own transpose on paths (and for the symmetric rows of
        // the plane and cylinder): then its quiet vectors are the left ones.
        let h_t = ring.transposed(h);
        let transposed_basis;
        let left: &[Vec<u32>] = if h_t == h {
            &basis
        } else {
            transposed_basis = ring.quiet(&one, &ring.gcd_with_cofactor(&h_t).0, cancel)?;
            &transposed_basis
        };
        let z = left.iter().find(|z| ring.dot(z, c) != 0).ok_or_else(|| {
            FastError::Internal("polynomial method over GF(p): no kernel vector certifies the unsolvable board".into())
        })?;
        Some(z.clone())
    };
    let generators = basis.iter().map(|z| KernelGenerator { vector: by_unknown(z), order: ring.p }).collect();
    Ok(Solution { modulus: ring.p, consistent, particular, kernel: Kernel { generators }, certificate })
}

pub(super) fn degree(a: &[u32]) -> usize {
    a.len().saturating_sub(1)
}

pub(super) fn trim(a: &mut Poly) {
    while a.last() == Some(&0) {
        a.pop();
    }
}

/// `GF(p)[s]/(U)` for one kind of row of width `m`.
pub(super) struct Ring {
    row: Row,
    m: usize,
    p: u32,
    /// `U`, monic of degree `m`.
    pub(super) modulus: Poly,
}

impl Ring {
    pub(super) fn new(row: Row, m: usize, p: u32) -> Ring {
        let modulus = match row {
            Row::Cycle => {
                // z^m − 1.
                let mut u = vec![0u32; m + 1];
                u[0] = p - 1;
                u[m] = 1;
                u
            }
            Row::Path => {
                // u_m: u_0 = 1, u_1 = s, u_{j+1} = s·u_j − u_{j−1}.
                let (mut before, mut u): (Poly, Poly) = (vec![1], vec![0, 1]);
                if m == 0 {
                    u = vec![1];
                }
                for _ in 1..m {
                    let mut next = vec![0u32; u.len() + 1];
                    next[1..].copy_from_slice(&u);
                    for (i, &b) in before.iter().enumerate() {
                        next[i] = (next[i] + p - b) % p;
                    }
                    before = std::mem::replace(&mut u, next);
                }
                u
            }
        };
        Ring { row, m, p, modulus }
    }

    pub(super) fn neg(&self, a: &[u32]) -> Poly {
        a.iter().map(|&x| if x == 0 { 0 } else { self.p - x }).collect()
    }

    pub(super) fn sub_assign(&self, a: &mut Poly, b: &[u32]) {
        if a.len() < b.len() {
            a.resize(b.len(), 0);
        }
        for (x, &y) in a.iter_mut().zip(b) {
            *x = if *x >= y { *x - y } else { *x + self.p - y };
        }
        trim(a);
    }

    /// `a·t mod U` for `a` of degree below `m`.
    fn times_t(&self, a: &[u32]) -> Poly {
        let p = self.p;
        let add = |x: u32, y: u32| if x + y >= p { x + y - p } else { x + y };
        let mut out = match self.row {
            Row::Cycle => {
                // (1 + z + z^{−1})·a: the vector and its two cyclic shifts.
                let m = self.m;
                let at = |j: usize| a.get(j).copied().unwrap_or(0);
                (0..m).map(|j| add(add(at(j), at((j + m - 1) % m)), at((j + 1) % m))).collect()
            }
            Row::Path => {
                // (s + 1)·a, then one step of reduction by the monic U.
                let mut out = vec![0u32; self.m + 1];
                for (i, &x) in a.iter().enumerate() {
                    out[i] = add(out[i], x);
                    out[i + 1] = add(out[i + 1], x);
                }
                let lead = out[self.m];
                if lead != 0 {
                    for (o, &u) in out.iter_mut().zip(&self.modulus) {
                        *o = ((u64::from(*o) + u64::from(p - lead) * u64::from(u)) % u64::from(p)) as u32;
                    }
                }
                out
            }
        };
        trim(&mut out);
        out
    }

    /// `(q, r)` with `a = q·b + r`, `deg r < deg b` (`b` not zero).
    pub(super) fn divmod(&self, a: &[u32], b: &[u32]) -> (Poly, Poly) {
        let p = u64::from(self.p);
        let mut r: Poly = a.to_vec();
        trim(&mut r);
        let db = degree(b);
        if r.len() < b.len() {
            return (Vec::new(), r);
        }
        let inv = u64::from(mod_inv(b[db], self.p).unwrap_or(0));
        let mut q = vec![0u32; r.len() - db];
        for i in (db..r.len()).rev() {
            let f = u64::from(r[i]) * inv % p;
            if f == 0 {
                continue;
            }
            q[i - db] = f as u32;
            let shift = i - db;
            for (j, &bj) in b.iter().enumerate() {
                let x = &mut r[shift + j];
                *x = ((u64::from(*x) + (p - f) * u64::from(bj)) % p) as u32;
            }
        }
        trim(&mut q);
        r.truncate(db);
        trim(&mut r);
        (q, r)
    }

    /// `a·b mod U`.
    pub(super) fn mul_mod(&self, a: &[u32], b: &[u32]) -> Poly {
        if a.is_empty() || b.is_empty() {
            return Vec::new();
        }
        if self.row == Row::Cycle && a.len() <= self.m && b.len() <= self.m {
            // z^m = 1: the product wraps around, no division.
            let m = self.m;
            let mut out = vec![0u64; m];
            let p = u64::from(self.p);
            for (i, &x) in a.iter().enumerate() {
                if x == 0 {
                    continue;
                }
                let x = u64::from(x);
                for (j, &y) in b.iter().enumerate() {
                    let k = if i + j >= m { i + j - m } else { i + j };
                    out[k] = (out[k] + x * u64::from(y)) % p;
                }
            }
            let mut out: Poly = out.into_iter().map(|v| v as u32).collect();
            trim(&mut out);
            return out;
        }
        self.divmod(&self.mul(a, b), &self.modulus).1
    }

    /// `a·b`, not reduced.
    pub(super) fn mul(&self, a: &[u32], b: &[u32]) -> Poly {
        if a.is_empty() || b.is_empty() {
            return Vec::new();
        }
        let p = u64::from(self.p);
        let mut full = vec![0u64; a.len() + b.len() - 1];
        for (i, &x) in a.iter().enumerate() {
            if x == 0 {
                continue;
            }
            for (j, &y) in b.iter().enumerate() {
                full[i + j] = (full[i + j] + u64::from(x) * u64::from(y)) % p;
            }
        }
        let mut full: Poly = full.into_iter().map(|v| v as u32).collect();
        trim(&mut full);
        full
    }

    /// `(g, s, r)`: `g = gcd(a, b)` monic (in `GF(p)[s]`, not reduced) and
    /// `s·a + r·b = g`; `a` or `b` not zero.
    pub(super) fn ext_gcd(&self, a: &[u32], b: &[u32]) -> (Poly, Poly, Poly) {
        let (mut r0, mut r1): (Poly, Poly) = (a.to_vec(), b.to_vec());
        trim(&mut r0);
        trim(&mut r1);
        let (mut s0, mut s1): (Poly, Poly) = (vec![1], Vec::new());
        let (mut t0, mut t1): (Poly, Poly) = (Vec::new(), vec![1]);
        while !r1.is_empty() {
            let (q, r) = self.divmod(&r0, &r1);
            let mut s = s0;
            self.sub_assign(&mut s, &self.mul(&q, &s1));
            let mut t = t0;
            self.sub_assign(&mut t, &self.mul(&q, &t1));
            (r0, r1) = (r1, r);
            (s0, s1) = (s1, s);
            (t0, t1) = (t1, t);
        }
        let inv = u64::from(mod_inv(r0[degree(&r0)], self.p).unwrap_or(0));
        let scale = |v: &Poly| -> Poly {
            let mut out: Poly = v.iter().map(|&x| (u64::from(x) * inv % u64::from(self.p)) as u32).collect();
            trim(&mut out);
            out
        };
        (scale(&r0), scale(&s0), scale(&t0))
    }

    /// `(g, σ)`: `g = gcd(a, U)` monic and `σ·a ≡ g (mod U)`.
    pub(super) fn gcd_with_cofactor(&self, a: &[u32]) -> (Poly, Poly) {
        // s·U + σ·a = g.
        let (g, _, sigma) = self.ext_gcd(&self.modulus, a);
        (g, self.divmod(&sigma, &self.modulus).1)
    }

    /// The row vector of `a` (degree below `m`).
    pub(super) fn to_vec(&self, a: &[u32]) -> Vec<u32> {
        match self.row {
            Row::Cycle => {
                let mut v = a.to_vec();
                v.resize(self.m, 0);
                v
            }
            Row::Path => {
                // Horner: a(A)·e_0.
                let mut v = vec![0u32; self.m];
                for &coef in a.iter().rev() {
                    v = self.apply_adjacency(&v);
                    v[0] = (v[0] + coef) % self.p;
                }
                v
            }
        }
    }

    /// The polynomial of row vector `v`.
    pub(super) fn to_poly(&self, v: &[u32]) -> Poly {
        let mut out = match self.row {
            Row::Cycle => v.to_vec(),
            Row::Path => {
                // Clenshaw: b_j = v_j + s·b_{j+1} − b_{j+2}; the sum is b_0.
                let p = self.p;
                let (mut b1, mut b2): (Poly, Poly) = (Vec::new(), Vec::new());
                for &vj in v.iter().rev() {
                    let mut b = vec![0u32; b1.len() + 1];
                    b[1..].copy_from_slice(&b1);
                    b[0] = (b[0] + vj) % p;
                    self.sub_assign(&mut b, &b2);
                    b2 = std::mem::replace(&mut b1, b);
                }
                b1
            }
        };
        trim(&mut out);
        out
    }

    /// The vectors of `s^k·a` (path) or `z^k·a` (cycle), `k < count`, for
    /// each `a` of `seeds` side by side (one vector of `m` entries per
    /// seed): each the last one moved by the generator.
    pub(super) fn multiples(
        &self,
        seeds: &[Poly],
        count: usize,
        cancel: &dyn Fn() -> bool,
    ) -> Result<Vec<Vec<u32>>, FastError> {
        let mut v: Vec<u32> = seeds.iter().flat_map(|a| self.to_vec(a)).collect();
        let mut out = Vec::with_capacity(count);
        for k in 0..count {
            if k % 64 == 0 && cancel() {
                return Err(FastError::Cancelled);
            }
            let next: Vec<u32> = v.chunks(self.m).flat_map(|part| self.times_generator(part)).collect();
            out.push(std::mem::replace(&mut v, next));
        }
        Ok(out)
    }

    /// The vector of `s·a` (path) or `z·a` (cycle) from that of `a`.
    pub(super) fn times_generator(&self, v: &[u32]) -> Vec<u32> {
        match self.row {
            Row::Cycle => {
                let m = self.m;
                (0..m).map(|j| v[(j + m - 1) % m]).collect()
            }
            Row::Path => self.apply_adjacency(v),
        }
    }

    /// The path's adjacency applied to `v`.
    fn apply_adjacency(&self, v: &[u32]) -> Vec<u32> {
        let m = self.m;
        (0..m)
            .map(|j| {
                let left = if j > 0 { v[j - 1] } else { 0 };
                let right = if j + 1 < m { v[j + 1] } else { 0 };
                (left + right) % self.p
            })
            .collect()
    }

    /// The polynomial whose product is the transpose of multiplying by `a`
    /// (as a matrix on row vectors): `a(z^{−1})` on a cycle, whose
    /// products are circulants; `a` itself on a path, where it is the
    /// symmetric `a(A)`.
    pub(super) fn transposed(&self, a: &[u32]) -> Poly {
        match self.row {
            Row::Cycle => {
                let (m, v) = (self.m, self.to_vec(a));
                let reversed: Vec<u32> = (0..m).map(|j| v[(m - j) % m]).collect();
                self.to_poly(&reversed)
            }
            Row::Path => a.to_vec(),
        }
    }

    /// A basis of the quiet solutions a diagonal entry with `g = gcd(entry,
    /// U)` leaves, carried through `column` (one multiplier per row of
    /// unknowns; `[1]` for a scalar system): `column·s^k·U/g` (`z^k` on a
    /// cycle), `k < deg g`, as vectors of `m` entries per multiplier.
    pub(super) fn quiet(
        &self,
        column: &[Poly],
        g: &[u32],
        cancel: &dyn Fn() -> bool,
    ) -> Result<Vec<Vec<u32>>, FastError> {
        let nullity = degree(g);
        if nullity == 0 {
            return Ok(Vec::new());
        }
        let (k_poly, _) = self.divmod(&self.modulus, g);
        let seeds: Vec<Poly> = column.iter().map(|a| self.mul_mod(a, &k_poly)).collect();
        self.multiples(&seeds, nullity, cancel)
    }

    pub(super) fn dot(&self, a: &[u32], b: &[u32]) -> u64 {
        let p = u64::from(self.p);
        a.iter().zip(b).fold(0, |acc, (&x, &y)| (acc + u64::from(x) * u64::from(y)) % p)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_and_polynomials_round_trip() {
        for row in [Row::Path, Row::Cycle] {
            for m in 3..12 {
                for p in [3u32, 5, 7, 65_521] {
                    let ring = Ring::new(row, m, p);
                    let v: Vec<u32> = (0..m).map(|j| ((j * j * 7 + 3 * j + 1) as u32) % p).collect();
                    assert_eq!(ring.to_vec(&ring.to_poly(&v)), v, "{row:?} m = {m} p = {p}");
                    // T on the vector is t on the polynomial.
                    let t_vec: Vec<u32> = (0..m)
                        .map(|j| {
                            let (l, r) = match row {
                                Row::Path => (if j > 0 { v[j - 1] } else { 0 }, if j + 1 < m { v[j + 1] } else { 0 }),
                                Row::Cycle => (v[(j + m - 1) % m], v[(j + 1) % m]),
                            };
                            (l + v[j] + r) % p
                        })
                        .collect();
                    assert_eq!(ring.to_vec(&ring.times_t(&ring.to_poly(&v))), t_vec, "{row:?} m = {m} p = {p}");
                }
            }
        }
    }

    #[test]
    fn the_cofactor_gives_the_gcd() {
        let ring = Ring::new(Row::Path, 9, 7);
        for seed in 0..40u32 {
            let a: Poly = (0..9).map(|j| (seed * 31 + j * j * 5 + j) % 7).collect();
            let (g, sigma) = ring.gcd_with_cofactor(&a);
            let mut a = a;
            trim(&mut a);
            let product = ring.mul_mod(&sigma, &a);
            let (_, r) = ring.divmod(&ring.modulus, &g);
            assert!(r.is_empty(), "g divides U");
            if a.is_empty() {
                assert_eq!(g, ring.modulus);
            } else {
                let (_, ra) = ring.divmod(&a, &g);
                assert!(ra.is_empty(), "g divides a");
                assert_eq!(product, ring.divmod(&g, &ring.modulus).1, "σ·a ≡ g");
            }
        }
    }
}
