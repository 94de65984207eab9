//! Game IDs of Flip, from Simon Tatham's Portable Puzzle Collection
//! (`lights import flip`, `lights export flip`).
//!
//! The format, as flip.c reads and writes it (`decode_params`,
//! `encode_params`, `validate_params`, `new_game_desc`, `encode_bitmap`,
//! `decode_bitmap`, `validate_desc`, `new_game`, `execute_move`; and
//! midend.c's `midend_game_id_int` / `midend_get_game_id` for the split):
//!
//! ```text
//! PARAMS:DESC                  e.g. 3x3:eba5ab5d7,a80
//! PARAMS = W [x H] [c|r]       W columns wide, H rows high (H = W when
//!                              absent); `c` Crosses, `r` Random: only how
//!                              Flip invents new games, the game itself is
//!                              all in DESC. Flip prints IDs without the
//!                              letter (`encode_params(.., FALSE)`).
//! DESC   = MATRIX,GRID         two hex bitmaps (`encode_bitmap`)
//! ```
//!
//! Cells are numbered `i = y·W + x` (reading order; `x` the column). The
//! MATRIX has (W·H)² bits, bit `i·W·H + j` set when pressing cell `i` flips
//! cell `j` (`execute_move`: `grid[j] ^= matrix[i*wh+j]`); the GRID has W·H
//! bits, set where a light is wrong. The game is won when every GRID bit is
//! 0. A bitmap is written 4 bits to a hex digit, the first bit the most
//! significant (`v |= 8 >> j`), the last digit padded with 0 bits;
//! `decode_bitmap` takes upper- or lower-case digits and ignores the padding
//! bits, and so does this module. Crosses (`new_game_desc`, `case
//! CROSSES`): `abs(jx - ix) + abs(jy - iy) <= 1`, the cell and its four
//! neighbours, clipped at the border: `rule cross` on the plane. Random: every
//! cell flips itself and a few cells of its 3×3 neighbourhood, generally not
//! symmetric.
//!
//! The `.lights` puzzle of an ID is `size HxW` (rows first), `states 2`,
//! the GRID as its `lights` and `goal off`. Its rule is found by trying the
//! rules the language has and keeping the first whose press patterns are
//! exactly the MATRIX, simplest first: the named rules on the plane, a
//! stencil within 3×3 on the plane (as Flip's Random shapes are), the named
//! rules on the other surfaces, the hex board's rules, a larger stencil on
//! the plane. Else a graph: σ+ (`rule cross`) or σ (`rule ring`) on the W·H
//! cells when the matrix is symmetric and every cell flips itself or none
//! does. Else (most Random games: pressing A flips B, pressing B does not
//! flip A, which no rule says) a σ graph of lights and buttons
//! (`FlipGame::two_layer`): nodes 1…N the squares' lights, locked, node
//! N + k the button of square k joined to the lights it flips, so every ID
//! imports as exactly its game (the same unknowns, equations, solutions and
//! minimum). `export_flip` recognises that graph and writes the game back.

use std::fmt;

use lights_compiler::graph::MAX_EDGES;
use lights_compiler::lower::press_pattern;
use lights_compiler::model::{Board, Graph, GraphKind, Puzzle, Rule, Shape, Stencil, Topology};

use crate::puzzle_text::{puzzle_text, reparse};
use lights_compiler::summary::count;

/// The most cells (W·H) an ID may have, both ways: its matrix is (W·H)²
/// bits, so 4096 cells (64×64) are an ID of 4 MiB. Checked from the
/// parameters, before anything is allocated.
pub const MAX_FLIP_CELLS: u64 = 4096;

/// A Flip game: the press matrix and the starting grid.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FlipGame {
    /// Columns (Flip's W).
    pub width: usize,
    /// Rows (Flip's H).
    pub height: usize,
    /// The `c`/`r` of the parameters, when written.
    pub letter: Option<char>,
    /// Row `i`: the cells a press of cell `i` (reading order) flips.
    pub presses: PressMatrix,
    /// The cells whose light is wrong (1 in Flip's grid).
    pub grid: Vec<bool>,
}

/// A square matrix of bits, row by row (`W·H` rows of `W·H` bits packed in
/// words: 2 MiB at 4096 cells).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PressMatrix {
    n: usize,
    words: usize,
    bits: Vec<u64>,
}

impl PressMatrix {
    /// `n` × `n`, all clear.
    pub fn new(n: usize) -> PressMatrix {
        let words = n.div_ceil(64);
        PressMatrix { n, words, bits: vec![0; n * words] }
    }
    /// From one list of set columns per row.
    pub fn from_lists(lists: &[Vec<usize>]) -> PressMatrix {
        let mut m = PressMatrix::new(lists.len());
        for (i, row) in lists.iter().enumerate() {
            for &j in row {
                m.set(i, j);
            }
        }
        m
    }
    pub fn size(&self) -> usize {
        self.n
    }
    pub fn get(&self, i: usize, j: usize) -> bool {
        self.bits[i * self.words + j / 64] >> (j % 64) & 1 == 1
    }
    pub fn set(&mut self, i: usize, j: usize) {
        self.bits[i * self.words + j / 64] |= 1 << (j % 64);
    }
    fn row(&self, i: usize) -> &[u64] {
        &self.bits[i * self.words..(i + 1) * self.words]
    }
    /// The set columns of row `i`, ascending.
    pub fn cells(&self, i: usize) -> impl Iterator<Item = usize> + '_ {
        self.row(i).iter().enumerate().flat_map(|(w, &word)| {
            let mut word = word;
            std::iter::from_fn(move || {
                (word != 0).then(|| {
                    let b = word.trailing_zeros() as usize;
                    word &= word - 1;
                    w * 64 + b
                })
            })
        })
    }
    /// Every row as its list of set columns.
    pub fn to_lists(&self) -> Vec<Vec<usize>> {
        (0..self.n).map(|i| self.cells(i).collect()).collect()
    }
}

