//! The canonical form of a `.lights` file.
//!
//! - two-space indentation, one statement per line, statements kept in the
//!   order written;
//! - grids one row per line; spaced rows aligned in columns (numbers
//!   right-aligned), compact rows when the board is wider than 32 columns
//!   and every cell is one character;
//! - comments stay where they were: a comment on a line of its own stays on
//!   a line of its own before the same code, a trailing comment stays at the
//!   end of its line;
//! - at most one blank line in a row (kept where the author put one), and
//!   exactly one between puzzles.
//!
//! A file with syntax errors is not formatted: guessing could lose text.

use crate::ast::*;
use crate::{parse, LineIndex, SyntaxError};

/// Boards wider than this are written with compact rows when they can be.
pub const COMPACT_ABOVE_COLUMNS: usize = 32;

const INDENT: &str = "  ";

#[derive(Debug, Clone)]
pub enum FormatError {
    /// The file does not parse; nothing was formatted.
    Syntax(Vec<SyntaxError>),
}

impl std::fmt::Display for FormatError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            FormatError::Syntax(errors) => {
                write!(f, "the file has {} syntax error(s); fix them first", errors.len())
            }
        }
    }
}

impl std::error::Error for FormatError {}

/// Format a whole file, or refuse (without touching anything) when it does not parse.
pub fn format_source(src: &str) -> Result<String, FormatError> {
    let file = parse(src);
    if !file.errors.is_empty() {
        return Err(FormatError::Syntax(file.errors));
    }
    Ok(Formatter::new(src).file(&file))
}

/// [`format_source`] for a file as it is stored: its byte-order mark and
/// its line ending ([`Layout`]) are kept. This is the one formatting rule of
/// every front end (`lights fmt`, the language server's formatting), so
/// they cannot drift. On syntax errors the spans are in the text the
/// formatter saw: [`Layout::split`]`(src).1`.
pub fn format_keeping_layout(src: &str) -> Result<String, FormatError> {
    let (layout, lf) = Layout::split(src);
    format_source(&lf).map(|formatted| layout.restore(&formatted))
}

/// A file's line ending: that of its first line (LF when it has none).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LineEnding {
    Lf,
    CrLf,
    /// CR alone (classic Mac OS); the parser ends a line there too.
    Cr,
}

impl LineEnding {
    /// The ending of `text`'s first line; LF when it has one line.
    pub fn of(text: &str) -> LineEnding {
        match text.find(['\r', '\n']) {
            Some(i) if text[i..].starts_with("\r\n") => LineEnding::CrLf,
            Some(i) if text[i..].starts_with('\r') => LineEnding::Cr,
            _ => LineEnding::Lf,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            LineEnding::Lf => "\n",
            LineEnding::CrLf => "\r\n",
            LineEnding::Cr => "\r",
        }
    }
}

/// What formatting keeps of a file's bytes while the formatter, which
/// writes LF lines and no byte-order mark, rewrites the rest: the
/// byte-order mark and the line ending of the first line. A file mixing
/// endings gets the first one throughout (the canonical form has one).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Layout {
    pub bom: bool,
    pub ending: LineEnding,
}

impl Layout {
    /// The layout of `src`, and its text without the byte-order mark with
    /// every line ending (CRLF, CR alone, LF) made LF. The parser ends a
    /// line at each of them, so this changes no meaning.
    pub fn split(src: &str) -> (Layout, std::borrow::Cow<'_, str>) {
        let (bom, body) = match src.strip_prefix('\u{feff}') {
            Some(body) => (true, body),
            None => (false, src),
        };
        let layout = Layout { bom, ending: LineEnding::of(body) };
        let lf = if body.contains('\r') { body.replace("\r\n", "\n").replace('\r', "\n").into() } else { body.into() };
        (layout, lf)
    }

