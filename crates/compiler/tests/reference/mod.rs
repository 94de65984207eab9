//! Independent re-derivations shared by the brute-force tests
//! (`brute_force.rs`, `shapes.rs`, `examples_brute_force.rs`): press
//! patterns from the language reference, holes, exhaustive enumeration and
//! Gaussian elimination over GF(p). Nothing here calls `lower.rs` or the
//! solver, so a bug there cannot hide behind a shared helper.
//!
//! - square cells: lines are followed across the surface one border
//!   crossing at a time, stencils sorted nearest the centre first;
//! - hexagonal cells: two cells are neighbours when their centres are one
//!   hexagon apart in the plane, after gluing (centres at doubled x = 2c +
//!   (r mod 2), y = r: odd rows shifted right by half a cell);
//! - graphs: the edge list;
//! - holes: a hole's press changes nothing, and nothing lands on a hole.

#![allow(dead_code)]

use lights_compiler::model::{Puzzle, Rule, Shape, Topology};

/// A puzzle in one line, for assertion messages: shape, size, W, rule,
/// topology, and the cells of each board-sized value when `cells`.
pub(crate) fn describe(p: &Puzzle, cells: bool) -> String {
    let head =
        format!("{} {}x{} W={} {} {}", p.shape.name(), p.rows, p.cols, p.states, p.rule.name(), p.topology.name());
    if !cells {
        return head;
    }
    format!(
        "{head} lights={:?} goal={:?} locked={:?} holes={:?}",
        p.lights.to_vec(),
        p.goal.to_vec(),
        p.locked.to_vec(),
        p.holes.to_vec()
    )
}

/// Writes one stencil entry's effect (see `square_press`).
type Put<'a> = dyn FnMut(Option<(usize, usize)>, u32, &mut Vec<u32>) + 'a;

/// Map a position through the gluings one border crossing at a time.
pub(crate) fn reference_map(t: Topology, rows: i64, cols: i64, mut r: i64, mut c: i64) -> Option<(usize, usize)> {
    let (col_glued, col_twist) = match t {
        Topology::Plane => (false, false),
        Topology::Cylinder | Topology::Torus | Topology::Klein => (true, false),
        Topology::Mobius | Topology::Projective => (true, true),
    };
    let (row_glued, row_twist) = match t {
        Topology::Plane | Topology::Cylinder | Topology::Mobius => (false, false),
        Topology::Torus => (true, false),
        Topology::Klein | Topology::Projective => (true, true),
    };
    while c < 0 || c >= cols {
        if !col_glued {
            return None;
        }
        c += if c < 0 { cols } else { -cols };
        if col_twist {
            r = rows - 1 - r;
        }
    }
    while r < 0 || r >= rows {
        if !row_glued {
            return None;
        }
        r += if r < 0 { rows } else { -rows };
        if row_twist {
            c = cols - 1 - c;
        }
    }
    Some((r as usize, c as usize))
}

