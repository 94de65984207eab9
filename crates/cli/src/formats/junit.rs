//! `--format junit`: JUnit XML, which CI systems (GitLab, Jenkins, Azure,
//! CircleCI…) show as test results: a `<testsuite>` per file, a
//! `<testcase>` per puzzle that fails on its errors; warnings go to the
//! test case's `<system-out>`. Problems outside any puzzle are one more test
//! case, named `(file)`, and so is a file that cannot be read.

use std::fmt::Write as _;
use std::io::Write;

use lights_compiler::Diagnostic;
use lights_ide::{Document, Solved};

use super::{full_text, puzzles, severity_word, Place, Policy, Reporter, Totals};
use crate::excerpt::xml;

#[derive(Default)]
pub(crate) struct Junit {
    suites: String,
    tests: usize,
    failures: usize,
}

impl Junit {
    fn suite(&mut self, shown: &str, cases: &[Case]) {
        let failures = cases.iter().filter(|c| !c.errors.is_empty()).count();
        self.tests += cases.len();
        self.failures += failures;
        let _ = writeln!(
            self.suites,
            "  <testsuite name=\"{}\" tests=\"{}\" failures=\"{failures}\" errors=\"0\" skipped=\"0\">",
            xml(shown),
            cases.len()
        );
        for Case { name, status, errors, warnings } in cases {
            let _ = writeln!(self.suites, "    <testcase name=\"{}\" classname=\"{}\">", xml(name), xml(shown));
            if let Some((code, first)) = errors.first() {
                let message = first.lines().next().unwrap_or_default();
                let texts: Vec<&str> = errors.iter().map(|(_, text)| text.as_str()).collect();
                let _ = writeln!(
                    self.suites,
                    "      <failure message=\"{}\" type=\"{code}\">{}</failure>",
                    xml(message),
                    xml(&texts.join("\n\n"))
                );
            }
            // The result line, then the warnings.
            let out: Vec<&str> = status.iter().map(String::as_str).chain(warnings.iter().map(String::as_str)).collect();
            if !out.is_empty() {
                let _ = writeln!(self.suites, "      <system-out>{}</system-out>", xml(&out.join("\n\n")));
            }
            self.suites.push_str("    </testcase>\n");
        }
        self.suites.push_str("  </testsuite>\n");
    }
}

/// One test case: a puzzle, or the problems of a file outside its puzzles.
struct Case {
    name: String,
    /// The puzzle's one-line result (`4 solutions · minimum 15 presses`).
    status: Option<String>,
    /// Each error's code (the failure's `type` is the first one's) and text.
    errors: Vec<(&'static str, String)>,
    warnings: Vec<String>,
}

/// Errors and warnings of one test case, each as `file:line:col: severity[code] text`.
fn split(shown: &str, doc: &Document, diagnostics: &[Diagnostic]) -> (Vec<(&'static str, String)>, Vec<String>) {
    let mut errors = Vec::new();
    let mut warnings = Vec::new();
    for d in diagnostics {
        let at = Place::of(doc, d.span);
        let text = format!("{shown}:{}:{}: {}[{}] {}", at.line, at.column, severity_word(d), d.code, full_text(d));
        if d.is_error() {
            errors.push((d.code.as_str(), text));
        } else {
            warnings.push(text);
        }
    }
    (errors, warnings)
}

impl Reporter for Junit {
    fn file(&mut self, _out: &mut dyn Write, shown: &str, doc: &Document, solved: &Solved, policy: Policy) {
        let (results, outside) = puzzles(doc, solved, policy);
        let mut cases = Vec::new();
        if !outside.is_empty() {
            let (errors, warnings) = split(shown, doc, &outside);
            cases.push(Case { name: "(file)".into(), status: None, errors, warnings });
        }
        for p in results {
            let (errors, warnings) = split(shown, doc, &p.diagnostics);
            cases.push(Case { name: p.name, status: Some(p.status), errors, warnings });
        }
        self.suite(shown, &cases);
    }

    fn unreadable(&mut self, _out: &mut dyn Write, shown: &str, message: &str) {
        let case = Case {
            name: "(file)".into(),
            status: None,
            errors: vec![("unreadable", message.to_string())],
            warnings: Vec::new(),
        };
        self.suite(shown, &[case]);
    }

    fn finish(&mut self, out: &mut dyn Write, _totals: &Totals) {
        let _ = writeln!(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>");
        let _ = writeln!(
            out,
            "<testsuites name=\"lights check\" tests=\"{}\" failures=\"{}\" errors=\"0\">",
            self.tests, self.failures
        );
        let _ = write!(out, "{}", self.suites);
        let _ = writeln!(out, "</testsuites>");
    }
}

#[cfg(test)]
mod tests {
    use super::xml;

    #[test]
    fn text_is_escaped_for_xml() {
        assert_eq!(xml("a<b & \"c\" 'd'>"), "a&lt;b &amp; &quot;c&quot; &apos;d&apos;&gt;");
        assert_eq!(xml("bell\u{7}\n"), "bell\\u{7}\n");
        assert_eq!(xml("del\u{7f} csi\u{9b}\r"), "del\\u{7f} csi\\u{9b}\\r");
    }
}
