//! The server keeps a document's line ending (CRLF, CR alone) and its
//! byte-order mark in what it changes, as `lights fmt` does: formatting
//! goes through the same function (`lights_syntax::format::
//! format_keeping_layout`), and code actions write the document's ending.

mod common;

use common::*;
use serde_json::{json, Value};

/// `edits` applied to `text`, reading positions as the LSP does: a line
/// ends at LF, CRLF or CR alone; columns in UTF-16 units.
fn apply(text: &str, edits: &[Value]) -> String {
    let mut line_starts = vec![0];
    let bytes = text.as_bytes();
    for (i, &b) in bytes.iter().enumerate() {
        if b == b'\n' || (b == b'\r' && bytes.get(i + 1) != Some(&b'\n')) {
            line_starts.push(i + 1);
        }
    }
    let offset = |pos: &Value| -> usize {
        let line = pos["line"].as_u64().unwrap() as usize;
        let Some(&start) = line_starts.get(line) else { return text.len() };
        let mut units = 0;
        for (i, ch) in text[start..].char_indices() {
            if units >= pos["character"].as_u64().unwrap() as usize || ch == '\n' || ch == '\r' {
                return start + i;
            }
            units += ch.len_utf16();
        }
        text.len()
    };
    let mut spans: Vec<(usize, usize, &str)> = edits
        .iter()
        .map(|e| (offset(&e["range"]["start"]), offset(&e["range"]["end"]), e["newText"].as_str().unwrap()))
        .collect();
    spans.sort_by_key(|s| std::cmp::Reverse(s.0));
    let mut out = text.to_string();
    for (s, e, t) in spans {
        out.replace_range(s..e, t);
    }
    out
}

/// Every line ending in `text`, as written.
fn endings(text: &str) -> Vec<&'static str> {
    let bytes = text.as_bytes();
    let mut found = Vec::new();
    for (i, &b) in bytes.iter().enumerate() {
        match b {
            b'\r' if bytes.get(i + 1) == Some(&b'\n') => found.push("\r\n"),
            b'\r' => found.push("\r"),
            b'\n' if i == 0 || bytes[i - 1] != b'\r' => found.push("\n"),
            _ => {}
        }
    }
    found
}

const MESSY: &str = "puzzle \"p\"{\nsize 2x2\n   lights {\n1 .\n.   1\n}\n}\n";
const CANONICAL: &str = "puzzle \"p\" {\n  size 2x2\n  lights {\n    1 .\n    . 1\n  }\n}\n";

#[test]
fn formatting_keeps_crlf_cr_and_the_byte_order_mark() {
    let (mut c, _) = start(Options::default());
    let params = json!({"textDocument": {"uri": URI}, "options": {"tabSize": 2, "insertSpaces": true}});
    let mut version = 0;
    for ending in ["\r\n", "\r", "\n"] {
        for bom in ["", "\u{feff}"] {
            version += 1;
            let text = format!("{bom}{}", MESSY.replace('\n', ending));
            c.open(URI, version, &text);
            c.diagnostics(URI, version);
            let edits = c.request("textDocument/formatting", params.clone());
            let formatted = apply(&text, edits.as_array().unwrap());
            let want = format!("{bom}{}", CANONICAL.replace('\n', ending));
            assert_eq!(formatted, want, "{ending:?} {bom:?}: {edits}");
            // The same text `lights fmt` writes.
            assert_eq!(formatted, lights_syntax::format::format_keeping_layout(&text).unwrap());
            c.change(URI, version + 100, &formatted);
            c.diagnostics(URI, version + 100);
            let again = c.request("textDocument/formatting", params.clone());
            assert_eq!(again, json!([]), "{ending:?} {bom:?}: already formatted");
            c.notify("textDocument/didClose", json!({"textDocument": {"uri": URI}}));
        }
    }
}

#[test]
fn inserting_a_solution_writes_the_documents_line_ending() {
    let all_on = "puzzle \"all-on\" {\n  size 5x5\n  lights on\n}\n";
    let (mut c, _) = start(Options::default());
    for (version, ending) in [(1, "\r\n"), (2, "\r")] {
        let text = all_on.replace('\n', ending);
        c.open(URI, version, &text);
        let diags = c.diagnostics(URI, version);
        let actions = c.code_actions(URI, 0, &diags);
        let insert = actions
            .iter()
            .find(|a| a["title"].as_str().is_some_and(|t| t.starts_with("Insert minimum solution")))
            .unwrap_or_else(|| panic!("{ending:?}: no insert action in {actions:?}"));
        let after = apply(&text, &workspace_edits(&insert["edit"], URI));
        assert!(after.contains(&format!("solution {{{ending}")), "{ending:?}: {after:?}");
        assert!(endings(&after).iter().all(|e| *e == ending), "{ending:?}: mixed endings in {after:?}");
        // The result is a solved puzzle the server accepts.
        c.change(URI, version + 10, &after);
        assert_eq!(c.diagnostics(URI, version + 10), Vec::<Value>::new(), "{ending:?}: {after:?}");
        c.notify("textDocument/didClose", json!({"textDocument": {"uri": URI}}));
    }
}
