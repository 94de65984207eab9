//! Formatting: the CLI's formatter, as one edit of the whole document.

use lights_syntax::format::format_source;
use tower_lsp_server::lsp_types::{Position, Range, TextEdit};

use crate::document::Snapshot;

/// `Ok(edits)` (empty when already formatted), or the reason it cannot be
/// formatted (a file with syntax errors is never rewritten).
pub fn format(doc: &Snapshot) -> Result<Vec<TextEdit>, String> {
    let formatted = format_source(&doc.text).map_err(|e| e.to_string())?;
    if formatted == doc.text {
        return Ok(Vec::new());
    }
    let whole = Range::new(Position::new(0, 0), doc.map.end(&doc.text));
    Ok(vec![TextEdit { range: whole, new_text: formatted }])
}
