//! Pictures of boards: the SVG parses and shows what the model and report
//! say (cells by state, marks where the overlay is nonzero, locked crosses,
//! the goal panel), the compact style's merged runs cover exactly the right
//! cells, the PNG decodes to the SVG's size with the right colours, and a
//! 500×500 board stays small.

mod svg;
use svg::{attr, by_id, children, draw, parse, solved};

use std::collections::BTreeSet;

use lights_authoring::picture::{self, Numbers, Options, PictureError, Show};
use lights_compiler::analyze;
use lights_compiler::lower::apply_presses;
use lights_compiler::model::{Board, Presses};
use lights_compiler::solve::{MinimumSolution, Report};
use num_bigint::BigUint;
use resvg::tiny_skia;
use resvg::usvg::roxmltree::{Document, Node};

const OFF: &str = "#1f2433";
const ON: &str = "#ffd84d";

/// The row-major cell (index into the `cells` rects) containing a point.
fn cell_at(cells: &[Node], x: f64, y: f64) -> usize {
    let hits: Vec<usize> = cells
        .iter()
        .enumerate()
        .filter(|(_, r)| {
            let (rx, ry, w, h) = (attr(**r, "x"), attr(**r, "y"), attr(**r, "width"), attr(**r, "height"));
            rx <= x && x < rx + w && ry <= y && y < ry + h
        })
        .map(|(i, _)| i)
        .collect();
    assert_eq!(hits.len(), 1, "({x}, {y}) lies in exactly one cell");
    hits[0]
}

/// The cells whose mark circles are drawn in `#marks`.
fn marked_cells(doc: &Document) -> Vec<usize> {
    let cells = children(by_id(doc, "lights-cells").expect("cells"), "rect");
    let Some(marks) = by_id(doc, "marks") else { return Vec::new() };
    children(marks, "circle").iter().map(|c| cell_at(&cells, attr(*c, "cx"), attr(*c, "cy"))).collect()
}

/// The legend's text, its wrapped lines joined again.
fn legend_text(doc: &Document) -> String {
    let lines: Vec<&str> =
        children(by_id(doc, "legend").unwrap(), "text").iter().filter_map(resvg::usvg::roxmltree::Node::text).collect();
    lines.join(" ")
}

fn nonzero(v: &[u32]) -> Vec<usize> {
    v.iter().enumerate().filter(|(_, &x)| x != 0).map(|(i, _)| i).collect()
}

const CLASSIC: &str = include_str!("../../../examples/classic.lights");
const PACK: &str = include_str!("../../../examples/level-pack.lights");

#[test]
fn detailed_svg_has_a_cell_per_light_coloured_by_state_and_a_dot_per_press() {
    let (p, r) = solved(CLASSIC, Some("all-on"));
    let r = r.unwrap();
    let pic = draw(&p, Some(&r), None, None);
    assert_eq!(pic.show, Show::Solution, "the default for a solvable puzzle");
    assert_eq!(pic.cell, 40);
    let doc = parse(&pic.svg);
    let root = doc.root_element();
    assert_eq!(attr(root, "width") as u32, pic.width);
    assert_eq!(attr(root, "height") as u32, pic.height);

    let cells = children(by_id(&doc, "lights-cells").unwrap(), "rect");
    assert_eq!(cells.len(), 25);
    for (i, c) in cells.iter().enumerate() {
        let want = if p.lights.get(i) == 0 { OFF } else { ON };
        assert_eq!(c.attribute("fill"), Some(want), "cell {i}");
    }
    // Row and column numbers 1..5.
    let labels: Vec<&str> = children(by_id(&doc, "lights-labels").unwrap(), "text")
        .iter()
        .filter_map(resvg::usvg::roxmltree::Node::text)
        .collect();
    assert_eq!(labels, ["1", "2", "3", "4", "5", "1", "2", "3", "4", "5"]);

    // One dot per press of the minimum solution, on its cell, and what is
    // drawn really solves the puzzle.
    let min = r.minimum.as_ref().unwrap();
    let marked = marked_cells(&doc);
    assert_eq!(marked.len(), 15);
    assert_eq!(marked, nonzero(&min.presses.to_vec()));
    let mut presses = vec![0u16; p.cells()];
    for &i in &marked {
        presses[i] = 1;
    }
    let after = apply_presses(&p, &presses);
    assert!(after.iter().zip(p.goal.iter()).all(|(&a, g)| a == u32::from(g)), "the drawn presses solve it");

    // No goal panel (the goal is all off), no locked crosses, a title.
    assert!(by_id(&doc, "goal").is_none());
    assert!(by_id(&doc, "locked").is_none());
    let title = by_id(&doc, "title").unwrap().text().unwrap();
    assert_eq!(title, "all-on");
    let subtitle = by_id(&doc, "subtitle").unwrap().text().unwrap();
    assert_eq!(subtitle, "5×5 · cross · plane · 2 states · 4 solutions · minimum 15 presses");
}

#[test]
fn locked_cells_are_crossed_and_never_marked() {
    let (p, r) = solved(PACK, Some("broken buttons"));
    let pic = draw(&p, r.as_ref(), None, None);
    let doc = parse(&pic.svg);
    let cells = children(by_id(&doc, "lights-cells").unwrap(), "rect");
    let crosses = children(by_id(&doc, "locked").unwrap(), "path");
    let locked: Vec<usize> = (0..p.cells()).filter(|&i| p.is_locked(i)).collect();
    assert_eq!(locked.len(), 5);
    // Each cross starts inside its cell (`M x y` at the top-left end).
    let crossed: Vec<usize> = crosses
        .iter()
        .map(|c| {
            let d = c.attribute("d").unwrap();
            let xy: Vec<f64> = d[1..].split(['l', ' ']).take(2).map(|t| t.parse().unwrap()).collect();
            cell_at(&cells, xy[0], xy[1])
        })
        .collect();
    assert_eq!(crossed, locked);
    let marked: BTreeSet<usize> = marked_cells(&doc).into_iter().collect();
    assert!(locked.iter().all(|i| !marked.contains(i)));
    assert!(pic.svg.contains("5 locked"));
}

