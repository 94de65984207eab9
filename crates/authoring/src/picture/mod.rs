//! Pictures of boards: an SVG drawing of a puzzle (its lights, its goal, its
//! locked buttons) with one overlay from the solver's report (the minimum
//! solution, a quiet pattern or the certificate of an unsolvable puzzle), and
//! PNG rendering of that SVG through resvg.
//!
//! Two drawing styles, chosen by the cell size:
//!
//! - **detailed** (cells of [`GRID_MIN_CELL`] px and more): one `<rect>` per
//!   cell with grid lines between them, row and column numbers (1-based, as
//!   the language writes them), locked buttons crossed out, and the overlay
//!   drawn on the lights as marks (a dot per pressed cell, or a numbered dot
//!   when W > 2) when the cells are large enough ([`MARKS_MIN_CELL`]);
//! - **compact** (smaller cells, e.g. 500×500 at 2 px): no grid lines and no
//!   numbers; each row's runs of equal cells are merged into one `<path>` per
//!   value (the most frequent value is the panel's background), locked
//!   buttons are hatched, and the overlay is a panel of its own.
//!
//! The goal, when it is not "all off", is a second panel beside the lights.
//!
//! Other shapes are drawn as they are played. On `grid hex` boards every
//! cell is a pointy-topped hexagon (`<polygon>`) `s` px across, rows
//! `s·√3/2` apart, every second row shifted right by half a cell; in the
//! compact style a hexagon is an `s`×`s` brick, odd rows still shifted by
//! half a cell. Holes are left out (the page shows through) and are neither
//! crossed nor marked. A `graph` puzzle is drawn from the graph's layout
//! (`Graph::layout`; the icosahedron gets a planar drawing of its own): a
//! `<circle>` per node (`data-node`, `s` px across, numbered from 14 px),
//! a `<line>` per edge (dashed on a cube's surface where it joins faces
//! not side by side in the net); locked nodes get a small cross at their
//! bottom left and the overlay's marks sit at their top right.
//!
//! Square and hex boards show the surface's gluing, as topology diagrams
//! do: for each glued pair of opposite borders an arrow along both borders,
//! outside the cells (between them and the row/column numbers), pointing the
//! same way when the borders are glued as they are and opposite ways when
//! they are glued with a twist; one head for left/right, two for top/bottom
//! (`class="glue-arrow"`). Graphs have no borders and no arrows.
//!
//! The state numbers ([`Numbers`]) are written on the cells that can hold
//! them ([`NUMBERS_MIN_CELL`] px and more, detailed style), by default when
//! there are more than 2 states, in black or white by the fill's luminance.
//! The overlay's marks then become badges at the cells' top right (numbered
//! ones from [`MARKS_BESIDE_NUMBERS_MIN_CELL`] px, else the overlay gets its
//! panel); a graph node shows its state inside and its node number beside it.

use std::fmt::{self, Write as _};

use lights_compiler::model::{Puzzle, Shape};
use lights_compiler::palette::{state_colour, Rgb, STATE_RAMP as RAMP};
use lights_compiler::solve::Report;
use lights_compiler::summary;
use num_bigint::BigUint;

mod board;
mod geometry;
mod gluing;
mod graph;
mod legend;
mod marks;
mod overlay;
mod png;
mod scene;

use board::{draw_cells, draw_labels, draw_locked, draw_marks, draw_numbers, Board, HATCH_DEF};
use geometry::{Geometry, Panel};
use gluing::{draw_gluing, GLUE};
use graph::{draw_graph, draw_graph_marks, GraphPicture};
use legend::{draw_legend, wrap_legend};
use marks::{draw_crosses, draw_mark_dots};
use overlay::{overlay, Overlay};
use scene::Scene;

pub use png::{png, Png};

/// What to draw over the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Show {
    /// The board only.
    Lights,
    /// The minimum solution's presses (solvable puzzles).
    Solution,
    /// The first generator of the quiet patterns (presses that change nothing).
    Quiet,
    /// The certificate of an unsolvable puzzle: cell weights whose weighted
    /// total no press changes.
    Certificate,
}

