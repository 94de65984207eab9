//! What an editor or the command line asks about a `.lights` file, answered
//! as plain data: byte offsets and spans, strings, the compiler's
//! [`Diagnostic`](lights_compiler::Diagnostic)s — no LSP types, no terminal.
//!
//! The layer in the spirit of rust-analyzer's `ide` crate. A [`Document`]
//! is one analysed text; the answers of its blocks come from an
//! [`Answers`] source — the language server's engine (solving in the
//! background, under a time budget) or [`Solved`] (solving at once, for the
//! command line and tests). Every feature is a function of the two:
//! [`diagnostics`], [`status`], [`lenses`], [`inlay_hints`],
//! [`code_actions`], [`hover`], [`completion`], [`symbols`],
//! [`folding_ranges`], [`format`]; [`play`] answers a board view
//! (play-testing); [`config`] is a project's `lights.toml` (found, checked,
//! applied). The front ends (`lights-cli`,
//! `lights-lsp`) convert and schedule; what is said is decided here and in
//! the compiler's [`Block`](lights_compiler::Block).

// A library reports through its return values; printing is the command line's.
#![deny(clippy::print_stdout, clippy::print_stderr)]

mod actions;
mod answers;
mod completion;
pub mod config;
mod copy_of;
mod diagnostics;
mod document;
mod format;
mod hover;
mod internal;
mod lens;
pub mod limits;
mod outline;
pub mod pack;
pub mod play;
pub mod publish;
pub mod reference;
mod status;
mod suppress;
mod words;

pub use actions::{code_actions, insert_solution, Action, ActionKind};
pub use answers::{outcome_of, Answers, BlockState, Outcome, SolveFn, Solved};
pub use completion::{completion, Completion, CompletionKind};
pub use diagnostics::{block_diagnostics, diagnostics, Problem, MAX_RELATED_CELLS};
pub use document::{AnalyzeFn, Document};
pub use format::{format, format_edits};
pub use hover::{hover, Hover};
pub use lens::{inlay_hints, lenses, InlayHint, Lens};
pub use outline::{folding_ranges, symbols, symbols_at_most, Fold, Symbol};
pub use status::{status, Mark, Status};
pub use words::duration;
