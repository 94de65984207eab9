//! The validated puzzle model: everything a `.lights` puzzle means, with
//! defaults filled in, and the spans needed to point back at the source.

use lights_syntax::Span;
use num_bigint::BigUint;

pub use crate::board::{Board, CellSpans, Presses};
pub use crate::graph::{Graph, GraphKind};
use crate::header::{BlockClaim, BlockHeader, Expect};
use crate::key::Unkeyed;

/// Boards are limited to this many cells (100,000 × 100,000). The model
/// keeps lights, goal and locks as written, so a board costs what its text
/// costs; the solver's paths set their own limits below this one.
pub const MAX_CELLS: u64 = 10_000_000_000;

/// The most cells a solving path that keeps values cell by cell takes on
/// (light chasing, the flip reduction, dense elimination): about 1 GB of
/// working memory at this size. The polynomial method (cross rule, W = 2, no
/// locks, plane, cylinder or torus) works on packed rows and goes up to
/// [`MAX_CELLS`].
pub const PER_CELL_LIMIT: usize = 100_000_000;
/// `states` bounds.
pub const MIN_STATES: u64 = 2;
pub const MAX_STATES: u64 = 65_536;

/// A validated `puzzle` block. Its `Hash` covers what the answer depends
/// on; the [`Unkeyed`] fields (the header: name, spans, claims, the written
/// solution) are left out (see [`BlockKey`](crate::BlockKey)).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Puzzle {
    /// Name, spans, `expect` claims and the written `solution`.
    pub header: Unkeyed<PuzzleHeader>,
    /// Square or hexagonal cells, or the nodes of a graph. A graph puzzle
    /// is one row of `cols` nodes (node k is cell k − 1).
    pub shape: Shape,
    pub rows: usize,
    pub cols: usize,
    /// The modulus W: a light has states 0…W−1.
    pub states: u32,
    pub rule: Rule,
    pub topology: Topology,
    /// Row-major cell values, each below `states`, in their written form.
    pub lights: Board,
    pub goal: Board,
    /// Row-major: not 0 where the button may not be pressed (locked cells
    /// and holes: a hole has no button).
    pub locked: Board,
    /// Row-major: not 0 where there is no cell (`holes`, and the numbers a
    /// written graph leaves out). A hole has no light and no button; its
    /// light and goal are 0 and presses skip it.
    pub holes: Board,
    /// Where each statement was written (for diagnostics and editors).
    pub spans: Unkeyed<StatementSpans>,
}

/// A `puzzle` block's header: its claims are [`Claim`]s, its solution a grid of presses.
pub type PuzzleHeader = BlockHeader<Claim, SolutionBlock>;

#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct StatementSpans {
    pub size: Option<Span>,
    pub states: Option<Span>,
    pub rule: Option<Span>,
    pub topology: Option<Span>,
    pub lights: Option<Span>,
    pub goal: Option<Span>,
    pub locked: Option<Span>,
    pub holes: Option<Span>,
    /// The `grid` or `graph` statement.
    pub shape: Option<Span>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SolutionBlock {
    pub span: Span,
    pub presses: Board,
}

/// The shape of a puzzle's cells.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Shape {
    /// `grid square` (the default): rows × columns of square cells.
    Square,
    /// `grid hex`: rows of hexagons, every second row (2, 4, …) shifted
    /// right by half a cell.
    Hex,
    /// `graph …`: the nodes of a graph.
    Graph(Graph),
}

impl Shape {
    pub fn graph(&self) -> Option<&Graph> {
        match self {
            Shape::Graph(g) => Some(g),
            _ => None,
        }
    }
    /// `square`, `hex` or `graph`.
    pub fn name(&self) -> &'static str {
        match self {
            Shape::Square => "square",
            Shape::Hex => "hex",
            Shape::Graph(_) => "graph",
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Rule {
    Cross,
    King,
    Flip,
    Merlin,
    /// The neighbours of the pressed cell, not the cell itself (the σ game).
    Ring,
    Stencil(Stencil),
}

/// A custom press pattern: odd-by-odd weights centred on the pressed cell.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Stencil {
    pub rows: usize,
    pub cols: usize,
    /// Row-major weights, each below `states`.
    pub weights: Vec<u32>,
}

impl Rule {
    pub const NAMES: &'static [&'static str] = &["cross", "king", "flip", "merlin", "ring"];