/// Why an ID cannot be read, or a puzzle cannot be written as one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FlipError(pub String);

impl fmt::Display for FlipError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for FlipError {}

fn err<T>(message: impl Into<String>) -> Result<T, FlipError> {
    Err(FlipError(message.into()))
}

/// A whole number of the parameters: digits only, at most 9 of them.
fn dimension(digits: &str, what: &str) -> Result<u64, FlipError> {
    if digits.is_empty() {
        return err(format!("the parameters need the {what} as a number (e.g. `5x5`)"));
    }
    if digits.len() > 9 {
        return err(format!("the {what} `{digits}` is far too large: an ID has at most {MAX_FLIP_CELLS} cells"));
    }
    let v: u64 = digits.parse().map_err(|_| FlipError(format!("the {what} `{digits}` is not a number")))?;
    if v == 0 {
        // flip.c's validate_params.
        return err("width and height must both be greater than zero");
    }
    Ok(v)
}

/// Parse a Flip game ID (`W[xH][c|r]:MATRIX,GRID`). Spaces around it are
/// ignored. Sizes are checked before anything is allocated.
pub fn parse_id(id: &str) -> Result<FlipGame, FlipError> {
    let id = id.trim();
    if id.is_empty() {
        return err("the game ID is empty; a Flip ID looks like `3x3:eba5ab5d7,a80`");
    }
    let colon = id.find(':');
    if let Some(hash) = id.find('#') {
        if colon.is_none_or(|c| hash < c) {
            return err(
                "this is a random-seed ID (`PARAMS#SEED`): it names a game only through Flip's random generator; \
                 in Flip, use Game > Specific… to see the game ID (`PARAMS:DESC`) and import that",
            );
        }
    }
    let Some(colon) = colon else {
        return err("no `:` in the game ID: a Flip ID is `PARAMS:DESC`, e.g. `3x3:eba5ab5d7,a80`");
    };
    let (params, desc) = (&id[..colon], &id[colon + 1..]);

    // decode_params: W, then `x` H, then `c` or `r`.
    let digits_end = |s: &str| s.find(|c: char| !c.is_ascii_digit()).unwrap_or(s.len());
    let w_end = digits_end(params);
    let width = dimension(&params[..w_end], "width")?;
    let mut rest = &params[w_end..];
    let mut height = width;
    if let Some(after) = rest.strip_prefix('x') {
        let h_end = digits_end(after);
        height = dimension(&after[..h_end], "height")?;
        rest = &after[h_end..];
    }
    let letter = match rest {
        "" => None,
        "c" => Some('c'),
        "r" => Some('r'),
        other => {
            return err(format!(
                "unexpected `{other}` in the parameters `{params}`: they are W or WxH, then `c` (crosses) or `r` \
                 (random) or nothing"
            ))
        }
    };
    let cells = width * height;
    if cells > MAX_FLIP_CELLS {
        return err(format!(
            "a {width}x{height} game has {cells} cells; `lights import flip` takes at most {MAX_FLIP_CELLS} \
             (its matrix alone would be {} hex digits)",
            (cells as u128 * cells as u128).div_ceil(4)
        ));
    }
    let (width, height, wh) = (width as usize, height as usize, cells as usize);

    // validate_desc: the matrix, a comma, the grid, nothing more.
    let (mlen, glen) = ((wh * wh).div_ceil(4), wh.div_ceil(4));
    let hex_run = desc.bytes().take_while(u8::is_ascii_hexdigit).count();
    if hex_run != mlen {
        return err(format!(
            "the matrix of a {width}x{height} game is {mlen} hex digits (({wh} cells)² bits), but the ID has {hex_run} \
             before {}",
            if hex_run == desc.len() { "its end".to_string() } else { describe_char(desc, hex_run) }
        ));
    }
    if desc.as_bytes().get(mlen) != Some(&b',') {
        return err("expected a `,` after the matrix (a Flip description is MATRIX,GRID)");
    }
    let grid_text = &desc[mlen + 1..];
    let grid_run = grid_text.bytes().take_while(u8::is_ascii_hexdigit).count();
    if grid_run != glen {
        return err(format!(
            "the grid of a {width}x{height} game is {glen} hex digits ({wh} bits), but the ID has {grid_run} \
             before {}",
            if grid_run == grid_text.len() { "its end".to_string() } else { describe_char(grid_text, grid_run) }
        ));
    }
    if grid_text.len() > glen {
        return err(format!("unexpected {} after the grid", describe_char(grid_text, glen)));
    }

    let mut presses = PressMatrix::new(wh);
    for (k, b) in desc[..mlen].bytes().enumerate() {
        let v = (b as char).to_digit(16).unwrap_or(0);
        for j in 0..4 {
            let bit = 4 * k + j;
            if v & (8 >> j) != 0 && bit < wh * wh {
                presses.set(bit / wh, bit % wh);
            }
        }
    }
    let grid = decode_bitmap(grid_text, wh);
    Ok(FlipGame { width, height, letter, presses, grid })
}

