//! Play-testing: what a playable board view needs about a document's
//! puzzles, as plain data that serialises to the JSON of docs/play.md.
//!
//! One function per answer — [`puzzles`] (the list), [`board`] (cells,
//! press patterns, surface, the puzzle's own report), [`solve_from`] (the
//! minimum solution from any position to the goal), [`lights_text`] and
//! [`lights_edit`] (a position written back as the puzzle's `lights`) —
//! which the language server (`lights/board`, …) and `lights play` (HTTP)
//! only transport. The press patterns are the solver's own
//! ([`press_pattern`]), so the view never re-implements a rule.

use std::fmt;

use lights_compiler::edit::{self, TextEdit};
use lights_compiler::lower::press_pattern;
use lights_compiler::model::{Board, Gluing, Puzzle, Rule, Shape, Topology};
use lights_compiler::solve::Report;
use lights_compiler::{Block, SolveError};
use serde::Serialize;

use crate::answers::{outcome_of, Answers, Outcome, SolveFn};
use crate::document::Document;
use crate::status::status;

/// Boards with more cells than this are not played (the page would draw
/// and send every cell and its press pattern).
pub const MAX_PLAY_CELLS: usize = 65_536;

/// Boards whose press patterns may hold more entries than this in all are
/// not played either: the board's data is about 12 bytes per entry, so a
/// wide stencil, a large flip board or a dense graph would send hundreds of
/// megabytes (a 2^21 cap keeps it near 25 MB).
pub const MAX_PLAY_PRESS_ENTRIES: usize = 1 << 21;

/// A bound on the entries of all the press patterns, from the rule alone
/// (computing them would cost what the bound guards against): a graph has
/// 2·edges (+ nodes under `cross`); a flip press changes its row and
/// column (two of each on a twisted surface); a stencil at most its nonzero weights; every other rule at most 9
/// cells (king's 3×3).
fn press_entries_bound(p: &Puzzle) -> usize {
    let per_cell = match (&p.shape, &p.rule) {
        (Shape::Graph(g), rule) => {
            let own = if *rule == Rule::Ring { 0 } else { g.nodes() };
            return 2 * g.edge_count() + own;
        }
        (_, Rule::Flip) if matches!(p.topology, Topology::Plane | Topology::Cylinder | Topology::Torus) => {
            p.rows + p.cols - 1
        }
        // Two rows and two columns where a twisted gluing carries the lines on.
        (_, Rule::Flip) => 2 * (p.rows + p.cols),
        (_, Rule::Stencil(s)) => s.weights.iter().filter(|&&w| w != 0).count(),
        _ => 9,
    };
    p.cells().saturating_mul(per_cell)
}

/// One block in the list of a file's puzzles (`GET /api/puzzles`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PuzzleEntry {
    pub index: usize,
    pub name: String,
    /// `puzzle` (Lights Out) or `sliding`.
    pub kind: &'static str,
    pub playable: bool,
    /// Why the block cannot be played (`None` when it can).
    pub why: Option<String>,
    /// The block's status line, as the editor's lens shows it
    /// (`✓ 4 solutions · minimum 15 presses`, `✗ 2 errors`), or what the
    /// block is when it is not played (`4×4 sliding`).
    pub status: String,
}

/// How the two pairs of opposite borders are joined.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Gluings {
    /// The left and right borders: `open`, `glued` or `twisted`.
    pub columns: &'static str,
    /// The top and bottom borders.
    pub rows: &'static str,
}

/// A graph's drawing.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GraphData {
    /// Every edge once, 0-based node numbers.
    pub edges: Vec<[usize; 2]>,
    /// One point per node in the unit square, y down.
    pub layout: Vec<[f64; 2]>,
    /// Per edge of `edges`: drawn dashed, as `lights render` draws it (the
    /// edges of a cube's surface that join faces apart in the unfolded net).
    pub dashed: Vec<bool>,
    /// The largest node radius, in the layout's units, at which no two
    /// nodes touch and no solid edge passes through a node it does not
    /// join (the page may draw them smaller).
    pub node_radius: f64,
}

