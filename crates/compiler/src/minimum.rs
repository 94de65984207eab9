//! The minimum search of every solving path: the algebra's search over the
//! quiet patterns, given the work it may use.

use crate::model::Puzzle;
use lights_algebra::{minimum_weight_with, AlgebraError, Kernel, Minimum, MinimumOptions};

/// The fewest presses over `particular + kernel` (both over the puzzle's
/// cells), within `work` units.
pub(crate) fn search(
    p: &Puzzle,
    particular: &[u32],
    kernel: &Kernel,
    work: u64,
    cancel: &dyn Fn() -> bool,
) -> Result<Minimum, AlgebraError> {
    let options = MinimumOptions { work_units: work, known_lower_bound: 0 };
    minimum_weight_with(particular, kernel, p.states, &options, cancel)
}
