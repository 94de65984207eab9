//! From a parsed `sliding` block to a validated [`SlidingPuzzle`], reporting
//! every way the block can be wrong: statements that only `puzzle` blocks
//! take (L0121), the board's size (L0122), the tiles and the goal (L0123 to
//! L0127, and the grid shape codes shared with puzzles), and the letters of
//! the solution (L0128). Whether the goal can be reached is the solver's
//! business, not this module's.

use lights_syntax::ast::{self, BlockKind, ClaimKind, RowForm, StatementKind, Value};
use lights_syntax::Span;

use crate::diagnostic::{Code, Diagnostic};
use crate::header::BlockHeader;
use crate::sliding::*;
use crate::validate::Validator;

/// Validate one `sliding` block. Returns the model only when there is no error.
pub(crate) fn validate(src: &str, block: &ast::BlockSyntax) -> (Option<SlidingPuzzle>, Vec<Diagnostic>) {
    debug_assert_eq!(block.kind, BlockKind::Sliding, "puzzle blocks are validated by `validate`");
    let mut v = Validator::new(src);
    let puzzle = v.sliding(block);
    let has_error = v.diags.iter().any(Diagnostic::is_error);
    (if has_error { None } else { puzzle }, v.diags)
}

/// At most this many L0128 diagnostics per solution string; the last one
/// says how many more characters are not moves.
const MAX_BAD_MOVES: usize = 5;

/// What a sliding block takes, for notes.
const SLIDING_TAKES: &str = "a sliding block takes size, tiles, goal, expect and solution";