    /// `lf` (LF lines, no byte-order mark) in this layout.
    pub fn restore(&self, lf: &str) -> String {
        let ending = self.ending.as_str();
        let extra = if ending.len() > 1 { lf.bytes().filter(|&b| b == b'\n').count() } else { 0 };
        let mut out = String::with_capacity(lf.len() + extra + 3);
        if self.bom {
            out.push('\u{feff}');
        }
        match self.ending {
            LineEnding::Lf => out.push_str(lf),
            _ => {
                for (i, line) in lf.split('\n').enumerate() {
                    if i > 0 {
                        out.push_str(ending);
                    }
                    out.push_str(line);
                }
            }
        }
        out
    }
}

/// One line of output before layout: its text, its depth, and where it came from.
struct Item {
    indent: usize,
    text: String,
    /// Source line the item starts on / ends on.
    line: usize,
    end_line: usize,
    kind: ItemKind,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum ItemKind {
    PuzzleHead,
    Open,
    Close,
    Code,
    OwnLineComment,
}

struct Formatter<'s> {
    src: &'s str,
    lines: LineIndex,
    items: Vec<Item>,
    /// The block being formatted is a hex board (`grid hex`): its board
    /// grids get their even rows shifted by half a cell.
    hex: bool,
}

impl<'s> Formatter<'s> {
    fn new(src: &'s str) -> Self {
        Formatter { src, lines: LineIndex::new(src), items: Vec::new(), hex: false }
    }

    fn push(&mut self, indent: usize, text: String, span: Span, kind: ItemKind) {
        let line = self.lines.line(span.start);
        let end_line = self.lines.line(span.end.saturating_sub(1).max(span.start));
        self.items.push(Item { indent, text, line, end_line, kind });
    }

    fn file(mut self, file: &SourceFile) -> String {
        let mut order = file.order.as_ref();
        for block in &file.blocks {
            if let Some(o) = order.filter(|o| o.span.start < block.span.start) {
                self.push(0, format!("order by {}", o.key.name()), o.span, ItemKind::Code);
                order = None;
            }
            self.puzzle(block);
        }
        if let Some(o) = order {
            self.push(0, format!("order by {}", o.key.name()), o.span, ItemKind::Code);
        }
        let comments: Vec<Span> = file.comments.clone();
        self.place_comments(&comments);
        self.render()
    }

    fn puzzle(&mut self, block: &BlockSyntax) {
        let name = block.name.as_ref().map(|n| quote(&n.value)).unwrap_or_default();
        self.push(0, format!("{} {name} {{", block.kind.keyword()), block.head, ItemKind::PuzzleHead);
        let width = board_width(block);
        self.hex =
            block.statements.iter().any(|s| matches!(&s.kind, StatementKind::Grid(shape) if shape.text == "hex"));
        for stmt in &block.statements {
            self.statement(stmt, width);
        }
        let close = block.close.unwrap_or(Span::new(block.span.end, block.span.end));
        self.push(0, "}".into(), close, ItemKind::Close);
    }

