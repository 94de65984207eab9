//! Board-sized values (`lights`, `goal`, `locked`, `holes`, `solution`):
//! `on`/`off`, a grid of cells, or a list of `at` entries.

use super::{ast, plural, Board, CellSpans, Code, Diagnostic, HashMap, Kind, RowForm, Span, Validator, Value};

impl Validator<'_> {
    /// One grid cell's value: `.`, a number below W (values), or `x` (masks → 1).
    pub(super) fn cell_value(&mut self, cell: Span, w: u32, kind: Kind, what: &str) -> Option<u16> {
        let text = cell.text(self.src);
        match (text, kind) {
            (".", _) => Some(0),
            ("x", Kind::Mask) => Some(1),
            ("x", Kind::Value) => {
                self.push(lock_in_values(cell));
                None
            }
            (_, Kind::Mask) => {
                self.push(value_in_mask_grid(cell, text));
                None
            }
            (_, Kind::Value) => match text.parse::<u64>() {
                Ok(v) if v < u64::from(w) => Some(v as u16),
                _ => {
                    self.push(value_too_large(cell, what, text, w));
                    None
                }
            },
        }
    }

    pub(super) fn board(
        &mut self,
        value: &Value,
        rows: usize,
        cols: usize,
        w: u32,
        kind: Kind,
        on_graph: bool,
    ) -> Option<Board> {
        let n = rows * cols;
        match value {
            Value::Off(_) => Some(Board::zeros(n)),
            // `locked on`, `holes on`: every cell (a mask holds 0 or 1).
            Value::On(_) if kind == Kind::Mask => Some(Board::uniform(n, 1)),
            Value::On(_) => Some(Board::uniform(n, (w - 1) as u16)),
            Value::Grid(g) if on_graph => {
                self.push(grid_on_graph(g.span));
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

    pub(super) fn grid(&mut self, g: &ast::Grid, rows: usize, cols: usize, w: u32, kind: Kind) -> Option<Board> {
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

    pub(super) fn sparse(
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
                self.push(repeated_coordinate(e.span, &name, *prev));
                continue;
            }
            seen.insert(idx, e.span);
            let v = match (&e.value, kind) {
                (None, Kind::Value) => 1,
                (None, Kind::Mask) => 1,
                (Some(n), Kind::Mask) => {
                    self.push(value_in_mask(n.span));
                    continue;
                }
                (Some(n), Kind::Value) => match n.value() {
                    Some(v) if v < u64::from(w) => v as u16,
                    _ => {
                        self.push(value_too_large(n.span, "value", &n.text, w));
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
    pub(super) fn entry_index(&mut self, e: &ast::Entry, rows: usize, cols: usize, on_graph: bool) -> Option<usize> {
        match (&e.col, on_graph) {
            (Some(col), true) => {
                self.push(coordinate_on_graph(e.span, col));
                None
            }
            (None, false) => {
                self.push(node_on_board(e));
                None
            }
            (None, true) => {
                let n = self.number(&e.row, "node number")?;
                if n == 0 || n > cols as u64 {
                    self.push(node_out_of_range(e.row.span, n, cols));
                    return None;
                }
                Some(n as usize - 1)
            }
            (Some(col), false) => {
                let r = self.number(&e.row, "row number");
                let c = self.number(col, "column number");
                let (r, c) = (r?, c?);
                if r == 0 || c == 0 || r > rows as u64 || c > cols as u64 {
                    self.push(cell_out_of_range(Span::new(e.row.span.start, col.span.end), (r, c), (rows, cols)));
                    return None;
                }
                Some((r as usize - 1) * cols + (c as usize - 1))
            }
        }
    }
}

/// L0106: `x` in a grid of values.
fn lock_in_values(cell: Span) -> Diagnostic {
    Diagnostic::error(Code::BadCell, cell, "`x` marks a locked cell; it is only allowed in `locked`")
        .with_label("not a value")
        .with_note("write `.` for 0 or a number below `states`; lock cells with `locked`")
}

/// L0106: something other than `.` or `x` in a mask's grid.
fn value_in_mask_grid(cell: Span, text: &str) -> Diagnostic {
    Diagnostic::error(Code::BadCell, cell, format!("`{text}` is not allowed in a mask"))
        .with_label("expected `.` or `x`")
        .with_note("in `locked`, `x` marks a locked cell and `.` a free one")
}

/// L0105: `what` `text` not below `w`.
fn value_too_large(span: Span, what: &str, text: &str, w: u32) -> Diagnostic {
    Diagnostic::error(
        Code::ValueTooLarge,
        span,
        format!("{what} {text} is too large: with `states {w}` values are 0…{}", w - 1),
    )
    .with_label(format!("must be below {w}"))
}

/// L0130: a grid of cells in a graph puzzle.
fn grid_on_graph(span: Span) -> Diagnostic {
    Diagnostic::error(Code::GraphMismatch, span, "a graph puzzle has no grid of cells")
        .with_label("a grid")
        .with_note("list the nodes instead: `at 1 4:2` (node 4 with value 2), or write `on`/`off`")
}

/// L0130: `at R,C` in a graph puzzle.
fn coordinate_on_graph(span: Span, col: &ast::Number) -> Diagnostic {
    Diagnostic::error(Code::GraphMismatch, span, "a graph's nodes are numbers, not `row,column`")
        .with_label("a board coordinate")
        .with_note(format!("write the node's number, e.g. `at {}`", col.text))
}

/// L0130: `at N` on a board.
fn node_on_board(e: &ast::Entry) -> Diagnostic {
    Diagnostic::error(Code::GraphMismatch, e.span, format!("`{}` names a node, but this puzzle is a board", e.row.text))
        .with_label("expected `row,column`")
        .with_note("cells of a board are `row,column`, e.g. `at 2,3`; node numbers are for `graph` puzzles")
}

/// L0111: node `n` of a graph of `nodes` nodes.
fn node_out_of_range(span: Span, n: u64, nodes: usize) -> Diagnostic {
    Diagnostic::error(Code::CoordinateOutOfRange, span, format!("node {n} is not in the graph"))
        .with_label(format!("nodes are 1…{nodes}"))
}

/// L0111: cell `r,c` outside a `rows`×`cols` board.
fn cell_out_of_range(span: Span, (r, c): (u64, u64), (rows, cols): (usize, usize)) -> Diagnostic {
    Diagnostic::error(Code::CoordinateOutOfRange, span, format!("cell {r},{c} is outside the {rows}×{cols} board"))
        .with_label(format!("rows are 1…{rows}, columns 1…{cols}"))
        .with_note("coordinates are 1-based `row,column`; `1,1` is the top-left cell")
}

/// L0112: cell (node) `name` listed again at `span`, first at `first`.
fn repeated_coordinate(span: Span, name: &str, first: Span) -> Diagnostic {
    Diagnostic::error(Code::RepeatedCoordinate, span, format!("{name} is listed twice"))
        .with_label("listed again")
        .with_secondary(first, "first listed here")
}

/// L0120: `:value` in a mask's list.
fn value_in_mask(span: Span) -> Diagnostic {
    Diagnostic::error(Code::ValueInMask, span, "a mask lists cells without values")
        .with_label("remove `:value`")
        .with_note("`locked at 1,1 5,5` locks the listed cells; `holes at 3,3` makes holes")
}
