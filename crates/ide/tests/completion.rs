//! Completion, on plain data: the items offered at every `$0` of
//! `fixtures/completion/*.lights` (to an editor that takes snippets).

mod common;

use common::*;
use lights_ide::Completion;

fn item(c: &Completion) -> String {
    let insert = if c.insert == c.label { String::new() } else { format!("  ⇒ {:?}", c.insert) };
    format!("{:<12} {:?} · {}{insert}", c.label, c.kind, c.detail)
}

#[test]
fn completion_fixtures() {
    insta::glob!("fixtures/completion/*.lights", |path| {
        let fixture = Fixture::read(path);
        assert!(!fixture.cursors.is_empty(), "{}: no `$0` to complete at", path.display());
        let (doc, _) = fixture.analyse();
        let mut out = String::new();
        for &at in &fixture.cursors {
            out.push_str(&format!("── {} `{}`\n", position(&fixture.text, at), cursor_line(&fixture.text, at).trim()));
            let items = lights_ide::completion(&doc, at, true);
            if items.is_empty() {
                out.push_str("   (nothing)\n");
            }
            for c in &items {
                out.push_str(&format!("   {}\n", item(c)));
                // Without snippets, the same item inserts its plain word.
                let plain = lights_ide::completion(&doc, at, false);
                let p = plain.iter().find(|p| p.label == c.label).expect("the same items without snippets");
                assert!(!p.is_snippet && p.insert == c.label, "{p:?}");
            }
        }
        insta::assert_snapshot!(out);
    });
}