    fn statement(&mut self, stmt: &Statement, width: Option<usize>) {
        let kw = stmt.kind.keyword();
        let head_span = Span::new(stmt.span.start, stmt.keyword.end);
        match &stmt.kind {
            StatementKind::Size { rows, cols } => {
                let text = format!("size {}x{}", num(rows), num(cols));
                self.push(1, text, stmt.span, ItemKind::Code);
            }
            StatementKind::States(n) => self.push(1, format!("states {}", num(n)), stmt.span, ItemKind::Code),
            StatementKind::Topology(t) => self.push(1, format!("topology {}", t.text), stmt.span, ItemKind::Code),
            StatementKind::Rule(RuleSpec::Named(n)) => {
                self.push(1, format!("rule {}", n.text), stmt.span, ItemKind::Code);
            }
            StatementKind::Rule(RuleSpec::Stencil(grid)) => self.grid(kw, head_span, grid, Some(stencil_width(grid))),
            StatementKind::Expect(claim) => {
                let c = match &claim.kind {
                    ClaimKind::Solvable => "solvable".to_string(),
                    ClaimKind::Unsolvable => "unsolvable".to_string(),
                    ClaimKind::Unique => "unique".to_string(),
                    ClaimKind::Solutions(n) => format!("solutions {}", num(n)),
                    ClaimKind::Presses(n) => format!("presses {}", num(n)),
                    ClaimKind::PressesBetween(a, b) => format!("presses {}..{}", num(a), num(b)),
                    ClaimKind::Difficulty(a, None) => format!("difficulty {}", num(a)),
                    ClaimKind::Difficulty(a, Some(b)) => format!("difficulty {}..{}", num(a), num(b)),
                    ClaimKind::Moves(n) => format!("moves {}", num(n)),
                };
                self.push(1, format!("expect {c}"), stmt.span, ItemKind::Code);
            }
            StatementKind::Grid(shape) => self.push(1, format!("grid {}", shape.text), stmt.span, ItemKind::Code),
            StatementKind::Graph(GraphSpec::Named { name, size }) => {
                let text = match size {
                    Some(n) => format!("graph {} {}", name.text, num(n)),
                    None => format!("graph {}", name.text),
                };
                self.push(1, text, stmt.span, ItemKind::Code);
            }
            StatementKind::Graph(GraphSpec::Edges(edges)) => self.graph_edges(head_span, edges),
            StatementKind::Lights(v)
            | StatementKind::Goal(v)
            | StatementKind::Locked(v)
            | StatementKind::Holes(v)
            | StatementKind::Solution(v) => match v {
                Value::On(_) => self.push(1, format!("{kw} on"), stmt.span, ItemKind::Code),
                Value::Off(_) => self.push(1, format!("{kw} off"), stmt.span, ItemKind::Code),
                Value::Sparse(s) => {
                    let text = format!("{kw} {}", sparse(s, kw != "locked" && kw != "holes"));
                    self.push(1, text, stmt.span, ItemKind::Code);
                }
                Value::Grid(g) => self.grid(kw, head_span, g, width),
            },
            StatementKind::Tiles(g) => self.grid(kw, head_span, g, width),
            // The moves are kept exactly as written: authors may group them with spaces.
            StatementKind::MoveSolution(m) => {
                self.push(1, format!("solution {}", m.span.text(self.src)), stmt.span, ItemKind::Code);
            }
        }
    }

    /// `graph { 1-2 2-3 }` on one line when written on one line; otherwise
    /// `graph {`, the items line by line as written, `}`.
    fn graph_edges(&mut self, head: Span, edges: &GraphEdges) {
        let src = self.src;
        let item_text = |i: &GraphItem| match i.b(src) {
            Some(b) => format!("{}-{}", num(&i.a(src)), num(&b)),
            None => num(&i.a(src)),
        };
        let one_line = self.lines.line(edges.span.start) == self.lines.line(edges.span.end.saturating_sub(1));
        if one_line {
            let items: Vec<String> = edges.items.iter().map(item_text).collect();
            let text =
                if items.is_empty() { "graph {}".to_string() } else { format!("graph {{ {} }}", items.join(" ")) };
            return self.push(1, text, Span::new(head.start, edges.span.end), ItemKind::Code);
        }
        self.push(1, "graph {".into(), Span::new(head.start, edges.span.start + 1), ItemKind::Open);
        let mut line: Option<(usize, Vec<String>, Span)> = None;
        for item in &edges.items {
            let l = self.lines.line(item.span.start);
            match &mut line {
                Some((cur, texts, span)) if *cur == l => {
                    texts.push(item_text(item));
                    *span = span.join(item.span);
                }
                _ => {
                    if let Some((_, texts, span)) = line.take() {
                        self.push(2, texts.join(" "), span, ItemKind::Code);
                    }
                    line = Some((l, vec![item_text(item)], item.span));
                }
            }
        }
        if let Some((_, texts, span)) = line {
            self.push(2, texts.join(" "), span, ItemKind::Code);
        }
        let close = Span::new(edges.span.end.saturating_sub(1), edges.span.end);
        self.push(1, "}".into(), close, ItemKind::Close);
    }

