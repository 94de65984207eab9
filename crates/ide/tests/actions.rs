//! Code actions, on plain data: the actions offered for the block under
//! every `$0` of `fixtures/actions/*.lights`, each with the block it leaves
//! and which of the problems it says it fixes are left in that block.

mod common;

use common::*;
use lights_compiler::edit;
use lights_syntax::Span;

#[test]
fn action_fixtures() {
    insta::glob!("fixtures/actions/*.lights", |path| {
        let fixture = Fixture::read(path);
        assert!(!fixture.cursors.is_empty(), "{}: no `$0` to ask for actions at", path.display());
        let (doc, solved) = fixture.analyse();
        let mut out = String::new();
        for &at in &fixture.cursors {
            out.push_str(&format!("── {} `{}`\n", position(&fixture.text, at), cursor_line(&fixture.text, at).trim()));
            let actions = lights_ide::code_actions(&doc, &solved, Span::new(at, at), &|| false);
            if actions.is_empty() {
                out.push_str("   (nothing)\n");
            }
            for a in &actions {
                let preferred = if a.preferred { " · preferred" } else { "" };
                let fixes: Vec<&str> = a.fixes.iter().map(|c| c.as_str()).collect();
                out.push_str(&format!("   {} ({:?}{preferred}; fixes {})\n", a.title, a.kind, fixes.join(" ")));
                // The block after the edit, and what is left of what the action fixes.
                let i = doc.block_at(at).expect("actions are for the block under the cursor");
                let after = lights_ide::Document::new(edit::apply(&fixture.text, &a.edits));
                let block = after.analysis().puzzles[i].span;
                out.push_str(&indent(&after.text()[block.start..block.end], "   │ "));
                out.push('\n');
                let solved = lights_ide::Solved::all(&after);
                let left: Vec<&str> = lights_ide::block_diagnostics(&after, i, &solved)
                    .iter()
                    .filter(|d| d.is_error() && a.fixes.contains(&d.code))
                    .map(|d| d.code.as_str())
                    .collect();
                out.push_str(&format!(
                    "   left of what it fixes: {}\n",
                    if left.is_empty() { "nothing".to_string() } else { left.join(" ") }
                ));
            }
        }
        insta::assert_snapshot!(out);
    });
}
