//! Formatting: the canonical form of `lights fmt`, as the whole text or as
//! the fewest whole-line edits that turn the text into it. The document's byte-order mark
//! and line ending are kept by the same function `lights fmt` calls
//! ([`format_keeping_layout`]).

use std::time::{Duration, Instant};

use lights_compiler::edit::TextEdit;
use lights_syntax::format::format_keeping_layout;
use lights_syntax::Span;

use crate::document::Document;
use crate::limits::MAX_FORMATTING_EDITS;

/// The formatted text, `None` when the text is already formatted, or why it
/// cannot be formatted (a file with syntax errors is never rewritten).
pub fn format(doc: &Document) -> Result<Option<String>, String> {
    let formatted = format_keeping_layout(doc.text()).map_err(|e| e.to_string())?;
    Ok((formatted != doc.text()).then_some(formatted))
}

/// How long [`format_edits`] looks for the fewest changed lines; past
/// it the diff is coarser (fewer, larger edits), never wrong.
const DIFF_DEADLINE: Duration = Duration::from_secs(1);

/// [`format`] as edits: one per run of lines that change, the lines both
/// share left alone, so an editor keeps its cursors, marks and undo history
/// there and a one-line change is a one-line edit. A file reformatted
/// throughout (more than [`MAX_FORMATTING_EDITS`] runs) gets one edit from
/// its first change to its last (a client applies a few large edits faster).
/// Empty when the text is already formatted.
pub fn format_edits(doc: &Document) -> Result<Vec<TextEdit>, String> {
    let Some(formatted) = format(doc)? else { return Ok(Vec::new()) };
    let mut changes = line_changes(doc.text(), &formatted, DIFF_DEADLINE);
    if changes.len() > MAX_FORMATTING_EDITS {
        let (first, last) = (changes[0].clone(), changes[changes.len() - 1].clone());
        changes = vec![(first.0.start..last.0.end, first.1.start..last.1.end)];
    }
    Ok(changes
        .into_iter()
        .map(|(old, new)| TextEdit { span: Span::new(old.start, old.end), text: formatted[new].to_string() })
        .collect())
}

/// The byte ranges of `old` that change, each with the range of `new` that
/// replaces it, in order and apart: whole lines (a line ends at LF, CRLF or
/// CR alone, so an edit never falls between a `\r` and its `\n`), found by
/// a line diff (Myers, within `deadline`).
fn line_changes(old: &str, new: &str, deadline: Duration) -> Vec<(std::ops::Range<usize>, std::ops::Range<usize>)> {
    let (old_starts, new_starts) = (line_starts(old), line_starts(new));
    let (old_lines, new_lines) = (lines(old, &old_starts), lines(new, &new_starts));
    let ops = similar::capture_diff_slices_deadline(
        similar::Algorithm::Myers,
        &old_lines,
        &new_lines,
        Some(Instant::now() + deadline),
    );
    // Neighbouring changes (a deletion next to an insertion) make one edit.
    let mut changes: Vec<(std::ops::Range<usize>, std::ops::Range<usize>)> = Vec::new();
    for op in ops.iter().filter(|op| op.tag() != similar::DiffTag::Equal) {
        let (o, n) = (op.old_range(), op.new_range());
        let (o, n) = (old_starts[o.start]..old_starts[o.end], new_starts[n.start]..new_starts[n.end]);
        match changes.last_mut() {
            Some((lo, ln)) if lo.end == o.start && ln.end == n.start => {
                lo.end = o.end;
                ln.end = n.end;
            }
            _ => changes.push((o, n)),
        }
    }
    changes
}

/// The lines of `text` split at `starts` ([`line_starts`]), endings kept.
fn lines<'a>(text: &'a str, starts: &[usize]) -> Vec<&'a str> {
    starts.windows(2).map(|w| &text[w[0]..w[1]]).collect()
}

