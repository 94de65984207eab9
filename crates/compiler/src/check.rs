//! Verifying a solved puzzle: unsolvable puzzles, `expect` claims and
//! `solution` blocks, each problem as a diagnostic a puzzle author can act on.

use num_bigint::BigUint;

use crate::diagnostic::{Code, Diagnostic, Label};
use crate::lower::apply_presses;
use crate::model::{Board, Claim, Puzzle, Rule};
use crate::report::{Presses, Report, SolveError};
use crate::summary::count;

/// Grids up to this size are drawn in notes; larger ones are summarised.
const MAX_GRID_NOTE: usize = 24;
/// How many cells a message names before saying "and N more".
const MAX_NAMED_CELLS: usize = 8;

/// The cells of an unsolvability certificate where they are written (a
/// grid of `lights`, else of `goal`), at most `max` of them; empty when
/// there is none. The editor shows them as the related places of L0201.
pub fn certificate_labels(p: &Puzzle, r: &Report, max: usize) -> Vec<Label> {
    let (Some(y), Some(spans)) = (&r.certificate, p.lights.cell_spans.as_ref().or(p.goal.cell_spans.as_ref())) else {
        return Vec::new();
    };
    let first = y.nonzero().map(|(_, v)| v).next();
    let uniform = y.nonzero().all(|(_, v)| Some(v) == first);
    y.nonzero()
        .take(max)
        .map(|(cell, weight)| Label {
            span: spans.get(cell).unwrap_or(lights_syntax::Span::new(0, 0)),
            message: if uniform {
                format!("marked {}", p.cell_label(cell))
            } else {
                format!("{} has weight {weight}", p.cell_label(cell))
            },
        })
        .collect()
}

/// All diagnostics that follow from a puzzle's report.
pub fn check(p: &Puzzle, r: &Report) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    if !r.solvable && !p.header.expects.iter().any(|e| expects_no_solution(&e.claim)) {
        out.push(unsolvable(p, r));
    }
    for e in &p.header.expects {
        if let Some(d) = expectation(p, r, &e.claim, e.span) {
            out.push(d);
        }
    }
    if let Some(block) = p.header.solution.as_ref() {
        out.extend(solution_block(p, block));
    }
    out
}

/// The diagnostic for a puzzle the solver could not answer.
pub fn solve_failure(p: &Puzzle, e: &SolveError) -> Option<Diagnostic> {
    match e {
        SolveError::Cancelled => None,
        SolveError::TooLarge { unknowns, limit } => Some(
            Diagnostic::error(
                Code::TooLargeToSolve,
                p.header.head,
                format!(
                    "this puzzle is too large to verify: {unknowns} unknowns are left for elimination, the solver takes at most {limit} for `states {}`",
                    p.states
                ),
            )
            .with_label("not verified")
            .with_note(if p.is_graph() {
                "light chasing leaves few unknowns on graphs with a narrow layout (cycles, paths, cube surfaces, \
                 grids); this graph leaves too many: use fewer nodes or edges, or fewer locked nodes"
            } else {
                "light chasing leaves only a few unknowns on most boards (about one row's worth); this rule, \
                 topology or pattern of locked cells leaves too many: split the board or use fewer locked cells"
            }),
        ),
        SolveError::BoardTooLarge { cells, limit } => Some(
            Diagnostic::error(
                Code::TooLargeToSolve,
                p.header.head,
                format!(
                    "this puzzle is too large to verify: its {cells} cells are more than the {limit} the solver takes for \
                     this rule, surface and number of states"
                ),
            )
            .with_label("not verified")
            .with_note(
                "only the cross rule with 2 states and no locked cells on the plane, the cylinder or the torus \
                 (the polynomial method) is solved beyond that, up to 100,000×100,000",
            ),
        ),
        SolveError::OutOfMemory { bytes } => Some(
            Diagnostic::error(
                Code::TooLargeToSolve,
                p.header.head,
                format!(
                    "this puzzle is too large to verify on this machine: the solver could not allocate {} of working memory",
                    human_bytes(*bytes)
                ),
            )
            .with_label("not verified")
            .with_note("split the board, or check it on a machine with more memory"),
        ),
        SolveError::Internal(msg) => Some(
            Diagnostic::error(Code::SolverFailure, p.header.head, format!("internal solver error: {msg}"))
                .with_label("not verified")
                .with_note("this is a bug in lights: please report it with this file"),
        ),
    }
}

