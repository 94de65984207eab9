//! The abstract syntax tree of a `.lights` file. Every node carries the byte
//! span it was parsed from; cell texts are read back from the source through
//! spans, so large grids stay cheap.

/// A half-open byte range `start..end` in the source text.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Span {
    pub start: usize,
    pub end: usize,
}

impl Span {
    pub fn new(start: usize, end: usize) -> Self {
        Span { start, end }
    }
    /// The smallest span covering both.
    pub fn join(self, other: Span) -> Span {
        Span::new(self.start.min(other.start), self.end.max(other.end))
    }
    pub fn text(self, src: &str) -> &str {
        src.get(self.start..self.end).unwrap_or("")
    }
    pub fn len(self) -> usize {
        self.end - self.start
    }
    pub fn is_empty(self) -> bool {
        self.start == self.end
    }
    pub fn contains(self, offset: usize) -> bool {
        self.start <= offset && offset < self.end
    }
}

/// A parsed file: its puzzle blocks, its comments (for the formatter) and
/// the syntax errors that recovery stepped over.
#[derive(Clone, Debug, Default)]
pub struct SourceFile {
    pub blocks: Vec<BlockSyntax>,
    /// `order by presses|difficulty` (the first one written; a second is an error).
    pub order: Option<OrderSyntax>,
    pub comments: Vec<Span>,
    pub errors: Vec<crate::SyntaxError>,
}

/// `order by KEY`: the levels of the file should get harder by KEY.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OrderSyntax {
    pub span: Span,
    pub key: OrderKey,
    pub key_span: Span,
}

/// What a pack's levels are ordered by.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum OrderKey {
    Presses,
    Difficulty,
}

impl OrderKey {
    pub const NAMES: [&'static str; 2] = ["presses", "difficulty"];

    pub fn from_name(name: &str) -> Option<OrderKey> {
        match name {
            "presses" => Some(OrderKey::Presses),
            "difficulty" => Some(OrderKey::Difficulty),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            OrderKey::Presses => "presses",
            OrderKey::Difficulty => "difficulty",
        }
    }
}

/// Which kind of block: `puzzle` (Lights Out) or `sliding` (sliding tiles).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum BlockKind {
    /// `puzzle "NAME" { … }`: a Lights Out puzzle.
    #[default]
    Lights,
    /// `sliding "NAME" { … }`: a sliding-tile puzzle (the 15 puzzle).
    Sliding,
}

impl BlockKind {
    /// Every kind, in the order the language documents them.
    pub const ALL: [BlockKind; 2] = [BlockKind::Lights, BlockKind::Sliding];

    /// `lights` or `sliding`: one value per kind, chosen by the kind. A table
    /// kept per kind elsewhere (the editor's word lists) is picked with
    /// this, so that adding a kind adds an argument and the compiler finds
    /// every table to extend.
    pub fn either<T>(self, lights: T, sliding: T) -> T {
        match self {
            BlockKind::Lights => lights,
            BlockKind::Sliding => sliding,
        }
    }

    /// Whether this is a Lights Out `puzzle` block: the gate of the front
    /// ends that take Lights Out puzzles only (`lights compile`, `lights
    /// picture`, `--solution-out`, play-testing).
    pub fn is_lights(self) -> bool {
        self == BlockKind::Lights
    }

    /// The block's keyword, as written in the language.
    pub fn keyword(self) -> &'static str {
        self.either("puzzle", "sliding")
    }

    /// The statement keywords this kind of block takes, in canonical order.
    pub fn statement_keywords(self) -> &'static [&'static str] {
        self.either(crate::STATEMENT_KEYWORDS, crate::SLIDING_STATEMENT_KEYWORDS)
    }

    /// The claims `expect` takes in this kind of block.
    pub fn claim_keywords(self) -> &'static [&'static str] {
        self.either(crate::CLAIM_KEYWORDS, crate::SLIDING_CLAIM_KEYWORDS)
    }
}

/// `puzzle "NAME" { … }` or `sliding "NAME" { … }` (see [`BlockSyntax::kind`]).
///
/// Both kinds parse the same statements; the compiler reports the ones that
/// do not belong to the block's kind.
#[derive(Clone, Debug)]
pub struct BlockSyntax {
    /// `puzzle` or `sliding`. A block opened by a misspelt keyword has the
    /// kind the keyword is closest to (`slidnig` → sliding), else `Lights`.
    pub kind: BlockKind,
    /// The whole block, from the keyword to the closing brace (or the last statement).
    pub span: Span,
    /// The header: keyword, name and opening brace.
    pub head: Span,
    /// `None` when the header is malformed (already reported).
    pub name: Option<Name>,
    pub statements: Vec<Statement>,
    /// The closing brace; `None` when it is missing (already reported).
    pub close: Option<Span>,
    /// Keywords of statements that were malformed (already reported), so
    /// the compiler does not also call them missing.
    pub malformed: Vec<&'static str>,
}

