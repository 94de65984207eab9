//! Helpers shared by the integration tests: an independent breadth-first
//! search over whole state spaces, permutations, the 4×4 goals the tables
//! serve, and a table store in memory.
#![allow(dead_code)]

use std::collections::{HashMap, VecDeque};
use std::sync::Mutex;

use lights_sliding::{Board, TableStore, Tile};

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

/// The 4×4 goals with the blank in each corner (the pattern databases
/// serve them, through a reflection): standard, blank first, top right,
/// bottom left.
pub(crate) fn corner_goals() -> [Board; 4] {
    let standard = Board::standard_goal(4, 4).unwrap();
    let blank_first = Board::new(4, 4, (0..16).collect()).unwrap();
    let mut top_right: Vec<Tile> = (1..16).collect();
    top_right.insert(3, 0);
    let mut bottom_left: Vec<Tile> = (1..16).collect();
    bottom_left.insert(12, 0);
    [standard, blank_first, Board::new(4, 4, top_right).unwrap(), Board::new(4, 4, bottom_left).unwrap()]
}

/// A table store in memory, as a caller would give one (the `lights`
/// binary's keeps a file; its own tests cover that), counting its loads
/// and saves.
#[derive(Default)]
pub(crate) struct MemoryStore {
    pub(crate) bytes: Mutex<Option<Vec<u8>>>,
    /// `save` fails (as a read-only folder would).
    pub(crate) read_only: bool,
    pub(crate) loads: Mutex<usize>,
    pub(crate) saves: Mutex<usize>,
}

impl MemoryStore {
    pub(crate) fn holding(bytes: &[u8]) -> MemoryStore {
        MemoryStore { bytes: Mutex::new(Some(bytes.to_vec())), ..MemoryStore::default() }
    }
    pub(crate) fn bytes(&self) -> Option<Vec<u8>> {
        self.bytes.lock().unwrap().clone()
    }
}

impl TableStore for MemoryStore {
    fn load(&self) -> Result<Option<Vec<u8>>, String> {
        *self.loads.lock().unwrap() += 1;
        Ok(self.bytes())
    }
    fn save(&self, bytes: &[u8]) -> Result<(), String> {
        if self.read_only {
            return Err("read-only".to_string());
        }
        *self.bytes.lock().unwrap() = Some(bytes.to_vec());
        *self.saves.lock().unwrap() += 1;
        Ok(())
    }
    fn location(&self) -> String {
        "the test store".to_string()
    }
}
