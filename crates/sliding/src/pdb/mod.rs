//! Additive pattern databases for the 4×4 board (the 15 puzzle).
//!
//! The 15 tiles are split into three disjoint groups, 6-6-3 (Korf & Felner
//! 2002), named by their goal cells (tiles are relabelled by goal cell, the
//! goal's blank at cell 15, the bottom-right corner):
//!
//! ```text
//!  A  C  C  C      A = cells 0 4 5 8 9 12   (6 tiles, 5 765 760 entries)
//!  A  A  B  B      B = cells 6 7 10 11 13 14 (6 tiles, 5 765 760 entries)
//!  A  A  B  B      C = cells 1 2 3           (3 tiles, 3 360 entries)
//!  A  B  B  .
//! ```
//!
//! A group's table maps the cells of its tiles (ranked as a partial
//! permutation of 16 cells) to the fewest moves **of those tiles** that put
//! them home, the other tiles and the blank's position ignored. Each move
//! moves one tile of one group, so the three values add up to a lower bound
//! (an "additive" heuristic). The same tables also bound the position
//! reflected in the main diagonal (the goal maps to itself), and the search
//! takes the larger of the two sums.
//!
//! Tables are built by breadth-first search from the goal ([`build`]) and
//! cached on disk ([`cache`]).

pub(crate) mod build;
pub(crate) mod cache;

use std::fmt;

/// Board side the databases are built for.
pub(crate) const SIDE: usize = 4;
/// Cells of the board.
pub(crate) const CELLS: usize = SIDE * SIDE;
/// The goal's blank cell (bottom-right).
pub(crate) const BLANK_CELL: u8 = 15;

/// The groups' tiles, by goal cell: the 6-6-3 partition of the tables
/// that are kept between runs.
pub(crate) const GROUPS: Groups = &[&[0, 4, 5, 8, 9, 12], &[6, 7, 10, 11, 13, 14], &[1, 2, 3]];

/// The 5-5-5 partition: three tables of 524,160 entries, built in a tenth
/// of the time of the 6-6-3 ones but a weaker bound (more nodes). Tried
/// first when the 6-6-3 tables are not at hand (see `crate::staged`).
///
/// ```text
///  A  A  A  A     A = cells 0 1 2 3 6
///  B  B  A  C     B = cells 4 5 8 9 12
///  B  B  C  C     C = cells 7 10 11 13 14
///  B  C  C  .
/// ```
///
/// Of the partitions tried, this one needed the fewest nodes (40 random
/// positions: median 200 thousand, max 4.6 million; the 2×3 blocks
/// {0 1 2 4 5}, {3 6 7 10 11}, {8 9 12 13 14} needed 770 thousand and 25
/// million).
pub(crate) const SMALL_GROUPS: Groups = &[&[0, 1, 2, 3, 6], &[4, 5, 8, 9, 12], &[7, 10, 11, 13, 14]];

/// A partition of the 15 tiles into groups (each tile's goal cell).
pub(crate) type Groups = &'static [&'static [u8]];

/// Groups in a partition (both have three).
pub(crate) const GROUP_COUNT: usize = 3;

/// Largest group.
pub(crate) const MAX_GROUP: usize = 6;

/// Cell `r·4 + c` ↦ cell `c·4 + r` (reflection in the main diagonal).
pub(crate) const TRANSPOSE: [u8; CELLS] = [0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15];

/// Entries of a table for `k` tiles: 16·15·…·(16−k+1).
pub(crate) fn table_len(k: usize) -> usize {
    (0..k).map(|i| CELLS - i).product()
}

/// The index of `k` distinct cells (in group order) among the
/// `table_len(k)` partial permutations of 16 cells: mixed radix, digit `i`
/// being the cell's rank among the cells not yet used. (Counted by
/// comparisons: without `popcnt` in the baseline x86-64 target,
/// `count_ones` is a dozen instructions.)
#[inline]
pub(crate) fn rank(cells: &[u8]) -> usize {
    let mut index = 0;
    for (i, &p) in cells.iter().enumerate() {
        let below = cells[..i].iter().filter(|&&q| q < p).count();
        index = index * (CELLS - i) + (p as usize - below);
    }
    index
}