/// What a press at (r, c) of a square grid adds to each cell (holes ignored:
/// see [`patterns`]), from the language reference.
pub(crate) fn square_press(p: &Puzzle, r: usize, c: usize) -> Vec<u32> {
    let (rows, cols) = (p.rows as i64, p.cols as i64);
    let mut effect = vec![0u32; p.cells()];
    let mut touched = vec![false; p.cells()];
    let mut put = |cell: Option<(usize, usize)>, w: u32, effect: &mut Vec<u32>| {
        if let Some((tr, tc)) = cell {
            let i = tr * p.cols + tc;
            if w != 0 && !touched[i] {
                touched[i] = true;
                effect[i] = w % p.states;
            }
        }
    };
    let (ri, ci) = (r as i64, c as i64);
    let stencil = |weights: Vec<Vec<u32>>, effect: &mut Vec<u32>, put: &mut Put| {
        let (h, w) = (weights.len() as i64, weights[0].len() as i64);
        let mut entries = Vec::new();
        for (i, row) in weights.iter().enumerate() {
            for (j, &wt) in row.iter().enumerate() {
                entries.push((i as i64 - h / 2, j as i64 - w / 2, wt));
            }
        }
        entries.sort_by_key(|&(dr, dc, _)| (dr * dr + dc * dc, dr, dc));
        for (dr, dc, wt) in entries {
            put(reference_map(p.topology, rows, cols, ri + dr, ci + dc), wt, effect);
        }
    };
    match &p.rule {
        Rule::Cross => stencil(vec![vec![0, 1, 0], vec![1, 1, 1], vec![0, 1, 0]], &mut effect, &mut put),
        Rule::King => stencil(vec![vec![1; 3]; 3], &mut effect, &mut put),
        Rule::Ring => stencil(vec![vec![0, 1, 0], vec![1, 0, 1], vec![0, 1, 0]], &mut effect, &mut put),
        Rule::Stencil(s) => stencil(s.weights.chunks(s.cols).map(<[u32]>::to_vec).collect(), &mut effect, &mut put),
        Rule::Flip => {
            // Every cell reached by walking along the row or column through
            // the cell, across the surface, for a full period (2 laps).
            for k in -2 * cols..2 * cols {
                put(reference_map(p.topology, rows, cols, ri, ci + k), 1, &mut effect);
            }
            for k in -2 * rows..2 * rows {
                put(reference_map(p.topology, rows, cols, ri + k, ci), 1, &mut effect);
            }
        }
        Rule::Merlin => {
            let open_rows = matches!(p.topology, Topology::Plane | Topology::Cylinder | Topology::Mobius);
            let open_cols = p.topology == Topology::Plane;
            let on_row_border = open_rows && (ri == 0 || ri == rows - 1);
            let on_col_border = open_cols && (ci == 0 || ci == cols - 1);
            let offsets: Vec<(i64, i64)> = if on_row_border && on_col_border {
                let (ir, ic) = (if ri == 0 { 1 } else { -1 }, if ci == 0 { 1 } else { -1 });
                vec![(0, 0), (ir, 0), (0, ic), (ir, ic)]
            } else if on_row_border {
                vec![(0, 0), (0, -1), (0, 1)]
            } else if on_col_border {
                vec![(0, 0), (-1, 0), (1, 0)]
            } else {
                vec![(0, 0), (-1, 0), (0, -1), (0, 1), (1, 0)]
            };
            for (dr, dc) in offsets {
                put(reference_map(p.topology, rows, cols, ri + dr, ci + dc), 1, &mut effect);
            }
        }
    }
    effect
}

/// Whether hexagonal cells `a` and `b` (row-major indices) touch: their
/// centres, at doubled x = 2c + (r mod 2) and y = r, differ by (±2, 0) or
/// (±1, ±1), after moving `b` round the cylinder (x by the circumference
/// 2·cols) or the torus (y by `rows` too). A cell touches itself on boards
/// so small that going round comes back to it.
pub(crate) fn hex_touch(t: Topology, rows: usize, cols: usize, a: usize, b: usize) -> bool {
    let centre = |i: usize| {
        let (r, c) = ((i / cols) as i64, (i % cols) as i64);
        (2 * c + r % 2, r)
    };
    let ((xa, ya), (xb, yb)) = (centre(a), centre(b));
    let wrap_x: &[i64] = match t {
        Topology::Plane => &[0],
        Topology::Cylinder | Topology::Torus => &[-1, 0, 1],
        _ => panic!("no hex grid on {t:?}"),
    };
    let wrap_y: &[i64] = if t == Topology::Torus { &[-1, 0, 1] } else { &[0] };
    wrap_x.iter().any(|&kx| {
        wrap_y.iter().any(|&ky| {
            let dx = xb + kx * 2 * cols as i64 - xa;
            let dy = yb + ky * rows as i64 - ya;
            (dy == 0 && dx.abs() == 2) || (dy.abs() == 1 && dx.abs() == 1)
        })
    })
}

