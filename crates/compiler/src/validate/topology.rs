//! `topology`: how the borders are glued.

use super::{ast, did_you_mean, Code, Diagnostic, StatementKind, Topology, Validator};

impl Validator<'_> {
    pub(super) fn topology(&mut self, stmt: &ast::Statement) -> Option<Topology> {
        let StatementKind::Topology(id) = &stmt.kind else { return None };
        let t = Topology::from_name(&id.text);
        if t.is_none() {
            self.push(unknown_topology(id));
        }
        t
    }
}

/// L0110: a topology that is not one of [`Topology::NAMES`].
fn unknown_topology(id: &ast::Ident) -> Diagnostic {
    let mut d = Diagnostic::error(Code::UnknownTopology, id.span, format!("unknown topology `{}`", id.text))
        .with_label("not a topology");
    if let Some(s) = did_you_mean(&id.text, Topology::NAMES) {
        d = d.with_note(format!("did you mean `{s}`?"));
    }
    d.with_note("topologies are: plane, cylinder, torus, mobius, klein, projective (or cross-cap)")
}
