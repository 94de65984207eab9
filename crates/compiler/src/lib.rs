//! The compiler: from a `.lights` file to validated puzzle models, their
//! linear systems over Z/W, and reports (solvable, count, minimum solution,
//! certificate), with every problem as a [`Diagnostic`].
//!
//! Pipeline: [`analyze`] (parse + validate into a [`Block`]) →
//! [`Block::solve`] (lower + algebra, or the sliding solver) →
//! [`Block::check`] (verify `expect` and `solution`).

// A library reports through its return values; printing is the command line's.
#![deny(clippy::print_stdout, clippy::print_stderr)]

pub mod block;
pub mod board;
pub mod budget;
pub mod buttonless;
pub mod check;
pub mod diagnostic;
pub mod difficulty;
pub mod edit;
pub mod fast;
pub mod flags;
pub mod graph;
pub mod graph_drawing;
pub mod header;
pub mod key;
mod lift;
pub mod lower;
pub mod minimum;
pub mod model;
pub mod palette;
pub mod present;
pub mod repair;
pub mod report;
pub mod sliding;
pub mod sliding_check;
mod sliding_validate;
pub mod solve;
pub mod summary;
pub mod symmetry;
mod validate;

use std::collections::HashMap;
use std::sync::Arc;

pub use block::{Answered, Block, BlockReport, SolutionEdit, SolutionPlan, Wording};
pub use budget::{BudgetError, MinimumBudget};
pub use diagnostic::{Code, Diagnostic, Label, Severity};
pub use header::{BlockHeader, Header};
pub use key::{BlockKey, Unkeyed};
pub use lights_syntax::BlockKind;
use lights_syntax::{SourceFile, Span};
pub use model::Puzzle;
pub use report::{SolveError, SolveOptions};
pub use sliding::SlidingPuzzle;

/// A file after parsing and validation.
#[derive(Debug)]
pub struct FileAnalysis {
    /// The parsed file. Its `errors` are moved into the diagnostics (of
    /// their block, or of the file) and left empty here: one copy of each
    /// message, not two (issue 25 item 9).
    pub syntax: SourceFile,
    pub blocks: Vec<BlockAnalysis>,
    /// Diagnostics that belong to no puzzle block (text outside blocks).
    pub file_diagnostics: Vec<Diagnostic>,
}

/// One block (`puzzle` or `sliding`) after validation.
#[derive(Debug)]
pub struct BlockAnalysis {
    /// `None` when the header is malformed.
    pub name: Option<String>,
    pub span: Span,
    /// `puzzle` (Lights Out) or `sliding` (sliding tiles), as written.
    pub kind: BlockKind,
    /// The validated model, when the block has no error. Shared, so a
    /// front end can hand it to a solve on another thread without a copy.
    pub block: Option<Arc<Block>>,
    /// Syntax errors inside the block, semantic errors and (after
    /// [`check_source`]) solver findings, in source order.
    pub diagnostics: Vec<Diagnostic>,
    /// The solver's answer (after [`check_source`], for blocks without
    /// errors), with the block's own correct solution counted
    /// ([`Block::best_known`]).
    pub report: Option<BlockReport>,
}

impl BlockAnalysis {
    /// The Lights Out model, when this is a `puzzle` block without error.
    pub fn puzzle(&self) -> Option<&Puzzle> {
        self.block.as_deref().and_then(Block::as_lights)
    }

    /// The sliding-tile model, when this is a `sliding` block without error.
    pub fn sliding_puzzle(&self) -> Option<&SlidingPuzzle> {
        self.block.as_deref().and_then(Block::as_sliding)
    }

    /// `5×5 · cross · plane · 2 states`, `4×4 sliding`; `sliding` for a
    /// sliding block with errors (see [`Block::describe_unvalidated`]).
    pub fn describe(&self) -> Option<String> {
        match &self.block {
            Some(b) => Some(b.describe()),
            None => Block::describe_unvalidated(self.kind).map(str::to_string),
        }
    }
}

impl FileAnalysis {
    /// Every diagnostic of the file, in source order.
    pub fn all_diagnostics(&self) -> Vec<&Diagnostic> {
        let mut all: Vec<&Diagnostic> =
            self.file_diagnostics.iter().chain(self.blocks.iter().flat_map(|p| p.diagnostics.iter())).collect();
        all.sort_by_key(|d| (d.span.start, d.span.end));
        all
    }
}