/// A press on a hex grid: the cell itself (cross) and every cell touching it.
pub(crate) fn hex_press(p: &Puzzle, cell: usize) -> Vec<u32> {
    assert!(p.topology != Topology::Torus || p.rows & 1 == 0, "a hex torus has an even number of rows");
    (0..p.cells())
        .map(|i| {
            let own = i == cell && p.rule == Rule::Cross;
            u32::from(own || hex_touch(p.topology, p.rows, p.cols, cell, i))
        })
        .collect()
}

/// A press on a graph from its edge list: the node itself (cross, σ+) and
/// its neighbours (ring, σ).
pub(crate) fn graph_press(n: usize, edges: &[(usize, usize)], rule: &Rule, node: usize) -> Vec<u32> {
    let mut effect = vec![0u32; n];
    if *rule == Rule::Cross {
        effect[node] = 1;
    } else {
        assert_eq!(*rule, Rule::Ring, "graphs take cross and ring");
    }
    for &(a, b) in edges {
        assert_ne!(a, b, "no loops");
        if a == node {
            effect[b] = 1;
        } else if b == node {
            effect[a] = 1;
        }
    }
    effect
}

/// `patterns[cell][i]`: what pressing `cell` once adds to cell `i` (mod W),
/// for every cell (locked or not), with the holes applied.
pub(crate) fn patterns(p: &Puzzle) -> Vec<Vec<u32>> {
    patterns_with(p, None)
}

/// [`patterns`] on a graph given by `edges` (0-based, in any order, repeats
/// allowed) instead of the puzzle's own adjacency lists.
pub(crate) fn patterns_with(p: &Puzzle, edges: Option<&[(usize, usize)]>) -> Vec<Vec<u32>> {
    let n = p.cells();
    let hole = |i: usize| p.holes.get(i) != 0;
    let edges: Vec<(usize, usize)> = match (&p.shape, edges) {
        (Shape::Graph(_), Some(list)) => list.to_vec(),
        (Shape::Graph(g), None) => g.edges().collect(),
        _ => vec![],
    };
    (0..n)
        .map(|cell| {
            if hole(cell) {
                return vec![0; n];
            }
            let mut effect = match &p.shape {
                Shape::Square => square_press(p, cell / p.cols, cell % p.cols),
                Shape::Hex => hex_press(p, cell),
                Shape::Graph(_) => graph_press(n, &edges, &p.rule, cell),
            };
            for (i, e) in effect.iter_mut().enumerate() {
                if hole(i) {
                    *e = 0;
                }
            }
            effect
        })
        .collect()
}

/// The buttons that may be pressed: neither locked nor a hole.
pub(crate) fn free_cells(p: &Puzzle) -> Vec<usize> {
    (0..p.cells()).filter(|&i| p.locked.get(i) == 0 && p.holes.get(i) == 0).collect()
}

/// `goal − lights` mod W, per cell.
pub(crate) fn need(p: &Puzzle) -> Vec<u32> {
    let w = p.states;
    (0..p.cells()).map(|i| (u32::from(p.goal.get(i)) + w - u32::from(p.lights.get(i))) % w).collect()
}

/// What `presses` (one count per cell) change, per cell, mod W.
pub(crate) fn apply(patterns: &[Vec<u32>], presses: &[u32], w: u32) -> Vec<u32> {
    let n = patterns.len();
    let mut change = vec![0u64; n];
    for (cell, &x) in presses.iter().enumerate() {
        if x != 0 {
            for (i, &e) in patterns[cell].iter().enumerate() {
                change[i] = (change[i] + u64::from(e) * u64::from(x)) % u64::from(w);
            }
        }
    }
    change.into_iter().map(|v| v as u32).collect()
}

