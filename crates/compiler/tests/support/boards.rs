//! Random solvable boards for the compiler's tests and its `minimum_sample`
//! example.

use lights_algebra::SplitMix64;
use lights_compiler::lower::press_pattern;
use lights_compiler::model::{Board, Puzzle};

/// Sets the lights to what pressing each button a random number of times
/// (0 to W − 1) makes from a dark board, so the puzzle is solvable.
pub(crate) fn press_randomly(p: &mut Puzzle, rng: &mut SplitMix64) {
    let w = p.states;
    let mut lights = vec![0u16; p.cells()];
    for j in 0..p.cells() {
        let times = rng.below(u64::from(w)) as u32;
        if times == 0 {
            continue;
        }
        for (i, a) in press_pattern(p, j / p.cols, j % p.cols) {
            lights[i] = ((u32::from(lights[i]) + a * times) % w) as u16;
        }
    }
    p.lights = Board::dense(lights);
}