    fn grid(&mut self, kw: &str, head: Span, grid: &Grid, width: Option<usize>) {
        let open = Span::new(head.start, grid.span.start + 1);
        self.push(1, format!("{kw} {{"), open, ItemKind::Open);
        let mut rows = self.grid_rows(grid, width);
        if self.hex && kw != "rule" && width.is_some() {
            hex_shift(&mut rows);
        }
        for (row, text) in grid.rows.iter().zip(rows) {
            self.push(2, text, row.span, ItemKind::Code);
        }
        let close = grid.close.unwrap_or(Span::new(grid.span.end, grid.span.end));
        self.push(1, "}".into(), close, ItemKind::Close);
    }

    /// The rows' texts, aligned in columns (or compact on wide boards).
    fn grid_rows(&self, grid: &Grid, width: Option<usize>) -> Vec<String> {
        let Some(width) = width else {
            // Board width unknown: keep each row's form, normalise spacing only.
            return grid.rows.iter().map(|r| self.tokens_text(r)).collect();
        };
        let cells: Vec<Vec<&str>> =
            grid.rows.iter().map(|r| r.cells(width).iter().map(|s| s.text(self.src)).collect()).collect();
        layout_rows(&cells, width)
    }

    fn tokens_text(&self, row: &Row) -> String {
        row.tokens.iter().map(|t| t.text(self.src)).collect::<Vec<_>>().join(" ")
    }

    /// Insert the comments among the code items, in source order.
    fn place_comments(&mut self, comments: &[Span]) {
        let mut out: Vec<Item> = Vec::with_capacity(self.items.len() + comments.len());
        let mut code = std::mem::take(&mut self.items).into_iter().peekable();
        for &c in comments {
            let line = self.lines.line(c.start);
            let text = c.text(self.src).trim_end().to_string();
            let own_line = self.src[self.lines.line_start(line)..c.start].trim().is_empty();
            // Everything that starts before the comment's line (or on it, for a trailing comment) comes first.
            while let Some(item) = code.peek() {
                let before = if own_line { item.line < line } else { item.line <= line };
                if !before {
                    break;
                }
                out.push(code.next().expect("peeked"));
            }
            if own_line {
                out.push(Item { indent: 0, text, line, end_line: line, kind: ItemKind::OwnLineComment });
            } else if let Some(last) = out.iter_mut().rev().find(|i| i.kind != ItemKind::OwnLineComment) {
                last.text.push(' ');
                last.text.push_str(&text);
            } else {
                out.push(Item { indent: 0, text, line, end_line: line, kind: ItemKind::OwnLineComment });
            }
        }
        out.extend(code);
        // An own-line comment takes the indentation of the code after it
        // (one deeper when that code closes a block: the comment is inside).
        let mut next_indent = 0;
        for item in out.iter_mut().rev() {
            match item.kind {
                ItemKind::OwnLineComment => item.indent = next_indent,
                ItemKind::Close => next_indent = item.indent + 1,
                _ => next_indent = item.indent,
            }
        }
        self.items = out;
    }

