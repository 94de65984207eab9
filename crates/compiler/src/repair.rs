//! The smallest change to `lights` that makes an unsolvable puzzle solvable.
//!
//! Over Z/W the reachable changes are exactly the vectors b with y·b ≡ 0 for
//! every y of the left kernel {y : yᵀA ≡ 0} (Z/W is self-injective, so the
//! column space is the annihilator of the left kernel, for prime and
//! composite W alike). With generators y₁…y_k of that kernel and syndromes
//! sᵢ = yᵢ·(goal − lights), adding δ to the light of cell c changes sᵢ by
//! −δ·yᵢ[c]; one cell fixes the puzzle when δ·yᵢ[c] ≡ sᵢ for every i. When no
//! single cell does, pairs of cells are searched by hashing δ·y[c].

use std::collections::HashMap;

use lights_algebra::{solve_cancellable, SparseMatrix};

use crate::lower::lower;
use crate::model::Puzzle;

/// One changed light.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CellChange {
    /// Row-major cell index.
    pub index: usize,
    pub from: u32,
    pub to: u32,
}

/// Pair search looks at (cell, amount) candidates up to this many.
const MAX_PAIR_CANDIDATES: usize = 2_000_000;

/// The largest board the search takes on (it lowers the whole system).
const MAX_REPAIR_CELLS: usize = 1_000_000;

/// The fewest lights (one, else two) whose change makes the puzzle solvable,
/// checked by solving the changed puzzle; `None` when the puzzle is already
/// solvable, when more than two cells must change, or when cancelled.
pub fn make_solvable(p: &Puzzle, cancel: &dyn Fn() -> bool) -> Option<Vec<CellChange>> {
    // The search lowers and solves the whole transposed system: a huge
    // board gets no quick fix rather than a system of billions of entries.
    if p.cells() > MAX_REPAIR_CELLS {
        return None;
    }
    let w = p.states;
    let sys = lower(p);
    let cells = p.cells();
    // Aᵀ: one row per unknown, one column per cell.
    let mut transposed = SparseMatrix::new(sys.unknowns.len(), cells);
    for (unknown, column) in sys.matrix.columns.iter().enumerate() {
        for &(cell, value) in column {
            transposed.push_entry(cell as usize, unknown, value);
        }
    }
    let left = solve_cancellable(&transposed, &vec![0; sys.unknowns.len()], w, cancel).ok()?;
    let gens: Vec<&Vec<u32>> = left.kernel.generators.iter().map(|g| &g.vector).collect();
    let dot = |y: &Vec<u32>| y.iter().zip(&sys.rhs).map(|(&a, &b)| u64::from(a) * u64::from(b)).sum::<u64>();
    let syndrome: Vec<u32> = gens.iter().map(|y| (dot(y) % u64::from(w)) as u32).collect();
    if syndrome.iter().all(|&s| s == 0) {
        return None;
    }
    // The syndrome change of adding δ at cell c, as δ·y[c] for every generator.
    let effect = |c: usize, delta: u32| -> Vec<u32> {
        gens.iter().map(|y| ((u64::from(delta) * u64::from(y[c])) % u64::from(w)) as u32).collect()
    };
    // Small changes first: +1, −1, +2, −2, …
    let deltas: Vec<u32> = (1..w).map(|k| if k % 2 == 1 { k.div_ceil(2) } else { w - k / 2 }).collect();
    let change = |c: usize, delta: u32| {
        let from = u32::from(p.lights.get(c));
        CellChange { index: c, from, to: (from + delta) % w }
    };
    // A hole has no light to change.
    let candidates = || (0..cells).filter(|&c| !p.is_hole(c)).flat_map(|c| deltas.iter().map(move |&d| (c, d)));
    let found =
        candidates().find(|&(c, d)| effect(c, d) == syndrome).map(|(c, d)| vec![change(c, d)]).or_else(|| {
            if cells.saturating_mul(deltas.len()) > MAX_PAIR_CANDIDATES || cancel() {
                return None;
            }
            let mut seen: HashMap<Vec<u32>, (usize, u32)> = HashMap::new();
            for (c, d) in candidates() {
                let e = effect(c, d);
                let need: Vec<u32> = syndrome.iter().zip(&e).map(|(&s, &x)| (s + w - x) % w).collect();
                if let Some(&(c1, d1)) = seen.get(&need).filter(|&&(c1, _)| c1 != c) {
                    return Some(vec![change(c1, d1), change(c, d)]);
                }
                seen.entry(e).or_insert((c, d));
            }
            None
        })?;
    // Never offer a change that does not work.
    let mut fixed = p.clone();
    for ch in &found {
        fixed.lights.set(ch.index, ch.to as u16);
    }
    let check = lower(&fixed);
    let solution = solve_cancellable(&check.matrix, &check.rhs, w, cancel).ok()?;
    solution.consistent.then_some(found)
}
