//! `--format sarif`: SARIF 2.1.0, the format GitHub code scanning and other
//! static-analysis dashboards read. One rule per diagnostic code (its title,
//! and its section of `docs/diagnostics.md` as help), one result per
//! diagnostic with its exact region (columns in Unicode code points), the
//! secondary labels as related locations, and files that could not be read
//! as tool notifications.

use std::io::Write;

use lights_compiler::{Code, Diagnostic, Severity};
use lights_ide::{Document, Solved};
use serde_json::{json, Value};

use super::{Place, Policy, Reporter, Totals};

/// The diagnostics reference, built into the binary so every rule carries
/// its own help: the crate's copy of `docs/diagnostics.md` (a published
/// crate cannot reach outside its folder; `tests/packaging/sync-assets`
/// refreshes it and a test fails when it is stale).
const DIAGNOSTICS_DOC: &str = include_str!("../../assets/diagnostics.md");

/// Where the diagnostics reference is published, when the build knows:
/// `LIGHTS_DOCS_URL` (the URL of `docs/diagnostics.md`) or the package's
/// `repository` at build time. SARIF wants an absolute URI here, so without
/// either the rule has no `helpUri`, only its `help` (the same section,
/// which is what code-scanning pages show).
fn help_uri(code: Code) -> Option<String> {
    let anchor = anchor(&format!("{}: {}", code.as_str(), code.title()));
    if let Some(docs) = option_env!("LIGHTS_DOCS_URL").filter(|u| !u.is_empty()) {
        return Some(format!("{docs}#{anchor}"));
    }
    Some(format!("{}/blob/main/docs/diagnostics.md#{anchor}", repository()?))
}

/// The package's `repository` (`[workspace.package]` in the root
/// `Cargo.toml`) at build time, without a trailing `/`: the one place the
/// log's addresses come from, so setting the real address is one line.
fn repository() -> Option<&'static str> {
    option_env!("CARGO_PKG_REPOSITORY").map(|r| r.trim_end_matches('/')).filter(|r| !r.is_empty())
}

/// `tool.driver.informationUri`: the project's home page (its repository).
fn information_uri() -> Option<&'static str> {
    repository()
}

/// A rule's `fullDescription`: the **Trigger.** paragraph of its section
/// of the reference, as one line of plain text (else its title).
fn full_description(code: Code) -> String {
    let trigger = help_markdown(code).and_then(|help| {
        let start = help.find("**Trigger.**")? + "**Trigger.**".len();
        // The paragraph after the label, or the list that follows it.
        let paragraph = help[start..].trim_start().split("\n\n").next()?;
        Some(paragraph.split_whitespace().collect::<Vec<_>>().join(" "))
    });
    trigger.filter(|t| !t.is_empty()).unwrap_or_else(|| code.title().to_string())
}

/// The anchor GitHub gives a heading: lower case, punctuation dropped,
/// spaces as hyphens.
pub(crate) fn anchor(heading: &str) -> String {
    heading
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

/// The section of the reference about `code` (without its heading).
fn help_markdown(code: Code) -> Option<&'static str> {
    let heading = format!("## {}:", code.as_str());
    let start = DIAGNOSTICS_DOC.find(&heading)?;
    let body = &DIAGNOSTICS_DOC[start..];
    let body = &body[body.find('\n').map_or(body.len(), |i| i + 1)..];
    let end = body.find("\n## ").unwrap_or(body.len());
    Some(body[..end].trim())
}

fn rules() -> Vec<Value> {
    Code::ALL
        .iter()
        .map(|&code| {
            let mut rule = json!({
                "id": code.as_str(),
                "name": code.title(),
                "shortDescription": { "text": code.title() },
                "fullDescription": { "text": full_description(code) },
            });
            if let Some(uri) = help_uri(code) {
                rule["helpUri"] = json!(uri);
            }
            if let Some(help) = help_markdown(code) {
                rule["help"] = json!({ "text": help, "markdown": help });
            }
            rule
        })
        .collect()
}