    fn render(&self) -> String {
        let mut out = String::with_capacity(self.src.len() + 64);
        let n = self.items.len();
        // Blank line before item i?
        let mut blank = vec![false; n];
        for (i, pair) in self.items.windows(2).enumerate() {
            let (prev, cur) = (&pair[0], &pair[1]);
            let gap = cur.line > prev.end_line + 1 && self.has_blank_line(prev.end_line + 1, cur.line);
            let after_open = matches!(prev.kind, ItemKind::Open | ItemKind::PuzzleHead);
            blank[i + 1] = gap && !after_open && cur.kind != ItemKind::Close;
        }
        // Exactly one blank line before each puzzle but the first, placed
        // above the comments that lead into it.
        let mut seen_code = false;
        for i in 0..n {
            if self.items[i].kind == ItemKind::PuzzleHead {
                let mut j = i;
                while j > 0 && self.items[j - 1].kind == ItemKind::OwnLineComment && !blank[j] {
                    j -= 1;
                }
                for b in &mut blank[j + 1..=i] {
                    *b = false;
                }
                if seen_code || j > 0 && self.items[..j].iter().any(|it| it.kind != ItemKind::OwnLineComment) {
                    blank[j] = true;
                }
                seen_code = true;
            }
        }
        for (i, item) in self.items.iter().enumerate() {
            if blank[i] && i > 0 {
                out.push('\n');
            }
            for _ in 0..item.indent {
                out.push_str(INDENT);
            }
            out.push_str(&item.text);
            out.push('\n');
        }
        out
    }

    fn has_blank_line(&self, from: usize, to: usize) -> bool {
        (from..to).any(|l| {
            let start = self.lines.line_start(l);
            let end = self.lines.line_start(l + 1);
            self.src[start..end].trim().is_empty()
        })
    }
}

/// Lay out grid rows in canonical form: compact rows on boards wider than
/// [`COMPACT_ABOVE_COLUMNS`] when every cell is one character, otherwise
/// spaced rows aligned in columns (right-aligned).
pub fn layout_rows<S: AsRef<str>>(cells: &[Vec<S>], width: usize) -> Vec<String> {
    let all_single = cells.iter().flatten().all(|c| c.as_ref().len() == 1);
    if width > COMPACT_ABOVE_COLUMNS && all_single {
        return cells.iter().map(|row| row.iter().map(AsRef::as_ref).collect::<String>()).collect();
    }
    let columns = cells.iter().map(Vec::len).max().unwrap_or(0);
    let mut col_width = vec![1; columns];
    for row in cells {
        for (i, c) in row.iter().enumerate() {
            col_width[i] = col_width[i].max(c.as_ref().len());
        }
    }
    cells
        .iter()
        .map(|row| {
            let padded: Vec<String> =
                row.iter().enumerate().map(|(i, c)| format!("{:>w$}", c.as_ref(), w = col_width[i])).collect();
            padded.join(" ")
        })
        .collect()
}

/// A canonical grid statement (`keyword {`, rows, `}`) at block depth, with
/// `.` for 0, ending without a newline.
pub fn grid_statement(keyword: &str, rows: usize, cols: usize, values: &[u32]) -> String {
    let cells: Vec<Vec<String>> = (0..rows)
        .map(|r| {
            (0..cols)
                .map(|c| match values[r * cols + c] {
                    0 => ".".to_string(),
                    v => v.to_string(),
                })
                .collect()
        })
        .collect();
    let mut out = format!("{INDENT}{keyword} {{\n");
    for row in layout_rows(&cells, cols) {
        out.push_str(&format!("{INDENT}{INDENT}{row}\n"));
    }
    out.push_str(&format!("{INDENT}}}"));
    out
}

/// Hex boards: rows 2, 4, … indented by half a cell (spaced rows only; a
/// compact row has no room for half a cell).
pub fn hex_shift(rows: &mut [String]) {
    let spaced = rows.iter().any(|r| r.contains(' '));
    if !spaced {
        return;
    }
    let cell = rows.iter().flat_map(|r| r.split_whitespace()).map(str::len).max().unwrap_or(1);
    let shift = " ".repeat(cell.div_ceil(2));
    for row in rows.iter_mut().skip(1).step_by(2) {
        row.insert_str(0, &shift);
    }
}

/// The board width from the puzzle's `size`, when it is there and sane.
fn board_width(block: &BlockSyntax) -> Option<usize> {
    block.statements.iter().find_map(|s| match &s.kind {
        StatementKind::Size { cols, .. } => cols.value().and_then(|c| usize::try_from(c).ok()).filter(|&c| c >= 1),
        _ => None,
    })
}

