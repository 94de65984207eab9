//! `lights render`, end to end through the real binary: both formats,
//! `--puzzle`, `--show`, `--cell`, `--numbers`, the gluing arrows of each
//! surface, and every error with its exit status.

mod common;
use common::*;

use std::path::Path;

const PACK: &str = "\
puzzle \"first\" {
  size 5x5
  lights {
    . 1 . . .
    1 1 1 . .
    . 1 . . .
    . . . . .
    . . . . .
  }
}

puzzle \"all-on\" {
  size 5x5
  lights on
}

puzzle \"corner\" {
  size 4x4
  lights at 1,1
  expect unsolvable
}

puzzle \"broken\" {
  size 3x3
  lights at 9,9
}

puzzle \"unique\" {
  size 3x3
  lights on
}
";

fn setup(name: &str) -> std::path::PathBuf {
    let dir = scratch(name);
    std::fs::write(dir.join("pack.lights"), PACK).unwrap();
    dir
}

/// Width and height from a PNG's IHDR chunk.
fn png_size(bytes: &[u8]) -> (u32, u32) {
    assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n", "a PNG signature");
    assert_eq!(&bytes[12..16], b"IHDR");
    let be = |b: &[u8]| u32::from_be_bytes([b[0], b[1], b[2], b[3]]);
    (be(&bytes[16..20]), be(&bytes[20..24]))
}

/// `W×H px` from the success line.
fn printed_size(out: &str) -> (u32, u32) {
    let size = out.split(": ").nth(1).and_then(|s| s.split(" px").next()).expect("a size in the output");
    let (w, h) = size.split_once('×').unwrap();
    (w.parse().unwrap(), h.parse().unwrap())
}

/// The SVG's `width` and `height` attributes.
fn svg_size(svg: &str) -> (u32, u32) {
    let head = &svg[..svg.find('>').unwrap()];
    let get = |name: &str| -> u32 {
        let at = head.find(&format!(" {name}=\"")).unwrap() + name.len() + 3;
        head[at..].split('"').next().unwrap().parse().unwrap()
    };
    (get("width"), get("height"))
}

/// The elements of one `<g id=…>` group (up to its first `</g>`).
fn group<'a>(svg: &'a str, id: &str) -> Option<&'a str> {
    let start = svg.find(&format!("<g id=\"{id}\""))?;
    let end = start + svg[start..].find("</g>")?;
    Some(&svg[start..end])
}

fn no_temp_files(dir: &Path) {
    for e in std::fs::read_dir(dir).unwrap() {
        let name = e.unwrap().file_name().to_string_lossy().into_owned();
        assert!(!name.contains("lights-tmp"), "left a temporary file: {name}");
    }
}

