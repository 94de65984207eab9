//! Importing puzzles written in other formats (`lights import`).
//!
//! **Coordinate lists** (`lights import coords`), the format of programming
//! exercises about Lights Out on a torus:
//!
//! ```text
//! 3        n: the side of a square torus board, n ≥ 1
//! 2        k: how many lights are on, 0 ≤ k ≤ n²
//! 0 1      k lines `x y`: a lit cell, 0-based
//! 2 2
//! ```
//!
//! `x` is the row and `y` the column (`0 1` is the `.lights` cell `1,2`).
//! For the cross rule on a square torus the choice does not matter for the
//! answer: transposing the board maps the system to itself (a press and its
//! four neighbours stay a press and its four neighbours), so a position and
//! its transpose are both solvable or both not, with as many solutions.
//!
//! Lines may have spaces around and between the numbers and may end in
//! `\r\n`; blank lines after the last coordinate are ignored. Anything else
//! is an error naming its line: a missing line, a token that is not a
//! non-negative integer, a coordinate outside `0..n`, a cell listed twice
//! (an error rather than "toggled twice": a repeated line is far more often
//! a mistake than a way of writing "off"), and extra lines.

use lights_compiler::summary::count;
use std::collections::HashMap;
use std::fmt;

use lights_compiler::model::PER_CELL_LIMIT;
use lights_syntax::format::{format_source, grid_statement, quote};

/// Boards up to this side are written as a grid; larger ones as an `at` list.
pub const GRID_UP_TO: usize = 32;

/// A parsed coordinate list: a square torus board with some lights on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CoordsBoard {
    pub n: usize,
    /// The lit cells, 0-based `(row, column)`, in the order given.
    pub lit: Vec<(usize, usize)>,
}

/// A malformed input: 1-based line number and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ImportError {
    pub line: usize,
    pub message: String,
}

impl fmt::Display for ImportError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

impl std::error::Error for ImportError {}

/// Parse the coordinate-list format.
pub fn parse_coords(text: &str) -> Result<CoordsBoard, ImportError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let lines: Vec<&str> = text.lines().collect();
    let err = |line: usize, message: String| Err(ImportError { line, message });
    // The line after the last non-blank one, for "missing line" errors.
    let end = lines.iter().rposition(|l| !l.trim().is_empty()).map_or(0, |i| i + 1);

    let numbers = |index: usize, want: usize, what: &str| -> Result<Vec<u64>, ImportError> {
        let line = index + 1;
        let Some(text) = lines.get(index).filter(|_| index < end) else {
            return Err(ImportError {
                line,
                message: format!(
                    "expected {what}, but the input ends{}",
                    if index == 0 { " (it is empty)" } else { "" }
                ),
            });
        };
        let tokens: Vec<&str> = text.split_whitespace().collect();
        if tokens.is_empty() {
            return Err(ImportError { line, message: format!("expected {what}, found an empty line") });
        }
        if tokens.len() != want {
            return Err(ImportError {
                line,
                message: format!("expected {what}, found {}: `{}`", count(tokens.len(), "number"), text.trim()),
            });
        }
        tokens
            .iter()
            .map(|t| {
                // `u64::from_str` takes a leading `+`; the format has plain digits only.
                let digits = !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit());
                digits.then(|| t.parse::<u64>().ok()).flatten().ok_or_else(|| ImportError {
                    line,
                    message: format!("expected {what}, but `{t}` is not a whole number ≥ 0"),
                })
            })
            .collect()
    };

    let n = numbers(0, 1, "the board side n")?[0];
    if n == 0 {
        return err(1, "the board side n must be at least 1".into());
    }
    // The import writes a grid, a character or two per cell.
    if n.saturating_mul(n) > PER_CELL_LIMIT as u64 {
        return err(1, format!("a {n}x{n} board is too large: an imported board has at most {PER_CELL_LIMIT} cells"));
    }
    let k = numbers(1, 1, "the number of lit cells k")?[0];
    let cells = n * n;
    if k > cells {
        return err(2, format!("k = {k} lit cells do not fit on a {n}x{n} board ({cells} cells)"));
    }
    let n = n as usize;
    let mut where_lit: HashMap<(usize, usize), usize> = HashMap::new();
    let mut lit = Vec::with_capacity(k as usize);
    for i in 0..k as usize {
        let index = 2 + i;
        let xy = numbers(index, 2, &format!("lit cell {} of {k} as `x y`", i + 1))?;
        let line = index + 1;
        for (name, v) in [("x", xy[0]), ("y", xy[1])] {
            if v >= n as u64 {
                return err(line, format!("{name} = {v} is outside the board: coordinates are 0…{} (0-based)", n - 1));
            }
        }
        let cell = (xy[0] as usize, xy[1] as usize);
        if let Some(&earlier) = where_lit.get(&cell) {
            return err(
                line,
                format!(
                    "the cell `{} {}` is already listed on line {earlier}; list each lit cell once",
                    cell.0, cell.1
                ),
            );
        }
        where_lit.insert(cell, line);
        lit.push(cell);
    }
    let listed = 2 + k as usize;
    if end > listed {
        return err(
            listed + 1,
            format!("unexpected extra line `{}`: k = {k} said {} follow", lines[listed].trim(), count(k, "lit cell")),
        );
    }
    Ok(CoordsBoard { n, lit })
}

/// The `.lights` puzzle for a coordinate list: `size nxn`, `topology
/// torus`, and the lights as a grid when n ≤ [`GRID_UP_TO`], else as an
/// `at` list in reading order (`lights off` when nothing is lit). Formatted.
pub fn coords_to_lights(board: &CoordsBoard, name: &str, source: &str) -> String {
    let n = board.n;
    let source: String = source.chars().map(|c| if c.is_control() { '?' } else { c }).collect();
    let mut out = format!(
        "// Imported by `lights import coords` from {source}: a {n}x{n} torus with {} on.\n\
         // Coordinates `x y` are 0-based; x is the row, y the column (`0 1` is cell 1,2).\n",
        count(board.lit.len(), "light")
    );
    out.push_str(&format!("puzzle {} {{\n  size {n}x{n}\n  topology torus\n", quote(name)));
    if board.lit.is_empty() {
        out.push_str("  lights off\n");
    } else if n <= GRID_UP_TO {
        let mut values = vec![0u32; n * n];
        for &(r, c) in &board.lit {
            values[r * n + c] = 1;
        }
        out.push_str(&grid_statement("lights", n, n, &values));
        out.push('\n');
    } else {
        let mut cells = board.lit.clone();
        cells.sort_unstable();
        let entries: Vec<String> = cells.iter().map(|&(r, c)| format!("{},{}", r + 1, c + 1)).collect();
        out.push_str(&format!("  lights at {}\n", entries.join(" ")));
    }
    out.push_str("}\n");
    // The text is built to be canonical; formatting also proves it parses.
    format_source(&out).unwrap_or(out)
}

/// Parse a coordinate list and write its puzzle.
pub fn import_coords(text: &str, name: &str, source: &str) -> Result<String, ImportError> {
    Ok(coords_to_lights(&parse_coords(text)?, name, source))
}