/// Everything a board view needs to play one puzzle (`GET
/// /api/puzzle/N`, `lights/board`). When `playable` is false only
/// `version`, `index`, `name` and `why` are meaningful (the rest describes
/// what is known of the block, with empty cell lists).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BoardData {
    /// The version of the text it was computed from.
    pub version: i64,
    pub index: usize,
    pub name: String,
    pub playable: bool,
    pub why: Option<String>,
    /// `square`, `hex` or `graph`.
    pub shape: &'static str,
    /// A graph is one row of nodes: `rows` 1, `cols` the number of nodes.
    pub rows: usize,
    pub cols: usize,
    pub states: u32,
    /// `cross`, `king`, `flip`, `merlin`, `ring` or `custom stencil`.
    pub rule: &'static str,
    /// `plane`, `cylinder`, `torus`, `mobius`, `klein` or `projective`.
    pub topology: &'static str,
    pub gluing: Gluings,
    /// The board in one line for people: `5×5 square board · rule cross ·
    /// torus · 2 states`, `Petersen graph · 10 nodes · 15 edges · rule σ+
    /// (cross) · 2 states`.
    pub description: String,
    /// The colour of each light state, `#rrggbb`: one per state up to
    /// 1,024 states, else 1,024 slots (`lights_compiler::palette`), the
    /// same colours `lights render` draws.
    pub palette: Vec<String>,
    /// Per cell: `r,c` (1-based) or the node number.
    pub labels: Vec<String>,
    /// Per cell, row-major; holes are 0.
    pub lights: Vec<u32>,
    pub goal: Vec<u32>,
    /// Buttons that may not be pressed (holes not included).
    pub locked: Vec<bool>,
    pub holes: Vec<bool>,
    /// Per cell: the cells a press changes and by how much (weights in
    /// 1…W−1), exactly as the solver lowers it; empty for a hole.
    pub presses: Vec<Vec<(usize, u32)>>,
    pub graph: Option<GraphData>,
    /// The classic light chase applies: square cells, the cross rule, the
    /// plane, no holes and no locked buttons.
    pub chase: bool,
    /// The solver's answer for the puzzle's own lights (`None` while it is
    /// not known: being solved, over the time budget, declined).
    pub report: Option<SolveResult>,
}

/// The answer from one position (`POST /api/puzzle/N/solve`,
/// `lights/solveFrom`, and the `report` of [`BoardData`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SolveResult {
    pub solvable: bool,
    /// The exact number of solutions, in decimal (it may be huge).
    pub solutions: String,
    /// The presses of `minimum` (`None` when unsolvable).
    pub presses: Option<u64>,
    /// Whether `presses` is proven to be the fewest.
    pub optimal: bool,
    /// Per cell: how many times to press it (locked buttons and holes 0).
    pub minimum: Option<Vec<u32>>,
    /// `4 solutions · minimum 12 presses`, `unsolvable`.
    pub status: String,
}

/// A position written as a `lights` statement (`POST /api/puzzle/N/lights`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LightsText {
    pub text: String,
}

/// Why a play request has no answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlayError {
    /// No block has this index.
    NoPuzzle { index: usize, count: usize },
    /// The block cannot be played; the reason.
    NotPlayable(String),
    /// The lights given do not fit the board; what is wrong.
    BadLights(String),
    /// The solve was stopped (time budget, or nobody wants it any more).
    Stopped,
    /// The solver declined the position or failed; why.
    Failed(String),
}

impl PlayError {
    /// A mistake of the caller (an index or lights that do not fit), as
    /// opposed to a position the solver did not answer.
    pub fn is_bad_request(&self) -> bool {
        matches!(self, PlayError::NoPuzzle { .. } | PlayError::NotPlayable(_) | PlayError::BadLights(_))
    }
}

impl fmt::Display for PlayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayError::NoPuzzle { index, count } => {
                let blocks = if *count == 1 { "block" } else { "blocks" };
                write!(f, "no puzzle {index}: the file has {count} {blocks} (numbered from 0)")
            }
            PlayError::NotPlayable(why) => write!(f, "not playable: {why}"),
            PlayError::BadLights(what) => write!(f, "bad lights: {what}"),
            PlayError::Stopped => write!(f, "not solved: stopped (time budget)"),
            PlayError::Failed(why) => write!(f, "not solved: {why}"),
        }
    }
}

impl std::error::Error for PlayError {}