/// A quoted puzzle name, unescaped.
#[derive(Clone, Debug)]
pub struct Name {
    pub value: String,
    /// Includes the quotes.
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct Statement {
    pub span: Span,
    pub keyword: Span,
    pub kind: StatementKind,
}

#[derive(Clone, Debug)]
pub enum StatementKind {
    Size {
        rows: Number,
        cols: Number,
    },
    States(Number),
    Rule(RuleSpec),
    Topology(Ident),
    Lights(Value),
    Goal(Value),
    Locked(Value),
    Expect(Claim),
    Solution(Value),
    /// `tiles { … }`: the start of a sliding-tile puzzle.
    Tiles(Grid),
    /// `solution "LLUR"`: a sliding-tile solution, the moves of the blank.
    MoveSolution(MoveString),
    /// `holes { MASK }` or `holes at …`: cells that do not exist.
    Holes(Value),
    /// `grid square` or `grid hex`: the shape of the cells.
    Grid(Ident),
    /// `graph NAME [N]` or `graph { 1-2 … }`: Lights Out on a graph.
    Graph(GraphSpec),
}

/// What follows `graph`.
#[derive(Clone, Debug)]
pub enum GraphSpec {
    /// `graph petersen`, `graph cycle 7`.
    Named { name: Ident, size: Option<Number> },
    /// `graph { 1-2 2-3 4 }`.
    Edges(GraphEdges),
}

/// `{ 1-2 2-3 4 }`: edges and lone nodes, in the order written.
#[derive(Clone, Debug)]
pub struct GraphEdges {
    pub span: Span,
    pub items: Vec<GraphItem>,
}

/// One edge `a-b`, or a lone node `a` (no `b`). Kept as offsets into the
/// item's span, 24 bytes, and its numbers read from the source on demand:
/// a file of millions of edges held two `Number`s (with their strings) per
/// edge, about ten times the text (issue 25).
#[derive(Clone, Debug)]
pub struct GraphItem {
    pub span: Span,
    /// Where `a` ends, from `span.start`.
    a_len: u32,
    /// Where `b` starts, from `span.start`; 0 for a lone node.
    b_from: u32,
}

impl GraphItem {
    /// The item at `span`: `a` starts it, `b` (when there) ends it.
    pub fn new(span: Span, a: Span, b: Option<Span>) -> GraphItem {
        let rel = |at: usize| u32::try_from(at.saturating_sub(span.start)).unwrap_or(u32::MAX);
        GraphItem { span, a_len: rel(a.end), b_from: b.map_or(0, |b| rel(b.start)) }
    }

    pub fn a_span(&self) -> Span {
        Span::new(self.span.start, self.span.start + self.a_len as usize)
    }

    pub fn b_span(&self) -> Option<Span> {
        (self.b_from != 0).then(|| Span::new(self.span.start + self.b_from as usize, self.span.end))
    }

    /// The first node, read from `src` (the text this item was parsed from).
    pub fn a(&self, src: &str) -> Number {
        Number::at(src, self.a_span())
    }

    /// The second node of an edge.
    pub fn b(&self, src: &str) -> Option<Number> {
        self.b_span().map(|s| Number::at(src, s))
    }
}

impl StatementKind {
    /// The grid the statement is written with: a board value (`lights`,
    /// `goal`, `locked`, `solution`) or a stencil (`rule { … }`).
    pub fn grid(&self) -> Option<&Grid> {
        match self {
            StatementKind::Lights(Value::Grid(g))
            | StatementKind::Holes(Value::Grid(g))
            | StatementKind::Goal(Value::Grid(g))
            | StatementKind::Locked(Value::Grid(g))
            | StatementKind::Solution(Value::Grid(g))
            | StatementKind::Rule(RuleSpec::Stencil(g))
            | StatementKind::Tiles(g) => Some(g),
            _ => None,
        }
    }