/// `` `g` `` or `the character U+0007`, for the character at byte `at`.
fn describe_char(text: &str, at: usize) -> String {
    match text[at..].chars().next() {
        Some(c) if c.is_control() || c.is_whitespace() => format!("the character U+{:04X}", c as u32),
        Some(c) => format!("`{c}`"),
        None => "its end".to_string(),
    }
}

/// flip.c's `decode_bitmap`: 4 bits a hex digit, most significant first;
/// the padding bits of the last digit are ignored. `hex` is all hex digits.
fn decode_bitmap(hex: &str, len: usize) -> Vec<bool> {
    let mut out = Vec::with_capacity(len);
    for b in hex.bytes() {
        let v = (b as char).to_digit(16).unwrap_or(0);
        for j in 0..4 {
            if out.len() < len {
                out.push(v & (8 >> j) != 0);
            }
        }
    }
    out
}

/// flip.c's `encode_bitmap`: lower-case hex, the last digit padded with 0 bits.
fn encode_bitmap(bits: impl ExactSizeIterator<Item = bool>) -> String {
    let mut out = String::with_capacity(bits.len().div_ceil(4));
    let (mut v, mut n) = (0u32, 0);
    for b in bits {
        if b {
            v |= 8 >> n;
        }
        n += 1;
        if n == 4 {
            out.push(char::from_digit(v, 16).unwrap_or('0'));
            (v, n) = (0, 0);
        }
    }
    if n > 0 {
        out.push(char::from_digit(v, 16).unwrap_or('0'));
    }
    out
}

impl FlipGame {
    fn cells(&self) -> usize {
        self.width * self.height
    }

    /// The ID as Flip reads it: `WxH` + the letter (`c` when the matrix is
    /// Flip's crosses, else `r`) + `:MATRIX,GRID`.
    pub fn encode(&self) -> String {
        let wh = self.cells();
        let letter = if self.is_crosses() { 'c' } else { 'r' };
        let matrix = encode_bitmap((0..wh * wh).map(|k| self.presses.get(k / wh, k % wh)));
        let grid = encode_bitmap(self.grid.iter().copied());
        format!("{}x{}{letter}:{matrix},{grid}", self.width, self.height)
    }

    /// Whether the press patterns of `p` (a square or hex board of this
    /// size, or a graph on its cells) are exactly this matrix.
    fn matches(&self, p: &Puzzle) -> bool {
        let mut pattern = vec![0u64; self.presses.words];
        (0..self.cells()).all(|i| {
            pattern.fill(0);
            for (j, w) in press_pattern(p, i / p.cols, i % p.cols) {
                if w % 2 == 1 {
                    pattern[j / 64] |= 1 << (j % 64);
                }
            }
            pattern == self.presses.row(i)
        })
    }

    /// Whether the matrix is Flip's crosses (`new_game_desc`, `case
    /// CROSSES`: `abs(jx - ix) + abs(jy - iy) <= 1`).
    fn is_crosses(&self) -> bool {
        let w = self.width;
        (0..self.cells()).all(|i| {
            let (ix, iy) = (i % w, i / w);
            let mut cross = vec![0u64; self.presses.words];
            for j in 0..self.cells() {
                if (j % w).abs_diff(ix) + (j / w).abs_diff(iy) <= 1 {
                    cross[j / 64] |= 1 << (j % 64);
                }
            }
            cross == self.presses.row(i)
        })
    }

    /// The puzzle this game is, or why the language cannot say it.
    pub fn to_puzzle(&self) -> Result<Puzzle, FlipError> {
        let (rows, cols) = (self.height, self.width);
        let lights = Board::dense(self.grid.iter().map(|&b| u16::from(b)).collect());
        let with_lights = |p: Puzzle| Puzzle { lights: lights.clone(), ..p };
        let named = [Rule::Cross, Rule::King, Rule::Flip, Rule::Merlin, Rule::Ring];
        let square = |rule: Rule, topology| Puzzle::new(rows, cols, 2, rule, topology);
        // The simplest description first: a named rule on the plane, a
        // stencil within 3×3 on the plane (as Flip's Random shapes are), a
        // named rule on another surface, the hex board's rules, any stencil.
        use Topology::*;
        let stencil = self.plane_stencil();
        let stencil_puzzle = |small: bool| {
            stencil
                .as_ref()
                .filter(|s| (s.rows <= 3 && s.cols <= 3) == small)
                .map(|s| square(Rule::Stencil(s.clone()), Plane))
        };
        let mut candidates: Vec<Puzzle> = named.iter().map(|rule| square(rule.clone(), Plane)).collect();
        candidates.extend(stencil_puzzle(true));
        for topology in [Cylinder, Torus, Mobius, Klein, Projective] {
            candidates.extend(named.iter().map(|rule| square(rule.clone(), topology)));
        }
        for topology in [Plane, Cylinder, Torus] {
            if topology != Torus || rows % 2 == 0 {
                candidates.extend(
                    [Rule::Cross, Rule::Ring].map(|rule| Puzzle { shape: Shape::Hex, ..square(rule, topology) }),
                );
            }
        }
        candidates.extend(stencil_puzzle(false));
        if let Some(p) = candidates.into_iter().find(|p| self.matches(p)) {
            return Ok(with_lights(p));
        }
        self.graph_puzzle()
    }

