//! Board builders shared by the integration tests.
#![allow(dead_code)]

use lights_algebra::SparseMatrix;

/// `n × m` plane board where pressing a cell changes the cells at the given
/// offsets (by 1). Cells are numbered row by row; unknowns = cells.
pub(crate) fn board(n: usize, m: usize, offsets: &[(i64, i64)]) -> SparseMatrix {
    let mut a = SparseMatrix::new(n * m, n * m);
    for r in 0..n {
        for c in 0..m {
            let press = r * m + c;
            for &(dr, dc) in offsets {
                let (rr, cc) = (r as i64 + dr, c as i64 + dc);
                if rr >= 0 && cc >= 0 && (rr as usize) < n && (cc as usize) < m {
                    a.push_entry(press, rr as usize * m + cc as usize, 1);
                }
            }
        }
    }
    a
}

/// The classic "cross" rule: a press toggles itself and its orthogonal neighbours.
pub(crate) fn cross(n: usize, m: usize) -> SparseMatrix {
    board(n, m, &[(0, 0), (1, 0), (-1, 0), (0, 1), (0, -1)])
}

/// The "king" rule: a press changes itself and its eight neighbours.
pub(crate) fn king(n: usize, m: usize) -> SparseMatrix {
    let mut offs = Vec::new();
    for dr in -1..=1 {
        for dc in -1..=1 {
            offs.push((dr, dc));
        }
    }
    board(n, m, &offs)
}
