//! `--solution-out` `.txt`, `.pbm` and `.png`, decoded here by independent
//! readers, give back exactly the presses `solve --format json` prints: on
//! widths that are not multiples of 8 or 64 (the writers pack a row a word
//! and a byte at a time, so the last partial byte and word of each row are
//! where a fast writer goes wrong), and with W > 2 (counts in the text, a
//! pixel set where a cell is pressed at all in the images).

mod common;
use common::*;

/// The presses `lights solve --format json` gives, one row per board row.
fn json_presses(dir: &std::path::Path, file: &str) -> Vec<Vec<u64>> {
    let out = lights(dir, &["solve", file, "--format", "json"]);
    assert_eq!(out.status.code(), Some(0), "{file}: {}", stderr(&out));
    let v: serde_json::Value = serde_json::from_str(&stdout(&out)).expect("JSON");
    serde_json::from_value(v[0]["solution"].clone()).expect("a solution grid")
}

/// Writes `--solution-out NAME` and returns its bytes.
fn solution_out(dir: &std::path::Path, file: &str, name: &str) -> Vec<u8> {
    let out = lights(dir, &["solve", file, "--solution-out", name]);
    assert_eq!(out.status.code(), Some(0), "{file} → {name}: {}", stderr(&out));
    assert!(stderr(&out).contains(&format!("to {name}")), "{}", stderr(&out));
    std::fs::read(dir.join(name)).expect("the written file")
}

/// A PNG through the `png` crate's decoder (which checks every chunk's CRC
/// and the zlib stream's checksum): 1-bit greyscale, black (0) = pressed.
fn decode_png(bytes: &[u8]) -> Vec<Vec<u64>> {
    let mut decoder = png::Decoder::new(std::io::Cursor::new(bytes));
    decoder.ignore_checksums(false);
    let mut reader = decoder.read_info().expect("a PNG header");
    let mut pixels = vec![0; reader.output_buffer_size().expect("a size")];
    let info = reader.next_frame(&mut pixels).expect("valid image data");
    assert_eq!((info.color_type, info.bit_depth), (png::ColorType::Grayscale, png::BitDepth::One));
    let cols = info.width as usize;
    (0..info.height as usize)
        .map(|r| {
            let row = &pixels[r * info.line_size..];
            (0..cols).map(|c| u64::from(row[c / 8] & (0x80 >> (c % 8)) == 0)).collect()
        })
        .collect()
}

/// The text grid: `.` for 0, else the count; columns separated by spaces.
fn decode_text(bytes: &[u8]) -> Vec<Vec<u64>> {
    let text = std::str::from_utf8(bytes).expect("UTF-8 text");
    assert!(text.ends_with('\n'), "the last line is ended");
    text.lines()
        .map(|l| l.split_whitespace().map(|c| if c == "." { 0 } else { c.parse().expect("a count") }).collect())
        .collect()
}

fn pressed(grid: &[Vec<u64>]) -> Vec<Vec<u64>> {
    grid.iter().map(|row| row.iter().map(|&v| u64::from(v != 0)).collect()).collect()
}

/// Checks the three files of `file`'s one puzzle against its JSON solution.
fn check_all_three(dir: &std::path::Path, file: &str, rows: usize, cols: usize) {
    let want = json_presses(dir, file);
    assert_eq!((want.len(), want[0].len()), (rows, cols), "{file}");
    assert!(want.iter().flatten().any(|&v| v != 0), "{file}: a solution that presses nothing tests little");
    assert_eq!(decode_text(&solution_out(dir, file, "s.txt")), want, "{file}: .txt");
    assert_eq!(decode_pbm(&solution_out(dir, file, "s.pbm")), pressed(&want), "{file}: .pbm");
    assert_eq!(decode_png(&solution_out(dir, file, "s.png")), pressed(&want), "{file}: .png");
}

/// W = 2, all lights on: always solvable when a press toggles the cell
/// pressed and the rule is symmetric (Sutner), as every rule here is; on
/// widths around the byte and word boundaries.
#[test]
fn two_state_boards_of_awkward_widths_decode_to_the_json_solution() {
    let dir = scratch("solution-out-widths");
    for (rows, cols, rule, topology) in [
        (1, 1, "cross", "plane"),
        (3, 7, "cross", "plane"),
        (5, 9, "king", "plane"),
        (2, 63, "flip", "plane"),
        (3, 65, "cross", "torus"),
        (4, 127, "cross", "plane"),
        (7, 129, "king", "torus"),
        (9, 200, "cross", "klein"),
        (65, 3, "cross", "plane"),
    ] {
        let file = format!("b{rows}x{cols}{rule}{topology}.lights");
        std::fs::write(
            dir.join(&file),
            format!("puzzle \"b\" {{\n  size {rows}x{cols}\n  rule {rule}\n  topology {topology}\n  lights on\n}}\n"),
        )
        .unwrap();
        check_all_three(&dir, &file, rows, cols);
    }
}

/// W > 2: the text keeps every count (aligned when a count has two digits),
/// the images mark each cell pressed at least once.
#[test]
fn many_state_boards_decode_to_the_json_solution() {
    let dir = scratch("solution-out-states");
    for (rows, cols, states) in [(3, 11, 3), (4, 9, 5), (2, 70, 7), (3, 13, 13), (1, 3, 300)] {
        let file = format!("w{rows}x{cols}s{states}.lights");
        std::fs::write(
            dir.join(&file),
            format!("puzzle \"w\" {{\n  size {rows}x{cols}\n  states {states}\n  lights on\n}}\n"),
        )
        .unwrap();
        let check = lights(&dir, &["check", &file]);
        assert_eq!(check.status.code(), Some(0), "{file} must be solvable: {}", stdout(&check));
        check_all_three(&dir, &file, rows, cols);
        if states > 10 {
            let text = String::from_utf8(solution_out(&dir, &file, "s.txt")).unwrap();
            let widths: Vec<usize> = text.lines().map(str::len).collect();
            assert!(widths.iter().all(|&w| w == widths[0]), "{file}: columns aligned:\n{text}");
        }
    }
}
