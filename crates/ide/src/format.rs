//! Formatting: the canonical form of `lights fmt`.

use lights_syntax::format::format_source;

use crate::document::Document;

/// The formatted text, `None` when the text is already formatted, or why it
/// cannot be formatted (a file with syntax errors is never rewritten).
pub fn format(doc: &Document) -> Result<Option<String>, String> {
    let formatted = format_source(doc.text()).map_err(|e| e.to_string())?;
    Ok((formatted != doc.text()).then_some(formatted))
}