/// Where each line of `text` starts, and its end: a line ends after LF,
/// after CRLF, or after a CR not followed by LF.
fn line_starts(text: &str) -> Vec<usize> {
    let bytes = text.as_bytes();
    let mut starts = vec![0];
    for (i, &b) in bytes.iter().enumerate() {
        let ends = b == b'\n' || (b == b'\r' && bytes.get(i + 1) != Some(&b'\n'));
        if ends && i + 1 < bytes.len() {
            starts.push(i + 1);
        }
    }
    if !text.is_empty() {
        starts.push(bytes.len());
    }
    starts
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    /// `old` with `changes` applied (as a client applies LSP edits: all
    /// against the old text).
    fn apply(old: &str, new: &str, changes: &[(std::ops::Range<usize>, std::ops::Range<usize>)]) -> String {
        let mut out = old.to_string();
        for (o, n) in changes.iter().rev() {
            out.replace_range(o.clone(), &new[n.clone()]);
        }
        out
    }

    #[test]
    fn lines_end_at_lf_crlf_and_a_lone_cr() {
        assert_eq!(line_starts(""), [0]);
        assert_eq!(line_starts("a"), [0, 1]);
        assert_eq!(line_starts("a\nb\r\nc\rd\n"), [0, 2, 5, 7, 9]);
        assert_eq!(line_starts("a\r\n"), [0, 3]);
    }

    #[test]
    fn a_one_line_change_is_a_one_line_edit() {
        let old = "puzzle \"p\" {\n  size 2x2\n    lights on\n}\n\npuzzle \"q\" {\n  size 2x2\n}\n";
        let new = "puzzle \"p\" {\n  size 2x2\n  lights on\n}\n\npuzzle \"q\" {\n  size 2x2\n}\n";
        let changes = line_changes(old, new, Duration::from_secs(60));
        assert_eq!(changes.len(), 1);
        let (o, n) = changes[0].clone();
        assert_eq!((&old[o], &new[n]), ("    lights on\n", "  lights on\n"));
    }

    #[test]
    fn changes_apart_are_edits_apart_and_together_give_the_new_text() {
        let old = "a\r\n b\r\nc\r\nd\r\n e\r\nf";
        let new = "a\r\nb\r\nc\r\nd\r\ne\r\nf\r\n";
        let changes = line_changes(old, new, Duration::from_secs(60));
        let shown: Vec<(&str, &str)> = changes.iter().map(|(o, n)| (&old[o.clone()], &new[n.clone()])).collect();
        assert_eq!(shown, [(" b\r\n", "b\r\n"), (" e\r\nf", "e\r\nf\r\n")]);
        assert_eq!(apply(old, new, &changes), new);
        // A lone CR ends a line too: the edit is the line, not the file.
        let changes = line_changes("x\r y\rz\r", "x\ry\rz\r", Duration::from_secs(60));
        assert_eq!(changes, [(2..5, 2..4)]);
        assert_eq!(line_changes("same\n", "same\n", Duration::from_secs(60)), []);
        assert_eq!(apply("", "new\n", &line_changes("", "new\n", Duration::from_secs(60))), "new\n");
    }

    #[test]
    fn past_the_deadline_the_edits_are_coarser_and_still_right() {
        let old: String = (0..2_000).map(|i| format!("line {}\n", i * 7 % 13)).collect();
        let new: String = (0..2_000).map(|i| format!("line {}\n", i * 5 % 11)).collect();
        let changes = line_changes(&old, &new, Duration::ZERO);
        assert_eq!(apply(&old, &new, &changes), new);
    }

    #[test]
    fn a_formatted_text_has_no_edits_and_a_messy_one_gets_its_lines_only() {
        let head = "puzzle \"a\" {\n  size 2x2\n  lights on\n}\n\n".repeat(1000);
        let messy = format!("{head}puzzle \"b\"{{\nsize 2x2\n}}\n\n{head}puzzle \"z\" {{\n  size 2x2\n}}\n");
        let edits = format_edits(&Document::new(messy.clone())).unwrap();
        assert!(!edits.is_empty() && edits.iter().all(|e| e.span.len() < 100), "{edits:?}");
        let formatted = lights_compiler::edit::apply(&messy, &edits);
        assert_eq!(Some(formatted.clone()), format(&Document::new(messy)).unwrap());
        assert!(format_edits(&Document::new(formatted)).unwrap().is_empty());
    }
}