/// A stencil's width: its spaced rows' cell count, else its compact rows' length.
pub fn stencil_width(grid: &Grid) -> usize {
    grid.rows
        .iter()
        .find(|r| r.form == RowForm::Spaced)
        .map(|r| r.tokens.len())
        .or_else(|| grid.rows.iter().find(|r| r.form == RowForm::Compact).map(|r| r.tokens[0].len()))
        .unwrap_or(1)
}

fn num(n: &Number) -> String {
    match n.value() {
        Some(v) => v.to_string(),
        None => n.text.clone(),
    }
}

/// `at 1,1 2,3:2`; `:1` is dropped from values (it is the default) but kept
/// in masks, where any `:v` is an error the formatter must not hide.
fn sparse(s: &Sparse, drop_default: bool) -> String {
    let mut out = String::from("at");
    for e in &s.entries {
        match &e.col {
            Some(col) => out.push_str(&format!(" {},{}", num(&e.row), num(col))),
            None => out.push_str(&format!(" {}", num(&e.row))),
        }
        if let Some(v) = &e.value {
            if !drop_default || v.value() != Some(1) {
                out.push_str(&format!(":{}", num(v)));
            }
        }
    }
    out
}

/// A puzzle name as a quoted string, escaping `"` and `\`.
pub fn quote(name: &str) -> String {
    let mut s = String::with_capacity(name.len() + 2);
    s.push('"');
    for c in name.chars() {
        if c == '"' || c == '\\' {
            s.push('\\');
        }
        s.push(c);
    }
    s.push('"');
    s
}

#[cfg(test)]
mod tests {
    use super::format_source;

    #[test]
    fn the_byte_order_mark_and_line_endings_are_kept() {
        use super::{format_keeping_layout, LineEnding};
        const CANONICAL: &str = "puzzle \"a\" {\n  size 2x2\n  lights on\n}\n";
        const MESSY: &str = "puzzle \"a\" {\nsize 2x2\n    lights on\n}\n";
        for ending in ["\n", "\r\n", "\r"] {
            for bom in ["", "\u{feff}"] {
                let src = format!("{bom}{}", MESSY.replace('\n', ending));
                let want = format!("{bom}{}", CANONICAL.replace('\n', ending));
                assert_eq!(format_keeping_layout(&src).unwrap(), want, "{ending:?} {bom:?}");
                assert_eq!(format_keeping_layout(&want).unwrap(), want, "{ending:?} {bom:?}: already canonical");
                assert_eq!(LineEnding::of(&src).as_str(), ending);
            }
        }
        // A mixed file (lone CRs too) takes its first line's ending throughout.
        let mixed = "puzzle \"a\" {\r\nsize 2x2\n    lights on\r}\r\n";
        assert_eq!(format_keeping_layout(mixed).unwrap(), CANONICAL.replace('\n', "\r\n"));
        // Errors are those of the LF text.
        assert!(format_keeping_layout("\u{feff}puzzle \"a\" {\r\n  siz 2x2\r\n}\r\n").is_err());
    }

    #[test]
    fn canonical_layout() {
        let src = "// a pack\npuzzle \"a\" { size 2x3\nlights {\n1 . 12   // top\n.1.\n}\n\n\n   expect   solutions 004 // four\n}\n// lead\npuzzle \"b\" {\n size 1 x 1\n // inside\n}\n";
        let out = format_source(src).unwrap();
        let want = "// a pack\npuzzle \"a\" {\n  size 2x3\n  lights {\n    1 . 12 // top\n    . 1  .\n  }\n\n  expect solutions 4 // four\n}\n\n// lead\npuzzle \"b\" {\n  size 1x1\n  // inside\n}\n";
        assert_eq!(out, want);
        assert_eq!(format_source(&out).unwrap(), out);
    }

