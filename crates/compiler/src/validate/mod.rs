//! From a parsed puzzle block to a validated [`Puzzle`], reporting every way
//! the block can be wrong (as many as can be found at once, without cascades).

use std::collections::HashMap;

use lights_syntax::ast::{self, BlockKind, ClaimKind, RowForm, RuleSpec, StatementKind, Value};
use lights_syntax::format::stencil_width;
use lights_syntax::suggest::did_you_mean;
use lights_syntax::Span;
use num_bigint::BigUint;

use crate::diagnostic::{Code, Diagnostic};
use crate::graph::{NamedGraphError, NAMED_GRAPHS};
use crate::header::BlockHeader;
use crate::model::*;

mod expect;
mod holes;
mod rule;
mod shape;
mod size;
mod states;
mod topology;
mod values;

use holes::Values;

/// Validate one block. Returns the model only when there is no error.
pub(crate) fn validate(src: &str, block: &ast::BlockSyntax) -> (Option<Puzzle>, Vec<Diagnostic>) {
    debug_assert_eq!(block.kind, BlockKind::Lights, "sliding blocks are validated by `sliding_validate`");
    let mut v = Validator::new(src);
    let puzzle = v.puzzle(block);
    let has_error = v.diags.iter().any(Diagnostic::is_error);
    (if has_error { None } else { puzzle }, v.diags)
}

/// Shared with the sliding-block validator (`sliding_validate.rs`), which
/// adds its own `impl` block.
pub(crate) struct Validator<'s> {
    pub(crate) src: &'s str,
    pub(crate) diags: Vec<Diagnostic>,
}

/// The first occurrence of each statement of a block, and its `expect`s.
pub(crate) type FirstStatements<'a> =
    (HashMap<&'static str, &'a ast::Statement>, Vec<(&'a ast::Statement, &'a ast::Claim)>);

/// Which cells a grid or sparse list may hold.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// `lights`, `goal`, `solution`: `.` or numbers below W.
    Value,
    /// `locked`: `.` or `x`.
    Mask,
}

impl<'s> Validator<'s> {
    pub(crate) fn new(src: &'s str) -> Self {
        Validator { src, diags: Vec::new() }
    }

    pub(crate) fn push(&mut self, d: Diagnostic) {
        self.diags.push(d);
    }

    /// L0119 when the block's name is empty.
    pub(crate) fn check_name(&mut self, name: Option<&ast::Name>) {
        if let Some(n) = name {
            if n.value.trim().is_empty() {
                self.push(empty_name(n.span));
            }
        }
    }