    /// The statement's keyword, as written in the language (`solution` for
    /// both forms of solution).
    pub fn keyword(&self) -> &'static str {
        match self {
            StatementKind::Size { .. } => "size",
            StatementKind::States(_) => "states",
            StatementKind::Rule(_) => "rule",
            StatementKind::Topology(_) => "topology",
            StatementKind::Lights(_) => "lights",
            StatementKind::Goal(_) => "goal",
            StatementKind::Locked(_) => "locked",
            StatementKind::Expect(_) => "expect",
            StatementKind::Solution(_) | StatementKind::MoveSolution(_) => "solution",
            StatementKind::Tiles(_) => "tiles",
            StatementKind::Holes(_) => "holes",
            StatementKind::Grid(_) => "grid",
            StatementKind::Graph(_) => "graph",
        }
    }
}

/// A decimal number as written; its value is checked by the compiler (it may overflow).
#[derive(Clone, Debug)]
pub struct Number {
    pub span: Span,
    pub text: String,
}

impl Number {
    /// The number written at `span` of `src` (empty text when `span` is not in `src`).
    pub fn at(src: &str, span: Span) -> Number {
        Number { span, text: src.get(span.start..span.end).unwrap_or("").to_string() }
    }

    pub fn value(&self) -> Option<u64> {
        self.text.parse().ok()
    }
}

/// A lower-case name (`torus`, `cross-cap`).
#[derive(Clone, Debug)]
pub struct Ident {
    pub span: Span,
    pub text: String,
}

#[derive(Clone, Debug)]
pub enum RuleSpec {
    Named(Ident),
    Stencil(Grid),
}

#[derive(Clone, Debug)]
pub struct Claim {
    pub span: Span,
    pub kind: ClaimKind,
}

#[derive(Clone, Debug)]
pub enum ClaimKind {
    Solvable,
    Unsolvable,
    Unique,
    Solutions(Number),
    Presses(Number),
    /// `expect presses A..B`: the minimum is between A and B.
    PressesBetween(Number, Number),
    /// `expect difficulty A..B` (or `difficulty N`).
    Difficulty(Number, Option<Number>),
    /// `expect moves N` (sliding blocks).
    Moves(Number),
}

/// A quoted string of moves, `"LLUR"`, as written (escapes are not
/// interpreted: a backslash is simply not a move).
#[derive(Clone, Debug)]
pub struct MoveString {
    /// Includes the quotes.
    pub span: Span,
    /// Between the quotes.
    pub inner: Span,
}

/// A VALUE (`on`, `off`, a grid, a sparse list) or a MASK (a grid or a sparse list).
#[derive(Clone, Debug)]
pub enum Value {
    On(Span),
    Off(Span),
    Grid(Grid),
    Sparse(Sparse),
}

impl Value {
    pub fn span(&self) -> Span {
        match self {
            Value::On(s) | Value::Off(s) => *s,
            Value::Grid(g) => g.span,
            Value::Sparse(s) => s.span,
        }
    }
}

/// `{ … }` with one row per line.
#[derive(Clone, Debug)]
pub struct Grid {
    pub span: Span,
    pub rows: Vec<Row>,
    /// The closing brace; `None` when it is missing (already reported).
    pub close: Option<Span>,
}

#[derive(Clone, Debug)]
pub struct Row {
    pub span: Span,
    pub form: RowForm,
    /// Spaced rows: one span per cell. Compact rows: the one token. Bad rows: the text.
    pub tokens: Vec<Span>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RowForm {
    /// Cells separated by whitespace: `. 1 . 12`.
    Spaced,
    /// One token, one character per cell: `.1.2`.
    Compact,
    /// Neither (already reported); kept so row counts stay right.
    Bad,
}

impl Row {
    /// The row's cells on a board `width` columns wide. A compact token is
    /// one cell per character, except on a board one column wide, where the
    /// whole token is that cell (so `12` is the number twelve there).
    pub fn cells(&self, width: usize) -> Vec<Span> {
        match self.form {
            RowForm::Spaced => self.tokens.clone(),
            RowForm::Compact => {
                let token = self.tokens[0];
                if width == 1 {
                    vec![token]
                } else {
                    (token.start..token.end).map(|i| Span::new(i, i + 1)).collect()
                }
            }
            RowForm::Bad => Vec::new(),
        }
    }
}

/// `at 2,3 4,5:2` on a board, `at 3 7:2` on a graph.
#[derive(Clone, Debug)]
pub struct Sparse {
    pub span: Span,
    pub entries: Vec<Entry>,
}

#[derive(Clone, Debug)]
pub struct Entry {
    pub span: Span,
    /// The row, or the node on a graph.
    pub row: Number,
    /// The column; `None` in a node entry (`at 3`).
    pub col: Option<Number>,
    pub value: Option<Number>,
}
