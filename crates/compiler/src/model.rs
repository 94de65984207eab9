//! The validated puzzle model: everything a `.lights` puzzle means, with
//! defaults filled in, and the spans needed to point back at the source.

use lights_syntax::Span;
use num_bigint::BigUint;

use crate::key::Unkeyed;

/// Boards are limited to this many cells (so a typo like `size 99999x99999`
/// is an error, not an out-of-memory crash).
pub const MAX_CELLS: u64 = 100_000_000;
/// `states` bounds.
pub const MIN_STATES: u64 = 2;
pub const MAX_STATES: u64 = 65_536;

/// A validated `puzzle` block. Its `Hash` covers what the answer depends
/// on; the [`Unkeyed`] fields (name, spans, claims, the written solution)
/// are left out (see [`BlockKey`](crate::BlockKey)).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Puzzle {
    pub name: Unkeyed<String>,
    /// The whole block and its header (keyword, name, brace).
    pub span: Unkeyed<Span>,
    pub head: Unkeyed<Span>,
    pub rows: usize,
    pub cols: usize,
    /// The modulus W: a light has states 0…W−1.
    pub states: u32,
    pub rule: Rule,
    pub topology: Topology,
    /// Row-major cell values, each below `states`.
    pub lights: Board,
    pub goal: Board,
    /// Row-major: true where the button may not be pressed.
    pub locked: Vec<bool>,
    pub expects: Unkeyed<Vec<Expectation>>,
    pub solution: Unkeyed<Option<SolutionBlock>>,
    /// Where each statement was written (for diagnostics and editors).
    pub spans: Unkeyed<StatementSpans>,
}

/// Cell values of one board-sized VALUE, with the source spans of its grid
/// cells when it was written as a grid (or of its entries when sparse).
#[derive(Clone, Debug, PartialEq, Eq, Default, Hash)]
pub struct Board {
    pub values: Vec<u16>,
    /// Row-major span per cell when the value was a grid; for a sparse list,
    /// the span of the entry that set the cell (other cells: the list).
    pub cell_spans: Unkeyed<Option<Vec<Span>>>,
}

#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct StatementSpans {
    pub size: Option<Span>,
    pub states: Option<Span>,
    pub rule: Option<Span>,
    pub topology: Option<Span>,
    pub lights: Option<Span>,
    pub goal: Option<Span>,
    pub locked: Option<Span>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SolutionBlock {
    pub span: Span,
    pub presses: Board,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Rule {
    Cross,
    King,
    Flip,
    Merlin,
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
    pub const NAMES: &'static [&'static str] = &["cross", "king", "flip", "merlin"];

    pub fn from_name(name: &str) -> Option<Rule> {
        Some(match name {
            "cross" => Rule::Cross,
            "king" => Rule::King,
            "flip" => Rule::Flip,
            "merlin" => Rule::Merlin,
            _ => return None,
        })
    }

    pub fn name(&self) -> &'static str {
        match self {
            Rule::Cross => "cross",
            Rule::King => "king",
            Rule::Flip => "flip",
            Rule::Merlin => "merlin",
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

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Expectation {
    pub span: Span,
    pub claim: Claim,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Claim {
    Solvable,
    Unsolvable,
    Unique,
    Solutions(BigUint),
    Presses(u64),
}

impl std::fmt::Display for Claim {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Claim::Solvable => write!(f, "expect solvable"),
            Claim::Unsolvable => write!(f, "expect unsolvable"),
            Claim::Unique => write!(f, "expect unique"),
            Claim::Solutions(n) => write!(f, "expect solutions {n}"),
            Claim::Presses(n) => write!(f, "expect presses {n}"),
        }
    }
}

impl Puzzle {
    /// A puzzle built in code (benchmarks, tests): every light and goal cell
    /// 0, nothing locked, no claims, no source spans.
    pub fn new(rows: usize, cols: usize, states: u32, rule: Rule, topology: Topology) -> Puzzle {
        let n = rows * cols;
        Puzzle {
            name: Unkeyed(String::new()),
            span: Unkeyed(Span::default()),
            head: Unkeyed(Span::default()),
            rows,
            cols,
            states,
            rule,
            topology,
            lights: Board { values: vec![0; n], cell_spans: Unkeyed(None) },
            goal: Board { values: vec![0; n], cell_spans: Unkeyed(None) },
            locked: vec![false; n],
            expects: Unkeyed(vec![]),
            solution: Unkeyed(None),
            spans: Unkeyed(StatementSpans::default()),
        }
    }

    pub fn cells(&self) -> usize {
        self.rows * self.cols
    }
    /// Row-major index of 0-based (row, column).
    pub fn index(&self, r: usize, c: usize) -> usize {
        r * self.cols + c
    }
    /// 1-based `row,column` of a cell, as the language writes it.
    pub fn coord(&self, index: usize) -> String {
        format!("{},{}", index / self.cols + 1, index % self.cols + 1)
    }
}
