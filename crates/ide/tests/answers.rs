//! Where answers come from: every front end runs the solver through
//! `outcome_of`, so a crash is a diagnostic (L0302) on the command line as in
//! the editor, and blocks with equal keys are solved once.

use std::sync::atomic::{AtomicUsize, Ordering};

use lights_compiler::{Block, BlockReport, Code, SolveError};
use lights_ide::{Document, Mark, Solved};

fn panics_on_boom(
    b: &Block,
    _: &lights_compiler::SolveOptions,
    cancel: &dyn Fn() -> bool,
) -> Result<BlockReport, SolveError> {
    assert!(b.name() != "boom", "the solver exploded");
    b.solve(cancel)
}

#[test]
fn a_solver_crash_is_an_internal_error_on_its_block_and_the_others_are_answered() {
    let doc = Document::new("puzzle \"boom\" {\n  size 3x3\n}\npuzzle \"fine\" {\n  size 3x3\n  lights on\n}\n");
    let solved = Solved::with(&doc, |_| true, panics_on_boom);
    let problems = lights_ide::diagnostics(&doc, &solved);
    assert_eq!(problems.len(), 1, "{problems:?}");
    let d = &problems[0].diagnostic;
    assert_eq!((d.code, d.span.start), (Code::InternalError, 0));
    assert!(d.message.contains("the solver exploded"), "{}", d.message);
    assert_eq!(lights_ide::status(&doc, 0, &solved).mark, Mark::Error);
    assert_eq!(lights_ide::status(&doc, 1, &solved).to_string(), "✓ 1 solution · minimum 5 presses");
}

#[test]
fn an_analysis_crash_is_an_internal_error_on_the_file() {
    fn explodes(_: &str) -> lights_compiler::FileAnalysis {
        panic!("the parser exploded")
    }
    let doc = Document::with_analyzer("puzzle \"p\" { size 2x2 }".to_string(), explodes);
    let problems = lights_ide::diagnostics(&doc, &Solved::all(&doc));
    assert_eq!(problems.len(), 1);
    assert_eq!(problems[0].diagnostic.code, Code::InternalError);
    assert!(problems[0].diagnostic.message.contains("the parser exploded"));
    assert_eq!(doc.block_count(), 0);
}

static CALLS: AtomicUsize = AtomicUsize::new(0);

fn counting(
    b: &Block,
    _: &lights_compiler::SolveOptions,
    cancel: &dyn Fn() -> bool,
) -> Result<BlockReport, SolveError> {
    CALLS.fetch_add(1, Ordering::SeqCst);
    b.solve(cancel)
}

#[test]
fn blocks_that_mean_the_same_are_solved_once() {
    // Same board, other names, claims, layout and comments: one key.
    let text = "puzzle \"a\" {\n  size 4x4\n  lights at 1,1\n}\n\
                // the same board\npuzzle \"b\" {\n  lights at 1,1 // here\n  size 4 x 4\n  expect solvable\n}\n\
                puzzle \"c\" {\n  size 4x4\n  lights at 1,2\n}\n";
    let doc = Document::new(text);
    assert_eq!(doc.key(0), doc.key(1));
    assert_ne!(doc.key(0), doc.key(2));
    let before = CALLS.load(Ordering::SeqCst);
    let solved = Solved::with(&doc, |_| true, counting);
    assert_eq!(CALLS.load(Ordering::SeqCst) - before, 2);
    // Each block still gets its own diagnostics (its own claims and spans).
    let statuses: Vec<String> = (0..3).map(|i| lights_ide::status(&doc, i, &solved).to_string()).collect();
    // b's own false `expect solvable` is its own error, counted with its
    // L0201: the count is the errors shown, not one fewer.
    assert_eq!(statuses[0], "✗ unsolvable");
    assert_eq!(statuses[1], "✗ unsolvable · 2 errors");
}
