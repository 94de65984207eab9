//! Minimums of 0 and 1 press are proven without a search: no press is never
//! beaten, and one press is the fewest when the lights start away from the
//! goal. (An 8×8 King board with 4 states has a kernel too large for an
//! exhaustive search, so `expect presses 0` was "not proven", L0206.)

use lights_compiler::{check_source, Code};

fn codes(src: &str) -> Vec<Code> {
    check_source(src).all_diagnostics().iter().map(|d| d.code).collect()
}

fn minimum(src: &str) -> (u64, bool) {
    let analysis = check_source(src);
    let report = analysis.blocks[0].report.as_ref().expect("solved");
    let lights_compiler::BlockReport::Lights(r) = report else { panic!("a Lights Out block") };
    let m = r.minimum.as_ref().expect("solvable");
    (m.cost, m.optimal)
}

#[test]
fn no_press_is_proven_optimal() {
    let src = "puzzle \"z\" {\n  size 8x8\n  rule king\n  states 4\n  expect presses 0\n}\n";
    assert_eq!(minimum(src), (0, true));
    assert!(codes(src).is_empty(), "{:?}", codes(src));
}

#[test]
fn one_press_is_proven_optimal_when_the_start_is_not_the_goal() {
    // The King press at 4,4 adds 1 to the 3×3 block around it: from 3, that is 0.
    let src = "puzzle \"o\" {\n  size 8x8\n  rule king\n  states 4\n  lights at 3,3:3 3,4:3 3,5:3 4,3:3 4,4:3 4,5:3 5,3:3 5,4:3 5,5:3\n  expect presses 1\n}\n";
    assert_eq!(minimum(src), (1, true));
    assert!(codes(src).is_empty(), "{:?}", codes(src));
}
