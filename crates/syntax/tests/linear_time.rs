//! Parsing and recovery take time linear in the input on the families of
//! broken files that once took quadratic time (a grid of 200,000 lines of
//! `{`, 200,000 unclosed blocks, …). The work is measured, not the clock:
//! pest's call limit makes a parse fail once it has made more calls than a
//! fixed number per byte, and the recovery after it scans each line a
//! bounded number of times (the files are big enough that a quadratic step
//! would not end in CI's time).

use std::num::NonZeroUsize;

/// Rule calls allowed per byte of input; the families below need about 10.
const CALLS_PER_BYTE: usize = 64;

fn parse_linearly(src: &str) -> lights_syntax::SourceFile {
    pest::set_call_limit(NonZeroUsize::new(CALLS_PER_BYTE * src.len().max(1)));
    let file = lights_syntax::parse(src);
    let over = file.errors.iter().find(|e| e.message.contains("call limit"));
    assert!(over.is_none(), "more than {CALLS_PER_BYTE} rule calls per byte: {:?}", over.map(|e| &e.message));
    file
}

const N: usize = 200_000;

#[test]
fn a_grid_of_lines_of_open_braces() {
    let src = format!("puzzle \"a\" {{\n  size 2x2\n  lights {{\n{}}}\n}}\n", "{\n".repeat(N));
    let file = parse_linearly(&src);
    assert!(!file.errors.is_empty());
}

#[test]
fn lines_of_open_braces_at_the_top_level_and_in_a_block() {
    parse_linearly(&"{\n".repeat(N));
    parse_linearly(&format!("puzzle \"a\" {{\n{}", "{\n".repeat(N)));
}

#[test]
fn many_unclosed_blocks() {
    let src: String = (0..N).map(|i| format!("puzzle \"a{i}\" {{\n")).collect();
    let file = parse_linearly(&src);
    assert_eq!(file.blocks.len(), N);
}

#[test]
fn many_unclosed_grids_and_blocks_with_statements() {
    let src: String = (0..N / 4).map(|i| format!("puzzle \"a{i}\" {{\n  size 2x2\n  lights {{\n  . 1\n")).collect();
    let file = parse_linearly(&src);
    assert_eq!(file.blocks.len(), N / 4);
}

#[test]
fn one_long_line_of_entries_and_of_row_separators() {
    parse_linearly(&format!("puzzle \"a\" {{ size 2x2 lights at {} }}\n", "1,1 ".repeat(N)));
    parse_linearly(&format!("puzzle \"a\" {{ size 2x2 lights {{ {} }} }}\n", ". 1 / ".repeat(N)));
    parse_linearly(&format!("puzzle \"a\" {{ size 2x2 lights {{ {} }} }}\n", "/ ".repeat(N)));
}

#[test]
fn deeply_nested_and_unbalanced_braces() {
    parse_linearly(&"{".repeat(N));
    parse_linearly(&"}".repeat(N));
    parse_linearly(&format!("puzzle \"a\" {{\n{}", "lightz {\n".repeat(N)));
    parse_linearly(&"puzzle \"a\" { lights { { { { {\n".repeat(N / 8));
}
