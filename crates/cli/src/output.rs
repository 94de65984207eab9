//! What `check` and `solve` print about a puzzle as JSON: the object the
//! README documents ("--format json"), from the same diagnostics and answers as the human
//! output and the editor (`lights-ide`).

use lights_compiler::present::{CertificateJson, ResultFields, SolutionJson};
use lights_compiler::Diagnostic;
use lights_ide::{Answers, Document};

use crate::formats::{Place, Policy};
use serde::Serialize;

/// The version of the JSON objects: it goes up when a key changes meaning or
/// goes away (new keys do not change it).
pub(crate) const JSON_VERSION: u32 = 1;

/// Boards with more cells than this get no `solution` grid in JSON (it would
/// be megabytes); `solution_omitted` says why.
pub(crate) const MAX_JSON_SOLUTION_CELLS: usize = 1_000_000;

/// One object of the JSON array (its keys are documented in the README,
/// "--format json").
#[derive(Serialize)]
pub(crate) struct BlockJson {
    /// The version of this object's keys ([`JSON_VERSION`]).
    pub version: u32,
    pub file: String,
    pub puzzle: Option<String>,
    /// `"puzzle"` (Lights Out) or `"sliding"`; null for the text outside blocks.
    pub kind: Option<&'static str>,
    /// Lights Out puzzles: `"square"`, `"hex"` or `"graph"` (a graph's
    /// `solution` and `certificate` are one row, node 1 first).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub shape: Option<&'static str>,
    /// The block's one-line result, as `lights check` prints it and the
    /// editor shows it above the block (`4 solutions · minimum 15 presses`,
    /// `unsolvable, as expected`, `2 errors`); null for the text outside blocks.
    pub status: Option<String>,
    pub solvable: Option<bool>,
    pub solutions: Option<String>,
    pub presses: Option<u64>,
    pub optimal: Option<bool>,
    /// A Lights Out minimum not proven: no solution has fewer presses than this.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub presses_at_least: Option<u64>,
    /// A Lights Out puzzle's press counts, row by row, or a sliding block's moves.
    pub solution: Option<SolutionJson>,
    /// Why `solution` is null although the puzzle is solvable (a board too large for JSON).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub solution_omitted: Option<String>,
    /// Sliding blocks: the number of moves found (`optimal` says whether it
    /// is proven fewest; the moves themselves are the `solution` string).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub moves: Option<u64>,
    /// An unsolvable Lights Out puzzle's proof (absent otherwise).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub certificate: Option<CertificateJson>,
    pub errors: Vec<String>,
    pub diagnostics: Vec<DiagnosticJson>,
}

#[derive(Serialize)]
pub(crate) struct DiagnosticJson {
    pub code: &'static str,
    pub severity: lights_compiler::Severity,
    pub message: String,
    /// 1-based line and column (in characters) where it starts, and where it
    /// ends (exclusive).
    pub line: usize,
    pub column: usize,
    pub end_line: usize,
    pub end_column: usize,
    /// The notes under the message.
    pub notes: Vec<String>,
}

fn diagnostic_json(doc: &Document, d: &Diagnostic) -> DiagnosticJson {
    let at = Place::of(doc, d.span);
    DiagnosticJson {
        code: d.code.as_str(),
        severity: d.severity,
        message: d.message.clone(),
        line: at.line,
        column: at.column,
        end_line: at.end_line,
        end_column: at.end_column,
        notes: d.notes.clone(),
    }
}

/// The object for a file that could not be read.
pub(crate) fn unreadable_json(file: &str, message: &str) -> BlockJson {
    let mut j = empty(file, None);
    j.errors.push(message.to_string());
    j
}

fn empty(file: &str, name: Option<String>) -> BlockJson {
    BlockJson {
        version: JSON_VERSION,
        file: file.to_string(),
        puzzle: name,
        kind: None,
        shape: None,
        status: None,
        solvable: None,
        solutions: None,
        presses: None,
        optimal: None,
        presses_at_least: None,
        solution: None,
        solution_omitted: None,
        moves: None,
        certificate: None,
        errors: Vec::new(),
        diagnostics: Vec::new(),
    }
}

fn base(file: &str, doc: &Document, name: Option<String>, ds: &[Diagnostic]) -> BlockJson {
    let mut j = empty(file, name);
    j.errors = ds.iter().filter(|d| d.is_error()).map(|d| format!("{}: {}", d.code, d.message)).collect();
    j.diagnostics = ds.iter().map(|d| diagnostic_json(doc, d)).collect();
    j
}

