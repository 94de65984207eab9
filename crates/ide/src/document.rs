//! One analysed version of a text: the compiler's analysis (parse and
//! validation, no solving), its line index, the options its blocks are
//! solved with (the minimum budget of its lights.toml or of the command
//! line) and the key of every valid block's answer under those options.
//! Immutable: a newer version is a new `Document`.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::{Arc, OnceLock};

use lights_compiler::{Block, BlockKey, FileAnalysis, SolveOptions};
use lights_syntax::ast::BlockSyntax;
use lights_syntax::{LineIndex, SourceFile, Span};

use crate::internal::{internal_error, panic_message};

/// The analysis function (the compiler's `analyze`; swappable so tests can
/// make it panic).
pub type AnalyzeFn = fn(&str) -> FileAnalysis;

pub struct Document {
    text: String,
    analysis: FileAnalysis,
    lines: LineIndex,
    /// How its blocks are solved.
    options: SolveOptions,
    /// Per block: the key of its answer under `options`, for blocks without errors.
    keys: Vec<Option<BlockKey>>,
    /// Per block: its canonical form up to symmetry (computed when first asked).
    forms: Vec<OnceLock<Option<lights_compiler::symmetry::LevelForm>>>,
    /// Per block: the earlier block of this file that is the same puzzle.
    copies: OnceLock<Vec<Option<usize>>>,
    /// Findings about blocks that need the other files of a pack (a copy of
    /// a level in an earlier file), set by the front end that read them.
    earlier_copies: Vec<(usize, crate::copy_of::CopyOf)>,
}

impl Document {
    /// Parse and validate `text`.
    pub fn new(text: impl Into<String>) -> Document {
        Document::with_analyzer(text.into(), lights_compiler::analyze)
    }

    /// Analyse `text` with `analyze`; a panic inside it becomes an internal
    /// error (L0302) on the file instead of a crash.
    pub fn with_analyzer(text: String, analyze: AnalyzeFn) -> Document {
        let analysis = match catch_unwind(AssertUnwindSafe(|| analyze(&text))) {
            Ok(a) => a,
            Err(payload) => FileAnalysis {
                syntax: SourceFile::default(),
                blocks: Vec::new(),
                file_diagnostics: vec![internal_error(Span::new(0, 0), "this file", &panic_message(payload))],
            },
        };
        let options = SolveOptions::default();
        let keys = analysis.blocks.iter().map(|p| p.block.as_ref().map(|b| b.key_with(&options))).collect();
        let lines = LineIndex::new(&text);
        let forms = analysis.blocks.iter().map(|_| OnceLock::new()).collect();
        Document { text, analysis, lines, options, keys, forms, copies: OnceLock::new(), earlier_copies: Vec::new() }
    }

    /// The document with its blocks solved with `options` (their keys
    /// follow: an answer found within one minimum budget is not taken for
    /// another's).
    pub fn with_options(mut self, options: SolveOptions) -> Document {
        if options != self.options {
            self.keys = self.analysis.blocks.iter().map(|p| p.block.as_ref().map(|b| b.key_with(&options))).collect();
            self.options = options;
        }
        self
    }

    /// How the blocks are solved ([`Document::with_options`]).
    pub fn options(&self) -> &SolveOptions {
        &self.options
    }

    pub fn text(&self) -> &str {
        &self.text
    }

    pub fn analysis(&self) -> &FileAnalysis {
        &self.analysis
    }

    pub fn lines(&self) -> &LineIndex {
        &self.lines
    }

    /// The number of blocks (`puzzle` and `sliding`), in file order.
    pub fn block_count(&self) -> usize {
        self.analysis.blocks.len()
    }

    /// The validated model of block `i`, when it has no error.
    pub fn block(&self, i: usize) -> Option<&Arc<Block>> {
        self.analysis.blocks.get(i)?.block.as_ref()
    }

    /// The syntax of block `i`.
    pub fn syntax(&self, i: usize) -> Option<&BlockSyntax> {
        self.analysis.syntax.blocks.get(i)
    }