impl Validator<'_> {
    fn sliding(&mut self, block: &ast::BlockSyntax) -> Option<SlidingPuzzle> {
        self.check_name(block.name.as_ref());
        self.puzzle_only(block);
        let (first, expects) = self.first_statements(block);

        let size = match first.get("size") {
            Some(stmt) => self.sliding_size(stmt),
            None if block.malformed.contains(&"size") => None,
            None => {
                self.push(
                    Diagnostic::error(Code::MissingSize, block.head, "this sliding puzzle has no `size`")
                        .with_label("needs a `size`")
                        .with_note("add a line such as `size 4x4` (rows x columns)"),
                );
                None
            }
        };
        let tiles_grid = match first.get("tiles").map(|s| &s.kind) {
            Some(StatementKind::Tiles(g)) => Some(g),
            _ => {
                if !block.malformed.contains(&"tiles") {
                    self.push(
                        Diagnostic::error(Code::MissingTiles, block.head, "this sliding puzzle has no `tiles`")
                            .with_label("needs `tiles`")
                            .with_note(
                                "add the start position: `tiles { … }`, one row per line, with the tiles \
                                 1…R·C−1 and one `.` for the blank",
                            ),
                    );
                }
                None
            }
        };

        let expects: Vec<SlidingExpectation> =
            expects.into_iter().filter_map(|(stmt, claim)| self.sliding_claim(stmt, claim)).collect();
        let solution = match first.get("solution") {
            Some(stmt @ ast::Statement { kind: StatementKind::MoveSolution(m), .. }) => self.moves(stmt, m),
            _ => None,
        };

        // Both grids are checked, so their mistakes are reported in one run.
        let (rows, cols) = size?;
        let tiles = tiles_grid.and_then(|g| self.tile_grid(g, rows, cols, "tiles"));
        let goal = match first.get("goal").map(|s| &s.kind) {
            Some(StatementKind::Goal(Value::Grid(g))) => {
                self.tile_grid(g, rows, cols, "goal").map(|(goal, cells)| (goal, Some(cells), false))
            }
            // `goal on`, `goal off`, `goal at …`: reported by `puzzle_only`.
            Some(_) => None,
            None => Some((default_goal(rows, cols), None, true)),
        };
        let ((tiles, tile_cells), (goal, goal_cells, goal_is_default)) = (tiles?, goal?);

        let span_of = |kw: &str| first.get(kw).map(|s| s.span);
        let spans = SlidingSpans {
            size: span_of("size"),
            tiles: span_of("tiles"),
            goal: span_of("goal"),
            solution: span_of("solution"),
            tile_cells,
            goal_cells,
        };
        Some(SlidingPuzzle {
            header: BlockHeader {
                name: block.name.as_ref().map(|n| n.value.clone()).unwrap_or_default(),
                span: block.span,
                head: block.head,
                expects,
                solution,
            }
            .into(),
            rows,
            cols,
            tiles,
            goal,
            goal_is_default: goal_is_default.into(),
            spans: spans.into(),
        })
    }

    /// L0121 for what only a `puzzle` block takes, written in a `sliding` block.
    fn puzzle_only(&mut self, block: &ast::BlockSyntax) {
        for stmt in &block.statements {
            let kw = stmt.kind.keyword();
            let (span, message, label, note) = match &stmt.kind {
                StatementKind::States(_)
                | StatementKind::Rule(_)
                | StatementKind::Topology(_)
                | StatementKind::Locked(_) => (
                    stmt.keyword,
                    format!("`{kw}` belongs in a `puzzle` block, not in a `sliding` block"),
                    "not a sliding statement",
                    format!("`{kw}` is about lights and presses, which a sliding puzzle does not have"),
                ),
                StatementKind::Holes(_) | StatementKind::Grid(_) | StatementKind::Graph(_) => (
                    stmt.keyword,
                    format!("`{kw}` belongs in a `puzzle` block, not in a `sliding` block"),
                    "not a sliding statement",
                    "sliding boards are rectangles of square cells: no holes, hexagons or graphs".to_string(),
                ),
                StatementKind::Lights(_) => (
                    stmt.keyword,
                    "`lights` belongs in a `puzzle` block, not in a `sliding` block".to_string(),
                    "not a sliding statement",
                    "a sliding puzzle's start position is written `tiles { … }`".to_string(),
                ),
                StatementKind::Goal(v @ (Value::On(_) | Value::Off(_) | Value::Sparse(_))) => {
                    let form = match v {
                        Value::On(_) => "`goal on`",
                        Value::Off(_) => "`goal off`",
                        _ => "a sparse `goal at …`",
                    };
                    (
                        v.span(),
                        format!("{form} belongs in a `puzzle` block: a sliding block's goal is a grid of tiles"),
                        "not a grid of tiles",
                        "write `goal { … }` with the same tiles as `tiles`, or leave `goal` out for the \
                         standard goal (tiles in order, the blank last)"
                            .to_string(),
                    )
                }
                StatementKind::Expect(ast::Claim {
                    span,
                    kind:
                        claim @ (ClaimKind::Unique
                        | ClaimKind::Solutions(_)
                        | ClaimKind::Presses(_)
                        | ClaimKind::PressesBetween(..)
                        | ClaimKind::Difficulty(..)),
                }) => {
                    let word = match claim {
                        ClaimKind::Unique => "unique",
                        ClaimKind::Solutions(_) => "solutions",
                        ClaimKind::Difficulty(..) => "difficulty",
                        _ => "presses",
                    };
                    (
                        *span,
                        format!("`expect {word}` belongs in a `puzzle` block, not in a `sliding` block"),
                        "not a sliding claim",
                        "a sliding block claims `expect solvable`, `expect unsolvable` or `expect moves N` \
                         (the fewest moves)"
                            .to_string(),
                    )
                }
                StatementKind::Solution(v) => (
                    v.span(),
                    "a `solution` of presses belongs in a `puzzle` block, not in a `sliding` block".to_string(),
                    "not a string of moves",
                    "a sliding solution is the blank's moves as a string: `solution \"LLUR\"` \
                     (U up, D down, L left, R right)"
                        .to_string(),
                ),
                _ => continue,
            };
            self.push(
                Diagnostic::error(Code::WrongBlockKind, span, message)
                    .with_label(label)
                    .with_note(note)
                    .with_note(SLIDING_TAKES),
            );
        }
    }

    /// `size`, with the sliding board's own limits: at least 2×2 (L0122),
    /// at most 65,536 cells (L0115).
    fn sliding_size(&mut self, stmt: &ast::Statement) -> Option<(usize, usize)> {
        let (r, c) = self.size(stmt)?;
        if r < MIN_SIDE || c < MIN_SIDE {
            self.push(
                Diagnostic::error(
                    Code::SlidingTooSmall,
                    stmt.span,
                    format!(
                        "a {r}×{c} board is too small for a sliding puzzle: it needs at least 2 rows and 2 columns"
                    ),
                )
                .with_label("at least 2x2")
                .with_note("on a board one row or one column wide the tiles can never change order"),
            );
            return None;
        }
        if (r * c) as u64 > MAX_SLIDING_CELLS {
            self.push(
                Diagnostic::error(
                    Code::BoardTooLarge,
                    stmt.span,
                    format!(
                        "a {r}×{c} board is too large for a sliding puzzle: sliding boards have at most \
                         {MAX_SLIDING_CELLS} cells"
                    ),
                )
                .with_label("too many cells")
                .with_note("tiles are numbered up to 65535; 256x256 is the largest square sliding board"),
            );
            return None;
        }
        Some((r, c))
    }

    /// A `tiles` or `goal` grid: the row shape (L0103, L0104), then each
    /// cell (L0106 for `x`, L0124 out of range, L0125 repeated), the blank
    /// (L0127) and, when every row is there, the missing tiles (L0126).
    ///
    /// One wrong cell is one mistake: when exactly one cell is wrong (out of
    /// range, repeated, `x` or a second blank), the tile or blank it
    /// displaced is named in a note on that cell's diagnostic instead of
    /// in a diagnostic of its own.
    fn tile_grid(&mut self, g: &ast::Grid, rows: usize, cols: usize, what: &str) -> Option<(Vec<u16>, Vec<Span>)> {
        let before = self.diags.len();
        let n = rows * cols;
        let rows_cells = self.grid_rows(g, rows, cols);
        let shape_ok = self.diags.len() == before && g.rows.iter().all(|r| r.form != RowForm::Bad);
        let mut t = TileGrid::new(what, rows, cols);
        let mut values = Vec::with_capacity(n);
        let mut spans = Vec::with_capacity(n);
        for (row, cells) in &rows_cells {
            let compact = row.form == RowForm::Compact;
            for &cell in cells {
                values.push(self.tile_cell(&mut t, cell, compact));
                spans.push(cell);
            }
        }
        if t.blanks.len() > 1 {
            for _ in 1..t.blanks.len() {
                t.extras.push((self.diags.len(), Extra::Blanks));
            }
            self.push(extra_blanks(&t.blanks, what));
        }
        if shape_ok {
            self.missing_tiles(&t, g.span);
        }
        if self.diags[before..].iter().any(Diagnostic::is_error) || !shape_ok {
            return None;
        }
        Some((values, spans))
    }

    /// One cell of a tile grid: its tile, or [`BLANK`] for the blank and
    /// for a wrong cell (L0106 for `x`, L0124 out of range, L0125 repeated).
    fn tile_cell(&mut self, t: &mut TileGrid, cell: Span, compact: bool) -> u16 {
        let text = cell.text(self.src);
        match text {
            "." => {
                t.blanks.push(cell);
                BLANK
            }
            "x" => {
                t.extras.push((self.diags.len(), Extra::Cell));
                self.push(not_a_tile(cell, t.what));
                BLANK
            }
            _ => match text.parse::<u64>() {
                Ok(tile) if tile >= 1 && tile < t.n() as u64 => {
                    let tile = tile as usize;
                    t.count[tile] += 1;
                    match t.seen[tile] {
                        Some(prev) => {
                            t.extras.push((self.diags.len(), Extra::Repeat));
                            self.push(repeated_tile(t, tile, cell, prev));
                        }
                        None => t.seen[tile] = Some(cell),
                    }
                    tile as u16
                }
                _ => {
                    t.extras.push((self.diags.len(), Extra::Cell));
                    self.push(tile_out_of_range(t, text, cell, compact));
                    BLANK
                }
            },
        }
    }

    /// When every row is there: counting cells, the missing tiles (and the
    /// missing blank) are exactly as many as the wrong cells. One wrong
    /// cell gets a note naming what it displaced; otherwise the missing
    /// blank (L0127) and tiles (L0126) are diagnostics of their own.
    fn missing_tiles(&mut self, t: &TileGrid, span: Span) {
        let (n, what) = (t.n(), t.what);
        let missing: Vec<usize> = (1..n).filter(|&tile| t.seen[tile].is_none()).collect();
        if let [(index, extra)] = t.extras.as_slice() {
            let them = match extra {
                Extra::Cell => "is this cell meant to be",
                Extra::Repeat => "is one of the two meant to be",
                Extra::Blanks => "is one of the blanks meant to be",
            };
            let note = match missing.as_slice() {
                [tile] => format!("tile {tile} is missing: {them} {tile}?"),
                _ => format!("`{what}` has no blank: {them} `.`?"),
            };
            self.diags[*index].notes.insert(0, note);
            return;
        }
        if t.blanks.is_empty() {
            self.push(
                Diagnostic::error(Code::BlankCount, span, format!("`{what}` has no blank"))
                    .with_label("needs one `.`")
                    .with_note(format!("one cell is the blank, written `.`; the others hold the tiles 1…{}", n - 1)),
            );
        }
        if !missing.is_empty() {
            let message = match missing.as_slice() {
                [tile] => format!("tile {tile} is missing from `{what}`"),
                _ => format!("tiles {} are missing from `{what}`", list(&missing)),
            };
            let label = match missing.as_slice() {
                [tile] => format!("no tile {tile}"),
                _ => format!("{} tiles missing", missing.len()),
            };
            let mut d = Diagnostic::error(Code::MissingTile, span, message)
                .with_label(label)
                .with_note(format!("each tile 1…{} appears exactly once, and one cell is the blank `.`", n - 1));
            if let Some(note) = &t.goal_note {
                d = d.with_note(note.clone());
            }
            self.push(d);
        }
    }

    fn sliding_claim(&mut self, stmt: &ast::Statement, claim: &ast::Claim) -> Option<SlidingExpectation> {
        let c = match &claim.kind {
            ClaimKind::Solvable => SlidingClaim::Solvable,
            ClaimKind::Unsolvable => SlidingClaim::Unsolvable,
            ClaimKind::Moves(n) => SlidingClaim::Moves(self.number(n, "move count")?),
            // Reported by `puzzle_only`.
            ClaimKind::Unique
            | ClaimKind::Solutions(_)
            | ClaimKind::Presses(_)
            | ClaimKind::PressesBetween(..)
            | ClaimKind::Difficulty(..) => return None,
        };
        Some(SlidingExpectation { span: stmt.span, claim: c })
    }

    /// The letters of `solution "…"` (L0128 for each character that is not
    /// a move; whitespace between moves is allowed and ignored, and does
    /// not count in a move's position).
    fn moves(&mut self, stmt: &ast::Statement, m: &ast::MoveString) -> Option<MovesBlock> {
        let text = m.inner.text(self.src);
        let mut moves = String::with_capacity(text.len());
        let mut move_spans = Vec::with_capacity(text.len());
        let mut bad = 0usize;
        let mut position = 0usize;
        for (i, c) in text.char_indices() {
            if c.is_whitespace() {
                continue;
            }
            position += 1;
            let at = Span::new(m.inner.start + i, m.inner.start + i + c.len_utf8());
            if MOVE_LETTERS.contains(&c) {
                moves.push(c);
                move_spans.push(at);
                continue;
            }
            bad += 1;
            if bad > MAX_BAD_MOVES {
                continue;
            }
            let mut d = Diagnostic::error(
                Code::BadMove,
                at,
                format!("`{c}` (move {position}) is not a move: moves are `U`, `D`, `L` and `R`"),
            )
            .with_label("not U, D, L or R");
            let upper = c.to_ascii_uppercase();
            if c != upper && MOVE_LETTERS.contains(&upper) {
                d = d.with_note(format!("moves are upper case: did you mean `{upper}`?"));
            }
            self.push(d.with_note(
                "each letter is the direction the blank moves: U up, D down, L left, R right; \
                 spaces between moves are allowed",
            ));
        }
        if bad > MAX_BAD_MOVES {
            let more = bad - MAX_BAD_MOVES;
            if let Some(last) = self.diags.iter_mut().rev().find(|d| d.code == Code::BadMove) {
                let (what, verb) = if more == 1 { ("character", "is") } else { ("characters", "are") };
                last.notes.push(format!("{more} more {what} in this solution {verb} not moves"));
            }
        }
        (bad == 0).then_some(MovesBlock { span: stmt.span, moves, string_span: m.span, move_spans })
    }
}

