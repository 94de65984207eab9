//! The cells of one panel, on a board or a graph.

use super::{
    draw_cells, draw_gluing, draw_graph, draw_graph_marks, draw_labels, draw_locked, draw_marks, draw_numbers, Board,
    GraphPicture, Overlay, Rgb, NUMBERS_MIN_CELL,
};

/// One panel's cells as drawn: its `id` (the prefix of its groups' ids),
/// the board's top-left corner, a value per cell and its colour, the locked
/// buttons (on the lights panel) and, when the state numbers are written,
/// `(W, beside_marks)`, the latter when the overlay's badges share the cells.
pub(super) struct Panel<'a> {
    pub(super) id: &'a str,
    pub(super) origin: (u32, u32),
    pub(super) values: &'a [u32],
    pub(super) colour: &'a dyn Fn(u32) -> Rgb,
    pub(super) locked: Option<&'a [bool]>,
    pub(super) numbers: Option<(u32, bool)>,
}

/// The geometry of the cells: a board, or a graph.
pub(super) enum Geometry {
    Board(Board),
    Graph(GraphPicture),
}

impl Geometry {
    /// The detailed style (grid lines, numbers, crossed locks, marks).
    pub(super) fn detailed(&self) -> bool {
        match self {
            Geometry::Board(b) => b.grid,
            Geometry::Graph(gp) => gp.detailed(),
        }
    }

    pub(super) fn cell(&self) -> u32 {
        match self {
            Geometry::Board(b) => b.s,
            Geometry::Graph(gp) => gp.d,
        }
    }

    pub(super) fn panel_w(&self) -> u32 {
        match self {
            Geometry::Board(b) => b.panel_w(),
            Geometry::Graph(gp) => gp.w,
        }
    }

    pub(super) fn board_h(&self) -> u32 {
        match self {
            Geometry::Board(b) => b.board_h(),
            Geometry::Graph(gp) => gp.h,
        }
    }

    /// From a panel's left edge to the board: the row numbers and the band
    /// of the left gluing arrow.
    pub(super) fn left(&self) -> u32 {
        match self {
            Geometry::Board(b) => b.label_w + b.band_x,
            Geometry::Graph(_) => 0,
        }
    }

    /// Above the board: the column numbers and the band of the top gluing arrow.
    pub(super) fn top(&self) -> u32 {
        match self {
            Geometry::Board(b) => b.label_h + b.band_y,
            Geometry::Graph(_) => 0,
        }
    }

    /// Below the board: the band of the bottom gluing arrow.
    pub(super) fn below(&self) -> u32 {
        match self {
            Geometry::Board(b) => b.band_y,
            Geometry::Graph(_) => 0,
        }
    }

    /// Whether any border is glued (so the picture has gluing arrows).
    pub(super) fn glued(&self) -> bool {
        matches!(self, Geometry::Board(b) if b.band_x > 0 || b.band_y > 0)
    }

    /// Whether the cells can hold their state number.
    pub(super) fn holds_numbers(&self) -> bool {
        match self {
            Geometry::Board(b) => b.grid && b.s >= NUMBERS_MIN_CELL,
            Geometry::Graph(gp) => gp.d >= NUMBERS_MIN_CELL,
        }
    }

    /// Locked buttons are hatched rather than crossed.
    pub(super) fn hatched(&self) -> bool {
        matches!(self, Geometry::Board(b) if !b.grid)
    }

    /// One panel's cells (with the locked buttons marked when the panel
    /// has `locked`), the gluing arrows around a board, and the state
    /// numbers when the panel has `numbers`.
    pub(super) fn cells(&self, out: &mut String, panel: &Panel) {
        match self {
            Geometry::Board(b) => {
                let (x0, y0) = panel.origin;
                draw_labels(out, b, panel.id, x0, y0);
                draw_cells(out, b, panel.id, x0, y0, panel.values, panel.colour);
                if let Some(locked) = panel.locked {
                    draw_locked(out, b, x0, y0, locked);
                }
                draw_gluing(out, b, panel.id, x0, y0);
                if let Some(numbers) = panel.numbers {
                    draw_numbers(out, b, panel, numbers);
                }
            }
            Geometry::Graph(gp) => draw_graph(out, gp, panel),
        }
    }

    pub(super) fn marks(&self, out: &mut String, x0: u32, y0: u32, o: &Overlay, w: u32, beside_numbers: bool) {
        match self {
            Geometry::Board(b) => draw_marks(out, b, x0, y0, o, w, beside_numbers),
            Geometry::Graph(gp) => draw_graph_marks(out, gp, x0, y0, o, w),
        }
    }
}
