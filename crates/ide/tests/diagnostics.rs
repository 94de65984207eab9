//! Diagnostics as the editor and the command line get them, on plain data:
//! every problem of `fixtures/diagnostics/*.lights` with its code, place,
//! labels, notes and the cells related to it.

mod common;

use common::*;

#[test]
fn diagnostic_fixtures() {
    insta::glob!("fixtures/diagnostics/*.lights", |path| {
        let fixture = Fixture::read(path);
        let (doc, solved) = fixture.analyse();
        let text = &fixture.text;
        let mut out = String::new();
        for p in lights_ide::diagnostics(&doc, &solved) {
            let d = &p.diagnostic;
            out.push_str(&format!("{} {:?} at {}\n  {}\n", d.code, d.severity, span(text, d.span), d.message));
            if !d.label.is_empty() {
                out.push_str(&format!("  label: {}\n", d.label));
            }
            for l in &d.labels {
                out.push_str(&format!("  also at {}: {}\n", span(text, l.span), l.message));
            }
            for n in &d.notes {
                out.push_str(&indent(&format!("note: {n}"), "  "));
                out.push('\n');
            }
            for r in &p.related {
                out.push_str(&format!("  related {}: {}\n", span(text, r.span), r.message));
            }
        }
        if out.is_empty() {
            out.push_str("(no diagnostics)\n");
        }
        insta::assert_snapshot!(out);
    });
}