/// The Lights Out model of block `index`, or why it cannot be played.
fn playable(doc: &Document, index: usize) -> Result<&Puzzle, PlayError> {
    let count = doc.block_count();
    let analysis = doc.analysis().blocks.get(index).ok_or(PlayError::NoPuzzle { index, count })?;
    if !analysis.kind.is_lights() {
        return Err(PlayError::NotPlayable(
            "a sliding block: play-testing is for Lights Out puzzles (try `lights solve`)".into(),
        ));
    }
    let Some(block) = doc.block(index) else {
        let errors: Vec<_> = analysis.diagnostics.iter().filter(|d| d.is_error()).collect();
        let first = errors
            .first()
            .map_or(String::new(), |d| format!(": line {}: {}", doc.lines().line(d.span.start) + 1, d.message));
        let n = errors.len();
        let count = if n == 1 { "1 error".to_string() } else { format!("{n} errors") };
        return Err(PlayError::NotPlayable(format!("the puzzle has {count}{first}")));
    };
    let Some(p) = block.as_lights() else {
        return Err(PlayError::NotPlayable("not a Lights Out puzzle".into()));
    };
    if p.cells() > MAX_PLAY_CELLS {
        return Err(PlayError::NotPlayable(format!(
            "{} cells: more than the {} a board can have to be played (`lights solve` and `lights render` take it)",
            group(p.cells()),
            group(MAX_PLAY_CELLS)
        )));
    }
    let entries = press_entries_bound(p);
    if entries > MAX_PLAY_PRESS_ENTRIES {
        return Err(PlayError::NotPlayable(format!(
            "its press patterns change up to {} cells in all, more than the {} the play page takes (each press \
             changes many cells: `lights solve` and `lights render` take it)",
            group(entries),
            group(MAX_PLAY_PRESS_ENTRIES)
        )));
    }
    Ok(p)
}

/// `65,536`.
fn group(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, ch) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(ch);
    }
    out
}

/// The list of the document's blocks, each with whether it can be played.
pub fn puzzles(doc: &Document, answers: &dyn Answers) -> Vec<PuzzleEntry> {
    (0..doc.block_count())
        .map(|i| {
            let analysis = &doc.analysis().blocks[i];
            let why = playable(doc, i).err().map(|e| match e {
                PlayError::NotPlayable(why) => why,
                e => e.to_string(),
            });
            // A block too large to play, or a sliding one, is not solved
            // for the list: what it is says enough.
            let status = match (&why, doc.block(i)) {
                (Some(_), Some(block)) => block.describe(),
                _ => status(doc, i, answers).to_string(),
            };
            PuzzleEntry {
                index: i,
                name: analysis.name.clone().unwrap_or_default(),
                kind: analysis.kind.keyword(),
                playable: why.is_none(),
                why,
                status,
            }
        })
        .collect()
}

/// The blocks [`puzzles`] and [`board`] want solved: the playable ones.
pub fn wants_solving(doc: &Document, index: usize) -> bool {
    playable(doc, index).is_ok()
}

fn gluing(g: Gluing) -> &'static str {
    match g {
        Gluing::Open => "open",
        Gluing::Glued => "glued",
        Gluing::Twisted => "twisted",
    }
}

/// The press pattern of every cell (weights reduced mod W, zeros dropped).
fn patterns(p: &Puzzle) -> Vec<Vec<(usize, u32)>> {
    (0..p.cells())
        .map(|i| {
            let mut pattern: Vec<(usize, u32)> = press_pattern(p, i / p.cols, i % p.cols)
                .into_iter()
                .map(|(t, w)| (t, w % p.states))
                .filter(|&(_, w)| w != 0)
                .collect();
            pattern.sort_unstable_by_key(|&(t, _)| t);
            pattern
        })
        .collect()
}

/// The data of block `index` for a board view; `version` is the version of
/// the document's text, echoed. `None` when there is no such block.
pub fn board(doc: &Document, index: usize, answers: &dyn Answers, version: i64) -> Option<BoardData> {
    let analysis = doc.analysis().blocks.get(index)?;
    let name = analysis.name.clone().unwrap_or_default();
    let model = doc.block(index).and_then(|b| b.as_lights());
    let p = match playable(doc, index) {
        Ok(p) => p,
        Err(e) => {
            let why = match e {
                PlayError::NotPlayable(why) => why,
                e => e.to_string(),
            };
            return Some(BoardData {
                version,
                index,
                name,
                playable: false,
                why: Some(why),
                shape: model.map_or("square", |p| p.shape.name()),
                rows: model.map_or(0, |p| p.rows),
                cols: model.map_or(0, |p| p.cols),
                states: model.map_or(2, |p| p.states),
                rule: model.map_or("cross", |p| p.rule.name()),
                topology: model.map_or("plane", |p| p.topology.name()),
                gluing: Gluings {
                    columns: gluing(model.map_or(Gluing::Open, |p| p.topology.columns())),
                    rows: gluing(model.map_or(Gluing::Open, |p| p.topology.rows())),
                },
                description: model.map_or_else(String::new, describe),
                palette: palette(model.map_or(2, |p| p.states)),
                labels: Vec::new(),
                lights: Vec::new(),
                goal: Vec::new(),
                locked: Vec::new(),
                holes: Vec::new(),
                presses: Vec::new(),
                graph: None,
                chase: false,
                report: None,
            });
        }
    };
    let n = p.cells();
    let holes: Vec<bool> = (0..n).map(|i| p.is_hole(i)).collect();
    let report = doc.answered(index, answers).and_then(|(_, r)| r.as_lights().map(solve_result));
    Some(BoardData {
        version,
        index,
        name,
        playable: true,
        why: None,
        shape: p.shape.name(),
        rows: p.rows,
        cols: p.cols,
        states: p.states,
        rule: p.rule.name(),
        topology: p.topology.name(),
        gluing: Gluings { columns: gluing(p.topology.columns()), rows: gluing(p.topology.rows()) },
        description: describe(p),
        palette: palette(p.states),
        labels: (0..n).map(|i| p.coord(i)).collect(),
        lights: p.lights.iter().map(u32::from).collect(),
        goal: p.goal.iter().map(u32::from).collect(),
        locked: (0..n).map(|i| p.is_locked(i) && !holes[i]).collect(),
        presses: patterns(p),
        graph: p.shape.graph().map(|g| {
            let drawing = g.drawing();
            GraphData {
                edges: g.edges().map(|(a, b)| [a, b]).collect(),
                layout: drawing.points.iter().map(|&(x, y)| [x, y]).collect(),
                dashed: drawing.dashed,
                node_radius: drawing.node_radius,
            }
        }),
        chase: p.shape == Shape::Square
            && p.rule == Rule::Cross
            && p.topology == Topology::Plane
            && !p.has_holes()
            && !p.any_locked(),
        holes,
        report,
    })
}