/// The JSON objects for a file: one for the text outside blocks (when it
/// has errors, or when the file holds no puzzle), then one per puzzle (or
/// only the one named `only`).
pub(crate) fn file_json(
    file: &str,
    doc: &Document,
    answers: &dyn Answers,
    only: Option<&str>,
    policy: Policy,
) -> Vec<BlockJson> {
    let analysis = doc.analysis();
    let mut out = Vec::new();
    if only.is_none() && (!analysis.file_diagnostics.is_empty() || analysis.blocks.is_empty()) {
        let outside = lights_ide::config::apply(policy, analysis.file_diagnostics.clone());
        out.push(base(file, doc, None, &outside));
    }
    for (i, p) in analysis.blocks.iter().enumerate() {
        if only.is_none() || p.name.as_deref() == only {
            out.push(block_json(file, doc, answers, i, MAX_JSON_SOLUTION_CELLS, policy));
        }
    }
    out
}

fn block_json(
    file: &str,
    doc: &Document,
    answers: &dyn Answers,
    i: usize,
    max_cells: usize,
    policy: Policy,
) -> BlockJson {
    let p = &doc.analysis().blocks[i];
    let diagnostics = lights_ide::config::apply(policy, lights_ide::block_diagnostics(doc, i, answers));
    let mut j = base(file, doc, p.name.clone(), &diagnostics);
    j.kind = Some(p.kind.keyword());
    j.status = Some(lights_ide::status(doc, i, answers).text);
    j.shape = doc.block(i).and_then(|b| b.shape_name());
    let Some((block, report)) = doc.answered(i, answers) else { return j };
    j.solvable = Some(report.solvable());
    if let Some(answered) = block.answered(&report) {
        let ResultFields {
            solutions,
            presses,
            optimal,
            presses_at_least,
            solution,
            solution_omitted,
            moves,
            certificate,
        } = answered.json(max_cells);
        j.solutions = solutions;
        j.presses = presses;
        j.optimal = optimal;
        j.presses_at_least = presses_at_least;
        j.solution = solution;
        j.solution_omitted = solution_omitted;
        j.moves = moves;
        j.certificate = certificate;
    }
    j
}

/// Write `value` as pretty JSON to `out`, every character that could act
/// on a terminal written as a `\u` escape (see [`JsonSafe`]).
pub(crate) fn write_json<T: Serialize + ?Sized>(out: &mut dyn std::io::Write, value: &T) -> std::io::Result<()> {
    let mut safe = JsonSafe::new(std::io::BufWriter::new(out));
    serde_json::to_writer_pretty(&mut safe, value).map_err(std::io::Error::other)?;
    safe.finish()
}

/// Write what `emit` writes to `path` (through `safe_write`), or to
/// standard output; an error is printed. The exit status.
pub(crate) fn emit_to(
    path: Option<&std::path::Path>,
    emit: impl FnOnce(&mut dyn std::io::Write) -> std::io::Result<()>,
) -> u8 {
    use std::io::Write;
    let written = match path {
        Some(path) => crate::safe_write::write_with(path, emit),
        None => {
            let mut out = std::io::BufWriter::new(std::io::stdout().lock());
            emit(&mut out).and_then(|()| out.flush()).map_err(|e| format!("cannot write to standard output: {e}"))
        }
    };
    match written {
        Ok(()) => crate::EXIT_OK,
        Err(e) => {
            eprintln!("error: {}", crate::excerpt::escape_controls(&e));
            crate::EXIT_USAGE
        }
    }
}

/// [`write_json`] as a string.
pub(crate) fn json_string<T: Serialize + ?Sized>(value: &T) -> String {
    let mut out = Vec::new();
    let _ = write_json(&mut out, value);
    String::from_utf8(out).unwrap_or_default()
}

/// A writer of JSON that also escapes what serde_json leaves raw but a
/// terminal acts on: DEL, the C1 controls (U+0080–U+009F; `\u009b` is a
/// CSI) and the line and paragraph separators, as `\u007f`… (valid JSON,
/// the same strings once parsed). These can only occur inside strings, so
/// each is replaced wherever it is.
pub(crate) struct JsonSafe<W: std::io::Write> {
    inner: W,
    /// The start of a character cut by the end of the last write.
    pending: Vec<u8>,
}

impl<W: std::io::Write> JsonSafe<W> {
    pub(crate) fn new(inner: W) -> JsonSafe<W> {
        JsonSafe { inner, pending: Vec::new() }
    }

    /// Write what is left and flush.
    pub(crate) fn finish(mut self) -> std::io::Result<()> {
        let rest = std::mem::take(&mut self.pending);
        self.inner.write_all(&rest)?;
        self.inner.flush()
    }
}

