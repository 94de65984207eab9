//! Issue 25 item 9: a written graph of millions of edges is analysed in
//! memory proportional to its text. A 62 MB edge list took 2.3 GB (37×);
//! parsing kept six parser tokens and two heap-allocated numbers per edge.
//! The ceiling asserted here, by a counting allocator (bytes requested, at
//! the peak), is 20× the input for parse + validation.

mod counting;

use std::fmt::Write;

#[global_allocator]
static ALLOCATOR: counting::Counting = counting::Counting;

/// A path through `n` nodes plus `n` chords, one line: about 13 bytes an edge.
fn edge_list(n: u32) -> String {
    let mut s = String::from("puzzle \"big\" {\n  graph {");
    for i in 1..n {
        let _ = write!(s, " {i}-{}", i + 1);
    }
    for i in 1..n {
        // A chord to a node far away (never a repeat of the path's edges).
        let j = (i * 7919) % n + 1;
        if j > i + 1 {
            let _ = write!(s, " {i}-{j}");
        }
    }
    s.push_str(" }\n  lights at 1\n}\n");
    s
}

#[test]
fn an_edge_list_is_analysed_within_20_times_its_text() {
    let src = edge_list(150_000);
    let (analysis, peak) = counting::peak_bytes(|| lights_compiler::analyze(&src));
    assert!(analysis.blocks[0].block.is_some(), "{:?}", analysis.all_diagnostics());
    let ratio = peak as f64 / src.len() as f64;
    eprintln!("edge list: {} bytes of text, peak {peak} bytes ({ratio:.1}×)", src.len());
    assert!(ratio <= 20.0, "peak {peak} bytes for {} bytes of text: {ratio:.1}×", src.len());
}