impl Show {
    /// The overlay shown when none is asked for: the minimum solution of a
    /// solvable puzzle, the certificate of an unsolvable one, the bare board
    /// when the puzzle was not solved.
    pub fn default_for(report: Option<&Report>) -> Show {
        match report {
            Some(r) if r.solvable => Show::Solution,
            Some(r) if r.certificate.is_some() => Show::Certificate,
            _ => Show::Lights,
        }
    }
}

/// When to write each cell's state number on it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Numbers {
    /// When there are more than 2 states and the cells can hold the text
    /// ([`NUMBERS_MIN_CELL`] px and more, detailed style).
    #[default]
    Auto,
    /// Whenever the cells can hold the text, 2 states included (0 and 1).
    Always,
    /// Never.
    Never,
}

/// How to draw.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Options {
    /// The overlay; `None` for [`Show::default_for`].
    pub show: Option<Show>,
    /// Cell size in pixels (1 to [`MAX_CELL_PX`]); `None` picks one so that
    /// the board is about [`AUTO_BOARD_PX`] pixels on its longer side, with
    /// cells between 1 and 40 px.
    pub cell: Option<u32>,
    /// When to write the state numbers on the cells.
    pub numbers: Numbers,
}

/// A drawn picture.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Picture {
    pub svg: String,
    /// Size in pixels (the SVG's `width` and `height`).
    pub width: u32,
    pub height: u32,
    /// The overlay drawn (the default resolved).
    pub show: Show,
    /// The cell size used, in pixels.
    pub cell: u32,
    /// Whether the state numbers were written on the cells.
    pub numbers: bool,
    /// Things worth telling the user that are also written in the picture
    /// (e.g. that there is no quiet pattern to show).
    pub notes: Vec<String>,
}

/// Cells of this size and more get grid lines, row/column numbers and crosses
/// on locked buttons.
pub const GRID_MIN_CELL: u32 = 10;
/// Cells of this size and more carry the overlay's marks (numbers when W > 2);
/// below it (or without the grid), the overlay is a panel of its own. With
/// W = 2 a mark is a plain dot, so grid-sized cells are enough.
pub const MARKS_MIN_CELL: u32 = 16;
/// Cells (and graph nodes) of this size and more, in the detailed style, can
/// hold their state number.
pub const NUMBERS_MIN_CELL: u32 = 14;
/// With the state numbers written on the cells, numbered overlay marks
/// (W > 2) move to a corner badge and need cells of this size; on smaller
/// cells the overlay is a panel of its own.
pub const MARKS_BESIDE_NUMBERS_MIN_CELL: u32 = 36;
/// The automatic cell size aims at boards about this many pixels across.
pub const AUTO_BOARD_PX: u32 = 1000;
/// Largest automatic cell size.
pub const AUTO_MAX_CELL: u32 = 40;
/// Boards with more cells than this are drawn in the compact style whatever
/// the cell size (one `<rect>` per cell would make a huge file).
pub const GRID_MAX_CELLS: usize = 250_000;
/// Largest `cell` accepted.
pub const MAX_CELL_PX: u32 = 200;
/// Boards with more cells than this are not drawn (the SVG would run to
/// hundreds of megabytes).
pub const MAX_DRAWN_CELLS: usize = 4_000_000;
/// PNGs with more pixels than this are refused (the pixmap alone takes four
/// bytes a pixel).
pub const MAX_PNG_PIXELS: u64 = 100_000_000;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PictureError {
    /// `Show::Solution` for an unsolvable puzzle.
    NoSolution,
    /// `Show::Certificate` for a solvable puzzle (or one without a certificate).
    NoCertificate {
        solvable: bool,
    },
    /// An overlay was asked for but the puzzle was not solved.
    NotSolved(Show),
    BoardTooLarge {
        rows: usize,
        cols: usize,
    },
    /// A graph with more than [`MAX_DRAWN_NODES`] nodes or [`MAX_DRAWN_EDGES`] edges.
    GraphTooLarge {
        nodes: usize,
        edges: usize,
    },
    BadCellSize(u32),
    ImageTooLarge {
        width: u64,
        height: u64,
    },
    /// The SVG could not be parsed or rendered (a bug when it is ours).
    Render(String),
}

