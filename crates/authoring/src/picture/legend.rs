//! The legend under the panels: a swatch and wrapped text per line.

use super::*;

/// Greedy word wrap to an estimated width.
pub(super) fn wrap(text: &str, size: f64, width: f64) -> Vec<String> {
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

pub(super) struct LegendLine {
    pub(super) swatch: LegendSwatch,
    pub(super) text: String,
}

#[derive(Clone, Copy)]
pub(super) enum LegendSwatch {
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

pub(super) fn states_legend_text(w: u32) -> String {
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
    pub(super) fn width(&self, w: u32) -> u32 {
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

    pub(super) fn draw(&self, out: &mut String, x: u32, y: u32, w: u32) {
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

impl Scene<'_> {
    /// The legend's lines: the states, the gluing arrows, the locked
    /// buttons, the holes, the dashed edges, the goal, the overlay and the
    /// notes, each when the picture has it.
    pub(super) fn legend_lines(&self) -> Vec<LegendLine> {
        let (p, w) = (self.p, self.w);
        let mut legend_lines: Vec<LegendLine> = Vec::new();
        let mut states_text = states_legend_text(w);
        if self.numbers {
            states_text.push_str(if p.is_graph() {
                ", the state written in each node (its node number beside it)"
            } else {
                ", the state written on each cell"
            });
        }
        legend_lines.push(LegendLine { swatch: LegendSwatch::States, text: states_text });
        if self.geo.glued() {
            legend_lines.push(LegendLine {
                swatch: LegendSwatch::Arrow,
                text: "arrows: borders glued — same direction: glued as is; opposite: glued with a twist \
                       (one head: the left and right borders; two heads: the top and bottom ones)"
                    .into(),
            });
        }
        if self.locked_count > 0 {
            legend_lines.push(LegendLine {
                swatch: LegendSwatch::Locked { grid: !self.geo.hatched() },
                text: "locked: this button cannot be pressed".into(),
            });
        }
        if self.holes > 0 && !p.is_graph() {
            legend_lines.push(LegendLine {
                swatch: LegendSwatch::None,
                text: "blank: a hole, with no light and no button".into(),
            });
        }
        if matches!(&self.geo, Geometry::Graph(gp) if gp.edges.iter().any(|e| e.2)) {
            legend_lines.push(LegendLine {
                swatch: LegendSwatch::None,
                text: "dashed lines: edges that join faces across the cube, not side by side in the unfolded net"
                    .into(),
            });
        }
        if self.has_goal() {
            legend_lines.push(LegendLine {
                swatch: LegendSwatch::None,
                text: "goal: the lights must end as in the goal panel (colours as for the lights)".into(),
            });
        }
        if let Some(o) = &self.overlay {
            let swatch = if self.overlay_panel() {
                LegendSwatch::OverlayScale { mark: o.mark, w }
            } else {
                LegendSwatch::Mark { mark: o.mark, numbered: w > 2 }
            };
            legend_lines.push(LegendLine { swatch, text: o.meaning.clone() });
        }
        for note in &self.notes {
            legend_lines.push(LegendLine { swatch: LegendSwatch::None, text: note.clone() });
        }
        legend_lines
    }
}

/// The legend's lines wrapped to `text_w` (less their swatch), and the
/// width of the widest.
pub(super) fn wrap_legend(lines: Vec<LegendLine>, w: u32, text_w: f64) -> (Vec<(LegendSwatch, Vec<String>)>, f64) {
    let mut legend_w = 0f64;
    let legend = lines
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
    (legend, legend_w)
}

/// The legend, its first line at `y`: `<g id="legend">`.
pub(super) fn draw_legend(out: &mut String, legend: &[(LegendSwatch, Vec<String>)], y: u32, w: u32) {
    let _ = writeln!(out, r#"<g id="legend" font-size="{}" fill="{INK}">"#, num(LEGEND_SIZE));
    let mut y = y;
    for (swatch, lines) in legend {
        swatch.draw(out, MARGIN, y, w);
        let tx = MARGIN + swatch.width(w);
        for (i, line) in lines.iter().enumerate() {
            let _ = writeln!(out, r#"<text x="{tx}" y="{}">{}</text>"#, y + 12 + 16 * i as u32, escape(line));
        }
        y += 6 + 16 * lines.len().max(1) as u32;
    }
    out.push_str("</g>\n");
}
