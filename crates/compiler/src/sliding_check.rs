//! Solving and verifying sliding-tile blocks through `lights-sliding`: the
//! invariant decides solvability (with its explanation as the certificate),
//! IDA* finds the fewest moves (4×4 with pattern databases), larger boards
//! get a correct solution marked as not proven shortest. Diagnostics reuse
//! the meaning of the Lights Out codes: L0201 (cannot be solved), L0202
//! (`expect` does not hold), L0203 (`solution` wrong), L0206 (shortest not
//! proven), L0207 (internal error).

use lights_sliding::{invariant, replay, Board, Invariant, ReplayError, SolveOptions, Strategy};
pub use lights_sliding::{BuildProgress, BuildStage, TableStore, PDB_FILE_NAME};

use crate::diagnostic::{Code, Diagnostic};
use crate::report::SolveError;
use crate::sliding::{SlidingClaim, SlidingPuzzle};

/// Everything known about one sliding block.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SlidingReport {
    pub solvable: bool,
    /// Both positions' invariant values and why they decide solvability.
    pub invariant: Invariant,
    /// The moves found (`U D L R`: where the blank goes), when solvable.
    pub solution: Option<SlidingSolution>,
    /// Solvable, but no solution was computed: it would take about this
    /// many moves (more than [`MAX_SOLUTION_MOVES`]; very thin boards).
    pub too_long: Option<u64>,
}

/// Solutions estimated longer than this are not computed (they would take
/// gigabytes): the block is still decided by the invariant, and a written
/// `solution` is still replayed.
pub const MAX_SOLUTION_MOVES: u64 = 100_000_000;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SlidingSolution {
    pub moves: String,
    /// Proven to be the fewest moves.
    pub optimal: bool,
    /// No solution is shorter (the length itself when `optimal`).
    pub lower_bound: u32,
}

impl SlidingSolution {
    pub fn len(&self) -> usize {
        self.moves.len()
    }
    pub fn is_empty(&self) -> bool {
        self.moves.is_empty()
    }
}

/// `optimal 31 moves`, `62 moves (not proven fewest)`, `unsolvable`.
pub fn summary(r: &SlidingReport) -> String {
    match &r.solution {
        None if r.solvable => "solvable (no solution computed: it would be too long)".to_string(),
        None => "unsolvable".to_string(),
        Some(s) if s.optimal => format!("optimal {}", moves(s.len() as u64)),
        Some(s) => format!("{} (not proven fewest)", moves(s.len() as u64)),
    }
}

/// `3,072,000`.
fn group_thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, d) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(d);
    }
    out
}

/// `1 move`, `31 moves`.
pub fn moves(n: u64) -> String {
    if n == 1 {
        "1 move".to_string()
    } else {
        format!("{n} moves")
    }
}

fn boards(p: &SlidingPuzzle) -> Result<(Board, Board), SolveError> {
    let start = Board::new(p.rows, p.cols, p.tiles.iter().map(|&t| u32::from(t)).collect())
        .map_err(|e| SolveError::Internal(format!("validated tiles rejected: {e}")))?;
    let goal = Board::new(p.rows, p.cols, p.goal.iter().map(|&t| u32::from(t)).collect())
        .map_err(|e| SolveError::Internal(format!("validated goal rejected: {e}")))?;
    Ok((start, goal))
}

/// Solves a validated sliding block. `cancel` is polled during the search.
pub fn solve(p: &SlidingPuzzle, cancel: &dyn Fn() -> bool) -> Result<SlidingReport, SolveError> {
    let (start, goal) = boards(p)?;
    let inv = invariant(&start, &goal).map_err(|e| SolveError::Internal(e.to_string()))?;
    if !inv.solvable {
        return Ok(SlidingReport { solvable: false, invariant: inv, solution: None, too_long: None });
    }
    let estimate = lights_sliding::estimated_moves(p.rows, p.cols);
    if estimate > MAX_SOLUTION_MOVES {
        return Ok(SlidingReport { solvable: true, invariant: inv, solution: None, too_long: Some(estimate) });
    }
    let opts = SolveOptions { strategy: Strategy::Auto, cancel: Some(cancel), ..SolveOptions::default() };
    let s = lights_sliding::solve(&start, &goal, &opts).map_err(|e| match e {
        lights_sliding::SolveError::Cancelled => SolveError::Cancelled,
        other => SolveError::Internal(other.to_string()),
    })?;
    let solution = SlidingSolution { moves: s.moves.clone(), optimal: s.optimal, lower_bound: s.lower_bound };
    Ok(SlidingReport { solvable: true, invariant: inv, solution: Some(solution), too_long: None })
}

