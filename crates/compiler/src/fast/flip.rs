//! The `flip` rule (a press changes its whole row and column, the cell
//! once) without locked cells on a surface without twists (plane,
//! cylinder, torus: the lines are just the cell's row and column).
//!
//! With `R_r` and `C_c` the press totals of row `r` and column `c`,
//! `(A·x)_{rc} = R_r + C_c − x_{rc}`, so a solution is `x_{rc} = R_r + C_c −
//! b_{rc}` (docs/solver.md, "Reference figures"). Summing the equations of row `r` gives
//! `(n − 1)·R_r + ΣC − B_r = 0` (`B_r` the row total of `b`), and of column
//! `c`, `(m − 1)·C_c + ΣR − B'_c = 0`: a system in `m + n` unknowns, solved
//! exactly by the algebra crate (composite W included). Every solution of it
//! gives a solution of the board and back (the row and column totals of
//! `x` are `R` and `C` again), through the injective map `(R, C) ↦ x`, so the
//! count, the kernel and its orders carry over; a certificate `z` of the
//! small system lifts to `y_{rc} = z_r + z'_c`, since each small equation is
//! the sum of its row's (or column's) equations.

use lights_algebra::{solve_cancellable, SparseMatrix};

use super::{minimum_of, recheck, FastError, MATERIALIZE_LIMIT};
use crate::model::{Gluing, Puzzle, Rule};
use crate::report::{unknowns_limit, Presses, QuietPattern, Report, SolveError, SolveOptions};

/// Whether the reduction applies.
pub fn applies(p: &Puzzle) -> bool {
    p.rule == Rule::Flip
        && p.topology.rows() != Gluing::Twisted
        && p.topology.columns() != Gluing::Twisted
        && !p.any_locked()
}

/// Solves a `flip` puzzle through row and column totals; `None` when the
/// reduction does not apply.
pub fn solve(p: &Puzzle, opts: SolveOptions, cancel: &dyn Fn() -> bool) -> Option<Result<Report, SolveError>> {
    if !applies(p) {
        return None;
    }
    let unknowns = p.rows + p.cols;
    let limit = unknowns_limit(p.states);
    if unknowns > limit {
        return Some(Err(SolveError::TooLarge { unknowns, limit }));
    }
    Some(run(p, opts, cancel).map_err(SolveError::from))
}

fn run(p: &Puzzle, opts: SolveOptions, cancel: &dyn Fn() -> bool) -> Result<Report, FastError> {
    let (m, n, w) = (p.rows, p.cols, p.states);
    let w64 = u64::from(w);
    // Row and column totals of b = goal − lights, read cell by cell from the
    // written boards (nothing board-sized is allocated).
    let mut row_b = vec![0u64; m];
    let mut col_b = vec![0u64; n];
    for (i, (g, l)) in p.goal.iter().zip(p.lights.iter()).enumerate() {
        let need = (u64::from(g) + w64 - u64::from(l)) % w64;
        row_b[i / n] += need;
        col_b[i % n] += need;
    }
    // Unknowns: R_0..R_{m−1}, then C_0..C_{n−1}. Equations: rows, then columns.
    let mut a = SparseMatrix::new(m + n, m + n);
    let mut rhs = vec![0u32; m + n];
    let reduce = |x: u64| (x % w64) as u32;
    for r in 0..m {
        a.push_entry(r, r, reduce(n as u64 + w64 - 1));
        for c in 0..n {
            a.push_entry(m + c, r, 1);
        }
        rhs[r] = reduce(row_b[r]);
    }
    for c in 0..n {
        a.push_entry(m + c, m + c, reduce(m as u64 + w64 - 1));
        for r in 0..m {
            a.push_entry(r, m + c, 1);
        }
        rhs[m + c] = reduce(col_b[c]);
    }
    let sol = solve_cancellable(&a, &rhs, w, cancel)?;
    // x = R_r + C_c − b (affine) and its linear part for quiet patterns.
    let at = |rc: &[u32], i: usize, with_b: bool| -> u32 {
        let (r, c) = (i / n, i % n);
        let minus = if with_b { w64 - u64::from(p.need(i)) } else { 0 };
        reduce(u64::from(rc[r]) + u64::from(rc[m + c]) + minus)
    };
    let board = |rc: &[u32], with_b: bool| -> Vec<u32> { (0..m * n).map(|i| at(rc, i, with_b)).collect() };
    let packed = |rc: &[u32], with_b: bool| -> Presses {
        let mut out = Presses::zeros(m * n, w);
        for i in 0..m * n {
            out.set(i, at(rc, i, with_b));
        }
        out
    };
    let cells = m * n;
    let nullity = sol.kernel.generators.len();
    let materialize = cells.saturating_mul(nullity + 1) <= MATERIALIZE_LIMIT;
    let quiet_patterns: Vec<QuietPattern> = if materialize {
        sol.kernel
            .generators
            .iter()
            .map(|g| QuietPattern { presses: board(&g.vector, false), order: g.order })
            .collect()
    } else {
        Vec::new()
    };
    let certificate = sol.certificate.as_ref().map(|z| packed(z, false));
    let minimum = match &sol.particular {
        Some(rc) => Some(minimum_of(
            p,
            packed(rc, true),
            &quiet_patterns,
            materialize && opts.search_minimum,
            nullity == 0,
            cancel,
        )?),
        None => None,
    };
    let report = Report {
        solvable: sol.consistent,
        solutions: sol.count(),
        minimum,
        certificate,
        quiet_patterns,
        quiet_patterns_omitted: !materialize,
        unknowns: cells,
    };
    recheck(p, &report)?;
    Ok(report)
}
