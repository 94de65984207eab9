//! From source text to [`SourceFile`]: run the pest grammar (which never
//! fails on `file`) and turn the recovery captures into [`SyntaxError`]s.

use pest::iterators::Pair;
use pest::Parser;

use crate::ast::*;
use crate::grammar::{LightsParser, Rule};
use crate::suggest::did_you_mean;
use crate::{SyntaxError, SyntaxErrorKind, BLOCK_KEYWORDS, SLIDING_STATEMENT_KEYWORDS, STATEMENT_KEYWORDS};

/// Parse a whole file. Never fails: malformed parts are reported in
/// [`SourceFile::errors`] and skipped.
///
/// The file is parsed one item (block, stray line, blank) at a time, each
/// step on the rest of the text: pest keeps about 100 bytes of tokens per
/// rule it matched, so parsing the whole file at once held the tokens of
/// every block until the last one was built (issue 25 item 9).
pub fn parse(src: &str) -> SourceFile {
    let mut builder = Builder { src, out: SourceFile::default(), lines: std::cell::OnceCell::new() };
    builder.file();
    let mut out = builder.out;
    out.errors.sort_by_key(|e| (e.span.start, e.span.end));
    out
}

std::thread_local! {
    /// Where the text of the step being built starts in the file: pest's
    /// positions count from the start of the text it was given.
    static STEP_START: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// Sets [`STEP_START`] for one step, and back to 0 when dropped (the
/// re-parses of single lines in `bad_statement` read no spans from pest).
struct StepStart;

impl StepStart {
    fn at(offset: usize) -> StepStart {
        STEP_START.with(|s| s.set(offset));
        StepStart
    }
}

impl Drop for StepStart {
    fn drop(&mut self) {
        STEP_START.with(|s| s.set(0));
    }
}

fn span(pair: &Pair<Rule>) -> Span {
    let s = pair.as_span();
    let base = STEP_START.with(std::cell::Cell::get);
    Span::new(base + s.start(), base + s.end())
}

fn bad_escape(text: &str) -> Option<String> {
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            match chars.next() {
                Some('"' | '\\') => {}
                Some(other) => return Some(format!("\\{other}")),
                None => return Some("\\".to_string()),
            }
        }
    }
    None
}

/// The text after a closed, quoted name at the start of `text` (`"a" (` →
/// `(`), or `None` when `text` does not start with a closed name.
fn after_closed_name(text: &str) -> Option<&str> {
    let rest = text.strip_prefix('"')?;
    let mut chars = rest.char_indices();
    while let Some((i, c)) = chars.next() {
        match c {
            '\\' => {
                chars.next();
            }
            '"' => return Some(rest[i + 1..].trim()),
            _ => {}
        }
    }
    None
}

fn children(pair: Pair<'_, Rule>) -> impl Iterator<Item = Pair<'_, Rule>> {
    pair.into_inner().filter(|p| !matches!(p.as_rule(), Rule::COMMENT | Rule::by | Rule::comma | Rule::colon))
}

struct Builder<'s> {
    src: &'s str,
    out: SourceFile,
    /// Made on first use: line numbers for messages, in O(log n) each (a
    /// scan from the start per message made broken files quadratic).
    lines: std::cell::OnceCell<crate::LineIndex>,
}

impl<'s> Builder<'s> {
    fn error(&mut self, kind: SyntaxErrorKind, span: Span, message: String, label: &str, notes: Vec<String>) {
        self.out.errors.push(SyntaxError { kind, span, message, label: label.to_string(), notes });
    }

    fn file(&mut self) {
        let src = self.src;
        // Consecutive stray lines are one mistake, not one per line: a
        // stray line waits here for the next item.
        let mut stray: Option<Span> = None;
        let mut at = 0;
        loop {
            let step = match LightsParser::parse(Rule::file_step, &src[at..]) {
                Ok(mut pairs) => pairs.next(),
                Err(err) => {
                    // The grammar is built so this cannot happen; never panic on it anyway.
                    self.error(
                        SyntaxErrorKind::OutsideBlock,
                        Span::new(at, src.len()),
                        format!("the file could not be read as `.lights`: {err}"),
                        "here",
                        vec![],
                    );
                    break;
                }
            };
            let Some(step) = step else { break };
            let _start = StepStart::at(at);
            let end = span(&step).end;
            self.file_step(step, &mut stray);
            // Every item takes at least one character; only the end takes none.
            if end <= at || end >= src.len() {
                break;
            }
            at = end;
        }
        if let Some(prev) = stray {
            self.report_stray(prev);
        }
    }

    /// One step of the file: the comments before its item, then the item.
    fn file_step(&mut self, step: Pair<'s, Rule>, stray: &mut Option<Span>) {
        // Comments can appear at any depth; collect them all, in order.
        for p in step.clone().into_inner().flatten() {
            if p.as_rule() == Rule::COMMENT {
                self.out.comments.push(span(&p));
            }
        }
        for item in step.into_inner() {
            match item.as_rule() {
                Rule::stray => {
                    let s = span(&item);
                    *stray = Some(match stray.take() {
                        Some(prev) if self.only_blank_between(prev.end, s.start) => prev.join(s),
                        Some(prev) => {
                            self.report_stray(prev);
                            s
                        }
                        None => s,
                    });
                }
                Rule::puzzle => {
                    if let Some(prev) = stray.take() {
                        self.report_stray(prev);
                    }
                    let block = self.puzzle(item);
                    self.out.blocks.push(block);
                }
                Rule::order_stmt => {
                    if let Some(prev) = stray.take() {
                        self.report_stray(prev);
                    }
                    self.order(item);
                }
                _ => {}
            }
        }
    }

    /// `order by presses|difficulty`.
    fn order(&mut self, item: Pair<'s, Rule>) {
        let whole = span(&item);
        let rest = item.into_inner().find(|p| p.as_rule() == Rule::order_rest);
        let (rest_text, rest_start) = rest.as_ref().map_or(("", whole.end), |r| (r.as_str(), r.as_span().start()));
        let words: Vec<(usize, &str)> = rest_text
            .split_whitespace()
            .map(|w| (rest_start + (w.as_ptr() as usize - rest_text.as_ptr() as usize), w))
            .collect();
        let span_of = |(at, w): (usize, &str)| Span::new(at, at + w.len());
        let statement = Span::new(whole.start, whole.start + "order".len() + rest_text.trim_end().len());
        let key = match words.as_slice() {
            [(_, "by"), key] => crate::ast::OrderKey::from_name(key.1).map(|k| (k, span_of(*key))).ok_or_else(|| {
                let suggestion = crate::suggest::did_you_mean(key.1, &crate::ast::OrderKey::NAMES)
                    .map(|s| format!("did you mean `{s}`?"));
                (
                    span_of(*key),
                    format!("unknown order `{}`: levels can be ordered by `presses` or `difficulty`", key.1),
                    suggestion,
                )
            }),
            _ => Err((statement, "expected `order by presses` or `order by difficulty`".to_string(), None)),
        };
        match key {
            Ok((key, key_span)) if self.out.order.is_none() => {
                self.out.order = Some(crate::ast::OrderSyntax { span: statement, key, key_span });
            }
            Ok(_) => {
                let first = self.out.order.as_ref().map_or(0, |o| self.line_number(o.span.start));
                self.error(
                    SyntaxErrorKind::MalformedStatement,
                    statement,
                    format!("`order` is written twice (first on line {first})"),
                    "a second `order`",
                    vec!["a file has one order: remove one of them".into()],
                );
            }
            Err((at, message, suggestion)) => {
                let mut notes =
                    vec!["`order by presses` warns when a level needs fewer presses than the one before it; \
                    `order by difficulty` when it is easier (docs/authoring/packs.md)"
                        .to_string()];
                notes.extend(suggestion);
                self.error(SyntaxErrorKind::MalformedStatement, at, message, "not an order", notes);
            }
        }
    }

