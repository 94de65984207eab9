//! Byte offsets ⇄ line/column positions.

/// Maps byte offsets of one text to 0-based lines and columns.
#[derive(Debug, Clone)]
pub struct LineIndex {
    /// Byte offset of the start of every line.
    starts: Vec<usize>,
    len: usize,
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
        LineIndex { starts, len: text.len() }
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
}
