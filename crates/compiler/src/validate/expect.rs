//! `expect`: the claims checked against the answer.

use super::{ast, BigUint, Claim, ClaimKind, Expectation, Validator};

impl Validator<'_> {
    pub(super) fn claim(&mut self, stmt: &ast::Statement, claim: &ast::Claim) -> Option<Expectation> {
        let c = match &claim.kind {
            ClaimKind::Solvable => Claim::Solvable,
            ClaimKind::Unsolvable => Claim::Unsolvable,
            ClaimKind::Unique => Claim::Unique,
            ClaimKind::Solutions(n) => Claim::Solutions(n.text.parse::<BigUint>().ok()?),
            ClaimKind::Presses(n) => Claim::Presses(self.number(n, "press count")?),
            ClaimKind::PressesBetween(a, b) => {
                let (low, high) = (self.number(a, "press count"), self.number(b, "press count"));
                let (low, high) = (low?, high?);
                if low > high {
                    self.push(empty_range(claim.span, low, high));
                    return None;
                }
                Claim::PressesBetween(low, high)
            }
            ClaimKind::Difficulty(a, b) => {
                let low = self.number(a, "difficulty")?;
                let high = match b {
                    Some(b) => self.number(b, "difficulty")?,
                    None => low,
                };
                if low > high {
                    self.push(empty_range(claim.span, low, high));
                    return None;
                }
                Claim::Difficulty(low, high)
            }
            // Reported by `sliding_only`.
            ClaimKind::Moves(_) => return None,
        };
        Some(Expectation { span: stmt.span, claim: c })
    }
}

/// L0006: `A..B` with A above B holds for nothing.
fn empty_range(span: lights_syntax::Span, low: u64, high: u64) -> crate::diagnostic::Diagnostic {
    crate::diagnostic::Diagnostic::error(
        crate::diagnostic::Code::MalformedStatement,
        span,
        format!("the range {low}..{high} is empty: its first number is above its last"),
    )
    .with_label("empty range")
    .with_note(format!("write the smaller number first: {high}..{low}"))
}
