//! `--format github`: GitHub Actions workflow commands, so each diagnostic
//! is an annotation on its line of the pull request:
//! `::error file=…,line=…,endLine=…,col=…,endColumn=…,title=L0202::…`.
//! https://docs.github.com/actions/reference/workflow-commands-for-github-actions

use std::io::Write;

use lights_ide::{Document, Solved};

use super::{full_text, severity_word, Place, Policy, Reporter, Totals};

#[derive(Default)]
pub(crate) struct Github;

impl Reporter for Github {
    fn file(&mut self, out: &mut dyn Write, shown: &str, doc: &Document, solved: &Solved, policy: Policy) {
        for d in &super::all(doc, solved, policy) {
            let at = Place::of(doc, d.span);
            let title = format!("{} {}", d.code, d.code.title());
            let _ = writeln!(
                out,
                "::{} file={},line={},endLine={},col={},endColumn={},title={}::{}",
                severity_word(d),
                property(shown),
                at.line,
                at.end_line,
                at.column,
                at.end_column,
                property(&title),
                data(&full_text(d)),
            );
        }
    }

    fn unreadable(&mut self, out: &mut dyn Write, shown: &str, message: &str) {
        let _ = writeln!(out, "::error file={},title=unreadable::{}", property(shown), data(message));
    }

    fn finish(&mut self, out: &mut dyn Write, totals: &Totals) {
        let _ = writeln!(out, "{}", crate::check::summary(totals));
    }
}

/// The escaping of a command's message (after `::`); other control
/// characters are written as escapes, never raw.
fn data(text: &str) -> String {
    let text = text.replace('%', "%25").replace('\r', "%0D").replace('\n', "%0A");
    crate::excerpt::escape_controls(&text).into_owned()
}

/// The escaping of a property value (`file=…`, `title=…`).
fn property(text: &str) -> String {
    data(text).replace(':', "%3A").replace(',', "%2C")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escaping_follows_the_runner() {
        assert_eq!(data("50% of\nlines"), "50%25 of%0Alines");
        assert_eq!(property("a,b:c%"), "a%2Cb%3Ac%25");
        assert_eq!(data("a\x1b[2Jb\0"), "a\\u{1b}[2Jb\\0");
    }
}
