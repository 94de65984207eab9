//! Square and hexagonal boards: the cells' geometry ([`Board`]) and what is
//! drawn on them (cells, row and column numbers, locked buttons, marks,
//! state numbers), in the detailed and the compact style.

use std::collections::BTreeMap;

use lights_compiler::model::Gluing;

use super::*;

/// √3, for hexagons.
pub(super) const SQRT3: f64 = 1.732_050_807_568_877_2;

/// Geometry shared by the panels of a board (square or hexagonal cells).
///
/// Square cells sit on a pitch of `s` pixels. Hexagons are pointy-topped,
/// `s` pixels across their flats: a row's centres are `s` apart, rows are
/// `s·√3/2` apart, and every second row (0-based odd) is shifted right by
/// half a cell, as the language lays them out. In the compact style a
/// hexagon is drawn as an `s`×`s` brick (odd rows still shifted by half a
/// cell), which has the same six neighbours.
pub(super) struct Board {
    pub(super) rows: usize,
    pub(super) cols: usize,
    /// Cell pitch.
    pub(super) s: u32,
    /// Grid line width (0 in the compact style).
    pub(super) g: u32,
    pub(super) grid: bool,
    pub(super) hex: bool,
    /// Per cell, row-major: no cell there. Empty when the board has no holes.
    pub(super) holes: Vec<bool>,
    /// Space for row numbers (left) and column numbers (top).
    pub(super) label_w: u32,
    pub(super) label_h: u32,
    pub(super) label_size: f64,
    /// Label every `step`-th row/column; a label needs this many pixels.
    pub(super) row_step: usize,
    pub(super) col_step: usize,
    pub(super) row_need: f64,
    pub(super) col_need: f64,
    /// How the left/right and the top/bottom borders are glued.
    pub(super) glue_cols: Gluing,
    pub(super) glue_rows: Gluing,
    /// Width of the band left and right of the board (and height of the one
    /// above and below it) that holds the gluing arrows; 0 for open borders.
    pub(super) band_x: u32,
    pub(super) band_y: u32,
}