/// The exhaustive answer: how many press vectors over the free cells solve
/// the puzzle, and the fewest presses (sum of counts) among them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Brute {
    pub(crate) count: u64,
    pub(crate) min_cost: Option<u64>,
}

/// Tries every press vector over `free` (W^free of them) for every target
/// change in `needs` at once: a Gray code over GF(2) on bit masks, an
/// odometer updating the change incrementally otherwise.
pub(crate) fn brute_force_many(w: u32, patterns: &[Vec<u32>], free: &[usize], needs: &[Vec<u32>]) -> Vec<Brute> {
    let n = patterns.len();
    let mut out = vec![Brute { count: 0, min_cost: None }; needs.len()];
    let found = |out: &mut Vec<Brute>, k: usize, cost: u64| {
        out[k].count += 1;
        out[k].min_cost = Some(out[k].min_cost.map_or(cost, |m| m.min(cost)));
    };
    if w == 2 && n <= 64 && free.len() < 40 {
        let mask = |v: &[u32]| v.iter().enumerate().fold(0u64, |m, (i, &b)| m | (u64::from(b & 1) << i));
        let cols: Vec<u64> = free.iter().map(|&c| mask(&patterns[c])).collect();
        let targets: Vec<u64> = needs.iter().map(|v| mask(v)).collect();
        let (mut state, mut x) = (0u64, 0u64);
        for step in 0u64..1 << free.len() {
            if step > 0 {
                let bit = step.trailing_zeros() as usize;
                state ^= cols[bit];
                x ^= 1 << bit;
            }
            for (k, &t) in targets.iter().enumerate() {
                if state == t {
                    found(&mut out, k, u64::from(x.count_ones()));
                }
            }
        }
        return out;
    }
    let w64 = u64::from(w);
    let mut x = vec![0u32; free.len()];
    let mut state = vec![0u32; n];
    let mut cost = 0u64;
    loop {
        for (k, t) in needs.iter().enumerate() {
            if state == *t {
                found(&mut out, k, cost);
            }
        }
        // Next x in mixed radix: every digit step (a wrap from W−1 to 0
        // too) adds the pattern once more, mod W.
        let mut k = 0;
        loop {
            if k == x.len() {
                return out;
            }
            for (s, &e) in state.iter_mut().zip(&patterns[free[k]]) {
                *s = ((u64::from(*s) + u64::from(e)) % w64) as u32;
            }
            x[k] += 1;
            cost += 1;
            if x[k] < w {
                break;
            }
            x[k] = 0;
            cost -= w64;
            k += 1;
        }
    }
}

pub(crate) fn brute_force(p: &Puzzle, patterns: &[Vec<u32>], free: &[usize]) -> Brute {
    brute_force_many(p.states, patterns, free, &[need(p)])[0]
}

/// `a^-1 mod p` for a prime `p`.
fn inverse(a: u32, p: u32) -> u32 {
    let mut r = 1u64;
    let (mut b, mut e) = (u64::from(a), p - 2);
    while e > 0 {
        if e & 1 == 1 {
            r = r * b % u64::from(p);
        }
        b = b * b % u64::from(p);
        e >>= 1;
    }
    r as u32
}

pub(crate) fn is_prime(p: u32) -> bool {
    p >= 2 && (2..p).take_while(|d| d * d <= p).all(|d| (p / d) * d != p)
}

/// The solutions of `A·x = b` over GF(p), `A` with one column per free cell
/// (its press pattern), by Gaussian elimination.
#[derive(Clone, Debug)]
pub(crate) struct Elimination {
    pub(crate) p: u32,
    pub(crate) rank: usize,
    pub(crate) consistent: bool,
    /// A solution (per free cell), when consistent.
    pub(crate) particular: Option<Vec<u32>>,
    /// A basis of the kernel (per free cell).
    pub(crate) kernel: Vec<Vec<u32>>,
}

