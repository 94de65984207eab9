//! Issue 25 item 9: a broken file is analysed in memory bounded by its text.
//! 200,000 unclosed blocks peaked at 1.96 GB in the language server (about
//! 4 KB per block). The ceilings asserted here, by a counting allocator
//! (bytes requested, at the peak; a reallocation counts old and new), are
//! multiples of the input, per family of broken file of docs/RELIABILITY.md
//! §3, each set just above what is measured (each failed before the cuts of
//! issue 25: 113×, 465×, 90×, 212× and 126×).
//!
//! They are not the 20× the issue hoped for: these files have one
//! diagnostic per 2 to 18 bytes (an owned message, label and notes, ~300
//! bytes with the `Diagnostic`), and pest holds two 40-byte tokens per rule
//! matched in a block until the block is built.

mod counting;

#[global_allocator]
static ALLOCATOR: counting::Counting = counting::Counting;

/// Peak bytes allocated by `analyze` on `src`, and the ratio to its length.
fn peak_of(family: &str, src: &str) -> f64 {
    let (analysis, peak) = counting::peak_bytes(|| lights_compiler::analyze(src));
    let errors = analysis.all_diagnostics().len();
    drop(analysis);
    let ratio = peak as f64 / src.len() as f64;
    eprintln!("{family}: {} bytes, {errors} diagnostics, peak {peak} bytes ({ratio:.1}×)", src.len());
    ratio
}

const N: usize = 50_000;

#[test]
fn unclosed_blocks() {
    let src: String = (0..N).map(|i| format!("puzzle \"a{i}\" {{\n")).collect();
    let ratio = peak_of("unclosed blocks", &src);
    assert!(ratio <= 90.0, "{ratio:.1}×");
}

#[test]
fn lines_of_open_braces() {
    let src = format!("puzzle \"a\" {{\n  size 2x2\n  lights {{\n{}}}\n}}\n", "{\n".repeat(N));
    let ratio = peak_of("grid of { lines", &src);
    assert!(ratio <= 400.0, "{ratio:.1}×");
}

#[test]
fn misspelt_statement_lines() {
    let src = format!("puzzle \"a\" {{\n{}", "lightz {\n".repeat(N));
    let ratio = peak_of("lightz { lines", &src);
    assert!(ratio <= 80.0, "{ratio:.1}×");
}

#[test]
fn one_one_repeated_on_one_line() {
    let src = format!("puzzle \"a\" {{ size 2x2 lights at {}}}\n", "1,1 ".repeat(N));
    let ratio = peak_of("1,1 on one line", &src);
    assert!(ratio <= 185.0, "{ratio:.1}×");
}

#[test]
fn rows_on_one_line() {
    let src = format!("puzzle \"a\" {{ size 2x2 lights {{ {}}} }}\n", ". 1 / ".repeat(N));
    let ratio = peak_of(". 1 / rows on one line", &src);
    assert!(ratio <= 120.0, "{ratio:.1}×");
}
