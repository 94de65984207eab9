//! `size`: the board's rows and columns (and the numbers every statement
//! reads).

use super::{ast, Code, Diagnostic, Span, StatementKind, Validator, MAX_CELLS};

impl Validator<'_> {
    /// A number that must fit; reports L0117 otherwise.
    pub(crate) fn number(&mut self, n: &ast::Number, what: &str) -> Option<u64> {
        match n.value() {
            Some(v) => Some(v),
            None => {
                self.push(number_too_large(n, what));
                None
            }
        }
    }

    pub(crate) fn size(&mut self, stmt: &ast::Statement) -> Option<(usize, usize)> {
        let StatementKind::Size { rows, cols } = &stmt.kind else { return None };
        let r = self.number(rows, "number of rows");
        let c = self.number(cols, "number of columns");
        let (r, c) = (r?, c?);
        let mut ok = true;
        for (n, v, what) in [(rows, r, "row"), (cols, c, "column")] {
            if v == 0 {
                ok = false;
                self.push(zero_size(n, what));
            }
        }
        if !ok {
            return None;
        }
        let cells = r.checked_mul(c);
        if cells.is_none_or(|n| n > MAX_CELLS) {
            self.push(board_too_large(stmt.span, r, c));
            return None;
        }
        Some((r as usize, c as usize))
    }
}

/// L0117: a number past `u64`.
fn number_too_large(n: &ast::Number, what: &str) -> Diagnostic {
    Diagnostic::error(Code::NumberTooLarge, n.span, format!("this {what} is far too large")).with_label("too large")
}

/// L0116: `size 0xC` or `size Rx0`.
fn zero_size(n: &ast::Number, what: &str) -> Diagnostic {
    Diagnostic::error(Code::ZeroSize, n.span, format!("a board needs at least one {what}"))
        .with_label("zero")
        .with_note("`size R x C` needs 1 ≤ R and 1 ≤ C")
}

/// L0115: more than [`MAX_CELLS`] cells.
fn board_too_large(span: Span, r: u64, c: u64) -> Diagnostic {
    Diagnostic::error(
        Code::BoardTooLarge,
        span,
        format!("a {r}×{c} board is too large: boards are limited to {MAX_CELLS} cells"),
    )
    .with_label("too many cells")
    .with_note(format!("a {side}x{side} board is the largest square board that fits", side = MAX_CELLS.isqrt()))
}
