//! The overlay drawn over the lights: the minimum solution, a quiet
//! pattern or the certificate, chosen by [`Show`] from the solver's report.

use super::{summary, PictureError, Puzzle, Report, Rgb, Show, CERTIFICATE_MARK, QUIET_MARK, SOLUTION_MARK};

pub(super) struct Overlay {
    /// Per cell, row-major.
    pub(super) values: Vec<u32>,
    pub(super) mark: Rgb,
    /// Caption of its panel (compact style).
    pub(super) caption: String,
    /// What the marks mean (legend text).
    pub(super) meaning: String,
}

/// The overlay `show` asks for. `on_board`: drawn as marks on the lights
/// (else as a panel of its own), which changes how the legend says it.
pub(super) fn overlay(
    p: &Puzzle,
    report: Option<&Report>,
    show: Show,
    on_board: bool,
    notes: &mut Vec<String>,
) -> Result<Option<Overlay>, PictureError> {
    let w = p.states;
    let solved = || report.ok_or(PictureError::NotSolved(show));
    let marked = if on_board { "marked" } else { "coloured" };
    // How many times each button is pressed, said after "press(ing) …".
    let times = match (w, on_board) {
        (2, _) => String::new(),
        (_, true) => ", each the number of times shown".to_string(),
        (_, false) => format!(", each as many times as its shade says (palest 1, darkest {})", w - 1),
    };
    match show {
        Show::Lights => Ok(None),
        Show::Solution => {
            let r = solved()?;
            let Some(min) = r.minimum.as_ref().filter(|_| r.solvable) else { return Err(PictureError::NoSolution) };
            let heading = if min.optimal {
                format!("minimum solution, {}", summary::presses(min.cost))
            } else {
                format!("a solution of {} (the fewest found; minimum not proven)", summary::presses(min.cost))
            };
            let once = if w == 2 { " once" } else { "" };
            Ok(Some(Overlay {
                values: min.presses.to_vec(),
                mark: SOLUTION_MARK,
                caption: "minimum solution".into(),
                meaning: format!("{heading}: press the {marked} buttons{once}{times}"),
            }))
        }
        Show::Quiet => {
            let r = solved()?;
            let Some(first) = r.quiet_patterns.first() else {
                let note = if r.solvable {
                    "no quiet pattern: no presses leave the board unchanged, so the solution is unique"
                } else {
                    "no quiet pattern: no presses leave the board unchanged"
                };
                notes.push(note.to_string());
                return Ok(None);
            };
            let k = r.quiet_patterns.len();
            let order = if first.order == w { String::new() } else { format!(", of order {}", first.order) };
            let generators = if k == 1 { "generator" } else { "generators" };
            Ok(Some(Overlay {
                values: first.presses.to_vec(),
                mark: QUIET_MARK,
                caption: "quiet pattern".into(),
                meaning: format!(
                    "quiet pattern 1 of {k} {generators}{order}: pressing all the {marked} buttons{times} changes no light"
                ),
            }))
        }
        Show::Certificate => certificate_overlay(p, solved()?, on_board, marked).map(Some),
    }
}

/// The certificate of an unsolvable puzzle, and the invariant it proves:
/// the weighted sum over its cells that no press changes, now and as the
/// goal needs it. `marked`: how the legend says where its cells are.
fn certificate_overlay(p: &Puzzle, r: &Report, on_board: bool, marked: &str) -> Result<Overlay, PictureError> {
    let w = p.states;
    let Some(y) = r.certificate.as_ref().filter(|_| !r.solvable) else {
        return Err(PictureError::NoCertificate { solvable: r.solvable });
    };
    let total = |values: &lights_compiler::model::Board| -> u64 {
        y.nonzero().map(|(i, a)| u64::from(a) * u64::from(values.get(i)) % u64::from(w)).sum::<u64>() % u64::from(w)
    };
    let (now, goal) = (total(&p.lights), total(&p.goal));
    let meaning = if w == 2 {
        let parity = |t: u64| if t == 0 { "even" } else { "odd" };
        format!(
            "certificate: every press keeps the number of lights on among the {marked} cells even or odd; \
             it is {} now, the goal needs it {}",
            parity(now),
            parity(goal)
        )
    } else {
        let weights = if on_board { "written in the marks" } else { "shown by the shades, palest 1" };
        format!(
            "certificate: no press changes the sum of weight × light over the {marked} cells, modulo {w} \
             (weights {weights}); it is {now} now, the goal needs {goal}"
        )
    };
    Ok(Overlay { values: y.to_vec(), mark: CERTIFICATE_MARK, caption: "certificate".into(), meaning })
}
