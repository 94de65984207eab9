//! Issue 25 item 1: a `size` far larger than what is written is an error
//! about what is written, never an allocation of `rows × cols` first. The
//! 51-byte `size 100000x100000` + `lights { . }` once aborted the process
//! allocating 160 GB (validation reserved the grid before checking its rows).

use lights_compiler::{analyze, Code};

#[test]
fn a_huge_size_over_a_small_grid_is_a_row_count_error() {
    for (statement, grid) in [("lights", "."), ("goal", "."), ("locked", "x"), ("holes", "x"), ("solution", "1")] {
        for size in ["100000x100000", "1x10000000000", "10000000000x1", "2x4294967296"] {
            let src = format!("puzzle \"a\" {{\n  size {size}\n  {statement} {{ {grid} }}\n}}\n");
            let a = analyze(&src);
            let codes: Vec<Code> = a.all_diagnostics().iter().map(|d| d.code).collect();
            assert!(codes.contains(&Code::RowCount) || codes.contains(&Code::RowWidth), "{src}: {codes:?}");
        }
    }
}