#[test]
fn more_than_two_states_number_the_marks_and_colour_the_cells_on_a_scale() {
    let (p, r) = solved(PACK, Some("clock"));
    let r = r.unwrap();
    let pic = draw(&p, Some(&r), None, None);
    let doc = parse(&pic.svg);
    let min = &r.minimum.as_ref().unwrap().presses.to_vec();
    assert_eq!(marked_cells(&doc), nonzero(min));
    let numbers: Vec<u32> = children(by_id(&doc, "mark-values").unwrap(), "text")
        .iter()
        .map(|t| t.text().unwrap().parse().unwrap())
        .collect();
    let want: Vec<u32> = min.iter().copied().filter(|&v| v != 0).collect();
    assert_eq!(numbers, want);
    // Equal states share a colour, different states differ; 0 is dark, 11 bright.
    let fills: Vec<&str> =
        children(by_id(&doc, "lights-cells").unwrap(), "rect").iter().map(|c| c.attribute("fill").unwrap()).collect();
    for i in 0..9 {
        for j in 0..9 {
            assert_eq!(p.lights.get(i) == p.lights.get(j), fills[i] == fills[j], "cells {i} and {j}");
        }
        match p.lights.get(i) {
            0 => assert_eq!(fills[i], OFF),
            11 => assert_eq!(fills[i], ON),
            _ => {}
        }
    }
    assert!(pic.svg.contains("12 states"));
}

#[test]
fn a_goal_that_is_not_all_off_gets_its_own_panel() {
    let src = "puzzle \"g\" {\n  size 3x4\n  states 3\n  goal at 1,1:2 2,3\n}\n";
    let (p, r) = solved(src, None);
    let doc_src = draw(&p, r.as_ref(), Some(Show::Lights), None).svg;
    let doc = parse(&doc_src);
    let goal = children(by_id(&doc, "goal-cells").expect("a goal panel"), "rect");
    assert_eq!(goal.len(), 12);
    let lit: Vec<usize> =
        goal.iter().enumerate().filter(|(_, c)| c.attribute("fill") != Some(OFF)).map(|(i, _)| i).collect();
    assert_eq!(lit, [0, 6]);
    assert_eq!(goal[0].attribute("fill"), Some(ON), "2 is fully on with 3 states");
    assert!(by_id(&doc, "marks").is_none(), "--show lights draws no overlay");
}

#[test]
fn quiet_pattern_is_the_first_generator_and_changes_nothing() {
    let (p, r) = solved(CLASSIC, Some("all-on"));
    let r = r.unwrap();
    let pic = draw(&p, Some(&r), Some(Show::Quiet), None);
    let doc = parse(&pic.svg);
    let marked = marked_cells(&doc);
    assert_eq!(marked, nonzero(&r.quiet_patterns[0].presses.to_vec()));
    assert!(!marked.is_empty());
    let mut presses = vec![0u16; p.cells()];
    for &i in &marked {
        presses[i] = 1;
    }
    let after = apply_presses(&p, &presses);
    assert!(after.iter().zip(p.lights.iter()).all(|(&a, l)| a == u32::from(l)), "a quiet pattern changes no light");
    assert!(legend_text(&doc).contains("quiet pattern 1 of 2 generators"));
    assert!(pic.notes.is_empty());

    // 3×3 has none: the picture and the notes say so.
    let (p, r) = solved("puzzle \"u\" {\n  size 3x3\n  lights on\n}\n", None);
    let pic = draw(&p, r.as_ref(), Some(Show::Quiet), None);
    assert!(by_id(&parse(&pic.svg), "marks").is_none());
    assert_eq!(pic.notes.len(), 1);
    assert!(pic.notes[0].starts_with("no quiet pattern"), "{:?}", pic.notes);
    assert!(legend_text(&parse(&pic.svg)).contains("no quiet pattern"));
}

/// Σ y·v mod w, computed here independently of the picture.
fn weighted(y: &Presses, v: &Board, w: u32) -> u64 {
    y.iter().zip(v.iter()).map(|(a, b)| u64::from(a) * u64::from(b)).sum::<u64>() % u64::from(w)
}

