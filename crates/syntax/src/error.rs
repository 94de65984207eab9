//! Syntax errors found while recovering from a malformed file.

use crate::Span;

/// What kind of syntax error; the compiler maps each to a stable diagnostic code.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SyntaxErrorKind {
    /// Text at the top level, outside any `puzzle` block.
    OutsideBlock,
    /// `puzzle` not followed by a quoted name and `{`.
    BadPuzzleHeader,
    /// A block opened with a misspelt keyword (`puzzel "x" {`).
    UnknownBlock,
    /// A `puzzle` block without its closing `}`.
    UnclosedBlock,
    /// A line inside a block that does not start with a statement keyword.
    UnknownStatement,
    /// A statement whose keyword is right but whose shape is wrong.
    MalformedStatement,
    /// A grid row that is neither spaced nor compact.
    BadRow,
    /// A grid without its closing `}`.
    UnclosedGrid,
}

/// One syntax error: where, what, and hints for fixing it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SyntaxError {
    pub kind: SyntaxErrorKind,
    pub span: Span,
    pub message: String,
    /// Text for the label under the span.
    pub label: String,
    pub notes: Vec<String>,
}
