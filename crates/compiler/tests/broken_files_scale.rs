//! Analysis of broken files takes time linear in their size: each syntax
//! error is given to its block by binary search. (With a linear search per
//! error, the 200,000 unclosed blocks below took minutes; no clock is read
//! here: a quadratic step would not end in CI's time.)

#[test]
fn two_hundred_thousand_unclosed_blocks() {
    let n = 200_000;
    let src: String = (0..n).map(|i| format!("puzzle \"a{i}\" {{\n")).collect();
    let analysis = lights_compiler::analyze(&src);
    assert_eq!(analysis.blocks.len(), n);
    // Every block but the last is unclosed, and that error is its own.
    assert!(analysis.blocks.iter().all(|p| p.diagnostics.iter().any(lights_compiler::Diagnostic::is_error)));
    assert!(analysis.file_diagnostics.is_empty());
}

#[test]
fn errors_go_to_the_block_they_are_in() {
    let src = "oops\npuzzle \"a\" {\n  size 2y2\n}\nstray\npuzzle \"b\" {\n  lightz on\n}\n";
    let analysis = lights_compiler::analyze(src);
    let codes = |i: usize| analysis.blocks[i].diagnostics.iter().map(|d| d.span.start).collect::<Vec<_>>();
    let inside = |i: usize| codes(i).iter().all(|&at| analysis.blocks[i].span.contains(at));
    assert!(inside(0) && inside(1));
    assert_eq!(analysis.file_diagnostics.len(), 2, "`oops` and `stray` are the file's");
}
