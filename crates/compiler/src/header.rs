//! What every block has, whatever its kind: its name, where it is written,
//! its `expect` claims and its own `solution`. Both models
//! ([`Puzzle`](crate::Puzzle), [`SlidingPuzzle`](crate::SlidingPuzzle))
//! hold one as their `header`, [`Unkeyed`](crate::Unkeyed): none of it
//! changes the block's answer. [`Header`] reads it without caring about the
//! kind ([`Block::header`](crate::Block::header)).

use std::fmt::Display;

use lights_syntax::Span;

/// The header of a block whose claims are `C` and whose written solution is `S`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BlockHeader<C, S> {
    pub name: String,
    /// The whole block.
    pub span: Span,
    /// The header: keyword, name and brace.
    pub head: Span,
    /// The `expect` statements, in source order.
    pub expects: Vec<Expect<C>>,
    /// The block's own `solution` statement.
    pub solution: Option<S>,
}

impl<C, S> Default for BlockHeader<C, S> {
    fn default() -> Self {
        BlockHeader {
            name: String::new(),
            span: Span::default(),
            head: Span::default(),
            expects: Vec::new(),
            solution: None,
        }
    }
}

/// One `expect` statement: the claim and where it is written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Expect<C> {
    /// The whole `expect` statement.
    pub span: Span,
    pub claim: C,
}

/// A claim of an `expect` line, of any kind of block.
pub trait BlockClaim: Display {
    /// Whether the claim says the block cannot be solved (`expect
    /// unsolvable`, `expect solutions 0`).
    fn denies_solution(&self) -> bool;
}

/// A block's header read without its kind: what `Block` answers for
/// every kind alike.
pub trait Header {
    fn name(&self) -> &str;
    /// The whole block.
    fn span(&self) -> Span;
    /// The header: keyword, name and brace.
    fn head(&self) -> Span;
    /// The `expect` claims as written (`expect unique`, …).
    fn claims(&self) -> Vec<String>;
    /// Whether the block claims it cannot be solved.
    fn expects_no_solution(&self) -> bool;
    /// Whether the block has an `expect` saying it can be solved.
    fn expects_a_solution(&self) -> bool;
    /// Whether the block has a `solution` statement.
    fn has_solution(&self) -> bool;
}

impl<C: BlockClaim, S> Header for BlockHeader<C, S> {
    fn name(&self) -> &str {
        &self.name
    }
    fn span(&self) -> Span {
        self.span
    }
    fn head(&self) -> Span {
        self.head
    }
    fn claims(&self) -> Vec<String> {
        self.expects.iter().map(|e| e.claim.to_string()).collect()
    }
    fn expects_no_solution(&self) -> bool {
        self.expects.iter().any(|e| e.claim.denies_solution())
    }
    fn expects_a_solution(&self) -> bool {
        self.expects.iter().any(|e| !e.claim.denies_solution())
    }
    fn has_solution(&self) -> bool {
        self.solution.is_some()
    }
}
