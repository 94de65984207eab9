//! How the command line shows an answer: the result fields of a block's
//! JSON object and the lines `lights solve` prints under a block, kind by
//! kind. [`Answered::json`](crate::Answered::json) and
//! [`Answered::solution_lines`](crate::Answered::solution_lines) choose
//! between the kinds; the functions here each take one kind's model.

use serde::Serialize;

use crate::model::Puzzle;
use crate::report::Report;
use crate::sliding_check::SlidingReport;
use crate::summary::{count, presses};
use crate::{check, edit};

/// The result fields of a block's JSON object (`--format json`, documented
/// in the README): each kind fills the ones it has.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ResultFields {
    /// Lights Out: the number of solutions.
    pub solutions: Option<String>,
    /// Lights Out: the presses of the minimum found.
    pub presses: Option<u64>,
    /// Whether the solution found is proven to have the fewest presses or moves.
    pub optimal: Option<bool>,
    /// A Lights Out minimum not proven: no solution has fewer presses than this.
    pub presses_at_least: Option<u64>,
    pub solution: Option<SolutionJson>,
    /// Why `solution` is null although the puzzle is solvable (a board too large for JSON).
    pub solution_omitted: Option<String>,
    /// Sliding blocks: the number of moves found.
    pub moves: Option<u64>,
    /// An unsolvable Lights Out puzzle's proof.
    pub certificate: Option<CertificateJson>,
}

/// `solution`: a grid of press counts, or a string of moves (`"RRDL"`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum SolutionJson {
    Presses(Vec<Vec<u32>>),
    Moves(String),
}

/// Why a puzzle cannot be solved: weights y on the cells such that every
/// press leaves the weighted total of the lights unchanged modulo W, while
/// the lights' total and the goal's differ.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CertificateJson {
    /// The weight of every cell, row by row (omitted on boards too large for JSON).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub weights: Option<Vec<Vec<u32>>>,
    /// The cells with a nonzero weight, as 1-based `[row, column]` (omitted
    /// on boards too large for JSON).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cells: Option<Vec<[usize; 2]>>,
    /// The invariant in words, as `lights solve` prints it.
    pub why: String,
}

/// How `lights solve` draws a solution.
pub struct LineStyle<'a> {
    /// Boards wider or taller than this are summarised, not drawn.
    pub max_side: usize,
    /// Boards of at most this many cells get their solution in JSON (the
    /// way out offered for a board too large to draw).
    pub json_cells: usize,
    /// How a pressed cell's count is highlighted (colour on a terminal).
    pub highlight: &'a dyn Fn(&str) -> String,
}

/// A Lights Out puzzle's JSON fields; grids only on boards of at most `max_cells` cells.
pub(crate) fn lights_json(model: &Puzzle, r: &Report, max_cells: usize) -> ResultFields {
    let mut j = ResultFields { solutions: Some(r.solutions.to_string()), ..ResultFields::default() };
    if let Some(y) = r.certificate.as_ref().filter(|_| !r.solvable) {
        let fits = model.cells() <= max_cells;
        let cells = y.nonzero().map(|(i, _)| [i / model.cols + 1, i % model.cols + 1]);
        j.certificate = Some(CertificateJson {
            weights: fits.then(|| y.to_vec().chunks(model.cols).map(<[u32]>::to_vec).collect()),
            cells: fits.then(|| cells.collect()),
            why: check::why_unsolvable(model, r).first().cloned().unwrap_or_default(),
        });
    }
    if let Some(m) = &r.minimum {
        j.presses = Some(m.cost);
        j.optimal = Some(m.optimal);
        j.presses_at_least = (!m.optimal).then_some(m.lower_bound);
        if model.cells() <= max_cells {
            j.solution =
                Some(SolutionJson::Presses(m.presses.to_vec().chunks(model.cols).map(<[u32]>::to_vec).collect()));
        } else {
            j.solution_omitted = Some(format!(
                "the board has {} cells, more than the {max_cells} written in JSON; use `lights solve --solution-out FILE`",
                model.cells()
            ));
        }
    }
    j
}

/// A sliding block's JSON fields: the moves found.
pub(crate) fn sliding_json(r: &SlidingReport) -> ResultFields {
    let mut j = ResultFields::default();
    if let Some(s) = &r.solution {
        j.moves = Some(s.moves.len() as u64);
        j.optimal = Some(s.optimal);
        j.solution = Some(SolutionJson::Moves(s.moves.clone()));
    }
    j
}

/// The lines `lights solve` prints for a Lights Out puzzle's minimum
/// solution: a legend and the board of presses, or how to get a board too
/// large to draw.
pub(crate) fn lights_lines(model: &Puzzle, report: &Report, style: &LineStyle) -> Vec<String> {
    let Some(min) = &report.minimum else { return Vec::new() };
    let max_side = style.max_side;
    let too_large = if model.is_graph() {
        // A node list: as long as the nodes pressed.
        min.presses.iter().filter(|&v| v != 0).count() > max_side * max_side
    } else {
        model.rows > max_side || model.cols > max_side
    };
    if too_large {
        // Only the ways out that take a board this size.
        let json = model.cells() <= style.json_cells;
        let write = edit::solution_text_size(model, &min.presses) <= edit::MAX_SOLUTION_TEXT;
        let others = match (json, write) {
            (true, true) => ", `--format json` or `--write`",
            (true, false) => " or `--format json`",
            (false, true) => " or `--write`",
            (false, false) => "",
        };
        return vec![format!("the board is too large to draw here; use `--solution-out FILE.png|.pbm|.txt`{others}")];
    }
    let things = if model.is_graph() { "nodes" } else { "cells" };
    let legend = match (model.is_graph(), model.states == 2) {
        (true, true) => "press the nodes listed".to_string(),
        (true, false) => "press each node listed the number of times after `:`".to_string(),
        (false, true) => format!("press the {things} marked 1"),
        (false, false) => format!("press each {} the number of times shown", &things[..things.len() - 1]),
    };
    let proven = if min.optimal { ", proven minimum" } else { "" };
    let mut out = vec![format!("{legend} ({}{proven}):", presses(min.cost))];
    let width = min.presses.iter().max().map_or(1, |v| v.to_string().len());
    let lines = check::board_lines(model, width, |i| match min.presses.get(i) {
        0 if model.is_locked(i) && !model.is_graph() => "x".to_string(),
        0 => ".".to_string(),
        v if model.is_graph() => v.to_string(),
        v => (style.highlight)(&v.to_string()),
    });
    out.extend(lines.into_iter().map(|line| format!("  {line}")));
    if report.quiet_patterns.is_empty() {
        out.push("no quiet patterns: this is the only solution".to_string());
    } else {
        out.push(format!(
            "{}: this one plus any quiet pattern (presses that change nothing)",
            count(&report.solutions, "solution")
        ));
    }
    out
}

/// The lines `lights solve` prints for a sliding block's moves.
pub(crate) fn sliding_lines(r: &SlidingReport) -> Vec<String> {
    match &r.solution {
        Some(s) if s.is_empty() => vec!["already at the goal: no move needed".to_string()],
        Some(s) => {
            let what = if s.optimal { "the fewest moves" } else { "moves, not proven fewest" };
            vec![
                format!("move the blank ({what}; U D L R = up down left right):"),
                format!("solution \"{}\"", edit::group_moves(&s.moves)),
            ]
        }
        None => Vec::new(),
    }
}