pub(crate) fn eliminate(p: u32, patterns: &[Vec<u32>], free: &[usize], rhs: &[u32]) -> Elimination {
    assert!(is_prime(p), "GF({p})");
    let (n, m) = (patterns.len(), free.len());
    let pp = u64::from(p);
    // Rows: equations (one per cell), columns: unknowns, then the right-hand side.
    let mut rows: Vec<Vec<u32>> =
        (0..n).map(|i| free.iter().map(|&c| patterns[c][i] % p).chain(std::iter::once(rhs[i] % p)).collect()).collect();
    let mut pivots: Vec<usize> = Vec::new(); // pivot column of row k
    let mut r = 0;
    for col in 0..m {
        let Some(found) = (r..n).find(|&i| rows[i][col] != 0) else { continue };
        rows.swap(r, found);
        let inv = u64::from(inverse(rows[r][col], p));
        for v in &mut rows[r] {
            *v = (u64::from(*v) * inv % pp) as u32;
        }
        let pivot_row = rows[r].clone();
        for (i, row) in rows.iter_mut().enumerate() {
            if i != r && row[col] != 0 {
                let f = u64::from(row[col]);
                for (v, &q) in row.iter_mut().zip(&pivot_row) {
                    *v = ((u64::from(*v) + (pp - f) * u64::from(q)) % pp) as u32;
                }
            }
        }
        pivots.push(col);
        r += 1;
    }
    let rank = r;
    let consistent = rows[rank..].iter().all(|row| row[m] == 0);
    let particular = consistent.then(|| {
        let mut x = vec![0u32; m];
        for (k, &col) in pivots.iter().enumerate() {
            x[col] = rows[k][m];
        }
        x
    });
    let kernel = (0..m)
        .filter(|c| !pivots.contains(c))
        .map(|fc| {
            let mut v = vec![0u32; m];
            v[fc] = 1;
            for (k, &col) in pivots.iter().enumerate() {
                v[col] = (p - rows[k][fc]) % p;
            }
            v
        })
        .collect();
    Elimination { p, rank, consistent, particular, kernel }
}

/// `a^-1 mod m` (a and m coprime), by the extended Euclidean algorithm.
fn inverse_mod(a: u64, m: u64) -> u64 {
    let (mut r0, mut r1) = (m as i128, (a % m) as i128);
    let (mut t0, mut t1) = (0i128, 1i128);
    while r1 != 0 {
        let q = r0 / r1;
        (r0, r1) = (r1, r0 - q * r1);
        (t0, t1) = (t1, t0 - q * t1);
    }
    assert_eq!(r0, 1, "{a} has no inverse mod {m}");
    t0.rem_euclid(m as i128) as u64
}

/// W as prime powers `(p, k)`.
pub(crate) fn factor(w: u32) -> Vec<(u32, u32)> {
    let mut out = Vec::new();
    let mut rest = w;
    for q in 2..=w {
        let mut k = 0;
        while rest >= q && (rest / q) * q == rest {
            rest /= q;
            k += 1;
        }
        if k > 0 {
            out.push((q, k));
        }
    }
    out
}

/// The affine space `x0 + span(kernel)` over GF(p), spelled out.
fn affine_space(p: u32, x0: &[u32], kernel: &[Vec<u32>]) -> Vec<Vec<u32>> {
    let mut all = vec![x0.to_vec()];
    for g in kernel {
        let mut next = Vec::with_capacity(all.len() * p as usize);
        for x in &all {
            for k in 0..p {
                next.push(x.iter().zip(g).map(|(&a, &b)| (a + k * b) % p).collect());
            }
        }
        all = next;
    }
    all
}

/// `(rhs − A·x)` over the integers, mod `modulus`, per cell.
fn residual(patterns: &[Vec<u32>], free: &[usize], rhs: &[u32], x: &[u32], modulus: u64) -> Vec<u64> {
    (0..patterns.len())
        .map(|i| {
            let ax: u64 = free.iter().zip(x).map(|(&c, &v)| u64::from(patterns[c][i]) * u64::from(v) % modulus).sum();
            (u64::from(rhs[i]) % modulus + modulus - ax % modulus) % modulus
        })
        .collect()
}

