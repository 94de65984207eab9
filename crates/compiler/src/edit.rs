//! Source edits that tools make to a puzzle: insert or replace its
//! `solution` (a grid, or a sliding block's moves), rewrite its `expect`
//! lines, change one cell of `lights`.
//! Shared by `lights solve --write` and the language server's code actions.
//! Every edit keeps all other bytes of the file as they were.

use lights_syntax::ast::{BlockSyntax, Statement, StatementKind, Value};
use lights_syntax::format::grid_statement;
use lights_syntax::Span;
use num_bigint::BigUint;

use crate::model::{Presses, Puzzle};
use crate::report::Report;

/// Boards up to this many cells get their `solution` written as a grid, as
/// authors draw them; larger ones get the shorter of a grid and an `at` list.
pub const GRID_SOLUTION_CELLS: usize = 4096;

/// The longest `solution` statement a tool writes into a file (bytes): a
/// larger one would make a file the tools then refuse to read (64 MiB by
/// default) or an editor cannot hold; `--solution-out` writes any size.
pub const MAX_SOLUTION_TEXT: usize = 16 << 20;

/// How a solution would be written, or why it is not.
pub(crate) enum SolutionText {
    Text(String),
    /// More than [`MAX_SOLUTION_TEXT`] bytes in either form.
    TooLarge {
        bytes: usize,
    },
}

/// How many bytes the `solution` statement for `presses` would take in the
/// form [`solution`] writes (counted up to a little past
/// [`MAX_SOLUTION_TEXT`]: beyond it, only that it is too large matters, and
/// the figure may be a lower bound).
pub fn solution_text_size(model: &Puzzle, presses: &Presses) -> usize {
    solution_text_plan(model, presses).1
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Form {
    Grid,
    List,
}

/// The form a solution is written in, and its size in bytes (estimated
/// from the cells: a digit and a space each for a grid).
fn solution_text_plan(model: &Puzzle, presses: &Presses) -> (Form, usize) {
    let cells = model.cells();
    let width = |v: u32| if v < 10 { 1 } else { v.to_string().len() };
    // A graph's nodes have no grid: always a list.
    let grid_bytes = if model.is_graph() { usize::MAX } else { cells.saturating_mul(2) };
    if cells <= GRID_SOLUTION_CELLS && !model.is_graph() {
        return (Form::Grid, grid_bytes);
    }
    let cap = grid_bytes.min(MAX_SOLUTION_TEXT + 1);
    // Each entry takes at least ` 1,1` (` 1` on a graph): with one bit per
    // cell the presses are counted a word at a time, and when even that
    // many entries are longer than the cap, no entry need be measured.
    let shortest_entry = if model.is_graph() { 2 } else { 4 };
    if presses.is_binary() {
        let at_least = presses.count_nonzero().saturating_mul(shortest_entry);
        if at_least > cap {
            return if grid_bytes <= at_least { (Form::Grid, grid_bytes) } else { (Form::List, at_least) };
        }
    }
    let mut list_bytes = 0usize;
    for (i, v) in presses.nonzero() {
        list_bytes += 1 + coord_len(model, i) + if v == 1 { 0 } else { 1 + width(v) };
        if list_bytes > cap {
            break; // longer than the grid, or too long anyway
        }
    }
    if grid_bytes <= list_bytes {
        (Form::Grid, grid_bytes)
    } else {
        (Form::List, list_bytes)
    }
}

/// `model.coord(index).len()`, counted without making the string: the
/// size of a large board's `at` list is summed over up to millions of
/// presses (formatting each coordinate took 0.2 s on a 10,000² board, on
/// every `lights solve` of it).
fn coord_len(model: &Puzzle, index: usize) -> usize {
    let digits = |n: usize| n.checked_ilog10().map_or(1, |d| d as usize + 1);
    if model.is_graph() {
        digits(index + 1)
    } else {
        digits(index / model.cols + 1) + 1 + digits(index % model.cols + 1)
    }
}

/// The `solution` statement for `presses`: a grid on boards up to
/// [`GRID_SOLUTION_CELLS`], else whichever of grid and `at` list is shorter.
pub(crate) fn solution_text(model: &Puzzle, presses: &Presses) -> SolutionText {
    let (form, bytes) = solution_text_plan(model, presses);
    if bytes > MAX_SOLUTION_TEXT {
        return SolutionText::TooLarge { bytes };
    }
    if form == Form::Grid {
        return SolutionText::Text(value_statement("solution", model, &presses.to_vec()));
    }
    let mut text = String::with_capacity(bytes + 16);
    text.push_str("  solution at");
    for (i, v) in presses.nonzero() {
        text.push_str(&format!(" {}", model.coord(i)));
        if v != 1 {
            text.push_str(&format!(":{v}"));
        }
    }
    if presses.count_nonzero() == 0 {
        text = "  solution off".to_string();
    }
    SolutionText::Text(text)
}

/// A board-sized statement at block depth: a grid on a board, an `at` list
/// of nodes on a graph (`off` when every value is 0).
pub fn value_statement(keyword: &str, model: &Puzzle, values: &[u32]) -> String {
    if model.shape == crate::model::Shape::Hex {
        // As `lights fmt` writes hex grids: rows 2, 4, … shifted by half a cell.
        let text = grid_statement(keyword, model.rows, model.cols, values);
        let lines: Vec<&str> = text.lines().collect();
        let (head, rest) = lines.split_first().expect("a grid statement has a head line");
        let (close, rows) = rest.split_last().expect("and a closing line");
        let indent = "    ";
        let mut rows: Vec<String> = rows.iter().map(|r| r.trim_start().to_string()).collect();
        lights_syntax::format::hex_shift(&mut rows);
        let mut out = format!("{head}\n");
        for r in rows {
            out.push_str(&format!("{indent}{r}\n"));
        }
        out.push_str(close);
        return out;
    }
    if !model.is_graph() {
        return grid_statement(keyword, model.rows, model.cols, values);
    }
    let mut text = format!("  {keyword} at");
    for (i, &v) in values.iter().enumerate().filter(|&(_, &v)| v != 0) {
        text.push_str(&format!(" {}", model.coord(i)));
        if v != 1 {
            text.push_str(&format!(":{v}"));
        }
    }
    if values.iter().all(|&v| v == 0) {
        text = format!("  {keyword} off");
    }
    text
}

/// Replace the bytes of `span` with `text`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TextEdit {
    pub span: Span,
    pub text: String,
}

