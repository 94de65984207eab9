//! The last two tiles of a line, placed together: a breadth-first search
//! over (cell of `a`, cell of `b`, blank cell) inside a small set of cells
//! (putting `a` home first can trap `b`). Shared by the constructive method
//! (inside a band) and the large-board reduction (inside a window).

use std::collections::VecDeque;

/// The moves (by [`crate::moves::Move::ALL`] index) that take `a`, `b` and
/// the blank from `start` to a position with `a` and `b` on `home`, moving
/// the blank only through the given cells; `None` when there is no way.
/// Cells are local indices `0..next.len()`: `next[i][m]` is where move `m`
/// takes the blank from cell `i`, if that cell is one of them.
pub(crate) fn pair_moves(
    next: &[[Option<usize>; 4]],
    start: (usize, usize, usize),
    home: (usize, usize),
) -> Option<Vec<usize>> {
    let m = next.len();
    let encode = |a: usize, b: usize, e: usize| (a * m + b) * m + e;
    if (start.0, start.1) == home {
        return Some(Vec::new());
    }
    // parent[state] = the move that reached it.
    const UNSEEN: u8 = u8::MAX;
    const START: u8 = u8::MAX - 1;
    let mut parent = vec![UNSEEN; m * m * m];
    parent[encode(start.0, start.1, start.2)] = START;
    let mut queue = VecDeque::from([start]);
    let mut end = None;
    'search: while let Some((pa, pb, e)) = queue.pop_front() {
        for (mv, q) in next[e].into_iter().enumerate() {
            let Some(q) = q else { continue };
            let na = if q == pa { e } else { pa };
            let nb = if q == pb { e } else { pb };
            let s = encode(na, nb, q);
            if parent[s] != UNSEEN {
                continue;
            }
            parent[s] = mv as u8;
            if (na, nb) == home {
                end = Some((na, nb, q));
                break 'search;
            }
            queue.push_back((na, nb, q));
        }
    }
    // Read the moves back through `parent`.
    let (mut pa, mut pb, mut e) = end?;
    let mut path = Vec::new();
    loop {
        let mv = parent[encode(pa, pb, e)];
        if mv >= 4 {
            break;
        }
        path.push(mv as usize);
        let previous = next[e][mv as usize ^ 1]?;
        if pa == previous {
            pa = e;
        } else if pb == previous {
            pb = e;
        }
        e = previous;
    }
    path.reverse();
    Some(path)
}
