//! `holes`: cells with no light and no button, and the values written on them.

use super::{
    ast, Board, Code, Diagnostic, HashMap, Kind, SolutionBlock, Span, StatementKind, Validator, Value, PER_CELL_LIMIT,
};

/// The board-sized values of a puzzle.
pub(super) struct Values {
    pub(super) lights: Board,
    pub(super) goal: Board,
    pub(super) locked: Board,
    pub(super) holes: Board,
    pub(super) solution: Option<SolutionBlock>,
}

impl Validator<'_> {
    /// The holes first (with the numbers a written graph leaves out,
    /// `missing`): L0134 when every cell is one, L0115 on a board too large
    /// to have holes; then the lights, goal, locked buttons and solution
    /// (none of them on a hole). `None` after an error.
    pub(super) fn values(
        &mut self,
        block: &ast::BlockSyntax,
        first: &HashMap<&'static str, &ast::Statement>,
        missing: Option<&Board>,
        (rows, cols, w): (usize, usize, u32),
        on_graph: bool,
    ) -> Option<Values> {
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
        if let (Some(h), Some(missing)) = (&holes, missing) {
            holes = Some(h.union_mask(missing));
        }
        let holes = holes?;
        // Nothing left to play: refused like a graph with no nodes.
        if rows * cols > 0 && holes.any_nonzero() && holes.count_nonzero() == rows * cols {
            let at = first.get("holes").map_or(block.head, |s| s.span);
            self.push(no_cells(at, on_graph));
            return None;
        }
        if holes.any_nonzero() && rows * cols > PER_CELL_LIMIT {
            let at = first.get("holes").map_or(block.head, |s| s.span);
            self.push(too_large_for_holes(at, rows * cols));
            return None;
        }
        let lights = value_of(self, "lights", Kind::Value)
            .and_then(|b| self.off_holes(b, &holes, first, "lights", (rows, on_graph)));
        let goal = value_of(self, "goal", Kind::Value)
            .and_then(|b| self.off_holes(b, &holes, first, "goal", (rows, on_graph)));
        let locked = value_of(self, "locked", Kind::Mask).map(|l| l.union_mask(&holes));
        let solution = match first.get("solution") {
            Some(stmt) => value_of(self, "solution", Kind::Value)
                .and_then(|b| self.off_holes(b, &holes, first, "solution", (rows, on_graph)))
                .map(|presses| Some(SolutionBlock { span: stmt.span, presses })),
            None => Some(None),
        };
        Some(Values { lights: lights?, goal: goal?, locked: locked?, holes, solution: solution? })
    }

    /// A value on a hole: `on`/`off` cover only the cells that exist, so
    /// their holes are set to 0; a grid or list that puts a value on a hole
    /// is an error (L0129).
    pub(super) fn off_holes(
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
            Some(
                StatementKind::Lights(Value::Grid(_) | Value::Sparse(_))
                    | StatementKind::Goal(Value::Grid(_) | Value::Sparse(_))
                    | StatementKind::Solution(Value::Grid(_) | Value::Sparse(_))
            )
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
            let nearest = if on_graph { None } else { nearest_cell(i, rows, cols, is_hole) };
            let in_grid = matches!(
                first.get(kw).map(|s| &s.kind),
                Some(
                    StatementKind::Lights(Value::Grid(_))
                        | StatementKind::Goal(Value::Grid(_))
                        | StatementKind::Solution(Value::Grid(_))
                )
            );
            self.push(hole_value(span, &what, kw, nearest.map(|j| (j / cols + 1, j % cols + 1)), in_grid));
        }
        ok.then_some(value)
    }
}

/// L0129: a grid or list puts a value on a hole (`what`: `cell R,C` or
/// `node K`), with the nearest cell that is not a hole and how to fix it.
fn hole_value(at: Span, what: &str, kw: &str, nearest: Option<(usize, usize)>, in_grid: bool) -> Diagnostic {
    let has_no = if kw == "solution" { "button" } else { "light" };
    let mut d =
        Diagnostic::error(Code::HoleValue, at, format!("{what} is a hole: it has no {has_no}")).with_label("a hole");
    if let Some((r, c)) = nearest {
        d = d.with_note(format!("did you mean {r},{c}?"));
    }
    d.with_note(if in_grid { "write `.` on a hole" } else { "leave holes out of the list" })
}

/// L0134: every cell (node) is a hole.
fn no_cells(at: Span, on_graph: bool) -> Diagnostic {
    let what = if on_graph { "every node is a hole" } else { "every cell is a hole" };
    Diagnostic::error(Code::NoCells, at, format!("{what}: the puzzle has no lights"))
        .with_label("nothing left")
        .with_note("a hole has no light and no button; leave at least one cell (or node) out of `holes`")
}

/// L0115: holes on a board of more than [`PER_CELL_LIMIT`] cells.
fn too_large_for_holes(at: Span, cells: usize) -> Diagnostic {
    Diagnostic::error(
        Code::BoardTooLarge,
        at,
        format!("a board with holes is limited to {PER_CELL_LIMIT} cells; this one has {cells}"),
    )
    .with_label("too many cells for a board with holes")
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
