//! The one diagnostic type of the toolchain: the CLI renders it with
//! ariadne, the language server converts it to LSP. Codes are stable; each
//! is documented in `docs/diagnostics.md`.

use lights_syntax::{Span, SyntaxError, SyntaxErrorKind};
use serde::Serialize;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Error,
    Warning,
}

/// A secondary location with its own message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Label {
    pub span: Span,
    pub message: String,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    pub code: Code,
    pub severity: Severity,
    pub message: String,
    /// The primary location and the text shown under it.
    pub span: Span,
    pub label: String,
    pub labels: Vec<Label>,
    pub notes: Vec<String>,
}

impl Diagnostic {
    pub fn error(code: Code, span: Span, message: impl Into<String>) -> Self {
        Diagnostic {
            code,
            severity: Severity::Error,
            message: message.into(),
            span,
            label: String::new(),
            labels: Vec::new(),
            notes: Vec::new(),
        }
    }
    pub fn warning(code: Code, span: Span, message: impl Into<String>) -> Self {
        Diagnostic { severity: Severity::Warning, ..Diagnostic::error(code, span, message) }
    }
    pub fn with_label(mut self, label: impl Into<String>) -> Self {
        self.label = label.into();
        self
    }
    pub fn with_secondary(mut self, span: Span, message: impl Into<String>) -> Self {
        self.labels.push(Label { span, message: message.into() });
        self
    }
    pub fn with_note(mut self, note: impl Into<String>) -> Self {
        self.notes.push(note.into());
        self
    }
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
}

impl From<SyntaxError> for Diagnostic {
    fn from(e: SyntaxError) -> Self {
        let code = match e.kind {
            SyntaxErrorKind::OutsideBlock => Code::OutsideBlock,
            SyntaxErrorKind::BadPuzzleHeader => Code::BadPuzzleHeader,
            SyntaxErrorKind::UnknownBlock => Code::UnknownBlock,
            SyntaxErrorKind::UnclosedBlock => Code::UnclosedBlock,
            SyntaxErrorKind::UnknownStatement => Code::UnknownStatement,
            SyntaxErrorKind::MalformedStatement => Code::MalformedStatement,
            SyntaxErrorKind::BadRow => Code::BadRow,
            SyntaxErrorKind::UnclosedGrid => Code::UnclosedGrid,
        };
        Diagnostic {
            code,
            severity: Severity::Error,
            message: e.message,
            span: e.span,
            label: e.label,
            labels: Vec::new(),
            notes: e.notes,
        }
    }
}

macro_rules! codes {
    ($( $variant:ident = $code:literal, $title:literal; )*) => {
        /// Stable diagnostic codes.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum Code { $( $variant, )* }

        impl Code {
            pub const ALL: &'static [Code] = &[ $( Code::$variant, )* ];
            /// `L0001`, …
            pub fn as_str(self) -> &'static str {
                match self { $( Code::$variant => $code, )* }
            }
            /// A short title, as in `docs/diagnostics.md`.
            pub fn title(self) -> &'static str {
                match self { $( Code::$variant => $title, )* }
            }
        }
    };
}

codes! {
    // Syntax (the parser recovers and goes on).
    OutsideBlock = "L0001", "text outside a puzzle block";
    BadPuzzleHeader = "L0002", "malformed puzzle header";
    UnknownBlock = "L0003", "unknown block keyword";
    UnclosedBlock = "L0004", "puzzle block not closed";
    UnknownStatement = "L0005", "unknown statement";
    MalformedStatement = "L0006", "malformed statement";
    BadRow = "L0007", "malformed grid row";
    UnclosedGrid = "L0008", "grid not closed";
    EmptyFile = "L0009", "no puzzle in the file";
    // Meaning (each puzzle is checked on its own).
    MissingSize = "L0101", "missing `size`";
    RepeatedStatement = "L0102", "statement repeated";
    RowCount = "L0103", "wrong number of grid rows";
    RowWidth = "L0104", "wrong number of cells in a grid row";
    ValueTooLarge = "L0105", "value not below `states`";
    BadCell = "L0106", "cell not allowed in this grid";
    EvenStencil = "L0107", "stencil not odd-by-odd";
    ZeroStencil = "L0108", "stencil changes nothing";
    UnknownRule = "L0109", "unknown rule";
    UnknownTopology = "L0110", "unknown topology";
    CoordinateOutOfRange = "L0111", "coordinate outside the board";
    RepeatedCoordinate = "L0112", "coordinate listed twice";
    DuplicateName = "L0113", "duplicate puzzle name";
    StatesOutOfRange = "L0114", "`states` out of range";
    BoardTooLarge = "L0115", "board too large";
    ZeroSize = "L0116", "board dimension zero";
    NumberTooLarge = "L0117", "number too large";
    RaggedStencil = "L0118", "stencil rows of unequal width";
    EmptyName = "L0119", "empty puzzle name";
    ValueInMask = "L0120", "value given in a mask";
    WrongBlockKind = "L0121", "statement belongs to the other kind of block";
    SlidingTooSmall = "L0122", "sliding board smaller than 2×2";
    MissingTiles = "L0123", "missing `tiles`";
    TileOutOfRange = "L0124", "tile number out of range";
    RepeatedTile = "L0125", "tile written twice";
    MissingTile = "L0126", "tile missing";
    BlankCount = "L0127", "not exactly one blank";
    BadMove = "L0128", "not a move";
    HoleValue = "L0129", "value given on a hole";
    GraphMismatch = "L0130", "board statement in a graph puzzle, or node in a board";
    UnknownShape = "L0131", "unknown grid or graph";
    UnsupportedOnShape = "L0132", "rule or topology not defined on this shape";
    BadGraph = "L0133", "malformed graph";
    NoCells = "L0134", "every cell is a hole";
    // Solving (the puzzle is well formed; the answer is wrong for it).
    Unsolvable = "L0201", "puzzle cannot be solved";
    ExpectationFailed = "L0202", "`expect` does not hold";
    WrongSolution = "L0203", "`solution` does not solve the puzzle";
    LockedPress = "L0204", "`solution` presses a locked cell";
    TooLargeToSolve = "L0205", "too large for the solver";
    MinimumNotProven = "L0206", "minimum not proven";
    SolverFailure = "L0207", "internal solver error";
    // Packs: what a level is next to the others.
    DuplicateLevel = "L0208", "the same puzzle as another level";
    OutOfOrder = "L0209", "level easier than the one before it";
    // Editor only (the language server): answers it could not give in time.
    TimeBudgetExceeded = "L0301", "not solved within the editor's time budget";
    InternalError = "L0302", "internal error while analysing";
}

impl Serialize for Code {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl std::fmt::Display for Code {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}
