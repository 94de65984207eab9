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

use std::collections::{BTreeMap, HashMap};
use std::fmt::{self, Write as _};
use std::sync::{Arc, OnceLock};

use lights_compiler::model::{Gluing, Graph, GraphKind, Puzzle, Shape};
use lights_compiler::solve::Report;
use lights_compiler::summary;
use num_bigint::BigUint;
use resvg::{tiny_skia, usvg};

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
// Colours and sizes.

const PAGE: Rgb = Rgb(0xff, 0xff, 0xff);
const INK: &str = "#111827";
const INK_RGB: Rgb = Rgb(0x11, 0x18, 0x27);
const MUTED: &str = "#6b7280";
const GRID: &str = "#5b6270";
/// Light states, from off to fully on (W > 2 interpolates along these).
const RAMP: [Rgb; 4] = [Rgb(0x1f, 0x24, 0x33), Rgb(0x55, 0x2c, 0x8a), Rgb(0xc8, 0x45, 0x78), Rgb(0xff, 0xd8, 0x4d)];
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

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Rgb(u8, u8, u8);

impl Rgb {
    fn lerp(self, other: Rgb, t: f64) -> Rgb {
        let t = t.clamp(0.0, 1.0);
        let mix = |a: u8, b: u8| (f64::from(a) + (f64::from(b) - f64::from(a)) * t).round() as u8;
        Rgb(mix(self.0, other.0), mix(self.1, other.1), mix(self.2, other.2))
    }
}

impl fmt::Display for Rgb {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "#{:02x}{:02x}{:02x}", self.0, self.1, self.2)
    }
}