    /// The first occurrence of each statement; repeats are errors (L0102),
    /// except `expect`, which may repeat.
    pub(crate) fn first_statements<'a>(&mut self, block: &'a ast::BlockSyntax) -> FirstStatements<'a> {
        let mut first: HashMap<&'static str, &ast::Statement> = HashMap::new();
        let mut expects = Vec::new();
        for stmt in &block.statements {
            let kw = stmt.kind.keyword();
            if let StatementKind::Expect(claim) = &stmt.kind {
                expects.push((stmt, claim));
                continue;
            }
            if let Some(prev) = first.get(kw) {
                self.push(repeated_statement(kw, stmt.keyword, prev.keyword));
            } else {
                first.insert(kw, stmt);
            }
        }
        (first, expects)
    }

    /// L0121 for what only a `sliding` block takes, written in a `puzzle` block.
    fn sliding_only(&mut self, block: &ast::BlockSyntax) {
        for stmt in &block.statements {
            let (span, what, label, note) = match &stmt.kind {
                StatementKind::Tiles(_) => (
                    stmt.keyword,
                    "`tiles`".to_string(),
                    "not a puzzle statement",
                    "for a sliding-tile puzzle, write `sliding \"NAME\" { … }` instead of `puzzle`",
                ),
                StatementKind::Expect(ast::Claim { span, kind: ClaimKind::Moves(_) }) => (
                    *span,
                    "`expect moves`".to_string(),
                    "not a puzzle claim",
                    "a puzzle counts presses: `expect presses N`",
                ),
                StatementKind::MoveSolution(m) => (
                    m.span,
                    "a `solution` of moves".to_string(),
                    "not a puzzle solution",
                    "a puzzle's solution says how often each cell is pressed: `solution { GRID }` or `solution at 1,1 2,3`",
                ),
                _ => continue,
            };
            self.push(wrong_block_kind(span, &what, label, note));
        }
    }

    /// The block's statements, one validator each (`size.rs`, `shape.rs`,
    /// `states.rs`, `topology.rs`, `rule.rs`, `values.rs`, `holes.rs`,
    /// `expect.rs`), put together into the model.
    fn puzzle(&mut self, block: &ast::BlockSyntax) -> Option<Puzzle> {
        let name = block.name.as_ref();
        self.check_name(name);
        self.sliding_only(block);

        // First occurrence of each statement; repeats are errors (except `expect`).
        let (first, expects) = self.first_statements(block);

        // The shape: a graph, or a board of square or hexagonal cells.
        let graph = first.get("graph").map(|stmt| self.graph(stmt));
        if let Some(graph_stmt) = first.get("graph") {
            self.board_statements_on_graph(graph_stmt, &first);
        }
        let (size, shape) = match &graph {
            Some(Some((g, _))) => (Some((1, g.nodes())), Some(Shape::Graph(g.clone()))),
            Some(None) => (None, None),
            None => self.board_shape(block, &first),
        };
        let states = match first.get("states") {
            Some(stmt) => self.states(stmt),
            None => Some(2),
        };
        let topology = match first.get("topology") {
            Some(stmt) if graph.is_none() => self.topology(stmt),
            _ => Some(Topology::Plane),
        };
        let rule = match (first.get("rule"), states) {
            (Some(stmt), Some(w)) => self.rule(stmt, w),
            (None, _) => Some(Rule::Cross),
            (Some(_), None) => None,
        };
        if let (Some(shape), Some(rule), Some(topology)) = (&shape, &rule, topology) {
            if !self.fits_shape(shape, rule, topology, size, &first) {
                return None;
            }
        }
        let spans = statement_spans(&first);
        let expects: Vec<Expectation> = expects.into_iter().filter_map(|(stmt, c)| self.claim(stmt, c)).collect();

        // Board-sized values need the size and the modulus.
        let (Some((rows, cols)), Some(w), Some(shape)) = (size, states, shape) else {
            return None;
        };
        let missing = match &graph {
            Some(Some((_, missing))) => Some(missing),
            _ => None,
        };
        let on_graph = matches!(shape, Shape::Graph(_));
        let values = self.values(block, &first, missing, (rows, cols, w), on_graph);
        let Values { lights, goal, locked, holes, solution } = values?;
        Some(Puzzle {
            header: BlockHeader {
                name: name.map(|n| n.value.clone()).unwrap_or_default(),
                span: block.span,
                head: block.head,
                expects,
                solution,
            }
            .into(),
            shape,
            rows,
            cols,
            states: w,
            rule: rule?,
            topology: topology?,
            lights,
            goal,
            locked,
            holes,
            spans: spans.into(),
        })
    }
}

/// L0119: `puzzle ""`.
fn empty_name(span: Span) -> Diagnostic {
    Diagnostic::error(Code::EmptyName, span, "the puzzle name is empty")
        .with_label("give the puzzle a name")
        .with_note("names identify puzzles in reports and with `lights solve --puzzle NAME`")
}

/// L0102: statement `kw` at `again`, first given at `first`.
fn repeated_statement(kw: &str, again: Span, first: Span) -> Diagnostic {
    Diagnostic::error(Code::RepeatedStatement, again, format!("`{kw}` is given twice"))
        .with_label("repeated here")
        .with_secondary(first, "first given here")
        .with_note("each statement may appear once per puzzle (only `expect` may repeat)")
}

/// Where each statement of the model was written.
fn statement_spans(first: &HashMap<&'static str, &ast::Statement>) -> StatementSpans {
    let mut spans = StatementSpans::default();
    for (kw, slot) in [
        ("size", &mut spans.size),
        ("states", &mut spans.states),
        ("rule", &mut spans.rule),
        ("topology", &mut spans.topology),
        ("lights", &mut spans.lights),
        ("goal", &mut spans.goal),
        ("locked", &mut spans.locked),
        ("holes", &mut spans.holes),
    ] {
        *slot = first.get(kw).map(|s| s.span);
    }
    spans.shape = first.get("graph").or(first.get("grid")).map(|s| s.span);
    spans
}

/// `1 cell`, `3 cells`.
pub(crate) fn plural(n: usize, word: &str) -> String {
    if n == 1 {
        format!("1 {word}")
    } else {
        format!("{n} {word}s")
    }
}

/// L0121: `what` (a statement, claim or solution only a `sliding` block
/// takes) written in a `puzzle` block.
fn wrong_block_kind(at: Span, what: &str, label: &str, note: &str) -> Diagnostic {
    let takes = "a puzzle block takes size, grid, graph, states, rule, topology, holes, lights, goal, locked, expect and solution";
    Diagnostic::error(Code::WrongBlockKind, at, format!("{what} belongs in a `sliding` block, not in a `puzzle` block"))
        .with_label(label)
        .with_note(note)
        .with_note(takes)
}
