//! What of a source file a terminal drawing of one diagnostic shows, made
//! safe and small.
//!
//! Diagnostics are drawn on their source lines. Drawing a 64 KB line once
//! per diagnostic made the output grow with the square of the input, and
//! raw control characters in the source or a message (NUL, CR, ESC) could
//! rewrite the user's terminal. An [`Excerpt`] holds, for one diagnostic,
//! only the lines its spans touch, each cut to a window around the places
//! it points at (the rest becomes `…`), with control characters made
//! visible (`␀`, `␛`); the lines before are empty, so line numbers stay
//! right. A [`SourceMap`], made once per file, finds lines and columns.

use std::borrow::Cow;
use std::collections::HashMap;

use lights_syntax::{LineIndex, Span};

/// A line longer than this many bytes is cut to windows.
const LONG_LINE: usize = 200;
/// Bytes kept on each side of a place a diagnostic points at.
const WINDOW: usize = 60;
/// A diagnostic past this line is described without drawing its source
/// (the drawing needs as many empty lines before it).
pub(crate) const MAX_DRAWN_LINE: usize = 1_000_000;
const GAP: &str = "…";

/// Lines and columns of one file, for drawing its diagnostics.
pub(crate) struct SourceMap<'s> {
    src: &'s str,
    lines: LineIndex,
}

impl<'s> SourceMap<'s> {
    pub(crate) fn new(src: &'s str) -> SourceMap<'s> {
        SourceMap { src, lines: LineIndex::new(src) }
    }

    /// A span inside the text, on character boundaries (the excerpt's
    /// places are these).
    pub(crate) fn clamp(&self, s: Span) -> Span {
        let at = |p: usize| floor_boundary(self.src, p.min(self.src.len()));
        Span { start: at(s.start), end: at(s.end).max(at(s.start)) }
    }

    /// The 0-based line of an offset.
    pub(crate) fn line(&self, offset: usize) -> usize {
        self.lines.line(offset.min(self.src.len()))
    }

    /// The 1-based column (in characters) of an offset.
    pub(crate) fn column(&self, offset: usize) -> usize {
        1 + self.lines.char_column(self.src, offset)
    }

    /// Where line `l` (0-based) ends, before its line break.
    fn line_end(&self, l: usize) -> usize {
        let start = self.lines.line_start(l);
        let mut end = self.lines.line_start(l + 1).max(start);
        let bytes = self.src.as_bytes();
        if end > start && bytes[end - 1] == b'\n' {
            end -= 1;
        }
        if end > start && bytes[end - 1] == b'\r' {
            end -= 1;
        }
        end
    }

    /// The excerpt that shows `spans`, or `None` when they lie past
    /// [`MAX_DRAWN_LINE`].
    pub(crate) fn excerpt(&self, spans: &[Span]) -> Option<Excerpt> {
        let src = self.src;
        let mut points: Vec<usize> =
            spans.iter().flat_map(|s| [s.start, s.end]).map(|p| floor_boundary(src, p.min(src.len()))).collect();
        points.sort_unstable();
        points.dedup();
        let last_line = self.line(*points.last()?);
        if last_line > MAX_DRAWN_LINE {
            return None;
        }
        let mut excerpt = Excerpt { text: String::new(), places: HashMap::new() };
        let mut newlines = 0;
        let mut i = 0;
        while i < points.len() {
            let l = self.line(points[i]);
            let on_line = points[i..].iter().take_while(|&&p| self.line(p) == l).count();
            // Lines not drawn are empty: ariadne counts them, never shows them.
            excerpt.text.extend(std::iter::repeat_n('\n', l - newlines));
            newlines = l;
            let end = self.line_end(l);
            excerpt.push_line(src, self.lines.line_start(l), end, &points[i..i + on_line]);
            // The line's break, as in the source (ariadne draws up to it).
            if end < src.len() {
                excerpt.text.push('\n');
                newlines = l + 1;
            }
            i += on_line;
        }
        Some(excerpt)
    }
}

/// One diagnostic's view of the source; see the module comment.
pub(crate) struct Excerpt {
    text: String,
    /// Where each place of the diagnostic is in `text`.
    places: HashMap<usize, usize>,
}

impl Excerpt {
    pub(crate) fn text(&self) -> &str {
        &self.text
    }

