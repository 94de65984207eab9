//! Inline suppression: a comment `// lights: allow L0206` (several codes
//! separated by commas or spaces) on the line just before a block's header
//! silences those codes in the whole block; on the line just before a
//! statement, in that statement; at the end of a line (`size 3x3  //
//! lights: allow L0201`, as `# noqa` and `eslint-disable-line`), on the
//! diagnostics that start on that line. Both front ends drop what it
//! silences.

use lights_compiler::Diagnostic;
use lights_syntax::Span;

use crate::document::Document;

/// The text of `line` (0-based), without its line break.
fn line_text(doc: &Document, line: usize) -> &str {
    let text = doc.text();
    let start = doc.lines().line_start(line).min(text.len());
    let end = text[start..].find('\n').map_or(text.len(), |i| start + i);
    &text[start..end]
}

/// The codes a comment `// lights: allow …` (its text after `//`) names.
fn allow_list(comment: &str) -> Vec<String> {
    let rest = comment.trim_start();
    let Some(codes) = rest.strip_prefix("lights:").map(str::trim_start).and_then(|r| r.strip_prefix("allow")) else {
        return Vec::new();
    };
    codes.split(|c: char| c == ',' || c.is_whitespace()).filter(|c| !c.is_empty()).map(str::to_uppercase).collect()
}

/// The codes a `// lights: allow …` comment alone on `line` (0-based) names.
fn allowed_on(doc: &Document, line: usize) -> Vec<String> {
    line_text(doc, line).trim().strip_prefix("//").map(allow_list).unwrap_or_default()
}

/// The codes a `// lights: allow …` comment ending `line` (0-based) names,
/// after code on that line. A `//` inside a quoted name is not a comment.
fn allowed_at_end_of(doc: &Document, line: usize) -> Vec<String> {
    let text = line_text(doc, line);
    let (mut quoted, mut escaped) = (false, false);
    for (i, c) in text.char_indices() {
        match c {
            _ if escaped => escaped = false,
            '\\' if quoted => escaped = true,
            '"' => quoted = !quoted,
            '/' if !quoted && text[i..].starts_with("//") => return allow_list(&text[i + 2..]),
            _ => {}
        }
    }
    Vec::new()
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
/// block's header or above the statement it is in, or at the end of the
/// line where it starts.
pub(crate) fn suppressed(doc: &Document, i: usize, d: &Diagnostic) -> bool {
    let code = d.code.as_str();
    let Some(block) = doc.analysis().blocks.get(i) else { return false };
    if allowed_above(doc, block.span).iter().any(|c| c == code) {
        return true;
    }
    let line = doc.lines().line(d.span.start.min(doc.text().len()));
    if allowed_at_end_of(doc, line).iter().any(|c| c == code) {
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

    #[test]
    fn a_comment_at_the_end_of_the_line_silences_what_starts_there() {
        let claim = "puzzle \"p\" {\n  size 5x5\n  lights on\n  expect unique\n}\n";
        let same_line = claim.replace("  expect unique", "  expect unique  // lights: allow L0202");
        assert_eq!(codes(&same_line), Vec::<&str>::new());
        let two_codes = claim.replace("  expect unique", "  expect unique // lights: allow L0201,l0202");
        assert_eq!(codes(&two_codes), Vec::<&str>::new());
        // On another line, or naming another code, it silences nothing.
        assert_eq!(codes(&claim.replace("  lights on", "  lights on  // lights: allow L0202")), ["L0202"]);
        assert_eq!(codes(&claim.replace("  expect unique", "  expect unique  // lights: allow L0201")), ["L0202"]);
        // A quoted `//` is not a comment.
        let unsolvable = "puzzle \"a // lights: allow L0201\" {\n  size 2x2\n  states 6\n  goal on\n}\n";
        assert_eq!(codes(unsolvable), ["L0201"]);
        // L0201 starts on the header: a comment ending the header line silences it.
        assert_eq!(codes(&unsolvable.replace("\" {", "\" {  // lights: allow L0201")), Vec::<&str>::new());
    }
}
