//! Byte offsets (what the compiler's spans are) ⇄ LSP positions, in the
//! encoding negotiated with the client: UTF-16 code units by default, UTF-8
//! bytes when the client offers it.

use lights_syntax::{LineIndex, Span};
use tower_lsp_server::lsp_types::{Position, PositionEncodingKind, Range};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub(crate) enum Encoding {
    #[default]
    Utf16,
    Utf8,
}

impl Encoding {
    /// UTF-8 when the client lists it, else UTF-16 (which every client supports).
    pub(crate) fn negotiate(offered: Option<&[PositionEncodingKind]>) -> Encoding {
        match offered {
            Some(kinds) if kinds.contains(&PositionEncodingKind::UTF8) => Encoding::Utf8,
            _ => Encoding::Utf16,
        }
    }

    pub(crate) fn kind(self) -> PositionEncodingKind {
        match self {
            Encoding::Utf16 => PositionEncodingKind::UTF16,
            Encoding::Utf8 => PositionEncodingKind::UTF8,
        }
    }
}

/// Converts positions for one text.
#[derive(Debug)]
pub(crate) struct PositionMap {
    lines: LineIndex,
    encoding: Encoding,
    len: usize,
}

impl PositionMap {
    pub(crate) fn new(text: &str, encoding: Encoding) -> Self {
        PositionMap { lines: LineIndex::new(text), encoding, len: text.len() }
    }

    pub(crate) fn position(&self, text: &str, offset: usize) -> Position {
        let offset = floor_boundary(text, offset.min(self.len));
        let (line, _) = self.lines.line_col(offset);
        let start = self.lines.line_start(line);
        let prefix = &text[start..offset];
        let character = match self.encoding {
            Encoding::Utf8 => prefix.len(),
            Encoding::Utf16 => prefix.encode_utf16().count(),
        };
        Position::new(line as u32, character as u32)
    }

    pub(crate) fn range(&self, text: &str, span: Span) -> Range {
        Range::new(self.position(text, span.start), self.position(text, span.end))
    }

    /// The byte offset of a position; positions past the end of a line
    /// clamp to the line's end (as the protocol asks), past the last line
    /// to the end of the text.
    pub(crate) fn offset(&self, text: &str, pos: Position) -> usize {
        let line = pos.line as usize;
        if line >= self.lines.line_count() {
            return self.len;
        }
        let start = self.lines.line_start(line);
        let end = self.line_end(text, line);
        let mut units = 0usize;
        for (i, ch) in text[start..end].char_indices() {
            if units >= pos.character as usize {
                return start + i;
            }
            units += match self.encoding {
                Encoding::Utf8 => ch.len_utf8(),
                Encoding::Utf16 => ch.len_utf16(),
            };
        }
        end
    }

    /// The end of a line's content (before its line break).
    pub(crate) fn line_end(&self, text: &str, line: usize) -> usize {
        let next = if line + 1 < self.lines.line_count() { self.lines.line_start(line + 1) } else { self.len };
        let content = &text[self.lines.line_start(line)..next];
        next - (content.len() - content.trim_end_matches(['\n', '\r']).len())
    }

    /// The position just past the last character of the text.
    pub(crate) fn end(&self, text: &str) -> Position {
        self.position(text, self.len)
    }
}

fn floor_boundary(text: &str, mut offset: usize) -> usize {
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    offset
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utf16_and_utf8_columns() {
        let text = "// é𝄞x\nab";
        let x = text.find('x').unwrap();
        let m16 = PositionMap::new(text, Encoding::Utf16);
        let m8 = PositionMap::new(text, Encoding::Utf8);
        // é is one UTF-16 unit and two bytes; 𝄞 is two units and four bytes.
        assert_eq!(m16.position(text, x), Position::new(0, 6));
        assert_eq!(m8.position(text, x), Position::new(0, 9));
        assert_eq!(m16.offset(text, Position::new(0, 6)), x);
        assert_eq!(m8.offset(text, Position::new(0, 9)), x);
        assert_eq!(m16.offset(text, Position::new(1, 1)), text.len() - 1);
        // Past the end of a line: its end; past the last line: the text's end.
        assert_eq!(m16.offset(text, Position::new(0, 99)), x + 1);
        assert_eq!(m16.offset(text, Position::new(9, 0)), text.len());
    }

    #[test]
    fn negotiation_prefers_utf8_only_when_offered() {
        assert_eq!(Encoding::negotiate(None), Encoding::Utf16);
        assert_eq!(Encoding::negotiate(Some(&[PositionEncodingKind::UTF16])), Encoding::Utf16);
        let both = [PositionEncodingKind::UTF16, PositionEncodingKind::UTF8];
        assert_eq!(Encoding::negotiate(Some(&both)), Encoding::Utf8);
    }
}
