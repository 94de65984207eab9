//! Byte offsets ⇄ line/column positions.

/// Bytes between two character-count marks (see [`LineIndex::char_column`]).
const MARK_STEP: usize = 256;

/// Maps byte offsets of one text to 0-based lines and columns.
#[derive(Debug, Clone)]
pub struct LineIndex {
    /// Byte offset of the start of every line.
    starts: Vec<usize>,
    len: usize,
    /// For a text that is not all ASCII: the number of characters before
    /// every [`MARK_STEP`]th byte, so a character column costs at most two
    /// short scans, never a count from the line's start (many diagnostics
    /// on one long line made that quadratic). Empty for ASCII text, where
    /// characters are bytes.
    char_marks: Vec<usize>,
}

impl LineIndex {
    pub fn new(text: &str) -> Self {
        let mut starts = vec![0];
        let bytes = text.as_bytes();
        let mut i = 0;
        while i < bytes.len() {
            match bytes[i] {
                b'\n' => starts.push(i + 1),
                b'\r' if bytes.get(i + 1) != Some(&b'\n') => starts.push(i + 1),
                _ => {}
            }
            i += 1;
        }
        let char_marks = if text.is_ascii() {
            Vec::new()
        } else {
            let mut marks = Vec::with_capacity(bytes.len() / MARK_STEP + 1);
            let mut chars = 0;
            for chunk in bytes.chunks(MARK_STEP) {
                marks.push(chars);
                chars += char_starts(chunk);
            }
            marks.push(chars);
            marks
        };
        LineIndex { starts, len: text.len(), char_marks }
    }

    /// The 0-based line holding byte `offset` (offsets past the end map to the last line).
    pub fn line(&self, offset: usize) -> usize {
        let offset = offset.min(self.len);
        match self.starts.binary_search(&offset) {
            Ok(line) => line,
            Err(next) => next - 1,
        }
    }

    /// Byte offset where 0-based `line` starts (the end of the text past the last line).
    pub fn line_start(&self, line: usize) -> usize {
        self.starts.get(line).copied().unwrap_or(self.len)
    }

    /// Number of lines (a text without a final newline still counts its last line).
    pub fn line_count(&self) -> usize {
        self.starts.len()
    }

    /// 0-based line and byte column of `offset`.
    pub fn line_col(&self, offset: usize) -> (usize, usize) {
        let line = self.line(offset);
        (line, offset.min(self.len) - self.starts[line])
    }

    /// The 0-based column of `offset` counted in characters (Unicode code
    /// points). `text` must be the text this index was made from; an offset
    /// inside a character counts as that character's start. Costs at most
    /// two scans of 256 bytes, however long the line.
    pub fn char_column(&self, text: &str, offset: usize) -> usize {
        let mut offset = offset.min(self.len).min(text.len());
        while !text.is_char_boundary(offset) {
            offset -= 1;
        }
        let start = self.line_start(self.line(offset)).min(offset);
        self.chars_before(text, offset) - self.chars_before(text, start)
    }

    /// The number of characters that start before byte `offset`.
    fn chars_before(&self, text: &str, offset: usize) -> usize {
        if self.char_marks.is_empty() {
            return offset;
        }
        let k = (offset / MARK_STEP).min(self.char_marks.len() - 1);
        self.char_marks[k] + char_starts(&text.as_bytes()[k * MARK_STEP..offset])
    }
}

/// How many characters start in `bytes` (UTF-8: every byte that is not a
/// continuation byte).
fn char_starts(bytes: &[u8]) -> usize {
    bytes.iter().filter(|&&b| b & 0xC0 != 0x80).count()
}

#[cfg(test)]
mod tests {
    use super::LineIndex;

    #[test]
    fn lines_and_columns() {
        let idx = LineIndex::new("ab\ncd\r\nef\rg");
        assert_eq!(idx.line_col(0), (0, 0));
        assert_eq!(idx.line_col(4), (1, 1));
        assert_eq!(idx.line_col(7), (2, 0));
        assert_eq!(idx.line_col(10), (3, 0));
        assert_eq!(idx.line_count(), 4);
        assert_eq!(idx.line_col(99), (3, 1));
    }

    #[test]
    fn character_columns_match_a_count_from_the_line_start() {
        // Long lines of multi-byte characters cross many marks.
        let text = format!("é{}\nab\r\n{}x\n", "aé€😀".repeat(300), "ç".repeat(700));
        let idx = LineIndex::new(&text);
        for offset in 0..=text.len() + 3 {
            let at = (0..=offset.min(text.len())).rev().find(|&o| text.is_char_boundary(o)).unwrap();
            let start = idx.line_start(idx.line(at));
            assert_eq!(idx.char_column(&text, offset), text[start..at].chars().count(), "offset {offset}");
        }
        let ascii = LineIndex::new("ab\ncd");
        assert_eq!((ascii.char_column("ab\ncd", 4), ascii.char_column("ab\ncd", 9)), (1, 2));
    }

    #[test]
    fn a_character_column_reads_a_bounded_number_of_bytes() {
        // Not a count from the line's start: one line of 400,000 characters
        // (800 KB) asked at its end reads at most two marks' worth.
        let text = "é".repeat(400_000);
        let idx = LineIndex::new(&text);
        assert_eq!(idx.char_column(&text, text.len()), 400_000);
        let k = text.len() / super::MARK_STEP;
        assert_eq!(
            idx.chars_before(&text, text.len()),
            idx.char_marks[k] + super::char_starts(&text.as_bytes()[k * super::MARK_STEP..])
        );
        assert!(text.len() - k * super::MARK_STEP < super::MARK_STEP);
    }
}
