//! Formatting: the canonical form of `lights fmt`, as the whole text or as
//! the one edit that turns the text into it.

use lights_compiler::edit::TextEdit;
use lights_syntax::format::format_source;
use lights_syntax::Span;

use crate::document::Document;

/// The formatted text, `None` when the text is already formatted, or why it
/// cannot be formatted (a file with syntax errors is never rewritten).
pub fn format(doc: &Document) -> Result<Option<String>, String> {
    let formatted = format_source(doc.text()).map_err(|e| e.to_string())?;
    Ok((formatted != doc.text()).then_some(formatted))
}

/// [`format`] as one edit: from the start of the first line that changes
/// to the end of the text both share, that text left alone
/// (an editor keeps its cursor and undo history there, and a large file's
/// answer is as long as what changes, not the file).
pub fn format_edit(doc: &Document) -> Result<Option<TextEdit>, String> {
    Ok(format(doc)?.map(|formatted| minimal_edit(doc.text(), &formatted)))
}

/// The one edit that turns `old` into `new`, starting at a line's start and
/// ending at one (or at the end): never between a `\r` and its `\n`.
pub(crate) fn minimal_edit(old: &str, new: &str) -> TextEdit {
    let (a, b) = (old.as_bytes(), new.as_bytes());
    let mut prefix = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    // Back to the start of the line (never between a `\r` and its `\n`).
    prefix = a[..prefix].iter().rposition(|&c| c == b'\n').map_or(0, |i| i + 1);
    let most = a.len().min(b.len()) - prefix;
    let mut suffix = a.iter().rev().zip(b.iter().rev()).take(most).take_while(|(x, y)| x == y).count();
    // Forward to the start of a line: the shared tail is whole lines.
    let tail = &a[a.len() - suffix..];
    if suffix < a.len() && a[a.len() - suffix - 1] != b'\n' {
        suffix -= tail.iter().position(|&c| c == b'\n').map_or(suffix, |i| i + 1);
    }
    let text = new[prefix..new.len() - suffix].to_string();
    TextEdit { span: Span::new(prefix, old.len() - suffix), text }
}

#[cfg(test)]
mod tests {
    use lights_compiler::edit::apply;

    use super::*;

    #[test]
    fn the_edit_covers_only_the_lines_that_change() {
        let head = "puzzle \"a\" {\n  size 2x2\n  lights on\n}\n\n".repeat(1000);
        let messy = format!("{head}puzzle \"b\"{{\nsize 2x2\n}}\n\r\n{head}puzzle \"z\" {{\n  size 2x2\n}}\n");
        let doc = Document::new(messy.clone());
        let formatted = format(&doc).unwrap().unwrap();
        let edit = format_edit(&doc).unwrap().unwrap();
        assert_eq!(apply(&messy, std::slice::from_ref(&edit)), formatted);
        assert_eq!(edit.span.start, head.len(), "starts at the first changed line: {edit:?}");
        assert!(edit.span.end - edit.span.start < 40 && edit.text.len() < 40, "{edit:?}");
        assert!(format_edit(&Document::new(formatted)).unwrap().is_none());
    }

    #[test]
    fn minimal_edits_apply_to_the_new_text_at_line_boundaries() {
        let cases = [
            ("a\nb\nc\n", "a\nB\nc\n"),
            ("a\r\nb\r\n", "a\nb\n"),
            ("", "x\n"),
            ("x\n", ""),
            ("same\n", "same\nsame\n"),
            ("ab", "abab"),
            ("é\nx", "é\ny"),
        ];
        for (old, new) in cases {
            let edit = minimal_edit(old, new);
            assert_eq!(apply(old, std::slice::from_ref(&edit)), new, "{old:?} -> {new:?}: {edit:?}");
            let starts_line = |s: &str, at: usize| at == 0 || s.as_bytes()[at - 1] == b'\n';
            assert!(starts_line(old, edit.span.start), "{old:?} -> {new:?}: {edit:?}");
            assert!(edit.span.end == old.len() || starts_line(old, edit.span.end), "{old:?} -> {new:?}: {edit:?}");
        }
    }
}