impl fmt::Display for PictureError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PictureError::NoSolution => {
                write!(f, "the puzzle is unsolvable, so it has no solution to show (try `--show certificate`)")
            }
            PictureError::NoCertificate { solvable: true } => write!(
                f,
                "the puzzle is solvable, so it has no certificate of unsolvability (try `--show solution` or `--show quiet`)"
            ),
            PictureError::NoCertificate { solvable: false } => {
                write!(f, "the solver gave no certificate for this unsolvable puzzle")
            }
            PictureError::NotSolved(show) => write!(
                f,
                "cannot show the {}: the puzzle was not solved (only `--show lights` is possible)",
                match show {
                    Show::Solution => "solution",
                    Show::Quiet => "quiet pattern",
                    Show::Certificate => "certificate",
                    Show::Lights => "lights",
                }
            ),
            PictureError::BoardTooLarge { rows, cols } => write!(
                f,
                "the board is too large to draw: {rows}×{cols} = {} cells, at most {MAX_DRAWN_CELLS} are drawn",
                rows * cols
            ),
            PictureError::GraphTooLarge { nodes, edges } => write!(
                f,
                "the graph is too large to draw: {nodes} nodes and {edges} edges, at most {MAX_DRAWN_NODES} nodes \
                 and {MAX_DRAWN_EDGES} edges are drawn"
            ),
            PictureError::BadCellSize(n) => write!(f, "the cell size must be 1 to {MAX_CELL_PX} pixels, not {n}"),
            PictureError::ImageTooLarge { width, height } => write!(
                f,
                "the image would be {width}×{height} pixels, more than the {MAX_PNG_PIXELS} a PNG may have here; \
                 use a smaller cell size or write an SVG"
            ),
            PictureError::Render(msg) => write!(f, "cannot render the picture: {msg}"),
        }
    }
}

impl std::error::Error for PictureError {}

// ---------------------------------------------------------------------------
// Colours and sizes. The light states' colours are the one scheme of
// `lights_compiler::palette`, which the play page gets too.

const PAGE: Rgb = Rgb(0xff, 0xff, 0xff);
const INK: &str = "#111827";
const INK_RGB: Rgb = Rgb(0x11, 0x18, 0x27);
const MUTED: &str = "#6b7280";
const GRID: &str = "#5b6270";
const SOLUTION_MARK: Rgb = Rgb(0xe0, 0x32, 0x3c);
const QUIET_MARK: Rgb = Rgb(0x0f, 0x8a, 0x7e);
const CERTIFICATE_MARK: Rgb = Rgb(0x6d, 0x28, 0xd9);
/// The background of an overlay panel (cells the overlay leaves at 0).
const OVERLAY_ZERO: Rgb = Rgb(0xee, 0xef, 0xf2);
const LOCKED_STROKE: &str = "#e5e7eb";
const LOCKED_HALO: &str = "#374151";

const MARGIN: u32 = 16;
const PANEL_GAP: u32 = 28;
const TITLE_SIZE: f64 = 18.0;
const SUBTITLE_SIZE: f64 = 13.0;
const CAPTION_SIZE: f64 = 13.0;
const LEGEND_SIZE: f64 = 12.0;
const SWATCH: u32 = 14;
/// Minimum width text is wrapped to.
const MIN_TEXT_WIDTH: f64 = 420.0;
/// Largest W whose states get one legend swatch each (beyond: a gradient).
const LEGEND_SWATCHES_MAX: u32 = 16;
const FONTS: &str = "DejaVu Sans, Verdana, Arial, Helvetica, sans-serif";

/// The colour of overlay value `v` of `w` in an overlay panel.
fn overlay_colour(v: u32, w: u32, mark: Rgb) -> Rgb {
    if v == 0 {
        return OVERLAY_ZERO;
    }
    let t = if w <= 2 { 1.0 } else { f64::from(v) / f64::from(w - 1) };
    OVERLAY_ZERO.lerp(mark, 0.3 + 0.7 * t)
}

/// Estimated width of a text in the sans-serif faces above (DejaVu Sans is
/// among the widest, so this errs on the side of room).
fn text_width(s: &str, size: f64, bold: bool) -> f64 {
    s.chars().count() as f64 * size * if bold { 0.68 } else { 0.6 }
}