    fn lines(&self) -> &crate::LineIndex {
        self.lines.get_or_init(|| crate::LineIndex::new(self.src))
    }

    /// The 1-based line of a byte offset.
    fn line_number(&self, offset: usize) -> usize {
        self.lines().line(offset) + 1
    }

    /// The byte offset where the line holding `offset` starts.
    fn line_start(&self, offset: usize) -> usize {
        let lines = self.lines();
        lines.line_start(lines.line(offset))
    }

    fn only_blank_between(&self, a: usize, b: usize) -> bool {
        self.src[a..b].chars().all(char::is_whitespace)
    }

    fn report_stray(&mut self, s: Span) {
        let text = s.text(self.src).trim();
        let first = first_word(text);
        let (message, notes) = if STATEMENT_KEYWORDS.contains(&first) {
            (
                format!("`{first}` must be inside a puzzle block"),
                vec!["wrap the statements in `puzzle \"NAME\" { … }`".to_string()],
            )
        } else if SLIDING_STATEMENT_KEYWORDS.contains(&first) {
            (
                format!("`{first}` must be inside a sliding block"),
                vec!["wrap the statements in `sliding \"NAME\" { … }`".to_string()],
            )
        } else if text.starts_with('}') {
            ("unmatched `}`: no block is open here".to_string(), vec![])
        } else {
            (
                "this text is outside any puzzle block".to_string(),
                vec!["a file holds `puzzle \"NAME\" { … }` blocks; write statements inside one".to_string()],
            )
        };
        self.error(SyntaxErrorKind::OutsideBlock, s, message, "not inside a block", notes);
    }

    fn puzzle(&mut self, pair: Pair<'s, Rule>) -> BlockSyntax {
        let block_span = span(&pair);
        let mut inner = children(pair);
        let keyword = inner.next().expect("grammar: puzzle starts with its keyword");
        let keyword_span = span(&keyword);
        let kind = match keyword.as_rule() {
            Rule::kw_sliding => BlockKind::Sliding,
            Rule::block_kw_typo => {
                let word = keyword.as_str();
                let mut notes = vec![];
                let guess = did_you_mean(word, BLOCK_KEYWORDS);
                if let Some(s) = guess {
                    notes.push(format!("did you mean `{s}`?"));
                }
                self.error(
                    SyntaxErrorKind::UnknownBlock,
                    keyword_span,
                    format!("unknown block `{word}`: blocks start with `puzzle` or `sliding`"),
                    "expected `puzzle` or `sliding`",
                    notes,
                );
                // The block is read as the kind it was probably meant to be,
                // so its statements are checked against the right rules.
                if guess == Some("sliding") {
                    BlockKind::Sliding
                } else {
                    BlockKind::Lights
                }
            }
            _ => BlockKind::Lights,
        };
        let head = inner.next().expect("grammar: puzzle has a head");
        let head_span = span(&head);
        let name = self.puzzle_head(head, keyword_span, kind);
        let body = inner.next().expect("grammar: puzzle has a body");
        let (statements, malformed) = self.body(body, kind);
        let close = inner.next().map(|p| span(&p));
        let head_all = keyword_span.join(head_span);
        if close.is_none() {
            let mut notes = vec!["add `}` on a line of its own after the block's last statement".to_string()];
            if let Some(note) = self.grid_took_the_block_brace(&statements) {
                notes.insert(0, note);
            }
            let after = statements.last().map_or(head_span.end, |s| s.span.end);
            if let Some((line, next)) = self.next_block_line(after) {
                notes.insert(
                    0,
                    format!("the `{next}` on line {line} starts a new block (blocks cannot be nested), so this one ends before it"),
                );
            }
            self.error(
                SyntaxErrorKind::UnclosedBlock,
                head_all,
                format!("this {} block is never closed", kind.keyword()),
                "opened here",
                notes,
            );
        }
        // Trim trailing blank lines out of an unclosed block's span.
        let end =
            close.map_or_else(|| statements.last().map_or(head_all.end, |s| s.span.end).max(head_all.end), |c| c.end);
        BlockSyntax { kind, span: Span::new(block_span.start, end), head: head_all, name, statements, close, malformed }
    }

    fn puzzle_head(&mut self, head: Pair<'s, Rule>, keyword: Span, kind: BlockKind) -> Option<Name> {
        let kw = kind.keyword();
        let inner = children(head).next()?;
        match inner.as_rule() {
            Rule::string => Some(self.name(inner)),
            _ => {
                let s = span(&inner);
                let text = s.text(self.src).trim_end_matches('{').trim();
                let (message, notes) = if text.is_empty() {
                    (format!("this {kw} has no name"), vec![format!("write `{kw} \"NAME\" {{`")])
                } else if let Some(escape) = bad_escape(text) {
                    (
                        format!("unknown escape `{escape}` in the puzzle name"),
                        vec!["only `\\\"` (a quote) and `\\\\` (a backslash) are escapes in names".to_string()],
                    )
                } else if let Some(rest) = after_closed_name(text) {
                    // `puzzle "a"` then a new line, or `puzzle "a" (`: the
                    // name is whole, the `{` after it is what is missing.
                    let found = rest.chars().next().map(|c| format!("found `{c}` where the `{{` goes; "));
                    (
                        format!("expected `{{` after the {kw} name"),
                        vec![format!(
                            "{}write `{kw} {} {{` on one line",
                            found.unwrap_or_default(),
                            text[..text.len() - rest.len()].trim()
                        )],
                    )
                } else if text.starts_with('"') {
                    (
                        "the puzzle name's quotes are not closed".to_string(),
                        vec!["a name is written `\"like this\"`; use `\\\"` for a quote inside it".to_string()],
                    )
                } else if !s.text(self.src).ends_with('{') && text.ends_with('"') {
                    (format!("expected `{{` after the {kw} name"), vec![])
                } else {
                    (format!("{kw} names are double-quoted: `{kw} \"{}\" {{`", text.trim_matches('"')), vec![])
                };
                let at = if s.is_empty() { keyword } else { s };
                self.error(SyntaxErrorKind::BadPuzzleHeader, at, message, "malformed header", notes);
                None
            }
        }
    }

    fn name(&mut self, string: Pair<'s, Rule>) -> Name {
        let s = span(&string);
        let raw = children(string).next().map_or("", |p| p.as_str());
        let mut value = String::with_capacity(raw.len());
        let mut chars = raw.chars();
        while let Some(c) = chars.next() {
            if c == '\\' {
                if let Some(next) = chars.next() {
                    value.push(next);
                }
            } else {
                value.push(c);
            }
        }
        Name { value, span: s }
    }

