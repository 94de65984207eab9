//! `--format concise`: `file:line:col: severity[code] message`, one line per
//! diagnostic (notes left out), the form editors' quickfix lists and
//! `grep`-like tools read; then the summary line.

use std::io::Write;

use lights_ide::{Document, Solved};

use crate::excerpt::escape_controls;

use super::{severity_word, Place, Policy, Reporter, Totals};

#[derive(Default)]
pub(crate) struct Concise;

impl Reporter for Concise {
    fn file(&mut self, out: &mut dyn Write, shown: &str, doc: &Document, solved: &Solved, policy: Policy) {
        let shown = escape_controls(shown);
        for d in &super::all(doc, solved, policy) {
            let at = Place::of(doc, d.span);
            // One line each: a message never spans lines here, and holds no
            // raw control character.
            let message = d.message.replace('\n', " ");
            let message = escape_controls(&message);
            let _ = writeln!(out, "{shown}:{}:{}: {}[{}] {message}", at.line, at.column, severity_word(d), d.code);
        }
    }

    fn unreadable(&mut self, out: &mut dyn Write, shown: &str, message: &str) {
        let _ = writeln!(out, "{shown}:1:1: error[io] {message}");
    }

    fn finish(&mut self, out: &mut dyn Write, totals: &Totals) {
        let _ = writeln!(out, "{}", crate::check::summary(totals));
    }
}
