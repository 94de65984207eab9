//! The `.lights` language's syntax: the pest grammar (`grammar/lights.pest`),
//! a parser that never gives up on a file, an AST with byte spans, and the
//! canonical formatter.
//!
//! This crate knows nothing about solving or about diagnostics' codes: it
//! reports [`SyntaxError`]s with a [`SyntaxErrorKind`], which the compiler
//! turns into its `Diagnostic`s.

// A library reports through its return values; printing is the command line's.
#![deny(clippy::print_stdout, clippy::print_stderr)]

pub mod ast;
mod error;
pub mod format;
mod grammar;
mod line_index;
mod parse;
pub mod suggest;

pub use ast::*;
pub use error::{SyntaxError, SyntaxErrorKind};
pub use format::{format_source, FormatError};
pub use line_index::LineIndex;
pub use parse::parse;

/// Keywords that start a statement inside a `puzzle` block, in canonical order.
pub const STATEMENT_KEYWORDS: &[&str] =
    &["size", "grid", "graph", "states", "rule", "topology", "holes", "lights", "goal", "locked", "expect", "solution"];

/// The claims `expect` accepts.
pub const CLAIM_KEYWORDS: &[&str] = &["solvable", "unsolvable", "unique", "solutions", "presses", "difficulty"];

/// The keywords that open a block.
pub const BLOCK_KEYWORDS: &[&str] = &["puzzle", "sliding"];

/// Keywords that start a statement inside a sliding block, in canonical order.
pub const SLIDING_STATEMENT_KEYWORDS: &[&str] = &["size", "tiles", "goal", "expect", "solution"];

/// The claims `expect` accepts in a sliding block.
pub const SLIDING_CLAIM_KEYWORDS: &[&str] = &["solvable", "unsolvable", "moves"];