/// Apply non-overlapping edits to `src`.
pub fn apply(src: &str, edits: &[TextEdit]) -> String {
    let mut sorted: Vec<&TextEdit> = edits.iter().collect();
    sorted.sort_by_key(|e| std::cmp::Reverse((e.span.start, e.span.end)));
    let mut out = src.to_string();
    for e in sorted {
        out.replace_range(e.span.start..e.span.end, &e.text);
    }
    out
}

/// The edit that inserts or replaces the puzzle's `solution` statement with
/// `presses` (row-major); `None` when the block has no closing brace.
pub fn solution(src: &str, block: &BlockSyntax, model: &Puzzle, presses: &Presses) -> Option<TextEdit> {
    let SolutionText::Text(text) = solution_text(model, presses) else { return None };
    solution_statement(src, block, text)
}

/// Inserts or replaces the block's `solution` statement with `text`.
pub(crate) fn solution_statement(src: &str, block: &BlockSyntax, text: String) -> Option<TextEdit> {
    let existing = block.statements.iter().find(|s| matches!(s.kind, StatementKind::Solution(_)));
    match existing {
        Some(stmt) => Some(replace_statement(src, stmt, &text)),
        None => insert_statement(src, block, &text),
    }
}

/// The edit that inserts or replaces a sliding block's `solution "…"`
/// statement with `moves` (letters `U D L R`); `None` when the block has no
/// closing brace. Long solutions are grouped in tens, which the language
/// allows, so they can be read and counted: `"DRRDLLURUL DDDDRULDRR D"`.
pub fn move_solution(src: &str, block: &BlockSyntax, moves: &str) -> Option<TextEdit> {
    let text = format!("{}solution \"{}\"", block_indent(src, block), group_moves(moves));
    let existing = block.statements.iter().find(|s| matches!(s.kind, StatementKind::MoveSolution(_)));
    match existing {
        Some(stmt) => Some(replace_statement(src, stmt, &text)),
        None => insert_statement(src, block, &text),
    }
}

