//! How hard a level is for a person, as a number of actions (issue 31).
//!
//! The measure models a player who knows the two methods people use on
//! Lights Out, and takes the easiest one that works:
//!
//! 1. **Local**: press a button that puts more lights right than wrong,
//!    again and again (what a beginner does: every press visibly helps).
//!    When that reaches the goal, the difficulty is the presses it took.
//! 2. **Light chasing** (square board, plane, `rule cross`, nothing locked
//!    below the first row, no holes): for each row from the top, press
//!    under every light that is not right, so the rows above are settled;
//!    one pass inspects every cell. When the bottom row comes out right,
//!    the difficulty is the chase's presses plus the cells inspected.
//!    Otherwise the player looks up the first row in a table (the chase's
//!    first-row table), presses it, and chases again: both chases' presses,
//!    the first row's presses, two passes and one row read.
//! 3. Otherwise no method a person carries in their head applies, and the
//!    player must work it out: twice the fewest presses, plus two passes.
//!
//! The number is exactly what the model does, counted, not a fitted score:
//! the local player and both chases are run on the level. It is
//! calibrated against these published methods (the local rule of thumb,
//! and the chase with its table, as taught for the 5×5 game), whose
//! actions it counts; it has not been fitted to human solve times, which
//! the project does not have. What it orders well: a level solved by
//! pressing what is lit is easier than one that needs a chase, which is
//! easier than one that needs the table, and within a method more presses
//! is harder.

use crate::lower::press_pattern;
use crate::model::{Presses, Puzzle, Rule, Shape, Topology};
use crate::report::Report;

/// The local player is run on boards of at most this many cells (a step
/// tries every button).
pub const LOCAL_MAX_CELLS: usize = 400;
/// Levels of more cells get no difficulty: a chase is a pass over the
/// cells, and `lights pack` measures every level.
pub const MAX_CELLS: usize = 1_000_000;

/// The method the model's player used.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Method {
    /// Pressing what helps solved it.
    Local,
    /// One light chase solved it.
    Chase,
    /// Chase, the first row from the table, chase again.
    ChaseWithTable,
    /// No method applies: worked out.
    WorkedOut,
}

impl Method {
    pub fn words(self) -> &'static str {
        match self {
            Method::Local => "pressing what helps solves it",
            Method::Chase => "one light chase solves it",
            Method::ChaseWithTable => "light chasing with the first-row table",
            Method::WorkedOut => "no method applies: it must be worked out",
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Method::Local => "local",
            Method::Chase => "chase",
            Method::ChaseWithTable => "chase+table",
            Method::WorkedOut => "worked out",
        }
    }
}

/// A level's difficulty and how it was reached.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Difficulty {
    /// The actions the model's player takes (presses and cells inspected).
    pub score: u64,
    pub method: Method,
    /// Presses the local player needed, when it solved the level.
    pub local_presses: Option<u64>,
    /// Whether one chase alone solves it (`None` where chasing does not apply).
    pub chase_alone: Option<bool>,
}

/// The difficulty of a solvable level whose minimum was found; `None` otherwise.
///
/// A player can turn the board (chase from any side), so on a square board
/// the model is run on each of its 8 turns and the easiest is kept: a
/// level and its turned copy have the same difficulty.
pub fn difficulty(p: &Puzzle, r: &Report) -> Option<Difficulty> {
    let minimum = r.minimum.as_ref()?;
    if !r.solvable || p.cells() > MAX_CELLS {
        return None;
    }
    let solutions = table_rows(p, r);
    if p.shape != Shape::Square || p.cells() > LOCAL_MAX_CELLS * 64 {
        return difficulty_as_seen(p, minimum, &solutions);
    }
    crate::symmetry::grid::Turn::all()
        .filter_map(|turn| {
            let moved: Vec<Presses> = solutions.iter().map(|s| turned(p, s, turn).1).collect();
            let (q, _) = turned(p, &minimum.presses, turn);
            difficulty_as_seen(&q, minimum, &moved)
        })
        .min_by_key(|d| d.score)
}