#[test]
fn svg_of_the_first_puzzle_by_default() {
    let dir = setup("render_svg");
    let out = lights(&dir, &["render", "pack.lights", "-o", "first.svg"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let svg = std::fs::read_to_string(dir.join("first.svg")).unwrap();
    assert!(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
    assert!(svg.trim_end().ends_with("</svg>"));
    assert!(svg.contains(">first</text>"), "the title names the first puzzle");
    assert!(svg.contains("5×5 · cross · plane · 2 states · 4 solutions · minimum 1 press"));
    assert_eq!(group(&svg, "lights-cells").unwrap().matches("<rect").count(), 25);
    assert_eq!(group(&svg, "marks").unwrap().matches("<circle").count(), 1, "one press solves it");
    let text = stdout(&out);
    assert!(text.starts_with("wrote first.svg: "), "{text}");
    assert_eq!(printed_size(&text), svg_size(&svg));
    assert!(text.contains("\"first\" (5×5, 40 px cells) with the minimum solution"), "{text}");
    no_temp_files(&dir);
}

#[test]
fn png_of_a_named_puzzle_with_a_cell_size() {
    let dir = setup("render_png");
    let out = lights(&dir, &["render", "pack.lights", "--puzzle", "all-on", "-o", "all-on.PNG", "--cell", "30"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let png = std::fs::read(dir.join("all-on.PNG")).unwrap();
    let size = png_size(&png);
    assert_eq!(printed_size(&stdout(&out)), size);
    // The same picture as SVG has the same size, and 15 presses.
    let out = lights(&dir, &["render", "pack.lights", "--puzzle", "all-on", "-o", "all-on.svg", "--cell", "30"]);
    assert_eq!(out.status.code(), Some(0));
    let svg = std::fs::read_to_string(dir.join("all-on.svg")).unwrap();
    assert_eq!(svg_size(&svg), size);
    assert!(svg.contains(">all-on</text>"));
    assert!(svg.contains("width=\"28\" height=\"28\""), "30 px cells, 2 px grid lines");
    assert_eq!(group(&svg, "marks").unwrap().matches("<circle").count(), 15);
    no_temp_files(&dir);
}

#[test]
fn show_options() {
    let dir = setup("render_show");
    // An unsolvable puzzle shows its certificate by default.
    let out = lights(&dir, &["render", "pack.lights", "--puzzle", "corner", "-o", "c.svg"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(stdout(&out).contains("with the certificate"));
    let svg = std::fs::read_to_string(dir.join("c.svg")).unwrap();
    assert!(svg.contains("· unsolvable</text>"));
    assert!(group(&svg, "marks").unwrap().matches("<circle").count() > 0);

    // --show lights: no overlay.
    let out = lights(&dir, &["render", "pack.lights", "--puzzle", "corner", "-o", "c.svg", "--show", "lights"]);
    assert_eq!(out.status.code(), Some(0));
    assert!(group(&std::fs::read_to_string(dir.join("c.svg")).unwrap(), "marks").is_none());

    // --show quiet on 5×5: a pattern; on 3×3 there is none, and it says so.
    let out = lights(&dir, &["render", "pack.lights", "--puzzle", "all-on", "-o", "q.svg", "--show", "quiet"]);
    assert_eq!(out.status.code(), Some(0));
    assert!(stdout(&out).contains("with a quiet pattern"));
    let out = lights(&dir, &["render", "pack.lights", "--puzzle", "unique", "-o", "q.svg", "--show", "quiet"]);
    assert_eq!(out.status.code(), Some(0));
    assert!(stderr(&out).contains("note: no quiet pattern"), "{}", stderr(&out));
    assert!(stdout(&out).contains("(no quiet pattern)"));
}

#[test]
fn overlays_the_puzzle_lacks_are_usage_errors() {
    let dir = setup("render_show_errors");
    std::fs::write(dir.join("keep.svg"), "old").unwrap();
    let out = lights(&dir, &["render", "pack.lights", "--puzzle", "first", "-o", "keep.svg", "--show", "certificate"]);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(err.starts_with("error: cannot draw puzzle \"first\": the puzzle is solvable"), "{err}");
    assert!(err.contains("--show solution"), "{err}");
    let out = lights(&dir, &["render", "pack.lights", "--puzzle", "corner", "-o", "keep.svg", "--show", "solution"]);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(err.contains("unsolvable, so it has no solution to show"), "{err}");
    assert!(err.contains("--show certificate"), "{err}");
    assert_eq!(std::fs::read_to_string(dir.join("keep.svg")).unwrap(), "old", "nothing written on error");
    assert!(stdout(&out).is_empty());
}

#[test]
fn puzzle_selection_errors_list_the_names() {
    let dir = setup("render_names");
    let out = lights(&dir, &["render", "pack.lights", "--puzzle", "nope", "-o", "x.svg"]);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(err.contains("has no puzzle named \"nope\""), "{err}");
    assert!(err.contains("\"first\", \"all-on\", \"corner\", \"broken\" (1 error), \"unique\""), "{err}");
    assert!(!dir.join("x.svg").exists());

    // A puzzle with errors cannot be drawn: exit 1, its error count, a pointer to `lights check`.
    let out = lights(&dir, &["render", "pack.lights", "--puzzle", "broken", "-o", "x.svg"]);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(err.contains("puzzle \"broken\" has 1 error and cannot be drawn"), "{err}");
    assert!(err.contains("run `lights check pack.lights`"), "{err}");
    assert!(err.contains("\"first\""), "the names are listed: {err}");
    assert!(!dir.join("x.svg").exists());

    // The first puzzle is the default, errors and all.
    std::fs::write(dir.join("bad-first.lights"), "puzzle \"b\" {\n  size 0x3\n}\npuzzle \"ok\" {\n  size 2x2\n}\n")
        .unwrap();
    let out = lights(&dir, &["render", "bad-first.lights", "-o", "x.svg"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("\"b\" (1 error), \"ok\""), "{}", stderr(&out));

    std::fs::write(dir.join("empty.lights"), "// nothing here\n").unwrap();
    let out = lights(&dir, &["render", "empty.lights", "-o", "x.svg"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("has no puzzle to draw"));
}

#[test]
fn failed_claims_do_not_stop_the_drawing() {
    let dir = scratch("render_claims");
    std::fs::write(dir.join("a.lights"), "puzzle \"a\" {\n  size 2x2\n  lights on\n  expect presses 3\n}\n").unwrap();
    let out = lights(&dir, &["render", "a.lights", "-o", "a.svg"]);
    assert_eq!(out.status.code(), Some(0));
    assert!(stderr(&out).contains("note: puzzle \"a\" has 1 error (run `lights check a.lights`"), "{}", stderr(&out));
    assert!(dir.join("a.svg").exists());
}

#[test]
fn bad_output_and_input_are_usage_errors() {
    let dir = setup("render_usage");
    for name in ["out.jpg", "out", "out.svg.txt"] {
        let out = lights(&dir, &["render", "pack.lights", "-o", name]);
        assert_eq!(out.status.code(), Some(2), "{name}");
        assert!(stderr(&out).contains("must end in .svg or .png"), "{}", stderr(&out));
        assert!(!dir.join(name).exists());
    }
    let out = lights(&dir, &["render", "missing.lights", "-o", "x.svg"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("error: cannot read `missing.lights`"), "{}", stderr(&out));
    let out = lights(&dir, &["render", "pack.lights", "-o", "no-such-folder/x.svg"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("error: cannot write `no-such-folder/x.svg`"), "{}", stderr(&out));
    // clap: a missing -o, a cell size out of range, an unknown --show.
    for args in [
        &["render", "pack.lights"][..],
        &["render", "pack.lights", "-o", "x.svg", "--cell", "0"],
        &["render", "pack.lights", "-o", "x.svg", "--cell", "201"],
        &["render", "pack.lights", "-o", "x.svg", "--show", "everything"],
    ] {
        let out = lights(&dir, args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
    }
    assert!(!dir.join("x.svg").exists());
}

#[test]
fn a_board_too_large_to_solve_is_drawn_without_an_overlay() {
    let dir = scratch("render_large");
    let (n, mut src) = (300, String::new());
    // `flip` with a locked cell cannot be chased or reduced: 89,999 unknowns are beyond the solver.
    src.push_str(&format!(
        "puzzle \"big\" {{\n  size {n}x{n}\n  rule flip\n  topology mobius\n  locked at 1,1\n  lights {{\n"
    ));
    for r in 0..n {
        let row: String = (0..n).map(|c| if (r * 7 + c * 13) % 5 == 0 { '1' } else { '.' }).collect();
        src.push_str(&format!("    {row}\n"));
    }
    src.push_str("  }\n}\n");
    std::fs::write(dir.join("big.lights"), &src).unwrap();
    let out = lights(&dir, &["render", "big.lights", "-o", "big.png"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(stderr(&out).contains("was not solved"), "{}", stderr(&out));
    assert!(stdout(&out).contains("(300×300, 3 px cells) with the board"), "{}", stdout(&out));
    let (w, h) = png_size(&std::fs::read(dir.join("big.png")).unwrap());
    assert!(w >= 900 && h >= 900, "{w}×{h}");
    let out = lights(&dir, &["render", "big.lights", "-o", "big.svg"]);
    assert_eq!(out.status.code(), Some(0));
    let svg = std::fs::read_to_string(dir.join("big.svg")).unwrap();
    assert!(svg.len() < 1_000_000, "{} bytes", svg.len());
    assert!(group(&svg, "lights-labels").is_none(), "no numbers on 3 px cells");
    let out = lights(&dir, &["render", "big.lights", "-o", "big.svg", "--show", "solution"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("it was not solved"), "{}", stderr(&out));
}

#[test]
fn help_teaches_with_examples() {
    let out = lights(&root(), &["render", "--help"]);
    assert_eq!(out.status.code(), Some(0));
    let help = stdout(&out);
    for needle in [
        "--puzzle",
        "--show",
        "--cell",
        "certificate",
        "quiet",
        ".svg or .png",
        "Examples:",
        "lights render",
        "--numbers",
        "auto",
        "always",
        "never",
        "arrow",
        "twist",
    ] {
        assert!(help.contains(needle), "missing {needle} in\n{help}");
    }
}

const SURFACES: &str = "\
puzzle \"plane\" {
  size 3x3
  lights at 1,1
}

puzzle \"torus\" {
  size 3x3
  topology torus
  lights at 1,1
}

puzzle \"mobius\" {
  size 3x4
  topology mobius
  lights at 1,1
}

puzzle \"klein\" {
  size 4x4
  topology klein
  lights at 1,1
}

puzzle \"projective\" {
  size 3x3
  topology projective
  lights at 1,1
}

puzzle \"twelve\" {
  size 3x4
  states 12
  lights {
     .  1 10 11
     2  3  4  5
     6  7  8  9
  }
}
";

/// The `<path class=\"glue-arrow\">`s of an SVG: (data-border, data-gluing, number of heads).
fn glue_arrows(svg: &str) -> Vec<(String, String, usize)> {
    svg.split("<path class=\"glue-arrow\"")
        .skip(1)
        .map(|rest| {
            let tag = &rest[..rest.find("/>").unwrap()];
            let value = |name: &str| {
                let at = tag.find(&format!("{name}=\"")).unwrap() + name.len() + 2;
                tag[at..].split('"').next().unwrap().to_string()
            };
            (value("data-border"), value("data-gluing"), value("d").matches('M').count() - 1)
        })
        .collect()
}

/// The `<text class=\"cell-number\">` values of an SVG, in order.
fn cell_numbers(svg: &str) -> Vec<u32> {
    svg.split("<text class=\"cell-number\"")
        .skip(1)
        .map(|rest| {
            let start = rest.find('>').unwrap() + 1;
            rest[start..rest.find("</text>").unwrap()].parse().unwrap()
        })
        .collect()
}

#[test]
fn the_surface_is_drawn_as_arrows_on_the_glued_borders() {
    let dir = scratch("render_gluing");
    std::fs::write(dir.join("surfaces.lights"), SURFACES).unwrap();
    let render = |puzzle: &str| -> String {
        let out = lights(
            &dir,
            &["render", "surfaces.lights", "--puzzle", puzzle, "-o", &format!("{puzzle}.svg"), "--show", "lights"],
        );
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        std::fs::read_to_string(dir.join(format!("{puzzle}.svg"))).unwrap()
    };
    let arrow = |border: &str, gluing: &str| {
        (border.to_string(), gluing.to_string(), if matches!(border, "left" | "right") { 1 } else { 2 })
    };
    assert_eq!(glue_arrows(&render("plane")), [], "a plane has open borders");
    assert!(!render("plane").contains("arrows:"));
    // A 3×3 torus: 4 arrows, all glued as is, one head left/right, two top/bottom.
    let torus = render("torus");
    assert_eq!(
        glue_arrows(&torus),
        [arrow("left", "glued"), arrow("right", "glued"), arrow("top", "glued"), arrow("bottom", "glued")]
    );
    assert_eq!(torus.matches("data-gluing=\"glued\"").count(), 4);
    assert!(torus.contains("arrows: borders glued"), "the legend explains them");
    assert_eq!(glue_arrows(&render("mobius")), [arrow("left", "twisted"), arrow("right", "twisted")]);
    assert_eq!(
        glue_arrows(&render("klein")),
        [arrow("left", "glued"), arrow("right", "glued"), arrow("top", "twisted"), arrow("bottom", "twisted")]
    );
    assert_eq!(
        glue_arrows(&render("projective")),
        [arrow("left", "twisted"), arrow("right", "twisted"), arrow("top", "twisted"), arrow("bottom", "twisted")]
    );
    // The PNG still renders, at the SVG's size.
    let out = lights(&dir, &["render", "surfaces.lights", "--puzzle", "klein", "-o", "klein.png", "--show", "lights"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let svg = render("klein");
    assert_eq!(png_size(&std::fs::read(dir.join("klein.png")).unwrap()), svg_size(&svg));
}

#[test]
fn numbers_flag_writes_the_states_on_the_cells() {
    let dir = scratch("render_numbers");
    std::fs::write(dir.join("surfaces.lights"), SURFACES).unwrap();
    let render = |puzzle: &str, extra: &[&str]| -> String {
        let mut args = vec!["render", "surfaces.lights", "--puzzle", puzzle, "-o", "out.svg"];
        args.extend_from_slice(extra);
        let out = lights(&dir, &args);
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        std::fs::read_to_string(dir.join("out.svg")).unwrap()
    };
    // 12 states: by default one number per cell, with the cell's state.
    let svg = render("twelve", &["--show", "lights"]);
    assert_eq!(cell_numbers(&svg), [0, 1, 10, 11, 2, 3, 4, 5, 6, 7, 8, 9]);
    assert_eq!(cell_numbers(&render("twelve", &["--show", "lights", "--numbers", "auto"])), cell_numbers(&svg));
    assert_eq!(cell_numbers(&render("twelve", &["--numbers", "never"])), []);
    // Two states: none by default, 0 and 1 with `always`.
    assert_eq!(cell_numbers(&render("plane", &[])), []);
    assert_eq!(
        cell_numbers(&render("plane", &["--show", "lights", "--numbers", "always"])),
        [1, 0, 0, 0, 0, 0, 0, 0, 0]
    );
    // Cells too small to hold them: none, and a note says why.
    let out = lights(
        &dir,
        &["render", "surfaces.lights", "--puzzle", "plane", "-o", "small.svg", "--cell", "8", "--numbers", "always"],
    );
    assert_eq!(out.status.code(), Some(0));
    assert!(stderr(&out).contains("too small to hold them"), "{}", stderr(&out));
    assert!(!std::fs::read_to_string(dir.join("small.svg")).unwrap().contains("cell-number"));
    // The PNG renders with its numbers.
    let out = lights(&dir, &["render", "surfaces.lights", "--puzzle", "twelve", "-o", "twelve.png"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(printed_size(&stdout(&out)), png_size(&std::fs::read(dir.join("twelve.png")).unwrap()));
    // A bad value is a usage error.
    let out = lights(&dir, &["render", "surfaces.lights", "-o", "x.svg", "--numbers", "sometimes"]);
    assert_eq!(out.status.code(), Some(2));
}