/// Moves in groups of ten when there are more than twenty of them.
pub fn group_moves(moves: &str) -> String {
    if moves.len() <= 20 {
        return moves.to_string();
    }
    let letters: Vec<char> = moves.chars().collect();
    letters.chunks(10).map(|c| c.iter().collect::<String>()).collect::<Vec<_>>().join(" ")
}

/// Edits that make the `expect` lines state the current result: existing
/// `expect` statements are removed and the new ones are written where the
/// first of them was (or at the end of the block).
pub fn expectations(src: &str, block: &BlockSyntax, report: &Report) -> Vec<TextEdit> {
    expect_lines(src, block, &claims_for(report))
}

/// Edits that replace the block's `expect` statements with `claims` (whole
/// statements, `expect …`), written where the first of them was (or at the
/// end of the block). Works for puzzle and sliding blocks alike.
pub fn expect_lines(src: &str, block: &BlockSyntax, claims: &[String]) -> Vec<TextEdit> {
    let indent = block_indent(src, block);
    let expects: Vec<&Statement> =
        block.statements.iter().filter(|s| matches!(s.kind, StatementKind::Expect(_))).collect();
    let Some((first, rest)) = expects.split_first() else {
        let lines: Vec<String> = claims.iter().map(|c| format!("{indent}{c}")).collect();
        return insert_statement(src, block, &lines.join("\n")).into_iter().collect();
    };
    // The first `expect` becomes the new claims (its line keeps its indentation
    // and any trailing comment); the others go, with their line when alone on it.
    // On a line of its own the claims go one per line; on a shared line (a
    // one-line puzzle) they stay on it.
    let first_span = statement_span(first);
    let separator = if owns_line(src, first_span) { format!("\n{indent}") } else { "  ".to_string() };
    let mut edits = vec![native(src, TextEdit { span: first_span, text: claims.join(&separator) })];
    for stmt in rest {
        let span = statement_span(stmt);
        let lines = whole_lines(src, span);
        let alone = lines.text(src).trim() == span.text(src).trim();
        edits.push(TextEdit { span: if alone { lines } else { span }, text: String::new() });
    }
    edits
}

/// The claims that describe `report`, one per line: `expect unique` or
/// `expect solutions N`, plus `expect presses N` when the minimum is proven;
/// `expect unsolvable` for an unsolvable puzzle.
pub fn claims_for(report: &Report) -> Vec<String> {
    if !report.solvable {
        return vec!["expect unsolvable".to_string()];
    }
    let mut out = Vec::new();
    if report.solutions == BigUint::from(1u32) {
        out.push("expect unique".to_string());
    } else {
        out.push(format!("expect solutions {}", report.solutions));
    }
    if let Some(m) = report.minimum.as_ref().filter(|m| m.optimal) {
        out.push(format!("expect presses {}", m.cost));
    }
    out
}