#[test]
fn certificate_marks_its_weights_and_states_the_invariant() {
    // 4×4 Lights Out has quiet patterns, so one corner light is unsolvable.
    let (p, r) = solved("puzzle \"c\" {\n  size 4x4\n  lights at 1,1\n}\n", None);
    let r = r.unwrap();
    assert!(!r.solvable);
    let pic = draw(&p, Some(&r), None, None);
    assert_eq!(pic.show, Show::Certificate, "the default for an unsolvable puzzle");
    let y = r.certificate.as_ref().unwrap();
    assert_eq!(marked_cells(&parse(&pic.svg)), nonzero(&y.to_vec()));
    let parity = |t: u64| if t == 0 { "even" } else { "odd" };
    let (now, goal) = (weighted(y, &p.lights, 2), weighted(y, &p.goal, 2));
    assert_ne!(now, goal);
    let text = format!("it is {} now, the goal needs it {}", parity(now), parity(goal));
    assert!(legend_text(&parse(&pic.svg)).contains(&text), "missing {text:?}");

    // With 6 states the weights are written in the marks.
    let (p, r) = solved("puzzle \"six\" {\n  size 2x2\n  states 6\n  goal on\n}\n", None);
    let r = r.unwrap();
    let pic = draw(&p, Some(&r), Some(Show::Certificate), None);
    let doc = parse(&pic.svg);
    let y = r.certificate.as_ref().unwrap();
    let numbers: Vec<u32> = children(by_id(&doc, "mark-values").unwrap(), "text")
        .iter()
        .map(|t| t.text().unwrap().parse().unwrap())
        .collect();
    assert_eq!(numbers, y.iter().filter(|&v| v != 0).collect::<Vec<_>>());
    let text = format!("it is {} now, the goal needs {}", weighted(y, &p.lights, 6), weighted(y, &p.goal, 6));
    assert!(legend_text(&doc).contains(&text), "missing {text:?}");
}

#[test]
fn overlays_the_puzzle_does_not_have_are_errors() {
    let (solvable, rs) = solved(CLASSIC, Some("classic"));
    let (unsolvable, ru) = solved("puzzle \"c\" {\n  size 4x4\n  lights at 1,1\n}\n", None);
    let opts = |show| Options { show: Some(show), ..Options::default() };
    assert_eq!(picture::svg(&unsolvable, ru.as_ref(), &opts(Show::Solution)), Err(PictureError::NoSolution));
    assert_eq!(
        picture::svg(&solvable, rs.as_ref(), &opts(Show::Certificate)),
        Err(PictureError::NoCertificate { solvable: true })
    );
    for show in [Show::Solution, Show::Quiet, Show::Certificate] {
        assert_eq!(picture::svg(&solvable, None, &opts(show)), Err(PictureError::NotSolved(show)));
    }
    // Without a report the board alone is drawn.
    assert_eq!(picture::svg(&solvable, None, &Options::default()).unwrap().show, Show::Lights);
    for cell in [0, picture::MAX_CELL_PX + 1] {
        assert_eq!(
            picture::svg(&solvable, rs.as_ref(), &Options { cell: Some(cell), ..Options::default() }),
            Err(PictureError::BadCellSize(cell))
        );
    }
    assert!(PictureError::NoSolution.to_string().contains("unsolvable"));
}

#[test]
fn names_are_escaped() {
    let (p, r) = solved("puzzle \"a<b & 'c'\" {\n  size 2x2\n}\n", None);
    let pic = draw(&p, r.as_ref(), None, None);
    let doc = parse(&pic.svg);
    assert_eq!(by_id(&doc, "title").unwrap().text(), Some("a<b & 'c'"));
}

#[test]
fn huge_counts_are_shortened() {
    let report = |solutions: BigUint| Report {
        solvable: true,
        solutions,
        minimum: Some(MinimumSolution { presses: Presses::zeros(0, 2), cost: 7, optimal: false, lower_bound: 0 }),
        certificate: None,
        quiet_patterns: vec![],
        quiet_patterns_omitted: false,
        unknowns: 0,
    };
    assert_eq!(
        picture::result_line(Some(&report(BigUint::from(1u32) << 100))),
        "2^100 solutions · 7 presses (minimum not proven)"
    );
    let three = BigUint::from(3u32).pow(40); // 12157665459056928801
    assert_eq!(picture::result_line(Some(&report(three))), "1.21×10^19 solutions · 7 presses (minimum not proven)");
    assert_eq!(
        picture::result_line(Some(&report(BigUint::from(4u32)))),
        "4 solutions · 7 presses (minimum not proven)"
    );
    assert_eq!(picture::result_line(None), "not solved");
}

// ---------------------------------------------------------------------------
// The compact style.

/// The rectangles of a path made of `M x y`/`m dx dy` then `h w v h h -w z`.
fn rects(d: &str) -> Vec<(i64, i64, i64, i64)> {
    let mut out = Vec::new();
    let (mut x, mut y) = (0i64, 0i64);
    let mut rest = d;
    let number = |s: &mut &str| -> i64 {
        let end = s.find(|c: char| !(c.is_ascii_digit() || c == '-')).unwrap_or(s.len());
        let n = s[..end].parse().expect("a number");
        *s = s[end..].trim_start_matches(' ');
        n
    };
    while !rest.is_empty() {
        let cmd = rest.as_bytes()[0];
        rest = &rest[1..];
        match cmd {
            b'M' => {
                x = number(&mut rest);
                y = number(&mut rest);
            }
            b'm' => {
                x += number(&mut rest);
                y += number(&mut rest);
            }
            b'h' => {
                let w = number(&mut rest);
                assert_eq!(rest.as_bytes()[0], b'v');
                rest = &rest[1..];
                let h = number(&mut rest);
                assert_eq!(&rest[..1], "h");
                rest = &rest[1..];
                assert_eq!(number(&mut rest), -w);
                assert_eq!(&rest[..1], "z");
                rest = &rest[1..];
                out.push((x, y, w, h));
            }
            other => panic!("unexpected path command {}", other as char),
        }
    }
    out
}

