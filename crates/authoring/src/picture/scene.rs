//! What a picture shows ([`Scene`]): the cells' geometry, the overlay and
//! where it goes, the state numbers, the counts the subtitle and the legend
//! tell; decided before [`svg`](super::svg) lays anything out.

use std::fmt::Write as _;

use lights_compiler::model::{GraphKind, Puzzle, Shape};
use lights_compiler::solve::Report;
use lights_compiler::summary;

use super::*;

/// What a picture shows, decided before anything is laid out: the cells'
/// geometry, the overlay and where it goes, whether the state numbers are
/// written, and the counts the subtitle and the legend tell.
pub(super) struct Scene<'a> {
    pub(super) p: &'a Puzzle,
    pub(super) report: Option<&'a Report>,
    pub(super) geo: Geometry,
    pub(super) show: Show,
    /// The number of states.
    pub(super) w: u32,
    /// The state numbers are written on the cells.
    pub(super) numbers: bool,
    /// The overlay is drawn as marks on the lights (else as a panel).
    pub(super) marks_on_board: bool,
    /// The numbers and the marks share the cells.
    pub(super) beside: bool,
    pub(super) overlay: Option<Overlay>,
    /// Legend lines said instead of an overlay.
    pub(super) notes: Vec<String>,
    /// Per cell: a locked button (holes have none, so they are not locked).
    pub(super) locked: Vec<bool>,
    pub(super) locked_count: usize,
    pub(super) holes: usize,
}