/// A tile grid being read (`tiles` or `goal` of a `rows`×`cols` board):
/// where each tile was first written and how often, the blanks, and the
/// diagnostics of cells that hold something they should not.
struct TileGrid<'w> {
    what: &'w str,
    rows: usize,
    cols: usize,
    /// On `goal`: a note that it holds the same tiles as `tiles`.
    goal_note: Option<String>,
    seen: Vec<Option<Span>>,
    count: Vec<u32>,
    blanks: Vec<Span>,
    /// `(index of the diagnostic, what the cell holds)`.
    extras: Vec<(usize, Extra)>,
}

impl<'w> TileGrid<'w> {
    fn new(what: &'w str, rows: usize, cols: usize) -> TileGrid<'w> {
        let n = rows * cols;
        let goal_note =
            (what == "goal").then(|| format!("the goal holds the same tiles as `tiles`: each of 1…{} once", n - 1));
        TileGrid {
            what,
            rows,
            cols,
            goal_note,
            seen: vec![None; n],
            count: vec![0; n],
            blanks: Vec::new(),
            extras: Vec::new(),
        }
    }

    /// The number of cells (the tiles and the blank).
    fn n(&self) -> usize {
        self.rows * self.cols
    }
}

/// L0106: `x` in a tile grid.
fn not_a_tile(cell: Span, what: &str) -> Diagnostic {
    Diagnostic::error(Code::BadCell, cell, format!("`x` is not a tile: `{what}` holds tile numbers and one `.`"))
        .with_label("not a tile")
        .with_note("`x` marks locked buttons, in `puzzle` blocks only")
}

/// L0125: tile `tile` written again at `cell`, first at `prev`.
fn repeated_tile(t: &TileGrid, tile: usize, cell: Span, prev: Span) -> Diagnostic {
    let again = if t.count[tile] == 2 { "twice" } else { "again" };
    let mut d = Diagnostic::error(Code::RepeatedTile, cell, format!("tile {tile} is written {again} in `{}`", t.what))
        .with_label("written again here")
        .with_secondary(prev, "first written here")
        .with_note(format!("each tile 1…{} appears exactly once", t.n() - 1));
    if let Some(note) = &t.goal_note {
        d = d.with_note(note.clone());
    }
    d
}

/// L0124: a cell that is not a tile number of the board.
fn tile_out_of_range(t: &TileGrid, text: &str, cell: Span, compact: bool) -> Diagnostic {
    let (rows, cols, n) = (t.rows, t.cols, t.n());
    let mut d = Diagnostic::error(
        Code::TileOutOfRange,
        cell,
        format!("tile {text} is out of range: a {rows}×{cols} board has tiles 1…{}", n - 1),
    )
    .with_label(format!("must be 1…{}", n - 1));
    if text.bytes().all(|b| b == b'0') {
        d = d.with_note("tiles are numbered from 1; the blank is written `.`");
    }
    if compact {
        d = d.with_note(
            "in a compact row each character is one cell; write rows with tiles above 9 \
             spaced, e.g. `9 10 11 12`",
        );
    }
    d
}

/// L0127: more than one blank.
fn extra_blanks(blanks: &[Span], what: &str) -> Diagnostic {
    let k = blanks.len();
    let mut d = Diagnostic::error(Code::BlankCount, blanks[1], format!("`{what}` has {k} blanks"))
        .with_label("a second blank")
        .with_secondary(blanks[0], "the first blank");
    for &b in &blanks[2..] {
        d = d.with_secondary(b, "another blank");
    }
    d.with_note("a sliding board has exactly one blank; every other cell holds a tile")
}

/// What a wrong cell holds (for naming what it displaced).
#[derive(Clone, Copy)]
enum Extra {
    /// A number out of range, or `x`.
    Cell,
    /// A tile written before.
    Repeat,
    /// A second (third, …) blank.
    Blanks,
}

/// `3 and 7`, `3, 7 and 12`; long lists end with `… and N more`.
fn list(tiles: &[usize]) -> String {
    const SHOWN: usize = 10;
    let words: Vec<String> = tiles.iter().take(SHOWN).map(usize::to_string).collect();
    if tiles.len() > SHOWN {
        return format!("{}, … and {} more", words.join(", "), tiles.len() - SHOWN);
    }
    match words.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
        _ => words.concat(),
    }
}