/// Check a compact panel: every cell whose value is not the background is
/// covered exactly once, by the path of its value; no other cell is.
fn check_compact_panel(doc: &Document, id: &str, values: &[u32], rows: usize, cols: usize, s: i64) {
    let group = by_id(doc, id).unwrap_or_else(|| panic!("#{id}"));
    let background: u32 = group.attribute("data-background").unwrap().parse().unwrap();
    let bg_rect = group.prev_sibling_element().expect("the background rect");
    assert_eq!(attr(bg_rect, "width") as usize, cols * s as usize);
    assert_eq!(attr(bg_rect, "height") as usize, rows * s as usize);
    let (x0, y0) = (attr(bg_rect, "x") as i64, attr(bg_rect, "y") as i64);
    let mut covered: Vec<Option<u32>> = vec![None; rows * cols];
    for path in children(group, "path") {
        let v: u32 = path.attribute("data-value").unwrap().parse().unwrap();
        assert_ne!(v, background);
        for (x, y, w, h) in rects(path.attribute("d").unwrap()) {
            assert_eq!(h, s);
            assert_eq!((x - x0) % s, 0);
            assert_eq!((y - y0) % s, 0);
            assert_eq!(w % s, 0);
            let (r, c) = (((y - y0) / s) as usize, ((x - x0) / s) as usize);
            for k in 0..(w / s) as usize {
                let i = r * cols + c + k;
                assert!(c + k < cols, "a run stays in its row");
                assert_eq!(covered[i], None, "cell {i} drawn twice");
                covered[i] = Some(v);
            }
        }
    }
    for (i, &v) in values.iter().enumerate() {
        let want = if v == background { None } else { Some(v) };
        assert_eq!(covered[i], want, "{id}: cell {i}");
    }
}

/// A small deterministic generator (xorshift64*).
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
}

fn grid_source(name: &str, rows: usize, cols: usize, states: u32, values: &[u32], extra: &str) -> String {
    let mut src = format!("puzzle \"{name}\" {{\n  size {rows}x{cols}\n  states {states}\n  lights {{\n");
    for r in 0..rows {
        src.push_str("    ");
        for c in 0..cols {
            let v = values[r * cols + c];
            src.push(if v == 0 { '.' } else { char::from_digit(v, 36).unwrap() });
        }
        src.push('\n');
    }
    src.push_str("  }\n");
    src.push_str(extra);
    src.push_str("}\n");
    src
}

#[test]
fn compact_style_merges_runs_exactly_and_hatches_locked_cells() {
    let (rows, cols, w) = (37, 53, 5);
    let mut rng = Rng(7);
    // Runs of random lengths, so merging matters.
    let mut values = Vec::with_capacity(rows * cols);
    while values.len() < rows * cols {
        let v = (rng.next() % u64::from(w)) as u32;
        let len = 1 + (rng.next() % 6) as usize;
        values.extend(std::iter::repeat_n(v, len));
    }
    values.truncate(rows * cols);
    let src = grid_source("runs", rows, cols, w, &values, "  locked at 2,2 2,3 2,4 10,50\n");
    let (p, r) = solved(&src, None);
    let r = r.unwrap();
    let show = if r.solvable { Show::Solution } else { Show::Certificate };
    let pic = draw(&p, Some(&r), Some(show), Some(4));
    let doc = parse(&pic.svg);
    check_compact_panel(&doc, "lights-cells", &values, rows, cols, 4);
    let overlay =
        if r.solvable { r.minimum.as_ref().unwrap().presses.to_vec() } else { r.certificate.clone().unwrap().to_vec() };
    check_compact_panel(&doc, "overlay-cells", &overlay, rows, cols, 4);
    // No grid, no numbers, no marks on the board.
    assert!(by_id(&doc, "lights-labels").is_none());
    assert!(by_id(&doc, "marks").is_none());
    let locked = by_id(&doc, "locked").unwrap();
    assert_eq!(locked.attribute("fill"), Some("url(#hatch)"));
    assert_eq!(locked.attribute("data-cells"), Some("4"));
    let hatched: i64 = rects(locked.attribute("d").unwrap()).iter().map(|r| r.2 / 4).sum();
    assert_eq!(hatched, 4);
    assert!(by_id(&doc, "hatch").is_some(), "the pattern is defined");
}

#[test]
fn more_states_than_fit_the_board_marks_use_an_overlay_panel() {
    // 12 px cells with 3 states: grid lines, but numbers would not fit in
    // marks, so the presses get a panel of their own.
    let (p, r) = solved(PACK, Some("three colours"));
    let r = r.unwrap();
    let pic = draw(&p, Some(&r), None, Some(12));
    let doc = parse(&pic.svg);
    assert!(by_id(&doc, "marks").is_none());
    let panel = children(by_id(&doc, "overlay-cells").unwrap(), "rect");
    assert_eq!(panel.len(), 16);
    let min = &r.minimum.as_ref().unwrap().presses.to_vec();
    for i in 0..16 {
        for j in 0..16 {
            assert_eq!(min[i] == min[j], panel[i].attribute("fill") == panel[j].attribute("fill"));
        }
    }
    assert!(by_id(&doc, "lights-labels").is_some(), "12 px cells keep their numbers");
}

// ---------------------------------------------------------------------------
// PNG.

fn pixel(pixmap: &tiny_skia::Pixmap, x: f64, y: f64) -> String {
    let c = pixmap.pixel(x as u32, y as u32).unwrap().demultiply();
    format!("#{:02x}{:02x}{:02x}", c.red(), c.green(), c.blue())
}

