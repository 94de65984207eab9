//! Completion from the line being typed: statement keywords at the start
//! of a line inside a block (a sliding block's own statements inside one),
//! rule / topology / claim / value names after their keyword, and snippets
//! for a new puzzle or sliding block outside blocks.

use tower_lsp_server::lsp_types::{
    CompletionItem, CompletionItemKind, Documentation, InsertTextFormat, MarkupContent, MarkupKind, Position,
};

use lights_syntax::ast::PuzzleBlock;
use lights_syntax::BlockKind;

use crate::document::Snapshot;
use crate::reference::{self, Word};

pub fn completion(doc: &Snapshot, pos: Position, snippets: bool) -> Vec<CompletionItem> {
    let offset = doc.map.offset(&doc.text, pos);
    let line_start = doc.map.line_start(doc.map.line_of(offset));
    let before = &doc.text[line_start..offset];
    if before.contains("//") || inside_grid(doc, offset) {
        return Vec::new();
    }
    let words: Vec<&str> = before.split_whitespace().collect();
    let typing = !before.ends_with(char::is_whitespace) && !words.is_empty();
    // The words before the one being typed.
    let done = if typing { &words[..words.len() - 1] } else { &words[..] };
    let inside = doc
        .puzzle_at(offset)
        .map(|i| &doc.analysis.syntax.puzzles[i])
        .filter(|b| offset >= b.head.end && b.close.is_none_or(|c| offset <= c.start));
    let Some(block) = inside else {
        return if done.is_empty() {
            [&reference::PUZZLE, &reference::SLIDING]
                .into_iter()
                .map(|w| item(w, CompletionItemKind::SNIPPET, snippets))
                .collect()
        } else {
            Vec::new()
        };
    };
    if block.kind == BlockKind::Sliding {
        return match done {
            [] => statements(block, reference::SLIDING_STATEMENTS, snippets),
            ["expect"] => words_of(reference::SLIDING_CLAIMS, CompletionItemKind::ENUM_MEMBER, snippets),
            _ => Vec::new(),
        };
    }
    match done {
        [] => statements(block, reference::STATEMENTS, snippets),
        ["rule"] => words_of(reference::RULES, CompletionItemKind::ENUM_MEMBER, snippets),
        ["topology"] => words_of(reference::TOPOLOGIES, CompletionItemKind::ENUM_MEMBER, snippets),
        ["expect"] => words_of(reference::CLAIMS, CompletionItemKind::ENUM_MEMBER, snippets),
        ["lights" | "goal" | "solution"] => words_of(reference::VALUES, CompletionItemKind::VALUE, snippets),
        ["locked"] => words_of(&reference::VALUES[2..], CompletionItemKind::VALUE, snippets),
        _ => Vec::new(),
    }
}

/// The statements not yet in the block (`expect` may repeat).
fn statements(block: &PuzzleBlock, words: &[Word], snippets: bool) -> Vec<CompletionItem> {
    words
        .iter()
        .filter(|w| w.word == "expect" || !block.statements.iter().any(|s| s.kind.keyword() == w.word))
        .map(|w| item(w, CompletionItemKind::KEYWORD, snippets))
        .collect()
}

fn words_of(words: &[Word], kind: CompletionItemKind, snippets: bool) -> Vec<CompletionItem> {
    words.iter().map(|w| item(w, kind, snippets)).collect()
}

fn item(w: &Word, kind: CompletionItemKind, snippets: bool) -> CompletionItem {
    let (insert_text, format) = if snippets && w.snippet != w.word {
        (w.snippet.to_string(), InsertTextFormat::SNIPPET)
    } else {
        (w.word.to_string(), InsertTextFormat::PLAIN_TEXT)
    };
    CompletionItem {
        label: w.word.to_string(),
        kind: Some(kind),
        detail: Some(w.summary.to_string()),
        documentation: Some(Documentation::MarkupContent(MarkupContent {
            kind: MarkupKind::Markdown,
            value: w.doc.to_string(),
        })),
        insert_text: Some(insert_text),
        insert_text_format: Some(format),
        ..Default::default()
    }
}

fn inside_grid(doc: &Snapshot, offset: usize) -> bool {
    doc.analysis
        .syntax
        .puzzles
        .iter()
        .flat_map(|b| &b.statements)
        .filter_map(|s| s.kind.grid())
        .any(|grid| grid.span.start < offset && grid.close.is_none_or(|c| offset <= c.start))
}