    #[test]
    fn wide_boards_use_compact_rows() {
        let row: String = (0..40).map(|i| if i % 2 == 0 { ". " } else { "1 " }).collect();
        let src = format!("puzzle \"w\" {{\n size 1x40\n lights {{\n {row}\n }}\n}}\n");
        let out = format_source(&src).unwrap();
        assert!(out.contains(&".1".repeat(20)), "{out}");
    }

    #[test]
    fn sliding_blocks_are_formatted_in_columns() {
        let src = "// lead\nsliding \"loyd\" {   // head\n size 4 x 4\n tiles {\n1 2 3 4\n5 6 7 8 // row\n9 10 11 12\n13 15 14 .\n}\n  expect unsolvable   expect   moves 007\n  solution   \"LLU  RDR\"\n}\npuzzle \"p\" { size 1x1 }\nsliding \"small\" { size 2x3 tiles { 12.\n453 } goal {\n1 2 3\n4 5 .} }\n";
        let out = format_source(src).unwrap();
        let want = "// lead\nsliding \"loyd\" { // head\n  size 4x4\n  tiles {\n     1  2  3  4\n     5  6  7  8 // row\n     9 10 11 12\n    13 15 14  .\n  }\n  expect unsolvable\n  expect moves 7\n  solution \"LLU  RDR\"\n}\n\npuzzle \"p\" {\n  size 1x1\n}\n\nsliding \"small\" {\n  size 2x3\n  tiles {\n    1 2 .\n    4 5 3\n  }\n  goal {\n    1 2 3\n    4 5 .\n  }\n}\n";
        assert_eq!(out, want);
        assert_eq!(format_source(&out).unwrap(), out);
    }

    #[test]
    fn hex_grids_shift_their_even_rows_and_graphs_keep_their_lines() {
        let src = "puzzle \"h\" {\n grid hex\n size 3x3\n lights {\n1 . 1\n. 1 .\n1 1 1\n}\n}\npuzzle \"g\" {\n graph   {1-2   2 - 3\n 3-1 // closing\n 4 }\n lights at 1 4:1\n holes at 2\n}\n";
        let out = format_source(src).unwrap();
        let want = "puzzle \"h\" {\n  grid hex\n  size 3x3\n  lights {\n    1 . 1\n     . 1 .\n    1 1 1\n  }\n}\n\npuzzle \"g\" {\n  graph {\n    1-2 2-3\n    3-1 // closing\n    4\n  }\n  lights at 1 4\n  holes at 2\n}\n";
        assert_eq!(out, want);
        assert_eq!(format_source(&out).unwrap(), out);
        let one_line = format_source("puzzle \"c\" {\n graph cycle   7\n graph {1-2 3}\n}\n").unwrap();
        assert!(one_line.contains("  graph cycle 7\n  graph { 1-2 3 }\n"), "{one_line}");
    }

    #[test]
    fn refuses_broken_files() {
        assert!(format_source("puzzle \"a\" {\n size 5\n}\n").is_err());
    }

    #[test]
    fn order_and_range_claims_keep_their_place_and_comments() {
        let src = "// a pack\norder   by  difficulty   // easy first\npuzzle \"a\" {\n expect presses 1 ..  5\n expect difficulty 7\n}\n\npuzzle \"b\" {\n size 2x2\n}\n";
        let out = format_source(src).unwrap();
        assert_eq!(
            out,
            "// a pack\norder by difficulty // easy first\n\npuzzle \"a\" {\n  expect presses 1..5\n  expect difficulty 7\n}\n\npuzzle \"b\" {\n  size 2x2\n}\n"
        );
        // The second `order` is an error, and a file with errors is not formatted.
        assert!(format_source("order by presses\norder by presses\n").is_err());
        assert_eq!(format_source(&out).unwrap(), out);
        let at_end = format_source("puzzle \"a\" {\n  size 2x2\n}\n\norder by presses\n").unwrap();
        assert_eq!(at_end, "puzzle \"a\" {\n  size 2x2\n}\n\norder by presses\n");
    }
}