    fn body(&mut self, body: Pair<'s, Rule>, kind: BlockKind) -> (Vec<Statement>, Vec<&'static str>) {
        let mut statements = Vec::new();
        let mut malformed = Vec::new();
        for item in children(body) {
            match item.as_rule() {
                Rule::statement => {
                    let stmt = children(item).next().expect("grammar: statement has one child");
                    statements.push(self.statement(stmt));
                }
                Rule::bad_statement => malformed.extend(self.bad_statement(span(&item), kind)),
                _ => {}
            }
        }
        (statements, malformed)
    }

    /// The 1-based line and the keyword of the next block keyword
    /// (`puzzle`, `sliding`) after `offset`, when only blank lines and
    /// comments come before it.
    fn next_block_line(&self, offset: usize) -> Option<(usize, &'static str)> {
        let mut at = offset;
        for line in self.src[offset..].split_inclusive('\n') {
            let t = line.trim();
            if let Some(kw) = BLOCK_KEYWORDS.iter().find(|kw| t.starts_with(**kw)) {
                return Some((self.line_number(at), kw));
            }
            if !(t.is_empty() || t.starts_with("//")) {
                return None;
            }
            at += line.len();
        }
        None
    }

    /// When a block is unclosed because its last grid took the block's `}`
    /// (the grid's own `}` is missing), say so: that `}` is indented like
    /// the block, less than the grid's statement.
    fn grid_took_the_block_brace(&self, statements: &[Statement]) -> Option<String> {
        let last = statements.last()?;
        let close = last.kind.grid()?.close?;
        let column = |offset: usize| offset - self.line_start(offset);
        let line = self.line_number(close.start);
        let grid = last.kind.grid()?;
        let hidden = if comment_after_brace(self.src, grid.span.start) {
            " (`//` starts a comment; rows on one line are separated by a single `/`)"
        } else {
            ""
        };
        (column(close.start) < column(last.span.start)).then(|| {
            format!(
                "the `}}` on line {line} closes the `{}` grid, not the block: the grid's own `}}` seems to be missing{hidden}",
                last.kind.keyword()
            )
        })
    }

    fn statement(&mut self, pair: Pair<'s, Rule>) -> Statement {
        // The statement ends with its last token: a comment or spaces after it
        // on the same line are not part of it (diagnostics underline the statement).
        let full = span(&pair);
        // Comments can sit inside a value's pair (`at 1,1 // c` keeps the
        // comment its repetition skipped), so the end is that of the last
        // token with no comment inside it.
        let tokens: Vec<Pair<Rule>> = pair.clone().into_inner().flatten().collect();
        let comments: Vec<Span> = tokens.iter().filter(|p| p.as_rule() == Rule::COMMENT).map(span).collect();
        let end = tokens
            .iter()
            .filter(|p| p.as_rule() != Rule::COMMENT)
            .map(span)
            .filter(|t| !comments.iter().any(|c| t.start <= c.start && c.end <= t.end))
            .map(|t| t.end)
            .max()
            .unwrap_or(full.end);
        let stmt_span = Span::new(full.start, end);
        let rule = pair.as_rule();
        let mut inner = children(pair);
        let keyword = span(&inner.next().expect("grammar: statement starts with its keyword"));
        let mut next = || inner.next().expect("grammar: statement shape");
        let kind = match rule {
            Rule::size_stmt => {
                let rows = number(next());
                let cols = number(next());
                StatementKind::Size { rows, cols }
            }
            Rule::states_stmt => StatementKind::States(number(next())),
            Rule::rule_stmt => {
                let p = next();
                match p.as_rule() {
                    Rule::grid => StatementKind::Rule(RuleSpec::Stencil(self.grid(p))),
                    _ => StatementKind::Rule(RuleSpec::Named(ident(p))),
                }
            }
            Rule::topology_stmt => StatementKind::Topology(ident(next())),
            Rule::lights_stmt => StatementKind::Lights(self.value(next())),
            Rule::goal_stmt => StatementKind::Goal(self.value(next())),
            Rule::locked_stmt => StatementKind::Locked(self.value(next())),
            Rule::solution_stmt => {
                let p = next();
                match p.as_rule() {
                    Rule::string => StatementKind::MoveSolution(move_string(p)),
                    _ => StatementKind::Solution(self.value(p)),
                }
            }
            Rule::tiles_stmt => StatementKind::Tiles(self.grid(next())),
            Rule::expect_stmt => StatementKind::Expect(claim(next())),
            Rule::holes_stmt => StatementKind::Holes(self.value(next())),
            Rule::grid_stmt => StatementKind::Grid(ident(next())),
            Rule::graph_stmt => {
                let p = next();
                match p.as_rule() {
                    Rule::graph_edges => StatementKind::Graph(GraphSpec::Edges(graph_edges(p))),
                    _ => StatementKind::Graph(GraphSpec::Named { name: ident(p), size: inner.next().map(number) }),
                }
            }
            other => unreachable!("grammar: unexpected statement rule {other:?}"),
        };
        Statement { span: stmt_span, keyword, kind }
    }

    fn value(&mut self, pair: Pair<'s, Rule>) -> Value {
        let inner = children(pair).next().expect("grammar: value has one child");
        match inner.as_rule() {
            Rule::kw_on => Value::On(span(&inner)),
            Rule::kw_off => Value::Off(span(&inner)),
            Rule::grid => Value::Grid(self.grid(inner)),
            Rule::sparse => Value::Sparse(sparse(inner)),
            other => unreachable!("grammar: unexpected value rule {other:?}"),
        }
    }

    fn grid(&mut self, pair: Pair<'s, Rule>) -> Grid {
        let grid_span = span(&pair);
        let mut rows = Vec::new();
        let mut close = None;
        for p in children(pair) {
            match p.as_rule() {
                Rule::row => {
                    let row_pair = children(p).next().expect("grammar: row has one child");
                    rows.push(self.row(row_pair));
                }
                Rule::grid_close => close = Some(span(&p)),
                Rule::row_sep => self.row_separator(span(&p)),
                _ => {}
            }
        }
        if close.is_none() {
            let open = Span::new(grid_span.start, grid_span.start + 1);
            let mut notes = vec!["add `}` after the grid's last row".into()];
            // `{ .1. // 111 }`: the second row and the `}` went into a comment.
            if comment_after_brace(self.src, open.start) {
                notes.push("`//` starts a comment, which hides the rest of the line; rows on one line are separated by a single `/`".into());
            }
            self.error(SyntaxErrorKind::UnclosedGrid, open, "this grid is never closed".into(), "opened here", notes);
        }
        let end = close.map(|c| c.end).or_else(|| rows.last().map(|r| r.span.end)).unwrap_or(grid_span.end);
        Grid { span: Span::new(grid_span.start, end), rows, close }
    }

