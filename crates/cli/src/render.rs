//! Terminal rendering of diagnostics with ariadne.

use std::io::Write;

use ariadne::{Color, Config, IndexType, Label, Report, ReportKind, Source};
use lights_compiler::{Diagnostic, Severity};

/// Whether to colour output written to a stream: only on a terminal, and
/// never when `NO_COLOR` is set (https://no-color.org).
pub(crate) fn use_color(is_terminal: bool) -> bool {
    is_terminal && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
}

/// Write one diagnostic about `src` (shown as `path`).
pub(crate) fn write_diagnostic(
    out: &mut dyn Write,
    path: &str,
    src: &str,
    d: &Diagnostic,
    color: bool,
) -> std::io::Result<()> {
    let kind = match d.severity {
        Severity::Error => ReportKind::Error,
        Severity::Warning => ReportKind::Warning,
    };
    let clamp = |s: lights_syntax::Span| {
        let start = floor_boundary(src, s.start.min(src.len()));
        let end = floor_boundary(src, s.end.min(src.len())).max(start);
        start..end
    };
    let id = path.to_string();
    let primary_color = if d.severity == Severity::Error { Color::Red } else { Color::Yellow };
    let mut report = Report::build(kind, (id.clone(), clamp(d.span)))
        .with_config(Config::default().with_color(color).with_index_type(IndexType::Byte))
        .with_code(d.code.as_str())
        .with_message(&d.message);
    let mut primary = Label::new((id.clone(), clamp(d.span))).with_color(primary_color).with_order(0);
    if !d.label.is_empty() {
        primary = primary.with_message(&d.label);
    }
    report = report.with_label(primary);
    for (i, l) in d.labels.iter().enumerate() {
        report = report.with_label(
            Label::new((id.clone(), clamp(l.span)))
                .with_message(&l.message)
                .with_color(Color::Blue)
                .with_order(i as i32 + 1),
        );
    }
    for note in &d.notes {
        report = report.with_note(note);
    }
    report.finish().write((id, Source::from(src)), out)
}

fn floor_boundary(s: &str, mut i: usize) -> usize {
    while i > 0 && !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}