    /// The one stencil on the plane that could give this matrix: every
    /// offset some press reaches (a stencil entry that lands on the board
    /// somewhere shows in the matrix there, so none can be left out).
    fn plane_stencil(&self) -> Option<Stencil> {
        let (w, h) = (self.width, self.height);
        // Offsets (dr, dc) with |dr| < h, |dc| < w, as a dense grid centred on (h − 1, w − 1).
        let (grid_rows, grid_cols) = (2 * h - 1, 2 * w - 1);
        let mut seen = vec![false; grid_rows * grid_cols];
        for i in 0..self.cells() {
            let (r, c) = (i / w, i % w);
            for j in self.presses.cells(i) {
                seen[(j / w + h - 1 - r) * grid_cols + (j % w + w - 1 - c)] = true;
            }
        }
        let reach = |along_rows: bool| {
            (0..grid_rows * grid_cols)
                .filter(|&k| seen[k])
                .map(|k| if along_rows { (k / grid_cols).abs_diff(h - 1) } else { (k % grid_cols).abs_diff(w - 1) })
                .max()
        };
        let (half_rows, half_cols) = (reach(true)?, reach(false)?);
        let (srows, scols) = (2 * half_rows + 1, 2 * half_cols + 1);
        let weights = (0..srows * scols)
            .map(|k| {
                let (r, c) = (k / scols + h - 1 - half_rows, k % scols + w - 1 - half_cols);
                u32::from(seen[r * grid_cols + c])
            })
            .collect();
        Some(Stencil { rows: srows, cols: scols, weights })
    }

    /// A graph: σ+ or σ on the cells when the matrix is symmetric and its
    /// diagonal all set or all clear, else the two-layer σ graph
    /// (`FlipGame::two_layer`).
    fn graph_puzzle(&self) -> Result<Puzzle, FlipError> {
        let wh = self.cells();
        let symmetric = (0..wh).all(|i| self.presses.cells(i).all(|j| self.presses.get(j, i)));
        let flips_itself = |i: usize| self.presses.get(i, i);
        let rule = if (0..wh).all(flips_itself) { Rule::Cross } else { Rule::Ring };
        if !symmetric || (rule == Rule::Ring && (0..wh).any(flips_itself)) {
            return self.two_layer();
        }
        let edges: Vec<(u32, u32)> = (0..wh)
            .flat_map(|i| self.presses.cells(i).filter(move |&j| j > i).map(move |j| (i as u32, j as u32)))
            .collect();
        let p = Puzzle::on_graph(Graph::from_edges(GraphKind::Custom, wh, &edges), 2, rule);
        Ok(Puzzle { lights: Board::dense(self.grid.iter().map(|&b| u16::from(b)).collect()), ..p })
    }

    /// Any matrix, directed too, as a σ graph (`rule ring`: a press changes
    /// the node's neighbours) on 2·N nodes, N = W·H: node `k` (1…N) is the
    /// light of Flip's square `k` (reading order), locked; node `N + k` is
    /// the button of square `k`, joined to the lights it flips. The buttons'
    /// own lights are off and stay off (their neighbours are lights, which
    /// cannot be pressed), so the system is Flip's exactly: one unknown per
    /// button, one equation per light, the same solutions and minimum.
    fn two_layer(&self) -> Result<Puzzle, FlipError> {
        let n = self.cells();
        let edges: Vec<(u32, u32)> =
            (0..n).flat_map(|i| self.presses.cells(i).map(move |j| (j as u32, (n + i) as u32))).collect();
        if edges.len() > MAX_EDGES {
            return err(format!(
                "this Flip game's presses are not symmetric, so it is written as a graph of lights and buttons,                  which would have {} edges; a graph has at most {MAX_EDGES}",
                edges.len()
            ));
        }
        let p = Puzzle::on_graph(Graph::from_edges(GraphKind::Custom, 2 * n, &edges), 2, Rule::Ring);
        let lights = (0..n).filter(|&k| self.grid[k]).map(|k| (k, 1)).collect();
        Ok(Puzzle {
            lights: Board::sparse(2 * n, lights),
            locked: Board::sparse(2 * n, (0..n).map(|k| (k, 1)).collect()),
            ..p
        })
    }
}

/// The number of Flip squares when `p` is a two-layer graph as
/// `FlipGame::two_layer` writes it (σ, 2·N nodes, the first N locked and
/// joined only to the last N, whose lights need no change).
fn two_layer_cells(p: &Puzzle) -> Option<usize> {
    let g = p.shape.graph()?;
    let nodes = g.nodes();
    if p.rule != Rule::Ring || nodes == 0 || nodes % 2 == 1 || p.has_holes() {
        return None;
    }
    let n = nodes / 2;
    let lights_ok = (0..n).all(|k| p.is_locked(k) && g.neighbours(k).iter().all(|&b| b as usize >= n));
    let buttons_ok =
        (n..nodes).all(|k| !p.is_locked(k) && p.need(k) == 0 && g.neighbours(k).iter().all(|&l| (l as usize) < n));
    (lights_ok && buttons_ok).then_some(n)
}

