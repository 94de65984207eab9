//! The rendered diagnostics of every file of the broken-file corpus
//! (`tests/corpus/`), pinned with insta; and a corpus file for every code.
//!
//! Three codes need more than a file: L0301 a time budget (the
//! `lights.toml` of `tests/corpus-injected/time-budget/`), and L0207 and
//! L0302 a bug in lights, which no file produces: their files in
//! `tests/corpus-injected/` are checked in-process, through the ide layer
//! as `lights check` checks them, with a solver whose self-check fails or
//! that panics.

mod common;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use common::*;
use lights_compiler::{Block, BlockReport, Code, SolveError, SolveOptions};
use lights_ide::{Document, SolveFn, Solved};

/// The folders of corpus files.
const FOLDERS: [&str; 2] = ["tests/corpus", "tests/corpus-injected"];

/// The code a corpus file is named after (`L0104-row-width.lights`), if any.
fn code_of(file: &Path) -> Option<String> {
    let name = file.file_stem()?.to_str()?;
    let code = name.split('-').next().filter(|c| c.len() == 5 && c.starts_with('L'))?;
    Some(code.to_string())
}

/// A solver whose self-check fails (L0207).
fn failing_self_check(_: &Block, _: &SolveOptions, _: &dyn Fn() -> bool) -> Result<BlockReport, SolveError> {
    Err(SolveError::Internal("injected by crates/cli/tests/snapshots.rs: the pressed-out solution is wrong".into()))
}

/// A solver that panics on the block named "crashes" (L0302) and solves the rest.
fn crashing(block: &Block, options: &SolveOptions, stop: &dyn Fn() -> bool) -> Result<BlockReport, SolveError> {
    assert!(block.name() != "crashes", "injected by crates/cli/tests/snapshots.rs: a bug in the solver");
    block.solve_with(options, stop)
}

/// The faulty solver a code's corpus file is checked with, for the codes
/// only a bug in lights produces.
fn injected(code: &str) -> Option<SolveFn> {
    match code {
        "L0207" => Some(failing_self_check),
        "L0302" => Some(crashing),
        _ => None,
    }
}

/// The diagnostics of `text` solved by `solve`, one block of lines each:
/// `[CODE] Severity: message`, where (line:column), then labels and notes.
fn check_in_process(rel: &str, text: &str, solve: SolveFn) -> String {
    let doc = Document::new(text);
    let answers = Solved::with(&doc, |_| true, solve);
    let at = |offset: usize| {
        let before = &text[..offset];
        let line = before.matches('\n').count() + 1;
        let column = before.len() - before.rfind('\n').map_or(0, |i| i + 1) + 1;
        format!("{rel}:{line}:{column}")
    };
    let mut out = String::new();
    for problem in lights_ide::diagnostics(&doc, &answers) {
        let d = problem.diagnostic;
        out += &format!("[{}] {:?}: {}\n  --> {}: {}\n", d.code, d.severity, d.message, at(d.span.start), d.label);
        for label in &d.labels {
            out += &format!("  --> {}: {}\n", at(label.span.start), label.message);
        }
        for note in &d.notes {
            out += &format!("  note: {note}\n");
        }
    }
    out
}

#[test]
fn corpus_diagnostics() {
    let root = root();
    let files: Vec<PathBuf> = FOLDERS.iter().flat_map(|f| lights_files(f)).collect();
    for file in files {
        let rel = file.strip_prefix(&root).unwrap().to_string_lossy().into_owned();
        let name = file.file_stem().unwrap().to_string_lossy().into_owned();
        let code = code_of(&file);
        let shown = match code.as_deref().and_then(injected) {
            Some(solve) => {
                let text = std::fs::read_to_string(&file).unwrap();
                check_in_process(&rel, &text, solve)
            }
            None => {
                let out = lights(&root, &["check", "-q", &rel]);
                let shown = stdout(&out);
                // Errors fail the check; a file with warnings only (L0009,
                // L0206, L0301) passes it.
                let errors = shown.lines().any(|l| l.starts_with('[') && l.contains("] Error:"));
                assert_eq!(out.status.code(), Some(i32::from(errors)), "{rel}: the exit status\n{shown}");
                assert!(shown.contains("] Error:") || shown.contains("] Warning:"), "{rel}: no diagnostic\n{shown}");
                shown
            }
        };
        insta::with_settings!({ snapshot_suffix => name.clone(), description => rel.clone(), omit_expression => true }, {
            insta::assert_snapshot!("corpus", shown);
        });
        // A file named after a code produces that code.
        if let Some(code) = code {
            assert!(shown.contains(&format!("[{code}]")), "{rel} does not produce {code}\n{shown}");
        }
    }
}

#[test]
fn every_code_has_a_corpus_file() {
    let named: BTreeSet<String> = FOLDERS.iter().flat_map(|f| lights_files(f)).filter_map(|f| code_of(&f)).collect();
    let missing: Vec<&str> = Code::ALL.iter().map(|c| c.as_str()).filter(|c| !named.contains(*c)).collect();
    assert!(
        missing.is_empty(),
        "no corpus file for {}: add `tests/corpus/CODE-what-it-shows.lights` (it must produce the code)",
        missing.join(", ")
    );
    // And no file is named after a code that does not exist.
    let known: BTreeSet<&str> = Code::ALL.iter().map(|c| c.as_str()).collect();
    let unknown: Vec<&String> = named.iter().filter(|c| !known.contains(c.as_str())).collect();
    assert!(unknown.is_empty(), "corpus files named after no code: {unknown:?}");
}

#[test]
fn every_code_is_documented() {
    let doc = std::fs::read_to_string(root().join("docs/diagnostics.md")).unwrap();
    for code in lights_compiler::Code::ALL {
        assert!(doc.contains(&format!("## {}", code.as_str())), "docs/diagnostics.md lacks {}", code.as_str());
    }
}