    fn row(&mut self, pair: Pair<'s, Rule>) -> Row {
        match pair.as_rule() {
            Rule::spaced_row => {
                let tokens: Vec<Span> = cells(pair.as_str(), span(&pair).start).collect();
                let row_span = match (tokens.first(), tokens.last()) {
                    (Some(first), Some(last)) => first.join(*last),
                    _ => span(&pair),
                };
                Row { span: row_span, form: RowForm::Spaced, tokens }
            }
            Rule::compact_row => {
                // The token, without the blanks the row ends with.
                let token = cells(pair.as_str(), span(&pair).start).next().unwrap_or_else(|| span(&pair));
                Row { span: token, form: RowForm::Compact, tokens: vec![token] }
            }
            _ => {
                let raw = span(&pair);
                let trimmed_len = raw.text(self.src).trim_end().len();
                let s = Span::new(raw.start, raw.start + trimmed_len);
                self.bad_row(s);
                Row { span: s, form: RowForm::Bad, tokens: vec![s] }
            }
        }
    }

    /// A `/` between two rows on one line (`{ .1. / 111 / .1. }`): a row
    /// must stand on each side of it.
    fn row_separator(&mut self, sep: Span) {
        let line_start = self.line_start(sep.start);
        let before = self.src[line_start..sep.start].rsplit(['{', '/']).next().unwrap_or("");
        let rest = &self.src[sep.end..];
        let after_end = rest.find(['\n', '/', '}']).unwrap_or(rest.len());
        let after = &rest[..after_end];
        // `1 / / 1` is one mistake: the second `/` reports it.
        let next_is_a_separator = rest[after_end..].starts_with('/');
        let side = if before.trim().is_empty() {
            "before"
        } else if after.trim().is_empty() && !next_is_a_separator {
            "after"
        } else {
            return;
        };
        self.error(
            SyntaxErrorKind::BadRow,
            sep,
            format!("no row {side} this `/`"),
            "separates two rows",
            vec![
                "`/` separates rows written on one line, as in `{ .1. / 111 / .1. }`; an empty row has no cells".into()
            ],
        );
    }

    fn bad_row(&mut self, s: Span) {
        let text = s.text(self.src);
        // Point at the first character that cannot be in a row.
        let bad =
            text.char_indices().find(|(_, c)| !(c.is_ascii_digit() || *c == '.' || *c == 'x' || c.is_whitespace()));
        let (at, message) = match bad {
            Some((i, c)) => (
                Span::new(s.start + i, s.start + i + c.len_utf8()),
                format!("`{c}` cannot be a cell: cells are `.`, `x` or numbers"),
            ),
            None => (s, "a row is either spaced (`. 1 . 12`) or compact (`.1.2`), not a mix".into()),
        };
        self.error(
            SyntaxErrorKind::BadRow,
            at,
            message,
            "in this row",
            vec!["a row is one line, or rows share a line separated by `/`; its cells are separated by spaces, or one character each".into()],
        );
    }

    /// A line inside a block that is not a statement: say why, as precisely as we can.
    /// Returns the statement's keyword when the keyword itself was right.
    fn bad_statement(&mut self, s: Span, kind: BlockKind) -> Option<&'static str> {
        let raw = s.text(self.src);
        let s = Span::new(s.start, s.start + raw.trim_end().len());
        let text = s.text(self.src);
        let word = first_word(text);
        let keywords = kind.statement_keywords();
        let Some(rule) = statement_rule(word) else {
            let mut notes = Vec::new();
            let guess = did_you_mean(word, keywords);
            if let Some(m) = guess {
                notes.push(format!("did you mean `{m}`?"));
            }
            notes.push(match kind {
                BlockKind::Lights => format!("statements are: {}", keywords.join(", ")),
                BlockKind::Sliding => format!("statements of a sliding block are: {}", keywords.join(", ")),
            });
            // No word: the first character, whole (it may take several bytes).
            let first_len = if word.is_empty() { text.chars().next().map_or(0, char::len_utf8) } else { word.len() };
            let word_span = Span::new(s.start, s.start + first_len);
            let message = if word.is_empty() {
                format!("unexpected `{}`", text.chars().next().unwrap_or(' '))
            } else {
                format!("unknown statement `{word}`")
            };
            self.error(SyntaxErrorKind::UnknownStatement, word_span, message, "not a statement", notes);
            // A misspelt keyword counts as that statement written badly, so a
            // misspelt `size` is one error, not also "missing `size`".
            return guess.and_then(|m| keywords.iter().copied().find(|k| *k == m));
        };
        let keyword = STATEMENT_KEYWORDS.iter().chain(SLIDING_STATEMENT_KEYWORDS).copied().find(|k| *k == word);
        // Re-parse the line on its own with the statement's own rule: pest
        // then tells us where it stops matching and what it expected there.
        let (at, expected, found) = match LightsParser::parse(rule, text) {
            Ok(_) => (s, String::from("the end of the line"), String::new()),
            Err(err) => {
                let pos = match err.location {
                    pest::error::InputLocation::Pos(p) => p,
                    pest::error::InputLocation::Span((p, _)) => p,
                };
                let rest = &text[pos.min(text.len())..];
                let found = first_token(rest);
                let expected = match &err.variant {
                    pest::error::ErrorVariant::ParsingError { positives, .. } => {
                        describe_expected(positives, word, kind)
                    }
                    pest::error::ErrorVariant::CustomError { message } => message.clone(),
                };
                let start = s.start + pos.min(text.len());
                let end = if found.is_empty() { start } else { start + found.len() };
                (Span::new(start, end.max(start)), expected, found.to_string())
            }
        };
        let mut notes = vec![format!("write it as {}", statement_shape(word, kind))];
        // `solution "LLUR` (the string ends at the end of the line).
        let rest = &self.src[at.start.min(s.end)..s.end];
        if kind == BlockKind::Sliding && word == "solution" && rest.starts_with('"') && rest.matches('"').count() == 1 {
            notes.insert(0, "the string's closing `\"` is missing".to_string());
        }
        if word == "expect" && !found.is_empty() {
            if let Some(m) = did_you_mean(&found, kind.claim_keywords()) {
                notes.insert(0, format!("did you mean `{m}`?"));
            }
        }
        let found_desc = if found.is_empty() { "the end of the line".to_string() } else { format!("`{found}`") };
        self.error(
            SyntaxErrorKind::MalformedStatement,
            if at.is_empty() { s } else { at },
            format!("malformed `{word}` statement: expected {expected}, found {found_desc}"),
            &format!("expected {expected}"),
            notes,
        );
        keyword
    }
}

fn number(pair: Pair<Rule>) -> Number {
    Number { span: span(&pair), text: pair.as_str().to_string() }
}

fn ident(pair: Pair<Rule>) -> Ident {
    Ident { span: span(&pair), text: pair.as_str().to_string() }
}

fn claim(pair: Pair<Rule>) -> Claim {
    let s = span(&pair);
    let mut inner = children(pair);
    let kw = inner.next().expect("grammar: claim keyword");
    let kind = match kw.as_rule() {
        Rule::kw_solvable => ClaimKind::Solvable,
        Rule::kw_unsolvable => ClaimKind::Unsolvable,
        Rule::kw_unique => ClaimKind::Unique,
        Rule::kw_solutions => ClaimKind::Solutions(number(inner.next().expect("grammar: count"))),
        Rule::kw_presses | Rule::kw_difficulty => {
            let range = inner.next().expect("grammar: count_range");
            let mut ints = range.into_inner().filter(|p| p.as_rule() == Rule::int);
            let low = number(ints.next().expect("grammar: count"));
            let high = ints.next().map(number);
            match (kw.as_rule(), high) {
                (Rule::kw_presses, Some(high)) => ClaimKind::PressesBetween(low, high),
                (Rule::kw_presses, None) => ClaimKind::Presses(low),
                (_, high) => ClaimKind::Difficulty(low, high),
            }
        }
        Rule::kw_moves => ClaimKind::Moves(number(inner.next().expect("grammar: count"))),
        other => unreachable!("grammar: unexpected claim rule {other:?}"),
    };
    Claim { span: s, kind }
}