/// The report with the block's own `solution` taken into account: when it
/// reaches the goal in fewer moves than the solution found (on a board the
/// optimal search does not cover), it is the best solution known, and it is
/// optimal if it meets the lower bound. `None` when it changes nothing.
pub fn with_written_solution(p: &SlidingPuzzle, r: &SlidingReport) -> Option<SlidingReport> {
    let written = p.header.solution.as_ref()?;
    // No solution computed (too long): the written one, if right, is all there is.
    let lower_bound = match &r.solution {
        Some(found) if found.optimal || written.moves.len() >= found.len() => return None,
        Some(found) => found.lower_bound,
        None if r.solvable => 0,
        None => return None,
    };
    let (start, goal) = boards(p).ok()?;
    lights_sliding::replay_to_goal(&start, &goal, &written.moves).ok()?;
    let moves = written.moves.clone();
    let optimal = moves.len() as u32 <= lower_bound;
    let solution = SlidingSolution { optimal, lower_bound: lower_bound.min(moves.len() as u32), moves };
    Some(SlidingReport { solution: Some(solution), ..r.clone() })
}

/// The solution worth writing into the block: the one found, unless the
/// block already has a `solution` that reaches the goal in as few moves.
/// Used by `lights solve --write` and the language server's code actions.
pub fn solution_to_write<'a>(p: &SlidingPuzzle, r: &'a SlidingReport) -> Option<&'a SlidingSolution> {
    let found = r.solution.as_ref()?;
    // A block already at its goal needs no `solution ""`.
    let Some(written) = p.header.solution.as_ref() else { return (!found.is_empty()).then_some(found) };
    let reaches =
        boards(p).is_ok_and(|(start, goal)| lights_sliding::replay_to_goal(&start, &goal, &written.moves).is_ok());
    (!reaches || written.moves.len() > found.len()).then_some(found)
}

/// Whether `claim` holds (or cannot be refuted) for the report.
pub fn claim_holds(r: &SlidingReport, claim: SlidingClaim) -> bool {
    expectation(r, claim, lights_syntax::Span::new(0, 0)).is_none_or(|d| !d.is_error())
}

/// The `expect` lines that state a sliding block's result: `expect moves N`
/// when the fewest moves is proven, `expect solvable` when it is not,
/// `expect unsolvable` for an unreachable goal.
pub fn claims_for(r: &SlidingReport) -> Vec<String> {
    let claim = match &r.solution {
        _ if !r.solvable => SlidingClaim::Unsolvable,
        Some(s) if s.optimal => SlidingClaim::Moves(s.len() as u64),
        _ => SlidingClaim::Solvable,
    };
    vec![claim.to_string()]
}

/// Whether solving `p` may need the 4×4 pattern databases: boards of at
/// least 4 rows and 4 columns that are not already at their goal and can
/// reach it (a 4×4 is searched with them, a larger board finishes its last
/// 4×4 with them; an unreachable goal is decided by the invariant alone).
pub fn needs_pattern_databases(p: &SlidingPuzzle) -> bool {
    // A 4×4 uses them when the goal's blank is in a corner (they are built
    // for that; other goals are searched with Manhattan + linear conflict).
    let (r, c) = (p.goal_blank() / p.cols, p.goal_blank() % p.cols);
    let corner = (r == 0 || r == p.rows - 1) && (c == 0 || c == p.cols - 1);
    p.rows >= 4
        && p.cols >= 4
        && (p.rows * p.cols > 16 || corner)
        && p.tiles != p.goal
        && boards(p).is_ok_and(|(start, goal)| invariant(&start, &goal).is_ok_and(|inv| inv.solvable))
}