/// A number for an attribute: integer when whole, else one decimal.
fn num(x: f64) -> String {
    let r = (x * 10.0).round() / 10.0;
    if r.fract() == 0.0 {
        format!("{}", r as i64)
    } else {
        format!("{r:.1}")
    }
}

/// Text for SVG content and attributes. Control characters become U+FFFD:
/// those XML 1.0 does not allow at all, and DEL, the C1 controls and the
/// line separators, which it allows but a terminal showing the SVG (`-o -`)
/// would act on and no picture draws.
pub(crate) fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for ch in s.chars() {
        match ch {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            c if (c.is_control() && !matches!(c, '\t' | '\n')) || matches!(c, '\u{2028}' | '\u{2029}') => {
                out.push('\u{fffd}');
            }
            c => out.push(c),
        }
    }
    out
}

fn digits(n: usize) -> usize {
    n.to_string().len()
}

/// The picture's one-line result: [`summary::result`], with solution counts
/// too long to read given as a power of two or in scientific notation.
pub fn result_line(report: Option<&Report>) -> String {
    let Some(r) = report else { return "not solved".to_string() };
    let count = &r.solutions;
    let text = count.to_string();
    if !r.solvable || text.len() <= 15 {
        return summary::result(r);
    }
    let bits = count.bits();
    let short = if *count == BigUint::from(1u32) << (bits - 1) {
        format!("2^{} solutions", bits - 1)
    } else {
        format!("{}.{}×10^{} solutions", &text[..1], &text[1..3], text.len() - 1)
    };
    match &r.minimum {
        Some(m) if m.optimal => format!("{short} · minimum {}", summary::presses(m.cost)),
        Some(m) => format!("{short} · {} (minimum not proven)", summary::presses(m.cost)),
        None => short,
    }
}

/// The automatic cell size for a board.
pub fn auto_cell(rows: usize, cols: usize) -> u32 {
    let side = rows.max(cols).max(1) as u64;
    (u64::from(AUTO_BOARD_PX) / side).clamp(1, u64::from(AUTO_MAX_CELL)) as u32
}

/// Graphs with more nodes than this are not drawn.
pub const MAX_DRAWN_NODES: usize = 50_000;
/// Graphs with more edges than this are not drawn.
pub const MAX_DRAWN_EDGES: usize = 200_000;

/// The relative luminance of a colour (WCAG 2).
fn luminance(c: Rgb) -> f64 {
    let channel = |v: u8| {
        let v = f64::from(v) / 255.0;
        if v <= 0.039_28 {
            v / 12.92
        } else {
            ((v + 0.055) / 1.055).powf(2.4)
        }
    };
    0.2126 * channel(c.0) + 0.7152 * channel(c.1) + 0.0722 * channel(c.2)
}

/// The colour of text written on a fill: near-black ([`INK`]) or white,
/// whichever contrasts more with it.
fn ink_on(fill: Rgb) -> &'static str {
    let l = luminance(fill);
    let on_white = 1.05 / (l + 0.05);
    let on_ink = (l + 0.05) / (luminance(INK_RGB) + 0.05);
    if on_ink > on_white {
        INK
    } else {
        "#ffffff"
    }
}