/// The solutions whose first rows the table may give: all of them when
/// there are at most [`TABLE_SOLUTIONS`] (the player's table gives the
/// row that costs least), else the minimum found.
fn table_rows(p: &Puzzle, r: &Report) -> Vec<Presses> {
    let Some(minimum) = r.minimum.as_ref() else { return Vec::new() };
    let count: u64 = r.quiet_patterns.iter().try_fold(1u64, |n, q| n.checked_mul(q.order as u64)).unwrap_or(u64::MAX);
    if r.quiet_patterns_omitted || count > TABLE_SOLUTIONS || p.cells() > LOCAL_MAX_CELLS * 64 {
        return vec![minimum.presses.clone()];
    }
    let w = p.states;
    let mut out = vec![minimum.presses.clone()];
    for q in &r.quiet_patterns {
        let mut more = Vec::new();
        for s in &out {
            for k in 1..q.order {
                let values: Vec<u32> = (0..p.cells()).map(|i| (s.get(i) + k * q.presses.get(i)) % w).collect();
                more.push(Presses::from_values(&values, w));
            }
        }
        out.extend(more);
    }
    out
}

/// At most this many solutions are tried for the first-row table.
pub const TABLE_SOLUTIONS: u64 = 64;

/// `p` and a solution of it, turned.
fn turned(p: &Puzzle, presses: &Presses, turn: crate::symmetry::grid::Turn) -> (Puzzle, Presses) {
    let (h, w) = turn.dims(p.rows, p.cols);
    let mut source = vec![0usize; h * w];
    for i in 0..p.cells() {
        let (r, c) = turn.apply((i / p.cols, i % p.cols), p.rows, p.cols);
        source[r * w + c] = i;
    }
    let carry = |b: &crate::model::Board| crate::model::Board::dense(source.iter().map(|&s| b.get(s)).collect());
    let rule = match &p.rule {
        Rule::Stencil(s) => Rule::Stencil(crate::symmetry::turn_stencil(s, turn)),
        r => r.clone(),
    };
    let mut q = Puzzle::new(h, w, p.states, rule, p.topology);
    q.shape = p.shape.clone();
    q.lights = carry(&p.lights);
    q.goal = carry(&p.goal);
    q.locked = carry(&p.locked);
    q.holes = carry(&p.holes);
    let values: Vec<u32> = source.iter().map(|&s| presses.get(s)).collect();
    (q, Presses::from_values(&values, p.states))
}

fn difficulty_as_seen(
    p: &Puzzle,
    minimum: &crate::report::MinimumSolution,
    solutions: &[Presses],
) -> Option<Difficulty> {
    let local = local_player(p);
    let chase = chase(p, solutions);
    let chase_alone = chase.map(|c| c.alone);
    if let Some(presses) = local {
        return Some(Difficulty { score: presses, method: Method::Local, local_presses: local, chase_alone });
    }
    // The cells that exist (a hole is not inspected).
    let cells = (0..p.cells()).filter(|&i| !p.is_hole(i)).count() as u64;
    match chase {
        Some(c) if c.alone => {
            Some(Difficulty { score: c.presses + cells, method: Method::Chase, local_presses: None, chase_alone })
        }
        Some(c) => Some(Difficulty {
            score: c.presses + 2 * cells + p.cols as u64,
            method: Method::ChaseWithTable,
            local_presses: None,
            chase_alone,
        }),
        None => Some(Difficulty {
            score: 2 * minimum.cost + 2 * cells,
            method: Method::WorkedOut,
            local_presses: None,
            chase_alone,
        }),
    }
}

/// What each cell still needs (goal − current, mod W).
fn needs(p: &Puzzle) -> Vec<u32> {
    (0..p.cells()).map(|i| if p.is_hole(i) { 0 } else { p.need(i) }).collect()
}

