//! The 6-6-3 pattern databases as an IDA* heuristic (4×4, goal blank at
//! cell 15): the larger of the additive sum for the position and for its
//! reflection in the main diagonal.
//!
//! Reflection: label `u` stands at cell `c` in the reflected position
//! exactly when label `T(u)` stands at `T(c)` in the real one (`T` =
//! [`TRANSPOSE`]), so the reflected cell of `u` is `T(pos[T(u)])`. The goal
//! reflects to itself, so the reflected position is exactly as far from it.
//! A move of label `t` changes one group's value in each sum: `t`'s group
//! directly, and `T(t)`'s group in the reflection.

use super::Heuristic;
use crate::pdb::{Groups, PatternDatabases, BLANK_CELL, CELLS, GROUP_COUNT, MAX_GROUP, TRANSPOSE};

pub(crate) struct PdbHeuristic<'a> {
    databases: &'a PatternDatabases,
    groups: Groups,
    /// Group of each label (the blank's entry is unused).
    group_of: [u8; CELLS],
    direct: [u32; GROUP_COUNT],
    reflected: [u32; GROUP_COUNT],
}

impl<'a> PdbHeuristic<'a> {
    pub(crate) fn new(databases: &'a PatternDatabases) -> PdbHeuristic<'a> {
        let groups = databases.groups();
        debug_assert_eq!(groups.len(), GROUP_COUNT);
        let mut group_of = [0u8; CELLS];
        for (g, labels) in groups.iter().enumerate() {
            for &l in *labels {
                group_of[l as usize] = g as u8;
            }
        }
        PdbHeuristic { databases, groups, group_of, direct: [0; GROUP_COUNT], reflected: [0; GROUP_COUNT] }
    }

    #[inline]
    fn direct_value(&self, group: usize, pos: &[u8]) -> u32 {
        let labels = self.groups[group];
        let mut cells = [0u8; MAX_GROUP];
        for (c, &l) in cells.iter_mut().zip(labels) {
            *c = pos[l as usize];
        }
        self.databases.lookup(group, &cells[..labels.len()]) as u32
    }

    #[inline]
    fn reflected_value(&self, group: usize, pos: &[u8]) -> u32 {
        let labels = self.groups[group];
        let mut cells = [0u8; MAX_GROUP];
        for (c, &l) in cells.iter_mut().zip(labels) {
            *c = TRANSPOSE[pos[TRANSPOSE[l as usize] as usize] as usize];
        }
        self.databases.lookup(group, &cells[..labels.len()]) as u32
    }

    fn value(&self) -> u32 {
        let direct: u32 = self.direct.iter().sum();
        let reflected: u32 = self.reflected.iter().sum();
        direct.max(reflected)
    }
}

/// Both sums' group values.
#[derive(Clone, Copy)]
pub(crate) struct Values {
    direct: [u32; GROUP_COUNT],
    reflected: [u32; GROUP_COUNT],
}

impl Heuristic for PdbHeuristic<'_> {
    type Snapshot = Values;

    fn snapshot(&self) -> Values {
        Values { direct: self.direct, reflected: self.reflected }
    }

    fn restore(&mut self, values: Values) {
        self.direct = values.direct;
        self.reflected = values.reflected;
    }

    fn reset(&mut self, _cells: &[u8], pos: &[u8]) -> u32 {
        debug_assert_eq!(pos.len(), CELLS);
        for g in 0..GROUP_COUNT {
            self.direct[g] = self.direct_value(g, pos);
            self.reflected[g] = self.reflected_value(g, pos);
        }
        self.value()
    }

    /// The reflected lookup is skipped when the direct sum alone exceeds
    /// `limit` (most children in IDA* are cut off).
    #[inline]
    fn update(&mut self, _cells: &[u8], pos: &[u8], label: u8, _from: usize, _to: usize, limit: u32) -> u32 {
        debug_assert_ne!(label, BLANK_CELL);
        let g = self.group_of[label as usize] as usize;
        self.direct[g] = self.direct_value(g, pos);
        let direct: u32 = self.direct.iter().sum();
        if direct > limit {
            return direct;
        }
        let rg = self.group_of[TRANSPOSE[label as usize] as usize] as usize;
        self.reflected[rg] = self.reflected_value(rg, pos);
        self.value()
    }
}