/// The edit that sets cell `index` of the puzzle's `lights` to `value`,
/// touching as little as possible: the one grid cell (when the grid can
/// hold the value), the one entry of a sparse list, `off` turned into a
/// list; otherwise the whole statement rewritten as a grid.
pub fn lights_cell(src: &str, block: &BlockSyntax, model: &Puzzle, index: usize, value: u32) -> Option<TextEdit> {
    let stmt = block.statements.iter().find(|s| matches!(s.kind, StatementKind::Lights(_)));
    let coord = model.coord(index);
    let entry = if value == 1 { coord.clone() } else { format!("{coord}:{value}") };
    match stmt.map(|s| &s.kind) {
        Some(StatementKind::Lights(Value::Grid(_))) => {
            if let Some(cell) = model.lights.cell_spans.as_ref().and_then(|s| s.get(index)) {
                let compact = cell.len() == 1 && model.cols > 1 && is_compact_cell(src, cell);
                let text = if value == 0 { ".".to_string() } else { value.to_string() };
                if !compact || text.len() == 1 {
                    return Some(TextEdit { span: cell, text });
                }
            }
        }
        Some(StatementKind::Lights(Value::Sparse(list))) => {
            let (r, c) = if model.is_graph() {
                (index + 1, None)
            } else {
                (index / model.cols + 1, Some(index % model.cols + 1))
            };
            let at = |e: &&lights_syntax::ast::Entry| {
                e.row.value() == Some(r as u64)
                    && e.col.as_ref().and_then(lights_syntax::Number::value) == c.map(|c| c as u64)
            };
            match (list.entries.iter().find(at), value) {
                (Some(_), 0) if list.entries.len() == 1 => {
                    return Some(TextEdit { span: list.span, text: "off".to_string() });
                }
                (Some(e), 0) => {
                    // Remove the entry and the space that separated it from its neighbour.
                    let k = list.entries.iter().position(|x| x.span == e.span).unwrap_or(0);
                    let span = match (k.checked_sub(1).map(|i| &list.entries[i]), list.entries.get(k + 1)) {
                        (Some(prev), _) => Span::new(prev.span.end, e.span.end),
                        (None, Some(next)) => Span::new(e.span.start, next.span.start),
                        (None, None) => e.span,
                    };
                    return Some(TextEdit { span, text: String::new() });
                }
                (Some(e), _) => return Some(TextEdit { span: e.span, text: entry }),
                (None, 0) => return None,
                (None, _) => {
                    let end = list.entries.last().map_or(list.span.end, |e| e.span.end);
                    return Some(TextEdit { span: Span::new(end, end), text: format!(" {entry}") });
                }
            }
        }
        Some(StatementKind::Lights(Value::Off(span))) if value != 0 => {
            return Some(TextEdit { span: *span, text: format!("at {entry}") });
        }
        _ => {}
    }
    if stmt.is_none() && value != 0 {
        return insert_statement(src, block, &format!("{}lights at {entry}", block_indent(src, block)));
    }
    let mut values: Vec<u32> = model.lights.iter().map(u32::from).collect();
    values[index] = value;
    lights_board(src, block, model, &values)
}

/// The edit that rewrites (or adds) the puzzle's `lights` as a grid of `values`.
pub fn lights_board(src: &str, block: &BlockSyntax, model: &Puzzle, values: &[u32]) -> Option<TextEdit> {
    let text = value_statement("lights", model, values);
    match block.statements.iter().find(|s| matches!(s.kind, StatementKind::Lights(_))) {
        Some(stmt) => Some(replace_statement(src, stmt, &text)),
        None => insert_statement(src, block, &text),
    }
}

// A one-byte cell with a neighbour that is not whitespace is part of a compact row.
fn is_compact_cell(src: &str, cell: Span) -> bool {
    let bytes = src.as_bytes();
    let touching = |i: Option<usize>| i.and_then(|i| bytes.get(i)).is_some_and(|b| !b.is_ascii_whitespace());
    touching(cell.start.checked_sub(1)) || touching(Some(cell.end))
}

/// From the keyword to the end of the statement's value (a comment after
/// it on the same line is not part of it).
fn statement_span(stmt: &Statement) -> Span {
    let end = match &stmt.kind {
        StatementKind::Lights(v)
        | StatementKind::Goal(v)
        | StatementKind::Locked(v)
        | StatementKind::Holes(v)
        | StatementKind::Solution(v) => v.span().end,
        StatementKind::Expect(claim) => claim.span.end,
        StatementKind::MoveSolution(m) => m.span.end,
        _ => stmt.span.end,
    };
    Span::new(stmt.span.start, end.clamp(stmt.span.start, stmt.span.end))
}

