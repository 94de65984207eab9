//! What each word of the language means, from the language reference
//! (`docs/language.md`), for hover and completion.

use lights_syntax::BlockKind;

/// A word of the language with its completion snippet and its meaning.
pub struct Word {
    pub word: &'static str,
    /// What completion inserts (LSP snippet syntax).
    pub snippet: &'static str,
    /// One line for completion lists.
    pub summary: &'static str,
    /// Markdown for hover.
    pub doc: &'static str,
}

macro_rules! words {
    ($( $word:literal, $snippet:literal, $summary:literal, $doc:literal; )*) => {
        &[ $( Word { word: $word, snippet: $snippet, summary: $summary, doc: $doc }, )* ]
    };
}

pub const STATEMENTS: &[Word] = words! {
    "size", "size ${1:5}x${2:5}", "R rows, C columns (required)",
    "**`size R x C`** — the board has R rows and C columns (`5x5` and `5 x 5` both work; 1 ≤ R, C). Required.";
    "states", "states ${1:3}", "states per light (default 2)",
    "**`states W`** — each light has W states 0…W−1 and a press adds to them modulo W (2 ≤ W ≤ 65536). Default `states 2`: lights are on or off. Composite W (4, 6, 12…) are solved exactly.";
    "rule", "rule ${1|cross,king,flip,merlin|}", "what a press changes (default cross)",
    "**`rule NAME`** or **`rule { STENCIL }`** — what a press changes: `cross`, `king`, `flip`, `merlin`, or an odd-by-odd stencil of weights centred on the pressed cell. Default `rule cross`.";
    "topology", "topology ${1|plane,cylinder,torus,mobius,klein,projective|}", "the surface (default plane)",
    "**`topology NAME`** — the surface the board is drawn on: `plane`, `cylinder`, `torus`, `mobius`, `klein`, `projective` (alias `cross-cap`). It says where a neighbour that falls off a border lands. Default `topology plane`.";
    "lights", "lights ${1|on,off|}", "the starting state (default off)",
    "**`lights VALUE`** — the starting state: `on`, `off`, a grid `{ … }` or a sparse list `at 2,3 4,5:2`. Default `lights off`.";
    "goal", "goal ${1|off,on|}", "the state to reach (default off)",
    "**`goal VALUE`** — the state to reach: `on`, `off`, a grid or a sparse list. Default `goal off`.";
    "locked", "locked at ${1:1,1}", "buttons that may not be pressed",
    "**`locked MASK`** — cells whose button may not be pressed: a grid of `.` (free) and `x` (locked), or a sparse list `at 1,1 5,5`. Their lights still change when neighbours are pressed.";
    "expect", "expect ${1|solvable,unsolvable,unique|}", "a claim `lights check` verifies",
    "**`expect CLAIM`** — an assertion that `lights check` verifies: `solvable`, `unsolvable`, `unique`, `solutions N`, `presses N`. May repeat.";
    "solution", "solution {\n\t$0\n}", "press counts, checked to solve the puzzle",
    "**`solution VALUE`** — how many times to press each cell (a grid or a sparse list). It is checked: a solution that does not reach the goal, or presses a locked cell, is an error naming the cells.";
};

pub const RULES: &[Word] = words! {
    "cross", "cross", "the cell and its four neighbours",
    "**`cross`** — a press changes the cell and its four orthogonal neighbours (classic Lights Out).";
    "king", "king", "the 3×3 block around the cell",
    "**`king`** — a press changes the 3×3 block centred on the cell (a chess king's moves plus the cell).";
    "flip", "flip", "the whole row and column through the cell",
    "**`flip`** — a press changes every cell of the row and of the column through the cell (Gary Watson's Flip). On twisted surfaces the lines continue into the mirrored row or column.";
    "merlin", "merlin", "Merlin's Magic Square",
    "**`merlin`** — Merlin's Magic Square: an interior cell acts as `cross`, a corner changes its 2×2 block, a border cell changes itself and its two neighbours along the border. Only borders that stay open on the topology count as borders.";
};