/// The colours of the states of a board of `w` states.
fn palette(w: u32) -> Vec<String> {
    lights_compiler::palette::state_palette(w).iter().map(ToString::to_string).collect()
}

/// The board in one line for people (`BoardData::description`).
pub fn describe(p: &Puzzle) -> String {
    let states = format!("{} states", p.states);
    if let Some(g) = p.shape.graph() {
        let rule = match p.rule {
            Rule::Ring => "rule σ (ring: a press changes the node's neighbours)",
            Rule::Cross => "rule σ+ (cross: a press changes the node and its neighbours)",
            _ => p.rule.name(),
        };
        let plural = |n: usize, one: &str| if n == 1 { format!("1 {one}") } else { format!("{n} {one}s") };
        return format!(
            "{} · {} · {} · {rule} · {states}",
            g.title(),
            plural(g.nodes(), "node"),
            plural(g.edge_count(), "edge")
        );
    }
    format!(
        "{}×{} {} board · rule {} · {} · {states}",
        p.rows,
        p.cols,
        p.shape.name(),
        p.rule.name(),
        p.topology.name()
    )
}

/// A solver's report as the view shows it.
pub fn solve_result(r: &Report) -> SolveResult {
    let min = r.minimum.as_ref().filter(|_| r.solvable);
    SolveResult {
        solvable: r.solvable,
        solutions: r.solutions.to_string(),
        presses: min.map(|m| m.cost),
        optimal: min.is_some_and(|m| m.optimal),
        minimum: min.map(|m| m.presses.to_vec()),
        status: lights_compiler::summary::result(r),
    }
}

/// Block `index` with `lights` as its lights, after checking they fit the
/// board: one value per cell, each below W, 0 on holes.
fn with_lights(doc: &Document, index: usize, lights: &[u32]) -> Result<Puzzle, PlayError> {
    let p = playable(doc, index)?;
    if lights.len() != p.cells() {
        return Err(PlayError::BadLights(format!(
            "{} values for a board of {} cells (one per cell, row-major, holes included)",
            lights.len(),
            p.cells()
        )));
    }
    if let Some((i, &v)) = lights.iter().enumerate().find(|&(_, &v)| v >= p.states) {
        return Err(PlayError::BadLights(format!(
            "{} is {v}: a light has states 0 to {} on this board",
            p.cell_label(i),
            p.states - 1
        )));
    }
    if let Some(i) = (0..p.cells()).find(|&i| p.is_hole(i) && lights[i] != 0) {
        return Err(PlayError::BadLights(format!("{} is a hole: its light is 0", p.cell_label(i))));
    }
    let mut q = p.clone();
    // Every value is below W ≤ 65,536.
    q.lights = Board::dense(lights.iter().map(|&v| v as u16).collect());
    Ok(q)
}

/// The minimum solution from `lights` to the goal of block `index`, by the
/// compiler's solver; `stop` is polled during long work.
pub fn solve_from(
    doc: &Document,
    index: usize,
    lights: &[u32],
    stop: &dyn Fn() -> bool,
) -> Result<SolveResult, PlayError> {
    solve_from_with(Block::solve_with, doc, index, lights, stop)
}

