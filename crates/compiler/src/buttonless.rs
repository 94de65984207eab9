//! Boards with no free button: every cell locked or a hole. Nothing can be
//! pressed, so the answer needs no algebra (issue 25: a 10,000² board with
//! `locked on` once built the whole system and aborted on it).
//!
//! Solvable exactly when the lights already show the goal (mod W) on every
//! cell: one solution, the empty one, of 0 presses. Otherwise the
//! certificate is the first cell whose light differs, with weight 1: no
//! free button reaches it (there is none), so `yᵀA ≡ 0` holds over the
//! free cells, and `y·(goal − lights)` is that cell's need, not 0.
//! Cost: the cells the author wrote, never a pass over the board.

use num_bigint::BigUint;

use crate::model::Puzzle;
use crate::report::{MinimumSolution, Presses, Report};

/// The report of a puzzle without a free button; `None` when it has one.
pub fn answer(p: &Puzzle) -> Option<Report> {
    if p.free_cells() != 0 {
        return None;
    }
    let unmet = first_unmet_cell(p);
    let (minimum, certificate) = match unmet {
        None => (Some(MinimumSolution::new(Presses::zeros(p.cells(), p.states), true)), None),
        Some(i) => {
            let mut y = Presses::zeros(p.cells(), p.states);
            y.set(i, 1);
            (None, Some(y))
        }
    };
    Some(Report {
        solvable: unmet.is_none(),
        solutions: BigUint::from(u8::from(unmet.is_none())),
        minimum,
        certificate,
        quiet_patterns: Vec::new(),
        quiet_patterns_omitted: false,
        unknowns: 0,
    })
}

/// The first cell whose light is not its goal (mod W), read from the
/// boards' written forms: a cell written in neither board has both base
/// values, so only the written cells, and (when the bases differ) the first
/// cell written in neither, can be the first to differ.
fn first_unmet_cell(p: &Puzzle) -> Option<usize> {
    let mut written: Vec<usize> = p.lights.exceptions().chain(p.goal.exceptions()).map(|(i, _)| i).collect();
    written.sort_unstable();
    written.dedup();
    let mut first = written.iter().copied().find(|&i| p.need(i) != 0);
    let w = p.states;
    let bases_differ = !(u32::from(p.goal.base()) + w - u32::from(p.lights.base()) % w).is_multiple_of(w);
    if bases_differ {
        // `written` is sorted: the first gap in it is the first unwritten cell.
        let unwritten = written.iter().enumerate().find(|&(k, &i)| k != i).map_or(written.len(), |(k, _)| k);
        if unwritten < p.cells() {
            first = Some(first.map_or(unwritten, |f| f.min(unwritten)));
        }
    }
    first
}