/// Replace a statement (from its line's indentation when it starts the
/// line) with `text`, which is written with its own indentation.
///
/// Comments inside the old statement (`solution { // first try` or on its
/// rows) are kept: they go on lines of their own above the new one (or after
/// it, when the statement shares its line with another).
fn replace_statement(src: &str, stmt: &Statement, text: &str) -> TextEdit {
    let span = statement_span(stmt);
    let line_start = line_start(src, span.start);
    let comments = comments_in(span.text(src));
    let edit = if src[line_start..span.start].trim().is_empty() {
        let indent = &src[line_start..span.start];
        let above: String = comments.iter().map(|c| format!("{indent}{c}\n")).collect();
        TextEdit { span: Span::new(line_start, span.end), text: format!("{above}{text}") }
    } else {
        let after: String = comments.iter().map(|c| format!(" {c}")).collect();
        TextEdit { span, text: format!("{}{after}", text.trim_start()) }
    };
    native(src, edit)
}

/// The `//` comments in a statement's text, in order. Statements hold no
/// `//` but in comments (a sliding block's moves are letters).
fn comments_in(text: &str) -> Vec<&str> {
    text.lines().filter_map(|line| line.find("//").map(|i| line[i..].trim_end())).collect()
}

/// `edit` with the file's own line endings (those of its first line): CRLF
/// files get CRLF lines, CR-only files CR lines.
fn native(src: &str, mut edit: TextEdit) -> TextEdit {
    // The same rule as formatting keeps (`LineEnding::of`).
    let ending = lights_syntax::format::LineEnding::of(src).as_str();
    if ending != "\n" && edit.text.contains('\n') {
        edit.text = edit.text.replace("\r\n", "\n").replace('\n', ending);
    }
    edit
}

/// Insert `text` (one or more indented lines, no final newline) as the last
/// statement of the block.
fn insert_statement(src: &str, block: &BlockSyntax, text: &str) -> Option<TextEdit> {
    let close = block.close?;
    let line_start = line_start(src, close.start);
    let edit = if src[line_start..close.start].trim().is_empty() {
        TextEdit { span: Span::new(line_start, line_start), text: format!("{text}\n") }
    } else {
        // `}` after other text on its line: break the line there, leaving no trailing spaces.
        let content_end = line_start + src[line_start..close.start].trim_end().len();
        TextEdit { span: Span::new(content_end, close.start), text: format!("\n{text}\n") }
    };
    Some(native(src, edit))
}

/// Whether `span` is the only statement on its line (a comment may follow).
fn owns_line(src: &str, span: Span) -> bool {
    let lines = whole_lines(src, span);
    let before = &src[lines.start..span.start];
    let after = src[span.end..lines.end].trim();
    before.trim().is_empty() && (after.is_empty() || after.starts_with("//"))
}

/// The span of the lines holding `span`, newline included.
fn whole_lines(src: &str, span: Span) -> Span {
    let start = line_start(src, span.start);
    let end = src[span.end..].find('\n').map_or(src.len(), |i| span.end + i + 1);
    Span::new(start, end)
}

fn line_start(src: &str, offset: usize) -> usize {
    src[..offset].rfind('\n').map_or(0, |i| i + 1)
}