fn unsolvable(p: &Puzzle, r: &Report) -> Diagnostic {
    let mut d =
        Diagnostic::error(Code::Unsolvable, p.header.head, format!("puzzle \"{}\" cannot be solved", p.header.name))
            .with_label("no sequence of presses reaches the goal");
    if let Some(span) = p.spans.lights {
        d = d.with_secondary(span, "from these lights");
    }
    if let Some(span) = p.spans.goal {
        d = d.with_secondary(span, "to this goal");
    }
    let notes = why_unsolvable(p, r);
    if notes.is_empty() {
        return d;
    }
    for note in notes {
        d = d.with_note(note);
    }
    d.with_note("change `lights` or `goal` so the two totals agree, or write `expect unsolvable` if this is intended")
}

/// Why an unsolvable puzzle has no solution, in words, from its certificate:
/// the invariant (`why: …`), the marked cells or weights drawn on the board,
/// and whether the certificate is also a quiet pattern. Empty when the
/// report has no certificate.
pub fn why_unsolvable(p: &Puzzle, r: &Report) -> Vec<String> {
    let w = u64::from(p.states);
    let mut notes = Vec::new();
    let Some(y) = &r.certificate else { return notes };
    if p.free_cells() == 0 {
        notes.push(nothing_to_press(p, y));
        return notes;
    }
    // The marked cells are streamed from the packed certificate, never
    // collected: on a huge board they can be billions.
    let marked = y.count_nonzero();
    let named: Vec<usize> = y.nonzero().take(MAX_NAMED_CELLS).map(|(i, _)| i).collect();
    // Locked buttons are not pressed, and may change the invariant: say so.
    let press = if p.any_locked() { " of a free button" } else { "" };
    let press = press.to_string();
    let (cell, cells_word) = if p.is_graph() { ("node", "nodes") } else { ("cell", "cells") };
    let cells = name_some_cells(p, &named, marked);
    // When every marked cell has the same weight c, the invariant is simply
    // the total of those cells modulo m = W / gcd(c, W).
    let first = named.first().map_or(1, |&i| u64::from(y.get(i)));
    let uniform = y.is_binary() || y.nonzero().all(|(_, v)| u64::from(v) == first);
    // Σ y(i)·v(i) mod `m` from the board's written form: its base value on
    // every cell, corrected on the cells written otherwise (so a board
    // written in one word costs no pass over its cells).
    let weighted = |v: &Board, m: u64, weight_sum: u64| -> u64 {
        let base = u64::from(v.base()) % m;
        let mut t = base * (weight_sum % m) % m;
        for (i, x) in v.exceptions() {
            let wt = u64::from(y.get(i)) % m;
            if wt != 0 {
                t = (t + wt * ((u64::from(x) % m + m - base) % m)) % m;
            }
        }
        t
    };
    let proof = if uniform {
        let m = w / gcd(first, w);
        // Every marked cell has weight `first`: the total counts each once.
        let total = |v: &Board| -> u64 {
            let base = u64::from(v.base()) % m;
            let mut t = base * (marked as u64 % m) % m;
            for (i, x) in v.exceptions() {
                if y.get(i) != 0 {
                    t = (t + (u64::from(x) % m + m - base) % m) % m;
                }
            }
            t
        };
        let (start, goal) = (total(&p.lights), total(&p.goal));
        if p.states == 2 {
            format!(
                "why: every press{press} changes an even number of the {} marked {cells_word} ({cells}), so the number of \
                 lights on among them stays even or odd for ever; it is {} now, and the goal needs it {}",
                marked,
                parity(start),
                parity(goal)
            )
        } else {
            format!(
                "why: every press{press} adds a multiple of {m} to the total of the {marked} marked {cells_word} ({cells}), so that \
                 total modulo {m} never changes; it is {start} now, and the goal needs {goal}"
            )
        }
    } else {
        let weight_sum = y.nonzero().map(|(_, a)| u64::from(a)).fold(0u64, |acc, a| (acc + a) % w);
        let dot = |v: &Board| -> u64 { weighted(v, w, weight_sum) };
        format!(
            "why: weight each {cell} by the number below; every press{press} leaves the weighted total of the lights \
             unchanged modulo {w}; it is {} now, and the goal needs {}",
            dot(&p.lights),
            dot(&p.goal)
        )
    };
    notes.push(proof);
    // The same test as `grid_note`'s: a graph of 25 to 576 nodes once got
    // no marks here but a note there, and indexed past them (issue 25).
    let marks: Vec<u32> = match (grid_note_fits(p), uniform) {
        (false, _) => Vec::new(),
        (true, true) => y.iter().map(|v| u32::from(v != 0)).collect(),
        (true, false) => y.to_vec(),
    };
    if let Some(grid) = grid_note(p, &marks) {
        let what = match (uniform, p.is_graph()) {
            (true, true) => "the marked nodes",
            (true, false) => "the marked cells",
            (false, _) => "the weights",
        };
        notes.push(format!("{what}:\n{grid}"));
    }
    let symmetric = matches!(p.rule, Rule::Cross | Rule::King | Rule::Flip | Rule::Ring) && !p.any_locked();
    if symmetric {
        let how = if uniform {
            format!("pressing each marked {cell} {}", crate::summary::count(first, "time"))
        } else {
            format!("pressing each {cell} as many times as its weight")
        };
        notes.push(format!("this is also a quiet pattern: {how} changes nothing"));
    }
    notes
}

