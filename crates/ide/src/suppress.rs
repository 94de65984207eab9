//! Inline suppression: a comment `// lights: allow L0206` (several codes
//! separated by commas or spaces) on the line just before a block's header
//! silences those codes in the whole block; on the line just before a
//! statement, in that statement. Both front ends drop what it silences.

use lights_compiler::Diagnostic;
use lights_syntax::Span;

use crate::document::Document;

/// The codes a `// lights: allow …` comment on `line` (0-based) names.
fn allowed_on(doc: &Document, line: usize) -> Vec<String> {
    let text = doc.text();
    let start = doc.lines().line_start(line);
    let end = text[start..].find('\n').map_or(text.len(), |i| start + i);
    let line_text = text[start..end].trim();
    let Some(rest) = line_text.strip_prefix("//").map(str::trim_start) else { return Vec::new() };
    let Some(codes) = rest.strip_prefix("lights:").map(str::trim_start).and_then(|r| r.strip_prefix("allow")) else {
        return Vec::new();
    };
    codes.split(|c: char| c == ',' || c.is_whitespace()).filter(|c| !c.is_empty()).map(str::to_uppercase).collect()
}

/// The codes allowed just above the line where `span` starts.
fn allowed_above(doc: &Document, span: Span) -> Vec<String> {
    let line = doc.lines().line(span.start.min(doc.text().len()));
    if line == 0 {
        return Vec::new();
    }
    allowed_on(doc, line - 1)
}

/// Whether block `i`'s diagnostic `d` is silenced by a comment above the
/// block's header or above the statement it is in.
pub(crate) fn suppressed(doc: &Document, i: usize, d: &Diagnostic) -> bool {
    let code = d.code.as_str();
    let Some(block) = doc.analysis().puzzles.get(i) else { return false };
    if allowed_above(doc, block.span).iter().any(|c| c == code) {
        return true;
    }
    let Some(syntax) = doc.syntax(i) else { return false };
    syntax
        .statements
        .iter()
        .filter(|s| s.span.start <= d.span.start && d.span.start <= s.span.end.max(s.span.start))
        .any(|s| allowed_above(doc, s.span).iter().any(|c| c == code))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::answers::Solved;
    use crate::diagnostics::block_diagnostics;

    fn codes(text: &str) -> Vec<&'static str> {
        let doc = Document::new(text);
        let solved = Solved::all(&doc);
        (0..doc.block_count()).flat_map(|i| block_diagnostics(&doc, i, &solved)).map(|d| d.code.as_str()).collect()
    }

    #[test]
    fn a_comment_above_a_statement_or_block_silences_its_codes() {
        let claim = "puzzle \"p\" {\n  size 5x5\n  lights on\n  expect unique\n}\n";
        assert_eq!(codes(claim), ["L0202"]);
        let above_statement = claim.replace("  expect unique", "  // lights: allow L0202\n  expect unique");
        assert_eq!(codes(&above_statement), Vec::<&str>::new());
        let above_block = format!("// lights: allow l0202, L0201\n{claim}");
        assert_eq!(codes(&above_block), Vec::<&str>::new());
        // Another code, or a comment further up, silences nothing.
        assert_eq!(codes(&claim.replace("  expect unique", "  // lights: allow L0201\n  expect unique")), ["L0202"]);
        assert_eq!(codes(&format!("// lights: allow L0202\n\n{claim}")), ["L0202"]);
        // An ordinary comment is not an allow list.
        assert_eq!(codes(&claim.replace("  expect unique", "  // allow L0202\n  expect unique")), ["L0202"]);
    }
}