/// Flip's crosses matrix (`new_game_desc`, `case CROSSES`).
pub fn crosses(width: usize, height: usize) -> Vec<Vec<usize>> {
    let wh = width * height;
    (0..wh)
        .map(|i| {
            let (ix, iy) = ((i % width) as i64, (i / width) as i64);
            (0..wh).filter(|&j| ((j % width) as i64 - ix).abs() + ((j / width) as i64 - iy).abs() <= 1).collect()
        })
        .collect()
}

/// The `.lights` text of a Flip ID: the puzzle, checked by compiling it
/// again and comparing its press patterns and lights with the ID.
pub fn import_flip(id: &str, name: &str) -> Result<String, FlipError> {
    let game = parse_id(id)?;
    let puzzle = game.to_puzzle()?;
    let two_layer = two_layer_cells(&puzzle).is_some();
    let shown: String = id.trim().chars().take(60).collect();
    let more = if id.trim().chars().count() > 60 { "…" } else { "" };
    let mut comment = vec![
        format!("Imported by `lights import flip` from the Flip game ID {shown}{more}"),
        format!(
            "(Simon Tatham's Puzzles: {} by {}; a light is 1 where Flip's square is wrong, and the goal is all off).",
            count(game.width, "column"),
            count(game.height, "row")
        ),
    ];
    if two_layer {
        let n = game.cells();
        comment.extend([
            "Its presses are not symmetric (pressing A flips B, pressing B does not flip A), which no rule or".into(),
            format!("stencil says: nodes 1…{n} are the lights of Flip's squares in reading order (locked: not buttons),"),
            format!("node {n} + k is the button of square k, joined to the lights it flips (`rule ring`); its own"),
            "light stays off. The solutions and the minimum are Flip's. `lights export flip --width W` gives the ID back."
                .into(),
        ]);
    }
    let text = puzzle_text(&puzzle, name, &[], &comment);
    let back =
        reparse(&text).map_err(|e| FlipError(format!("internal error: the written puzzle does not compile: {e}")))?;
    let again = game_of(&back, back.is_graph().then_some(game.width))
        .map_err(|e| FlipError(format!("internal error: the written puzzle is not a Flip game: {e}")))?
        .0;
    if again.presses != game.presses
        || again.grid != game.grid
        || (again.width, again.height) != (game.width, game.height)
    {
        return err("internal error: the written puzzle is not the Flip game");
    }
    Ok(text)
}

/// A puzzle written as a Flip game, and what the reader should know.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FlipExport {
    pub id: String,
    /// Changes that keep the puzzle the same game (the goal folded into the lights).
    pub notes: Vec<String>,
}

/// The Flip game ID of a puzzle, or why Flip cannot play it. `width`
/// lays a graph's squares out that many to a row (default: one row); a
/// board keeps its own columns.
pub fn export_flip(p: &Puzzle, width: Option<usize>) -> Result<FlipExport, FlipError> {
    let (game, notes) = game_of(p, width)?;
    Ok(FlipExport { id: game.encode(), notes })
}

