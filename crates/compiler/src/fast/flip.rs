//! The `flip` rule (a press changes its whole row and column, the cell
//! once) without locked cells, on every surface.
//!
//! **Line classes.** A press at `(r, c)` changes the union of the rows of
//! `O(r)` and the columns of `O'(c)` (lower.rs, `press_pattern_into`), each
//! cell once: `O(r) = {r, m − 1 − r}` where the left and right borders are
//! glued with a twist (`mobius`, `projective`), else `{r}`; `O'(c) = {c,
//! n − 1 − c}` where the top and bottom are (`klein`, `projective`), else
//! `{c}`. A cell `(i, j)` is changed iff `i ∈ O(r)` or `j ∈ O'(c)`, that is
//! iff `r ∈ O(i)` or `c ∈ O'(j)` (the mirror is an involution), so by
//! inclusion–exclusion over the blocks `O(i) × O'(j)` (1, 2 or 4 cells):
//!
//! `(A·x)_{ij} = P_ρ + Q_κ − X_{ρκ}`, with `ρ`, `κ` the classes of `i`, `j`,
//! `X_{ρκ}` the press total of block `(ρ, κ)`, `P_ρ = Σ_κ X_{ρκ}` and
//! `Q_κ = Σ_ρ X_{ρκ}`.
//!
//! So `A = Sᵀ·F·S`: `S` sums each block (`x ↦ X`), `F` is the untwisted flip
//! matrix on the `m' × n'` grid of blocks (`m' = ⌈m/2⌉` when rows pair up,
//! else `m`; same for `n'`), `Sᵀ` spreads a block's value over its cells.
//! `Sᵀ` is injective, hence `A·x = b` iff `b` is constant on every block
//! (`b = Sᵀβ`) and `F·X = β`; `S` is onto with kernel of size `W^(mn − m'n')`
//! (free values in a block of fixed sum). Hence, over Z/W for every W:
//!
//! * count = (solutions of `F·X = β`) · `W^(mn − m'n')`;
//! * a solution puts `X_{ρκ}` on the block's first cell (`(ρ, κ)` itself)
//!   and 0 elsewhere; the quiet patterns are those of `F`, placed the same
//!   way, plus, for every other cell `a` of a block, `e_a − e_rep` (order W):
//!   a direct sum, since placing is a section of `S`;
//! * the fewest presses: a block of sum `X` costs at least `X mod W`, and
//!   placing it on one cell costs exactly that, so the minimum is that of
//!   `F·X = β` with cost `Σ X` (searched on the block grid alone);
//! * a certificate: `e_a − e_rep` when `b` differs inside a block (`S` kills
//!   it, it meets `b` in `b_a − b_rep ≠ 0`), else a certificate `z` of `F`
//!   placed on the blocks' first cells (`S` maps it back to `z`).
//!
//! **The block grid.** With `R_ρ` and `C_κ` the totals of block row `ρ` and
//! column `κ`, `(F·X)_{ρκ} = R_ρ + C_κ − X_{ρκ}`, so a solution is `X_{ρκ} =
//! R_ρ + C_κ − β_{ρκ}` (docs/solver.md, "Reference figures"). Summing the
//! equations of block row `ρ` gives `(n' − 1)·R_ρ + ΣC − B_ρ = 0` (`B_ρ` the
//! row total of `β`), and of column `κ`, `(m' − 1)·C_κ + ΣR − B'_κ = 0`: a
//! system in `m' + n'` unknowns, solved exactly by the algebra crate
//! (composite W included). Every solution of it gives a solution of the
//! block grid and back (the row and column totals of `X` are `R` and `C`
//! again), through the injective map `(R, C) ↦ X`, so the count, the kernel
//! and its orders carry over; a certificate `z` of the small system lifts to
//! `y_{ρκ} = z_ρ + z'_κ`, since each small equation is the sum of its row's
//! (or column's) equations. On untwisted surfaces every block is one cell
//! and this is the whole method.

use num_bigint::BigUint;

use lights_algebra::{solve_cancellable, SparseMatrix};