/// [`solve_from`] with another solver (the language server's, swappable
/// in tests); a panic of the solver is an error, not a crash. The
/// document's options apply (its minimum budget).
pub fn solve_from_with(
    solve: SolveFn,
    doc: &Document,
    index: usize,
    lights: &[u32],
    stop: &dyn Fn() -> bool,
) -> Result<SolveResult, PlayError> {
    let block = Block::from(with_lights(doc, index, lights)?);
    match outcome_of(solve, &block, doc.options(), stop) {
        None => Err(PlayError::Stopped),
        Some(Outcome::Solved(report)) => match report.as_lights() {
            Some(r) => Ok(solve_result(r)),
            None => Err(PlayError::Failed("the solver answered for another kind of block".into())),
        },
        Some(Outcome::Failed(SolveError::TooLarge { unknowns, limit })) => Err(PlayError::Failed(format!(
            "too large to solve from a position: {unknowns} free buttons, the solver takes at most {limit} here"
        ))),
        Some(Outcome::Failed(SolveError::BoardTooLarge { cells, limit })) => {
            Err(PlayError::Failed(format!("too large: {cells} cells, the solver takes at most {limit} here")))
        }
        Some(Outcome::Failed(SolveError::OutOfMemory { bytes })) => {
            Err(PlayError::Failed(format!("too large: the solver could not allocate {bytes} bytes")))
        }
        Some(Outcome::Failed(SolveError::Cancelled)) => Err(PlayError::Stopped),
        Some(Outcome::Failed(SolveError::Internal(msg))) => Err(PlayError::Failed(format!("internal error: {msg}"))),
        Some(Outcome::TimedOut(_)) => Err(PlayError::Stopped),
        Some(Outcome::Crashed(msg)) => Err(PlayError::Failed(format!("internal error: {msg}"))),
    }
}

/// The canonical `lights` statement for a position of block `index` (a
/// grid on boards, hex rows shifted, an `at` list of nodes on graphs), at
/// block depth.
pub fn lights_text(doc: &Document, index: usize, lights: &[u32]) -> Result<LightsText, PlayError> {
    let p = with_lights(doc, index, lights)?;
    Ok(LightsText { text: edit::value_statement("lights", &p, lights) })
}

