//! Terminal rendering of diagnostics with ariadne.

use std::io::Write;

use ariadne::{Color, Config, IndexType, Label, Report, ReportKind, Source};
use lights_compiler::{Diagnostic, Severity};

use crate::excerpt::{escape_controls, SourceMap};

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

/// At most this many diagnostics of one file are drawn; the rest are
/// counted in one closing line. Each drawing is bounded too (see
/// [`Excerpt`]), so the output grows with the input, never with its square.
pub(crate) const MAX_DRAWN_PER_FILE: usize = 200;

/// Write every diagnostic about `src` (shown as `path`), drawn on the
/// source: the first [`MAX_DRAWN_PER_FILE`], then how many more there are.
pub(crate) fn write_diagnostics(
    out: &mut dyn Write,
    path: &str,
    src: &str,
    diagnostics: &[Diagnostic],
    color: bool,
) -> std::io::Result<()> {
    let mut drawing = Drawing::new(path, src);
    for d in diagnostics {
        drawing.write(out, d, color)?;
    }
    drawing.finish(out)
}

/// The diagnostics of one file, drawn one by one on small excerpts of its
/// source (see [`crate::excerpt`]), for callers that print other lines
/// between them; [`Drawing::finish`] says how many were left out.
pub(crate) struct Drawing<'s> {
    id: String,
    map: SourceMap<'s>,
    drawn: usize,
    left_out: usize,
}

impl<'s> Drawing<'s> {
    /// Prepare to draw the diagnostics of `src`.
    pub(crate) fn new(path: &str, src: &'s str) -> Self {
        Drawing { id: escape_controls(path).into_owned(), map: SourceMap::new(src), drawn: 0, left_out: 0 }
    }

    /// Draw one diagnostic, or count it when the file's quota is used up.
    pub(crate) fn write(&mut self, out: &mut dyn Write, d: &Diagnostic, color: bool) -> std::io::Result<()> {
        if self.drawn == MAX_DRAWN_PER_FILE {
            self.left_out += 1;
            return Ok(());
        }
        self.drawn += 1;
        let kind = match d.severity {
            Severity::Error => ReportKind::Error,
            Severity::Warning => ReportKind::Warning,
        };
        let spans: Vec<lights_syntax::Span> =
            std::iter::once(d.span).chain(d.labels.iter().map(|l| l.span)).map(|s| self.map.clamp(s)).collect();
        let primary = spans[0];
        let (line, column) = (self.map.line(primary.start) + 1, self.map.column(primary.start));
        let id = self.id.clone();
        // Past the lines that can be drawn (a huge file), the message says
        // where instead, and no source is shown.
        let excerpt = self.map.excerpt(&spans);
        let message = match &excerpt {
            Some(_) => escape_controls(&d.message).into_owned(),
            None => format!("{} (at {id}:{line}:{column})", escape_controls(&d.message)),
        };
        let anchor = excerpt.as_ref().map_or(0..0, |e| e.range(primary));
        let mut report = Report::build(kind, (id.clone(), anchor))
            .with_config(Config::default().with_color(color).with_index_type(IndexType::Byte))
            .with_code(d.code.as_str())
            .with_message(message);
        if let Some(excerpt) = &excerpt {
            let primary_color = if d.severity == Severity::Error { Color::Red } else { Color::Yellow };
            let mut label = Label::new((id.clone(), excerpt.range(primary))).with_color(primary_color).with_order(0);
            if !d.label.is_empty() {
                label = label.with_message(escape_controls(&d.label));
            }
            report = report.with_label(label);
            for (i, (l, span)) in d.labels.iter().zip(&spans[1..]).enumerate() {
                report = report.with_label(
                    Label::new((id.clone(), excerpt.range(*span)))
                        .with_message(escape_controls(&l.message))
                        .with_color(Color::Blue)
                        .with_order(i as i32 + 1),
                );
            }
        }
        for note in &d.notes {
            report = report.with_note(escape_controls(note));
        }
        let mut drawn = Vec::new();
        let text = excerpt.as_ref().map_or("", |e| e.text());
        report.finish().write((id.clone(), Source::from(text)), &mut drawn)?;
        // The header's `path:line:column` counts columns in the excerpt; on a
        // line cut short before the span, put the source's column back.
        if let Some(shown) = excerpt.map(|e| e.column(primary.start)).filter(|&shown| shown != column) {
            let text = String::from_utf8_lossy(&drawn);
            let fixed = text.replacen(&format!("{id}:{line}:{shown}"), &format!("{id}:{line}:{column}"), 1);
            return out.write_all(fixed.as_bytes());
        }
        out.write_all(&drawn)
    }

    /// Say how many diagnostics were not drawn, if any.
    pub(crate) fn finish(&self, out: &mut dyn Write) -> std::io::Result<()> {
        if self.left_out > 0 {
            writeln!(
                out,
                "note: {} in {} {} not shown (only the first {MAX_DRAWN_PER_FILE} of a file are drawn; \
                 `--format concise` or `--format json` lists them all)",
                lights_compiler::summary::count(self.left_out, "more diagnostic"),
                self.id,
                if self.left_out == 1 { "is" } else { "are" },
            )?;
        }
        Ok(())
    }
}