use super::{minimum_of, recheck, FastError, MATERIALIZE_LIMIT};
use crate::model::{Gluing, Puzzle, Rule};
use crate::report::{unknowns_limit, Presses, QuietPattern, Report, SolveError, SolveOptions};

/// Whether the reduction applies: `flip` without locked cells, on any
/// surface.
pub fn applies(p: &Puzzle) -> bool {
    p.rule == Rule::Flip && !p.any_locked() && p.is_plain_grid()
}

/// Solves a `flip` puzzle through the row and column totals of its blocks;
/// `None` when the reduction does not apply.
pub fn solve(p: &Puzzle, opts: SolveOptions, cancel: &dyn Fn() -> bool) -> Option<Result<Report, SolveError>> {
    if !applies(p) {
        return None;
    }
    let q = Blocks::of(p);
    let unknowns = q.mq + q.nq;
    let limit = unknowns_limit(p.states);
    if unknowns > limit {
        return Some(Err(SolveError::TooLarge { unknowns, limit }));
    }
    Some(run(p, &q, opts, cancel).map_err(SolveError::from))
}

/// The blocks `O(i) × O'(j)` of a board: rows paired with their mirror
/// where the columns are glued with a twist, columns where the rows are.
struct Blocks {
    m: usize,
    n: usize,
    mirror_rows: bool,
    mirror_cols: bool,
    /// Block rows and columns (`m'`, `n'`).
    mq: usize,
    nq: usize,
}

impl Blocks {
    fn of(p: &Puzzle) -> Blocks {
        let (m, n) = (p.rows, p.cols);
        let mirror_rows = p.topology.columns() == Gluing::Twisted;
        let mirror_cols = p.topology.rows() == Gluing::Twisted;
        let mq = if mirror_rows { m.div_ceil(2) } else { m };
        let nq = if mirror_cols { n.div_ceil(2) } else { n };
        Blocks { m, n, mirror_rows, mirror_cols, mq, nq }
    }

    /// The first cell (row-major) of cell `i`'s block: `(ρ, κ)` itself, the
    /// smaller of each mirror pair.
    fn rep(&self, i: usize) -> usize {
        let (r, c) = (i / self.n, i % self.n);
        let r = if self.mirror_rows { r.min(self.m - 1 - r) } else { r };
        let c = if self.mirror_cols { c.min(self.n - 1 - c) } else { c };
        r * self.n + c
    }

    /// The cell of block `k` (row-major on the `m' × n'` grid).
    fn cell(&self, k: usize) -> usize {
        (k / self.nq) * self.n + k % self.nq
    }

    fn count(&self) -> usize {
        self.mq * self.nq
    }

    /// Cells beyond the first of their block: the free values of the fibres
    /// of `S`.
    fn fibre(&self) -> usize {
        self.m * self.n - self.count()
    }

    fn untwisted(&self) -> bool {
        self.fibre() == 0
    }

    /// A board-sized vector from a block-grid one (first cells only).
    fn place(&self, blocks: &[u32]) -> Vec<u32> {
        if self.untwisted() {
            return blocks.to_vec();
        }
        let mut out = vec![0u32; self.m * self.n];
        for (k, &v) in blocks.iter().enumerate() {
            out[self.cell(k)] = v;
        }
        out
    }

    /// [`Blocks::place`], packed.
    fn place_packed(&self, blocks: &Presses, w: u32) -> Presses {
        let mut out = Presses::zeros(self.m * self.n, w);
        for (k, v) in blocks.iter().enumerate() {
            if v != 0 {
                out.set(self.cell(k), v);
            }
        }
        out
    }
}

/// Row and column totals of β (b on the blocks' first cells: the block
/// rows' totals, then the block columns'), and a cell where b differs from
/// its block's first cell, read cell by cell from the written boards
/// (nothing board-sized is allocated).
fn block_totals(p: &Puzzle, q: &Blocks) -> (Vec<u64>, Option<usize>) {
    let (n, w64) = (p.cols, u64::from(p.states));
    let mut totals = vec![0u64; q.mq + q.nq];
    let mut clash: Option<usize> = None;
    for (i, (g, l)) in p.goal.iter().zip(p.lights.iter()).enumerate() {
        let need = (u64::from(g) + w64 - u64::from(l)) % w64;
        let rep = q.rep(i);
        if rep == i {
            totals[i / n] += need;
            totals[q.mq + i % n] += need;
        } else if clash.is_none() && need != u64::from(p.need(rep)) {
            clash = Some(i);
        }
    }
    (totals, clash)
}