    /// The excerpt's range for the source's `start..end` (both places
    /// given to [`SourceMap::excerpt`]).
    pub(crate) fn range(&self, span: Span) -> std::ops::Range<usize> {
        let at = |p: usize| self.places.get(&p).copied().unwrap_or(self.text.len());
        let start = at(span.start);
        start..at(span.end).max(start)
    }

    /// The 1-based column the excerpt gives a place (to put the source's
    /// column back where they differ).
    pub(crate) fn column(&self, offset: usize) -> usize {
        let at = self.places.get(&offset).copied().unwrap_or(0);
        let line_start = self.text[..at].rfind('\n').map_or(0, |i| i + 1);
        1 + self.text[line_start..at].chars().count()
    }

    /// One line (without its break), cut to windows around `points` if long.
    fn push_line(&mut self, src: &str, start: usize, end: usize, points: &[usize]) {
        let keep: Vec<(usize, usize)> = if end - start <= LONG_LINE {
            vec![(start, end)]
        } else {
            let mut windows: Vec<(usize, usize)> = Vec::new();
            for &p in points {
                let a = floor_boundary(src, p.saturating_sub(WINDOW).max(start));
                let b = ceil_boundary(src, (p + WINDOW).min(end));
                match windows.last_mut() {
                    Some(last) if a <= last.1 => last.1 = last.1.max(b),
                    _ => windows.push((a, b)),
                }
            }
            windows
        };
        let mut at = start;
        for (a, b) in keep {
            if a > at {
                self.text.push_str(GAP);
            }
            self.push_escaped(src, a, b, points);
            at = b;
        }
        if at < end {
            self.text.push_str(GAP);
        }
        // A place at the very end of the line (or of the text).
        for &p in points.iter().filter(|&&p| p >= end) {
            self.places.insert(p, self.text.len());
        }
    }

    /// `src[a..b]` (within one line), control characters made visible,
    /// noting where the places in it land.
    fn push_escaped(&mut self, src: &str, a: usize, b: usize, points: &[usize]) {
        let mut next = points.partition_point(|&p| p < a);
        for (i, c) in src[a..b].char_indices() {
            while next < points.len() && points[next] <= a + i {
                self.places.insert(points[next], self.text.len());
                next += 1;
            }
            if needs_escape(c) {
                self.text.push(visible(c));
            } else {
                self.text.push(c);
            }
        }
        while next < points.len() && points[next] < b {
            self.places.insert(points[next], self.text.len());
            next += 1;
        }
    }
}

/// Whether a character would act on a terminal instead of showing: C0 and
/// C1 controls but tab and newline, DEL, and the Unicode line and paragraph
/// separators. The one test of what must never reach a terminal raw (the
/// JSON and XML writers escape the same characters).
pub(crate) fn needs_escape(c: char) -> bool {
    (c.is_control() && c != '\t' && c != '\n') || c == '\u{2028}' || c == '\u{2029}'
}

/// The visible stand-in of a control character: its Unicode control
/// picture (`␀`, `␍`, `␛`, `␡`), else the replacement character.
fn visible(c: char) -> char {
    match c as u32 {
        n @ 0..=0x1f => char::from_u32(0x2400 + n).unwrap_or('\u{fffd}'),
        0x7f => '\u{2421}',
        _ => '\u{fffd}',
    }
}

/// Text for a terminal message with its control characters escaped
/// (`\r`, `\0`, `\u{1b}`); newlines and tabs are kept.
pub(crate) fn escape_controls(text: &str) -> Cow<'_, str> {
    if !text.chars().any(needs_escape) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match c {
            '\0' => out.push_str("\\0"),
            '\r' => out.push_str("\\r"),
            c if needs_escape(c) => out.push_str(&format!("\\u{{{:x}}}", c as u32)),
            c => out.push(c),
        }
    }
    Cow::Owned(out)
}

/// A puzzle's name as messages show it: quoted, control characters
/// escaped ([`escape_controls`]); `(unnamed)` for none.
pub(crate) fn quoted_name(name: Option<&str>) -> String {
    match name {
        Some(n) => format!("\"{}\"", escape_controls(n)),
        None => "(unnamed)".to_string(),
    }
}

