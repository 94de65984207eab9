//! `grid` and `graph`: the shape of the board, and which rules and
//! topologies it takes.

use super::{
    ast, did_you_mean, Board, Code, Diagnostic, Graph, GraphKind, HashMap, NamedGraphError, Rule, Shape, Span,
    StatementKind, Topology, Validator, NAMED_GRAPHS,
};

impl Validator<'_> {
    /// L0130 for each of `size`, `topology` and `grid` in a graph puzzle.
    pub(super) fn board_statements_on_graph(
        &mut self,
        graph_stmt: &ast::Statement,
        first: &HashMap<&'static str, &ast::Statement>,
    ) {
        for kw in ["size", "topology", "grid"] {
            if let Some(stmt) = first.get(kw) {
                self.push(board_statement_on_graph(kw, stmt.span, graph_stmt.keyword));
            }
        }
    }

    /// The size (L0101 when there is none) and the grid of a board puzzle.
    pub(super) fn board_shape(
        &mut self,
        block: &ast::BlockSyntax,
        first: &HashMap<&'static str, &ast::Statement>,
    ) -> (Option<(usize, usize)>, Option<Shape>) {
        let size = match first.get("size") {
            Some(stmt) => self.size(stmt),
            None if block.malformed.contains(&"size") || block.malformed.contains(&"graph") => None,
            None => {
                self.push(missing_size(block.head));
                None
            }
        };
        let shape = match first.get("grid") {
            Some(stmt) => self.grid_shape(stmt),
            None => Some(Shape::Square),
        };
        (size, shape)
    }

    /// `grid square` or `grid hex`; L0131 otherwise.
    pub(super) fn grid_shape(&mut self, stmt: &ast::Statement) -> Option<Shape> {
        let StatementKind::Grid(id) = &stmt.kind else { return None };
        match id.text.as_str() {
            "square" => Some(Shape::Square),
            "hex" => Some(Shape::Hex),
            other => {
                self.push(unknown_grid(id.span, other));
                None
            }
        }
    }

    /// The graph of a `graph` statement, and the numbers an edge list
    /// leaves out (as holes). `None` after an error.
    pub(super) fn graph(&mut self, stmt: &ast::Statement) -> Option<(Graph, Board)> {
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
                        self.push(unknown_graph(name));
                        None
                    }
                    Err(NamedGraphError::NeedsSize) => {
                        self.push(graph_needs_size(name));
                        None
                    }
                    Err(NamedGraphError::TakesNoSize) => {
                        self.push(graph_takes_no_size(name, where_));
                        None
                    }
                    Err(NamedGraphError::SizeOutOfRange(range)) => {
                        self.push(graph_size_out_of_range(where_, where_.text(self.src), range));
                        None
                    }
                }
            }
            ast::GraphSpec::Edges(list) => self.edge_list(list),
        }
    }

    pub(super) fn edge_list(&mut self, list: &ast::GraphEdges) -> Option<(Graph, Board)> {
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
                    self.push(graph_node_out_of_range(n));
                    continue;
                }
                ends.push((v - 1) as u32);
            }
            used.extend(&ends);
            nodes = nodes.max(ends.iter().map(|&e| e as usize + 1).max().unwrap_or(0));
            let [a, b] = ends[..] else { continue };
            if a == b {
                self.push(graph_loop(item.span, a));
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
                    self.push(repeated_edge(again.span, key, at.span));
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
            self.push(empty_graph(list.span));
            return None;
        }
        if edges.len() > crate::graph::MAX_EDGES {
            self.push(too_many_edges(list.span, edges.len()));
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
    pub(super) fn fits_shape(
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
            self.push(rule_not_on_shape(rule_span.unwrap_or_default(), rule, what));
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
                self.push(topology_not_on_hex(at, topology));
            }
        }
        ok
    }
}

/// L0130: `size`, `topology` or `grid` (`kw`) in a graph puzzle.
fn board_statement_on_graph(kw: &str, span: Span, graph: Span) -> Diagnostic {
    Diagnostic::error(Code::GraphMismatch, span, format!("`{kw}` has no meaning in a graph puzzle"))
        .with_label("remove this line")
        .with_secondary(graph, "the puzzle is played on this graph")
        .with_note("a graph puzzle's cells are the graph's nodes; its neighbours are the graph's edges")
}

/// L0101: a board puzzle with no `size`.
fn missing_size(head: Span) -> Diagnostic {
    Diagnostic::error(Code::MissingSize, head, "this puzzle has no `size`")
        .with_label("needs a `size`")
        .with_note("add a line such as `size 5x5` (rows x columns), or `graph NAME` for a graph")
}

/// L0131: `grid` other than `square` and `hex`.
fn unknown_grid(span: Span, other: &str) -> Diagnostic {
    let mut d = Diagnostic::error(Code::UnknownShape, span, format!("unknown grid `{other}`")).with_label("not a grid");
    if let Some(s) = did_you_mean(other, &["square", "hex"]) {
        d = d.with_note(format!("did you mean `{s}`?"));
    }
    d.with_note("grids are `square` (the default) and `hex`; for other shapes use `holes` or `graph`")
}

