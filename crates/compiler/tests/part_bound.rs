//! The part bound (`lights_algebra::part_bound`, used by
//! `minimum::lines_bound`) on a 52×63 torus with the cross rule: the kernel
//! has dimension 28, too many for the exhaustive search within the default
//! budget, and no odd triple exists (disjoint crosses bound it by 656). Each
//! row sees a projection of rank 14, and the rows' lightest weights add up
//! to 988 against the minimum, 1092 (which the window search proves in the
//! pipeline: `window_search.rs`; an exhaustive transform outside this
//! project, over all 2^28 members, agrees).

use lights_algebra::part_bound;
use lights_compiler::model::{Puzzle, Rule, Topology};

#[path = "support/coset.rs"]
mod coset;

use coset::{coset, kernel};

/// The part bound of an All Lights cross torus with its rows (or columns)
/// as the parts.
fn bound(rows: usize, cols: usize, by_rows: bool) -> u64 {
    let mut p = Puzzle::new(rows, cols, 2, Rule::from_name("cross").expect("a rule"), Topology::Torus);
    p.lights = lights_compiler::board::Board::uniform(rows * cols, 1);
    let (x0, patterns) = coset(&p).expect("solvable");
    let k = kernel(&patterns);
    let parts: Vec<Vec<usize>> = if by_rows {
        (0..rows).map(|r| (r * cols..(r + 1) * cols).collect()).collect()
    } else {
        (0..cols).map(|c| (0..rows).map(|r| r * cols + c).collect()).collect()
    };
    part_bound(&x0, &k, &parts, &mut u64::MAX.clone()).expect("a partition")
}

#[test]
fn rows_bound_a_torus_whose_search_cannot_finish() {
    let b = bound(52, 63, true);
    assert_eq!(b, 988, "the rows' lightest weights (656 from crosses alone)");
    assert!(b * 10 >= 1092 * 9, "within 10 % of the minimum");
}

#[test]
fn columns_bound_the_transposed_torus() {
    assert_eq!(bound(63, 52, false), 988);
}