#[test]
fn png_decodes_to_the_svg_size_with_the_cells_colours() {
    let (p, r) = solved(PACK, Some("broken buttons"));
    let pic = draw(&p, r.as_ref(), Some(Show::Lights), None);
    let png = picture::png(&pic.svg).unwrap();
    assert_eq!((png.width, png.height), (pic.width, pic.height));
    assert_eq!(&png.data[..8], b"\x89PNG\r\n\x1a\n");
    let pixmap = tiny_skia::Pixmap::decode_png(&png.data).unwrap();
    assert_eq!((pixmap.width(), pixmap.height()), (pic.width, pic.height));
    let doc = parse(&pic.svg);
    let cells = children(by_id(&doc, "lights-cells").unwrap(), "rect");
    for (i, c) in cells.iter().enumerate() {
        if p.is_locked(i) {
            continue; // crossed out
        }
        // Away from the edges of the cell.
        let want = if p.lights.get(i) == 0 { OFF } else { ON };
        assert_eq!(pixel(&pixmap, attr(*c, "x") + 5.0, attr(*c, "y") + 5.0), want, "cell {i}");
    }
    // The page is white, and some text was drawn in the title's place.
    assert_eq!(pixel(&pixmap, 1.0, 1.0), "#ffffff");
    if png.has_fonts {
        let title = by_id(&doc, "title").unwrap();
        let (x, y) = (attr(title, "x") as u32, attr(title, "y") as u32);
        let inked = (x..x + 100).flat_map(|x| (y - 14..y).map(move |y| (x, y))).any(|(x, y)| {
            let c = pixmap.pixel(x, y).unwrap().demultiply();
            c.red() < 128
        });
        assert!(inked, "the title is drawn");
    }
}

#[test]
fn png_refuses_absurd_sizes() {
    let svg = r#"<svg xmlns="http://www.w3.org/2000/svg" width="20000" height="20000"/>"#;
    assert!(matches!(picture::png(svg), Err(PictureError::ImageTooLarge { width: 20000, height: 20000 })));
    assert!(matches!(picture::png("not svg"), Err(PictureError::Render(_))));
}

// ---------------------------------------------------------------------------
// Snapshot and the large case.

#[test]
fn small_svg_snapshot() {
    let src = "puzzle \"snap\" {\n  size 3x3\n  lights {\n    1 . 1\n    . 1 .\n    1 1 .\n  }\n  locked at 3,3\n}\n";
    let (p, r) = solved(src, None);
    let pic = draw(&p, r.as_ref(), None, None);
    insta::assert_snapshot!("snap_3x3", pic.svg);
}

#[test]
fn a_500_by_500_board_is_compact_and_small() {
    let (rows, cols) = (500, 500);
    // Random presses x; the lights they turn off are A·x (mod 2), so x is a
    // solution. (The solver does not take boards this large, so the report is
    // built here.)
    let mut rng = Rng(500);
    let presses: Vec<u16> = (0..rows * cols).map(|_| (rng.next() >> 33) as u16 & 1).collect();
    let blank =
        analyze(&format!("puzzle \"big\" {{\n  size {rows}x{cols}\n}}\n")).blocks.remove(0).puzzle().cloned().unwrap();
    let lights = apply_presses(&blank, &presses);
    let src = grid_source("big", rows, cols, 2, &lights, "");
    let p = analyze(&src).blocks.remove(0).puzzle().cloned().expect("valid");
    let x: Vec<u32> = presses.iter().map(|&v| u32::from(v)).collect();
    let cost = x.iter().map(|&v| u64::from(v)).sum();
    let report = Report {
        solvable: true,
        solutions: BigUint::from(1u32),
        minimum: Some(MinimumSolution { presses: Presses::from_values(&x, 2), cost, optimal: false, lower_bound: 0 }),
        certificate: None,
        quiet_patterns: vec![],
        quiet_patterns_omitted: false,
        unknowns: rows * cols,
    };
    let started = std::time::Instant::now();
    let pic = draw(&p, Some(&report), None, None);
    let svg_time = started.elapsed();
    assert_eq!(pic.cell, 2);
    // Two noise-like panels of 250,000 cells: a few bytes a run, not a rect per cell.
    let size = pic.svg.len();
    assert!(size < 2_500_000, "the SVG is {size} bytes");
    let doc = parse(&pic.svg);
    check_compact_panel(&doc, "lights-cells", &lights, rows, cols, 2);
    check_compact_panel(&doc, "overlay-cells", &x, rows, cols, 2);
    assert!(by_id(&doc, "lights-labels").is_none(), "no numbers at 2 px");

    let started = std::time::Instant::now();
    let png = picture::png(&pic.svg).unwrap();
    let png_time = started.elapsed();
    let pixmap = tiny_skia::Pixmap::decode_png(&png.data).unwrap();
    assert_eq!((pixmap.width(), pixmap.height()), (pic.width, pic.height));
    assert!(pic.width > 2 * 1000 && pic.height > 1000);
    eprintln!("500×500: SVG {size} bytes in {svg_time:?}, PNG {} bytes in {png_time:?}", png.data.len());

    // A board of one colour is tiny whatever its size.
    let on = analyze(&format!("puzzle \"on\" {{\n  size {rows}x{cols}\n  lights on\n}}\n"))
        .blocks
        .remove(0)
        .puzzle()
        .cloned()
        .unwrap();
    let pic = draw(&on, None, None, None);
    assert!(pic.svg.len() < 5_000, "{} bytes", pic.svg.len());
}

#[test]
fn boards_too_large_to_draw_are_refused() {
    let p = analyze("puzzle \"huge\" {\n  size 3000x3000\n}\n").blocks.remove(0).puzzle().cloned().unwrap();
    assert_eq!(
        picture::svg(&p, None, &Options::default()),
        Err(PictureError::BoardTooLarge { rows: 3000, cols: 3000 })
    );
}

// ---------------------------------------------------------------------------
// The surface's gluing and the state numbers.

