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
                let block = after.analysis().blocks[i].span;
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

/// On boards with holes, hex boards and graphs, every action offered for a
/// block (insert or replace the solution, make it solvable, write `expect`
/// lines) leaves the block without errors, and a solution is inserted where
/// one is due: a grid on a board, a list of nodes on a graph.
#[test]
fn actions_leave_boards_with_holes_hex_boards_and_graphs_clean() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/actions/shapes.lights");
    let (doc, solved) = Fixture::read(&path).analyse();
    let mut inserted = 0;
    for i in 0..doc.block_count() {
        let block = doc.analysis().blocks[i].span;
        let name = doc.analysis().blocks[i].name.clone().unwrap_or_default();
        let actions = lights_ide::code_actions(&doc, &solved, Span::new(block.start, block.start), &|| false);
        assert!(!actions.is_empty(), "{name}: no action");
        let lens_edits = lights_ide::insert_solution(&doc, &solved, i);
        for a in &actions {
            let after = lights_ide::Document::new(edit::apply(doc.text(), &a.edits));
            let solved = lights_ide::Solved::all(&after);
            let errors: Vec<(lights_compiler::Code, String)> = lights_ide::block_diagnostics(&after, i, &solved)
                .iter()
                .filter(|d| d.is_error())
                .map(|d| (d.code, d.message.clone()))
                .collect();
            let text = after.text();
            // What an action fixes is gone; a solution or a repair leaves no error at all.
            let writes = !a.title.starts_with("Add expect lines");
            let left: Vec<_> = errors.iter().filter(|(code, _)| writes || a.fixes.contains(code)).collect();
            assert!(left.is_empty(), "{name}: {} leaves {left:?} in\n{text}", a.title);
            if a.title.starts_with("Insert") || a.title.starts_with("Replace") {
                inserted += 1;
                // The lens inserts the same solution.
                assert_eq!(lens_edits.as_ref(), Some(&a.edits), "{name}");
                let block = &text[after.analysis().blocks[i].span.start..after.analysis().blocks[i].span.end];
                let on_graph = block.contains("graph");
                assert_eq!(block.contains("solution at "), on_graph, "{name}: {block}");
            }
        }
    }
    assert_eq!(inserted, 5, "a solution for each solvable block");
}