impl<W: std::io::Write> std::io::Write for JsonSafe<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.pending.extend_from_slice(buf);
        let ready = self.pending.len() - cut_character(&self.pending);
        let bytes = &self.pending[..ready];
        // Only DEL (0x7f), C1 (0xc2 0x80–0x9f) and U+2028/9 (0xe2 0x80 0xa8/9) need work.
        if bytes.iter().any(|&b| b == 0x7f || b == 0xc2 || b == 0xe2) {
            let text = String::from_utf8_lossy(bytes);
            let mut run = 0;
            for (i, c) in text.char_indices() {
                if crate::excerpt::needs_escape(c) {
                    self.inner.write_all(&text.as_bytes()[run..i])?;
                    write!(self.inner, "\\u{:04x}", c as u32)?;
                    run = i + c.len_utf8();
                }
            }
            self.inner.write_all(&text.as_bytes()[run..])?;
        } else {
            self.inner.write_all(bytes)?;
        }
        self.pending.drain(..ready);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush()
    }
}

/// How many bytes at the end of `bytes` are the start of a UTF-8
/// character whose other bytes are still to come.
fn cut_character(bytes: &[u8]) -> usize {
    for back in 1..=bytes.len().min(3) {
        let b = bytes[bytes.len() - back];
        if b & 0xc0 != 0x80 {
            let len = match b {
                0xc0..=0xdf => 2,
                0xe0..=0xef => 3,
                0xf0..=0xf7 => 4,
                _ => 1,
            };
            return if len > back { back } else { 0 };
        }
    }
    0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_escapes_del_c1_and_line_separators() {
        let text = json_string(&["a\u{7f}b\u{9b}2J\u{2028}\u{1b}é€😀"]);
        assert_eq!(text, "[\n  \"a\\u007fb\\u009b2J\\u2028\\u001bé€😀\"\n]");
        assert!(text.bytes().all(|b| b >= 0x20 && b != 0x7f || b == b'\n'));
        let back: Vec<String> = serde_json::from_str(&text).unwrap();
        assert_eq!(back, ["a\u{7f}b\u{9b}2J\u{2028}\u{1b}é€😀"]);
        // A character cut between two writes is still seen whole.
        let mut out = Vec::new();
        let mut w = JsonSafe::new(&mut out);
        use std::io::Write;
        let bytes = "x\u{85}\u{2029}y".as_bytes();
        for b in bytes {
            w.write_all(std::slice::from_ref(b)).unwrap();
        }
        w.finish().unwrap();
        assert_eq!(String::from_utf8(out).unwrap(), "x\\u0085\\u2029y");
    }

    #[test]
    fn large_boards_omit_the_solution_grid_and_say_why() {
        let doc = Document::new("puzzle \"p\" {\n  size 5x5\n  lights on\n}\n");
        let solved = lights_ide::Solved::all(&doc);
        let full = block_json("f", &doc, &solved, 0, 25, None);
        assert!(matches!(&full.solution, Some(SolutionJson::Presses(rows)) if rows.len() == 5));
        assert!(full.solution_omitted.is_none());
        let big = block_json("f", &doc, &solved, 0, 24, None);
        assert!(big.solution.is_none());
        assert_eq!(big.presses, Some(15), "the other facts stay");
        let why = big.solution_omitted.unwrap();
        assert!(why.contains("25 cells") && why.contains("--solution-out"), "{why}");
        let json = serde_json::to_value(&full).unwrap();
        assert!(json.get("solution_omitted").is_none(), "the key appears only when the grid is left out");
        assert_eq!(json["kind"], "puzzle");
        // A grid of press counts: 5 rows of 5, 15 presses in all.
        let rows = json["solution"].as_array().unwrap();
        let presses: u64 = rows.iter().flat_map(|r| r.as_array().unwrap()).map(|v| v.as_u64().unwrap()).sum();
        assert_eq!((rows.len(), presses), (5, 15));
    }

    #[test]
    fn sliding_blocks_give_their_moves_as_the_solution_string() {
        let doc = Document::new("sliding \"s\" {\n  size 2x3\n  tiles {\n    1 2 3\n    4 . 5\n  }\n}\n");
        let json = serde_json::to_value(file_json("f", &doc, &lights_ide::Solved::all(&doc), None, None)).unwrap();
        assert_eq!(json[0]["kind"], "sliding");
        assert_eq!(json[0]["solution"], "R");
        assert_eq!((json[0]["moves"].as_u64(), json[0]["optimal"].as_bool()), (Some(1), Some(true)));
        assert_eq!(json[0]["solvable"], true);
        assert!(json[0]["presses"].is_null() && json[0]["solutions"].is_null());
    }
}
