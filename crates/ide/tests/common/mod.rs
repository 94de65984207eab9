//! Fixture files for the feature tests: a `.lights` text in which each
//! `$0` marks a cursor (removed before the text is analysed). A runner per
//! feature turns a fixture into a readable report of the plain data the
//! feature returns, pinned with an insta snapshot named after the file.

#![allow(dead_code)]

use std::path::Path;

use lights_ide::{Document, Solved};
use lights_syntax::Span;

pub(crate) const CURSOR: &str = "$0";

/// A fixture: the text without its markers, and the markers' offsets in it.
pub(crate) struct Fixture {
    pub text: String,
    pub cursors: Vec<usize>,
}

impl Fixture {
    pub(crate) fn read(path: &Path) -> Fixture {
        let raw = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        Fixture::parse(&raw)
    }

    pub(crate) fn parse(raw: &str) -> Fixture {
        let mut text = String::with_capacity(raw.len());
        let mut cursors = Vec::new();
        let mut rest = raw;
        while let Some(i) = rest.find(CURSOR) {
            text.push_str(&rest[..i]);
            cursors.push(text.len());
            rest = &rest[i + CURSOR.len()..];
        }
        text.push_str(rest);
        Fixture { text, cursors }
    }

    /// The analysed text and every block's answer.
    pub(crate) fn analyse(&self) -> (Document, Solved) {
        let doc = Document::new(self.text.clone());
        let solved = Solved::all(&doc);
        (doc, solved)
    }
}

/// `3:5` — 1-based line and character column of a byte offset.
pub(crate) fn position(text: &str, offset: usize) -> String {
    let before = &text[..offset.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    format!("{line}:{column}")
}

/// `3:5–3:8 `text``: where a span is and what it covers (one line of it).
pub(crate) fn span(text: &str, span: Span) -> String {
    let covered = &text[span.start..span.end];
    let shown = match covered.lines().next() {
        Some(first) if covered.contains('\n') => format!("`{first}`…"),
        _ => format!("`{covered}`"),
    };
    format!("{}–{} {shown}", position(text, span.start), position(text, span.end))
}

/// The line of `offset` with a `$0` where the cursor is.
pub(crate) fn cursor_line(text: &str, offset: usize) -> String {
    let start = text[..offset].rfind('\n').map_or(0, |i| i + 1);
    let end = text[offset..].find('\n').map_or(text.len(), |i| offset + i);
    format!("{}{CURSOR}{}", &text[start..offset], &text[offset..end])
}

/// Indent every line of a multi-line text.
pub(crate) fn indent(text: &str, by: &str) -> String {
    text.lines()
        .map(|l| if l.is_empty() { by.trim_end().to_string() } else { format!("{by}{l}") })
        .collect::<Vec<_>>()
        .join("\n")
}