/// The Flip game of a puzzle, and the notes to show.
fn game_of(p: &Puzzle, asked_width: Option<usize>) -> Result<(FlipGame, Vec<String>), FlipError> {
    if p.states != 2 {
        return err(format!("Flip's lights have two states; this puzzle has `states {}`", p.states));
    }
    if p.has_holes() {
        return err("Flip has no holes: every square of its grid is a light and a button");
    }
    let two_layer = two_layer_cells(p);
    if p.any_locked() && two_layer.is_none() {
        return err(
            "Flip has no locked buttons (a button written as flipping nothing would add solutions: it is not the \
             same puzzle); a graph of locked lights and buttons as `lights import flip` writes it is the exception",
        );
    }
    let squares = two_layer.unwrap_or(p.cells());
    if squares as u64 > MAX_FLIP_CELLS {
        return err(format!(
            "the puzzle has {squares} cells; a Flip ID written by `lights export flip` has at most {MAX_FLIP_CELLS} \
             (its matrix is cells² bits)"
        ));
    }
    let (width, height) = match (p.is_graph(), asked_width) {
        (false, None) => (p.cols, p.rows),
        (false, Some(_)) => return err("--width lays out a graph's nodes; a board keeps its own columns"),
        (true, None) => (squares, 1),
        (true, Some(w)) if w >= 1 && squares.is_multiple_of(w) => (w, squares / w),
        (true, Some(w)) => {
            return err(format!("--width {w} does not divide the {squares} squares into full rows"));
        }
    };
    let mut presses = PressMatrix::new(squares);
    let grid: Vec<bool>;
    let mut notes = Vec::new();
    if let Some(n) = two_layer {
        let g = p.shape.graph().expect("a two-layer puzzle is a graph");
        for i in 0..n {
            for &j in g.neighbours(n + i) {
                presses.set(i, j as usize);
            }
        }
        grid = (0..n).map(|k| p.need(k) != 0).collect();
    } else {
        for i in 0..p.cells() {
            for (j, w) in press_pattern(p, i / p.cols, i % p.cols) {
                if w % 2 == 1 {
                    presses.set(i, j);
                }
            }
        }
        grid = (0..p.cells()).map(|i| p.need(i) != 0).collect();
        if p.goal.any_nonzero() {
            notes.push(
                "Flip's goal is every light off and this puzzle's goal is not: the ID starts from lights XOR goal, \
                 which the same presses solve (a press flips the same cells whatever they show)"
                    .to_string(),
            );
        }
    }
    if p.is_graph() && asked_width.is_none() {
        notes.push(format!(
            "a graph is written as one row of {squares} squares (square k is {}); --width W lays them out W to a row",
            if two_layer.is_some() { "the light of node k and the button of node N + k" } else { "node k" }
        ));
    }
    Ok((FlipGame { width, height, letter: None, presses, grid }, notes))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// flip.c's crosses matrix for 3×3, rows (press i) 110100000 111010000
    /// 011001000 100110100 010111010 001011001 000100110 000010111
    /// 000001011: 81 bits, 4 to a hex digit, most significant first, the
    /// last digit `8` (a 1 and three padding bits). Grid 101010001 → `a88`.
    const CROSSES_3X3: &str = "3x3:d074191345d1644c17058,a88";

    fn game(width: usize, height: usize, presses: &[&[usize]], grid: &[usize]) -> FlipGame {
        let mut g = vec![false; width * height];
        for &i in grid {
            g[i] = true;
        }
        let lists: Vec<Vec<usize>> = presses.iter().map(|r| r.to_vec()).collect();
        FlipGame { width, height, letter: None, presses: PressMatrix::from_lists(&lists), grid: g }
    }

    #[test]
    fn encode_bitmap_is_flips() {
        // 8 >> j: the first bit is the most significant; the last digit padded.
        assert_eq!(encode_bitmap([true, false, false, false, true].into_iter()), "88");
        assert_eq!(encode_bitmap([false, true, true, true].into_iter()), "7");
        assert_eq!(encode_bitmap(std::iter::empty()), "");
        assert_eq!(decode_bitmap("88", 5), vec![true, false, false, false, true]);
        // Padding bits are ignored, as decode_bitmap does.
        assert_eq!(decode_bitmap("8F", 5), vec![true, false, false, false, true]);
    }

    #[test]
    fn a_crosses_id_reads_as_flip_builds_it() {
        let g = parse_id(CROSSES_3X3).unwrap();
        assert_eq!((g.width, g.height, g.letter), (3, 3, None));
        assert_eq!(g.presses.to_lists(), crosses(3, 3));
        assert_eq!(g.presses.cells(4).collect::<Vec<_>>(), vec![1, 3, 4, 5, 7]);
        assert!(g.is_crosses());
        assert_eq!(g.grid, [true, false, true, false, true, false, false, false, true]);
        // Upper case, the letter, and `3` for `3x3` are the same game.
        for id in
            ["3x3c:D074191345D1644C17058,A88", "3c:d074191345d1644c17058,a88", "  3x3r:d074191345d1644c17058,a88\n"]
        {
            let other = parse_id(id).unwrap();
            assert_eq!((other.presses.clone(), other.grid.clone()), (g.presses.clone(), g.grid.clone()), "{id}");
        }
        let p = g.to_puzzle().unwrap();
        assert_eq!((p.rows, p.cols, p.rule.clone(), p.topology, p.states), (3, 3, Rule::Cross, Topology::Plane, 2));
        assert_eq!(p.lights.to_vec(), vec![1, 0, 1, 0, 1, 0, 0, 0, 1]);
        // And it is written back as Flip wrote it, with `c`.
        assert_eq!(export_flip(&p, None).unwrap().id, "3x3c:d074191345d1644c17058,a88");
    }

    #[test]
    fn small_ids_encoded_by_hand() {
        // (ID, what the puzzle says), each matrix written out bit by bit:
        // 1x1: the one press flips the one cell: `8` (1 and three padding bits).
        // 2x1: both presses flip both cells, 11 11 = `f`: the cross on a 1×2 board.
        // 2x2: each press flips its own row, 1100 1100 0011 0011 = `cc33`:
        //      the 1×3 stencil `1 1 1` (no cross: nothing vertical).
        // 2x2: 1110 1101 1011 0111 = `edb7`, Flip's crosses on 2×2, with `c`.
        let cases = [
            ("1x1:8,8", "  size 1x1\n  lights on\n"),
            ("2x1:f,8", "  size 1x2\n  lights {\n    1 .\n  }\n"),
            ("2x2r:cc33,f", "  size 2x2\n  rule {\n    1 1 1\n  }\n  lights on\n"),
            ("2x2c:edb7,9", "  size 2x2\n  lights {\n    1 .\n    . 1\n  }\n"),
        ];
        for (id, body) in cases {
            let text = import_flip(id, "p").unwrap();
            assert!(text.contains(&format!("puzzle \"p\" {{\n{body}}}")), "{id}: {text}");
        }
        let crosses_2x2 = parse_id("2x2c:edb7,9").unwrap();
        assert!(crosses_2x2.is_crosses());
        assert_eq!(crosses_2x2.presses.to_lists(), crosses(2, 2));
    }

    #[test]
    fn imported_text_is_the_cross_rule() {
        let text = import_flip(CROSSES_3X3, "flip 3").unwrap();
        assert!(text.contains("puzzle \"flip 3\""), "{text}");
        assert!(!text.contains("rule"), "cross is the default: {text}");
        assert!(text.contains("size 3x3"), "{text}");
        let p = reparse(&text).unwrap();
        assert_eq!(p.lights.to_vec(), vec![1, 0, 1, 0, 1, 0, 0, 0, 1]);
    }

    #[test]
    fn width_is_columns() {
        // 3 wide, 1 high: crosses on a row of three.
        let g = game(3, 1, &[&[0, 1], &[0, 1, 2], &[1, 2]], &[0]);
        let p = g.to_puzzle().unwrap();
        assert_eq!((p.rows, p.cols, p.rule.clone()), (1, 3, Rule::Cross));
        assert!(g.encode().starts_with("3x1c:"), "{}", g.encode());
    }

    #[test]
    fn a_translation_invariant_matrix_is_a_stencil() {
        // Each press flips itself and the cell to its right: a 1×3 stencil `. 1 1`.
        let g = game(3, 1, &[&[0, 1], &[1, 2], &[2]], &[1]);
        let p = g.to_puzzle().unwrap();
        assert_eq!(p.rule, Rule::Stencil(Stencil { rows: 1, cols: 3, weights: vec![0, 1, 1] }));
        let text = import_flip(&g.encode(), "right").unwrap();
        assert!(text.contains("rule { . 1 1 }") || text.contains("rule {\n    . 1 1\n  }"), "{text}");
    }

    #[test]
    fn other_surfaces_and_rules_are_found() {
        for (rule, topology) in
            [(Rule::King, Topology::Plane), (Rule::Cross, Topology::Torus), (Rule::Flip, Topology::Klein)]
        {
            let p = Puzzle::new(4, 5, 2, rule.clone(), topology);
            let g = parse_id(&export_flip(&p, None).unwrap().id).unwrap();
            let back = g.to_puzzle().unwrap();
            assert!(g.matches(&back));
            assert_eq!((back.rows, back.cols), (4, 5));
            assert_eq!(back.rule, rule);
        }
        let hex = Puzzle { shape: Shape::Hex, ..Puzzle::new(4, 4, 2, Rule::Cross, Topology::Plane) };
        let back = parse_id(&export_flip(&hex, None).unwrap().id).unwrap().to_puzzle().unwrap();
        assert_eq!(back.shape, Shape::Hex);
    }

    #[test]
    fn a_symmetric_matrix_is_a_graph() {
        // 1 and 2 flip each other; 3 only itself: σ+ on the graph 1-2, 3
        // (no rule or stencil: 2 would flip 3 too).
        let g = game(3, 1, &[&[0, 1], &[0, 1], &[2]], &[0, 2]);
        let text = import_flip(&g.encode(), "g").unwrap();
        assert!(text.contains("graph { 1-2 3 }"), "{text}");
        assert!(text.contains("lights at 1 3"), "{text}");
        let p = reparse(&text).unwrap();
        assert!(g.matches(&p));
    }

    #[test]
    fn a_directed_matrix_is_a_graph_of_lights_and_buttons() {
        // Pressing 1,1 flips 1,1 and 1,2; pressing 1,2 flips only itself; 1,3 too.
        let g = game(3, 1, &[&[0, 1], &[1], &[2]], &[0]);
        let text = import_flip(&g.encode(), "d").unwrap();
        // Lights 1-3 (locked), buttons 4-6: 4 flips 1 and 2, 5 flips 2, 6 flips 3.
        assert!(text.contains("graph { 1-4 2-4 2-5 3-6 }"), "{text}");
        assert!(text.contains("rule ring"), "{text}");
        assert!(text.contains("lights at 1\n"), "{text}");
        assert!(text.contains("locked at 1 2 3\n"), "{text}");
        // And back: the same ID.
        let p = reparse(&text).unwrap();
        assert_eq!(export_flip(&p, Some(3)).unwrap().id, g.encode());
        let one_row = export_flip(&p, None).unwrap();
        assert_eq!(one_row.id, g.encode(), "3x1 is already one row");
        assert_eq!(export_flip(&p, Some(2)).unwrap_err().0, "--width 2 does not divide the 3 squares into full rows");
        // A symmetric matrix whose diagonal is mixed is written the same way.
        let g = game(2, 1, &[&[1], &[0, 1]], &[0]);
        let p = g.to_puzzle().unwrap();
        assert_eq!(two_layer_cells(&p), Some(2));
        assert_eq!(export_flip(&p, Some(2)).unwrap().id, g.encode());
    }

    #[test]
    fn a_two_layer_graph_solves_as_flip_does() {
        // Directed: pressing 1,1 flips 1,1 and 1,2; 1,2 and 1,3 flip themselves.
        let g = game(3, 1, &[&[0, 1], &[1], &[2]], &[0, 1]);
        let p = reparse(&import_flip(&g.encode(), "d").unwrap()).unwrap();
        assert_eq!(p.cells(), 6);
        // Three unknowns (the buttons), whatever the six nodes.
        assert_eq!(lights_compiler::lower::lower(&p).unknowns, vec![3, 4, 5]);
        // Pressing the button of 1,1 (node 4) alone turns lights 1 and 2 off,
        // as pressing square 1,1 does in Flip; the buttons' lights stay off.
        let mut presses = vec![0u16; 6];
        presses[3] = 1;
        assert_eq!(lights_compiler::lower::apply_presses(&p, &presses), vec![0; 6]);
        presses[4] = 1;
        assert_eq!(lights_compiler::lower::apply_presses(&p, &presses), vec![0, 1, 0, 0, 0, 0]);
    }

    #[test]
    fn malformed_ids_are_errors() {
        let cases = [
            ("", "empty"),
            ("3x3", "no `:`"),
            ("3x3#1234", "random-seed"),
            ("x3:0,0", "width"),
            ("3x:0,0", "height"),
            ("0x3:", "greater than zero"),
            ("3x3q:d074191345d1644c17058,a88", "unexpected `q`"),
            ("3x3:d074191345d1644c1705,a88", "21 hex digits"),
            ("3x3:d074191345d1644c170588,a88", "21 hex digits"),
            ("3x3:d074191345d1644c17058a88", "21 hex digits"),
            ("3x3:d074191345d1644c17058;a88", "expected a `,`"),
            ("3x3:d074191345d1644c17058,a8", "3 hex digits"),
            ("3x3:d074191345d1644c17058,a88,", "unexpected `,`"),
            ("3x3:d074191345d1644c17058,a8g", "3 hex digits"),
            ("99999999x99999999c:00,0", "at most 4096"),
            ("99999999999999999999:0,0", "far too large"),
            ("65x64:0,0", "at most 4096"),
        ];
        for (id, want) in cases {
            let e = parse_id(id).unwrap_err().to_string();
            assert!(e.contains(want), "{id:?}: {e}");
        }
    }

    #[test]
    fn export_refuses_what_flip_cannot_play() {
        let three = Puzzle::new(3, 3, 3, Rule::Cross, Topology::Plane);
        assert!(export_flip(&three, None).unwrap_err().0.contains("two states"));
        let mut locked = Puzzle::new(3, 3, 2, Rule::Cross, Topology::Plane);
        locked.locked.set(4, 1);
        assert!(export_flip(&locked, None).unwrap_err().0.contains("locked"));
        let mut holes = Puzzle::new(3, 3, 2, Rule::Cross, Topology::Plane);
        holes.holes.set(4, 1);
        holes.locked.set(4, 1);
        assert!(export_flip(&holes, None).unwrap_err().0.contains("holes"));
        let big = Puzzle::new(65, 64, 2, Rule::Cross, Topology::Plane);
        assert!(export_flip(&big, None).unwrap_err().0.contains("4096"));
    }

    #[test]
    fn a_goal_is_folded_into_the_lights() {
        let mut p = Puzzle::new(2, 2, 2, Rule::Cross, Topology::Plane);
        p.goal = Board::dense(vec![1, 1, 0, 0]);
        p.lights = Board::dense(vec![1, 0, 0, 1]);
        let out = export_flip(&p, None).unwrap();
        assert_eq!(out.notes.len(), 1);
        let g = parse_id(&out.id).unwrap();
        assert_eq!(g.grid, vec![false, true, false, true]);
    }

    mod prop {
        use super::*;
        use proptest::prelude::*;

        proptest! {
            #[test]
            fn arbitrary_text_never_panics(s in "\\PC{0,80}") {
                let _ = parse_id(&s);
                let _ = import_flip(&s, "x");
            }

            #[test]
            fn id_like_text_never_panics(s in "[0-9]{1,3}(x[0-9]{1,3})?[cr]?:[0-9a-fA-F,]{0,30}") {
                if let Ok(g) = parse_id(&s) {
                    let _ = g.to_puzzle();
                }
            }

            #[test]
            fn any_matrix_round_trips(width in 1usize..5, height in 1usize..5, seed in any::<u64>()) {
                let wh = width * height;
                let mut x = seed | 1;
                let mut bit = || { x ^= x << 13; x ^= x >> 7; x ^= x << 17; x & 1 == 1 };
                let presses: Vec<Vec<usize>> = (0..wh).map(|_| (0..wh).filter(|_| bit()).collect()).collect();
                let grid: Vec<bool> = (0..wh).map(|_| bit()).collect();
                let g = FlipGame { width, height, letter: None, presses: PressMatrix::from_lists(&presses), grid };
                let back = parse_id(&g.encode()).unwrap();
                prop_assert_eq!(back.presses.to_lists(), presses);
                prop_assert_eq!(&back.grid, &g.grid);
                // Every game imports, as exactly this game: exported again
                // (a graph laid out as wide as the ID), it is the same ID.
                let text = import_flip(&g.encode(), "p").unwrap();
                let p = reparse(&text).unwrap();
                let back = export_flip(&p, p.is_graph().then_some(width)).unwrap();
                let again = parse_id(&back.id).unwrap();
                prop_assert_eq!((again.width, again.height), (width, height));
                prop_assert_eq!(&again.presses, &g.presses);
                prop_assert_eq!(&again.grid, &g.grid);
            }
        }
    }
}