/// The search was cancelled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cancelled;

impl fmt::Display for Cancelled {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("cancelled")
    }
}

impl std::error::Error for Cancelled {}

/// What a pattern-database build or load is doing, for a progress bar:
/// `done` of `total` entries (all three tables together).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BuildProgress {
    pub stage: BuildStage,
    pub done: u64,
    pub total: u64,
}

/// The stage of [`BuildProgress`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BuildStage {
    /// Reading the cache file (sent once, before reading).
    Loading,
    /// Breadth-first search (the tables are built in parallel; `finished`
    /// of `tables` are done).
    Building { finished: usize, tables: usize },
    /// Writing the cache file (sent once, before writing).
    Saving,
    /// Ready (sent once, at the end, whatever the source).
    Finished,
}

/// The three tables of the 6-6-3 partition (see the module docs); inside
/// the crate also the quicker 5-5-5 ones.
#[derive(Clone, PartialEq, Eq)]
pub struct PatternDatabases {
    groups: Groups,
    tables: Vec<Vec<u8>>,
}

impl fmt::Debug for PatternDatabases {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PatternDatabases").field("bytes", &self.size_bytes()).finish()
    }
}

impl PatternDatabases {
    /// Builds every table by breadth-first search (a few seconds).
    pub fn build(progress: &dyn Fn(BuildProgress), cancel: &dyn Fn() -> bool) -> Result<PatternDatabases, Cancelled> {
        build::build_all(GROUPS, progress, cancel)
    }

    /// The 5-5-5 tables (a few tenths of a second).
    pub(crate) fn build_small(cancel: &dyn Fn() -> bool) -> Result<PatternDatabases, Cancelled> {
        build::build_all(SMALL_GROUPS, &|_| {}, cancel)
    }

    /// The partition the tables are for.
    pub(crate) fn groups(&self) -> Groups {
        self.groups
    }

    /// Bytes of all tables (one byte per entry).
    pub fn size_bytes(&self) -> usize {
        self.tables.iter().map(Vec::len).sum()
    }

    /// The largest value of each table (the depth of its search).
    pub fn max_values(&self) -> Vec<u8> {
        self.tables.iter().map(|t| t.iter().copied().max().unwrap_or(0)).collect()
    }

    /// Moves of group `group`'s tiles needed when they stand at `cells`.
    #[inline]
    pub(crate) fn lookup(&self, group: usize, cells: &[u8]) -> u8 {
        self.tables[group][rank(cells)]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rank_is_a_bijection_onto_the_table() {
        let mut seen = vec![false; table_len(3)];
        for a in 0..16u8 {
            for b in (0..16u8).filter(|&b| b != a) {
                for c in (0..16u8).filter(|&c| c != a && c != b) {
                    let r = rank(&[a, b, c]);
                    assert!(!seen[r], "rank {r} twice");
                    seen[r] = true;
                }
            }
        }
        assert!(seen.iter().all(|&s| s));
    }

    #[test]
    fn groups_partition_the_tiles_and_transpose_is_an_involution() {
        for groups in [GROUPS, SMALL_GROUPS] {
            assert_eq!(groups.len(), GROUP_COUNT);
            assert!(groups.iter().all(|g| g.len() <= MAX_GROUP));
            let mut cells: Vec<u8> = groups.iter().flat_map(|g| g.iter().copied()).collect();
            cells.sort_unstable();
            assert_eq!(cells, (0..15).collect::<Vec<u8>>());
        }
        for c in 0..16 {
            assert_eq!(TRANSPOSE[TRANSPOSE[c] as usize] as usize, c);
        }
        assert_eq!(TRANSPOSE[BLANK_CELL as usize], BLANK_CELL);
    }
}