/// The local player: press the button that leaves the most cells right
/// (ties: the first in reading order) while that is more than before.
/// Returns the presses when it reaches the goal.
fn local_player(p: &Puzzle) -> Option<u64> {
    if p.cells() > LOCAL_MAX_CELLS {
        return None;
    }
    let w = p.states;
    let mut need = needs(p);
    let patterns: Vec<(usize, Vec<(usize, u32)>)> =
        (0..p.cells()).filter(|&b| !p.is_locked(b)).map(|b| (b, press_pattern(p, b / p.cols, b % p.cols))).collect();
    // The buttons whose pattern holds each cell: after a press, only their gains change.
    let mut touching: Vec<Vec<usize>> = vec![Vec::new(); p.cells()];
    for (k, (_, pattern)) in patterns.iter().enumerate() {
        for &(i, _) in pattern {
            touching[i].push(k);
        }
    }
    let gain = |need: &[u32], pattern: &[(usize, u32)]| -> i64 {
        pattern
            .iter()
            .map(|&(i, wt)| {
                let before = need[i] != 0;
                let after = !(need[i] + w - wt % w).is_multiple_of(w);
                i64::from(before) - i64::from(after)
            })
            .sum()
    };
    let mut gains: Vec<i64> = patterns.iter().map(|(_, pat)| gain(&need, pat)).collect();
    let mut presses = 0u64;
    // Each press puts at least one more cell right than wrong, so a run
    // cannot be longer than the cells.
    while need.iter().any(|&n| n != 0) {
        // The largest gain; ties: the first button in reading order.
        let (best, &g) = gains.iter().enumerate().max_by_key(|&(k, g)| (*g, std::cmp::Reverse(k)))?;
        if g <= 0 || presses > p.cells() as u64 {
            return None;
        }
        for &(i, wt) in &patterns[best].1 {
            need[i] = (need[i] + w - wt % w) % w;
        }
        for &(i, _) in &patterns[best].1 {
            for &k in &touching[i] {
                gains[k] = gain(&need, &patterns[k].1);
            }
        }
        presses += 1;
    }
    Some(presses)
}

#[derive(Clone, Copy)]
struct Chase {
    /// Presses the player makes (both chases and the first row, when needed).
    presses: u64,
    alone: bool,
}

fn chase_applies(p: &Puzzle) -> bool {
    p.shape == Shape::Square
        && p.topology == Topology::Plane
        && p.rule == Rule::Cross
        && !p.has_holes()
        && (p.cols..p.cells()).all(|i| !p.is_locked(i))
        && p.rows >= 2
}

/// Light chasing, with the first-row table when one chase is not enough
/// (the table's row is the found minimum's first row).
fn chase(p: &Puzzle, solutions: &[Presses]) -> Option<Chase> {
    if !chase_applies(p) || p.cells() > crate::model::PER_CELL_LIMIT {
        return None;
    }
    let w = p.states;
    let mut need = needs(p);
    let press = |need: &mut [u32], r: usize, c: usize, times: u32| {
        for (i, wt) in press_pattern(p, r, c) {
            need[i] = (need[i] + w - (wt * times) % w) % w;
        }
    };
    let run = |need: &mut Vec<u32>| -> u64 {
        let mut presses = 0u64;
        for r in 0..p.rows - 1 {
            for c in 0..p.cols {
                let k = need[r * p.cols + c];
                if k != 0 {
                    press(need, r + 1, c, k);
                    presses += k as u64;
                }
            }
        }
        presses
    };
    let first = run(&mut need);
    if need.iter().all(|&n| n == 0) {
        return Some(Chase { presses: first, alone: true });
    }
    // The first row of a solution, pressed on the chased board, then
    // chased again; the table gives the row that costs least.
    let after_first = need;
    let best = solutions
        .iter()
        .map(|s| {
            let mut need = after_first.clone();
            let mut table = 0u64;
            for c in 0..p.cols {
                let k = s.get(c) % w;
                if k != 0 {
                    press(&mut need, 0, c, k);
                    table += k as u64;
                }
            }
            let second = run(&mut need);
            debug_assert!(need.iter().all(|&n| n == 0), "a solution's first row, chased, solves the board");
            table + second
        })
        .min()?;
    Some(Chase { presses: first + best, alone: false })
}