/// Draw a puzzle as SVG: title, lights (and goal) panels, the overlay chosen
/// by `options.show` from `report`, and a legend.
///
/// `report` is the solver's answer for `p`; `None` when it was not solved
/// (then only [`Show::Lights`] is possible).
pub fn svg(p: &Puzzle, report: Option<&Report>, options: &Options) -> Result<Picture, PictureError> {
    let scene = Scene::new(p, report, options)?;
    let (title, subtitle) = (p.header.name.clone(), scene.subtitle());
    let panels = scene.panels();

    // Horizontal layout of the panels.
    let captions_w = panels.iter().map(|(_, c)| text_width(c, CAPTION_SIZE, true).ceil() as u32).max().unwrap_or(0);
    let column_w = scene.geo.panel_w().max(captions_w);
    let content_w = column_w * panels.len() as u32 + PANEL_GAP * (panels.len() as u32 - 1);

    // Legend lines (swatches + wrapped text), wrapped to the width of the
    // panels and title (or a minimum).
    let base_w =
        f64::from(content_w).max(text_width(&title, TITLE_SIZE, true)).max(text_width(&subtitle, SUBTITLE_SIZE, false));
    let (legend, legend_w) = wrap_legend(scene.legend_lines(), scene.w, base_w.max(MIN_TEXT_WIDTH));
    let width = base_w.max(legend_w).ceil() as u32 + 2 * MARGIN;

    // Vertical layout.
    let title_y = MARGIN + 15;
    let subtitle_y = title_y + 22;
    let caption_y = subtitle_y + 28;
    let board_y = caption_y + 10 + scene.geo.top();
    let legend_y = board_y + scene.geo.board_h() + scene.geo.below() + 20;
    let legend_h: u32 = legend.iter().map(|(_, lines)| 6 + 16 * lines.len().max(1) as u32).sum();
    let height = legend_y + legend_h + MARGIN;

    let mut out = String::with_capacity(4096 + p.cells() * if scene.geo.detailed() { 70 } else { 8 });
    let _ = writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" font-family="{FONTS}">"#
    );
    let _ = writeln!(out, "<title>{}</title>", escape(&format!("{title} — {subtitle}")));
    if scene.locked_count > 0 && scene.geo.hatched() {
        let _ = writeln!(out, "<defs>{HATCH_DEF}</defs>");
    }
    let _ = writeln!(out, r#"<rect width="{width}" height="{height}" fill="{PAGE}"/>"#);
    let _ = writeln!(
        out,
        r#"<text id="title" x="{MARGIN}" y="{title_y}" font-size="{}" font-weight="bold" fill="{INK}">{}</text>"#,
        num(TITLE_SIZE),
        escape(&title)
    );
    let _ = writeln!(
        out,
        r#"<text id="subtitle" x="{MARGIN}" y="{subtitle_y}" font-size="{}" fill="{MUTED}">{}</text>"#,
        num(SUBTITLE_SIZE),
        escape(&subtitle)
    );
    for (k, (id, caption)) in panels.iter().enumerate() {
        let px = MARGIN + k as u32 * (column_w + PANEL_GAP);
        let _ = writeln!(out, r#"<g id="{id}">"#);
        let _ = writeln!(
            out,
            r#"<text x="{px}" y="{caption_y}" font-size="{}" font-weight="bold" fill="{INK}">{}</text>"#,
            num(CAPTION_SIZE),
            escape(caption)
        );
        scene.draw_panel(&mut out, id, (px + scene.geo.left(), board_y));
        out.push_str("</g>\n");
    }
    draw_legend(&mut out, &legend, legend_y, scene.w);
    out.push_str("</svg>\n");
    let cell = scene.geo.cell();
    let Scene { show, numbers, notes, .. } = scene;
    Ok(Picture { svg: out, width, height, show, cell, numbers, notes })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_drops_every_control_character() {
        assert_eq!(
            escape("a<\x1b[2J\x07\x7f\u{9b}\u{85}\u{2028}\r\tb"),
            "a&lt;\u{fffd}[2J\u{fffd}\u{fffd}\u{fffd}\u{fffd}\u{fffd}\u{fffd}\tb"
        );
    }

    /// The contrast ratio (WCAG 2) of text on a fill.
    fn contrast(fill: Rgb, text: &str) -> f64 {
        let text = if text == INK { INK_RGB } else { Rgb(0xff, 0xff, 0xff) };
        let (a, b) = (luminance(fill), luminance(text));
        (a.max(b) + 0.05) / (a.min(b) + 0.05)
    }

    #[test]
    fn state_numbers_read_on_every_colour_of_the_scale() {
        let mut worst = f64::MAX;
        for w in 2..=300 {
            for v in 0..w {
                let fill = state_colour(v, w);
                let chosen = contrast(fill, ink_on(fill));
                let other = contrast(fill, if ink_on(fill) == INK { "#ffffff" } else { INK });
                assert!(chosen >= other, "state {v} of {w} on {fill}");
                worst = worst.min(chosen);
            }
        }
        assert!(worst > 4.2, "worst contrast {worst}");
        assert_eq!(ink_on(RAMP[0]), "#ffffff");
        assert_eq!(ink_on(RAMP[3]), INK);
    }
}