#[derive(Default)]
pub(crate) struct Sarif {
    results: Vec<Value>,
    artifacts: Vec<Value>,
    notifications: Vec<Value>,
}

impl Sarif {
    /// The index of `shown` among the run's artifacts (added when new).
    fn artifact(&mut self, shown: &str) -> usize {
        let location = artifact_location(shown);
        if let Some(i) = self.artifacts.iter().position(|a| a["location"]["uri"] == location["uri"]) {
            return i;
        }
        self.artifacts.push(json!({ "location": location, "sourceLanguage": "lights" }));
        self.artifacts.len() - 1
    }

    fn location(&mut self, shown: &str, doc: &Document, span: lights_syntax::Span) -> Value {
        let at = Place::of(doc, span);
        let index = self.artifact(shown);
        let mut artifact = artifact_location(shown);
        artifact["index"] = json!(index);
        json!({
            "physicalLocation": {
                "artifactLocation": artifact,
                "region": {
                    "startLine": at.line,
                    "startColumn": at.column,
                    "endLine": at.end_line,
                    "endColumn": at.end_column,
                }
            }
        })
    }

    fn result(&mut self, shown: &str, doc: &Document, d: &Diagnostic) -> Value {
        let rule_index = Code::ALL.iter().position(|&c| c == d.code).unwrap_or(0);
        let mut text = d.message.clone();
        for note in &d.notes {
            text.push_str("\n\n");
            text.push_str(note);
        }
        let mut result = json!({
            "ruleId": d.code.as_str(),
            "ruleIndex": rule_index,
            "level": match d.severity { Severity::Error => "error", Severity::Warning => "warning" },
            "message": { "text": text },
            "locations": [self.location(shown, doc, d.span)],
        });
        if !d.labels.is_empty() {
            let related: Vec<Value> = d
                .labels
                .iter()
                .enumerate()
                .map(|(i, l)| {
                    let mut loc = self.location(shown, doc, l.span);
                    loc["id"] = json!(i);
                    loc["message"] = json!({ "text": l.message });
                    loc
                })
                .collect();
            result["relatedLocations"] = Value::Array(related);
        }
        result
    }
}

impl Reporter for Sarif {
    fn file(&mut self, _out: &mut dyn Write, shown: &str, doc: &Document, solved: &Solved, policy: Policy) {
        self.artifact(shown);
        for d in super::all(doc, solved, policy) {
            let result = self.result(shown, doc, &d);
            self.results.push(result);
        }
    }

    fn unreadable(&mut self, _out: &mut dyn Write, shown: &str, message: &str) {
        self.notifications.push(json!({
            "level": "error",
            "message": { "text": message },
            "locations": [{ "physicalLocation": { "artifactLocation": artifact_location(shown) } }],
        }));
    }

    fn finish(&mut self, out: &mut dyn Write, _totals: &Totals) {
        let mut driver = json!({
            "name": "lights",
            "version": env!("CARGO_PKG_VERSION"),
            "semanticVersion": env!("CARGO_PKG_VERSION"),
            "rules": rules(),
        });
        if let Some(uri) = information_uri() {
            driver["informationUri"] = json!(uri);
        }
        let log = json!({
            "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
            "version": "2.1.0",
            "runs": [{
                "tool": { "driver": driver },
                "originalUriBaseIds": original_uri_base_ids(),
                "columnKind": "unicodeCodePoints",
                "artifacts": self.artifacts,
                "results": self.results,
                "invocations": [{
                    "executionSuccessful": self.notifications.is_empty(),
                    "toolExecutionNotifications": self.notifications,
                }],
            }],
        });
        let _ = crate::output::write_json(&mut *out, &log);
        let _ = writeln!(out);
    }
}

