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
                self.push(
                    Diagnostic::error(Code::EmptyName, n.span, "the puzzle name is empty")
                        .with_label("give the puzzle a name")
                        .with_note("names identify puzzles in reports and with `lights solve --puzzle NAME`"),
                );
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
                self.push(
                    Diagnostic::error(Code::RepeatedStatement, stmt.keyword, format!("`{kw}` is given twice"))
                        .with_label("repeated here")
                        .with_secondary(prev.keyword, "first given here")
                        .with_note("each statement may appear once per puzzle (only `expect` may repeat)"),
                );
            } else {
                first.insert(kw, stmt);
            }
        }
        (first, expects)
    }

    /// L0121 for what only a `sliding` block takes, written in a `puzzle` block.
    fn sliding_only(&mut self, block: &ast::BlockSyntax) {
        let takes = "a puzzle block takes size, grid, graph, states, rule, topology, holes, lights, goal, locked, expect and solution";
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
            self.push(
                Diagnostic::error(
                    Code::WrongBlockKind,
                    span,
                    format!("{what} belongs in a `sliding` block, not in a `puzzle` block"),
                )
                .with_label(label)
                .with_note(note)
                .with_note(takes),
            );
        }
    }

    fn puzzle(&mut self, block: &ast::BlockSyntax) -> Option<Puzzle> {
        let name = block.name.as_ref();
        self.check_name(name);
        self.sliding_only(block);

        // First occurrence of each statement; repeats are errors (except `expect`).
        let (first, expects) = self.first_statements(block);

        // The shape: a graph, or a board of square or hexagonal cells.
        let graph = first.get("graph").map(|stmt| self.graph(stmt));
        if let Some(graph_stmt) = first.get("graph") {
            for kw in ["size", "topology", "grid"] {
                if let Some(stmt) = first.get(kw) {
                    self.push(
                        Diagnostic::error(
                            Code::GraphMismatch,
                            stmt.span,
                            format!("`{kw}` has no meaning in a graph puzzle"),
                        )
                        .with_label("remove this line")
                        .with_secondary(graph_stmt.keyword, "the puzzle is played on this graph")
                        .with_note(
                            "a graph puzzle's cells are the graph's nodes; its neighbours are the graph's edges",
                        ),
                    );
                }
            }
        }
        let (size, shape) = match &graph {
            Some(Some((g, _))) => (Some((1, g.nodes())), Some(Shape::Graph(g.clone()))),
            Some(None) => (None, None),
            None => {
                let size = match first.get("size") {
                    Some(stmt) => self.size(stmt),
                    None if block.malformed.contains(&"size") || block.malformed.contains(&"graph") => None,
                    None => {
                        self.push(
                            Diagnostic::error(Code::MissingSize, block.head, "this puzzle has no `size`")
                                .with_label("needs a `size`")
                                .with_note(
                                    "add a line such as `size 5x5` (rows x columns), or `graph NAME` for a graph",
                                ),
                        );
                        None
                    }
                };
                let shape = match first.get("grid") {
                    Some(stmt) => self.grid_shape(stmt),
                    None => Some(Shape::Square),
                };
                (size, shape)
            }
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

        let expects: Vec<Expectation> = expects.into_iter().filter_map(|(stmt, c)| self.claim(stmt, c)).collect();

        // Board-sized values need the size and the modulus.
        let (Some((rows, cols)), Some(w), Some(shape)) = (size, states, shape) else {
            return None;
        };
        let on_graph = matches!(shape, Shape::Graph(_));
        let value_of = |v: &mut Self, kw: &str, kind: Kind| -> Option<Board> {
            match first.get(kw).map(|s| &s.kind) {
                Some(
                    StatementKind::Lights(val)
                    | StatementKind::Goal(val)
                    | StatementKind::Locked(val)
                    | StatementKind::Holes(val)
                    | StatementKind::Solution(val),
                ) => v.board(val, rows, cols, w, kind, on_graph),
                _ => Some(Board::zeros(rows * cols)),
            }
        };
        let mut holes = value_of(self, "holes", Kind::Mask);
        // The numbers a written graph leaves out are not nodes.
        if let (Some(h), Some(Some((_, missing)))) = (&holes, &graph) {
            holes = Some(h.union_mask(missing));
        }
        let holes = holes?;
        // Nothing left to play: refused like a graph with no nodes.
        if rows * cols > 0 && holes.any_nonzero() && holes.count_nonzero() == rows * cols {
            let at = first.get("holes").map_or(block.head, |s| s.span);
            let what = if on_graph { "every node is a hole" } else { "every cell is a hole" };
            self.push(
                Diagnostic::error(Code::NoCells, at, format!("{what}: the puzzle has no lights"))
                    .with_label("nothing left")
                    .with_note("a hole has no light and no button; leave at least one cell (or node) out of `holes`"),
            );
            return None;
        }
        if holes.any_nonzero() && rows * cols > PER_CELL_LIMIT {
            let at = first.get("holes").map_or(block.head, |s| s.span);
            self.push(
                Diagnostic::error(
                    Code::BoardTooLarge,
                    at,
                    format!("a board with holes is limited to {PER_CELL_LIMIT} cells; this one has {}", rows * cols),
                )
                .with_label("too many cells for a board with holes"),
            );
            return None;
        }
        let lights = value_of(self, "lights", Kind::Value)
            .and_then(|b| self.off_holes(b, &holes, &first, "lights", (rows, on_graph)));
        let goal = value_of(self, "goal", Kind::Value)
            .and_then(|b| self.off_holes(b, &holes, &first, "goal", (rows, on_graph)));
        let locked = value_of(self, "locked", Kind::Mask).map(|l| l.union_mask(&holes));
        let solution = match first.get("solution") {
            Some(stmt) => value_of(self, "solution", Kind::Value)
                .and_then(|b| self.off_holes(b, &holes, &first, "solution", (rows, on_graph)))
                .map(|presses| Some(SolutionBlock { span: stmt.span, presses })),
            None => Some(None),
        };

        Some(Puzzle {
            header: BlockHeader {
                name: name.map(|n| n.value.clone()).unwrap_or_default(),
                span: block.span,
                head: block.head,
                expects,
                solution: solution?,
            }
            .into(),
            shape,
            rows,
            cols,
            states: w,
            rule: rule?,
            topology: topology?,
            lights: lights?,
            goal: goal?,
            locked: locked?,
            holes,
            spans: spans.into(),
        })
    }

    /// `grid square` or `grid hex`; L0131 otherwise.
    fn grid_shape(&mut self, stmt: &ast::Statement) -> Option<Shape> {
        let StatementKind::Grid(id) = &stmt.kind else { return None };
        match id.text.as_str() {
            "square" => Some(Shape::Square),
            "hex" => Some(Shape::Hex),
            other => {
                let mut d = Diagnostic::error(Code::UnknownShape, id.span, format!("unknown grid `{other}`"))
                    .with_label("not a grid");
                if let Some(s) = did_you_mean(other, &["square", "hex"]) {
                    d = d.with_note(format!("did you mean `{s}`?"));
                }
                self.push(
                    d.with_note("grids are `square` (the default) and `hex`; for other shapes use `holes` or `graph`"),
                );
                None
            }
        }
    }

    /// The graph of a `graph` statement, and the numbers an edge list
    /// leaves out (as holes). `None` after an error.
    fn graph(&mut self, stmt: &ast::Statement) -> Option<(Graph, Board)> {
        let StatementKind::Graph(spec) = &stmt.kind else { return None };
        match spec {
            ast::GraphSpec::Named { name, size } => {
                let n = match size {
                    Some(n) => Some(self.number(n, "graph size")?),
                    None => None,
                };
                let where_ = size.as_ref().map_or(name.span, |n| name.span.join(n.span));
                match crate::graph::named(&name.text, n) {
                    Ok(g) => {
                        let len = g.nodes();
                        Some((g, Board::zeros(len)))
                    }
                    Err(NamedGraphError::Unknown) => {
                        let names: Vec<&str> = NAMED_GRAPHS.iter().map(|(n, _)| *n).collect();
                        let mut d =
                            Diagnostic::error(Code::UnknownShape, name.span, format!("unknown graph `{}`", name.text))
                                .with_label("not a named graph");
                        if let Some(s) = did_you_mean(&name.text, &names) {
                            d = d.with_note(format!("did you mean `{s}`?"));
                        }
                        self.push(d.with_note(
                            "named graphs are: tetrahedron, cube, octahedron, dodecahedron, icosahedron, petersen, \
                             cycle N, path N, complete N, cube-surface N; or write the edges: `graph { 1-2 2-3 }`",
                        ));
                        None
                    }
                    Err(NamedGraphError::NeedsSize) => {
                        self.push(
                            Diagnostic::error(Code::BadGraph, name.span, format!("`{}` needs a size", name.text))
                                .with_label("how many?")
                                .with_note(format!("write e.g. `graph {} 5`", name.text)),
                        );
                        None
                    }
                    Err(NamedGraphError::TakesNoSize) => {
                        self.push(
                            Diagnostic::error(Code::BadGraph, where_, format!("`{}` takes no size", name.text))
                                .with_label("remove the number")
                                .with_note(if name.text == "cube" {
                                    "the cube's surface of N×N faces is `graph cube-surface N` (`cube-surface 3` is the Lights Out Cube)"
                                } else {
                                    "only cycle, path, complete and cube-surface take a size"
                                }),
                        );
                        None
                    }
                    Err(NamedGraphError::SizeOutOfRange(range)) => {
                        self.push(
                            Diagnostic::error(
                                Code::BadGraph,
                                where_,
                                format!("`{}` is out of range", where_.text(self.src)),
                            )
                            .with_label("out of range")
                            .with_note(range),
                        );
                        None
                    }
                }
            }
            ast::GraphSpec::Edges(list) => self.edge_list(list),
        }
    }

    fn edge_list(&mut self, list: &ast::GraphEdges) -> Option<(Graph, Board)> {
        let before = self.diags.len();
        // Each edge with the item that wrote it; repeats are found by a sort
        // afterwards (a hash map of every edge cost more than the rest of
        // validation on files of millions of edges, issue 25).
        let mut written: Vec<((u32, u32), u32)> = Vec::with_capacity(list.items.len());
        let mut nodes = 0usize;
        let mut used: Vec<u32> = Vec::new();
        for (k, item) in list.items.iter().enumerate() {
            let Ok(k) = u32::try_from(k) else { break };
            let mut ends = Vec::with_capacity(2);
            for n in std::iter::once(item.a(self.src)).chain(item.b(self.src)) {
                let n = &n;
                let Some(v) = self.number(n, "node number") else { continue };
                if v == 0 || v > crate::graph::MAX_NODES as u64 {
                    self.push(
                        Diagnostic::error(Code::BadGraph, n.span, format!("node {} is out of range", n.text))
                            .with_label(format!("nodes are 1…{}", crate::graph::MAX_NODES))
                            .with_note("nodes are numbered from 1"),
                    );
                    continue;
                }
                ends.push((v - 1) as u32);
            }
            used.extend(&ends);
            nodes = nodes.max(ends.iter().map(|&e| e as usize + 1).max().unwrap_or(0));
            let [a, b] = ends[..] else { continue };
            if a == b {
                self.push(
                    Diagnostic::error(Code::BadGraph, item.span, format!("an edge from node {} to itself", a + 1))
                        .with_label("a loop")
                        .with_note("a press already changes its own node (`rule cross`); loops are not edges here"),
                );
                continue;
            }
            written.push(((a.min(b), a.max(b)), k));
        }
        // Sorted by edge, then by item: each repeat comes after the first
        // writing of its edge (the diagnostics are sorted by span later).
        let mut by_edge = written.clone();
        by_edge.sort_unstable();
        let mut first = None;
        for &(key, item) in &by_edge {
            match first {
                Some((k, at)) if k == key => {
                    let again: &ast::GraphItem = &list.items[item as usize];
                    let at: &ast::GraphItem = &list.items[at as usize];
                    self.push(
                        Diagnostic::error(
                            Code::BadGraph,
                            again.span,
                            format!("edge {}-{} is written twice", key.0 + 1, key.1 + 1),
                        )
                        .with_label("written again")
                        .with_secondary(at.span, "first written here")
                        .with_note("edges carry no weight: write each one once"),
                    );
                }
                _ => first = Some((key, item)),
            }
        }
        drop(by_edge);
        // With a repeat there is an error and no graph: no need to drop it.
        let edges: Vec<(u32, u32)> = written.into_iter().map(|(key, _)| key).collect();
        if self.diags[before..].iter().any(Diagnostic::is_error) {
            return None;
        }
        if nodes == 0 {
            self.push(
                Diagnostic::error(Code::BadGraph, list.span, "this graph has no nodes")
                    .with_label("empty")
                    .with_note("write edges `a-b` between numbered nodes, e.g. `graph { 1-2 2-3 3-1 }`"),
            );
            return None;
        }
        if edges.len() > crate::graph::MAX_EDGES {
            self.push(
                Diagnostic::error(Code::BadGraph, list.span, format!("this graph has {} edges", edges.len()))
                    .with_label(format!("at most {} edges", crate::graph::MAX_EDGES)),
            );
            return None;
        }
        let mut present = vec![false; nodes];
        for &u in &used {
            present[u as usize] = true;
        }
        let missing: Vec<(usize, u16)> = (0..nodes).filter(|&i| !present[i]).map(|i| (i, 1)).collect();
        Some((Graph::from_edges(GraphKind::Custom, nodes, &edges), Board::sparse(nodes, missing)))
    }

    /// L0132 when the rule or the topology is not defined on the shape.
    /// Returns whether they fit.
    fn fits_shape(
        &mut self,
        shape: &Shape,
        rule: &Rule,
        topology: Topology,
        size: Option<(usize, usize)>,
        first: &HashMap<&'static str, &ast::Statement>,
    ) -> bool {
        let rule_span = first.get("rule").map(|s| s.span);
        let what = match shape {
            Shape::Square => return true,
            Shape::Hex => "a hex grid",
            Shape::Graph(_) => "a graph",
        };
        let mut ok = true;
        if !matches!(rule, Rule::Cross | Rule::Ring) {
            ok = false;
            let (label, note) = match rule {
                Rule::Stencil(_) => {
                    ("stencils are for square grids", "custom stencils on hex grids and graphs are not supported yet")
                }
                _ => ("not defined here", "square-grid rules (king, flip, merlin) have no meaning here"),
            };
            self.push(
                Diagnostic::error(
                    Code::UnsupportedOnShape,
                    rule_span.unwrap_or_default(),
                    format!("`rule {}` is not defined on {what}", rule.name()),
                )
                .with_label(label)
                .with_note(note)
                .with_note(format!(
                    "on {what}, `rule cross` changes the pressed cell and its neighbours, `rule ring` only its neighbours"
                )),
            );
        }
        if *shape == Shape::Hex {
            let rows = size.map_or(0, |s| s.0);
            let fits = match topology {
                Topology::Plane | Topology::Cylinder => true,
                Topology::Torus => rows.is_multiple_of(2),
                _ => false,
            };
            if !fits {
                ok = false;
                let at = first.get("topology").map(|s| s.span).unwrap_or_default();
                let mut d = Diagnostic::error(
                    Code::UnsupportedOnShape,
                    at,
                    format!(
                        "`topology {}` is not defined on a hex grid{}",
                        topology.name(),
                        if topology == Topology::Torus { " with an odd number of rows" } else { "" }
                    ),
                )
                .with_label("not defined here");
                d = if topology == Topology::Torus {
                    d.with_note("glued top to bottom, the shifted rows must alternate all the way round: give the board an even number of rows")
                } else {
                    d.with_note("a hex grid takes `topology plane`, `cylinder` (left and right edges glued) or `torus` (with an even number of rows)")
                };
                self.push(d);
            }
        }
        ok
    }

    /// A value on a hole: `on`/`off` cover only the cells that exist, so
    /// their holes are set to 0; a grid or list that puts a value on a hole
    /// is an error (L0129).
    fn off_holes(
        &mut self,
        value: Board,
        holes: &Board,
        first: &HashMap<&'static str, &ast::Statement>,
        kw: &str,
        (rows, on_graph): (usize, bool),
    ) -> Option<Board> {
        if !holes.any_nonzero() {
            return Some(value);
        }
        let hole_cells: Vec<usize> =
            if holes.base() != 0 { (0..holes.len()).collect() } else { holes.exceptions().map(|(i, _)| i).collect() };
        let written = matches!(
            first.get(kw).map(|s| &s.kind),
            Some(StatementKind::Lights(Value::Grid(_) | Value::Sparse(_)))
                | Some(StatementKind::Goal(Value::Grid(_) | Value::Sparse(_)))
                | Some(StatementKind::Solution(Value::Grid(_) | Value::Sparse(_)))
        );
        if !written {
            if value.base() == 0 {
                return Some(value);
            }
            let mut values = value.to_vec();
            for &i in &hole_cells {
                values[i] = 0;
            }
            return Some(Board::dense(values));
        }
        let mut ok = true;
        let is_hole = |i: usize| holes.get(i) != 0;
        let cols = holes.len() / rows.max(1);
        for &i in &hole_cells {
            if value.get(i) == 0 {
                continue;
            }
            ok = false;
            let span = value.cell_spans.as_ref().and_then(|s| s.get(i)).unwrap_or_default();
            let what =
                if on_graph { format!("node {}", i + 1) } else { format!("cell {},{}", i / cols + 1, i % cols + 1) };
            let mut d = Diagnostic::error(
                Code::HoleValue,
                span,
                format!("{what} is a hole: it has no {}", if kw == "solution" { "button" } else { "light" }),
            )
            .with_label("a hole");
            if !on_graph {
                if let Some(j) = nearest_cell(i, rows, cols, is_hole) {
                    d = d.with_note(format!("did you mean {},{}?", j / cols + 1, j % cols + 1));
                }
            }
            let fix = if matches!(
                first.get(kw).map(|s| &s.kind),
                Some(
                    StatementKind::Lights(Value::Grid(_))
                        | StatementKind::Goal(Value::Grid(_))
                        | StatementKind::Solution(Value::Grid(_))
                )
            ) {
                "write `.` on a hole"
            } else {
                "leave holes out of the list"
            };
            self.push(d.with_note(fix));
        }
        ok.then_some(value)
    }

    /// A number that must fit; reports L0117 otherwise.
    pub(crate) fn number(&mut self, n: &ast::Number, what: &str) -> Option<u64> {
        match n.value() {
            Some(v) => Some(v),
            None => {
                self.push(
                    Diagnostic::error(Code::NumberTooLarge, n.span, format!("this {what} is far too large"))
                        .with_label("too large"),
                );
                None
            }
        }
    }

    pub(crate) fn size(&mut self, stmt: &ast::Statement) -> Option<(usize, usize)> {
        let StatementKind::Size { rows, cols } = &stmt.kind else { return None };
        let r = self.number(rows, "number of rows");
        let c = self.number(cols, "number of columns");
        let (r, c) = (r?, c?);
        let mut ok = true;
        for (n, v, what) in [(rows, r, "row"), (cols, c, "column")] {
            if v == 0 {
                ok = false;
                self.push(
                    Diagnostic::error(Code::ZeroSize, n.span, format!("a board needs at least one {what}"))
                        .with_label("zero")
                        .with_note("`size R x C` needs 1 ≤ R and 1 ≤ C"),
                );
            }
        }
        if !ok {
            return None;
        }
        let cells = r.checked_mul(c);
        if cells.is_none_or(|n| n > MAX_CELLS) {
            self.push(
                Diagnostic::error(
                    Code::BoardTooLarge,
                    stmt.span,
                    format!("a {r}×{c} board is too large: boards are limited to {MAX_CELLS} cells"),
                )
                .with_label("too many cells")
                .with_note(format!(
                    "a {side}x{side} board is the largest square board that fits",
                    side = MAX_CELLS.isqrt()
                )),
            );
            return None;
        }
        Some((r as usize, c as usize))
    }

    fn states(&mut self, stmt: &ast::Statement) -> Option<u32> {
        let StatementKind::States(n) = &stmt.kind else { return None };
        let w = n.value().unwrap_or(u64::MAX);
        if !(MIN_STATES..=MAX_STATES).contains(&w) {
            self.push(
                Diagnostic::error(
                    Code::StatesOutOfRange,
                    n.span,
                    format!("`states {}` is out of range: a light has 2 to 65536 states", n.text),
                )
                .with_label("must be 2…65536"),
            );
            return None;
        }
        Some(w as u32)
    }

    fn topology(&mut self, stmt: &ast::Statement) -> Option<Topology> {
        let StatementKind::Topology(id) = &stmt.kind else { return None };
        let t = Topology::from_name(&id.text);
        if t.is_none() {
            let mut d = Diagnostic::error(Code::UnknownTopology, id.span, format!("unknown topology `{}`", id.text))
                .with_label("not a topology");
            if let Some(s) = did_you_mean(&id.text, Topology::NAMES) {
                d = d.with_note(format!("did you mean `{s}`?"));
            }
            self.push(d.with_note("topologies are: plane, cylinder, torus, mobius, klein, projective (or cross-cap)"));
        }
        t
    }

    fn rule(&mut self, stmt: &ast::Statement, w: u32) -> Option<Rule> {
        let StatementKind::Rule(spec) = &stmt.kind else { return None };
        match spec {
            RuleSpec::Named(id) => {
                let r = Rule::from_name(&id.text);
                if r.is_none() {
                    let mut d = Diagnostic::error(Code::UnknownRule, id.span, format!("unknown rule `{}`", id.text))
                        .with_label("not a rule");
                    if let Some(s) = did_you_mean(&id.text, Rule::NAMES) {
                        d = d.with_note(format!("did you mean `{s}`?"));
                    }
                    self.push(d.with_note("rules are: cross, king, flip, merlin, or a stencil `rule { … }`"));
                }
                r
            }
            RuleSpec::Stencil(grid) => self.stencil(grid, w).map(Rule::Stencil),
        }
    }

    fn stencil(&mut self, grid: &ast::Grid, w: u32) -> Option<Stencil> {
        if grid.rows.iter().any(|r| r.form == RowForm::Bad) {
            return None; // already reported
        }
        let width = stencil_width(grid);
        let rows: Vec<Vec<Span>> = grid.rows.iter().map(|r| r.cells(width)).collect();
        if rows.is_empty() {
            self.push(
                Diagnostic::error(Code::ZeroStencil, grid.span, "this stencil is empty")
                    .with_label("no rows")
                    .with_note("a stencil is an odd-by-odd grid of weights centred on the pressed cell"),
            );
            return None;
        }
        let mut ok = true;
        for (row, cells) in grid.rows.iter().zip(&rows) {
            if cells.len() != width {
                ok = false;
                self.push(
                    Diagnostic::error(
                        Code::RaggedStencil,
                        row.span,
                        format!("this stencil row has {}, the first has {width}", plural(cells.len(), "cell")),
                    )
                    .with_label(format!("expected {width} cells")),
                );
            }
        }
        if !ok {
            return None;
        }
        let (h, wd) = (rows.len(), width);
        if h % 2 == 0 || wd % 2 == 0 {
            self.push(
                Diagnostic::error(Code::EvenStencil, grid.span, format!("a {h}×{wd} stencil has no centre cell"))
                    .with_label("needs odd height and width")
                    .with_note("a stencil is centred on the pressed cell, so it is 1×1, 3×3, 3×5, 5×5, …"),
            );
            ok = false;
        }
        let mut weights = Vec::with_capacity(h * wd);
        for cell in rows.iter().flatten() {
            weights.push(self.cell_value(*cell, w, Kind::Value, "weight").unwrap_or(0) as u32);
        }
        if !ok || self.diags.iter().any(|d| grid.span.contains(d.span.start) && d.is_error()) {
            return None;
        }
        if weights.iter().all(|&x| x == 0) {
            self.push(
                Diagnostic::error(Code::ZeroStencil, grid.span, "this stencil changes nothing: every weight is 0")
                    .with_label("all zero")
                    .with_note("put a weight (1 or more) where a press should change a light"),
            );
            return None;
        }
        Some(Stencil { rows: h, cols: wd, weights })
    }

    /// One grid cell's value: `.`, a number below W (values), or `x` (masks → 1).
    fn cell_value(&mut self, cell: Span, w: u32, kind: Kind, what: &str) -> Option<u16> {
        let text = cell.text(self.src);
        match (text, kind) {
            (".", _) => Some(0),
            ("x", Kind::Mask) => Some(1),
            ("x", Kind::Value) => {
                self.push(
                    Diagnostic::error(Code::BadCell, cell, "`x` marks a locked cell; it is only allowed in `locked`")
                        .with_label("not a value")
                        .with_note("write `.` for 0 or a number below `states`; lock cells with `locked`"),
                );
                None
            }
            (_, Kind::Mask) => {
                self.push(
                    Diagnostic::error(Code::BadCell, cell, format!("`{text}` is not allowed in a mask"))
                        .with_label("expected `.` or `x`")
                        .with_note("in `locked`, `x` marks a locked cell and `.` a free one"),
                );
                None
            }
            (_, Kind::Value) => match text.parse::<u64>() {
                Ok(v) if v < u64::from(w) => Some(v as u16),
                _ => {
                    self.push(
                        Diagnostic::error(
                            Code::ValueTooLarge,
                            cell,
                            format!("{what} {text} is too large: with `states {w}` values are 0…{}", w - 1),
                        )
                        .with_label(format!("must be below {w}")),
                    );
                    None
                }
            },
        }
    }

    fn board(&mut self, value: &Value, rows: usize, cols: usize, w: u32, kind: Kind, on_graph: bool) -> Option<Board> {
        let n = rows * cols;
        match value {
            Value::Off(_) => Some(Board::zeros(n)),
            // `locked on`, `holes on`: every cell (a mask holds 0 or 1).
            Value::On(_) if kind == Kind::Mask => Some(Board::uniform(n, 1)),
            Value::On(_) => Some(Board::uniform(n, (w - 1) as u16)),
            Value::Grid(g) if on_graph => {
                self.push(
                    Diagnostic::error(Code::GraphMismatch, g.span, "a graph puzzle has no grid of cells")
                        .with_label("a grid")
                        .with_note("list the nodes instead: `at 1 4:2` (node 4 with value 2), or write `on`/`off`"),
                );
                None
            }
            Value::Grid(g) => self.grid(g, rows, cols, w, kind),
            Value::Sparse(s) => self.sparse(s, rows, cols, w, kind, on_graph),
        }
    }

    /// The cells of a board-sized grid, row by row: L0103 when the grid has
    /// the wrong number of rows, L0104 for each row of the wrong width (left
    /// out of the result, like malformed rows, which are already reported).
    pub(crate) fn grid_rows<'g>(
        &mut self,
        g: &'g ast::Grid,
        rows: usize,
        cols: usize,
    ) -> Vec<(&'g ast::Row, Vec<Span>)> {
        if g.rows.len() != rows {
            let msg = format!(
                "this grid has {}, but the board has {rows} (`size {rows}x{cols}`)",
                plural(g.rows.len(), "row")
            );
            let mut d = Diagnostic::error(Code::RowCount, g.span, msg).with_label(format!("expected {rows} rows"));
            if g.rows.len() > rows {
                d = d.with_secondary(g.rows[rows].span, format!("row {} is one too many", rows + 1));
            }
            self.push(d);
        }
        // Sized by the rows written, never by the `size` typed (issue 25).
        let mut out = Vec::with_capacity(g.rows.len().min(rows));
        for (i, row) in g.rows.iter().enumerate() {
            if row.form == RowForm::Bad {
                continue; // already reported
            }
            let cells = row.cells(cols);
            if cells.len() != cols {
                let form = if row.form == RowForm::Compact && cols > 1 {
                    " (a compact row: one character per cell)"
                } else {
                    ""
                };
                self.push(
                    Diagnostic::error(
                        Code::RowWidth,
                        row.span,
                        format!(
                            "row {} has {}, but the board is {cols} wide{form}",
                            i + 1,
                            plural(cells.len(), "cell")
                        ),
                    )
                    .with_label(format!("expected {cols} cells")),
                );
                continue;
            }
            out.push((row, cells));
        }
        out
    }

    fn grid(&mut self, g: &ast::Grid, rows: usize, cols: usize, w: u32, kind: Kind) -> Option<Board> {
        let before = self.diags.len();
        let checked = self.grid_rows(g, rows, cols);
        // Reserve what the text holds (rows of the right width), not
        // `rows * cols`: `size 100000x100000` over a one-cell grid is an
        // L0103 error, not a 160 GB allocation (issue 25).
        let written: usize = checked.iter().map(|(_, cells)| cells.len()).sum();
        let mut values = Vec::with_capacity(written);
        let mut cell_spans = Vec::with_capacity(written);
        for (_, cells) in checked {
            for cell in cells {
                let v = self.cell_value(cell, w, kind, "value").unwrap_or(0);
                values.push(v);
                cell_spans.push(cell);
            }
        }
        if self.diags[before..].iter().any(Diagnostic::is_error) || g.rows.iter().any(|r| r.form == RowForm::Bad) {
            return None;
        }
        Some(Board::dense(values).with_spans(CellSpans::Grid(cell_spans)))
    }

    fn sparse(
        &mut self,
        s: &ast::Sparse,
        rows: usize,
        cols: usize,
        w: u32,
        kind: Kind,
        on_graph: bool,
    ) -> Option<Board> {
        let before = self.diags.len();
        let mut values: Vec<(usize, u16)> = Vec::with_capacity(s.entries.len());
        let mut spans: Vec<(usize, Span)> = Vec::with_capacity(s.entries.len());
        let mut seen: HashMap<usize, Span> = HashMap::new();
        for e in &s.entries {
            let Some(idx) = self.entry_index(e, rows, cols, on_graph) else { continue };
            let (r, c) = (idx / cols + 1, idx % cols + 1);
            let name = if on_graph { format!("node {}", idx + 1) } else { format!("cell {r},{c}") };
            if let Some(prev) = seen.get(&idx) {
                self.push(
                    Diagnostic::error(Code::RepeatedCoordinate, e.span, format!("{name} is listed twice"))
                        .with_label("listed again")
                        .with_secondary(*prev, "first listed here"),
                );
                continue;
            }
            seen.insert(idx, e.span);
            let v = match (&e.value, kind) {
                (None, Kind::Value) => 1,
                (None, Kind::Mask) => 1,
                (Some(n), Kind::Mask) => {
                    self.push(
                        Diagnostic::error(Code::ValueInMask, n.span, "a mask lists cells without values")
                            .with_label("remove `:value`")
                            .with_note("`locked at 1,1 5,5` locks the listed cells; `holes at 3,3` makes holes"),
                    );
                    continue;
                }
                (Some(n), Kind::Value) => match n.value() {
                    Some(v) if v < u64::from(w) => v as u16,
                    _ => {
                        self.push(
                            Diagnostic::error(
                                Code::ValueTooLarge,
                                n.span,
                                format!("value {} is too large: with `states {w}` values are 0…{}", n.text, w - 1),
                            )
                            .with_label(format!("must be below {w}")),
                        );
                        continue;
                    }
                },
            };
            values.push((idx, v));
            spans.push((idx, e.span));
        }
        if self.diags[before..].iter().any(Diagnostic::is_error) {
            return None;
        }
        spans.sort_by_key(|&(i, _)| i);
        Some(Board::sparse(rows * cols, values).with_spans(CellSpans::List { list: s.span, entries: spans }))
    }

    /// The cell an `at` entry names: `row,column` on a board, a node on a
    /// graph (L0130 for the other form, L0111 outside the board).
    fn entry_index(&mut self, e: &ast::Entry, rows: usize, cols: usize, on_graph: bool) -> Option<usize> {
        match (&e.col, on_graph) {
            (Some(col), true) => {
                self.push(
                    Diagnostic::error(Code::GraphMismatch, e.span, "a graph's nodes are numbers, not `row,column`")
                        .with_label("a board coordinate")
                        .with_note(format!("write the node's number, e.g. `at {}`", col.text)),
                );
                None
            }
            (None, false) => {
                self.push(
                    Diagnostic::error(
                        Code::GraphMismatch,
                        e.span,
                        format!("`{}` names a node, but this puzzle is a board", e.row.text),
                    )
                    .with_label("expected `row,column`")
                    .with_note(
                        "cells of a board are `row,column`, e.g. `at 2,3`; node numbers are for `graph` puzzles",
                    ),
                );
                None
            }
            (None, true) => {
                let n = self.number(&e.row, "node number")?;
                if n == 0 || n > cols as u64 {
                    self.push(
                        Diagnostic::error(
                            Code::CoordinateOutOfRange,
                            e.row.span,
                            format!("node {n} is not in the graph"),
                        )
                        .with_label(format!("nodes are 1…{cols}")),
                    );
                    return None;
                }
                Some(n as usize - 1)
            }
            (Some(col), false) => {
                let r = self.number(&e.row, "row number");
                let c = self.number(col, "column number");
                let (r, c) = (r?, c?);
                if r == 0 || c == 0 || r > rows as u64 || c > cols as u64 {
                    self.push(
                        Diagnostic::error(
                            Code::CoordinateOutOfRange,
                            Span::new(e.row.span.start, col.span.end),
                            format!("cell {r},{c} is outside the {rows}×{cols} board"),
                        )
                        .with_label(format!("rows are 1…{rows}, columns 1…{cols}"))
                        .with_note("coordinates are 1-based `row,column`; `1,1` is the top-left cell"),
                    );
                    return None;
                }
                Some((r as usize - 1) * cols + (c as usize - 1))
            }
        }
    }

    fn claim(&mut self, stmt: &ast::Statement, claim: &ast::Claim) -> Option<Expectation> {
        let c = match &claim.kind {
            ClaimKind::Solvable => Claim::Solvable,
            ClaimKind::Unsolvable => Claim::Unsolvable,
            ClaimKind::Unique => Claim::Unique,
            ClaimKind::Solutions(n) => Claim::Solutions(n.text.parse::<BigUint>().ok()?),
            ClaimKind::Presses(n) => Claim::Presses(self.number(n, "press count")?),
            // Reported by `sliding_only`.
            ClaimKind::Moves(_) => return None,
        };
        Some(Expectation { span: stmt.span, claim: c })
    }
}

/// The nearest cell to `i` that is not a hole (by rings of growing
/// distance, up to 3), for a did-you-mean.
fn nearest_cell(i: usize, rows: usize, cols: usize, is_hole: impl Fn(usize) -> bool) -> Option<usize> {
    let (r, c) = ((i / cols) as i64, (i % cols) as i64);
    for d in 1..=3i64 {
        let mut best: Option<(i64, usize)> = None;
        for dr in -d..=d {
            for dc in -d..=d {
                if dr.abs().max(dc.abs()) != d {
                    continue;
                }
                let (rr, cc) = (r + dr, c + dc);
                if rr < 0 || cc < 0 || rr >= rows as i64 || cc >= cols as i64 {
                    continue;
                }
                let j = rr as usize * cols + cc as usize;
                let dist = dr * dr + dc * dc;
                if !is_hole(j) && best.is_none_or(|(bd, _)| dist < bd) {
                    best = Some((dist, j));
                }
            }
        }
        if let Some((_, j)) = best {
            return Some(j);
        }
    }
    None
}

/// `1 cell`, `3 cells`.
pub(crate) fn plural(n: usize, word: &str) -> String {
    if n == 1 {
        format!("1 {word}")
    } else {
        format!("{n} {word}s")
    }
}
