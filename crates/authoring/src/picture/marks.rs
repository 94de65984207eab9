//! Marks shared by boards and graphs: the crosses on locked buttons and
//! the overlay's dots.

use super::*;

/// Crosses centred on the given points, `d` pixels wide: a light cross with
/// a dark halo, visible on dark and on bright cells.
pub(super) fn draw_crosses(out: &mut String, centres: impl Iterator<Item = (f64, f64)>, d: f64, width: f64) {
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

/// The overlay's marks: a dot of radius `r` per nonzero cell at
/// `centre(i)`, with the value written in it (at most `text_max` px high)
/// when W > 2.
pub(super) fn draw_mark_dots(
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
