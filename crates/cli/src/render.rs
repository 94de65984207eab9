//! Terminal rendering of diagnostics with ariadne.

use std::io::Write;

use ariadne::{Color, Config, IndexType, Label, Report, ReportKind, Source};
use lights_compiler::{Diagnostic, Severity};

/// `--color`: when to colour what is printed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum ColorChoice {
    /// On a terminal, unless NO_COLOR is set; also when FORCE_COLOR is set
    #[default]
    Auto,
    /// Always
    Always,
    /// Never
    Never,
}

static COLOR: std::sync::OnceLock<ColorChoice> = std::sync::OnceLock::new();

/// Set once, from `--color`, before anything is printed.
pub(crate) fn set_color(choice: ColorChoice) {
    let _ = COLOR.set(choice);
}

/// Whether to colour output written to a stream: `--color always|never`,
/// else (auto) when `FORCE_COLOR` is set (and not `0`), else only on a
/// terminal and never when `NO_COLOR` is set (https://no-color.org).
pub(crate) fn use_color(is_terminal: bool) -> bool {
    let set = |name: &str| std::env::var_os(name).is_some_and(|v| !v.is_empty() && v != "0");
    match COLOR.get().copied().unwrap_or_default() {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto if set("FORCE_COLOR") => true,
        ColorChoice::Auto => is_terminal && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty()),
    }
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
