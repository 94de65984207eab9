//! Document symbols and folding ranges, on plain data, for every file of
//! `fixtures/outline/*.lights`.

mod common;

use common::*;

#[test]
fn outline_fixtures() {
    insta::glob!("fixtures/outline/*.lights", |path| {
        let fixture = Fixture::read(path);
        let (doc, _) = fixture.analyse();
        let text = &fixture.text;
        let mut out = String::from("symbols:\n");
        for s in lights_ide::symbols(&doc) {
            let detail = s.detail.map(|d| format!(" — {d}")).unwrap_or_default();
            out.push_str(&format!(
                "  {:?}{detail}\n    block {}\n    name  {}\n",
                s.name,
                span(text, s.span),
                span(text, s.selection)
            ));
        }
        out.push_str("folds (1-based lines):\n");
        for f in lights_ide::folding_ranges(&doc) {
            let first = text.lines().nth(f.start_line).unwrap_or("").trim();
            out.push_str(&format!("  {}–{}  `{first}`\n", f.start_line + 1, f.end_line + 1));
        }
        insta::assert_snapshot!(out);
    });
}
