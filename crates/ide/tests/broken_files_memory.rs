//! Issue 25 item 9: a document of many broken blocks is held in memory
//! bounded by its text (200,000 unclosed blocks peaked at 1.96 GB in the
//! language server). The analysis's own ceilings, per family of broken file,
//! are in crates/compiler/tests/broken_files_memory.rs; here the document
//! (analysis, line index, block keys) on the two families with the most
//! blocks and the most diagnostics.

#[path = "../../compiler/tests/counting/mod.rs"]
mod counting;

#[global_allocator]
static ALLOCATOR: counting::Counting = counting::Counting;

/// Peak bytes allocated by `Document::new` on `src` (the text itself not
/// counted: it is the caller's), as a multiple of the text's length.
fn peak_of(family: &str, src: String) -> f64 {
    let len = src.len();
    let (doc, peak) = counting::peak_bytes(|| lights_ide::Document::new(src));
    assert!(doc.block_count() > 0);
    drop(doc);
    let ratio = peak as f64 / len as f64;
    eprintln!("{family}: {len} bytes, peak {peak} bytes ({ratio:.1}×)");
    ratio
}

const N: usize = 50_000;

#[test]
fn a_document_of_unclosed_blocks() {
    let src: String = (0..N).map(|i| format!("puzzle \"a{i}\" {{\n")).collect();
    let ratio = peak_of("unclosed blocks", src);
    assert!(ratio <= 90.0, "{ratio:.1}×");
}

#[test]
fn a_document_of_misspelt_statement_lines() {
    let src = format!("puzzle \"a\" {{\n{}", "lightz {\n".repeat(N));
    let ratio = peak_of("lightz { lines", src);
    assert!(ratio <= 80.0, "{ratio:.1}×");
}