/// The proof when no button is free (see [`crate::buttonless`]): the
/// certificate's one cell shows another light than its goal, and nothing
/// can change it.
fn nothing_to_press(p: &Puzzle, y: &Presses) -> String {
    let what = if p.has_holes() { "locked or a hole" } else { "locked" };
    match y.nonzero().next() {
        Some((i, _)) => format!(
            "why: every button is {what}, so nothing can be pressed; {} is {} now, and the goal needs {}",
            p.cell_label(i),
            p.lights.get(i),
            p.goal.get(i)
        ),
        None => format!("why: every button is {what}, so nothing can be pressed"),
    }
}

fn gcd(a: u64, b: u64) -> u64 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

fn parity(v: u64) -> &'static str {
    if v.is_multiple_of(2) {
        "even"
    } else {
        "odd"
    }
}

/// `expect unsolvable` and `expect solutions 0` both claim there is no solution.
pub fn expects_no_solution(claim: &Claim) -> bool {
    crate::header::BlockClaim::denies_solution(claim)
}

/// Whether `claim` holds (or cannot be refuted) for the report.
pub fn claim_holds(p: &Puzzle, r: &Report, claim: &Claim) -> bool {
    expectation(p, r, claim, lights_syntax::Span::new(0, 0)).is_none_or(|d| !d.is_error())
}

fn expectation(p: &Puzzle, r: &Report, claim: &Claim, span: lights_syntax::Span) -> Option<Diagnostic> {
    let truth = describe_truth(r);
    let fail = |what: String| {
        let d = Diagnostic::error(Code::ExpectationFailed, span, format!("`{claim}` does not hold: {what}"))
            .with_label("does not hold");
        Some(if what == truth { d } else { d.with_note(format!("what is true: {truth}")) })
    };
    if expects_no_solution(claim) {
        return if r.solvable { fail(format!("the puzzle has {}", count(&r.solutions, "solution"))) } else { None };
    }
    // Every other claim needs a solution: on an unsolvable puzzle each is
    // false, whatever else the block claims (L0201, or the block's own
    // `expect unsolvable`, says why there is none).
    if !r.solvable {
        return fail(truth.clone());
    }
    match claim {
        Claim::Unique if r.solutions != BigUint::from(1u32) => {
            fail(format!("the puzzle has {} solutions", r.solutions))
        }
        Claim::Solutions(n) if *n != r.solutions => fail(format!("the puzzle has {}", count(&r.solutions, "solution"))),
        Claim::PressesBetween(low, high) => {
            let m = r.minimum.as_ref()?;
            if m.cost < *low {
                fail(format!("a solution with {} presses exists", m.cost))
            } else if m.lower_bound > *high {
                fail(format!("no solution has fewer than {} presses", m.lower_bound))
            } else if m.optimal && m.cost > *high {
                fail(format!("the minimum is {} presses", m.cost))
            } else if !m.optimal && (m.cost > *high || m.lower_bound < *low) {
                Some(
                    Diagnostic::warning(
                        Code::MinimumNotProven,
                        span,
                        format!(
                            "`{claim}` could not be verified: the minimum is between {} and {} presses, but it is not proven",
                            m.lower_bound.max(1),
                            m.cost
                        ),
                    )
                    .with_label("not proven")
                    .with_note(
                        "to let the search work longer: `lights check --minimum-budget 5s`, or `minimum-budget = \"5s\"` \
                         under `[solver]` in lights.toml",
                    ),
                )
            } else {
                None
            }
        }
        Claim::Difficulty(low, high) => {
            let Some(d) = crate::difficulty::difficulty(p, r) else {
                return fail(format!(
                    "the difficulty is not measured on this level (more than {} cells, or no minimum found)",
                    crate::difficulty::MAX_CELLS
                ));
            };
            if (*low..=*high).contains(&d.score) {
                None
            } else {
                fail(format!("the difficulty is {} ({})", d.score, d.method.words())).map(|diag| {
                    diag.with_note(
                        "difficulty counts what a player does: the presses of pressing what helps, else light \
                         chasing's presses plus the cells it inspects (docs/authoring/packs.md)",
                    )
                })
            }
        }
        Claim::Presses(n) => {
            let m = r.minimum.as_ref()?;
            if m.optimal && m.cost != *n {
                fail(format!("the minimum is {} presses", m.cost))
            } else if !m.optimal && m.cost < *n {
                fail(format!("a solution with {} presses exists", m.cost))
            } else if !m.optimal && *n < m.lower_bound {
                fail(format!("no solution has fewer than {} presses", m.lower_bound))
            } else if !m.optimal {
                let bound = if m.lower_bound > 1 {
                    format!(" (and none has fewer than {})", m.lower_bound)
                } else {
                    String::new()
                };
                Some(
                    Diagnostic::warning(
                        Code::MinimumNotProven,
                        span,
                        format!("`{claim}` could not be verified: the best solution found has {} presses{bound}, but it is not proven minimum", m.cost),
                    )
                    .with_label("not proven")
                    .with_note(
                        "the puzzle has too many solutions to search them all within the minimum budget; to let \
                         the search work longer: `lights check --minimum-budget 5s`, or `minimum-budget = \"5s\"` \
                         under `[solver]` in lights.toml",
                    ),
                )
            } else {
                None
            }
        }
        _ => None,
    }
}