/// The edit that makes a position the `lights` of block `index`: the
/// statement replaced, or inserted when the block has none. `None` when
/// the block's text gives no place for it.
pub fn lights_edit(doc: &Document, index: usize, lights: &[u32]) -> Result<Option<TextEdit>, PlayError> {
    let p = with_lights(doc, index, lights)?;
    let Some(syntax) = doc.syntax(index) else { return Ok(None) };
    Ok(edit::lights_board(doc.text(), syntax, &p, lights))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::answers::Solved;

    fn doc(text: &str) -> Document {
        Document::new(text)
    }

    /// The lights after pressing each cell `presses[i]` times, by the patterns of the board data.
    fn play(board: &BoardData, lights: &[u32], presses: &[u32]) -> Vec<u32> {
        let w = board.states;
        let mut out = lights.to_vec();
        for (cell, &n) in presses.iter().enumerate() {
            for &(t, weight) in &board.presses[cell] {
                out[t] = (out[t] + weight * n) % w;
            }
        }
        out
    }

    const CROSS: &str = "puzzle \"cross\" {\n  size 3x3\n  lights {\n    . 1 .\n    1 1 1\n    . 1 .\n  }\n}\n";

    #[test]
    fn the_palette_is_the_one_render_uses() {
        for w in [2u32, 3, 4, 5, 6, 12] {
            let text = format!("puzzle \"w\" {{\n  size 1x3\n  states {w}\n  lights at 1,1\n}}\n");
            let d = doc(&text);
            let b = board(&d, 0, &Solved::all(&d), 1).unwrap();
            assert!(b.playable, "{:?}", b.why);
            let want: Vec<String> = (0..w).map(|v| lights_compiler::palette::state_colour(v, w).to_string()).collect();
            assert_eq!(b.palette, want, "W = {w}");
        }
        // W = 4: state 3 is the fully-on yellow, as in `render` (it was green in the page).
        let d = doc("puzzle \"w\" {\n  size 1x3\n  states 4\n  lights at 1,1\n}\n");
        assert_eq!(board(&d, 0, &Solved::all(&d), 1).unwrap().palette[3], "#ffd84d");
    }

    #[test]
    fn boards_and_graphs_are_described_for_people() {
        let d = doc(CROSS);
        let b = board(&d, 0, &Solved::all(&d), 1).unwrap();
        assert_eq!(b.description, "3×3 square board · rule cross · plane · 2 states");
        let d = doc("puzzle \"p\" {\n  graph petersen\n  rule ring\n  states 3\n  lights on\n}\n");
        let b = board(&d, 0, &Solved::all(&d), 1).unwrap();
        assert!(b.playable, "{:?}", b.why);
        assert_eq!(
            b.description,
            "Petersen graph · 10 nodes · 15 edges · rule σ (ring: a press changes the node's neighbours) · 3 states"
        );
        let g = b.graph.expect("a graph");
        assert_eq!((g.layout.len(), g.dashed.len()), (10, 15));
        assert!(g.node_radius > 0.0);
        let d = doc("puzzle \"c\" {\n  graph cube-surface 2\n  lights on\n}\n");
        let b = board(&d, 0, &Solved::all(&d), 1).unwrap();
        assert!(
            b.description.starts_with("surface of a 2×2×2 cube · 24 nodes · 48 edges · rule σ+"),
            "{}",
            b.description
        );
        assert_eq!(b.graph.unwrap().dashed.iter().filter(|&&x| x).count(), 14);
    }

    #[test]
    fn a_cross_plane_board_has_the_solvers_patterns_and_report() {
        let d = doc(CROSS);
        let solved = Solved::all(&d);
        let b = board(&d, 0, &solved, 7).unwrap();
        assert!(b.playable, "{:?}", b.why);
        assert_eq!((b.version, b.index, b.name.as_str()), (7, 0, "cross"));
        assert_eq!((b.shape, b.rows, b.cols, b.states, b.rule, b.topology), ("square", 3, 3, 2, "cross", "plane"));
        assert_eq!(b.gluing, Gluings { columns: "open", rows: "open" });
        assert_eq!(b.labels[0], "1,1");
        assert_eq!(b.labels[5], "2,3");
        assert_eq!(b.lights, [0, 1, 0, 1, 1, 1, 0, 1, 0]);
        assert_eq!(b.goal, [0; 9]);
        // The corner changes itself and its two neighbours.
        assert_eq!(b.presses[0], [(0, 1), (1, 1), (3, 1)]);
        assert_eq!(b.presses[4].len(), 5);
        assert!(b.chase);
        assert!(b.graph.is_none());
        let report = b.report.clone().expect("solved");
        assert_eq!(report.presses, Some(1));
        assert_eq!(report.minimum.as_deref(), Some(&[0, 0, 0, 0, 1, 0, 0, 0, 0][..]));
        assert_eq!(play(&b, &b.lights, report.minimum.as_ref().unwrap()), b.goal);
        // Not yet solved: no report.
        let none = board(&d, 0, &Solved::default(), 1).unwrap();
        assert!(none.report.is_none());
        assert!(board(&d, 1, &solved, 7).is_none());
        let json = serde_json::to_value(&b).unwrap();
        assert_eq!(json["presses"][0], serde_json::json!([[0, 1], [1, 1], [3, 1]]));
        assert_eq!(json["gluing"]["columns"], "open");
    }

    #[test]
    fn solving_from_a_position_reaches_the_goal() {
        let text = "puzzle \"p\" {\n  size 5x5\n  states 3\n  topology torus\n  goal at 3,3:2\n  locked at 1,1\n}\n";
        let d = doc(text);
        let b = board(&d, 0, &Solved::all(&d), 1).unwrap();
        assert_eq!(b.gluing, Gluings { columns: "glued", rows: "glued" });
        assert!(!b.chase);
        assert!(b.locked[0] && !b.locked[1]);
        // A position the goal is reached from: the goal with presses undone
        // (each pressed W − 1 more times).
        let mut undo = vec![0; 25];
        (undo[7], undo[13], undo[24]) = (2, 1, 2);
        let lights = play(&b, &b.goal, &undo);
        let r = solve_from(&d, 0, &lights, &|| false).unwrap();
        assert!(r.solvable);
        let min = r.minimum.clone().unwrap();
        assert_eq!(min[0], 0, "a locked button is never pressed");
        assert_eq!(min.iter().map(|&v| u64::from(v)).sum::<u64>(), r.presses.unwrap());
        assert_eq!(play(&b, &lights, &min), b.goal);
        // The solver's answer from the puzzle's own lights is the report's.
        let own = solve_from(&d, 0, &b.lights, &|| false).unwrap();
        assert_eq!(Some(own), b.report);
        // Stopped at once: no answer.
        assert_eq!(solve_from(&d, 0, &lights, &|| true), Err(PlayError::Stopped));
    }

    #[test]
    fn lights_that_do_not_fit_are_refused() {
        let d = doc("puzzle \"h\" {\n  size 2x2\n  holes at 1,2\n}\n");
        assert!(matches!(solve_from(&d, 0, &[0, 0, 0], &|| false), Err(PlayError::BadLights(_))));
        let e = solve_from(&d, 0, &[0, 0, 2, 0], &|| false).unwrap_err();
        assert_eq!(e.to_string(), "bad lights: cell 2,1 is 2: a light has states 0 to 1 on this board");
        let e = solve_from(&d, 0, &[0, 1, 0, 0], &|| false).unwrap_err();
        assert_eq!(e.to_string(), "bad lights: cell 1,2 is a hole: its light is 0");
        assert!(e.is_bad_request());
        assert_eq!(solve_from(&d, 3, &[0; 4], &|| false), Err(PlayError::NoPuzzle { index: 3, count: 1 }));
    }

    #[test]
    fn holes_have_empty_patterns_and_are_not_locked_buttons() {
        let d = doc("puzzle \"h\" {\n  size 3x3\n  holes at 2,2\n  locked at 1,1\n}\n");
        let b = board(&d, 0, &Solved::all(&d), 1).unwrap();
        assert!(b.holes[4] && !b.locked[4], "a hole is not shown as a locked button");
        assert!(b.locked[0]);
        assert!(b.presses[4].is_empty());
        assert!(b.presses.iter().all(|p| p.iter().all(|&(t, _)| t != 4)), "no press changes a hole");
        assert_eq!(b.presses[1], [(0, 1), (1, 1), (2, 1)]);
        assert!(!b.chase);
    }

    #[test]
    fn hex_and_graph_boards_have_their_shape_labels_and_patterns() {
        let d = doc("puzzle \"hex\" {\n  grid hex\n  size 3x3\n}\n");
        let b = board(&d, 0, &Solved::all(&d), 1).unwrap();
        assert_eq!((b.shape, b.rows, b.cols), ("hex", 3, 3));
        assert_eq!(b.labels[4], "2,2");
        // The middle of a hex board: itself and six neighbours.
        assert_eq!(b.presses[4].len(), 7);
        assert!(!b.chase);
        // Rows 2, 4, … are shifted right: (1,1) touches (2,1) but not (2,2).
        assert_eq!(b.presses[0], [(0, 1), (1, 1), (3, 1)]);
        let lights = play(&b, &b.goal, &[0, 1, 0, 0, 0, 0, 1, 0, 0]);
        let r = solve_from(&d, 0, &lights, &|| false).unwrap();
        assert_eq!(play(&b, &lights, r.minimum.as_ref().unwrap()), b.goal);
        assert_eq!(
            lights_text(&d, 0, &lights).unwrap().text,
            edit::value_statement("lights", d.block(0).unwrap().as_lights().unwrap(), &lights)
        );

        let d = doc("puzzle \"g\" {\n  graph cycle 5\n  lights at 1\n}\n");
        let b = board(&d, 0, &Solved::all(&d), 1).unwrap();
        assert!(b.playable, "{:?}", b.why);
        assert_eq!((b.shape, b.rows, b.cols), ("graph", 1, 5));
        assert_eq!(b.labels, ["1", "2", "3", "4", "5"]);
        assert_eq!(b.presses[0], [(0, 1), (1, 1), (4, 1)]);
        let g = b.graph.as_ref().unwrap();
        assert_eq!(g.edges.len(), 5);
        assert!(g.edges.contains(&[0, 4]));
        assert_eq!(g.layout.len(), 5);
        let min = b.report.as_ref().unwrap().minimum.clone().unwrap();
        assert_eq!(play(&b, &b.lights, &min), b.goal);
        assert_eq!(lights_text(&d, 0, &[0, 1, 0, 1, 0]).unwrap().text, "  lights at 2 4");
    }

    #[test]
    fn large_sliding_and_broken_blocks_are_not_playable() {
        let d = doc("puzzle \"big\" {\n  size 300x300\n  lights on\n}\nsliding \"s\" {\n  size 3x3\n}\npuzzle \"bad\" {\n  size 0x3\n}\n");
        let list = puzzles(&d, &Solved::default());
        assert_eq!(list.len(), 3);
        assert!(!list[0].playable);
        assert_eq!(
            list[0].why.as_deref(),
            Some("90,000 cells: more than the 65,536 a board can have to be played (`lights solve` and `lights render` take it)")
        );
        assert!(list[0].status.starts_with("300×300"), "{}", list[0].status);
        assert_eq!(list[1].kind, "sliding");
        assert!(!list[1].playable);
        assert!(
            !list[2].playable && list[2].why.as_deref().unwrap().starts_with("the puzzle has 1 error"),
            "{:?}",
            list[2]
        );
        assert!(list[2].status.starts_with("✗"));
        let b = board(&d, 0, &Solved::default(), 3).unwrap();
        assert!(!b.playable && b.presses.is_empty() && b.why.is_some());
        assert_eq!((b.rows, b.cols), (300, 300));
        assert!(matches!(solve_from(&d, 0, &[], &|| false), Err(PlayError::NotPlayable(_))));
        assert!(!wants_solving(&d, 0));
    }

    #[test]
    fn boards_with_huge_press_patterns_are_not_playable() {
        // 128×128 with a 21×21 stencil of ones: 7 million entries, ~70 MB of board data.
        let row = vec!["1"; 21].join(" ");
        let stencil = vec![row.as_str(); 21].join("\n    ");
        let wide = format!("puzzle \"wide\" {{\n  size 128x128\n  topology torus\n  rule {{\n    {stencil}\n  }}\n  lights at 1,1\n}}\n");
        let d = doc(&format!(
            "{wide}puzzle \"k\" {{\n  graph complete 2000\n}}\npuzzle \"f\" {{\n  size 100x100\n  rule flip\n}}\n"
        ));
        let list = puzzles(&d, &Solved::default());
        let why = list[0].why.as_deref().unwrap_or_default();
        assert!(
            why.starts_with("its press patterns change up to 7,225,344 cells in all, more than the 2,097,152"),
            "{why}"
        );
        assert!(!list[1].playable, "K_2000: 4 million entries");
        assert!(list[2].playable, "100×100 flip: at most 4 × 100 per cell: {:?}", list[2].why);
        assert!(matches!(solve_from(&d, 0, &[], &|| false), Err(PlayError::NotPlayable(_))));
    }

    /// The bound never undercounts: every cell's real pattern is counted.
    #[test]
    fn the_press_entries_bound_holds() {
        let shapes = [
            "size 4x5",
            "size 4x5\n  topology torus",
            "size 4x5\n  topology projective",
            "size 4x4\n  grid hex\n  topology torus",
            "graph petersen",
            "graph { 1-2 2-3 5 }",
            "size 3x3\n  holes at 2,2",
        ];
        let rules = ["cross", "king", "flip", "merlin", "ring", "{ 1 1 / 1 . }"];
        for shape in shapes {
            for rule in rules {
                let d = doc(&format!("puzzle \"p\" {{\n  {shape}\n  rule {rule}\n}}\n"));
                let Some(p) = d.block(0).and_then(|b| b.as_lights()) else { continue };
                let real: usize = (0..p.rows)
                    .flat_map(|r| (0..p.cols).map(move |c| (r, c)))
                    .map(|(r, c)| press_pattern(p, r, c).len())
                    .sum();
                assert!(real <= press_entries_bound(p), "{shape} {rule}: {real} > {}", press_entries_bound(p));
            }
        }
    }

    #[test]
    fn the_lights_text_and_edit_write_the_position() {
        let d = doc(CROSS);
        let values = [1, 0, 0, 0, 0, 0, 0, 0, 1];
        let text = lights_text(&d, 0, &values).unwrap().text;
        assert_eq!(text, "  lights {\n    1 . .\n    . . .\n    . . 1\n  }");
        let e = lights_edit(&d, 0, &values).unwrap().unwrap();
        let after = edit::apply(d.text(), &[e]);
        let again = doc(after.as_str());
        let b = board(&again, 0, &Solved::default(), 2).unwrap();
        assert_eq!(b.lights, values);
        // A block without `lights` gets one.
        let d = doc("puzzle \"x\" {\n  size 2x2\n}\n");
        let e = lights_edit(&d, 0, &[0, 1, 1, 0]).unwrap().unwrap();
        let after = edit::apply(d.text(), &[e]);
        assert_eq!(board(&doc(after.as_str()), 0, &Solved::default(), 1).unwrap().lights, [0, 1, 1, 0]);
    }

    #[test]
    fn the_list_has_every_block_with_its_status() {
        let d = doc(&format!("{CROSS}puzzle \"two\" {{\n  size 2x2\n  lights on\n}}\n"));
        let list = puzzles(&d, &Solved::all(&d));
        assert_eq!(list.iter().map(|p| p.name.as_str()).collect::<Vec<_>>(), ["cross", "two"]);
        assert_eq!(list[0].status, "✓ 1 solution · minimum 1 press");
        assert!(list.iter().all(|p| p.playable && p.why.is_none() && p.kind == "puzzle"));
        assert_eq!(puzzles(&d, &Solved::default())[0].status, "⋯ solving…");
    }
}
