//! The gluing arrows around a square or hexagonal board.

use lights_compiler::model::Gluing;

use super::*;

/// The colour of the gluing arrows.
pub(super) const GLUE: &str = "#1d4ed8";

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
pub(super) fn draw_gluing(out: &mut String, b: &Board, id: &str, x0: u32, y0: u32) {
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