/// The gluing arrows of a panel: (border, gluing, heads, from, to) each, the
/// direction taken from the arrow's shaft (its first `M…L…`).
type Arrow = (String, String, usize, (f64, f64), (f64, f64));

fn arrows(doc: &Document, panel: &str) -> Vec<Arrow> {
    let Some(group) = by_id(doc, &format!("{panel}-gluing")) else { return Vec::new() };
    children(group, "path")
        .iter()
        .map(|a| {
            assert_eq!(a.attribute("class"), Some("glue-arrow"));
            let d = a.attribute("d").unwrap();
            let numbers: Vec<f64> =
                d[1..].split(['M', 'L', ' ']).filter(|t| !t.is_empty()).map(|t| t.parse().unwrap()).collect();
            let heads = d.matches('M').count() - 1;
            (
                a.attribute("data-border").unwrap().to_string(),
                a.attribute("data-gluing").unwrap().to_string(),
                heads,
                (numbers[0], numbers[1]),
                (numbers[2], numbers[3]),
            )
        })
        .collect()
}

/// The unit direction of an arrow's shaft.
fn direction(a: &Arrow) -> (f64, f64) {
    let (dx, dy) = (a.4 .0 - a.3 .0, a.4 .1 - a.3 .1);
    let len = dx.hypot(dy);
    ((dx / len).round(), (dy / len).round())
}

fn topology_source(topology: &str, size: &str) -> String {
    format!("puzzle \"t\" {{\n  size {size}\n  topology {topology}\n  lights at 1,1\n}}\n")
}

#[test]
fn glued_borders_get_arrows_the_same_way_or_opposite_ways_when_twisted() {
    // (topology, left/right gluing, top/bottom gluing)
    let cases = [
        ("plane", None, None),
        ("cylinder", Some("glued"), None),
        ("torus", Some("glued"), Some("glued")),
        ("mobius", Some("twisted"), None),
        ("klein", Some("glued"), Some("twisted")),
        ("projective", Some("twisted"), Some("twisted")),
    ];
    for (topology, sides, ends) in cases {
        let (p, r) = solved(&topology_source(topology, "3x3"), None);
        let pic = draw(&p, r.as_ref(), Some(Show::Lights), None);
        let doc = parse(&pic.svg);
        let found = arrows(&doc, "lights");
        let want = usize::from(sides.is_some()) * 2 + usize::from(ends.is_some()) * 2;
        assert_eq!(found.len(), want, "{topology}: {found:?}");
        assert_eq!(pic.svg.matches("class=\"glue-arrow\"").count(), want, "{topology}: one panel");
        let get = |border: &str| found.iter().find(|a| a.0 == border);
        // The cells' extent: every arrow lies outside it, beside its border.
        let cells = children(by_id(&doc, "lights-cells").unwrap(), "rect");
        let left = cells.iter().map(|c| attr(*c, "x")).fold(f64::MAX, f64::min);
        let top = cells.iter().map(|c| attr(*c, "y")).fold(f64::MAX, f64::min);
        let right = cells.iter().map(|c| attr(*c, "x") + attr(*c, "width")).fold(f64::MIN, f64::max);
        let bottom = cells.iter().map(|c| attr(*c, "y") + attr(*c, "height")).fold(f64::MIN, f64::max);
        for (pair, gluing, heads) in [(["left", "right"], sides, 1), (["top", "bottom"], ends, 2)] {
            let Some(gluing) = gluing else {
                assert!(get(pair[0]).is_none() && get(pair[1]).is_none(), "{topology}: open {pair:?}");
                continue;
            };
            let (a, b) = (get(pair[0]).expect("first border"), get(pair[1]).expect("second border"));
            for x in [a, b] {
                assert_eq!(x.1, gluing, "{topology} {}", x.0);
                assert_eq!(x.2, heads, "{topology} {}: one head left/right, two top/bottom", x.0);
            }
            let (da, db) = (direction(a), direction(b));
            if gluing == "glued" {
                assert_eq!(da, db, "{topology}: {pair:?} point the same way");
            } else {
                assert_eq!(da, (-db.0, -db.1), "{topology}: {pair:?} point opposite ways");
            }
            // Along the border, outside the cells.
            match pair[0] {
                "left" => {
                    assert_eq!(da.0, 0.0, "vertical");
                    assert!(a.3 .0 < left && b.3 .0 > right, "{topology}: {a:?} {b:?}");
                }
                _ => {
                    assert_eq!(da.1, 0.0, "horizontal");
                    assert!(a.3 .1 < top && b.3 .1 > bottom, "{topology}: {a:?} {b:?}");
                }
            }
        }
        // The legend explains the arrows exactly when there are some.
        assert_eq!(legend_text(&doc).contains("arrows: borders glued"), want > 0, "{topology}");
        // The row and column numbers are still there, outside the arrows.
        let labels = children(by_id(&doc, "lights-labels").unwrap(), "text");
        assert_eq!(labels.len(), 6);
        for a in &found {
            for l in &labels {
                let (lx, ly) = (attr(*l, "x"), attr(*l, "y"));
                match a.0.as_str() {
                    "left" if l.attribute("text-anchor") == Some("end") => assert!(lx < a.3 .0),
                    "top" if l.attribute("text-anchor") == Some("middle") => assert!(ly < a.3 .1),
                    _ => {}
                }
            }
        }
        let png = picture::png(&pic.svg).unwrap();
        assert_eq!((png.width, png.height), (pic.width, pic.height));
    }
}