impl<'a> Scene<'a> {
    pub(super) fn new(p: &'a Puzzle, report: Option<&'a Report>, options: &Options) -> Result<Scene<'a>, PictureError> {
        let geo = geometry(p, options)?;
        let s = geo.cell();
        let show = options.show.unwrap_or_else(|| Show::default_for(report));
        let w = p.states;
        let mut notes = Vec::new();
        let numbers = geo.holds_numbers()
            && match options.numbers {
                Numbers::Auto => w > 2,
                Numbers::Always => true,
                Numbers::Never => false,
            };
        // On a board the numbers take the cells' centres, and the marks move to
        // a corner: numbered marks need larger cells there. (On a graph the
        // marks are beside the nodes anyway.)
        let marks_min = if numbers && !p.is_graph() { MARKS_BESIDE_NUMBERS_MIN_CELL } else { MARKS_MIN_CELL };
        let marks_on_board = geo.detailed() && (s >= marks_min || w == 2);
        let beside = numbers && marks_on_board;
        let mut overlay = overlay(p, report, show, marks_on_board, &mut notes)?;
        // A hole has no button and no light: nothing of an overlay is drawn there.
        if let Some(o) = overlay.as_mut().filter(|_| p.has_holes()) {
            for (i, v) in o.values.iter_mut().enumerate() {
                if p.is_hole(i) {
                    *v = 0;
                }
            }
        }
        // `locked` also holds the holes (they have no button); they are drawn as holes.
        let locked: Vec<bool> = (0..p.cells()).map(|i| p.is_locked(i) && !p.is_hole(i)).collect();
        let locked_count = locked.iter().filter(|&&l| l).count();
        let holes = (0..p.cells()).filter(|&i| p.is_hole(i)).count();
        Ok(Scene {
            p,
            report,
            geo,
            show,
            w,
            numbers,
            marks_on_board,
            beside,
            overlay,
            notes,
            locked,
            locked_count,
            holes,
        })
    }

    pub(super) fn has_goal(&self) -> bool {
        self.p.goal.any_nonzero()
    }

    /// The overlay has a panel of its own (it is not marked on the lights).
    pub(super) fn overlay_panel(&self) -> bool {
        self.overlay.is_some() && !self.marks_on_board
    }

    /// The board, the rule, the surface, the states, the locked buttons and
    /// the solver's answer, in one line.
    pub(super) fn subtitle(&self) -> String {
        let (p, w, holes) = (self.p, self.w, self.holes);
        let rule_etc = match &p.shape {
            Shape::Graph(_) => format!("{} · {} states", p.rule.name(), w),
            _ => format!("{} · {} · {} states", p.rule.name(), p.topology.name(), w),
        };
        let mut subtitle = match &p.shape {
            Shape::Graph(g) => {
                let name = match g.kind {
                    GraphKind::Custom => "graph".to_string(),
                    _ => format!("graph {}", g.describe()),
                };
                format!(
                    "{name} · {} · {} · {rule_etc}",
                    summary::count(p.cells() - holes, "node"),
                    summary::count(g.edge_count(), "edge")
                )
            }
            Shape::Hex if holes > 0 => {
                format!("{}×{} hex · {} · {rule_etc}", p.rows, p.cols, summary::count(holes, "hole"))
            }
            Shape::Hex => format!("{}×{} hex · {rule_etc}", p.rows, p.cols),
            Shape::Square if holes > 0 => {
                format!("{}×{} · {} · {rule_etc}", p.rows, p.cols, summary::count(holes, "hole"))
            }
            Shape::Square => format!("{}×{} · {rule_etc}", p.rows, p.cols),
        };
        if self.locked_count > 0 {
            let _ = write!(subtitle, " · {} locked", self.locked_count);
        }
        let _ = write!(subtitle, " · {}", result_line(self.report));
        subtitle
    }

    /// The panels left to right, `(id, caption)`: the lights, the goal
    /// (unless it is all off) and the overlay's own panel.
    pub(super) fn panels(&self) -> Vec<(&'static str, String)> {
        let mut panels: Vec<(&str, String)> = vec![("lights", "lights".to_string())];
        if self.has_goal() {
            panels.push(("goal", "goal".to_string()));
        }
        if self.overlay_panel() {
            if let Some(o) = &self.overlay {
                panels.push(("overlay", o.caption.clone()));
            }
        }
        panels
    }

    /// The cells of panel `id` (and the marks on the lights), the board's
    /// top-left corner at `origin`.
    pub(super) fn draw_panel(&self, out: &mut String, id: &str, origin: (u32, u32)) {
        let (p, w, geo) = (self.p, self.w, &self.geo);
        let colour = |v| state_colour(v, w);
        let values: Vec<u32>;
        let panel = match id {
            "lights" => {
                let marks = self.overlay.as_ref().filter(|_| self.marks_on_board);
                values = p.lights.iter().map(u32::from).collect();
                let numbers = self.numbers.then_some((w, self.beside && marks.is_some()));
                let panel = Panel { id, origin, values: &values, colour: &colour, locked: Some(&self.locked), numbers };
                geo.cells(out, &panel);
                if let Some(o) = marks {
                    geo.marks(out, origin.0, origin.1, o, w, self.beside && !p.is_graph());
                }
                return;
            }
            "goal" => {
                values = p.goal.iter().map(u32::from).collect();
                let numbers = self.numbers.then_some((w, false));
                Panel { id, origin, values: &values, colour: &colour, locked: None, numbers }
            }
            _ => {
                let Some(o) = &self.overlay else { return };
                let colour = |v| overlay_colour(v, w, o.mark);
                geo.cells(out, &Panel { id, origin, values: &o.values, colour: &colour, locked: None, numbers: None });
                return;
            }
        };
        geo.cells(out, &panel);
    }
}

/// The cells' geometry: refused when the board or graph is too large to
/// draw, or the cell size is out of range.
fn geometry(p: &Puzzle, options: &Options) -> Result<Geometry, PictureError> {
    if p.cells() > MAX_DRAWN_CELLS && !p.is_graph() {
        return Err(PictureError::BoardTooLarge { rows: p.rows, cols: p.cols });
    }
    if let Some(n) = options.cell.filter(|&n| n == 0 || n > MAX_CELL_PX) {
        return Err(PictureError::BadCellSize(n));
    }
    Ok(match &p.shape {
        Shape::Graph(g) => {
            // The nodes drawn: a written graph's unused numbers are holes, not nodes.
            let nodes = g.nodes() - p.holes.count_nonzero();
            if nodes > MAX_DRAWN_NODES || g.edge_count() > MAX_DRAWN_EDGES {
                return Err(PictureError::GraphTooLarge { nodes, edges: g.edge_count() });
            }
            Geometry::Graph(GraphPicture::new(p, g, options.cell))
        }
        Shape::Square | Shape::Hex => {
            Geometry::Board(Board::new(p, options.cell.unwrap_or_else(|| auto_cell(p.rows, p.cols))))
        }
    })
}