fn move_string(pair: Pair<Rule>) -> MoveString {
    let s = span(&pair);
    // `string` is `"` ~ string_inner ~ `"`: the inner text is between the quotes.
    MoveString { span: s, inner: Span::new(s.start + 1, s.end.saturating_sub(1).max(s.start + 1)) }
}

fn graph_edges(pair: Pair<Rule>) -> GraphEdges {
    let whole = span(&pair);
    let items = pair
        .into_inner()
        .filter(|p| matches!(p.as_rule(), Rule::graph_edge | Rule::graph_node))
        .map(|item| {
            let s = span(&item);
            let mut nums = digit_runs(item.as_str(), s.start);
            let a = nums.next().unwrap_or(s);
            GraphItem::new(s, a, nums.next())
        })
        .collect();
    GraphEdges { span: whole, items }
}

/// The spans of the runs of ASCII digits of `text` (which starts at
/// `offset`): the ends of an atomic `graph_edge` (`12 - 7`) or a `graph_node`.
fn digit_runs(text: &str, offset: usize) -> impl Iterator<Item = Span> + '_ {
    let bytes = text.as_bytes();
    let mut i = 0;
    std::iter::from_fn(move || {
        while i < bytes.len() && !bytes[i].is_ascii_digit() {
            i += 1;
        }
        let start = i;
        while i < bytes.len() && bytes[i].is_ascii_digit() {
            i += 1;
        }
        (i > start).then(|| Span::new(offset + start, offset + i))
    })
}

/// The cells of an atomic grid row (`text` starts at `offset`): the runs of
/// text between blanks (spaces, tabs, BOMs: the grammar's `WHITESPACE`).
fn cells(text: &str, offset: usize) -> impl Iterator<Item = Span> + '_ {
    let blank = |c: char| matches!(c, ' ' | '\t' | '\u{FEFF}');
    let mut rest = text.char_indices().peekable();
    std::iter::from_fn(move || {
        while rest.next_if(|&(_, c)| blank(c)).is_some() {}
        let (start, _) = *rest.peek()?;
        let mut end = start;
        while let Some((i, c)) = rest.next_if(|&(_, c)| !blank(c)) {
            end = i + c.len_utf8();
        }
        Some(Span::new(offset + start, offset + end))
    })
}

/// One atomic `entry`: `int (, int)? (: int)?`, blanks allowed around the
/// separators, which tell which number is which.
fn entry(text: &str, offset: usize) -> Entry {
    let whole = Span::new(offset, offset + text.len());
    let number_at =
        |s: Span| Number { span: s, text: text.get(s.start - offset..s.end - offset).unwrap_or("").to_string() };
    let row = number_at(digit_runs(text, offset).next().unwrap_or(whole));
    let (mut col, mut value) = (None, None);
    for (i, c) in text.char_indices() {
        let slot = match c {
            ',' => &mut col,
            ':' => &mut value,
            _ => continue,
        };
        // The number after this separator: the first run of digits past it.
        *slot = digit_runs(&text[i..], offset + i).next().map(number_at);
    }
    Entry { span: whole, row, col, value }
}

fn sparse(pair: Pair<Rule>) -> Sparse {
    let whole = span(&pair);
    let entries = children(pair)
        .filter(|p| p.as_rule() == Rule::entry)
        .map(|e| {
            let mut entry = entry(e.as_str(), span(&e).start);
            // An entry's span goes on over the blanks after it, as it did
            // when the rule was not atomic (labels and edits rely on it).
            let after = &e.as_span().get_input()[e.as_span().end()..];
            entry.span.end += after.len() - after.trim_start_matches([' ', '\t', '\u{FEFF}']).len();
            entry
        })
        .collect::<Vec<Entry>>();
    // The list ends with its last entry, not with a comment after it.
    let end = entries.last().map_or(whole.end, |e| e.span.end);
    Sparse { span: Span::new(whole.start, end), entries }
}

/// Whether the line of the grid opened at `open` goes on into a `//`
/// comment: `{ .1. // 111 }` meant `/` and lost its `}` to the comment.
fn comment_after_brace(src: &str, open: usize) -> bool {
    let rest = &src[open..];
    rest[..rest.find('\n').unwrap_or(rest.len())].contains("//")
}

fn first_word(text: &str) -> &str {
    // Letters beyond ASCII belong to the word too (`sizé` is one wrong word, not `siz` + `é`).
    let end = text.find(|c: char| !(c.is_alphanumeric() || c == '-' || c == '_')).unwrap_or(text.len());
    &text[..end]
}

fn first_token(text: &str) -> &str {
    let text = text.split(['\n', '\r']).next().unwrap_or("");
    if text.starts_with(|c: char| c.is_ascii_alphanumeric()) {
        first_word(text)
    } else {
        let end = text.find(char::is_whitespace).unwrap_or(text.len());
        // Keep it short and on a char boundary.
        let mut end = end.min(12);
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        &text[..end]
    }
}

fn statement_rule(word: &str) -> Option<Rule> {
    Some(match word {
        "size" => Rule::size_stmt,
        "states" => Rule::states_stmt,
        "rule" => Rule::rule_stmt,
        "topology" => Rule::topology_stmt,
        "lights" => Rule::lights_stmt,
        "goal" => Rule::goal_stmt,
        "locked" => Rule::locked_stmt,
        "expect" => Rule::expect_stmt,
        "solution" => Rule::solution_stmt,
        "tiles" => Rule::tiles_stmt,
        "holes" => Rule::holes_stmt,
        "grid" => Rule::grid_stmt,
        "graph" => Rule::graph_stmt,
        _ => return None,
    })
}

/// The canonical shape of each statement in a block of this kind, for error notes.
pub(crate) fn statement_shape(keyword: &str, kind: BlockKind) -> &'static str {
    if kind == BlockKind::Sliding {
        match keyword {
            "size" => return "`size R x C` with R, C ≥ 2, e.g. `size 4x4`",
            "goal" => return "`goal { GRID }` of tiles and one `.` for the blank",
            "expect" => return "`expect solvable`, `unsolvable` or `moves N`",
            "solution" => return "`solution \"LLUR\"`: the moves of the blank, U D L R",
            _ => {}
        }
    }
    match keyword {
        "size" => "`size R x C`, e.g. `size 5x5`",
        "states" => "`states W` with 2 ≤ W ≤ 65536, e.g. `states 3`",
        "rule" => "`rule NAME` (cross, king, flip, merlin) or `rule { STENCIL }`",
        "topology" => "`topology NAME` (plane, cylinder, torus, mobius, klein, projective)",
        "lights" => "`lights on`, `lights off`, `lights { GRID }` or `lights at 2,3 4,5:2`",
        "goal" => "`goal on`, `goal off`, `goal { GRID }` or `goal at 2,3 4,5:2`",
        "locked" => "`locked { MASK }` (cells `.` or `x`) or `locked at 1,1 5,5`",
        "expect" => "`expect solvable`, `unsolvable`, `unique`, `solutions N` or `presses N`",
        "solution" => "`solution { GRID }` of press counts, or `solution at 1,1 2,3`",
        "tiles" => "`tiles { GRID }`: tile numbers and one `.` for the blank",
        "holes" => "`holes { MASK }` (cells `.` or `x`) or `holes at 3,3`",
        "grid" => "`grid square` or `grid hex`",
        "graph" => "`graph NAME` (e.g. `graph petersen`, `graph cycle 7`) or `graph { 1-2 2-3 }`",
        _ => "a statement",
    }
}