/// The block grid's system modulo `w`. Unknowns: R_0..R_{m'−1}, then
/// C_0..C_{n'−1}. Equations: rows, then columns, their right-hand sides the
/// `totals` of [`block_totals`].
fn block_system(q: &Blocks, w: u32, totals: &[u64]) -> (SparseMatrix, Vec<u32>) {
    let (mq, nq) = (q.mq, q.nq);
    let w64 = u64::from(w);
    let reduce = |x: u64| (x % w64) as u32;
    let mut a = SparseMatrix::new(mq + nq, mq + nq);
    let mut rhs = vec![0u32; mq + nq];
    for r in 0..mq {
        a.push_entry(r, r, reduce(nq as u64 + w64 - 1));
        for c in 0..nq {
            a.push_entry(mq + c, r, 1);
        }
        rhs[r] = reduce(totals[r]);
    }
    for c in 0..nq {
        a.push_entry(mq + c, mq + c, reduce(mq as u64 + w64 - 1));
        for r in 0..mq {
            a.push_entry(r, mq + c, 1);
        }
        rhs[mq + c] = reduce(totals[mq + c]);
    }
    (a, rhs)
}

/// The presses of block `k` from the system's solution `rc` (R, then C):
/// X_{ρκ} = R_ρ + C_κ − β_{ρκ} (`with_b`, affine), or its linear part
/// R_ρ + C_κ for quiet patterns.
fn block_presses(p: &Puzzle, q: &Blocks, rc: &[u32], k: usize, with_b: bool) -> u32 {
    let w64 = u64::from(p.states);
    let (r, c) = (k / q.nq, k % q.nq);
    let minus = if with_b { w64 - u64::from(p.need(q.cell(k))) } else { 0 };
    ((u64::from(rc[r]) + u64::from(rc[q.mq + c]) + minus) % w64) as u32
}

/// e_a − e_rep for a cell a and its block's first cell.
fn fibre_pair(p: &Puzzle, q: &Blocks, cell: usize) -> Vec<u32> {
    let mut v = vec![0u32; p.cells()];
    v[cell] = 1;
    v[q.rep(cell)] = p.states - 1;
    v
}

