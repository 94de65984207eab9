//! Hover, on plain data: every `$0` of `fixtures/hover/*.lights` is hovered
//! and the span and markdown it answers are pinned.

mod common;

use common::*;

#[test]
fn hover_fixtures() {
    insta::glob!("fixtures/hover/*.lights", |path| {
        let fixture = Fixture::read(path);
        assert!(!fixture.cursors.is_empty(), "{}: no `$0` to hover", path.display());
        let (doc, solved) = fixture.analyse();
        let mut out = String::new();
        for &at in &fixture.cursors {
            out.push_str(&format!("── {} `{}`\n", position(&fixture.text, at), cursor_line(&fixture.text, at).trim()));
            match lights_ide::hover(&doc, &solved, at) {
                Some(h) => {
                    out.push_str(&format!("   on {}\n", span(&fixture.text, h.span)));
                    out.push_str(&indent(&h.markdown, "   │ "));
                    out.push('\n');
                }
                None => out.push_str("   (nothing)\n"),
            }
        }
        insta::assert_snapshot!(out);
    });
}

#[test]
fn order_outside_the_blocks_is_described() {
    let text = "order by difficulty\npuzzle \"a\" {\n  size 3x3\n}\n";
    let doc = lights_ide::Document::new(text);
    let solved = lights_ide::Solved::all(&doc);
    let hover = lights_ide::hover(&doc, &solved, 2).expect("a hover on `order`");
    assert!(hover.markdown.contains("order by difficulty"), "{}", hover.markdown);
    assert!(hover.markdown.contains("L0209"), "{}", hover.markdown);
}
