//! Graphs drawn from their layout: nodes as circles, edges as lines.

use lights_compiler::model::Graph;

use super::*;

/// The automatic node size aims at drawings about this many pixels across.
pub(super) const AUTO_GRAPH_PX: f64 = 600.0;
/// Nodes this large and more carry their number.
pub(super) const NODE_NUMBER_MIN: u32 = 14;
pub(super) const EDGE: &str = "#8a909c";

/// A graph drawn from its layout: the nodes as circles `d` pixels across,
/// the edges as lines between their centres.
pub(super) struct GraphPicture {
    /// Node centres, relative to the drawing's top-left corner.
    pub(super) points: Vec<(f64, f64)>,
    /// Edges `(a, b, glued)`: glued edges join cells of a cube's surface
    /// whose faces are not side by side in the unfolded net (drawn dashed).
    pub(super) edges: Vec<(usize, usize, bool)>,
    /// Per node: not in the graph (a number an edge list leaves out).
    pub(super) holes: Vec<bool>,
    pub(super) d: u32,
    pub(super) w: u32,
    pub(super) h: u32,
}

impl GraphPicture {
    pub(super) fn new(p: &Puzzle, graph: &Graph, cell: Option<u32>) -> GraphPicture {
        // The one drawing `play` and VS Code show too: its points, its
        // dashed edges, and its node radius (so nodes never touch and no
        // solid edge passes through a node).
        let drawing = graph.drawing();
        let layout = &drawing.points;
        let holes: Vec<bool> = (0..p.cells()).map(|i| p.is_hole(i)).collect();
        let shown: Vec<(f64, f64)> = layout.iter().zip(&holes).filter(|(_, &h)| !h).map(|(&pt, _)| pt).collect();
        let shown = if shown.is_empty() { layout.clone() } else { shown };
        // The node diameter in layout units.
        let unit_d = (2.0 * drawing.node_radius).max(1e-4);
        let d = cell.unwrap_or_else(|| (AUTO_GRAPH_PX * unit_d).round().clamp(4.0, 40.0) as u32);
        // Pixels per unit of the layout: small graphs get small drawings.
        let across = (3.0 * (shown.len() as f64).sqrt()).clamp(6.0, AUTO_GRAPH_PX / 40.0);
        let k = (across * f64::from(d)).max(f64::from(d) / unit_d);
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
        let edges = graph.edges().zip(&drawing.dashed).map(|((a, b), &dashed)| (a, b, dashed)).collect();
        GraphPicture {
            points,
            edges,
            holes,
            d,
            w: ((x_max - x_min) * k + 2.0 * pad).ceil() as u32,
            h: ((y_max - y_min) * k + 2.0 * pad).ceil() as u32,
        }
    }

    pub(super) fn centre(&self, x0: u32, y0: u32, i: usize) -> (f64, f64) {
        (f64::from(x0) + self.points[i].0, f64::from(y0) + self.points[i].1)
    }

    /// The nodes that are drawn (not holes) and their centres.
    pub(super) fn nodes(&self, x0: u32, y0: u32) -> impl Iterator<Item = (usize, (f64, f64))> + '_ {
        (0..self.points.len()).filter(|&i| !self.holes[i]).map(move |i| (i, self.centre(x0, y0, i)))
    }

    /// Nodes large enough for grid-style details (crossed locks, marks).
    pub(super) fn detailed(&self) -> bool {
        self.d >= GRID_MIN_CELL
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
pub(super) fn draw_graph(out: &mut String, gp: &GraphPicture, panel: &Panel) {
    let Panel { id, origin: (x0, y0), values, colour, locked, numbers } = *panel;
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
    if let Some(numbers) = numbers {
        draw_node_states(out, gp, panel, numbers);
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

/// The nodes' states written in them (`<g id="{id}-numbers">`), a little
/// down and left when the overlay's badges sit at their top right
/// (`beside_marks`), and their node numbers moved beside them, small, at
/// their bottom right (`<g id="{id}-labels">`).
fn draw_node_states(out: &mut String, gp: &GraphPicture, panel: &Panel, (w, beside_marks): (u32, bool)) {
    let Panel { id, origin: (x0, y0), values, colour, .. } = *panel;
    let d = f64::from(gp.d);
    let len = digits(w.saturating_sub(1) as usize) as f64;
    let size = (d * 0.42).min(d * 0.7 / (len * 0.62));
    let shift = if beside_marks { d * 0.05 } else { 0.0 };
    let _ = writeln!(out, r#"<g id="{id}-numbers" font-size="{}" font-weight="bold" text-anchor="middle">"#, num(size));
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
}

/// Locked nodes: a cross at the bottom left of each (the node's number
/// stays readable; the overlay's marks sit at the top right).
pub(super) fn draw_graph_locked(out: &mut String, gp: &GraphPicture, x0: u32, y0: u32, locked: &[bool]) {
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
pub(super) fn draw_graph_marks(out: &mut String, gp: &GraphPicture, x0: u32, y0: u32, o: &Overlay, w: u32) {
    let d = f64::from(gp.d);
    let r = if w > 2 { (d * 0.3).max(4.0) } else { (d * 0.22).max(3.0) };
    let stroke = (d / 20.0).max(1.0);
    draw_mark_dots(out, o, w, (r, r * 1.16), stroke, &|i| {
        let (cx, cy) = gp.centre(x0, y0, i);
        (cx + d * 0.36, cy - d * 0.36)
    });
}
