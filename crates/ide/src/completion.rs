//! Completion from the line being typed: statement keywords at the start
//! of a line inside a block (a sliding block's own statements inside one),
//! rule / topology / claim / value names after their keyword, and snippets
//! for a new puzzle or sliding block outside blocks.

use lights_syntax::ast::PuzzleBlock;
use lights_syntax::BlockKind;

use crate::document::Document;
use crate::reference::{self, Word};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CompletionKind {
    /// A statement keyword.
    Keyword,
    /// A whole new block.
    Snippet,
    /// A rule, topology or claim name.
    Name,
    /// A value (`on`, `off`, `at`).
    Value,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Completion {
    pub label: String,
    pub kind: CompletionKind,
    /// One line for the list.
    pub detail: String,
    /// Markdown.
    pub documentation: String,
    /// What to insert: plain text, or a snippet (`${1:name}` placeholders)
    /// when `is_snippet`.
    pub insert: String,
    pub is_snippet: bool,
}

/// The completions at `offset`; `snippets` when the editor takes snippets.
pub fn completion(doc: &Document, offset: usize, snippets: bool) -> Vec<Completion> {
    let text = doc.text();
    let offset = floor_boundary(text, offset.min(text.len()));
    let line_start = doc.lines().line_start(doc.lines().line(offset));
    let before = &text[line_start..offset];
    if before.contains("//") || inside_grid(doc, offset) {
        return Vec::new();
    }
    let words: Vec<&str> = before.split_whitespace().collect();
    let typing = !before.ends_with(char::is_whitespace) && !words.is_empty();
    // The words before the one being typed.
    let done = if typing { &words[..words.len() - 1] } else { &words[..] };
    let inside = doc
        .block_at(offset)
        .and_then(|i| doc.syntax(i))
        .filter(|b| offset >= b.head.end && b.close.is_none_or(|c| offset <= c.start));
    let Some(block) = inside else {
        return if done.is_empty() {
            [&reference::PUZZLE, &reference::SLIDING]
                .into_iter()
                .map(|w| item(w, CompletionKind::Snippet, snippets))
                .collect()
        } else {
            Vec::new()
        };
    };
    if block.kind == BlockKind::Sliding {
        return match done {
            [] => statements(block, reference::SLIDING_STATEMENTS, snippets),
            ["expect"] => words_of(reference::SLIDING_CLAIMS, CompletionKind::Name, snippets),
            _ => Vec::new(),
        };
    }
    match done {
        [] => statements(block, reference::STATEMENTS, snippets),
        ["rule"] => words_of(reference::RULES, CompletionKind::Name, snippets),
        ["topology"] => words_of(reference::TOPOLOGIES, CompletionKind::Name, snippets),
        ["expect"] => words_of(reference::CLAIMS, CompletionKind::Name, snippets),
        ["lights" | "goal" | "solution"] => words_of(reference::VALUES, CompletionKind::Value, snippets),
        ["locked"] => words_of(&reference::VALUES[2..], CompletionKind::Value, snippets),
        _ => Vec::new(),
    }
}

/// The statements not yet in the block (`expect` may repeat).
fn statements(block: &PuzzleBlock, words: &[Word], snippets: bool) -> Vec<Completion> {
    words
        .iter()
        .filter(|w| w.word == "expect" || !block.statements.iter().any(|s| s.kind.keyword() == w.word))
        .map(|w| item(w, CompletionKind::Keyword, snippets))
        .collect()
}

fn words_of(words: &[Word], kind: CompletionKind, snippets: bool) -> Vec<Completion> {
    words.iter().map(|w| item(w, kind, snippets)).collect()
}

fn item(w: &Word, kind: CompletionKind, snippets: bool) -> Completion {
    let is_snippet = snippets && w.snippet != w.word;
    Completion {
        label: w.word.to_string(),
        kind,
        detail: w.summary.to_string(),
        documentation: w.doc.to_string(),
        insert: if is_snippet { w.snippet.to_string() } else { w.word.to_string() },
        is_snippet,
    }
}

fn inside_grid(doc: &Document, offset: usize) -> bool {
    doc.analysis()
        .syntax
        .puzzles
        .iter()
        .flat_map(|b| &b.statements)
        .filter_map(|s| s.kind.grid())
        .any(|grid| grid.span.start < offset && grid.close.is_none_or(|c| offset <= c.start))
}

fn floor_boundary(text: &str, mut offset: usize) -> usize {
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    offset
}