/// What the parser expected, in words. `keyword` is the statement's
/// keyword; the block's kind leaves out what only the other kind takes.
fn describe_expected(positives: &[Rule], keyword: &str, kind: BlockKind) -> String {
    let sliding = kind == BlockKind::Sliding;
    let mut names: Vec<&str> = Vec::new();
    for r in positives {
        let n = match r {
            // A string of moves is a sliding block's solution only.
            Rule::string if sliding => "a quoted string of moves such as `\"LLUR\"`",
            Rule::string => continue,
            // A sliding block's `goal` is a grid; its `solution` is a string.
            Rule::value if sliding && keyword == "solution" => continue,
            Rule::value if sliding => "`{`",
            Rule::claim if sliding => "a claim (solvable, unsolvable, moves N)",
            Rule::kw_unique | Rule::kw_solutions | Rule::kw_presses | Rule::kw_difficulty if sliding => continue,
            Rule::kw_moves if sliding => "`moves`",
            Rule::kw_moves => continue,
            Rule::int => "a number",
            Rule::name => "a name",
            Rule::grid => "`{`",
            Rule::value => "`on`, `off`, `{` or `at`",
            Rule::sparse | Rule::kw_at => "`at`",
            Rule::kw_on => "`on`",
            Rule::kw_off => "`off`",
            Rule::entry => "a coordinate `row,column` (or a node number on a graph)",
            Rule::graph_edges => "`{`",
            Rule::graph_edge => "an edge `a-b`",
            Rule::graph_node => "a node number",
            Rule::claim => {
                "a claim (solvable, unsolvable, unique, solutions N, presses N, presses A..B, difficulty A..B)"
            }
            Rule::kw_solvable => "`solvable`",
            Rule::kw_unsolvable => "`unsolvable`",
            Rule::kw_unique => "`unique`",
            Rule::kw_solutions => "`solutions`",
            Rule::kw_presses => "`presses`",
            Rule::kw_difficulty => "`difficulty`",
            Rule::range_to => "`..` (as in `presses 4..8`)",
            Rule::count_range => "a number, or a range `A..B`",
            Rule::EOI => "the end of the line",
            Rule::grid_close => "`}`",
            Rule::by => "`x` (as in `5x5`)",
            Rule::comma => "`,` (as in `2,3`)",
            Rule::colon => "`:`",
            _ => continue,
        };
        if !names.contains(&n) {
            names.push(n);
        }
    }
    match names.len() {
        0 => "a complete statement".into(),
        1 => names[0].into(),
        _ => {
            let last = names.pop().unwrap_or_default();
            format!("{} or {}", names.join(", "), last)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_unexpected_character_is_spanned_whole() {
        // Found by the `parse` fuzz target: a 1-byte span inside `×`.
        let src = "puzzle \"a\" {\n  \u{d7}28 cross\n}\n";
        let f = parse(src);
        let e = f.errors.iter().find(|e| e.message == "unexpected `\u{d7}`").expect("the error");
        assert_eq!(e.span.text(src), "\u{d7}");
    }

    #[test]
    fn a_misspelt_keyword_is_one_word_and_counts_as_that_statement() {
        let f = parse("puzzle \"a\" {\n  sizé 2x2\n}\n");
        assert_eq!(f.errors.len(), 1);
        assert_eq!(f.errors[0].message, "unknown statement `sizé`");
        assert_eq!(f.blocks[0].malformed, ["size"]);
    }

    #[test]
    fn an_unknown_escape_in_a_name_is_named() {
        let f = parse("puzzle \"a\\ab\" {\n  size 2x2\n}\n");
        assert_eq!(f.errors.len(), 1);
        assert_eq!(f.errors[0].message, "unknown escape `\\a` in the puzzle name");
        let f = parse("puzzle \"a\\\" {\n  size 2x2\n}\n");
        assert_eq!(f.errors[0].message, "the puzzle name's quotes are not closed");
    }

    #[test]
    fn a_missing_brace_after_a_closed_name_is_named() {
        for src in ["puzzle \"my level\"\n  size 3x3\n}\n", "puzzle \"my level\" (\n  size 3x3\n}\n"] {
            let f = parse(src);
            assert_eq!(f.errors.len(), 1, "{src:?}: {:?}", f.errors);
            assert_eq!(f.errors[0].message, "expected `{` after the puzzle name", "{src:?}");
            assert!(f.errors[0].notes[0].contains("`puzzle \"my level\" {`"), "{:?}", f.errors[0].notes);
        }
        assert!(parse("puzzle \"a\" (\n  size 2x2\n}\n").errors[0].notes[0].starts_with("found `(`"));
        let f = parse("sliding \"s\"\n  size 3x3\n}\n");
        assert_eq!(f.errors[0].message, "expected `{` after the sliding name");
        // A name with an escaped quote that is never closed is still that.
        let f = parse("puzzle \"a\\\" b\n  size 2x2\n}\n");
        assert_eq!(f.errors[0].message, "the puzzle name's quotes are not closed");
    }

    #[test]
    fn unclosed_braces_in_junk_are_one_error_per_line() {
        // Each line opens a brace that never closes. Recovery must not look
        // for the `}` past the rows that could belong to it (that made such
        // files quadratic to parse: 8,000 lines took 37 s).
        let junk: String = (0..20_000).map(|i| format!("junk {i} {{{{ )) x\nmore {i} {{\n")).collect();
        // At the top level, consecutive stray lines are one error.
        assert_eq!(parse(&junk).errors.len(), 1);
        let inside = format!("puzzle \"p\" {{\n{junk}  size 2x2\n}}\n");
        let f = parse(&inside);
        assert_eq!(f.blocks.len(), 1);
        assert_eq!(f.errors.len(), 40_000);
        // A misspelt statement with a grid below is still one mistake.
        let typo = parse("puzzle \"p\" {\n  size 2x2\n  lightz {\n    1 .\n    . 1 // c\n  }\n}\n");
        assert_eq!(typo.errors.len(), 1, "{:?}", typo.errors);
    }

    #[test]
    fn parses_the_first_file_of_the_reference() {
        let src = "// Classic\npuzzle \"classic\" {\n  size 5x5\n  lights {\n    . 1 . . .\n    1 1 1 . .\n    . 1 . . .\n    . . . . .\n    . . . . .\n  }\n  expect solvable\n}\n";
        let f = parse(src);
        assert!(f.errors.is_empty(), "{:?}", f.errors);
        assert_eq!(f.blocks.len(), 1);
        let p = &f.blocks[0];
        assert_eq!(p.name.as_ref().unwrap().value, "classic");
        assert_eq!(p.statements.len(), 3);
        let StatementKind::Lights(Value::Grid(g)) = &p.statements[1].kind else { panic!() };
        assert_eq!(g.rows.len(), 5);
        assert_eq!(g.rows[1].cells(5).len(), 5);
        assert_eq!(f.comments.len(), 1);
    }

    #[test]
    fn size_forms_and_compact_rows() {
        let src = "puzzle \"a\" {\n size 2 x 3\n lights {\n .1.\n 1x1 // c\n }\n}\npuzzle \"b\" { size 1x1 }\n";
        let f = parse(src);
        assert!(f.errors.is_empty(), "{:?}", f.errors);
        assert_eq!(f.blocks.len(), 2);
        let StatementKind::Lights(Value::Grid(g)) = &f.blocks[0].statements[1].kind else { panic!() };
        assert_eq!(g.rows[0].form, RowForm::Compact);
        assert_eq!(g.rows[1].cells(3).len(), 3);
        assert_eq!(f.comments.len(), 1);
    }

    #[test]
    fn rows_on_one_line_are_separated_by_slashes() {
        let src = "puzzle \"a\" {\n size 3x3\n rule { .1. / 111 / .1. }\n lights { 1 . 1 /. 1 ./1 . 1 } // c\n}\n";
        let f = parse(src);
        assert!(f.errors.is_empty(), "{:?}", f.errors);
        let StatementKind::Rule(RuleSpec::Stencil(g)) = &f.blocks[0].statements[1].kind else { panic!() };
        let rows: Vec<&str> = g.rows.iter().map(|r| r.span.text(src)).collect();
        assert_eq!(rows, [".1.", "111", ".1."]);
        let StatementKind::Lights(Value::Grid(g)) = &f.blocks[0].statements[2].kind else { panic!() };
        assert_eq!(g.rows.iter().map(|r| r.form).collect::<Vec<_>>(), [RowForm::Spaced; 3]);
        assert_eq!(g.rows[1].cells(3).iter().map(|c| c.text(src)).collect::<Vec<_>>(), [".", "1", "."]);
        assert_eq!(f.comments.len(), 1);
    }

    #[test]
    fn an_empty_row_between_slashes_is_an_error() {
        for (src, message) in [
            ("puzzle \"a\" {\n size 1x1\n rule { 1 / / 1 }\n}\n", "no row before this `/`"),
            ("puzzle \"a\" {\n size 1x1\n rule { / 1 }\n}\n", "no row before this `/`"),
            ("puzzle \"a\" {\n size 1x1\n rule { 1 / }\n}\n", "no row after this `/`"),
        ] {
            let f = parse(src);
            assert_eq!(f.errors.len(), 1, "{src}: {:?}", f.errors);
            assert_eq!(f.errors[0].message, message, "{src}");
            assert_eq!(f.errors[0].span.text(src), "/");
        }
    }

    #[test]
    fn a_double_slash_between_rows_is_a_comment_and_says_so() {
        // The next statement ends the grid: the grid is unclosed.
        let f = parse("puzzle \"a\" {\n size 1x1\n rule { .1. // 111 / .1. }\n lights on\n}\n");
        let unclosed = f.errors.iter().find(|e| e.message == "this grid is never closed").expect("unclosed grid");
        assert!(unclosed.notes.iter().any(|n| n.contains("single `/`")), "{:?}", unclosed.notes);
        // The block's `}` closes the grid: the block is unclosed.
        let f = parse("puzzle \"a\" {\n size 1x1\n rule { .1. // 111 / .1. }\n}\n");
        assert_eq!(f.errors.len(), 1, "{:?}", f.errors);
        assert!(f.errors[0].notes.iter().any(|n| n.contains("single `/`")), "{:?}", f.errors[0].notes);
    }

    #[test]
    fn three_mistakes_three_errors() {
        let src = "puzzle \"a\" {\n  size 5x\n  lightz on\n  lights {\n    . ? .\n  }\n}\n";
        let f = parse(src);
        let kinds: Vec<_> = f.errors.iter().map(|e| e.kind).collect();
        assert_eq!(
            kinds,
            vec![SyntaxErrorKind::MalformedStatement, SyntaxErrorKind::UnknownStatement, SyntaxErrorKind::BadRow]
        );
        assert_eq!(f.blocks[0].statements.len(), 1);
    }

    #[test]
    fn unclosed_block_and_grid_recover() {
        let src = "puzzle \"a\" {\n  size 2x2\n  lights {\n    1 1\n  goal on\npuzzle \"b\" {\n size 1x1\n}\n";
        let f = parse(src);
        let kinds: Vec<_> = f.errors.iter().map(|e| e.kind).collect();
        assert_eq!(kinds, vec![SyntaxErrorKind::UnclosedBlock, SyntaxErrorKind::UnclosedGrid]);
        assert_eq!(f.blocks.len(), 2);
        assert_eq!(f.blocks[0].statements.len(), 3);
    }

    const LOYD: &str = "sliding \"loyd\" {\n  size 4x4\n  tiles {\n     1  2  3  4\n     5  6  7  8\n     9 10 11 12\n    13 15 14  .\n  }\n  expect unsolvable\n  expect moves 7\n  solution \"LLU RDR\" // c\n}\n";

    #[test]
    fn parses_a_sliding_block() {
        let f = parse(LOYD);
        assert!(f.errors.is_empty(), "{:?}", f.errors);
        assert_eq!(f.blocks.len(), 1);
        let p = &f.blocks[0];
        assert_eq!(p.kind, BlockKind::Sliding);
        assert_eq!(p.name.as_ref().unwrap().value, "loyd");
        let keywords: Vec<&str> = p.statements.iter().map(|s| s.kind.keyword()).collect();
        assert_eq!(keywords, ["size", "tiles", "expect", "expect", "solution"]);
        let StatementKind::Tiles(g) = &p.statements[1].kind else { panic!("{:?}", p.statements[1].kind) };
        assert_eq!(g.rows.len(), 4);
        let last: Vec<&str> = g.rows[3].cells(4).iter().map(|c| c.text(LOYD)).collect();
        assert_eq!(last, ["13", "15", "14", "."]);
        assert!(p.statements[1].kind.grid().is_some(), "tiles is a grid statement");
        let StatementKind::Expect(Claim { kind: ClaimKind::Moves(n), .. }) = &p.statements[3].kind else { panic!() };
        assert_eq!(n.value(), Some(7));
        let StatementKind::MoveSolution(m) = &p.statements[4].kind else { panic!() };
        assert_eq!(m.span.text(LOYD), "\"LLU RDR\"");
        assert_eq!(m.inner.text(LOYD), "LLU RDR");
        // The statement ends with its string, not with the comment after it.
        assert!(p.statements[4].span.text(LOYD).ends_with('"'));
        assert_eq!(f.comments.len(), 1);
        // An empty string is zero moves.
        let f = parse("sliding \"s\" { size 2x2 tiles { 12\n3. } solution \"\" }\n");
        assert!(f.errors.is_empty(), "{:?}", f.errors);
        let StatementKind::MoveSolution(m) = &f.blocks[0].statements[2].kind else { panic!() };
        assert!(m.inner.is_empty());
    }

    #[test]
    fn both_kinds_of_block_share_a_file_and_puzzles_parse_as_before() {
        let src = format!("puzzle \"p\" {{\n  size 2x2\n  lights on\n}}\n\n{LOYD}\npuzzle \"q\" {{ size 1x1 }}\n");
        let f = parse(&src);
        assert!(f.errors.is_empty(), "{:?}", f.errors);
        let kinds: Vec<BlockKind> = f.blocks.iter().map(|p| p.kind).collect();
        assert_eq!(kinds, [BlockKind::Lights, BlockKind::Sliding, BlockKind::Lights]);
        // The other kind's statements parse in either block (the compiler reports them).
        let f = parse("puzzle \"p\" {\n  size 2x2\n  tiles { 1 2 }\n  solution \"LR\"\n  expect moves 3\n}\n");
        assert!(f.errors.is_empty(), "{:?}", f.errors);
        assert_eq!(f.blocks[0].statements.len(), 4);
    }

    #[test]
    fn a_misspelt_block_keyword_opens_the_kind_it_is_nearest_to() {
        let f = parse("slidnig \"x\" {\n  size 2x2\n}\n");
        assert_eq!(f.errors.len(), 1, "{:?}", f.errors);
        assert_eq!(f.errors[0].kind, SyntaxErrorKind::UnknownBlock);
        assert_eq!(f.errors[0].message, "unknown block `slidnig`: blocks start with `puzzle` or `sliding`");
        assert_eq!(f.errors[0].notes, ["did you mean `sliding`?"]);
        assert_eq!(f.blocks[0].kind, BlockKind::Sliding);
        assert_eq!(f.blocks[0].statements.len(), 1);
        let f = parse("puzzel \"x\" {\n  size 2x2\n}\n");
        assert_eq!(f.errors[0].notes, ["did you mean `puzzle`?"]);
        assert_eq!(f.blocks[0].kind, BlockKind::Lights);
        // A word near neither is read as a puzzle block, without a suggestion.
        let f = parse("board \"x\" {\n  size 2x2\n}\n");
        assert!(f.errors[0].notes.is_empty());
        assert_eq!(f.blocks[0].kind, BlockKind::Lights);
    }

    #[test]
    fn a_broken_sliding_block_does_not_swallow_the_next_block() {
        // Unclosed sliding block, then a puzzle.
        let src = "sliding \"a\" {\n  size 2x2\n  tiles {\n    1 2\n    3 .\n  }\n\npuzzle \"b\" {\n  size 3x3\n}\n";
        let f = parse(src);
        assert_eq!(f.blocks.len(), 2);
        assert_eq!(f.errors.len(), 1, "{:?}", f.errors);
        assert_eq!(f.errors[0].kind, SyntaxErrorKind::UnclosedBlock);
        assert_eq!(f.errors[0].message, "this sliding block is never closed");
        assert!(f.errors[0].notes[0].starts_with("the `puzzle` on line 8 starts a new block"), "{:?}", f.errors[0]);
        assert_eq!(f.blocks[1].kind, BlockKind::Lights);
        assert_eq!(f.blocks[1].statements.len(), 1);
        // Unclosed puzzle block, then a sliding block.
        let src = "puzzle \"a\" {\n  size 2x2\n\nsliding \"b\" {\n  size 2x2\n  tiles { 12\n  3. }\n}\n";
        let f = parse(src);
        assert_eq!(f.blocks.len(), 2);
        assert_eq!(f.errors.len(), 1, "{:?}", f.errors);
        assert_eq!(f.errors[0].message, "this puzzle block is never closed");
        assert!(f.errors[0].notes[0].starts_with("the `sliding` on line 4 starts a new block"), "{:?}", f.errors[0]);
        assert_eq!(f.blocks[1].kind, BlockKind::Sliding);
        assert_eq!(f.blocks[1].statements.len(), 2);
        // An unclosed tiles grid ends before the next statement.
        let f = parse("sliding \"a\" {\n  size 2x2\n  tiles {\n    1 2\n    3 .\n  expect solvable\n}\n");
        let kinds: Vec<_> = f.errors.iter().map(|e| e.kind).collect();
        assert_eq!(kinds, [SyntaxErrorKind::UnclosedGrid]);
        assert_eq!(f.blocks[0].statements.len(), 3);
    }

    #[test]
    fn mistakes_in_sliding_blocks_are_described_in_sliding_terms() {
        let src = "sliding \"a\" {\n  size 2x2\n  tilez {\n    1 2\n    3 .\n  }\n  expect movs 3\n  solution LLR\n}\n";
        let f = parse(src);
        let messages: Vec<&str> = f.errors.iter().map(|e| e.message.as_str()).collect();
        assert_eq!(
            messages,
            [
                "unknown statement `tilez`",
                "malformed `expect` statement: expected a claim (solvable, unsolvable, moves N), found `movs`",
                "malformed `solution` statement: expected a quoted string of moves such as `\"LLUR\"`, found `LLR`",
            ]
        );
        assert_eq!(
            f.errors[0].notes,
            ["did you mean `tiles`?", "statements of a sliding block are: size, tiles, goal, expect, solution"]
        );
        assert_eq!(f.errors[1].notes[0], "did you mean `moves`?");
        // The misspelt `tilez` counts as `tiles` written badly (no "missing `tiles`" later).
        assert_eq!(f.blocks[0].malformed, ["tiles", "expect", "solution"]);
        // A string of moves without its closing quote.
        let f = parse("sliding \"a\" {\n  solution \"LLR\n}\n");
        assert_eq!(f.errors.len(), 1, "{:?}", f.errors);
        assert_eq!(f.errors[0].notes[0], "the string's closing `\"` is missing");
        // In a puzzle block, the same mistakes read as before.
        let f = parse("puzzle \"a\" {\n  solution\n  expect movs\n}\n");
        assert_eq!(
            f.errors[0].message,
            "malformed `solution` statement: expected `on`, `off`, `{` or `at`, found the end of the line"
        );
        assert!(f.errors[1]
            .message
            .contains("(solvable, unsolvable, unique, solutions N, presses N, presses A..B, difficulty A..B)"));
    }

    #[test]
    fn a_stray_tiles_statement_belongs_in_a_sliding_block() {
        let f = parse("tiles { 1 2 }\n");
        assert_eq!(f.errors.len(), 1);
        assert_eq!(f.errors[0].message, "`tiles` must be inside a sliding block");
        assert_eq!(f.errors[0].notes, ["wrap the statements in `sliding \"NAME\" { … }`"]);
        let f = parse("sliding x {\n}\n");
        assert_eq!(f.errors[0].message, "sliding names are double-quoted: `sliding \"x\" {`");
    }

    #[test]
    fn stray_lines_merge() {
        let f = parse("size 5x5\nstates 3\n\npuzzle \"a\" { size 1x1 }\n}\n");
        assert_eq!(f.errors.len(), 2, "{:?}", f.errors);
        assert!(f.errors[0].message.contains("inside a puzzle block"));
        assert!(f.errors[1].message.contains("unmatched"));
    }
}
