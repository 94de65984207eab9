//! Completion from the line being typed: statement keywords at the start
//! of a line inside a block (a sliding block's own statements inside one),
//! rule / topology / grid / graph / claim / value names after their keyword
//! (those that fit the block's shape: a hex board or a graph takes fewer
//! rules and topologies), and snippets for a new puzzle or sliding block
//! outside blocks.

use lights_syntax::ast::{BlockSyntax, GraphSpec, StatementKind};

use crate::document::Document;
use crate::reference::{self, Word};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CompletionKind {
    /// A statement keyword.
    Keyword,
    /// A whole new block.
    Snippet,
    /// A rule, topology, grid, graph or claim name.
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
            [&reference::PUZZLE, &reference::SLIDING, &reference::ORDER]
                .into_iter()
                .map(|w| item(w, CompletionKind::Snippet, snippets))
                .collect()
        } else {
            Vec::new()
        };
    };
    // A Lights Out puzzle's values depend on its shape (below); the other
    // kinds take their statements and claims only.
    if !block.kind.is_lights() {
        return match done {
            [] => statements(block, Shape::Square, reference::statements_of(block.kind), snippets),
            ["expect"] => words_of(reference::claims_of(block.kind), CompletionKind::Name, snippets),
            _ => Vec::new(),
        };
    }
    let shape = shape_of(block);
    let name = CompletionKind::Name;
    let value = CompletionKind::Value;
    match (done, shape) {
        ([], _) => statements(block, shape, reference::STATEMENTS, snippets),
        (["rule"], Shape::Square) => words_of(reference::RULES, name, snippets),
        // Hex boards and graphs take the rules defined on any graph.
        (["rule"], _) => {
            words_of(reference::RULES.iter().filter(|w| ["cross", "ring"].contains(&w.word)), name, snippets)
        }
        (["topology"], Shape::Square) => words_of(reference::TOPOLOGIES, name, snippets),
        (["topology"], Shape::Hex) => {
            let hex = ["plane", "cylinder", "torus"];
            words_of(reference::TOPOLOGIES.iter().filter(|w| hex.contains(&w.word)), name, snippets)
        }
        (["grid"], _) => words_of(reference::GRIDS, name, snippets),
        (["graph"], _) => words_of(reference::GRAPHS, name, snippets),
        (["expect"], _) => words_of(reference::CLAIMS, name, snippets),
        // A graph's nodes are listed, never drawn as a grid.
        (["lights" | "goal" | "solution"], Shape::Graph) => {
            words_of(reference::VALUES[..2].iter().chain([&reference::NODE_LIST]), value, snippets)
        }
        // `holes on` would leave nothing (L0134): not offered.
        (["locked"], Shape::Graph) => {
            words_of([&reference::MASK_ON, &reference::MASK_OFF, &reference::NODE_LIST], value, snippets)
        }
        (["holes"], Shape::Graph) => words_of([&reference::MASK_OFF, &reference::NODE_LIST], value, snippets),
        (["lights" | "goal" | "solution"], _) => words_of(reference::VALUES, value, snippets),
        (["locked"], _) => words_of(
            [&reference::MASK_ON, &reference::MASK_OFF].into_iter().chain(&reference::VALUES[2..]),
            value,
            snippets,
        ),
        (["holes"], _) => words_of([&reference::MASK_OFF].into_iter().chain(&reference::VALUES[2..]), value, snippets),
        _ => Vec::new(),
    }
}

/// The shape of a puzzle block, as its statements say.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Shape {
    Square,
    Hex,
    Graph,
}

fn shape_of(block: &BlockSyntax) -> Shape {
    let kinds = || block.statements.iter().map(|s| &s.kind);
    if kinds().any(|k| matches!(k, StatementKind::Graph(_))) {
        Shape::Graph
    } else if kinds().any(|k| matches!(k, StatementKind::Grid(id) if id.text == "hex")) {
        Shape::Hex
    } else {
        Shape::Square
    }
}

/// The statements not yet in the block (`expect` may repeat) that fit its
/// shape: a graph has no `size`, `topology` or `grid`, and a block with one
/// of them is a board, not a graph.
fn statements(block: &BlockSyntax, shape: Shape, words: &[Word], snippets: bool) -> Vec<Completion> {
    let has = |kw: &str| block.statements.iter().any(|s| s.kind.keyword() == kw);
    let board = ["size", "topology", "grid"];
    let fits = |w: &str| match shape {
        Shape::Graph => !board.contains(&w),
        _ => w != "graph" || !board.iter().any(|kw| has(kw)),
    };
    words
        .iter()
        .filter(|w| w.word == "expect" || !has(w.word))
        .filter(|w| fits(w.word))
        .map(|w| {
            let snippet = shaped_snippet(shape, w.word).unwrap_or(w.snippet);
            item(&Word { snippet, ..*w }, CompletionKind::Keyword, snippets)
        })
        .collect()
}

/// A statement's snippet where the shape narrows it: the rules and
/// topologies defined there, node lists on a graph.
fn shaped_snippet(shape: Shape, word: &str) -> Option<&'static str> {
    Some(match (shape, word) {
        (Shape::Hex | Shape::Graph, "rule") => "rule ${1|cross,ring|}",
        (Shape::Hex, "topology") => "topology ${1|plane,cylinder,torus|}",
        (Shape::Graph, "locked") => "locked at ${1:1}",
        (Shape::Graph, "holes") => "holes at ${1:1}",
        (Shape::Graph, "solution") => "solution at ${1:1}",
        _ => return None,
    })
}

fn words_of<'a>(words: impl IntoIterator<Item = &'a Word>, kind: CompletionKind, snippets: bool) -> Vec<Completion> {
    words.into_iter().map(|w| item(w, kind, snippets)).collect()
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

/// Inside a grid's braces, or a written graph's: rows and edges, no words.
fn inside_grid(doc: &Document, offset: usize) -> bool {
    let statements = || doc.analysis().syntax.blocks.iter().flat_map(|b| &b.statements);
    let in_grid = statements()
        .filter_map(|s| s.kind.grid())
        .any(|grid| grid.span.start < offset && grid.close.is_none_or(|c| offset <= c.start));
    let in_edges = statements().any(|s| match &s.kind {
        StatementKind::Graph(GraphSpec::Edges(list)) => list.span.start < offset && offset < list.span.end,
        _ => false,
    });
    in_grid || in_edges
}

fn floor_boundary(text: &str, mut offset: usize) -> usize {
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    offset
}