    pub fn from_name(name: &str) -> Option<Rule> {
        Some(match name {
            "cross" => Rule::Cross,
            "king" => Rule::King,
            "flip" => Rule::Flip,
            "merlin" => Rule::Merlin,
            "ring" => Rule::Ring,
            _ => return None,
        })
    }

    pub fn name(&self) -> &'static str {
        match self {
            Rule::Cross => "cross",
            Rule::King => "king",
            Rule::Flip => "flip",
            Rule::Merlin => "merlin",
            Rule::Ring => "ring",
            Rule::Stencil(_) => "custom stencil",
        }
    }

    /// Named rules have symmetric matrices (a press at i changes j iff one at j changes i),
    /// so certificates are themselves quiet patterns.
    pub fn is_named(&self) -> bool {
        !matches!(self, Rule::Stencil(_))
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Topology {
    Plane,
    Cylinder,
    Torus,
    Mobius,
    Klein,
    Projective,
}

/// How one pair of opposite borders is treated.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Gluing {
    Open,
    Glued,
    Twisted,
}

impl Topology {
    pub const NAMES: &'static [&'static str] =
        &["plane", "cylinder", "torus", "mobius", "klein", "projective", "cross-cap"];

    pub fn from_name(name: &str) -> Option<Topology> {
        Some(match name {
            "plane" => Topology::Plane,
            "cylinder" => Topology::Cylinder,
            "torus" => Topology::Torus,
            "mobius" => Topology::Mobius,
            "klein" => Topology::Klein,
            "projective" | "cross-cap" => Topology::Projective,
            _ => return None,
        })
    }

    pub fn name(self) -> &'static str {
        match self {
            Topology::Plane => "plane",
            Topology::Cylinder => "cylinder",
            Topology::Torus => "torus",
            Topology::Mobius => "mobius",
            Topology::Klein => "klein",
            Topology::Projective => "projective",
        }
    }

    /// The left/right borders (crossed when the column leaves the board).
    pub fn columns(self) -> Gluing {
        match self {
            Topology::Plane => Gluing::Open,
            Topology::Cylinder | Topology::Torus | Topology::Klein => Gluing::Glued,
            Topology::Mobius | Topology::Projective => Gluing::Twisted,
        }
    }

    /// The top/bottom borders (crossed when the row leaves the board).
    pub fn rows(self) -> Gluing {
        match self {
            Topology::Plane | Topology::Cylinder | Topology::Mobius => Gluing::Open,
            Topology::Torus => Gluing::Glued,
            Topology::Klein | Topology::Projective => Gluing::Twisted,
        }
    }
}

/// An `expect` statement of a `puzzle` block.
pub type Expectation = Expect<Claim>;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Claim {
    Solvable,
    Unsolvable,
    Unique,
    Solutions(BigUint),
    Presses(u64),
    /// `expect presses A..B`: the minimum is between A and B (both included).
    PressesBetween(u64, u64),
    /// `expect difficulty A..B` (`difficulty N` is `N..N`): see [`crate::difficulty`].
    Difficulty(u64, u64),
}

impl std::fmt::Display for Claim {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Claim::Solvable => write!(f, "expect solvable"),
            Claim::Unsolvable => write!(f, "expect unsolvable"),
            Claim::Unique => write!(f, "expect unique"),
            Claim::Solutions(n) => write!(f, "expect solutions {n}"),
            Claim::Presses(n) => write!(f, "expect presses {n}"),
            Claim::PressesBetween(a, b) => write!(f, "expect presses {a}..{b}"),
            Claim::Difficulty(a, b) if a == b => write!(f, "expect difficulty {a}"),
            Claim::Difficulty(a, b) => write!(f, "expect difficulty {a}..{b}"),
        }
    }
}

