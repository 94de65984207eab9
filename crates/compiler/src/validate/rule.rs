//! `rule`: a named rule or a stencil of weights.

use super::*;

impl Validator<'_> {
    pub(super) fn rule(&mut self, stmt: &ast::Statement, w: u32) -> Option<Rule> {
        let StatementKind::Rule(spec) = &stmt.kind else { return None };
        match spec {
            RuleSpec::Named(id) => {
                let r = Rule::from_name(&id.text);
                if r.is_none() {
                    let mut d = Diagnostic::error(Code::UnknownRule, id.span, format!("unknown rule `{}`", id.text))
                        .with_label("not a rule");
                    if let Some(s) = did_you_mean(&id.text, Rule::NAMES) {
                        d = d.with_note(format!("did you mean `{s}`?"));
                    }
                    self.push(d.with_note("rules are: cross, king, flip, merlin, or a stencil `rule { … }`"));
                }
                r
            }
            RuleSpec::Stencil(grid) => self.stencil(grid, w).map(Rule::Stencil),
        }
    }

    pub(super) fn stencil(&mut self, grid: &ast::Grid, w: u32) -> Option<Stencil> {
        if grid.rows.iter().any(|r| r.form == RowForm::Bad) {
            return None; // already reported
        }
        let width = stencil_width(grid);
        let rows: Vec<Vec<Span>> = grid.rows.iter().map(|r| r.cells(width)).collect();
        if rows.is_empty() {
            self.push(
                Diagnostic::error(Code::ZeroStencil, grid.span, "this stencil is empty")
                    .with_label("no rows")
                    .with_note("a stencil is an odd-by-odd grid of weights centred on the pressed cell"),
            );
            return None;
        }
        let mut ok = true;
        for (row, cells) in grid.rows.iter().zip(&rows) {
            if cells.len() != width {
                ok = false;
                self.push(
                    Diagnostic::error(
                        Code::RaggedStencil,
                        row.span,
                        format!("this stencil row has {}, the first has {width}", plural(cells.len(), "cell")),
                    )
                    .with_label(format!("expected {width} cells")),
                );
            }
        }
        if !ok {
            return None;
        }
        let (h, wd) = (rows.len(), width);
        if h % 2 == 0 || wd % 2 == 0 {
            self.push(
                Diagnostic::error(Code::EvenStencil, grid.span, format!("a {h}×{wd} stencil has no centre cell"))
                    .with_label("needs odd height and width")
                    .with_note("a stencil is centred on the pressed cell, so it is 1×1, 3×3, 3×5, 5×5, …"),
            );
            ok = false;
        }
        let mut weights = Vec::with_capacity(h * wd);
        for cell in rows.iter().flatten() {
            weights.push(self.cell_value(*cell, w, Kind::Value, "weight").unwrap_or(0) as u32);
        }
        if !ok || self.diags.iter().any(|d| grid.span.contains(d.span.start) && d.is_error()) {
            return None;
        }
        if weights.iter().all(|&x| x == 0) {
            self.push(
                Diagnostic::error(Code::ZeroStencil, grid.span, "this stencil changes nothing: every weight is 0")
                    .with_label("all zero")
                    .with_note("put a weight (1 or more) where a press should change a light"),
            );
            return None;
        }
        Some(Stencil { rows: h, cols: wd, weights })
    }
}
