//! The properties the fuzz targets check, one function per target. Each
//! takes arbitrary bytes and panics when a property fails; `fuzz/` runs them
//! under libFuzzer (nightly), and `tests/regressions.rs` replays every input
//! kept in `fuzz/regressions/<target>/` on stable in `cargo test`.
//!
//! - [`parse`]: parsing never panics; every span lies in the text, on
//!   character boundaries; errors come in source order.
//! - [`check`]: analysing and solving (with a time budget) and every
//!   editor feature over the result never panic.
//! - [`format`]: formatting is idempotent and keeps the meaning: the same
//!   blocks (by the key of everything their answer depends on) and the
//!   same diagnostics.
//! - [`actions`]: every code action's edits apply to the text and leave a
//!   file with no more syntax errors than before.
//! - [`lsp`]: the language server survives any sequence of messages, sent
//!   by the tests' client (`lsp_session`).
//! - [`check_grammar`]: [`check`] on a file the bytes choose statement by
//!   statement ([`grammar::source`]): graphs, holes, hex boards, stencils.

// A library reports through its return values; printing is the command line's.
#![deny(clippy::print_stdout, clippy::print_stderr)]

pub mod grammar;
mod lsp_session;

use std::time::Duration;

use lights_compiler::Block;
use lights_ide::{Document, Solved};
use lights_syntax::Span;

/// Boards larger than this are analysed but not solved: the fuzzers look
/// for panics, not for the (documented) cost of huge boards.
const MAX_SOLVED_CELLS: usize = 1 << 16;
/// The time budget of each solve.
const BUDGET: Duration = Duration::from_millis(50);

fn text(data: &[u8]) -> Option<&str> {
    std::str::from_utf8(data).ok()
}

fn span_ok(src: &str, s: Span) -> bool {
    s.start <= s.end && s.end <= src.len() && src.is_char_boundary(s.start) && src.is_char_boundary(s.end)
}

/// Parsing never panics and gives spans inside the text.
pub fn parse(data: &[u8]) {
    let Some(src) = text(data) else { return };
    let file = lights_syntax::parse(src);
    for e in &file.errors {
        assert!(span_ok(src, e.span), "error span {:?} outside the text or inside a character", e.span);
    }
    assert!(file.errors.windows(2).all(|w| w[0].span.start <= w[1].span.start), "errors out of order");
    for p in &file.blocks {
        assert!(span_ok(src, p.span), "block span {:?} outside the text", p.span);
    }
    for c in &file.comments {
        assert!(span_ok(src, *c), "comment span {c:?} outside the text");
    }
}

/// Solve what is small enough, each block within the budget. A solver
/// panic is caught by the ide layer (the editor must survive it) and shown
/// as an internal error; here it fails the check.
fn solved(doc: &Document) -> Solved {
    // Sliding boards of 4×4 and larger build pattern databases (seconds): not here.
    let small = |i: usize| doc.block(i).is_some_and(|b| b.solves_quickly(MAX_SOLVED_CELLS));
    let answers = Solved::with(doc, small, budgeted_solve);
    for i in 0..doc.block_count() {
        if let lights_ide::BlockState::Done(outcome) = doc.state(i, &answers) {
            if let lights_ide::Outcome::Crashed(message) = &*outcome {
                panic!("the solver panicked on block {i}: {message}");
            }
        }
    }
    answers
}

fn budgeted_solve(
    block: &Block,
    options: &lights_compiler::SolveOptions,
    cancel: &dyn Fn() -> bool,
) -> Result<lights_compiler::BlockReport, lights_compiler::SolveError> {
    let deadline = std::time::Instant::now() + BUDGET;
    block.solve_with(options, &|| cancel() || std::time::Instant::now() > deadline)
}

/// Analysis, solving and every editor feature never panic.
pub fn check(data: &[u8]) {
    let Some(src) = text(data) else { return };
    let doc = Document::new(src);
    let answers = solved(&doc);
    for p in lights_ide::diagnostics(&doc, &answers) {
        assert!(span_ok(src, p.diagnostic.span), "diagnostic span {:?} outside the text", p.diagnostic.span);
        for l in &p.diagnostic.labels {
            assert!(span_ok(src, l.span), "label span {:?} outside the text", l.span);
        }
    }
    for i in 0..doc.block_count() {
        let _ = lights_ide::status(&doc, i, &answers);
    }
    let _ = lights_ide::lenses(&doc, &answers);
    let _ = lights_ide::inlay_hints(&doc, &answers, 0..=doc.lines().line(src.len()));
    let _ = lights_ide::symbols(&doc);
    let _ = lights_ide::folding_ranges(&doc);
    // Hover and completion at a few places: the start, the end, and a
    // place picked from the input.
    let picked = data.first().map_or(0, |&b| b as usize * src.len() / 256);
    for at in [0, src.len(), picked] {
        let at = floor_boundary(src, at);
        let _ = lights_ide::hover(&doc, &answers, at);
        let _ = lights_ide::completion(&doc, at, true);
    }
}

/// [`check`] on the file [`grammar::source`] writes from `data`, and
/// [`format`] on it: the same properties on inputs that parse.
pub fn check_grammar(data: &[u8]) {
    let src = grammar::source(data);
    check(src.as_bytes());
    format(src.as_bytes());
}

/// Formatting is idempotent and keeps the meaning.
pub fn format(data: &[u8]) {
    let Some(src) = text(data) else { return };
    let Ok(formatted) = lights_syntax::format::format_source(src) else { return };
    let again = lights_syntax::format::format_source(&formatted)
        .unwrap_or_else(|e| panic!("the formatted text does not parse: {e}\n{formatted}"));
    assert_eq!(again, formatted, "formatting is not idempotent");
    let (before, after) = (Document::new(src), Document::new(formatted.as_str()));
    let keys = |d: &Document| d.keys().collect::<Vec<_>>();
    assert_eq!(keys(&before), keys(&after), "formatting changed what a block means\n{src}\n---\n{formatted}");
    let codes = |d: &Document| {
        let mut codes: Vec<_> = d.analysis().all_diagnostics().iter().map(|d| d.code.as_str()).collect();
        codes.sort_unstable();
        codes
    };
    assert_eq!(codes(&before), codes(&after), "formatting changed the diagnostics\n{src}\n---\n{formatted}");
}

/// Every code action's edits apply and leave no more syntax errors.
pub fn actions(data: &[u8]) {
    let Some(src) = text(data) else { return };
    let doc = Document::new(src);
    let answers = solved(&doc);
    let syntax_errors = |text: &str| lights_syntax::parse(text).errors.len();
    let before = syntax_errors(src);
    let start = std::time::Instant::now();
    let cancel = || start.elapsed() > BUDGET;
    for action in lights_ide::code_actions(&doc, &answers, Span::new(0, src.len()), &cancel) {
        for e in &action.edits {
            assert!(span_ok(src, e.span), "{}: edit span {:?} outside the text", action.title, e.span);
        }
        let edited = lights_compiler::edit::apply(src, &action.edits);
        let after = syntax_errors(&edited);
        assert!(after <= before, "{}: {before} syntax errors became {after}\n{src}\n---\n{edited}", action.title);
        let _ = Document::new(edited).analysis();
    }
}

/// The language server survives any sequence of messages.
pub fn lsp(data: &[u8]) {
    lsp_session::drive(data);
}

fn floor_boundary(s: &str, mut i: usize) -> usize {
    i = i.min(s.len());
    while i > 0 && !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}