fn describe_truth(r: &Report) -> String {
    if !r.solvable {
        return "the puzzle has no solution".into();
    }
    match &r.minimum {
        Some(m) => format!(
            "{}; minimum {}{}",
            count(&r.solutions, "solution"),
            crate::summary::presses(m.cost),
            if m.optimal { "" } else { " (best found, not proven)" }
        ),
        None => count(&r.solutions, "solution"),
    }
}

/// Whether a written `solution` solves its puzzle: it presses no locked
/// cell and reaches the goal.
pub fn solution_solves(p: &Puzzle, block: &crate::model::SolutionBlock) -> bool {
    crate::lower::presses_solve(p, &block.presses.to_vec())
}

fn solution_block(p: &Puzzle, block: &crate::model::SolutionBlock) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let unit = if p.is_graph() { "node" } else { "cell" };
    let presses = block.presses.to_vec();
    let locked: Vec<usize> = (0..presses.len()).filter(|&i| presses[i] != 0 && p.is_locked(i)).collect();
    if !locked.is_empty() {
        let mut d = Diagnostic::error(
            Code::LockedPress,
            block.span,
            format!(
                "this `solution` presses {}: {}",
                count(locked.len(), &format!("locked {unit}")),
                name_cells(p, &locked)
            ),
        )
        .with_label("presses locked buttons");
        if let Some(spans) = block.presses.cell_spans.as_ref() {
            for &i in locked.iter().take(MAX_NAMED_CELLS) {
                if let Some(span) = spans.get(i) {
                    d = d.with_secondary(span, format!("{unit} {} is locked", p.coord(i)));
                }
            }
        }
        out.push(d.with_note("a locked button may not be pressed; find a solution with `lights solve`"));
    }
    let end = apply_presses(p, &presses);
    let wrong: Vec<usize> = (0..end.len()).filter(|&i| end[i] != u32::from(p.goal.get(i))).collect();
    if !wrong.is_empty() {
        let detail: Vec<String> = wrong
            .iter()
            .take(MAX_NAMED_CELLS)
            .map(|&i| format!("{} is {} (goal {})", p.coord(i), end[i], p.goal.get(i)))
            .collect();
        let more = if wrong.len() > MAX_NAMED_CELLS {
            format!(" and {} more", wrong.len() - MAX_NAMED_CELLS)
        } else {
            String::new()
        };
        let mut d = Diagnostic::error(
            Code::WrongSolution,
            block.span,
            format!(
                "this `solution` does not solve the puzzle: it leaves {} wrong: {}{more}",
                count(wrong.len(), unit),
                detail.join(", ")
            ),
        )
        .with_label("does not reach the goal");
        if let Some(grid) = grid_note(p, &end) {
            d = d.with_note(format!("the board after these presses:\n{grid}"));
        }
        out.push(d.with_note("`lights solve --write FILE` replaces it with a minimum solution"));
    }
    out
}