/// Parse and validate a whole file (no solving).
pub fn analyze(src: &str) -> FileAnalysis {
    let mut syntax = lights_syntax::parse(src);
    let mut file_diagnostics = Vec::new();
    let mut blocks: Vec<BlockAnalysis> = syntax
        .blocks
        .iter()
        .map(|block| {
            let (model, mut diagnostics) = Block::validate(src, block);
            // Exact sizes: a vector grows to 4 diagnostics (480 bytes) at
            // its first push, and most blocks have one or two.
            diagnostics.shrink_to_fit();
            BlockAnalysis {
                name: block.name.as_ref().map(|n| n.value.clone()),
                span: block.span,
                kind: block.kind,
                block: model.map(Arc::new),
                diagnostics,
                report: None,
            }
        })
        .collect();

    // Syntax errors go to the block they are in, or to the file. Blocks are
    // in source order and do not overlap: the block is found by binary
    // search (a linear search per error was quadratic on broken files).
    for err in std::mem::take(&mut syntax.errors) {
        let start = err.span.start;
        let d = Diagnostic::from(err);
        let before = blocks.partition_point(|p| p.span.start <= start);
        let holder = before.checked_sub(1).and_then(|i| blocks.get_mut(i));
        match holder.filter(|p| p.span.contains(start) || p.span.start == start) {
            Some(p) => {
                p.diagnostics.reserve_exact(1);
                p.diagnostics.push(d);
                p.block = None;
            }
            None => file_diagnostics.push(d),
        }
    }

    // Names are unique within a file, across both kinds of block.
    let mut names: HashMap<&str, Span> = HashMap::new();
    for (block, analysis) in syntax.blocks.iter().zip(blocks.iter_mut()) {
        let Some(name) = &block.name else { continue };
        if let Some(first) = names.get(name.value.as_str()) {
            analysis.diagnostics.push(
                Diagnostic::error(
                    Code::DuplicateName,
                    name.span,
                    format!("a puzzle named \"{}\" already exists in this file", name.value),
                )
                .with_label("second puzzle with this name")
                .with_secondary(*first, "first defined here")
                .with_note("names are unique within a file; rename one of them"),
            );
            analysis.block = None;
        } else {
            names.insert(&name.value, name.span);
        }
    }
    for p in &mut blocks {
        p.diagnostics.sort_by_key(|d| (d.span.start, d.span.end));
    }
    // A file with nothing in it (or only comments) checks nothing: say so,
    // so a pack with an emptied file does not pass unnoticed.
    if blocks.is_empty() && file_diagnostics.is_empty() {
        file_diagnostics.push(
            Diagnostic::warning(Code::EmptyFile, Span::new(0, 0), "no puzzle in this file")
                .with_label("nothing to check")
                .with_note("a `.lights` file holds `puzzle \"NAME\" { … }` and `sliding \"NAME\" { … }` blocks"),
        );
    }
    FileAnalysis { syntax, blocks, file_diagnostics }
}

/// Parse, validate, solve and verify a whole file: [`analyze`], then every
/// well-formed puzzle is solved and its `expect` and `solution` checked.
/// Sliding blocks are solved by `lights-sliding` ([`sliding_check`]).
pub fn check_source(src: &str) -> FileAnalysis {
    check_source_with(src, &SolveOptions::default())
}

/// [`check_source`] with solve options (the minimum search's budget).
pub fn check_source_with(src: &str, options: &SolveOptions) -> FileAnalysis {
    let mut analysis = analyze(src);
    for p in &mut analysis.blocks {
        check_block_with(p, options, &|| false);
    }
    analysis
}

/// Solve and verify one analysed block (nothing happens when it has errors).
/// `cancel` is polled during long work; a cancelled solve adds nothing.
pub fn check_block(p: &mut BlockAnalysis, cancel: &dyn Fn() -> bool) {
    check_block_with(p, &SolveOptions::default(), cancel);
}

/// [`check_block`] with solve options (see [`Block::solve_with`]).
pub fn check_block_with(p: &mut BlockAnalysis, options: &SolveOptions, cancel: &dyn Fn() -> bool) {
    let Some(block) = &p.block else { return };
    match block.solve_with(options, cancel) {
        Ok(report) => {
            p.diagnostics.extend(block.check(&report));
            p.report = Some(block.best_known(&report).unwrap_or(report));
        }
        Err(e) => p.diagnostics.extend(block.failure(&e)),
    }
    p.diagnostics.sort_by_key(|d| (d.span.start, d.span.end));
}
