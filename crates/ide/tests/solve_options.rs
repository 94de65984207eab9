//! A document's solve options (the minimum budget): its blocks are solved
//! with them, their keys follow them, and a minimum budget longer than the
//! time budget is said to be cut short by it (L0301).

use std::time::Duration;

use lights_compiler::{Code, MinimumBudget, SolveOptions};
use lights_ide::{block_diagnostics, Answers, Document, Outcome, Solved};

/// 48×48 torus all on, three states: 3^17 solutions, its minimum not proven
/// within the default budget (the search spends all of it).
const TORUS: &str = "puzzle \"t\" {\n  size 48x48\n  states 3\n  topology torus\n  lights on\n}\n\nsliding \"s\" {\n  size 2x2\n  tiles {\n    1 2\n    3 .\n  }\n}\n";

fn budget(text: &str) -> SolveOptions {
    MinimumBudget::parse(text).unwrap().solve_options()
}

#[test]
fn keys_follow_the_options_but_not_for_sliding_blocks() {
    let plain = Document::new(TORUS);
    let same = Document::new(TORUS).with_options(SolveOptions::default());
    let longer = Document::new(TORUS).with_options(budget("2s"));
    let off = Document::new(TORUS).with_options(budget("0"));
    assert_eq!(plain.key(0), same.key(0));
    assert_ne!(plain.key(0), longer.key(0));
    assert_ne!(longer.key(0), off.key(0));
    assert_eq!(plain.key(1), longer.key(1), "sliding blocks ignore the minimum budget");
    assert_eq!(longer.options(), &budget("2s"));
}

#[test]
fn blocks_are_solved_with_the_documents_options() {
    // 5×5 all on: 4 solutions of 15 presses; proven by the search, not without it.
    let text = "puzzle \"p\" {\n  size 5x5\n  lights on\n  expect presses 15\n}\n";
    let status = |doc: &Document| {
        let solved = Solved::all(doc);
        let codes: Vec<Code> = block_diagnostics(doc, 0, &solved).iter().map(|d| d.code).collect();
        (lights_ide::status(doc, 0, &solved).text, codes)
    };
    let (searched, codes) = status(&Document::new(text));
    assert!(searched.contains("minimum 15 presses") && codes.is_empty(), "{searched} {codes:?}");
    let (unsearched, codes) = status(&Document::new(text).with_options(budget("0")));
    assert!(unsearched.contains("not proven"), "{unsearched}");
    assert_eq!(codes, [Code::MinimumNotProven]);
}

#[test]
fn a_minimum_budget_longer_than_the_time_budget_is_cut_short_and_said_so() {
    let doc = Document::new(TORUS).with_options(budget("1m"));
    let solved = Solved::within(&doc, Duration::from_millis(1));
    let outcome = solved.outcome(&doc.key(0).unwrap()).unwrap();
    assert!(matches!(*outcome, Outcome::TimedOut(_)), "{outcome:?}");
    let d = block_diagnostics(&doc, 0, &solved).into_iter().find(|d| d.code == Code::TimeBudgetExceeded).unwrap();
    assert!(
        d.notes.iter().any(|n| n.contains("the minimum budget (60 s) is longer than the time budget")),
        "{:?}",
        d.notes
    );
    // The default minimum budget, not the author's: no such note.
    let doc = Document::new(TORUS);
    let solved = Solved::within(&doc, Duration::from_nanos(1));
    if let Some(d) = block_diagnostics(&doc, 0, &solved).into_iter().find(|d| d.code == Code::TimeBudgetExceeded) {
        assert!(!d.notes.iter().any(|n| n.contains("minimum budget")), "{:?}", d.notes);
    }
}