impl Board {
    pub(super) fn new(p: &Puzzle, s: u32) -> Board {
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
    pub(super) fn band(&self) -> u32 {
        let short_side = f64::from(self.board_w().min(self.board_h()));
        (f64::from(self.s) * 0.4).max(short_side / 50.0).round().clamp(10.0, 16.0) as u32
    }

    pub(super) fn hole(&self, i: usize) -> bool {
        !self.holes.is_empty() && self.holes[i]
    }

    /// Half a cell, for the shifted rows of a hexagonal board (0 when
    /// there is only one row).
    pub(super) fn half(&self) -> u32 {
        if self.hex && self.rows > 1 {
            self.s.div_ceil(2)
        } else {
            0
        }
    }

    /// The scale of the corner layout (state number and overlay badge in one
    /// cell): a hexagon has less room in its corners than a square.
    pub(super) fn corner_scale(&self) -> f64 {
        if self.hex {
            0.8
        } else {
            1.0
        }
    }

    /// Compact style: how far row `r` is shifted right.
    pub(super) fn row_shift(&self, r: usize) -> i64 {
        if self.hex && r % 2 == 1 {
            i64::from(self.s / 2)
        } else {
            0
        }
    }

    /// Detailed hexagons: the distance between row centres.
    pub(super) fn row_pitch(&self) -> f64 {
        f64::from(self.s) * SQRT3 / 2.0
    }

    pub(super) fn board_w(&self) -> u32 {
        if self.hex && !self.grid {
            return self.cols as u32 * self.s + if self.rows > 1 { self.s / 2 } else { 0 };
        }
        self.cols as u32 * self.s + self.half() + self.g
    }

    pub(super) fn board_h(&self) -> u32 {
        if self.hex && self.grid {
            let h = (self.rows - 1) as f64 * self.row_pitch() + 2.0 * f64::from(self.s) / SQRT3;
            return h.ceil() as u32 + self.g;
        }
        self.rows as u32 * self.s + self.g
    }

    pub(super) fn panel_w(&self) -> u32 {
        self.label_w + 2 * self.band_x + self.board_w()
    }

    /// The centre of cell `i` (detailed style) on a board whose top-left
    /// corner is (x0, y0).
    pub(super) fn centre(&self, x0: u32, y0: u32, i: usize) -> (f64, f64) {
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
    pub(super) fn hexagon(&self, x0: u32, y0: u32, i: usize) -> String {
        let (cx, cy) = self.centre(x0, y0, i);
        let (hw, r) = (f64::from(self.s) / 2.0, f64::from(self.s) / SQRT3);
        let corners = [(0.0, -r), (hw, -r / 2.0), (hw, r / 2.0), (0.0, r), (-hw, r / 2.0), (-hw, -r / 2.0)];
        let pts: Vec<String> = corners.iter().map(|(dx, dy)| format!("{},{}", num(cx + dx), num(cy + dy))).collect();
        pts.join(" ")
    }

    /// Compact style: a path of the row runs of cells for which `keep(i)`
    /// holds, each run `len·s` wide (plus `extra`) and `s + extra` high.
    pub(super) fn runs(&self, x0: u32, y0: u32, extra: u32, keep: &dyn Fn(usize) -> bool) -> (RunPath, usize) {
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
pub(super) fn draw_cells(
    out: &mut String,
    b: &Board,
    id: &str,
    x0: u32,
    y0: u32,
    values: &[u32],
    colour: &dyn Fn(u32) -> Rgb,
) {
    if b.grid && b.hex {
        draw_hexagons(out, b, id, (x0, y0), values, colour);
    } else if b.grid {
        draw_squares(out, b, id, (x0, y0), values, colour);
    } else {
        draw_compact(out, b, id, (x0, y0), values, colour);
    }
}

/// Detailed hexagons: a `<polygon>` per cell, the grid lines its stroke.
fn draw_hexagons(
    out: &mut String,
    b: &Board,
    id: &str,
    (x0, y0): (u32, u32),
    values: &[u32],
    colour: &dyn Fn(u32) -> Rgb,
) {
    let _ = writeln!(out, r#"<g id="{id}-cells" stroke="{GRID}" stroke-width="{}" stroke-linejoin="round">"#, b.g);
    for (i, &v) in values.iter().enumerate() {
        if !b.hole(i) {
            let _ = writeln!(out, r#"<polygon points="{}" fill="{}"/>"#, b.hexagon(x0, y0, i), colour(v));
        }
    }
    out.push_str("</g>\n");
}

/// Detailed squares: the grid lines as the background (around the cells
/// that are there), then a `<rect>` per cell.
fn draw_squares(
    out: &mut String,
    b: &Board,
    id: &str,
    (x0, y0): (u32, u32),
    values: &[u32],
    colour: &dyn Fn(u32) -> Rgb,
) {
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
}

/// Compact: the most frequent value is the background; every other value
/// is one path of row runs.
fn draw_compact(
    out: &mut String,
    b: &Board,
    id: &str,
    (x0, y0): (u32, u32),
    values: &[u32],
    colour: &dyn Fn(u32) -> Rgb,
) {
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
pub(super) fn for_each_run<T: PartialEq + Copy>(
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
pub(super) struct RunPath {
    pub(super) d: String,
    pub(super) at: Option<(i64, i64)>,
}

impl RunPath {
    pub(super) fn push(&mut self, x: i64, y: i64, w: usize, h: u32) {
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
pub(super) fn draw_labels(out: &mut String, b: &Board, id: &str, x0: u32, y0: u32) {
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

/// Locked buttons (holes are not locked buttons: they have none): a cross
/// per cell (detailed) or hatched runs (compact).
pub(super) fn draw_locked(out: &mut String, b: &Board, x0: u32, y0: u32, locked: &[bool]) {
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
pub(super) const HATCH_DEF: &str = r##"<pattern id="hatch" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)"><rect width="6" height="6" fill="#c4c8cf" fill-opacity="0.5"/><rect width="2" height="6" fill="#4b5563" fill-opacity="0.85"/></pattern>"##;

/// The overlay's marks on the lights: a dot per nonzero cell, with the value
/// written in it when W > 2; centred on the cell, or a smaller badge at its
/// top right when the cell also carries its state number (`beside_numbers`).
pub(super) fn draw_marks(out: &mut String, b: &Board, x0: u32, y0: u32, o: &Overlay, w: u32, beside_numbers: bool) {
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
pub(super) fn draw_numbers(out: &mut String, b: &Board, panel: &Panel, (w, beside_marks): (u32, bool)) {
    let Panel { id, origin: (x0, y0), values, colour, locked, .. } = *panel;
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