/// Loads the 4×4 pattern databases from `store` (the front end's: `lights`
/// keeps them in the user's cache), or builds (seconds, the first time) and
/// stores them, so that later solves in this process find them in memory.
/// Not cancellable: a build stopped half-way is lost. `progress` hears about
/// loading, each finished table and saving. Returns a note for the user when
/// something went wrong with the store (tables that could not be kept, or
/// unusable ones that were rebuilt).
pub fn prepare_pattern_databases(store: Option<&dyn TableStore>, progress: &dyn Fn(BuildProgress)) -> Option<String> {
    // `pattern_databases` keeps the tables in memory for the solves to come.
    match lights_sliding::pattern_databases(store, progress, &|| false) {
        Ok((_, lights_sliding::PdbSource::Built { note, .. })) => note,
        _ => None,
    }
}

/// All diagnostics that follow from a sliding block's report (with the
/// block's own correct `solution` counted as a known solution).
pub fn check(p: &SlidingPuzzle, r: &SlidingReport) -> Vec<Diagnostic> {
    let improved = with_written_solution(p, r);
    let r = improved.as_ref().unwrap_or(r);
    let mut out = Vec::new();
    let expects_unsolvable = p.header.expects.iter().any(|e| e.claim == SlidingClaim::Unsolvable);
    if !r.solvable && !expects_unsolvable {
        out.push(
            Diagnostic::error(
                Code::Unsolvable,
                p.header.head,
                format!(
                    "sliding puzzle \"{}\" can never reach its goal: its invariant is {}, the goal's is {}",
                    p.header.name, r.invariant.start.value, r.invariant.goal.value
                ),
            )
            .with_label(invariant_label(&r.invariant))
            .with_note(r.invariant.explanation.clone())
            .with_note("add `expect unsolvable` if this is the point of the puzzle (like Loyd's 14–15 puzzle)"),
        );
    }
    if let (Some(estimate), None) = (r.too_long, &r.solution) {
        out.push(
            Diagnostic::warning(
                Code::TooLargeToSolve,
                p.header.head,
                format!(
                    "sliding puzzle \"{}\" can reach its goal, but no solution was computed: on a {}×{} board it would take about {} moves",
                    p.header.name,
                    p.rows,
                    p.cols,
                    group_thousands(estimate)
                ),
            )
            .with_label("solvable (same invariant); not solved")
            .with_note(format!(
                "solutions estimated longer than {} moves are not computed; a board closer to square needs far fewer moves for as many tiles",
                group_thousands(MAX_SOLUTION_MOVES)
            )),
        );
    }
    for e in &p.header.expects {
        if let Some(d) = expectation(r, e.claim, e.span) {
            out.push(d);
        }
    }
    if let Some(block) = p.header.solution.as_ref() {
        out.extend(solution_block(p, r, block));
    }
    out
}

/// The two invariant values side by side, e.g. "invariant 1 here (7
/// inversions, blank in row 4), 0 in the goal (6 inversions, blank in row 4)".
fn invariant_label(inv: &Invariant) -> String {
    let one = |v: &lights_sliding::PositionInvariant| {
        if inv.counts_blank_row {
            format!("{} ({}, blank in row {})", v.value, inversions(v.inversions), v.blank_row + 1)
        } else {
            format!("{} ({})", v.value, inversions(v.inversions))
        }
    };
    format!("invariant {} here, {} in the goal", one(&inv.start), one(&inv.goal))
}

fn inversions(n: u64) -> String {
    if n == 1 {
        "1 inversion".to_string()
    } else {
        format!("{n} inversions")
    }
}