/// The base of the run's relative URIs: `lights check` names files
/// relative to the folder it ran in (in CI, the repository's root), so
/// every relative `uri` has `"uriBaseId": "SRCROOT"`, and `SRCROOT` is that
/// folder as an absolute `file:` URI ending in `/` (as SARIF §3.14.14
/// wants), when it is known.
const SRCROOT: &str = "SRCROOT";

fn original_uri_base_ids() -> Value {
    let root = std::env::current_dir().ok().and_then(|d| d.to_str().map(folder_uri));
    match root {
        Some(uri) => json!({ SRCROOT: { "uri": uri } }),
        None => json!({ SRCROOT: { "description": { "text": "the folder `lights check` ran in" } } }),
    }
}

/// An absolute folder as a `file:` URI ending in `/`.
fn folder_uri(folder: &str) -> String {
    let path = folder.replace('\\', "/");
    let encoded = encode(path.trim_end_matches('/'));
    match encoded.as_str() {
        "" => "file:///".to_string(),
        e if e.starts_with('/') => format!("file://{e}/"),
        e => format!("file:///{e}/"),
    }
}

/// An `artifactLocation`: the URI, with `uriBaseId` when it is relative.
fn artifact_location(shown: &str) -> Value {
    let uri = uri(shown);
    if uri.starts_with("file:") {
        json!({ "uri": uri })
    } else {
        json!({ "uri": uri, "uriBaseId": SRCROOT })
    }
}

/// A path as a SARIF URI reference: forward slashes, spaces and other
/// reserved characters percent-encoded, relative paths kept relative (to the
/// folder `lights check` ran in).
fn uri(shown: &str) -> String {
    let path = shown.replace('\\', "/");
    let out = encode(&path);
    if path.starts_with('/') {
        format!("file://{out}")
    } else {
        out
    }
}

/// Percent-encoding of everything but unreserved characters and `/`.
fn encode(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    for b in path.bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' | b'/' => out.push(b as char),
            _ => out.push_str(&format!("%{b:02X}")),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_code_has_its_section_and_anchor() {
        for &code in Code::ALL {
            let help = help_markdown(code).unwrap_or_else(|| panic!("{} has no section", code.as_str()));
            assert!(help.contains("**Trigger.**"), "{}: {help}", code.as_str());
            let heading =
                DIAGNOSTICS_DOC.lines().find(|l| l.starts_with(&format!("## {}:", code.as_str()))).expect("heading");
            assert_eq!(anchor(&heading[3..]), anchor(&format!("{}: {}", code.as_str(), code.title())));
        }
        assert_eq!(anchor("L0202: `expect` does not hold"), "l0202-expect-does-not-hold");
    }

    #[test]
    fn every_rule_has_a_full_description_from_its_trigger() {
        for &code in Code::ALL {
            let full = full_description(code);
            assert_ne!(full, code.title(), "{}: no **Trigger.** paragraph", code.as_str());
            assert!(!full.contains('\n') && !full.starts_with(' '), "{}: {full:?}", code.as_str());
        }
        assert!(
            full_description(Code::ALL[1]).starts_with("A `puzzle` line that is not"),
            "{}",
            full_description(Code::ALL[1])
        );
    }

    #[test]
    fn paths_become_uri_references() {
        assert_eq!(uri("levels/pack 1.lights"), "levels/pack%201.lights");
        assert_eq!(uri("/tmp/a#b.lights"), "file:///tmp/a%23b.lights");
        assert_eq!(uri("<stdin>"), "%3Cstdin%3E");
        assert_eq!(artifact_location("levels/a.lights"), json!({ "uri": "levels/a.lights", "uriBaseId": "SRCROOT" }));
        assert_eq!(artifact_location("/tmp/a.lights"), json!({ "uri": "file:///tmp/a.lights" }));
        assert_eq!(folder_uri("/home/me/my repo"), "file:///home/me/my%20repo/");
        assert_eq!(folder_uri("/"), "file:///");
    }
}