fn floor_boundary(s: &str, mut i: usize) -> usize {
    while i > 0 && !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

fn ceil_boundary(s: &str, mut i: usize) -> usize {
    while i < s.len() && !s.is_char_boundary(i) {
        i += 1;
    }
    i
}

/// Text escaped for XML (and HTML) attributes and content; control characters (which
/// XML 1.0 cannot hold, or a terminal showing the report would act on) are
/// first written visibly, as in every message ([`escape_controls`]: `\r`,
/// `\u{7f}`).
pub(crate) fn xml(text: &str) -> String {
    let text = escape_controls(text);
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn span(start: usize, end: usize) -> Span {
        Span { start, end }
    }

    #[test]
    fn only_the_touched_lines_are_drawn_and_line_numbers_stay() {
        let src = "puzzle \"a\" {\n  size 2x2\n}\n";
        let map = SourceMap::new(src);
        let e = map.excerpt(&[span(15, 19)]).unwrap();
        assert_eq!(e.text(), "\n  size 2x2\n");
        assert_eq!(&e.text()[e.range(span(15, 19))], "size");
        assert_eq!((map.line(15), map.column(15), e.column(15)), (1, 3, 3));
    }

    #[test]
    fn long_lines_keep_a_window_around_each_place() {
        let line = "1,1 ".repeat(10_000);
        let src = format!("x\n{line}\ny\n");
        let at = 2 + 4 * 5_000;
        let map = SourceMap::new(&src);
        let e = map.excerpt(&[span(at, at + 3)]).unwrap();
        let second = e.text().lines().nth(1).unwrap();
        assert!(second.len() < 2 * WINDOW + 16, "{}", second.len());
        assert!(second.starts_with(GAP) && second.ends_with(GAP), "{second}");
        assert_eq!(&e.text()[e.range(span(at, at + 3))], "1,1");
        assert_eq!(map.column(at), 4 * 5_000 + 1);
        assert!(e.column(at) < map.column(at));
    }

    #[test]
    fn each_diagnostic_shows_only_its_own_windows() {
        let line = "1,1 ".repeat(16_000);
        let map = SourceMap::new(&line);
        for k in [0, 100, 15_000] {
            let s = span(4 * k, 4 * k + 3);
            let e = map.excerpt(&[s, span(0, 3)]).unwrap();
            assert!(e.text().len() <= 2 * (2 * WINDOW + 3) + 2 * GAP.len(), "{}", e.text().len());
            assert_eq!(&e.text()[e.range(s)], "1,1");
        }
    }

    #[test]
    fn control_characters_become_visible_and_line_breaks_count() {
        // A lone CR ends a line, as for the parser; CRLF is one break.
        let src = "a\0b\x1b[2J\x07c\r\nd\re";
        let map = SourceMap::new(src);
        let e = map.excerpt(&[span(0, 3), span(src.len(), src.len())]).unwrap();
        assert_eq!(e.text(), "a\u{2400}b\u{241b}[2J\u{2407}c\n\ne");
        assert_eq!(&e.text()[e.range(span(0, 3))], "a\u{2400}b");
        assert_eq!((map.line(src.len()), e.column(src.len())), (2, 2));
    }

    #[test]
    fn places_past_the_drawn_lines_are_not_drawn() {
        let src = "\n".repeat(MAX_DRAWN_LINE + 2);
        let map = SourceMap::new(&src);
        assert!(map.excerpt(&[span(src.len(), src.len())]).is_none());
        assert!(map.excerpt(&[span(0, 0)]).is_some());
    }

    #[test]
    fn messages_escape_control_characters() {
        assert_eq!(escape_controls("unknown word `a\rb\0`"), "unknown word `a\\rb\\0`");
        assert_eq!(escape_controls("\x1b[31mred"), "\\u{1b}[31mred");
        assert_eq!(escape_controls("fine\ttext\n"), "fine\ttext\n");
        assert_eq!(escape_controls("del\u{7f} c1\u{9b} ls\u{2028}"), "del\\u{7f} c1\\u{9b} ls\\u{2028}");
        assert_eq!(quoted_name(Some("x\x1b]0;pwned\x07")), "\"x\\u{1b}]0;pwned\\u{7}\"");
        assert_eq!(quoted_name(None), "(unnamed)");
    }
}