impl BlockClaim for Claim {
    /// `expect unsolvable` or `expect solutions 0`.
    fn denies_solution(&self) -> bool {
        match self {
            Claim::Unsolvable => true,
            Claim::Solutions(n) => num_traits::Zero::is_zero(n),
            _ => false,
        }
    }
}

impl Puzzle {
    /// A puzzle built in code (benchmarks, tests): every light and goal cell
    /// 0, nothing locked, no claims, no source spans.
    pub fn new(rows: usize, cols: usize, states: u32, rule: Rule, topology: Topology) -> Puzzle {
        let n = rows * cols;
        Puzzle {
            header: Unkeyed(PuzzleHeader::default()),
            shape: Shape::Square,
            rows,
            cols,
            states,
            rule,
            topology,
            lights: Board::zeros(n),
            goal: Board::zeros(n),
            locked: Board::zeros(n),
            holes: Board::zeros(n),
            spans: Unkeyed(StatementSpans::default()),
        }
    }

    /// A puzzle on a graph built in code: `Puzzle::new` on one row of nodes.
    pub fn on_graph(graph: Graph, states: u32, rule: Rule) -> Puzzle {
        let n = graph.nodes();
        Puzzle { shape: Shape::Graph(graph), ..Puzzle::new(1, n, states, rule, Topology::Plane) }
    }

    /// The puzzle with this name (a puzzle built in code has none).
    pub fn named(mut self, name: impl Into<String>) -> Puzzle {
        self.header.name = name.into();
        self
    }

    /// Cells (or nodes) the puzzle is laid out on, holes included.
    pub fn cells(&self) -> usize {
        self.rows * self.cols
    }
    /// Whether cell `i` is a hole (no light, no button).
    pub fn is_hole(&self, i: usize) -> bool {
        self.holes.get(i) != 0
    }
    /// Whether the board has holes.
    pub fn has_holes(&self) -> bool {
        self.holes.any_nonzero()
    }
    /// Whether every cell is alike: the same light, goal, lock and hole
    /// (each written as one value).
    pub fn cells_alike(&self) -> bool {
        [&self.lights, &self.goal, &self.locked, &self.holes].iter().all(|b| b.uniform_value().is_some())
    }
    /// Whether this is a graph puzzle.
    pub fn is_graph(&self) -> bool {
        matches!(self.shape, Shape::Graph(_))
    }
    /// The plain rectangle of square cells the fast paths know.
    pub fn is_plain_grid(&self) -> bool {
        self.shape == Shape::Square && !self.has_holes()
    }
    /// Whether the button of cell `i` may not be pressed.
    pub fn is_locked(&self, i: usize) -> bool {
        self.locked.get(i) != 0
    }
    /// Whether any button is locked.
    pub fn any_locked(&self) -> bool {
        self.locked.any_nonzero()
    }
    /// The buttons that may be pressed: the unknowns of the system.
    pub fn free_cells(&self) -> usize {
        self.cells() - self.locked.count_nonzero()
    }
    /// The change cell `i` needs: `goal − lights` mod W.
    pub fn need(&self, i: usize) -> u32 {
        (u32::from(self.goal.get(i)) + self.states - u32::from(self.lights.get(i))) % self.states
    }
    /// Row-major index of 0-based (row, column).
    pub fn index(&self, r: usize, c: usize) -> usize {
        r * self.cols + c
    }
    /// 1-based `row,column` of a cell (the node number on a graph), as the
    /// language writes it.
    pub fn coord(&self, index: usize) -> String {
        if self.is_graph() {
            format!("{}", index + 1)
        } else {
            format!("{},{}", index / self.cols + 1, index % self.cols + 1)
        }
    }
    /// `cell 2,3` or `node 7`.
    pub fn cell_label(&self, index: usize) -> String {
        if self.is_graph() {
            format!("node {}", index + 1)
        } else {
            format!("cell {}", self.coord(index))
        }
    }
}