/// `1,2 1,4 3,3` (1-based), with "and N more" past a few.
/// The first of `total` cells by name, and how many more there are.
fn name_some_cells(p: &Puzzle, first: &[usize], total: usize) -> String {
    let mut s: Vec<String> = first.iter().take(MAX_NAMED_CELLS).map(|&i| p.coord(i)).collect();
    if total > s.len() {
        s.push(format!("and {} more", total - s.len()));
    }
    s.join(" ")
}

fn name_cells(p: &Puzzle, cells: &[usize]) -> String {
    let mut s: Vec<String> = cells.iter().take(MAX_NAMED_CELLS).map(|&i| p.coord(i)).collect();
    if cells.len() > MAX_NAMED_CELLS {
        s.push(format!("and {} more", cells.len() - MAX_NAMED_CELLS));
    }
    s.join(" ")
}

/// A small board drawn as a grid (`.` for 0; see [`board_lines`]), or
/// `None` when too large to be useful.
/// `values` has one value per cell; any other length draws nothing.
pub fn grid_note(p: &Puzzle, values: &[u32]) -> Option<String> {
    if !grid_note_fits(p) || values.len() != p.cells() {
        return None;
    }
    let width = values.iter().map(|v| v.to_string().len()).max().unwrap_or(1);
    let lines = board_lines(p, width, |i| {
        let v = values[i];
        if v == 0 {
            ".".to_string()
        } else {
            v.to_string()
        }
    });
    Some(lines.iter().map(|l| format!("  {l}")).collect::<Vec<_>>().join("\n"))
}

/// Whether [`grid_note`] draws `p`: a board up to 24×24, a graph up to
/// 576 nodes (one `at` line).
fn grid_note_fits(p: &Puzzle) -> bool {
    if p.is_graph() {
        p.cols <= MAX_GRID_NOTE * MAX_GRID_NOTE
    } else {
        p.rows <= MAX_GRID_NOTE && p.cols <= MAX_GRID_NOTE
    }
}

/// A board's cells as text lines, each cell's text from `cell` padded to
/// `width`: rows of cells on a square grid; on a hex grid every second
/// row shifted right by half a cell; holes left blank. A graph is one line,
/// an `at` list of its nonzero nodes (`at 3 7:2`, `cell` gives the value
/// text; `.` means 0), or `none`.
pub fn board_lines(p: &Puzzle, width: usize, cell: impl Fn(usize) -> String) -> Vec<String> {
    if p.is_graph() {
        let mut line = String::from("at");
        for i in 0..p.cells() {
            if p.is_hole(i) {
                continue;
            }
            let t = cell(i);
            let t = t.trim();
            if t == "." || t.is_empty() {
                continue;
            }
            line.push_str(&format!(" {}", p.coord(i)));
            if t != "1" {
                line.push_str(&format!(":{t}"));
            }
        }
        return vec![if line == "at" { "none".to_string() } else { line }];
    }
    let hex = p.shape == crate::model::Shape::Hex;
    (0..p.rows)
        .map(|r| {
            let cells: Vec<String> = (0..p.cols)
                .map(|c| {
                    let i = p.index(r, c);
                    if p.is_hole(i) {
                        " ".repeat(width)
                    } else {
                        let t = cell(i);
                        // `cell` may paint the text (terminal colours): pad by its visible width.
                        let visible = strip_ansi_len(&t);
                        format!("{}{t}", " ".repeat(width.saturating_sub(visible)))
                    }
                })
                .collect();
            let shift = if hex && r % 2 == 1 { " ".repeat(width.div_ceil(2)) } else { String::new() };
            format!("{shift}{}", cells.join(" ")).trim_end().to_string()
        })
        .collect()
}

/// The length of `s` without ANSI colour sequences.
fn strip_ansi_len(s: &str) -> usize {
    let mut n = 0;
    let mut in_escape = false;
    for ch in s.chars() {
        match (in_escape, ch) {
            (false, '\u{1b}') => in_escape = true,
            (true, 'm') => in_escape = false,
            (true, _) => {}
            (false, _) => n += 1,
        }
    }
    n
}

/// `bytes` for a message: "34.4 GB", "512 B" (`usize::MAX`: "more than the address space").
fn human_bytes(bytes: usize) -> String {
    if bytes == usize::MAX {
        return "more than the address space".to_string();
    }
    match bytes {
        0..1_000 => format!("{bytes} B"),
        1_000..1_000_000 => format!("{:.1} kB", bytes as f64 / 1e3),
        1_000_000..1_000_000_000 => format!("{:.1} MB", bytes as f64 / 1e6),
        _ => format!("{:.1} GB", bytes as f64 / 1e9),
    }
}