pub const TOPOLOGIES: &[Word] = words! {
    "plane", "plane", "open borders",
    "**`plane`** — all four borders are open: neighbours that fall off the board are dropped.";
    "cylinder", "cylinder", "left and right glued",
    "**`cylinder`** — the left and right borders are glued (column C+1 is column 1); top and bottom stay open.";
    "torus", "torus", "both pairs glued",
    "**`torus`** — left/right and top/bottom are glued: the board wraps around both ways.";
    "mobius", "mobius", "left and right glued with a twist",
    "**`mobius`** — a Möbius band: column C+1 is column 1 at row R+1−r; top and bottom stay open.";
    "klein", "klein", "Klein bottle",
    "**`klein`** — a Klein bottle: left/right glued; row R+1 is row 1 at column C+1−c.";
    "projective", "projective", "projective plane",
    "**`projective`** (alias `cross-cap`) — the projective plane: both pairs of borders glued with a twist.";
    "cross-cap", "cross-cap", "projective plane",
    "**`cross-cap`** — another name for `projective`: both pairs of borders glued with a twist.";
};

pub const CLAIMS: &[Word] = words! {
    "solvable", "solvable", "at least one solution",
    "**`expect solvable`** — holds when the puzzle has at least one solution.";
    "unsolvable", "unsolvable", "no solution",
    "**`expect unsolvable`** — holds when the puzzle has no solution (and silences the unsolvable error).";
    "unique", "unique", "exactly one solution",
    "**`expect unique`** — holds when the puzzle has exactly one solution.";
    "solutions", "solutions ${1:1}", "exactly N solutions",
    "**`expect solutions N`** — holds when the puzzle has exactly N solutions (counts are exact, however large).";
    "presses", "presses ${1:1}", "the minimum number of presses is N",
    "**`expect presses N`** — holds when the cheapest solution presses exactly N times in all.";
};

pub const VALUES: &[Word] = words! {
    "on", "on", "every cell at W−1",
    "**`on`** — every cell at its highest state W−1 (lit, for `states 2`).";
    "off", "off", "every cell 0",
    "**`off`** — every cell 0.";
    "at", "at ${1:1,1}", "a sparse list of cells",
    "**`at r,c r,c:v …`** — the listed cells (1-based `row,column`) get the value after `:` (1 when omitted); every other cell is 0.";
};

pub const PUZZLE: Word = Word {
    word: "puzzle",
    snippet: "puzzle \"${1:name}\" {\n\tsize ${2:5}x${3:5}\n\tlights ${4:on}\n\t$0\n}",
    summary: "a new puzzle",
    doc: "**`puzzle \"NAME\" { … }`** — one puzzle: a board, what a press does, the surface, the states, where the lights start and must end. Names are unique within a file.",
};

/// The sliding block's keyword.
pub const SLIDING: Word = Word {
    word: "sliding",
    snippet: "sliding \"${1:name}\" {\n\tsize ${2:4}x${3:4}\n\ttiles {\n\t\t$0\n\t}\n}",
    summary: "a new sliding-tile puzzle",
    doc: "**`sliding \"NAME\" { … }`** — a sliding-tile puzzle (the 15 puzzle): `size`, the start `tiles { … }`, an optional `goal { … }` (default: tiles in order, the blank last), `expect solvable`, `unsolvable` or `moves N`, and a `solution \"LLUR\"` of moves.",
};

/// The statements of a sliding block (same words, sliding meanings).
pub const SLIDING_STATEMENTS: &[Word] = words! {
    "size", "size ${1:4}x${2:4}", "R rows, C columns (required)",
    "**`size R x C`** — the sliding board has R rows and C columns, each at least 2 (`4x4` is the 15 puzzle). Required.";
    "tiles", "tiles {\n\t$0\n}", "the start position (required)",
    "**`tiles { GRID }`** — a sliding puzzle's start: the tiles 1…R·C−1, each once, and one `.` for the blank. Required in a `sliding` block.";
    "goal", "goal {\n\t$0\n}", "the position to reach (default: in order)",
    "**`goal { GRID }`** — the position to reach, with the same tiles and one `.`. Default: the tiles in reading order, the blank last.";
    "expect", "expect ${1|solvable,unsolvable|}", "a claim `lights check` verifies",
    "**`expect CLAIM`** — an assertion that `lights check` verifies: `solvable`, `unsolvable` (the invariant says the goal cannot be reached) or `moves N` (the fewest moves is exactly N). May repeat.";
    "solution", "solution \"$0\"", "moves of the blank, checked",
    "**`solution \"MOVES\"`** — the moves of the **blank**: `U` up, `D` down, `L` left, `R` right (spaces between moves are ignored). Checked: a move off the board, or an end that is not the goal, is an error naming the move.";
};

