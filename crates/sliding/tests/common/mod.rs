//! Helpers shared by the integration tests: an independent breadth-first
//! search over whole state spaces, permutations, temporary directories.
#![allow(dead_code)]

use std::collections::{HashMap, VecDeque};

use lights_sliding::{Board, Tile};

/// A position packed 4 bits per cell (boards of at most 16 cells).
pub(crate) fn pack(cells: &[Tile]) -> u64 {
    cells.iter().fold(0u64, |acc, &t| acc << 4 | t as u64)
}

pub(crate) fn unpack(rows: usize, cols: usize, packed: u64) -> Board {
    let n = rows * cols;
    let cells = (0..n).map(|i| ((packed >> (4 * (n - 1 - i))) & 0xF) as Tile).collect();
    Board::new(rows, cols, cells).expect("packed from a board")
}

/// Distance from `goal` of every position that reaches it, by a
/// breadth-first search written without the crate's move code: the blank
/// swaps with an orthogonal neighbour.
pub(crate) fn bfs_distances(goal: &Board) -> HashMap<u64, u32> {
    let (rows, cols) = (goal.rows(), goal.cols());
    let mut dist = HashMap::new();
    dist.insert(pack(goal.cells()), 0);
    let mut queue = VecDeque::from([goal.cells().to_vec()]);
    while let Some(cells) = queue.pop_front() {
        let d = dist[&pack(&cells)];
        let blank = cells.iter().position(|&t| t == 0).unwrap();
        let (r, c) = (blank / cols, blank % cols);
        let mut neighbours = Vec::new();
        if r > 0 {
            neighbours.push(blank - cols);
        }
        if r + 1 < rows {
            neighbours.push(blank + cols);
        }
        if c > 0 {
            neighbours.push(blank - 1);
        }
        if c + 1 < cols {
            neighbours.push(blank + 1);
        }
        for n in neighbours {
            let mut next = cells.clone();
            next.swap(blank, n);
            let key = pack(&next);
            if let std::collections::hash_map::Entry::Vacant(e) = dist.entry(key) {
                e.insert(d + 1);
                queue.push_back(next);
            }
        }
    }
    dist
}

/// Every permutation of `0..n` (Heap's algorithm), passed to `visit`.
pub(crate) fn for_each_permutation(n: usize, mut visit: impl FnMut(&[Tile])) {
    let mut a: Vec<Tile> = (0..n as Tile).collect();
    let mut c = vec![0usize; n];
    visit(&a);
    let mut i = 0;
    while i < n {
        if c[i] < i {
            if i % 2 == 0 {
                a.swap(0, i);
            } else {
                a.swap(c[i], i);
            }
            visit(&a);
            c[i] += 1;
            i = 0;
        } else {
            c[i] = 0;
            i += 1;
        }
    }
}
