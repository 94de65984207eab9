//! The progression plot of a level pack (`lights pack --plot FILE.svg`): a
//! bar per level for its fewest presses, and a line for its difficulty,
//! each on its own scale, so an author sees at a glance where the pack gets
//! easier. A level easier (by the pack's order) than the one before it is
//! drawn red; a level that copies another is hatched grey.

use std::fmt::Write;

// The pictures' one escape for SVG text (control characters become U+FFFD).
use crate::picture::escape;

/// What the plot shows of one level.
#[derive(Clone, Debug)]
pub struct PlotLevel {
    pub name: String,
    pub minimum: Option<u64>,
    pub difficulty: Option<u64>,
    pub duplicate: bool,
    /// Easier than the level before it by the pack's order.
    pub out_of_order: bool,
}

/// The SVG text of the plot.
pub fn plot(title: &str, levels: &[PlotLevel]) -> String {
    let n = levels.len().max(1);
    let bar = (720.0 / n as f64).clamp(2.0, 28.0);
    let (left, right, top, bottom) = (56.0, 56.0, 40.0, 44.0);
    let plot_w = bar * n as f64;
    let plot_h = 240.0;
    let (width, height) = (left + plot_w + right, top + plot_h + bottom);
    let max_presses = levels.iter().filter_map(|l| l.minimum).max().unwrap_or(1).max(1) as f64;
    let max_difficulty = levels.iter().filter_map(|l| l.difficulty).max().unwrap_or(1).max(1) as f64;
    let mut s = String::new();
    let _ = writeln!(
        s,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width:.0}\" height=\"{height:.0}\" viewBox=\"0 0 {width:.0} {height:.0}\" font-family=\"sans-serif\" font-size=\"12\">"
    );
    let _ = writeln!(s, "<title>{}</title>", escape(title));
    let _ = writeln!(s, "<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>");
    let _ = writeln!(
        s,
        "<defs><pattern id=\"copy\" width=\"6\" height=\"6\" patternUnits=\"userSpaceOnUse\" patternTransform=\"rotate(45)\"><rect width=\"6\" height=\"6\" fill=\"#d0d0d0\"/><line x1=\"0\" y1=\"0\" x2=\"0\" y2=\"6\" stroke=\"#888\" stroke-width=\"2\"/></pattern></defs>"
    );
    let _ = writeln!(s, "<text x=\"{left}\" y=\"22\" font-size=\"15\" font-weight=\"bold\">{}</text>", escape(title));
    // Axes and their scales.
    let y0 = top + plot_h;
    let _ = writeln!(s, "<line x1=\"{left}\" y1=\"{y0}\" x2=\"{:.1}\" y2=\"{y0}\" stroke=\"#333\"/>", left + plot_w);
    let _ = writeln!(s, "<line x1=\"{left}\" y1=\"{top}\" x2=\"{left}\" y2=\"{y0}\" stroke=\"#333\"/>");
    for k in 0..=4 {
        let y = y0 - plot_h * k as f64 / 4.0;
        let _ = writeln!(
            s,
            "<text x=\"{:.0}\" y=\"{:.1}\" text-anchor=\"end\" fill=\"#2b6cb0\">{:.0}</text>",
            left - 6.0,
            y + 4.0,
            max_presses * k as f64 / 4.0
        );
        let _ = writeln!(
            s,
            "<text x=\"{:.1}\" y=\"{:.1}\" fill=\"#c05621\">{:.0}</text>",
            left + plot_w + 6.0,
            y + 4.0,
            max_difficulty * k as f64 / 4.0
        );
    }
    let _ = writeln!(
        s,
        "<text x=\"{left}\" y=\"{:.0}\" fill=\"#2b6cb0\">bars: fewest presses</text><text x=\"{:.1}\" y=\"{:.0}\" text-anchor=\"end\" fill=\"#c05621\">line: difficulty</text>",
        height - 10.0,
        left + plot_w,
        height - 10.0
    );
    let mut line = Vec::new();
    for (k, l) in levels.iter().enumerate() {
        let x = left + bar * k as f64;
        if let Some(m) = l.minimum {
            let h = plot_h * m as f64 / max_presses;
            let fill = if l.duplicate {
                "url(#copy)"
            } else if l.out_of_order {
                "#e53e3e"
            } else {
                "#4299e1"
            };
            let _ = writeln!(
                s,
                "<rect x=\"{:.1}\" y=\"{:.1}\" width=\"{:.1}\" height=\"{h:.1}\" fill=\"{fill}\"><title>{}. {}: {m} presses{}{}</title></rect>",
                x + bar * 0.1,
                y0 - h,
                bar * 0.8,
                k + 1,
                escape(&l.name),
                if l.out_of_order { ", easier than the level before" } else { "" },
                if l.duplicate { ", a copy of an earlier level" } else { "" }
            );
        }
        if let Some(d) = l.difficulty {
            line.push((x + bar / 2.0, y0 - plot_h * d as f64 / max_difficulty));
        }
    }
    if !line.is_empty() {
        let points: Vec<String> = line.iter().map(|(x, y)| format!("{x:.1},{y:.1}")).collect();
        let _ = writeln!(
            s,
            "<polyline points=\"{}\" fill=\"none\" stroke=\"#c05621\" stroke-width=\"2\"/>",
            points.join(" ")
        );
        for (x, y) in &line {
            let _ = writeln!(s, "<circle cx=\"{x:.1}\" cy=\"{y:.1}\" r=\"2.5\" fill=\"#c05621\"/>");
        }
    }
    // Level numbers under the axis, thinned out so they do not overlap.
    let every = ((24.0 / bar).ceil() as usize).max(1);
    for k in (0..levels.len()).step_by(every) {
        let _ = writeln!(
            s,
            "<text x=\"{:.1}\" y=\"{:.0}\" text-anchor=\"middle\" font-size=\"10\">{}</text>",
            left + bar * (k as f64 + 0.5),
            y0 + 14.0,
            k + 1
        );
    }
    s.push_str("</svg>\n");
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_plot_is_escaped_and_marks_levels() {
        let levels = vec![
            PlotLevel {
                name: "a<b>&\"c\"".into(),
                minimum: Some(5),
                difficulty: Some(9),
                duplicate: false,
                out_of_order: false,
            },
            PlotLevel { name: "b".into(), minimum: Some(2), difficulty: Some(3), duplicate: false, out_of_order: true },
            PlotLevel { name: "c".into(), minimum: Some(2), difficulty: None, duplicate: true, out_of_order: false },
        ];
        let svg = plot("pack </svg>", &levels);
        assert!(svg.contains("a&lt;b&gt;&amp;&quot;c&quot;"));
        assert!(!svg.contains("pack </svg>"), "the title is escaped");
        assert_eq!(svg.matches("<rect x=").count(), 3);
        assert!(svg.contains("#e53e3e"), "the out-of-order level is red");
        assert!(svg.contains("url(#copy)"), "the copy is hatched");
        assert_eq!(svg.matches("<circle").count(), 2);
    }
}
