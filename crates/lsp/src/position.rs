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

/// Bytes between two UTF-16 checkpoints (see [`PositionMap`]).
const CHECKPOINT_EVERY: usize = 256;

/// Converts positions for one text.
///
/// Columns in UTF-16 are counted from the nearest checkpoint, not from the
/// line's start: every [`CHECKPOINT_EVERY`] bytes (at the next character
/// boundary) the map keeps the text's UTF-16 length up to there, so one
/// conversion scans at most a few hundred bytes however long the line, and
/// 200,000 diagnostics on one line cost linear time (memory: 16 bytes per
/// 256 bytes of text).
#[derive(Debug)]
pub(crate) struct PositionMap {
    lines: LineIndex,
    encoding: Encoding,
    len: usize,
    /// (byte offset, UTF-16 units of the text before it), ascending; the
    /// first is (0, 0). Empty for UTF-8, which needs no counting.
    checkpoints: Vec<(usize, usize)>,
}

impl PositionMap {
    pub(crate) fn new(text: &str, encoding: Encoding) -> Self {
        let checkpoints = match encoding {
            Encoding::Utf8 => Vec::new(),
            Encoding::Utf16 => utf16_checkpoints(text),
        };
        PositionMap { lines: LineIndex::new(text), encoding, len: text.len(), checkpoints }
    }

    pub(crate) fn position(&self, text: &str, offset: usize) -> Position {
        let offset = floor_boundary(text, offset.min(self.len));
        let (line, _) = self.lines.line_col(offset);
        let start = self.lines.line_start(line);
        let character = match self.encoding {
            Encoding::Utf8 => offset - start,
            Encoding::Utf16 => self.utf16_before(text, offset) - self.utf16_before(text, start),
        };
        Position::new(line as u32, character as u32)
    }

    /// UTF-16 units of `text[..offset]` (`offset` on a character boundary).
    fn utf16_before(&self, text: &str, offset: usize) -> usize {
        let i = self.checkpoints.partition_point(|&(byte, _)| byte <= offset) - 1;
        let (byte, units) = self.checkpoints[i];
        units + count_utf16(&text[byte..offset])
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
        let wanted = pos.character as usize;
        let mut from = start;
        let mut units = 0usize;
        if self.encoding == Encoding::Utf16 {
            // Start from the last checkpoint of the line at or before the column.
            let base = self.utf16_before(text, start);
            let target = base.saturating_add(wanted);
            let i = self.checkpoints.partition_point(|&(byte, u)| byte <= end && u <= target);
            if let Some(&(byte, u)) = self.checkpoints[..i].last().filter(|&&(byte, _)| byte > start) {
                (from, units) = (byte, u - base);
            }
        }
        for (i, ch) in text[from..end].char_indices() {
            if units >= wanted {
                return from + i;
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
}

/// The checkpoints of [`PositionMap`] for `text`.
fn utf16_checkpoints(text: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::with_capacity(text.len() / CHECKPOINT_EVERY + 1);
    out.push((0, 0));
    let (mut byte, mut units) = (0, 0);
    while byte + CHECKPOINT_EVERY < text.len() {
        let next = ceil_boundary(text, byte + CHECKPOINT_EVERY);
        units += count_utf16(&text[byte..next]);
        byte = next;
        out.push((byte, units));
    }
    out
}

/// UTF-16 units of `s` (ASCII counted a byte at a time, without decoding).
fn count_utf16(s: &str) -> usize {
    #[cfg(test)]
    tests::SCANNED.with(|n| n.set(n.get() + s.len()));
    if s.is_ascii() {
        s.len()
    } else {
        s.encode_utf16().count()
    }
}

fn ceil_boundary(text: &str, mut offset: usize) -> usize {
    while !text.is_char_boundary(offset) {
        offset += 1;
    }
    offset
}

fn floor_boundary(text: &str, mut offset: usize) -> usize {
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    offset
}

#[cfg(test)]
mod tests {
    use std::cell::Cell;

    use super::*;

    thread_local! {
        /// Bytes counted by [`count_utf16`] on this thread.
        pub(super) static SCANNED: Cell<usize> = const { Cell::new(0) };
    }

    /// Bytes scanned to convert every offset of `offsets` (after building the map).
    fn scanned_converting(text: &str, offsets: &[usize]) -> usize {
        let map = PositionMap::new(text, Encoding::Utf16);
        SCANNED.with(|n| n.set(0));
        for &o in offsets {
            map.position(text, o);
        }
        SCANNED.with(Cell::get)
    }

    #[test]
    fn many_positions_on_one_line_cost_linear_work() {
        // `lights at 1,1 1,1 …` on one line, a non-ASCII name in front.
        let line = |n: usize| format!("puzzle \"é𝄞\" {{ size 5x5 lights at{} }}", " 1,1".repeat(n));
        let offsets = |text: &str| text.match_indices(" 1,1").map(|(i, _)| i + 1).collect::<Vec<_>>();
        let (small, large) = (line(20_000), line(40_000));
        let (a, b) = (scanned_converting(&small, &offsets(&small)), scanned_converting(&large, &offsets(&large)));
        // Per conversion a bounded scan: the work per offset does not grow with the line.
        assert!(a <= 20_000 * 2 * (CHECKPOINT_EVERY + 4), "{a} bytes scanned for 20,000 positions");
        assert!(b <= 2 * a + 2 * a / 10, "2n positions cost {b}, n cost {a}: not linear");
    }

    #[test]
    fn checkpoints_give_the_same_columns_as_counting_from_the_line_start() {
        // Multi-byte characters across checkpoint boundaries, on long and short lines.
        let text: String = (0..3000).map(|i| ["a", "é", "𝄞", "\n", "xyz", "€"][i * 7 % 6]).collect();
        let map = PositionMap::new(&text, Encoding::Utf16);
        let lines = LineIndex::new(&text);
        for (offset, _) in text.char_indices().chain([(text.len(), ' ')]) {
            let line = lines.line(offset);
            let start = lines.line_start(line);
            let expected = Position::new(line as u32, text[start..offset].encode_utf16().count() as u32);
            assert_eq!(map.position(&text, offset), expected, "offset {offset}");
            assert_eq!(map.offset(&text, expected), offset, "position {expected:?}");
        }
    }

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
