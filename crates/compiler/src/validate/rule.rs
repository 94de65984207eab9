//! `rule`: a named rule or a stencil of weights.

use super::{
    ast, did_you_mean, plural, stencil_width, Code, Diagnostic, Kind, RowForm, Rule, RuleSpec, Span, StatementKind,
    Stencil, Validator,
};

impl Validator<'_> {
    pub(super) fn rule(&mut self, stmt: &ast::Statement, w: u32) -> Option<Rule> {
        let StatementKind::Rule(spec) = &stmt.kind else { return None };
        match spec {
            RuleSpec::Named(id) => {
                let r = Rule::from_name(&id.text);
                if r.is_none() {
                    self.push(unknown_rule(id));
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
            self.push(empty_stencil(grid.span));
            return None;
        }
        let mut ok = true;
        for (row, cells) in grid.rows.iter().zip(&rows) {
            if cells.len() != width {
                ok = false;
                self.push(ragged_stencil(row.span, cells.len(), width));
            }
        }
        if !ok {
            return None;
        }
        let (h, wd) = (rows.len(), width);
        if h % 2 == 0 || wd % 2 == 0 {
            self.push(even_stencil(grid.span, h, wd));
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
            self.push(zero_stencil(grid.span));
            return None;
        }
        Some(Stencil { rows: h, cols: wd, weights })
    }
}

/// L0109: a rule that is not one of [`Rule::NAMES`].
fn unknown_rule(id: &ast::Ident) -> Diagnostic {
    let mut d =
        Diagnostic::error(Code::UnknownRule, id.span, format!("unknown rule `{}`", id.text)).with_label("not a rule");
    if let Some(s) = did_you_mean(&id.text, Rule::NAMES) {
        d = d.with_note(format!("did you mean `{s}`?"));
    }
    d.with_note("rules are: cross, king, flip, merlin, or a stencil `rule { … }`")
}

/// L0108: a stencil with no rows.
fn empty_stencil(span: Span) -> Diagnostic {
    Diagnostic::error(Code::ZeroStencil, span, "this stencil is empty")
        .with_label("no rows")
        .with_note("a stencil is an odd-by-odd grid of weights centred on the pressed cell")
}

/// L0108: a stencil whose weights are all 0.
fn zero_stencil(span: Span) -> Diagnostic {
    Diagnostic::error(Code::ZeroStencil, span, "this stencil changes nothing: every weight is 0")
        .with_label("all zero")
        .with_note("put a weight (1 or more) where a press should change a light")
}

/// L0118: a stencil row of `cells` cells where the first has `width`.
fn ragged_stencil(span: Span, cells: usize, width: usize) -> Diagnostic {
    Diagnostic::error(
        Code::RaggedStencil,
        span,
        format!("this stencil row has {}, the first has {width}", plural(cells, "cell")),
    )
    .with_label(format!("expected {width} cells"))
}

/// L0107: a stencil with no centre cell.
fn even_stencil(span: Span, h: usize, wd: usize) -> Diagnostic {
    Diagnostic::error(Code::EvenStencil, span, format!("a {h}×{wd} stencil has no centre cell"))
        .with_label("needs odd height and width")
        .with_note("a stencil is centred on the pressed cell, so it is 1×1, 3×3, 3×5, 5×5, …")
}