#[test]
fn every_panel_and_the_compact_style_show_the_gluing() {
    // A goal panel: arrows on both panels.
    let src = "puzzle \"g\" {\n  size 3x4\n  topology torus\n  goal at 2,2\n}\n";
    let (p, r) = solved(src, None);
    let doc_text = draw(&p, r.as_ref(), Some(Show::Lights), None).svg;
    let doc = parse(&doc_text);
    assert_eq!(arrows(&doc, "lights").len(), 4);
    assert_eq!(arrows(&doc, "goal").len(), 4);
    // A 300×300 Klein bottle at 2 px: thin arrows along the compact board.
    let p = analyze("puzzle \"k\" {\n  size 300x300\n  topology klein\n  lights at 1,1\n}\n")
        .blocks
        .remove(0)
        .puzzle()
        .cloned()
        .unwrap();
    let pic = draw(&p, None, None, None);
    assert_eq!(pic.cell, 3);
    let doc = parse(&pic.svg);
    assert!(by_id(&doc, "lights-labels").is_none(), "compact");
    let found = arrows(&doc, "lights");
    let gluings: Vec<(&str, &str, usize)> = found.iter().map(|a| (a.0.as_str(), a.1.as_str(), a.2)).collect();
    assert_eq!(gluings, [("left", "glued", 1), ("right", "glued", 1), ("top", "twisted", 2), ("bottom", "twisted", 2)]);
    let bg = by_id(&doc, "lights-cells").unwrap().prev_sibling_element().unwrap();
    let (x0, y0, side) = (attr(bg, "x"), attr(bg, "y"), attr(bg, "width"));
    assert_eq!(side, 900.0);
    // Each shaft runs along most of its border.
    for a in &found {
        let len = (a.4 .0 - a.3 .0).hypot(a.4 .1 - a.3 .1);
        assert!(len > 0.9 * side, "{a:?}");
    }
    assert!(found[0].3 .0 < x0 && found[2].3 .1 < y0);
    // Deterministic.
    assert_eq!(draw(&p, None, None, None).svg, pic.svg);
}

/// The state numbers drawn in a panel: (cell, value, fill) per text, the
/// cell found from the text's position among the panel's cell rects.
fn cell_numbers(doc: &Document, panel: &str) -> Vec<(usize, u32, String)> {
    let Some(group) = by_id(doc, &format!("{panel}-numbers")) else { return Vec::new() };
    let cells = children(by_id(doc, &format!("{panel}-cells")).unwrap(), "rect");
    let size = attr(group, "font-size");
    children(group, "text")
        .iter()
        .map(|t| {
            assert_eq!(t.attribute("class"), Some("cell-number"));
            let cell = cell_at(&cells, attr(*t, "x"), attr(*t, "y") - size * 0.36);
            (cell, t.text().unwrap().parse().unwrap(), t.attribute("fill").unwrap().to_string())
        })
        .collect()
}

/// The WCAG contrast ratio of two `#rrggbb` colours.
fn contrast(a: &str, b: &str) -> f64 {
    let luminance = |c: &str| {
        let channel = |i: usize| {
            let v = f64::from(u8::from_str_radix(&c[i..i + 2], 16).unwrap()) / 255.0;
            if v <= 0.039_28 {
                v / 12.92
            } else {
                ((v + 0.055) / 1.055).powf(2.4)
            }
        };
        0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5)
    };
    let (la, lb) = (luminance(a), luminance(b));
    (la.max(lb) + 0.05) / (la.min(lb) + 0.05)
}

const CLOCK12: &str = "puzzle \"twelve\" {\n  size 3x4\n  states 12\n  lights {\n    . 1 10 11\n    \
                       2 3 4 5\n    6 7 8 9\n  }\n  goal at 1,1:11\n  locked at 2,2\n}\n";

#[test]
fn state_numbers_are_written_on_the_cells() {
    let (p, r) = solved(CLOCK12, None);
    let r = r.unwrap();
    let opts = |numbers| Options { show: Some(Show::Lights), numbers, ..Options::default() };
    // Auto with 12 states: one number per cell, on its cell, in both panels.
    let pic = picture::svg(&p, Some(&r), &opts(Numbers::Auto)).unwrap();
    assert!(pic.numbers);
    let doc = parse(&pic.svg);
    let lights = cell_numbers(&doc, "lights");
    assert_eq!(lights.len(), 12);
    for (k, (cell, v, fill)) in lights.iter().enumerate() {
        assert_eq!((*cell, *v), (k, u32::from(p.lights.get(k))), "cell {k}");
        // Readable: black or white, whichever contrasts more with the cell.
        let cell_fill = children(by_id(&doc, "lights-cells").unwrap(), "rect")[k].attribute("fill").unwrap();
        let (on_ink, on_white) = (contrast(cell_fill, "#111827"), contrast(cell_fill, "#ffffff"));
        assert_eq!(fill, if on_ink > on_white { "#111827" } else { "#ffffff" }, "state {v}");
        assert!(on_ink.max(on_white) >= 4.0, "state {v} on {cell_fill}");
    }
    let goal = cell_numbers(&doc, "goal");
    assert_eq!(goal.iter().map(|g| g.1).collect::<Vec<_>>(), p.goal.iter().map(u32::from).collect::<Vec<_>>());
    assert!(legend_text(&doc).contains("the state written on each cell"));
    // 0 and 1, 10 and 11 are told apart by their text.
    let texts: Vec<u32> = lights.iter().map(|l| l.1).collect();
    assert_eq!(&texts[..4], [0, 1, 10, 11]);
    assert_eq!(pic.svg.matches("class=\"cell-number\"").count(), 24);
    // The locked cell's number has a halo of its cell's colour, over the cross.
    let locked_text = children(by_id(&doc, "lights-numbers").unwrap(), "text")[5];
    assert!(locked_text.attribute("stroke").is_some());

    // Never: none.
    let pic = picture::svg(&p, Some(&r), &opts(Numbers::Never)).unwrap();
    assert!(!pic.numbers && !pic.svg.contains("cell-number"));
    // Cells too small to hold a number: none, even when always asked.
    let pic = picture::svg(&p, Some(&r), &Options { cell: Some(12), ..opts(Numbers::Always) }).unwrap();
    assert!(!pic.numbers && !pic.svg.contains("cell-number"));
    let pic = picture::svg(&p, Some(&r), &Options { cell: Some(14), ..opts(Numbers::Auto) }).unwrap();
    assert!(pic.numbers);
    assert_eq!(cell_numbers(&parse(&pic.svg), "lights").len(), 12);

    // Two states: auto draws none, always draws 0 and 1.
    let (p, r) = solved(CLASSIC, Some("all-on"));
    let pic = picture::svg(&p, r.as_ref(), &opts(Numbers::Auto)).unwrap();
    assert!(!pic.svg.contains("cell-number"));
    let pic = picture::svg(&p, r.as_ref(), &opts(Numbers::Always)).unwrap();
    let numbers = cell_numbers(&parse(&pic.svg), "lights");
    assert_eq!(numbers.len(), 25);
    assert!(numbers.iter().enumerate().all(|(k, n)| n.0 == k && n.1 == u32::from(p.lights.get(k)) && n.1 <= 1));
    let png = picture::png(&pic.svg).unwrap();
    assert_eq!((png.width, png.height), (pic.width, pic.height));
}