/// L0131: a graph name not in [`NAMED_GRAPHS`].
fn unknown_graph(name: &ast::Ident) -> Diagnostic {
    let names: Vec<&str> = NAMED_GRAPHS.iter().map(|(n, _)| *n).collect();
    let mut d = Diagnostic::error(Code::UnknownShape, name.span, format!("unknown graph `{}`", name.text))
        .with_label("not a named graph");
    if let Some(s) = did_you_mean(&name.text, &names) {
        d = d.with_note(format!("did you mean `{s}`?"));
    }
    d.with_note(
        "named graphs are: tetrahedron, cube, octahedron, dodecahedron, icosahedron, petersen, \
         cycle N, path N, complete N, cube-surface N; or write the edges: `graph { 1-2 2-3 }`",
    )
}

/// L0133: a sized named graph written without its size.
fn graph_needs_size(name: &ast::Ident) -> Diagnostic {
    Diagnostic::error(Code::BadGraph, name.span, format!("`{}` needs a size", name.text))
        .with_label("how many?")
        .with_note(format!("write e.g. `graph {} 5`", name.text))
}

/// L0133: a size after a named graph that takes none.
fn graph_takes_no_size(name: &ast::Ident, span: Span) -> Diagnostic {
    Diagnostic::error(Code::BadGraph, span, format!("`{}` takes no size", name.text))
        .with_label("remove the number")
        .with_note(if name.text == "cube" {
            "the cube's surface of N×N faces is `graph cube-surface N` (`cube-surface 3` is the Lights Out Cube)"
        } else {
            "only cycle, path, complete and cube-surface take a size"
        })
}

/// L0133: a named graph's size (`written`) outside `range`.
fn graph_size_out_of_range(span: Span, written: &str, range: String) -> Diagnostic {
    Diagnostic::error(Code::BadGraph, span, format!("`{written}` is out of range"))
        .with_label("out of range")
        .with_note(range)
}

/// L0133: an edge list's node 0 or past [`crate::graph::MAX_NODES`].
fn graph_node_out_of_range(n: &ast::Number) -> Diagnostic {
    Diagnostic::error(Code::BadGraph, n.span, format!("node {} is out of range", n.text))
        .with_label(format!("nodes are 1…{}", crate::graph::MAX_NODES))
        .with_note("nodes are numbered from 1")
}

/// L0133: an edge from node `a` (0-based) to itself.
fn graph_loop(span: Span, a: u32) -> Diagnostic {
    Diagnostic::error(Code::BadGraph, span, format!("an edge from node {} to itself", a + 1))
        .with_label("a loop")
        .with_note("a press already changes its own node (`rule cross`); loops are not edges here")
}

/// L0133: edge `key` (0-based) written again at `span`, first at `first`.
fn repeated_edge(span: Span, key: (u32, u32), first: Span) -> Diagnostic {
    Diagnostic::error(Code::BadGraph, span, format!("edge {}-{} is written twice", key.0 + 1, key.1 + 1))
        .with_label("written again")
        .with_secondary(first, "first written here")
        .with_note("edges carry no weight: write each one once")
}

/// L0133: an edge list with no nodes.
fn empty_graph(span: Span) -> Diagnostic {
    Diagnostic::error(Code::BadGraph, span, "this graph has no nodes")
        .with_label("empty")
        .with_note("write edges `a-b` between numbered nodes, e.g. `graph { 1-2 2-3 3-1 }`")
}

/// L0133: more than [`crate::graph::MAX_EDGES`] edges.
fn too_many_edges(span: Span, edges: usize) -> Diagnostic {
    Diagnostic::error(Code::BadGraph, span, format!("this graph has {edges} edges"))
        .with_label(format!("at most {} edges", crate::graph::MAX_EDGES))
}

/// L0132: a rule other than `cross` and `ring` on `what` (a hex grid, a graph).
fn rule_not_on_shape(span: Span, rule: &Rule, what: &str) -> Diagnostic {
    let (label, note) = match rule {
        Rule::Stencil(_) => {
            ("stencils are for square grids", "custom stencils on hex grids and graphs are not supported yet")
        }
        _ => ("not defined here", "square-grid rules (king, flip, merlin) have no meaning here"),
    };
    Diagnostic::error(Code::UnsupportedOnShape, span, format!("`rule {}` is not defined on {what}", rule.name()))
        .with_label(label)
        .with_note(note)
        .with_note(format!(
            "on {what}, `rule cross` changes the pressed cell and its neighbours, `rule ring` only its neighbours"
        ))
}

/// L0132: a topology a hex grid does not take (a torus with an odd number
/// of rows, or a twisted surface).
fn topology_not_on_hex(span: Span, topology: Topology) -> Diagnostic {
    let d = Diagnostic::error(
        Code::UnsupportedOnShape,
        span,
        format!(
            "`topology {}` is not defined on a hex grid{}",
            topology.name(),
            if topology == Topology::Torus { " with an odd number of rows" } else { "" }
        ),
    )
    .with_label("not defined here");
    if topology == Topology::Torus {
        d.with_note("glued top to bottom, the shifted rows must alternate all the way round: give the board an even number of rows")
    } else {
        d.with_note("a hex grid takes `topology plane`, `cylinder` (left and right edges glued) or `torus` (with an even number of rows)")
    }
}
