//! Formatting: the canonical form of `lights fmt`, as the whole text or as
//! the one edit that turns the text into it. The document's byte-order mark
//! and line ending are kept by the same function `lights fmt` calls
//! ([`format_keeping_layout`]).

use lights_compiler::edit::TextEdit;
use lights_syntax::format::format_keeping_layout;
use lights_syntax::Span;

use crate::document::Document;

/// The formatted text, `None` when the text is already formatted, or why it
/// cannot be formatted (a file with syntax errors is never rewritten).
pub fn format(doc: &Document) -> Result<Option<String>, String> {
    let formatted = format_keeping_layout(doc.text()).map_err(|e| e.to_string())?;
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
/// ending at one (or at the end) of `old`: never between a `\r` and its
/// `\n`. A line ends at LF, CRLF or CR alone, so a CR-only file gets an edit
/// of the lines that change too, not of the whole text.
pub(crate) fn minimal_edit(old: &str, new: &str) -> TextEdit {
    let (a, b) = (old.as_bytes(), new.as_bytes());
    let shared = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    // Back to the start of the line.
    let prefix = (0..=shared).rev().find(|&i| starts_line(a, i)).unwrap_or(0);
    let most = a.len().min(b.len()) - prefix;
    let shared_tail = a.iter().rev().zip(b.iter().rev()).take(most).take_while(|(x, y)| x == y).count();
    // Forward to the start of a line: the shared tail is whole lines.
    let end = (a.len() - shared_tail..=a.len()).find(|&i| starts_line(a, i)).unwrap_or(a.len());
    let suffix = a.len() - end;
    let text = new[prefix..new.len() - suffix].to_string();
    TextEdit { span: Span::new(prefix, end), text }
}

/// Whether byte `i` of `text` starts a line (or is its end): after LF, or
/// after a CR not followed by LF.
fn starts_line(text: &[u8], i: usize) -> bool {
    i == 0 || i == text.len() || text[i - 1] == b'\n' || (text[i - 1] == b'\r' && text[i] != b'\n')
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
    fn formatting_keeps_the_byte_order_mark_and_line_endings_with_a_small_edit() {
        let canonical = "puzzle \"a\" {\n  size 2x2\n  lights on\n}\n\n".repeat(20);
        let messy = format!("{canonical}puzzle \"b\" {{\nsize 2x2\n}}\n");
        let want = format!("{canonical}puzzle \"b\" {{\n  size 2x2\n}}\n");
        for ending in ["\r\n", "\r"] {
            for bom in ["", "\u{feff}"] {
                let src = format!("{bom}{}", messy.replace('\n', ending));
                let doc = Document::new(src.clone());
                let formatted = format(&doc).unwrap().unwrap();
                assert_eq!(formatted, format!("{bom}{}", want.replace('\n', ending)), "{ending:?} {bom:?}");
                let edit = format_edit(&doc).unwrap().unwrap();
                assert_eq!(apply(&src, std::slice::from_ref(&edit)), formatted);
                assert!(edit.text.len() < 30, "only the changed lines, {ending:?} {bom:?}: {edit:?}");
                assert!(format_edit(&Document::new(formatted)).unwrap().is_none(), "{ending:?} {bom:?}");
            }
        }
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
            ("a\rb\rc\r", "a\rB\rc\r"),
            ("a\r\nb", "a\rb"),
            ("a\rb", "a\r\nb"),
        ];
        for (old, new) in cases {
            let edit = minimal_edit(old, new);
            assert_eq!(apply(old, std::slice::from_ref(&edit)), new, "{old:?} -> {new:?}: {edit:?}");
            let at_line = |s: &str, at: usize| {
                let b = s.as_bytes();
                at == 0 || at == b.len() || b[at - 1] == b'\n' || (b[at - 1] == b'\r' && b[at] != b'\n')
            };
            assert!(at_line(old, edit.span.start), "{old:?} -> {new:?}: {edit:?}");
            assert!(at_line(old, edit.span.end), "{old:?} -> {new:?}: {edit:?}");
        }
    }
}
