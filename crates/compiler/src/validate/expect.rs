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
            // Reported by `sliding_only`.
            ClaimKind::Moves(_) => return None,
        };
        Some(Expectation { span: stmt.span, claim: c })
    }
}