/// The solutions mod p^k, lifted one power of p at a time: x mod p^(j+1)
/// is x mod p^j plus p^j·y, where A·y ≡ (rhs − A·x)/p^j (mod p). `None`
/// when some level has more than `limit` solutions.
fn lift(p: u32, k: u32, patterns: &[Vec<u32>], free: &[usize], rhs: &[u32], limit: u64) -> Option<Vec<Vec<u32>>> {
    let mut sols = vec![vec![0u32; free.len()]];
    let mut pj = 1u64;
    for _ in 0..k {
        let modulus = pj * u64::from(p);
        let mut next = Vec::new();
        for x in &sols {
            let r = residual(patterns, free, rhs, x, modulus);
            assert!(r.iter().all(|&v| v % pj == 0), "x solves mod p^j");
            let r: Vec<u32> = r.iter().map(|&v| (v / pj) as u32).collect();
            let e = eliminate(p, patterns, free, &r);
            if !e.consistent {
                continue;
            }
            let more = u64::from(p).checked_pow(e.kernel.len() as u32)?;
            if next.len() as u64 + more > limit {
                return None;
            }
            for y in affine_space(p, e.particular.as_ref().unwrap(), &e.kernel) {
                next.push(x.iter().zip(&y).map(|(&a, &b)| (u64::from(a) + pj * u64::from(b)) as u32).collect());
            }
        }
        sols = next;
        pj = modulus;
    }
    Some(sols)
}

/// Every solution of `A·x ≡ rhs (mod W)` over the free cells, for any W:
/// mod each prime power by lifting, then joined by the Chinese remainder
/// theorem. `None` when there are more than `limit` (at some stage).
pub(crate) fn all_solutions(
    w: u32,
    patterns: &[Vec<u32>],
    free: &[usize],
    rhs: &[u32],
    limit: u64,
) -> Option<Vec<Vec<u32>>> {
    let mut total = vec![vec![0u32; free.len()]];
    let mut modulus = 1u64;
    for (p, k) in factor(w) {
        let q = u64::from(p).pow(k);
        let local = lift(p, k, patterns, free, rhs, limit)?;
        if (total.len() as u64).checked_mul(local.len() as u64)? > limit {
            return None;
        }
        let inv = inverse_mod(modulus % q, q);
        let mut next = Vec::with_capacity(total.len() * local.len());
        for old in &total {
            for new in &local {
                // x ≡ a (mod modulus), x ≡ b (mod q): x = a + modulus·t.
                next.push(
                    old.iter()
                        .zip(new)
                        .map(|(&a, &b)| {
                            let (a, b) = (u64::from(a), u64::from(b));
                            let t = (b + q - a % q) % q * inv % q;
                            (a + modulus * t) as u32
                        })
                        .collect(),
                );
            }
        }
        total = next;
        modulus *= q;
    }
    Some(total)
}

/// The number of solutions mod W: by elimination for each prime factor
/// that divides W once, by lifting (at most `limit` solutions) for prime
/// powers. `None` when a prime power has too many.
pub(crate) fn count_solutions(
    w: u32,
    patterns: &[Vec<u32>],
    free: &[usize],
    rhs: &[u32],
    limit: u64,
) -> Option<num_bigint::BigUint> {
    let mut count = num_bigint::BigUint::from(1u32);
    for (p, k) in factor(w) {
        if k == 1 {
            let e = eliminate(p, patterns, free, rhs);
            if !e.consistent {
                return Some(0u32.into());
            }
            count *= num_bigint::BigUint::from(p).pow(e.kernel.len() as u32);
        } else {
            count *= lift(p, k, patterns, free, rhs, limit)?.len();
        }
    }
    Some(count)
}
