//! Status lines, lenses and inlay hints, on plain data: what an editor
//! shows above and after every block of `fixtures/lens/*.lights`, and the
//! status line `lights check` prints for it.

mod common;

use common::*;

#[test]
fn lens_fixtures() {
    insta::glob!("fixtures/lens/*.lights", |path| {
        let fixture = Fixture::read(path);
        let (doc, solved) = fixture.analyse();
        let text = &fixture.text;
        let mut out = String::from("lenses:\n");
        for lens in lights_ide::lenses(&doc, &solved) {
            let command = match lens.insert_solution {
                Some(i) => format!("  [inserts the solution of block {i}]"),
                None => String::new(),
            };
            out.push_str(&format!("  {}  {}{command}\n", position(text, lens.span.start), lens.title));
            // A lens sits on the line of its block's header.
            assert_eq!(lens.span, doc.line_span(lens.span.start));
        }
        out.push_str("inlay hints:\n");
        let lines = doc.lines().line_count();
        for hint in lights_ide::inlay_hints(&doc, &solved, 0..=lines) {
            out.push_str(&format!("  {}  {}\n", position(text, hint.offset), hint.label));
        }
        out.push_str("status (as `lights check` prints it):\n");
        for i in 0..doc.block_count() {
            let status = lights_ide::status(&doc, i, &solved);
            out.push_str(&format!("  block {i}: {:?} · {}\n", status.mark, status.text));
        }
        insta::assert_snapshot!(out);
    });
}