/// A circle and a text's estimated box (bold digits about 0.62 em wide, 0.73
/// em high) do not meet.
fn apart(circle: (f64, f64, f64), text: (f64, f64, f64, usize)) -> bool {
    let (cx, cy, r) = circle;
    let (x, baseline, size, len) = text;
    let (half_w, top) = (size * 0.62 * len as f64 / 2.0, baseline - size * 0.73);
    let nx = cx.clamp(x - half_w, x + half_w);
    let ny = cy.clamp(top, baseline);
    (nx - cx).hypot(ny - cy) > r
}

#[test]
fn numbered_marks_move_to_a_corner_beside_the_state_numbers() {
    let (p, r) = solved(PACK, Some("clock"));
    let r = r.unwrap();
    assert_eq!(p.states, 12);
    let min = r.minimum.as_ref().unwrap().presses.to_vec();
    for cell in [36, 40, 60] {
        let pic = draw(&p, Some(&r), Some(Show::Solution), Some(cell));
        let doc = parse(&pic.svg);
        // The marks are still on their cells, with their press counts.
        assert_eq!(marked_cells(&doc), nonzero(&min));
        let numbers = children(by_id(&doc, "lights-numbers").unwrap(), "text");
        assert_eq!(numbers.len(), 9);
        let size = attr(by_id(&doc, "lights-numbers").unwrap(), "font-size");
        let cells = children(by_id(&doc, "lights-cells").unwrap(), "rect");
        for c in children(by_id(&doc, "marks").unwrap(), "circle") {
            let circle = (attr(c, "cx"), attr(c, "cy"), attr(c, "r"));
            let home = cell_at(&cells, circle.0, circle.1);
            // Inside its cell, clear of the state number.
            let rect = cells[home];
            assert!(circle.0 + circle.2 <= attr(rect, "x") + attr(rect, "width"));
            assert!(circle.1 - circle.2 >= attr(rect, "y"));
            let t = numbers[home];
            let len = t.text().unwrap().len();
            assert!(apart(circle, (attr(t, "x"), attr(t, "y"), size, len)), "{cell} px: cell {home} collides");
        }
    }
    // Below 36 px the numbered marks would be too small beside the numbers:
    // the overlay gets its panel; with --numbers never they stay centred.
    let pic = draw(&p, Some(&r), Some(Show::Solution), Some(24));
    let doc = parse(&pic.svg);
    assert!(by_id(&doc, "marks").is_none() && by_id(&doc, "overlay-cells").is_some());
    assert_eq!(cell_numbers(&doc, "lights").len(), 9);
    let opts = Options { show: Some(Show::Solution), cell: Some(24), numbers: Numbers::Never };
    let doc_text = picture::svg(&p, Some(&r), &opts).unwrap().svg;
    assert_eq!(marked_cells(&parse(&doc_text)), nonzero(&min));
}

/// `render` and the play page colour a state alike: every cell's fill is
/// `lights_compiler::palette::state_colour`, the one definition the page
/// gets as its board's `palette` (crates/ide's play tests check that side).
#[test]
fn every_state_is_drawn_in_the_shared_palette() {
    for w in 2..=12u32 {
        let row: Vec<String> = (0..w).map(|v| v.to_string()).collect();
        let src =
            format!("puzzle \"w\" {{\n  size 1x{w}\n  states {w}\n  lights {{\n    {}\n  }}\n}}\n", row.join(" "));
        let p = analyze(&src).blocks.remove(0).puzzle().cloned().expect("valid");
        let pic = draw(&p, None, None, None);
        let doc = parse(&pic.svg);
        let fills: Vec<String> = children(by_id(&doc, "lights-cells").unwrap(), "rect")
            .iter()
            .map(|c| c.attribute("fill").unwrap().to_string())
            .collect();
        let want: Vec<String> = (0..w).map(|v| lights_compiler::palette::state_colour(v, w).to_string()).collect();
        assert_eq!(fills, want, "W = {w}");
    }
}