/// The colour of light state `v` of `w`: dark for off, bright for fully on.
fn state_colour(v: u32, w: u32) -> Rgb {
    if v == 0 {
        return RAMP[0];
    }
    if w <= 2 || v >= w - 1 {
        return RAMP[3];
    }
    let t = f64::from(v) / f64::from(w - 1) * 3.0;
    let i = (t.floor() as usize).min(2);
    RAMP[i].lerp(RAMP[i + 1], t - i as f64)
}

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
fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for ch in s.chars() {
        match ch {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            c if (c.is_control() && !matches!(c, '\t' | '\n')) || matches!(c, '\u{2028}' | '\u{2029}') => {
                out.push('\u{fffd}')
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

// ---------------------------------------------------------------------------
// The overlay.

struct Overlay {
    /// Per cell, row-major.
    values: Vec<u32>,
    mark: Rgb,
    /// Caption of its panel (compact style).
    caption: String,
    /// What the marks mean (legend text).
    meaning: String,
}

/// The overlay `show` asks for. `on_board`: drawn as marks on the lights
/// (else as a panel of its own), which changes how the legend says it.
fn overlay(
    p: &Puzzle,
    report: Option<&Report>,
    show: Show,
    on_board: bool,
    notes: &mut Vec<String>,
) -> Result<Option<Overlay>, PictureError> {
    let w = p.states;
    let solved = || report.ok_or(PictureError::NotSolved(show));
    let marked = if on_board { "marked" } else { "coloured" };
    // How many times each button is pressed, said after "press(ing) …".
    let times = match (w, on_board) {
        (2, _) => String::new(),
        (_, true) => ", each the number of times shown".to_string(),
        (_, false) => format!(", each as many times as its shade says (palest 1, darkest {})", w - 1),
    };
    match show {
        Show::Lights => Ok(None),
        Show::Solution => {
            let r = solved()?;
            let Some(min) = r.minimum.as_ref().filter(|_| r.solvable) else { return Err(PictureError::NoSolution) };
            let heading = if min.optimal {
                format!("minimum solution, {}", summary::presses(min.cost))
            } else {
                format!("a solution of {} (the fewest found; minimum not proven)", summary::presses(min.cost))
            };
            let once = if w == 2 { " once" } else { "" };
            Ok(Some(Overlay {
                values: min.presses.to_vec(),
                mark: SOLUTION_MARK,
                caption: "minimum solution".into(),
                meaning: format!("{heading}: press the {marked} buttons{once}{times}"),
            }))
        }
        Show::Quiet => {
            let r = solved()?;
            let Some(first) = r.quiet_patterns.first() else {
                let note = if r.solvable {
                    "no quiet pattern: no presses leave the board unchanged, so the solution is unique"
                } else {
                    "no quiet pattern: no presses leave the board unchanged"
                };
                notes.push(note.to_string());
                return Ok(None);
            };
            let k = r.quiet_patterns.len();
            let order = if first.order == w { String::new() } else { format!(", of order {}", first.order) };
            let generators = if k == 1 { "generator" } else { "generators" };
            Ok(Some(Overlay {
                values: first.presses.to_vec(),
                mark: QUIET_MARK,
                caption: "quiet pattern".into(),
                meaning: format!(
                    "quiet pattern 1 of {k} {generators}{order}: pressing all the {marked} buttons{times} changes no light"
                ),
            }))
        }
        Show::Certificate => {
            let r = solved()?;
            let Some(y) = r.certificate.as_ref().filter(|_| !r.solvable) else {
                return Err(PictureError::NoCertificate { solvable: r.solvable });
            };
            let total = |values: &lights_compiler::model::Board| -> u64 {
                y.nonzero().map(|(i, a)| u64::from(a) * u64::from(values.get(i)) % u64::from(w)).sum::<u64>()
                    % u64::from(w)
            };
            let (now, goal) = (total(&p.lights), total(&p.goal));
            let meaning = if w == 2 {
                let parity = |t: u64| if t == 0 { "even" } else { "odd" };
                format!(
                    "certificate: every press keeps the number of lights on among the {marked} cells even or odd; \
                     it is {} now, the goal needs it {}",
                    parity(now),
                    parity(goal)
                )
            } else {
                let weights = if on_board { "written in the marks" } else { "shown by the shades, palest 1" };
                format!(
                    "certificate: no press changes the sum of weight × light over the {marked} cells, modulo {w} \
                     (weights {weights}); it is {now} now, the goal needs {goal}"
                )
            };
            Ok(Some(Overlay { values: y.to_vec(), mark: CERTIFICATE_MARK, caption: "certificate".into(), meaning }))
        }
    }
}

// ---------------------------------------------------------------------------
// Drawing.

/// √3, for hexagons.
const SQRT3: f64 = 1.732_050_807_568_877_2;

/// Geometry shared by the panels of a board (square or hexagonal cells).
///
/// Square cells sit on a pitch of `s` pixels. Hexagons are pointy-topped,
/// `s` pixels across their flats: a row's centres are `s` apart, rows are
/// `s·√3/2` apart, and every second row (0-based odd) is shifted right by
/// half a cell, as the language lays them out. In the compact style a
/// hexagon is drawn as an `s`×`s` brick (odd rows still shifted by half a
/// cell), which has the same six neighbours.
struct Board {
    rows: usize,
    cols: usize,
    /// Cell pitch.
    s: u32,
    /// Grid line width (0 in the compact style).
    g: u32,
    grid: bool,
    hex: bool,
    /// Per cell, row-major: no cell there. Empty when the board has no holes.
    holes: Vec<bool>,
    /// Space for row numbers (left) and column numbers (top).
    label_w: u32,
    label_h: u32,
    label_size: f64,
    /// Label every `step`-th row/column; a label needs this many pixels.
    row_step: usize,
    col_step: usize,
    row_need: f64,
    col_need: f64,
    /// How the left/right and the top/bottom borders are glued.
    glue_cols: Gluing,
    glue_rows: Gluing,
    /// Width of the band left and right of the board (and height of the one
    /// above and below it) that holds the gluing arrows; 0 for open borders.
    band_x: u32,
    band_y: u32,
}

impl Board {
    fn new(p: &Puzzle, s: u32) -> Board {
        let (rows, cols) = (p.rows, p.cols);
        let grid = s >= GRID_MIN_CELL && rows * cols <= GRID_MAX_CELLS;
        let g = if !grid {
            0
        } else if s >= 24 {
            2
        } else {
            1
        };
        let hex = p.shape == Shape::Hex;
        let holes = if p.has_holes() { (0..p.cells()).map(|i| p.is_hole(i)).collect() } else { Vec::new() };
        let label_size = (f64::from(s) * 0.35).clamp(9.0, 12.0);
        let (mut label_w, mut label_h, mut row_step, mut col_step) = (0, 0, 1, 1);
        let (mut row_need, mut col_need) = (0.0, 0.0);
        if grid {
            label_w = (digits(rows) as f64 * label_size * 0.62 + 8.0).ceil() as u32;
            label_h = (label_size + 6.0).ceil() as u32;
            let step = |need: f64, pitch: f64| -> usize {
                let mut candidates = [1usize, 2, 5].into_iter().chain((0..).flat_map(|k| {
                    let p = 10usize.saturating_pow(k + 1);
                    [p, p.saturating_mul(2), p.saturating_mul(5)]
                }));
                candidates.find(|&c| c as f64 * pitch >= need).unwrap_or(usize::MAX)
            };
            col_need = digits(cols) as f64 * label_size * 0.62 + 4.0;
            row_need = label_size + 2.0;
            col_step = step(col_need, f64::from(s));
            row_step = step(row_need, if hex { f64::from(s) * SQRT3 / 2.0 } else { f64::from(s) });
        }
        let (glue_cols, glue_rows) = (p.topology.columns(), p.topology.rows());
        let mut b = Board {
            rows,
            cols,
            s,
            g,
            grid,
            hex,
            holes,
            label_w,
            label_h,
            label_size,
            row_step,
            col_step,
            row_need,
            col_need,
            glue_cols,
            glue_rows,
            band_x: 0,
            band_y: 0,
        };
        let band = b.band();
        if glue_cols != Gluing::Open {
            b.band_x = band;
        }
        if glue_rows != Gluing::Open {
            b.band_y = band;
        }
        b
    }

    /// The room for a gluing arrow beside a border: 40% of a cell, 10 to
    /// 16 px (large compact boards get the most, so the arrows stay visible
    /// along their long borders).
    fn band(&self) -> u32 {
        let short_side = f64::from(self.board_w().min(self.board_h()));
        (f64::from(self.s) * 0.4).max(short_side / 50.0).round().clamp(10.0, 16.0) as u32
    }

    fn hole(&self, i: usize) -> bool {
        !self.holes.is_empty() && self.holes[i]
    }

    /// Half a cell, for the shifted rows of a hexagonal board (0 when
    /// there is only one row).
    fn half(&self) -> u32 {
        if self.hex && self.rows > 1 {
            self.s.div_ceil(2)
        } else {
            0
        }
    }

    /// The scale of the corner layout (state number and overlay badge in one
    /// cell): a hexagon has less room in its corners than a square.
    fn corner_scale(&self) -> f64 {
        if self.hex {
            0.8
        } else {
            1.0
        }
    }

    /// Compact style: how far row `r` is shifted right.
    fn row_shift(&self, r: usize) -> i64 {
        if self.hex && r % 2 == 1 {
            i64::from(self.s / 2)
        } else {
            0
        }
    }

    /// Detailed hexagons: the distance between row centres.
    fn row_pitch(&self) -> f64 {
        f64::from(self.s) * SQRT3 / 2.0
    }

    fn board_w(&self) -> u32 {
        if self.hex && !self.grid {
            return self.cols as u32 * self.s + if self.rows > 1 { self.s / 2 } else { 0 };
        }
        self.cols as u32 * self.s + self.half() + self.g
    }

    fn board_h(&self) -> u32 {
        if self.hex && self.grid {
            let h = (self.rows - 1) as f64 * self.row_pitch() + 2.0 * f64::from(self.s) / SQRT3;
            return h.ceil() as u32 + self.g;
        }
        self.rows as u32 * self.s + self.g
    }

    fn panel_w(&self) -> u32 {
        self.label_w + 2 * self.band_x + self.board_w()
    }

    /// The centre of cell `i` (detailed style) on a board whose top-left
    /// corner is (x0, y0).
    fn centre(&self, x0: u32, y0: u32, i: usize) -> (f64, f64) {
        let (r, c) = (i / self.cols, i % self.cols);
        let (s, g) = (f64::from(self.s), f64::from(self.g));
        if self.hex {
            let shift = if r % 2 == 1 { s / 2.0 } else { 0.0 };
            (
                f64::from(x0) + g / 2.0 + s / 2.0 + c as f64 * s + shift,
                f64::from(y0) + g / 2.0 + s / SQRT3 + r as f64 * self.row_pitch(),
            )
        } else {
            let inner = s - g;
            (f64::from(x0) + c as f64 * s + g + inner / 2.0, f64::from(y0) + r as f64 * s + g + inner / 2.0)
        }
    }

    /// The hexagon of cell `i` as `points` (detailed style).
    fn hexagon(&self, x0: u32, y0: u32, i: usize) -> String {
        let (cx, cy) = self.centre(x0, y0, i);
        let (hw, r) = (f64::from(self.s) / 2.0, f64::from(self.s) / SQRT3);
        let corners = [(0.0, -r), (hw, -r / 2.0), (hw, r / 2.0), (0.0, r), (-hw, r / 2.0), (-hw, -r / 2.0)];
        let pts: Vec<String> = corners.iter().map(|(dx, dy)| format!("{},{}", num(cx + dx), num(cy + dy))).collect();
        pts.join(" ")
    }

    /// Compact style: a path of the row runs of cells for which `keep(i)`
    /// holds, each run `len·s` wide (plus `extra`) and `s + extra` high.
    fn runs(&self, x0: u32, y0: u32, extra: u32, keep: &dyn Fn(usize) -> bool) -> (RunPath, usize) {
        let mut path = RunPath::default();
        let mut cells = 0usize;
        for_each_run(self.rows, self.cols, keep, |r, c, len, k| {
            if k {
                cells += len;
                path.push(
                    x0 as i64 + (c * self.s as usize) as i64 + self.row_shift(r),
                    y0 as i64 + (r * self.s as usize) as i64,
                    len * self.s as usize + extra as usize,
                    self.s + extra,
                );
            }
        });
        (path, cells)
    }
}

/// Draw one board of values at (x0, y0) (the board's top-left corner, after
/// the labels): `<g id="{id}-cells">` holds one rect (square) or polygon
/// (hexagon) per cell (detailed) or one path per value other than the
/// background (compact, `data-value`). Holes are left out (the page shows).
fn draw_cells(out: &mut String, b: &Board, id: &str, x0: u32, y0: u32, values: &[u32], colour: &dyn Fn(u32) -> Rgb) {
    if b.grid && b.hex {
        let _ = writeln!(out, r#"<g id="{id}-cells" stroke="{GRID}" stroke-width="{}" stroke-linejoin="round">"#, b.g);
        for (i, &v) in values.iter().enumerate() {
            if !b.hole(i) {
                let _ = writeln!(out, r#"<polygon points="{}" fill="{}"/>"#, b.hexagon(x0, y0, i), colour(v));
            }
        }
        out.push_str("</g>\n");
        return;
    }
    if b.grid {
        if b.holes.is_empty() {
            let _ = writeln!(
                out,
                r#"<rect x="{x0}" y="{y0}" width="{}" height="{}" fill="{GRID}"/>"#,
                b.board_w(),
                b.board_h()
            );
        } else {
            // The grid lines around the cells that are there.
            let (path, _) = b.runs(x0, y0, b.g, &|i| !b.hole(i));
            let _ = writeln!(out, r#"<path fill="{GRID}" d="{}"/>"#, path.d);
        }
        let _ = writeln!(out, r#"<g id="{id}-cells" shape-rendering="crispEdges">"#);
        let inner = b.s - b.g;
        for r in 0..b.rows {
            for c in 0..b.cols {
                let i = r * b.cols + c;
                if b.hole(i) {
                    continue;
                }
                let _ = writeln!(
                    out,
                    r#"<rect x="{}" y="{}" width="{inner}" height="{inner}" fill="{}"/>"#,
                    x0 + c as u32 * b.s + b.g,
                    y0 + r as u32 * b.s + b.g,
                    colour(values[i])
                );
            }
        }
        out.push_str("</g>\n");
        return;
    }
    // Compact: the most frequent value is the background; every other value
    // is one path of row runs.
    let mut counts: BTreeMap<u32, usize> = BTreeMap::new();
    for (i, &v) in values.iter().enumerate() {
        if !b.hole(i) {
            *counts.entry(v).or_default() += 1;
        }
    }
    let background = counts.iter().max_by_key(|&(&v, &n)| (n, std::cmp::Reverse(v))).map_or(0, |(&v, _)| v);
    if b.holes.is_empty() && !b.hex {
        let _ = writeln!(
            out,
            r#"<rect x="{x0}" y="{y0}" width="{}" height="{}" fill="{}"/>"#,
            b.board_w(),
            b.board_h(),
            colour(background)
        );
    } else {
        let (path, _) = b.runs(x0, y0, 0, &|i| !b.hole(i));
        let _ = writeln!(out, r#"<path fill="{}" d="{}"/>"#, colour(background), path.d);
    }
    let mut paths: BTreeMap<u32, RunPath> = BTreeMap::new();
    for_each_run(
        b.rows,
        b.cols,
        |i| if b.hole(i) { None } else { Some(values[i]) },
        |r, c, len, v| {
            if let Some(v) = v.filter(|&v| v != background) {
                paths.entry(v).or_default().push(
                    x0 as i64 + (c * b.s as usize) as i64 + b.row_shift(r),
                    y0 as i64 + (r * b.s as usize) as i64,
                    len * b.s as usize,
                    b.s,
                );
            }
        },
    );
    let _ = writeln!(out, r#"<g id="{id}-cells" data-background="{background}" shape-rendering="crispEdges">"#);
    for (v, path) in paths {
        let _ = writeln!(out, r#"<path data-value="{v}" fill="{}" d="{}"/>"#, colour(v), path.d);
    }
    out.push_str("</g>\n");
}

/// Calls `f(row, first column, length, value)` for each run of equal values
/// in each row.
fn for_each_run<T: PartialEq + Copy>(
    rows: usize,
    cols: usize,
    value: impl Fn(usize) -> T,
    mut f: impl FnMut(usize, usize, usize, T),
) {
    for r in 0..rows {
        let mut c = 0;
        while c < cols {
            let v = value(r * cols + c);
            let start = c;
            while c < cols && value(r * cols + c) == v {
                c += 1;
            }
            f(r, start, c - start, v);
        }
    }
}

/// A path of axis-aligned rectangles, each a closed subpath; after `z` the
/// pen is back at the rectangle's corner, so the next one is a short
/// relative move.
#[derive(Default)]
struct RunPath {
    d: String,
    at: Option<(i64, i64)>,
}

impl RunPath {
    fn push(&mut self, x: i64, y: i64, w: usize, h: u32) {
        match self.at {
            None => {
                let _ = write!(self.d, "M{x} {y}");
            }
            Some((px, py)) => {
                let _ = write!(self.d, "m{} {}", x - px, y - py);
            }
        }
        let _ = write!(self.d, "h{w}v{h}h-{w}z");
        self.at = Some((x, y));
    }
}

/// Row and column numbers around a detailed board whose top-left corner is
/// (x0, y0), outside the bands of the gluing arrows. On a hexagonal board the
/// column numbers are those of the first row.
fn draw_labels(out: &mut String, b: &Board, id: &str, x0: u32, y0: u32) {
    if !b.grid {
        return;
    }
    let size = b.label_size;
    let _ = writeln!(out, r#"<g id="{id}-labels" font-size="{}" fill="{MUTED}">"#, num(size));
    let s = f64::from(b.s);
    // Every `step`-th number, and 1 when the next one is far enough.
    let pitch = if b.hex { b.row_pitch() } else { s };
    let labelled = |i: usize, step: usize, need: f64, pitch: f64| {
        i.is_multiple_of(step) || (i == 1 && (step - 1) as f64 * pitch >= need)
    };
    for c in 1..=b.cols {
        if labelled(c, b.col_step, b.col_need, s) {
            let x = b.centre(x0, y0, c - 1).0;
            let y = f64::from(y0 - b.band_y) - 5.0;
            let _ = writeln!(out, r#"<text x="{}" y="{}" text-anchor="middle">{c}</text>"#, num(x), num(y));
        }
    }
    for r in 1..=b.rows {
        if labelled(r, b.row_step, b.row_need, pitch) {
            let x = f64::from(x0 - b.band_x) - 5.0;
            let y = b.centre(x0, y0, (r - 1) * b.cols).1 + size * 0.35;
            let _ = writeln!(out, r#"<text x="{}" y="{}" text-anchor="end">{r}</text>"#, num(x), num(y));
        }
    }
    out.push_str("</g>\n");
}

/// Crosses centred on the given points, `d` pixels wide: a light cross with
/// a dark halo, visible on dark and on bright cells.
fn draw_crosses(out: &mut String, centres: impl Iterator<Item = (f64, f64)>, d: f64, width: f64) {
    let _ = writeln!(
        out,
        r#"<g id="locked" fill="none" stroke-linecap="round" stroke="{LOCKED_HALO}" stroke-width="{}">"#,
        num(width + 2.0)
    );
    let mut crosses = String::new();
    for (cx, cy) in centres {
        let _ = writeln!(
            crosses,
            r#"<path d="M{} {}l{} {}m0 -{}l-{} {}"/>"#,
            num(cx - d / 2.0),
            num(cy - d / 2.0),
            num(d),
            num(d),
            num(d),
            num(d),
            num(d)
        );
    }
    out.push_str(&crosses);
    let _ = writeln!(out, r#"<g stroke="{LOCKED_STROKE}" stroke-width="{}">"#, num(width));
    out.push_str(&crosses);
    out.push_str("</g>\n</g>\n");
}

/// Locked buttons (holes are not locked buttons: they have none): a cross
/// per cell (detailed) or hatched runs (compact).
fn draw_locked(out: &mut String, b: &Board, x0: u32, y0: u32, locked: &[bool]) {
    if !locked.iter().any(|&l| l) {
        return;
    }
    if b.grid {
        let s = f64::from(b.s);
        let inner = s - f64::from(b.g);
        let pad = (inner * 0.18).round();
        let width = (s / 14.0).max(1.5);
        let centres = locked.iter().enumerate().filter(|(_, &l)| l).map(|(i, _)| b.centre(x0, y0, i));
        draw_crosses(out, centres, inner - 2.0 * pad, width);
        return;
    }
    let (path, cells) = b.runs(x0, y0, 0, &|i| locked[i]);
    let _ = writeln!(out, r#"<path id="locked" data-cells="{cells}" fill="url(#hatch)" d="{}"/>"#, path.d);
}

/// The hatch pattern for locked runs: a light grey tint with dark stripes
/// (visible on dark and on bright cells).
const HATCH_DEF: &str = r##"<pattern id="hatch" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)"><rect width="6" height="6" fill="#c4c8cf" fill-opacity="0.5"/><rect width="2" height="6" fill="#4b5563" fill-opacity="0.85"/></pattern>"##;

/// The overlay's marks: a dot of radius `r` per nonzero cell at
/// `centre(i)`, with the value written in it (at most `text_max` px high)
/// when W > 2.
fn draw_mark_dots(
    out: &mut String,
    o: &Overlay,
    w: u32,
    (r, text_max): (f64, f64),
    stroke: f64,
    centre: &dyn Fn(usize) -> (f64, f64),
) {
    let numbered = w > 2;
    let _ = writeln!(out, r##"<g id="marks" fill="{}" stroke="#ffffff" stroke-width="{}">"##, o.mark, num(stroke));
    let mut texts = String::new();
    for (i, &v) in o.values.iter().enumerate() {
        if v == 0 {
            continue;
        }
        let (cx, cy) = centre(i);
        let _ = writeln!(out, r#"<circle cx="{}" cy="{}" r="{}"/>"#, num(cx), num(cy), num(r));
        if numbered {
            let label = v.to_string();
            let size = text_max.min(2.0 * r * 0.9 / (label.len() as f64 * 0.62));
            let _ = writeln!(
                texts,
                r#"<text x="{}" y="{}" font-size="{}">{label}</text>"#,
                num(cx),
                num(cy + size * 0.36),
                num(size)
            );
        }
    }
    out.push_str("</g>\n");
    if numbered {
        let _ = writeln!(out, r##"<g id="mark-values" fill="#ffffff" font-weight="bold" text-anchor="middle">"##);
        out.push_str(&texts);
        out.push_str("</g>\n");
    }
}

/// The overlay's marks on the lights: a dot per nonzero cell, with the value
/// written in it when W > 2; centred on the cell, or a smaller badge at its
/// top right when the cell also carries its state number (`beside_numbers`).
fn draw_marks(out: &mut String, b: &Board, x0: u32, y0: u32, o: &Overlay, w: u32, beside_numbers: bool) {
    let s = f64::from(b.s);
    let inner = s - f64::from(b.g);
    let stroke = (s / 20.0).max(1.0);
    if beside_numbers {
        let k = inner * b.corner_scale();
        let r = if w > 2 { k * 0.21 } else { k * 0.15 };
        let stroke = stroke.min(r * 0.25).max(1.0);
        draw_mark_dots(out, o, w, (r, r * 1.16), stroke, &|i| {
            let (cx, cy) = b.centre(x0, y0, i);
            (cx + k * 0.27, cy - k * 0.27)
        });
        return;
    }
    let r = if w > 2 { inner * 0.36 } else { inner * 0.22 };
    draw_mark_dots(out, o, w, (r, inner * 0.42), stroke, &|i| b.centre(x0, y0, i));
}

/// The state numbers of a detailed board whose top-left corner is (x0, y0):
/// `<g id="{id}-numbers">`, one `<text class="cell-number">` per cell (holes
/// have none), in bold, black or white, whichever reads better on the cell's
/// colour ([`ink_on`]). Centred on the cell, or a little down and left of
/// the centre when the overlay's badges take the cell's top right
/// (`beside_marks`). On locked cells the number gets a halo of the cell's
/// colour, so the cross does not run through it.
#[allow(clippy::too_many_arguments)]
fn draw_numbers(
    out: &mut String,
    b: &Board,
    id: &str,
    (x0, y0): (u32, u32),
    values: &[u32],
    w: u32,
    colour: &dyn Fn(u32) -> Rgb,
    locked: Option<&[bool]>,
    beside_marks: bool,
) {
    let inner = f64::from(b.s - b.g);
    let len = digits(w.saturating_sub(1) as usize) as f64;
    let (size, (dx, dy)) = if beside_marks {
        let k = inner * b.corner_scale();
        ((k * 0.4).min(k * 0.5 / (len * 0.62)), (-k * 0.1, k * 0.1))
    } else {
        ((inner * 0.5).min(inner * 0.8 / (len * 0.62)), (0.0, 0.0))
    };
    let _ = writeln!(out, r#"<g id="{id}-numbers" font-size="{}" font-weight="bold" text-anchor="middle">"#, num(size));
    for (i, &v) in values.iter().enumerate() {
        if b.hole(i) {
            continue;
        }
        let (cx, cy) = b.centre(x0, y0, i);
        let fill = colour(v);
        let halo = if locked.is_some_and(|l| l[i]) {
            format!(
                r#" stroke="{fill}" stroke-width="{}" stroke-linejoin="round" paint-order="stroke""#,
                num((size * 0.3).max(2.0))
            )
        } else {
            String::new()
        };
        let _ = writeln!(
            out,
            r#"<text class="cell-number" x="{}" y="{}" fill="{}"{halo}>{v}</text>"#,
            num(cx + dx),
            num(cy + dy + size * 0.36),
            ink_on(fill)
        );
    }
    out.push_str("</g>\n");
}

/// The colour of the gluing arrows.
const GLUE: &str = "#1d4ed8";

/// The surface's gluing around a board whose top-left corner is (x0, y0),
/// as topology diagrams draw it: `<g id="{id}-gluing">` with, for each glued
/// pair of opposite borders, an arrow along both borders (in the bands
/// beside them, outside the cells), one `<path class="glue-arrow"
/// data-gluing="glued|twisted" data-border="left|right|top|bottom">` each.
/// The two arrows of a pair point the same way when the borders are glued as
/// they are (cylinder, torus) and opposite ways when they are glued with a
/// twist (Möbius band, Klein bottle, projective plane). Left and right arrows
/// have one head, top and bottom arrows two, so the pairs are told apart;
/// the heads sit at the middle of each border. The left arrow points down
/// (the right one too, or up when twisted); the top arrow points right (the
/// bottom one too, or left when twisted).
fn draw_gluing(out: &mut String, b: &Board, id: &str, x0: u32, y0: u32) {
    if b.band_x == 0 && b.band_y == 0 {
        return;
    }
    let band = f64::from(b.band_x.max(b.band_y));
    let stroke = (band / 8.0).clamp(1.25, 2.0);
    let (head_l, head_w) = (band * 0.45, band * 0.32);
    let _ = writeln!(
        out,
        r#"<g id="{id}-gluing" fill="none" stroke="{GLUE}" stroke-width="{}" stroke-linecap="round" stroke-linejoin="round">"#,
        num(stroke)
    );
    let (x0, y0) = (f64::from(x0), f64::from(y0));
    let (w, h) = (f64::from(b.board_w()), f64::from(b.board_h()));
    let s = f64::from(b.s);
    // An arrow from `a` to `b` (pointing at `b`) with `heads` heads at its middle.
    let arrow = |out: &mut String, border: &str, gluing: Gluing, heads: usize, a: (f64, f64), b: (f64, f64)| {
        let len = (b.0 - a.0).hypot(b.1 - a.1);
        let (ux, uy) = ((b.0 - a.0) / len, (b.1 - a.1) / len);
        let gap = head_l * 0.7;
        let (mx, my) = ((a.0 + b.0) / 2.0, (a.1 + b.1) / 2.0);
        let first = (head_l + (heads - 1) as f64 * gap) / 2.0;
        let mut d = format!("M{} {}L{} {}", num(a.0), num(a.1), num(b.0), num(b.1));
        for k in 0..heads {
            let t = first - k as f64 * gap;
            let (tx, ty) = (mx + ux * t, my + uy * t);
            let (bx, by) = (tx - ux * head_l, ty - uy * head_l);
            let _ = write!(
                d,
                "M{} {}L{} {}L{} {}",
                num(bx - uy * head_w),
                num(by + ux * head_w),
                num(tx),
                num(ty),
                num(bx + uy * head_w),
                num(by - ux * head_w)
            );
        }
        let kind = if gluing == Gluing::Twisted { "twisted" } else { "glued" };
        let _ = writeln!(out, r#"<path class="glue-arrow" data-gluing="{kind}" data-border="{border}" d="{d}"/>"#);
    };
    // A glued pair of borders: the second arrow runs as the first when
    // glued as is, back when glued with a twist.
    type Line = ((f64, f64), (f64, f64));
    let pair = |out: &mut String, borders: (&str, &str), gluing: Gluing, heads: usize, first: Line, second: Line| {
        arrow(out, borders.0, gluing, heads, first.0, first.1);
        let (from, to) = if gluing == Gluing::Twisted { (second.1, second.0) } else { second };
        arrow(out, borders.1, gluing, heads, from, to);
    };
    if b.glue_cols != Gluing::Open {
        let inset = (h * 0.05).min(s * 0.25);
        let (top, bottom) = (y0 + inset, y0 + h - inset);
        let left = x0 - f64::from(b.band_x) / 2.0;
        let right = x0 + w + f64::from(b.band_x) / 2.0;
        pair(out, ("left", "right"), b.glue_cols, 1, ((left, top), (left, bottom)), ((right, top), (right, bottom)));
    }
    if b.glue_rows != Gluing::Open {
        let inset = (w * 0.05).min(s * 0.25);
        let (left, right) = (x0 + inset, x0 + w - inset);
        let top = y0 - f64::from(b.band_y) / 2.0;
        let bottom = y0 + h + f64::from(b.band_y) / 2.0;
        pair(out, ("top", "bottom"), b.glue_rows, 2, ((left, top), (right, top)), ((left, bottom), (right, bottom)));
    }
    out.push_str("</g>\n");
}

// ---------------------------------------------------------------------------
// Graphs.

/// Graphs with more nodes than this are not drawn.
pub const MAX_DRAWN_NODES: usize = 50_000;
/// Graphs with more edges than this are not drawn.
pub const MAX_DRAWN_EDGES: usize = 200_000;
/// The automatic node size aims at drawings about this many pixels across.
const AUTO_GRAPH_PX: f64 = 600.0;
/// Node centres are at least this many node diameters apart.
const NODE_SPACING: f64 = 1.3;
/// Nodes this large and more carry their number.
const NODE_NUMBER_MIN: u32 = 14;
const EDGE: &str = "#8a909c";

/// A graph drawn from its layout: the nodes as circles `d` pixels across,
/// the edges as lines between their centres.
struct GraphPicture {
    /// Node centres, relative to the drawing's top-left corner.
    points: Vec<(f64, f64)>,
    /// Edges `(a, b, glued)`: glued edges join cells of a cube's surface
    /// whose faces are not side by side in the unfolded net (drawn dashed).
    edges: Vec<(usize, usize, bool)>,
    /// Per node: not in the graph (a number an edge list leaves out).
    holes: Vec<bool>,
    d: u32,
    w: u32,
    h: u32,
}

impl GraphPicture {
    fn new(p: &Puzzle, graph: &Graph, cell: Option<u32>) -> GraphPicture {
        let layout = graph.layout();
        let holes: Vec<bool> = (0..p.cells()).map(|i| p.is_hole(i)).collect();
        let shown: Vec<(f64, f64)> = layout.iter().zip(&holes).filter(|(_, &h)| !h).map(|(&pt, _)| pt).collect();
        let shown = if shown.is_empty() { layout.clone() } else { shown };
        let spacing = min_distance(&shown).max(1e-3);
        let d = cell.unwrap_or_else(|| (AUTO_GRAPH_PX * spacing / NODE_SPACING).round().clamp(4.0, 40.0) as u32);
        // Pixels per unit of the layout: small graphs get small drawings.
        let across = (3.0 * (shown.len() as f64).sqrt()).clamp(6.0, AUTO_GRAPH_PX / 40.0);
        let k = (across * f64::from(d)).max(NODE_SPACING * f64::from(d) / spacing);
        let (mut x_min, mut x_max, mut y_min, mut y_max) = (f64::MAX, f64::MIN, f64::MAX, f64::MIN);
        for &(x, y) in &shown {
            x_min = x_min.min(x);
            x_max = x_max.max(x);
            y_min = y_min.min(y);
            y_max = y_max.max(y);
        }
        // Room for the node, its marks (top right) and lock cross (bottom left).
        let pad = 2.0 + f64::from(d) * 0.7;
        let points = layout.iter().map(|&(x, y)| (pad + (x - x_min) * k, pad + (y - y_min) * k)).collect();
        let net_step = match graph.kind {
            GraphKind::CubeSurface(n) => Some(1.0 / (4 * n) as f64),
            _ => None,
        };
        let edges = graph
            .edges()
            .map(|(a, b)| {
                let (pa, pb) = (layout[a], layout[b]);
                let far = net_step.is_some_and(|step| (pa.0 - pb.0).hypot(pa.1 - pb.1) > 1.01 * step);
                (a, b, far)
            })
            .collect();
        GraphPicture {
            points,
            edges,
            holes,
            d,
            w: ((x_max - x_min) * k + 2.0 * pad).ceil() as u32,
            h: ((y_max - y_min) * k + 2.0 * pad).ceil() as u32,
        }
    }

    fn centre(&self, x0: u32, y0: u32, i: usize) -> (f64, f64) {
        (f64::from(x0) + self.points[i].0, f64::from(y0) + self.points[i].1)
    }

    /// The nodes that are drawn (not holes) and their centres.
    fn nodes(&self, x0: u32, y0: u32) -> impl Iterator<Item = (usize, (f64, f64))> + '_ {
        (0..self.points.len()).filter(|&i| !self.holes[i]).map(move |i| (i, self.centre(x0, y0, i)))
    }

    /// Nodes large enough for grid-style details (crossed locks, marks).
    fn detailed(&self) -> bool {
        self.d >= GRID_MIN_CELL
    }
}

/// A lower bound of the smallest distance between two points (exact when
/// it is below `1/√n`): points are bucketed on a grid of that pitch and only
/// neighbouring buckets are compared.
fn min_distance(points: &[(f64, f64)]) -> f64 {
    let n = points.len();
    if n < 2 {
        return 1.0;
    }
    let pitch = 1.0 / (n as f64).sqrt();
    let key = |&(x, y): &(f64, f64)| ((x / pitch).floor() as i64, (y / pitch).floor() as i64);
    let mut buckets: HashMap<(i64, i64), Vec<usize>> = HashMap::new();
    for (i, p) in points.iter().enumerate() {
        buckets.entry(key(p)).or_default().push(i);
    }
    let mut best = pitch;
    for (i, p) in points.iter().enumerate() {
        let (bx, by) = key(p);
        for dx in -1..=1 {
            for dy in -1..=1 {
                for &j in buckets.get(&(bx + dx, by + dy)).map_or(&[][..], Vec::as_slice) {
                    if j > i {
                        best = best.min((p.0 - points[j].0).hypot(p.1 - points[j].1));
                    }
                }
            }
        }
    }
    best
}

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

/// One panel of a graph at (x0, y0): `<g id="{id}-edges">` (a line per
/// edge), `<g id="{id}-cells">` (a circle per node, coloured by value), the
/// crosses on `locked` nodes and, when nodes are large enough,
/// `<g id="{id}-labels">` (the node numbers, over the crosses so they stay
/// readable). Numbers the graph leaves out are not drawn.
///
/// With `numbers` (`(W, beside_marks)`), each node's state is written in it
/// instead (`<g id="{id}-numbers">`, `<text class="cell-number">`, a little
/// down and left when the overlay's badges sit at the nodes' top right) and
/// its node number moves beside it, small, at its bottom right (grey with a
/// white halo); the lock cross keeps the bottom left.
#[allow(clippy::too_many_arguments)]
fn draw_graph(
    out: &mut String,
    gp: &GraphPicture,
    id: &str,
    (x0, y0): (u32, u32),
    values: &[u32],
    colour: &dyn Fn(u32) -> Rgb,
    locked: Option<&[bool]>,
    numbers: Option<(u32, bool)>,
) {
    let d = f64::from(gp.d);
    let width = (d / 16.0).max(1.0);
    let _ = writeln!(out, r#"<g id="{id}-edges" stroke="{EDGE}" stroke-width="{}">"#, num(width));
    for &(a, b, glued) in &gp.edges {
        let ((xa, ya), (xb, yb)) = (gp.centre(x0, y0, a), gp.centre(x0, y0, b));
        let style = if glued { r#" stroke-dasharray="4 3" stroke-opacity="0.45""# } else { "" };
        let _ = writeln!(out, r#"<line x1="{}" y1="{}" x2="{}" y2="{}"{style}/>"#, num(xa), num(ya), num(xb), num(yb));
    }
    out.push_str("</g>\n");
    let stroke = if gp.detailed() { (d / 20.0).max(1.0) } else { 0.5 };
    let _ = writeln!(out, r#"<g id="{id}-cells" stroke="{GRID}" stroke-width="{}">"#, num(stroke));
    for (i, (cx, cy)) in gp.nodes(x0, y0) {
        let v = values[i];
        let _ = writeln!(
            out,
            r#"<circle cx="{}" cy="{}" r="{}" fill="{}" data-node="{}"/>"#,
            num(cx),
            num(cy),
            num(d / 2.0),
            colour(v),
            i + 1
        );
    }
    out.push_str("</g>\n");
    if let Some(locked) = locked {
        draw_graph_locked(out, gp, x0, y0, locked);
    }
    if gp.d < NODE_NUMBER_MIN {
        return;
    }
    if let Some((w, beside_marks)) = numbers {
        let len = digits(w.saturating_sub(1) as usize) as f64;
        let size = (d * 0.42).min(d * 0.7 / (len * 0.62));
        let shift = if beside_marks { d * 0.05 } else { 0.0 };
        let _ =
            writeln!(out, r#"<g id="{id}-numbers" font-size="{}" font-weight="bold" text-anchor="middle">"#, num(size));
        for (i, (cx, cy)) in gp.nodes(x0, y0) {
            let v = values[i];
            let _ = writeln!(
                out,
                r#"<text class="cell-number" x="{}" y="{}" fill="{}">{v}</text>"#,
                num(cx - shift),
                num(cy + shift + size * 0.36),
                ink_on(colour(v))
            );
        }
        out.push_str("</g>\n");
        let size = (d * 0.3).clamp(8.0, 12.0);
        let _ = writeln!(
            out,
            r#"<g id="{id}-labels" font-size="{}" fill="{MUTED}" stroke="{PAGE}" stroke-width="{}" stroke-linejoin="round" paint-order="stroke">"#,
            num(size),
            num(size * 0.3)
        );
        for (i, (cx, cy)) in gp.nodes(x0, y0) {
            let _ = writeln!(
                out,
                r#"<text x="{}" y="{}">{}</text>"#,
                num(cx + d * 0.34),
                num(cy + d * 0.34 + size * 0.75),
                i + 1
            );
        }
        out.push_str("</g>\n");
        return;
    }
    let digits_max = digits(values.len()) as f64;
    let size = (d * 0.45).min(d * 0.85 / (digits_max * 0.62)).min(14.0);
    let _ = writeln!(out, r#"<g id="{id}-labels" font-size="{}" text-anchor="middle">"#, num(size));
    for (i, (cx, cy)) in gp.nodes(x0, y0) {
        let v = values[i];
        let _ = writeln!(
            out,
            r#"<text x="{}" y="{}" fill="{}">{}</text>"#,
            num(cx),
            num(cy + size * 0.36),
            ink_on(colour(v)),
            i + 1
        );
    }
    out.push_str("</g>\n");
}

/// Locked nodes: a cross at the bottom left of each (the node's number
/// stays readable; the overlay's marks sit at the top right).
fn draw_graph_locked(out: &mut String, gp: &GraphPicture, x0: u32, y0: u32, locked: &[bool]) {
    if !locked.iter().any(|&l| l) {
        return;
    }
    let d = f64::from(gp.d);
    let centres = locked.iter().enumerate().filter(|(_, &l)| l).map(|(i, _)| {
        let (cx, cy) = gp.centre(x0, y0, i);
        (cx - d * 0.36, cy + d * 0.36)
    });
    draw_crosses(out, centres, (d * 0.36).max(4.0), (d / 14.0).max(1.5));
}

/// The overlay's marks on a graph: a badge at the top right of each node
/// (the node's number stays readable), with the value when W > 2.
fn draw_graph_marks(out: &mut String, gp: &GraphPicture, x0: u32, y0: u32, o: &Overlay, w: u32) {
    let d = f64::from(gp.d);
    let r = if w > 2 { (d * 0.3).max(4.0) } else { (d * 0.22).max(3.0) };
    let stroke = (d / 20.0).max(1.0);
    draw_mark_dots(out, o, w, (r, r * 1.16), stroke, &|i| {
        let (cx, cy) = gp.centre(x0, y0, i);
        (cx + d * 0.36, cy - d * 0.36)
    });
}

/// The geometry of the cells: a board, or a graph.
enum Geometry {
    Board(Board),
    Graph(GraphPicture),
}

impl Geometry {
    /// The detailed style (grid lines, numbers, crossed locks, marks).
    fn detailed(&self) -> bool {
        match self {
            Geometry::Board(b) => b.grid,
            Geometry::Graph(gp) => gp.detailed(),
        }
    }

    fn cell(&self) -> u32 {
        match self {
            Geometry::Board(b) => b.s,
            Geometry::Graph(gp) => gp.d,
        }
    }

    fn panel_w(&self) -> u32 {
        match self {
            Geometry::Board(b) => b.panel_w(),
            Geometry::Graph(gp) => gp.w,
        }
    }

    fn board_h(&self) -> u32 {
        match self {
            Geometry::Board(b) => b.board_h(),
            Geometry::Graph(gp) => gp.h,
        }
    }

    /// From a panel's left edge to the board: the row numbers and the band
    /// of the left gluing arrow.
    fn left(&self) -> u32 {
        match self {
            Geometry::Board(b) => b.label_w + b.band_x,
            Geometry::Graph(_) => 0,
        }
    }

    /// Above the board: the column numbers and the band of the top gluing arrow.
    fn top(&self) -> u32 {
        match self {
            Geometry::Board(b) => b.label_h + b.band_y,
            Geometry::Graph(_) => 0,
        }
    }

    /// Below the board: the band of the bottom gluing arrow.
    fn below(&self) -> u32 {
        match self {
            Geometry::Board(b) => b.band_y,
            Geometry::Graph(_) => 0,
        }
    }

    /// Whether any border is glued (so the picture has gluing arrows).
    fn glued(&self) -> bool {
        matches!(self, Geometry::Board(b) if b.band_x > 0 || b.band_y > 0)
    }

    /// Whether the cells can hold their state number.
    fn holds_numbers(&self) -> bool {
        match self {
            Geometry::Board(b) => b.grid && b.s >= NUMBERS_MIN_CELL,
            Geometry::Graph(gp) => gp.d >= NUMBERS_MIN_CELL,
        }
    }

    /// Locked buttons are hatched rather than crossed.
    fn hatched(&self) -> bool {
        matches!(self, Geometry::Board(b) if !b.grid)
    }

    /// One panel's cells (with the locked buttons marked when `locked` is
    /// given), the gluing arrows around a board, and the state numbers when
    /// `numbers` is given: `(W, beside_marks)`, the latter when the overlay's
    /// badges share the cells.
    #[allow(clippy::too_many_arguments)]
    fn cells(
        &self,
        out: &mut String,
        id: &str,
        (x0, y0): (u32, u32),
        values: &[u32],
        colour: &dyn Fn(u32) -> Rgb,
        locked: Option<&[bool]>,
        numbers: Option<(u32, bool)>,
    ) {
        match self {
            Geometry::Board(b) => {
                draw_labels(out, b, id, x0, y0);
                draw_cells(out, b, id, x0, y0, values, colour);
                if let Some(locked) = locked {
                    draw_locked(out, b, x0, y0, locked);
                }
                draw_gluing(out, b, id, x0, y0);
                if let Some((w, beside_marks)) = numbers {
                    draw_numbers(out, b, id, (x0, y0), values, w, colour, locked, beside_marks);
                }
            }
            Geometry::Graph(gp) => draw_graph(out, gp, id, (x0, y0), values, colour, locked, numbers),
        }
    }

    fn marks(&self, out: &mut String, x0: u32, y0: u32, o: &Overlay, w: u32, beside_numbers: bool) {
        match self {
            Geometry::Board(b) => draw_marks(out, b, x0, y0, o, w, beside_numbers),
            Geometry::Graph(gp) => draw_graph_marks(out, gp, x0, y0, o, w),
        }
    }
}

/// Greedy word wrap to an estimated width.
fn wrap(text: &str, size: f64, width: f64) -> Vec<String> {
    let mut lines = Vec::new();
    let mut line = String::new();
    for word in text.split(' ') {
        let candidate = if line.is_empty() { word.to_string() } else { format!("{line} {word}") };
        if !line.is_empty() && text_width(&candidate, size, false) > width {
            lines.push(std::mem::replace(&mut line, word.to_string()));
        } else {
            line = candidate;
        }
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
}

/// Draw a puzzle as SVG: title, lights (and goal) panels, the overlay chosen
/// by `options.show` from `report`, and a legend.
///
/// `report` is the solver's answer for `p`; `None` when it was not solved
/// (then only [`Show::Lights`] is possible).
pub fn svg(p: &Puzzle, report: Option<&Report>, options: &Options) -> Result<Picture, PictureError> {
    if p.cells() > MAX_DRAWN_CELLS && !p.is_graph() {
        return Err(PictureError::BoardTooLarge { rows: p.rows, cols: p.cols });
    }
    if let Some(n) = options.cell.filter(|&n| n == 0 || n > MAX_CELL_PX) {
        return Err(PictureError::BadCellSize(n));
    }
    let geo = match &p.shape {
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
    };
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

    let has_goal = p.goal.any_nonzero();
    let overlay_panel = overlay.is_some() && !marks_on_board;
    // `locked` also holds the holes (they have no button); they are drawn as holes.
    let locked: Vec<bool> = (0..p.cells()).map(|i| p.is_locked(i) && !p.is_hole(i)).collect();
    let locked_count = locked.iter().filter(|&&l| l).count();
    let locked_any = locked_count > 0;
    let holes = (0..p.cells()).filter(|&i| p.is_hole(i)).count();

    // Text.
    let title = p.header.name.clone();
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
    if locked_count > 0 {
        let _ = write!(subtitle, " · {locked_count} locked");
    }
    let _ = write!(subtitle, " · {}", result_line(report));

    // Horizontal layout of the panels.
    let mut panels: Vec<(&str, String)> = vec![("lights", "lights".to_string())];
    if has_goal {
        panels.push(("goal", "goal".to_string()));
    }
    if overlay_panel {
        if let Some(o) = &overlay {
            panels.push(("overlay", o.caption.clone()));
        }
    }
    let panel_w = geo.panel_w();
    let captions_w = panels.iter().map(|(_, c)| text_width(c, CAPTION_SIZE, true).ceil() as u32).max().unwrap_or(0);
    let column_w = panel_w.max(captions_w);
    let content_w = column_w * panels.len() as u32 + PANEL_GAP * (panels.len() as u32 - 1);

    // Legend lines (swatches + wrapped text), wrapped to the width of the
    // panels and title (or a minimum).
    let base_w =
        f64::from(content_w).max(text_width(&title, TITLE_SIZE, true)).max(text_width(&subtitle, SUBTITLE_SIZE, false));
    let text_w = base_w.max(MIN_TEXT_WIDTH);
    let mut legend_lines: Vec<LegendLine> = Vec::new();
    let mut states_text = states_legend_text(w);
    if numbers {
        states_text.push_str(if p.is_graph() {
            ", the state written in each node (its node number beside it)"
        } else {
            ", the state written on each cell"
        });
    }
    legend_lines.push(LegendLine { swatch: LegendSwatch::States, text: states_text });
    if geo.glued() {
        legend_lines.push(LegendLine {
            swatch: LegendSwatch::Arrow,
            text: "arrows: borders glued — same direction: glued as is; opposite: glued with a twist \
                   (one head: the left and right borders; two heads: the top and bottom ones)"
                .into(),
        });
    }
    if locked_any {
        legend_lines.push(LegendLine {
            swatch: LegendSwatch::Locked { grid: !geo.hatched() },
            text: "locked: this button cannot be pressed".into(),
        });
    }
    if holes > 0 && !p.is_graph() {
        legend_lines
            .push(LegendLine { swatch: LegendSwatch::None, text: "blank: a hole, with no light and no button".into() });
    }
    if matches!(&geo, Geometry::Graph(gp) if gp.edges.iter().any(|e| e.2)) {
        legend_lines.push(LegendLine {
            swatch: LegendSwatch::None,
            text: "dashed lines: edges that join faces across the cube, not side by side in the unfolded net".into(),
        });
    }
    if has_goal {
        legend_lines.push(LegendLine {
            swatch: LegendSwatch::None,
            text: "goal: the lights must end as in the goal panel (colours as for the lights)".into(),
        });
    }
    if let Some(o) = &overlay {
        let swatch = if overlay_panel {
            LegendSwatch::OverlayScale { mark: o.mark, w }
        } else {
            LegendSwatch::Mark { mark: o.mark, numbered: w > 2 }
        };
        legend_lines.push(LegendLine { swatch, text: o.meaning.clone() });
    }
    for note in &notes {
        legend_lines.push(LegendLine { swatch: LegendSwatch::None, text: note.clone() });
    }
    let mut legend_w = 0f64;
    let legend: Vec<(LegendSwatch, Vec<String>)> = legend_lines
        .into_iter()
        .map(|line| {
            let sw = line.swatch.width(w);
            let lines = wrap(&line.text, LEGEND_SIZE, text_w - f64::from(sw));
            for l in &lines {
                legend_w = legend_w.max(f64::from(sw) + text_width(l, LEGEND_SIZE, false));
            }
            (line.swatch, lines)
        })
        .collect();

    let inner_w = base_w.max(legend_w).ceil() as u32;
    let width = inner_w + 2 * MARGIN;

    // Vertical layout.
    let title_y = MARGIN + 15;
    let subtitle_y = title_y + 22;
    let caption_y = subtitle_y + 28;
    let board_y = caption_y + 10 + geo.top();
    let legend_y = board_y + geo.board_h() + geo.below() + 20;
    let legend_h: u32 = legend.iter().map(|(_, lines)| 6 + 16 * lines.len().max(1) as u32).sum();
    let height = legend_y + legend_h + MARGIN;

    let mut out = String::with_capacity(4096 + p.cells() * if geo.detailed() { 70 } else { 8 });
    let _ = writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" font-family="{FONTS}">"#
    );
    let _ = writeln!(out, "<title>{}</title>", escape(&format!("{title} — {subtitle}")));
    if locked_any && geo.hatched() {
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

    let lights: Vec<u32> = p.lights.iter().map(u32::from).collect();
    let goal: Vec<u32> = p.goal.iter().map(u32::from).collect();
    for (k, (id, caption)) in panels.iter().enumerate() {
        let px = MARGIN + k as u32 * (column_w + PANEL_GAP);
        let bx = px + geo.left();
        let _ = writeln!(out, r#"<g id="{id}">"#);
        let _ = writeln!(
            out,
            r#"<text x="{px}" y="{caption_y}" font-size="{}" font-weight="bold" fill="{INK}">{}</text>"#,
            num(CAPTION_SIZE),
            escape(caption)
        );
        match *id {
            "lights" => {
                let marks = overlay.as_ref().filter(|_| marks_on_board);
                let shown = numbers.then_some((w, beside && marks.is_some()));
                geo.cells(&mut out, id, (bx, board_y), &lights, &|v| state_colour(v, w), Some(&locked), shown);
                if let Some(o) = marks {
                    geo.marks(&mut out, bx, board_y, o, w, beside && !p.is_graph());
                }
            }
            "goal" => {
                let shown = numbers.then_some((w, false));
                geo.cells(&mut out, id, (bx, board_y), &goal, &|v| state_colour(v, w), None, shown);
            }
            _ => {
                if let Some(o) = &overlay {
                    let colour = |v| overlay_colour(v, w, o.mark);
                    geo.cells(&mut out, id, (bx, board_y), &o.values, &colour, None, None);
                }
            }
        }
        out.push_str("</g>\n");
    }

    // Legend.
    let _ = writeln!(out, r#"<g id="legend" font-size="{}" fill="{INK}">"#, num(LEGEND_SIZE));
    let mut y = legend_y;
    for (swatch, lines) in &legend {
        swatch.draw(&mut out, MARGIN, y, w);
        let tx = MARGIN + swatch.width(w);
        for (i, line) in lines.iter().enumerate() {
            let _ = writeln!(out, r#"<text x="{tx}" y="{}">{}</text>"#, y + 12 + 16 * i as u32, escape(line));
        }
        y += 6 + 16 * lines.len().max(1) as u32;
    }
    out.push_str("</g>\n</svg>\n");
    Ok(Picture { svg: out, width, height, show, cell: s, numbers, notes })
}

struct LegendLine {
    swatch: LegendSwatch,
    text: String,
}

#[derive(Clone, Copy)]
enum LegendSwatch {
    None,
    /// The light states: off/on, a swatch per state, or a gradient.
    States,
    Locked {
        grid: bool,
    },
    /// A mark as drawn on the board.
    Mark {
        mark: Rgb,
        numbered: bool,
    },
    /// The overlay panel's colours.
    OverlayScale {
        mark: Rgb,
        w: u32,
    },
    /// A gluing arrow.
    Arrow,
}

fn states_legend_text(w: u32) -> String {
    if w == 2 {
        "lights: off, on".into()
    } else if w <= LEGEND_SWATCHES_MAX {
        format!("lights: states 0 (off) to {} (fully on)", w - 1)
    } else {
        format!("lights: states 0 (off, left) to {} (fully on, right)", w - 1)
    }
}

impl LegendSwatch {
    /// Width taken before the text.
    fn width(&self, w: u32) -> u32 {
        match self {
            LegendSwatch::None => 0,
            LegendSwatch::States if w == 2 => 2 * (SWATCH + 4) + 6,
            LegendSwatch::States if w <= LEGEND_SWATCHES_MAX => w * (SWATCH + 2) + 8,
            LegendSwatch::States => 120 + 8,
            LegendSwatch::OverlayScale { w, .. } if *w > 2 => 60 + 8,
            LegendSwatch::Arrow => 24 + 8,
            _ => SWATCH + 8,
        }
    }

    fn draw(&self, out: &mut String, x: u32, y: u32, w: u32) {
        let sq = |out: &mut String, x: u32, fill: &str| {
            let _ = writeln!(
                out,
                r#"<rect x="{x}" y="{}" width="{SWATCH}" height="{SWATCH}" fill="{fill}" stroke="{GRID}" stroke-width="1"/>"#,
                y + 1
            );
        };
        let gradient = |out: &mut String, id: &str, from: Rgb, stops: &[(f64, Rgb)], width: u32| {
            let _ = write!(out, r#"<defs><linearGradient id="{id}"><stop offset="0" stop-color="{from}"/>"#);
            for (t, c) in stops {
                let _ = write!(out, r#"<stop offset="{}" stop-color="{c}"/>"#, num(*t));
            }
            let _ = writeln!(out, "</linearGradient></defs>");
            let _ = writeln!(
                out,
                r#"<rect x="{x}" y="{}" width="{width}" height="{SWATCH}" fill="url(#{id})" stroke="{GRID}" stroke-width="1"/>"#,
                y + 1
            );
        };
        match *self {
            LegendSwatch::None => {}
            LegendSwatch::States if w == 2 => {
                sq(out, x, &state_colour(0, 2).to_string());
                sq(out, x + SWATCH + 4, &state_colour(1, 2).to_string());
            }
            LegendSwatch::States if w <= LEGEND_SWATCHES_MAX => {
                for v in 0..w {
                    sq(out, x + v * (SWATCH + 2), &state_colour(v, w).to_string());
                }
            }
            LegendSwatch::States => {
                let stops: Vec<(f64, Rgb)> = (1..RAMP.len()).map(|i| (i as f64 / 3.0, RAMP[i])).collect();
                gradient(out, "states-scale", RAMP[0], &stops, 120);
            }
            LegendSwatch::Locked { grid } => {
                if grid {
                    sq(out, x, &RAMP[3].to_string());
                    for (stroke, width) in [(LOCKED_HALO, 3.5), (LOCKED_STROKE, 1.5)] {
                        let _ = writeln!(
                            out,
                            r#"<path d="M{} {}l8 8m0 -8l-8 8" fill="none" stroke="{stroke}" stroke-width="{width}" stroke-linecap="round"/>"#,
                            x + 3,
                            y + 4
                        );
                    }
                } else {
                    sq(out, x, &RAMP[3].to_string());
                    let _ = writeln!(
                        out,
                        r#"<rect x="{x}" y="{}" width="{SWATCH}" height="{SWATCH}" fill="url(#hatch)"/>"#,
                        y + 1
                    );
                }
            }
            LegendSwatch::Mark { mark, numbered } => {
                sq(out, x, &RAMP[0].to_string());
                let c = f64::from(SWATCH) / 2.0;
                let r = if numbered { 6.0 } else { 4.0 };
                let _ = writeln!(
                    out,
                    r##"<circle cx="{}" cy="{}" r="{}" fill="{mark}" stroke="#ffffff" stroke-width="1"/>"##,
                    num(f64::from(x) + c),
                    num(f64::from(y + 1) + c),
                    num(r)
                );
            }
            LegendSwatch::Arrow => {
                let cy = y + 1 + SWATCH / 2;
                let _ = writeln!(
                    out,
                    r#"<path d="M{} {cy}h22m-6 -4l6 4l-6 4" fill="none" stroke="{GLUE}" stroke-width="2" stroke-linecap="round" stroke-linejoin="round"/>"#,
                    x + 1
                );
            }
            LegendSwatch::OverlayScale { mark, w } => {
                if w > 2 {
                    gradient(
                        out,
                        "overlay-scale",
                        overlay_colour(1, w, mark),
                        &[(1.0, overlay_colour(w - 1, w, mark))],
                        60,
                    );
                } else {
                    sq(out, x, &overlay_colour(1, w, mark).to_string());
                }
            }
        }
    }
}

// ---------------------------------------------------------------------------
// PNG.

/// A rendered PNG.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Png {
    pub data: Vec<u8>,
    pub width: u32,
    pub height: u32,
    /// Whether any font was found to draw the text with (without one the
    /// picture has no text).
    pub has_fonts: bool,
}

/// The system's fonts, loaded once; the sans-serif family is set to the
/// first available of the picture's preferred faces.
fn fonts() -> Arc<usvg::fontdb::Database> {
    static FONTS_DB: OnceLock<Arc<usvg::fontdb::Database>> = OnceLock::new();
    FONTS_DB
        .get_or_init(|| {
            let mut db = usvg::fontdb::Database::new();
            db.load_system_fonts();
            let has = |name: &str| db.faces().any(|f| f.families.iter().any(|(n, _)| n == name));
            let preferred = ["DejaVu Sans", "Verdana", "Arial", "Helvetica", "Liberation Sans", "Noto Sans"];
            let family = preferred
                .iter()
                .find(|n| has(n))
                .map(|n| n.to_string())
                .or_else(|| db.faces().next().and_then(|f| f.families.first()).map(|(n, _)| n.clone()));
            if let Some(family) = family {
                db.set_sans_serif_family(family.clone());
                db.set_serif_family(family);
            }
            Arc::new(db)
        })
        .clone()
}

/// Render an SVG (such as [`svg`]'s) to PNG bytes: usvg parses it, resvg
/// draws it into a tiny-skia pixmap, which encodes itself as PNG.
///
/// The pixel cap is checked on the root's `width` and `height` before the
/// SVG is parsed: parsing lays out every text (a 200,000-character name
/// took seconds and hundreds of megabytes) only to be refused.
pub fn png(svg: &str) -> Result<Png, PictureError> {
    if let Some((width, height)) = root_size(svg) {
        if width.saturating_mul(height) > MAX_PNG_PIXELS {
            return Err(PictureError::ImageTooLarge { width, height });
        }
    }
    let db = fonts();
    let has_fonts = !db.is_empty();
    let options = usvg::Options { fontdb: db, ..usvg::Options::default() };
    let tree = usvg::Tree::from_str(svg, &options).map_err(|e| PictureError::Render(e.to_string()))?;
    let size = tree.size().to_int_size();
    let (width, height) = (size.width(), size.height());
    if u64::from(width) * u64::from(height) > MAX_PNG_PIXELS {
        return Err(PictureError::ImageTooLarge { width: width.into(), height: height.into() });
    }
    let mut pixmap = tiny_skia::Pixmap::new(width, height)
        .ok_or_else(|| PictureError::Render(format!("cannot allocate a {width}×{height} image")))?;
    resvg::render(&tree, tiny_skia::Transform::default(), &mut pixmap.as_mut());
    let data = pixmap.encode_png().map_err(|e| PictureError::Render(e.to_string()))?;
    Ok(Png { data, width, height, has_fonts })
}

/// The `width` and `height` of the root `<svg …>` tag, when both are whole
/// numbers (as [`svg`] writes them); `None` otherwise (usvg then decides).
fn root_size(svg: &str) -> Option<(u64, u64)> {
    let start = svg.find("<svg")?;
    let tag = &svg[start..start + svg[start..].find('>')?];
    let attribute = |name: &str| -> Option<u64> {
        let at = tag.find(&format!(" {name}=\""))? + name.len() + 3;
        tag[at..].split('"').next()?.parse().ok()
    };
    Some((attribute("width")?, attribute("height")?))
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

    #[test]
    fn the_pixel_cap_is_checked_before_the_svg_is_parsed() {
        // Past the root tag this is not even SVG: parsing it would fail, so
        // an ImageTooLarge answer shows nothing was parsed or laid out.
        let svg = format!(
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="2000000" height="300">{}"#,
            "<text>".repeat(1000)
        );
        assert!(matches!(png(&svg), Err(PictureError::ImageTooLarge { width: 2_000_000, height: 300 })));
        assert_eq!(root_size(r#"<?xml?><svg width="12" viewBox="0 0 1 1" height="34">"#), Some((12, 34)));
        assert_eq!(root_size(r#"<svg width="1.5" height="3">"#), None);
        assert_eq!(root_size("<svg width=\"1\""), None);
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