fn run(p: &Puzzle, q: &Blocks, opts: SolveOptions, cancel: &dyn Fn() -> bool) -> Result<Report, FastError> {
    let w = p.states;
    let (totals, clash) = block_totals(p, q);
    let (a, rhs) = block_system(q, w, &totals);
    let sol = solve_cancellable(&a, &rhs, w, cancel)?;
    let blocks =
        |rc: &[u32], with_b: bool| -> Vec<u32> { (0..q.count()).map(|k| block_presses(p, q, rc, k, with_b)).collect() };
    let packed = |rc: &[u32], with_b: bool| -> Presses {
        let mut out = Presses::zeros(q.count(), w);
        for k in 0..q.count() {
            out.set(k, block_presses(p, q, rc, k, with_b));
        }
        out
    };
    let pair = |cell: usize| fibre_pair(p, q, cell);
    let cells = p.cells();
    let block_nullity = sol.kernel.generators.len();
    let nullity = block_nullity + q.fibre();
    let materialize = cells.saturating_mul(nullity + 1) <= MATERIALIZE_LIMIT;
    // The block grid's quiet patterns (the minimum is searched among them).
    let block_quiet: Vec<QuietPattern> = if materialize {
        sol.kernel
            .generators
            .iter()
            .map(|g| QuietPattern { presses: Presses::from_values(&blocks(&g.vector, false), w), order: g.order })
            .collect()
    } else {
        Vec::new()
    };
    let solvable = sol.consistent && clash.is_none();
    let minimum = match (&sol.particular, solvable) {
        (Some(rc), true) => {
            let search = (materialize && opts.search_minimum).then_some(opts.minimum_work);
            let mut min = minimum_of(p, packed(rc, true), &block_quiet, search, nullity == 0, cancel)?;
            if !q.untwisted() {
                min.presses = q.place_packed(&min.presses, w);
            }
            Some(min)
        }
        _ => None,
    };
    let certificate = match (clash, &sol.certificate) {
        (Some(cell), _) => Some(Presses::from_values(&pair(cell), w)),
        (None, Some(z)) => Some(Presses::from_values(&q.place(&blocks(z, false)), w)),
        (None, None) => None,
    };
    let quiet_patterns: Vec<QuietPattern> = if q.untwisted() {
        block_quiet
    } else {
        block_quiet
            .into_iter()
            .map(|g| QuietPattern { presses: q.place_packed(&g.presses, w), order: g.order })
            .collect()
    };
    let solutions = if solvable {
        sol.count() * BigUint::from(w).pow(u32::try_from(q.fibre()).expect("a board below PER_CELL_LIMIT"))
    } else {
        BigUint::from(0u32)
    };
    let mut report = Report {
        solvable,
        solutions,
        minimum,
        certificate,
        quiet_patterns,
        quiet_patterns_omitted: !materialize,
        unknowns: cells,
    };
    // The minimum, the certificate and the block grid's quiet patterns are
    // replayed on the board; the fibre's `e_a − e_rep` (3/4 of all cells on
    // a projective plane) are checked through what makes them quiet.
    recheck(p, &report)?;
    if materialize && !q.untwisted() {
        check_fibre(p, q)?;
        let fibre = (0..cells)
            .filter(|&i| q.rep(i) != i)
            .map(|i| QuietPattern { presses: Presses::from_values(&pair(i), w), order: w });
        report.quiet_patterns.extend(fibre);
    }
    Ok(report)
}

/// Boards up to this many cells get every block's fibre checked; larger ones
/// the blocks of the first and last block row and column and of the
/// diagonal (each check costs press patterns of a few hundred cells, whose
/// computation in lower.rs is quadratic in their size).
const FIBRE_CHECK_CELLS: usize = 1024;

/// `e_a − e_rep` is quiet exactly when pressing `a` and pressing its block's
/// first cell change the same cells: checked against lower.rs.
fn check_fibre(p: &Puzzle, q: &Blocks) -> Result<(), FastError> {
    let every = p.cells() <= FIBRE_CHECK_CELLS;
    let (mq, nq) = (q.mq, q.nq);
    let sampled = |k: usize| {
        let (r, c) = (k / nq, k % nq);
        every || r == 0 || c == 0 || r + 1 == mq || c + 1 == nq || r * nq / mq.max(1) == c
    };
    let cells_of = |cell: usize| -> Vec<usize> {
        let (r, c) = (cell / q.n, cell % q.n);
        let rows = if q.mirror_rows { vec![r, q.m - 1 - r] } else { vec![r] };
        let cols = if q.mirror_cols { vec![c, q.n - 1 - c] } else { vec![c] };
        let mut out: Vec<usize> = rows.iter().flat_map(|&r| cols.iter().map(move |&c| r * q.n + c)).collect();
        out.sort_unstable();
        out.dedup();
        out
    };
    let pattern = |cell: usize, buf: &mut Vec<(usize, u32)>| -> Vec<(usize, u32)> {
        crate::lower::press_pattern_into(p, cell / q.n, cell % q.n, buf);
        let mut v = buf.clone();
        v.sort_unstable();
        v
    };
    let mut buf = Vec::new();
    for k in (0..q.count()).filter(|&k| sampled(k)) {
        let rep = q.cell(k);
        let members = cells_of(rep);
        if members.len() < 2 {
            continue;
        }
        let first = pattern(rep, &mut buf);
        for &a in members.iter().filter(|&&a| a != rep) {
            if q.rep(a) != rep || pattern(a, &mut buf) != first {
                return Err(FastError::Internal("a quiet pattern of the flip blocks changes the board".into()));
            }
        }
    }
    Ok(())
}