/// The claims of a sliding block's `expect`.
pub const SLIDING_CLAIMS: &[Word] = words! {
    "solvable", "solvable", "the goal can be reached",
    "**`expect solvable`** — holds when the goal can be reached (the two positions have the same invariant).";
    "unsolvable", "unsolvable", "the goal can never be reached",
    "**`expect unsolvable`** — holds when the goal can never be reached, like Loyd's 14–15 puzzle (and silences the unsolvable error).";
    "moves", "moves ${1:1}", "the fewest moves is N",
    "**`expect moves N`** — holds when the fewest moves that reach the goal is exactly N (proven on boards up to 4×4).";
};

/// The statements and claims of a block of `kind`.
pub fn statements_of(kind: BlockKind) -> &'static [Word] {
    match kind {
        BlockKind::Puzzle => STATEMENTS,
        BlockKind::Sliding => SLIDING_STATEMENTS,
    }
}

pub fn claims_of(kind: BlockKind) -> &'static [Word] {
    match kind {
        BlockKind::Puzzle => CLAIMS,
        BlockKind::Sliding => SLIDING_CLAIMS,
    }
}

/// The hover text of a word inside a block of `kind` (its meaning there
/// first: `goal` in a sliding block is a grid of tiles).
pub fn describe_in(kind: BlockKind, word: &str) -> Option<&'static str> {
    statements_of(kind).iter().chain(claims_of(kind)).find(|w| w.word == word).map(|w| w.doc).or_else(|| describe(word))
}

/// The hover text of a word, wherever it appears.
pub fn describe(word: &str) -> Option<&'static str> {
    std::iter::once(&PUZZLE)
        .chain(STATEMENTS)
        .chain(RULES)
        .chain(TOPOLOGIES)
        .chain(CLAIMS)
        .chain(VALUES)
        .chain(std::iter::once(&SLIDING))
        .chain(SLIDING_STATEMENTS)
        .chain(SLIDING_CLAIMS)
        .find(|w| w.word == word)
        .map(|w| w.doc)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_keyword_of_the_language_is_described() {
        for kw in lights_syntax::STATEMENT_KEYWORDS.iter().chain(lights_syntax::CLAIM_KEYWORDS) {
            assert!(describe(kw).is_some(), "{kw} has no description");
        }
        for kw in lights_syntax::BLOCK_KEYWORDS {
            assert!(describe(kw).is_some(), "{kw} has no description");
        }
        // Each kind of block: its own words, with their meaning there.
        for kind in [BlockKind::Puzzle, BlockKind::Sliding] {
            let words: Vec<&str> = statements_of(kind).iter().map(|w| w.word).collect();
            assert_eq!(words, kind.statement_keywords(), "{kind:?}");
            let claims: Vec<&str> = claims_of(kind).iter().map(|w| w.word).collect();
            assert_eq!(claims, kind.claim_keywords(), "{kind:?}");
        }
        assert!(describe_in(BlockKind::Sliding, "goal").unwrap().contains("tiles"));
        assert!(describe_in(BlockKind::Puzzle, "goal").unwrap().contains("state to reach"));
        for name in lights_compiler::model::Rule::NAMES {
            assert!(describe(name).is_some(), "{name}");
        }
        for w in TOPOLOGIES {
            assert!(lights_compiler::model::Topology::from_name(w.word).is_some(), "{}", w.word);
        }
    }
}