    /// Every block's canonical form up to the board's symmetries (`None`
    /// for a block with errors, a sliding block, or one too large to
    /// compare): see [`lights_compiler::symmetry`].
    pub fn form(&self, i: usize) -> Option<&lights_compiler::symmetry::LevelForm> {
        self.forms
            .get(i)?
            .get_or_init(|| self.block(i)?.as_lights().and_then(|p| lights_compiler::symmetry::level_form(p).ok()))
            .as_ref()
    }

    /// Whether block `i`'s canonical form has been made (for tests of
    /// what is computed only when needed).
    #[cfg(test)]
    pub(crate) fn form_made(&self, i: usize) -> bool {
        self.forms.get(i).is_some_and(|f| f.get().is_some())
    }

    /// The first earlier block of this file that is the same puzzle as block `i`.
    pub fn first_copy(&self, i: usize) -> Option<usize> {
        self.copies
            .get_or_init(|| {
                // Forms only where the cheap pre-keys meet: a file of one
                // level (the editor's usual case) computes none.
                if self.block_count() < 2 {
                    return vec![None; self.block_count()];
                }
                let mut prekeys: std::collections::HashMap<u64, Vec<usize>> = std::collections::HashMap::new();
                for i in 0..self.block_count() {
                    if let Some(p) = self.block(i).and_then(|b| b.as_lights()) {
                        if let Some(k) = lights_compiler::symmetry::level_prekey(p) {
                            prekeys.entry(k).or_default().push(i);
                        }
                    }
                }
                let mut copies = vec![None; self.block_count()];
                for group in prekeys.values().filter(|g| g.len() > 1) {
                    let mut first: std::collections::HashMap<u64, usize> = std::collections::HashMap::new();
                    for &i in group {
                        if let Some(f) = self.form(i) {
                            let j = *first.entry(f.key).or_insert(i);
                            copies[i] = (j != i).then_some(j);
                        }
                    }
                }
                copies
            })
            .get(i)
            .copied()
            .flatten()
    }

    /// The blocks that copy a level of an earlier file of the pack (found
    /// by the front end that read those files: [`crate::pack::PackIndex`]).
    pub fn set_earlier_copies(&mut self, copies: Vec<(usize, crate::copy_of::CopyOf)>) {
        self.earlier_copies = copies;
    }

    /// The level of an earlier file that block `i` copies, if any.
    pub fn earlier_copy(&self, i: usize) -> Option<&crate::copy_of::CopyOf> {
        self.earlier_copies.iter().find(|(b, _)| *b == i).map(|(_, c)| c)
    }

    /// The key of block `i`'s answer, when it can be solved.
    pub fn key(&self, i: usize) -> Option<BlockKey> {
        self.keys.get(i).copied().flatten()
    }

    /// Every key of the document's valid blocks (repeats included).
    pub fn keys(&self) -> impl Iterator<Item = BlockKey> + '_ {
        self.keys.iter().flatten().copied()
    }

    /// The block whose text holds `offset` (its closing brace included).
    pub fn block_at(&self, offset: usize) -> Option<usize> {
        self.analysis.blocks.iter().position(|p| p.span.contains(offset) || p.span.end == offset)
    }

    /// The blocks whose text overlaps `span`.
    pub fn blocks_in(&self, span: Span) -> Vec<usize> {
        (0..self.analysis.blocks.len())
            .filter(|&i| {
                let s = self.analysis.blocks[i].span;
                s.start <= span.end && span.start <= s.end
            })
            .collect()
    }

    /// The span of the whole line holding `offset`, without its line break.
    pub fn line_span(&self, offset: usize) -> Span {
        let line = self.lines.line(offset);
        Span::new(self.lines.line_start(line), self.line_end(line))
    }

    /// The end of line `line`'s content (before its line break).
    pub fn line_end(&self, line: usize) -> usize {
        let next = self.lines.line_start(line + 1);
        let content = &self.text[self.lines.line_start(line)..next];
        next - (content.len() - content.trim_end_matches(['\n', '\r']).len())
    }
}
