//! `states`: how many states a light has.

use super::{ast, Code, Diagnostic, StatementKind, Validator, MAX_STATES, MIN_STATES};

impl Validator<'_> {
    pub(super) fn states(&mut self, stmt: &ast::Statement) -> Option<u32> {
        let StatementKind::States(n) = &stmt.kind else { return None };
        let w = n.value().unwrap_or(u64::MAX);
        if !(MIN_STATES..=MAX_STATES).contains(&w) {
            self.push(states_out_of_range(n));
            return None;
        }
        Some(w as u32)
    }
}

/// L0114: `states N` outside 2…65536.
fn states_out_of_range(n: &ast::Number) -> Diagnostic {
    Diagnostic::error(
        Code::StatesOutOfRange,
        n.span,
        format!("`states {}` is out of range: a light has 2 to 65536 states", n.text),
    )
    .with_label("must be 2…65536")
}