fn expectation(r: &SlidingReport, claim: SlidingClaim, span: lights_syntax::Span) -> Option<Diagnostic> {
    let fail =
        |what: String| Diagnostic::error(Code::ExpectationFailed, span, format!("`{claim}` does not hold: {what}"));
    match claim {
        SlidingClaim::Solvable if !r.solvable => Some(
            fail("the goal can never be reached".into())
                .with_label(invariant_label(&r.invariant))
                .with_note(r.invariant.explanation.clone()),
        ),
        SlidingClaim::Unsolvable if r.solvable => {
            let how = match &r.solution {
                Some(s) => format!("it is solved in {}: \"{}\"", moves(s.len() as u64), shorten(&s.moves)),
                None => "the invariants agree".into(),
            };
            Some(fail(how).with_note(r.invariant.explanation.clone()))
        }
        SlidingClaim::Moves(_) if r.solvable && r.solution.is_none() => Some(Diagnostic::warning(
            Code::MinimumNotProven,
            span,
            format!("`{claim}` could not be verified: no solution was computed for this board"),
        )),
        SlidingClaim::Moves(n) => {
            let Some(s) = &r.solution else {
                return Some(fail("the goal can never be reached".into()).with_note(r.invariant.explanation.clone()));
            };
            let found = s.len() as u64;
            if s.optimal && found != n {
                Some(fail(format!("the fewest moves is {found}")).with_label(format!("proven: {}", moves(found))))
            } else if !s.optimal && found < n {
                Some(fail(format!("a solution with {} exists", moves(found))))
            } else if !s.optimal && u64::from(s.lower_bound) > n {
                Some(fail(format!("every solution needs at least {}", moves(u64::from(s.lower_bound)))))
            } else if !s.optimal {
                Some(
                    Diagnostic::warning(
                        Code::MinimumNotProven,
                        span,
                        format!(
                            "`{claim}` could not be verified: the best solution found has {}, and no solution has fewer than {}, but the shortest is not proven",
                            moves(found),
                            moves(u64::from(s.lower_bound))
                        ),
                    )
                    .with_label(format!("the fewest is between {} and {found} moves", s.lower_bound))
                    .with_note("the fewest moves are proven on boards of at most 16 cells (4×4, 3×5, …) when the search ends within its budget; other boards get a correct, not necessarily shortest solution"),
                )
            } else {
                None
            }
        }
        _ => None,
    }
}

fn shorten(moves: &str) -> String {
    if moves.len() <= 60 {
        moves.to_string()
    } else {
        format!("{}…", &moves[..60])
    }
}

/// Replays the written `solution` and names the move that goes wrong.
fn solution_block(p: &SlidingPuzzle, r: &SlidingReport, block: &crate::sliding::MovesBlock) -> Vec<Diagnostic> {
    let Ok((start, goal)) = boards(p) else { return Vec::new() };
    let span_of = |index: usize| block.move_spans.get(index).copied().unwrap_or(block.string_span);
    match replay(&start, &block.moves) {
        Err(ReplayError::IllegalMove { index, letter, blank, .. }) => vec![Diagnostic::error(
            Code::WrongSolution,
            span_of(index),
            format!("move {} (`{letter}`) would take the blank off the board", index + 1),
        )
        .with_label(format!("the blank is at {blank} here"))],
        Err(ReplayError::UnknownLetter { index, letter, .. }) => vec![Diagnostic::error(
            Code::WrongSolution,
            span_of(index),
            format!("move {} (`{letter}`) is not one of U D L R", index + 1),
        )],
        Err(other) => vec![Diagnostic::error(Code::WrongSolution, block.string_span, other.to_string())],
        Ok(end) if end != goal => {
            let first = (0..p.cells()).find(|&i| end.cells()[i] != goal.cells()[i]).unwrap_or(0);
            let tile = |t: u32| if t == 0 { "the blank".to_string() } else { format!("tile {t}") };
            let mut d = Diagnostic::error(
                Code::WrongSolution,
                block.string_span,
                format!(
                    "`solution` ends short of the goal: after its {}, row {}, column {} holds {} instead of {}",
                    moves(block.moves.len() as u64),
                    first / p.cols + 1,
                    first % p.cols + 1,
                    tile(end.cells()[first]),
                    tile(goal.cells()[first])
                ),
            );
            d = d.with_label("does not reach the goal");
            if let Some(s) = &r.solution {
                d = d.with_note(format!("a solution in {}: \"{}\"", moves(s.len() as u64), shorten(&s.moves)));
            }
            vec![d]
        }
        Ok(_) => Vec::new(),
    }
}
