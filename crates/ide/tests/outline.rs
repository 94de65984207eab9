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

#[test]
fn a_long_outline_ends_with_one_symbol_for_the_blocks_not_listed() {
    let text: String = (0..10).map(|i| format!("puzzle \"p{i}\" {{\n  size 2x2\n}}\n")).collect();
    let doc = lights_ide::Document::new(text.clone());
    let all = lights_ide::symbols(&doc);
    assert_eq!(all.len(), 10);
    let some = lights_ide::symbols_at_most(&doc, 4);
    assert_eq!(some[..4], all[..4]);
    assert_eq!(some.len(), 5);
    assert_eq!(some[4].name, "… 6 more puzzles");
    assert_eq!((some[4].span.start, some[4].span.end), (all[4].span.start, all[9].span.end));
    assert_eq!(lights_ide::symbols_at_most(&doc, 10), all, "no extra symbol when all fit");
}