/// The indentation of the block's first statement (two spaces when none).
fn block_indent(src: &str, block: &BlockSyntax) -> String {
    block.statements.first().map_or_else(
        || "  ".to_string(),
        |s| {
            let start = line_start(src, s.span.start);
            let lead = &src[start..s.span.start];
            if lead.trim().is_empty() {
                lead.to_string()
            } else {
                "  ".to_string()
            }
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{analyze, check_source};

    fn first(src: &str) -> (BlockSyntax, Puzzle, Report) {
        let analysis = check_source(src);
        let p = &analysis.blocks[0];
        (
            analysis.syntax.blocks[0].clone(),
            p.puzzle().cloned().unwrap(),
            p.report.as_ref().and_then(crate::BlockReport::as_lights).cloned().unwrap(),
        )
    }

    /// The size of an `at` list is summed from `coord_len`, the list itself
    /// is written from `coord`: they must agree at every digit boundary.
    #[test]
    fn coordinate_lengths_match_the_coordinates() {
        for src in [
            "puzzle \"g\" { size 120x1001  lights on }\n",
            "puzzle \"h\" { size 9x9  lights on }\n",
            "puzzle \"n\" { graph cycle 1200  lights on }\n",
        ] {
            let (_, model, _) = first(src);
            for i in (0..model.cells()).filter(|i| i % 97 == 0 || (i + 1) % 10 < 2 || (i % model.cols.max(1)) < 2) {
                assert_eq!(coord_len(&model, i), model.coord(i).len(), "{src} cell {i}");
            }
        }
    }

    /// The size of a large board's solution: the exact `at` list when it is
    /// the shorter form and fits, and past the limit (by a lower bound when
    /// the presses alone prove it) when neither form fits.
    #[test]
    fn solution_sizes_of_large_boards() {
        let (_, model, report) = first("puzzle \"big\" { size 3000x3000  lights on }\n");
        let list = |p: &Presses| p.nonzero().map(|(i, v)| 1 + model.coord(i).len() + if v == 1 { 0 } else { 2 }).sum();
        let dense = &report.minimum.as_ref().unwrap().presses;
        assert!(list(dense) > MAX_SOLUTION_TEXT && 2 * model.cells() > MAX_SOLUTION_TEXT);
        assert!(solution_text_size(&model, dense) > MAX_SOLUTION_TEXT);
        assert!(matches!(solution_text(&model, dense), SolutionText::TooLarge { .. }));
        for states in [2, 5] {
            let mut sparse = Presses::zeros(model.cells(), states);
            for i in [0, 8, 9, 2999, 3000, 4_500_000, 8_999_999] {
                sparse.set(i, states - 1);
            }
            assert_eq!(solution_text_size(&model, &sparse), list(&sparse), "W = {states}");
        }
    }

    #[test]
    fn expect_lines_keep_comments_and_one_line_puzzles_stay_valid() {
        let src = "puzzle \"p\" {\n  size 5x5\n  lights on\n  expect unique // was\n  expect solvable\n}\n";
        let (block, _, report) = first(src);
        let out = apply(src, &expectations(src, &block, &report));
        assert_eq!(
            out,
            "puzzle \"p\" {\n  size 5x5\n  lights on\n  expect solutions 4\n  expect presses 15 // was\n}\n"
        );

        let src = "puzzle \"one\" { size 1x2  states 3  lights { 1 1 }  expect presses 5 }\n";
        let (block, _, report) = first(src);
        let out = apply(src, &expectations(src, &block, &report));
        assert_eq!(
            out,
            "puzzle \"one\" { size 1x2  states 3  lights { 1 1 }  expect solutions 3  expect presses 2 }\n"
        );
        assert!(check_source(&out).all_diagnostics().is_empty(), "{out}");
    }

    #[test]
    fn a_replaced_solution_keeps_its_comments_and_the_files_line_endings() {
        // A wrong written solution, with comments on its lines and after it.
        let src = "puzzle \"a\" {\n  size 2x2\n  lights on\n  solution { // first try\n    1 . // row one\n    . .\n  } // after\n}\n";
        let (block, model, report) = first(src);
        let e = solution(src, &block, &model, &report.minimum.unwrap().presses).unwrap();
        let out = apply(src, &[e]);
        assert_eq!(
            out,
            "puzzle \"a\" {\n  size 2x2\n  lights on\n  // first try\n  // row one\n  solution {\n    1 1\n    1 1\n  } // after\n}\n"
        );
        // `at` lists keep the comment after them; CRLF files get CRLF lines.
        let src = "puzzle \"a\" {\r\n  size 2x2\r\n  lights on\r\n  solution at 1,1 // my try\r\n}\r\n";
        let (block, model, report) = first(src);
        let e = solution(src, &block, &model, &report.minimum.unwrap().presses).unwrap();
        let out = apply(src, &[e]);
        assert_eq!(
            out,
            "puzzle \"a\" {\r\n  size 2x2\r\n  lights on\r\n  solution {\r\n    1 1\r\n    1 1\r\n  } // my try\r\n}\r\n"
        );
        assert!(check_source(&out).all_diagnostics().is_empty(), "{out}");
        // Inserted into a CRLF file.
        let src = "puzzle \"a\" {\r\n  size 2x2\r\n  lights on\r\n}\r\n";
        let (block, model, report) = first(src);
        let e = solution(src, &block, &model, &report.minimum.unwrap().presses).unwrap();
        assert!(!apply(src, &[e]).replace("\r\n", "").contains('\n'), "only CRLF line endings");
        // Inserted into a CR-only file: CR lines, no LF.
        let src = "puzzle \"a\" {\r  size 2x2\r  lights on\r}\r";
        let (block, model, report) = first(src);
        let e = solution(src, &block, &model, &report.minimum.unwrap().presses).unwrap();
        let out = apply(src, &[e]);
        assert!(!out.contains('\n'), "only CR line endings: {out:?}");
        assert!(check_source(&out).all_diagnostics().is_empty(), "{out:?}");
    }

    #[test]
    fn solutions_are_inserted_without_trailing_spaces() {
        let src = "puzzle \"one\" { size 1x2  states 3  lights { 1 1 } }\n";
        let (block, model, report) = first(src);
        let e = solution(src, &block, &model, &report.minimum.unwrap().presses).unwrap();
        let out = apply(src, &[e]);
        assert_eq!(out, "puzzle \"one\" { size 1x2  states 3  lights { 1 1 }\n  solution {\n    2 .\n  }\n}\n");
        assert!(check_source(&out).all_diagnostics().is_empty(), "{out}");
    }

    #[test]
    fn move_solutions_are_inserted_or_replaced_and_check() {
        let head = "sliding \"s\" {\n  size 2x3\n  tiles {\n    1 2 3\n    4 . 5\n  }\n";
        let src = format!("{head}}}\n");
        let analysis = check_source(&src);
        let moves = &analysis.blocks[0]
            .report
            .as_ref()
            .and_then(crate::BlockReport::as_sliding)
            .unwrap()
            .solution
            .as_ref()
            .unwrap()
            .moves;
        assert_eq!(moves, "R");
        let out = apply(&src, &[move_solution(&src, &analysis.syntax.blocks[0], moves).unwrap()]);
        assert_eq!(out, format!("{head}  solution \"R\"\n}}\n"));
        assert!(check_source(&out).all_diagnostics().is_empty(), "{out}");

        // A wrong solution is replaced in place, its comment kept.
        let src = format!("{head}  solution \"LL\" // mine\n  expect solvable\n}}\n");
        let analysis = check_source(&src);
        let out = apply(&src, &[move_solution(&src, &analysis.syntax.blocks[0], "R").unwrap()]);
        assert_eq!(out, format!("{head}  solution \"R\" // mine\n  expect solvable\n}}\n"));
        assert!(check_source(&out).all_diagnostics().is_empty(), "{out}");
    }

    #[test]
    fn long_move_strings_are_grouped_in_tens() {
        assert_eq!(group_moves("LLURRDLULDRRULL"), "LLURRDLULDRRULL");
        let long = "UDLR".repeat(6);
        assert_eq!(group_moves(&long), "UDLRUDLRUD LRUDLRUDLR UDLR");
        assert_eq!(group_moves(&long).replace(' ', ""), long);
    }

    #[test]
    fn one_light_changes_touch_one_cell_or_entry() {
        let cases = [
            ("lights {\n    1 .\n    . .\n  }", 0, 0, "lights {\n    . .\n    . .\n  }"),
            ("lights {\n    1.\n    ..\n  }", 3, 1, "lights {\n    1.\n    .1\n  }"),
            ("lights at 1,1 2,2", 0, 0, "lights at 2,2"),
            ("lights at 1,1", 0, 0, "lights off"),
            ("lights at 1,1", 1, 1, "lights at 1,1 1,2"),
            ("lights off", 2, 1, "lights at 2,1"),
        ];
        for (lights, index, value, expected) in cases {
            let src = format!("puzzle \"p\" {{\n  size 2x2\n  {lights}\n  expect unsolvable\n}}\n");
            let analysis = analyze(&src);
            let model = analysis.blocks[0].puzzle().cloned().unwrap();
            let e = lights_cell(&src, &analysis.syntax.blocks[0], &model, index, value).unwrap();
            let out = apply(&src, &[e]);
            assert_eq!(out, src.replace(lights, expected), "{lights}");
        }
    }
}
