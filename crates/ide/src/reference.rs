//! What each word of the language means, from the language reference
//! (`docs/language.md`), for hover and completion.

use lights_syntax::BlockKind;

/// A word of the language with its completion snippet and its meaning.
#[derive(Clone, Copy)]
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
    "**`size R x C`** — the board has R rows and C columns (`5x5` and `5 x 5` both work; 1 ≤ R, C). Required, except in a graph puzzle, which has none.";
    "grid", "grid ${1|square,hex|}", "square or hexagonal cells (default square)",
    "**`grid square`** or **`grid hex`** — the shape of the board's cells: squares (the default) or hexagons, rows 2, 4, … shifted right by half a cell. A hex cell has six neighbours; on a hex board the rules are `cross` and `ring` and the topologies `plane`, `cylinder` and `torus` (with an even number of rows).";
    "graph", "graph ${1|tetrahedron,cube,octahedron,dodecahedron,icosahedron,petersen|}", "play on the nodes of a graph",
    "**`graph NAME`** or **`graph { EDGES }`** — play on the nodes of a graph instead of a board: a named graph (`tetrahedron`, `cube`, `octahedron`, `dodecahedron`, `icosahedron`, `petersen`, `cycle N`, `path N`, `complete N`, `cube-surface N`) or edges between numbered nodes, `graph { 1-2 2-3 3-1 }` (a lone number is a node without edges). Nodes are numbered from 1 and listed with `at`: `lights at 1 4:2`. A press changes the node and its neighbours (`rule cross`) or only its neighbours (`rule ring`). A graph puzzle has no `size`, `topology` or `grid`.";
    "states", "states ${1:3}", "states per light (default 2)",
    "**`states W`** — each light has W states 0…W−1 and a press adds to them modulo W (2 ≤ W ≤ 65536). Default `states 2`: lights are on or off. Composite W (4, 6, 12…) are solved exactly.";
    "rule", "rule ${1|cross,king,flip,merlin,ring|}", "what a press changes (default cross)",
    "**`rule NAME`** or **`rule { STENCIL }`** — what a press changes: `cross`, `king`, `flip`, `merlin`, `ring`, or an odd-by-odd stencil of weights centred on the pressed cell. Hex boards and graphs take `cross` and `ring`. Default `rule cross`.";
    "topology", "topology ${1|plane,cylinder,torus,mobius,klein,projective|}", "the surface (default plane)",
    "**`topology NAME`** — the surface the board is drawn on: `plane`, `cylinder`, `torus`, `mobius`, `klein`, `projective` (alias `cross-cap`). It says where a neighbour that falls off a border lands. A hex board takes `plane`, `cylinder` and `torus` (with an even number of rows); a graph has no topology. Default `topology plane`.";
    "holes", "holes at ${1:3,3}", "cells that do not exist",
    "**`holes MASK`** — cells that do not exist: a grid of `.` (a cell) and `x` (a hole), or a sparse list `at 3,3` (`at 5`: a node, on a graph). A hole has no light and no button: presses skip it, `on` covers only the cells that exist, and a value written on a hole is an error.";
    "lights", "lights ${1|on,off|}", "the starting state (default off)",
    "**`lights VALUE`** — the starting state: `on`, `off`, a grid `{ … }` or a sparse list `at 2,3 4,5:2` (on a graph, of nodes: `at 1 4:2`). Default `lights off`.";
    "goal", "goal ${1|off,on|}", "the state to reach (default off)",
    "**`goal VALUE`** — the state to reach: `on`, `off`, a grid or a sparse list. Default `goal off`.";
    "locked", "locked at ${1:1,1}", "buttons that may not be pressed",
    "**`locked MASK`** — cells whose button may not be pressed: a grid of `.` (free) and `x` (locked), or a sparse list `at 1,1 5,5`. Their lights still change when neighbours are pressed.";
    "expect", "expect ${1|solvable,unsolvable,unique|}", "a claim `lights check` verifies",
    "**`expect CLAIM`** — an assertion that `lights check` verifies: `solvable`, `unsolvable`, `unique`, `solutions N`, `presses N` (or `A..B`), `difficulty A..B`. May repeat.";
    "solution", "solution {\n\t$0\n}", "press counts, checked to solve the puzzle",
    "**`solution VALUE`** — how many times to press each cell (a grid or a sparse list). It is checked: a solution that does not reach the goal, or presses a locked cell, is an error naming the cells.";
};

pub const RULES: &[Word] = words! {
    "cross", "cross", "the cell and its neighbours",
    "**`cross`** — a press changes the cell and its four orthogonal neighbours (classic Lights Out); on a hex board the cell and its six neighbours; on a graph the node and its neighbours (the σ+ game).";
    "king", "king", "the 3×3 block around the cell",
    "**`king`** — a press changes the 3×3 block centred on the cell (a chess king's moves plus the cell).";
    "flip", "flip", "the whole row and column through the cell",
    "**`flip`** — a press changes every cell of the row and of the column through the cell (Gary Watson's Flip). On twisted surfaces the lines continue into the mirrored row or column.";
    "merlin", "merlin", "Merlin's Magic Square",
    "**`merlin`** — Merlin's Magic Square: an interior cell acts as `cross`, a corner changes its 2×2 block, a border cell changes itself and its two neighbours along the border. Only borders that stay open on the topology count as borders.";
    "ring", "ring", "the neighbours, not the cell",
    "**`ring`** — a press changes the neighbours of the cell but not the cell itself: the four orthogonal ones on a square board, the six on a hex board, the node's neighbours on a graph (the σ game).";
};

/// The shapes `grid` takes.
pub const GRIDS: &[Word] = words! {
    "square", "square", "square cells (the default)",
    "**`grid square`** — rows and columns of square cells (the default): a cell's neighbours are up, down, left and right.";
    "hex", "hex", "hexagonal cells",
    "**`grid hex`** — hexagonal cells: rows 1, 3, … as written, rows 2, 4, … shifted right by half a cell. The six neighbours of `r,c` are `r,c−1`, `r,c+1` and, in the rows above and below, columns c−1 and c on odd rows, c and c+1 on even rows. Rules `cross` and `ring`; topologies `plane`, `cylinder` and `torus` (with an even number of rows).";
};

/// The named graphs of `graph NAME [N]` (as `lights_compiler::graph::NAMED_GRAPHS`).
pub const GRAPHS: &[Word] = words! {
    "tetrahedron", "tetrahedron", "4 nodes, every pair adjacent",
    "**`graph tetrahedron`** — the tetrahedron: 4 nodes, every pair adjacent.";
    "cube", "cube", "8 nodes, the corners of a cube",
    "**`graph cube`** — the corners of a cube: 8 nodes of 3 neighbours; 1–4 the top face in order round it, 5–8 the bottom face, 5 below 1.";
    "octahedron", "octahedron", "6 nodes, all but opposite pairs adjacent",
    "**`graph octahedron`** — the octahedron: 6 nodes, every pair adjacent except the opposite nodes k and k+3.";
    "dodecahedron", "dodecahedron", "20 nodes, 3 neighbours each",
    "**`graph dodecahedron`** — the dodecahedron: 20 nodes of 3 neighbours, the dual of the icosahedron, numbered by faces from the top down.";
    "icosahedron", "icosahedron", "12 nodes, 5 neighbours each (Orbix)",
    "**`graph icosahedron`** — the icosahedron (the Orbix puzzle): 12 nodes of 5 neighbours; 1 the top, 2–6 the upper ring, 7–11 the lower ring, 12 the bottom.";
    "petersen", "petersen", "10 nodes, 3 neighbours each",
    "**`graph petersen`** — the Petersen graph: 10 nodes of 3 neighbours; the outer cycle 1–5, spokes k – k+5, the inner pentagram 6–8–10–7–9.";
    "cycle", "cycle ${1:5}", "N nodes in a ring (N ≥ 3)",
    "**`graph cycle N`** — N nodes in a ring (N ≥ 3): k – k+1, and N – 1.";
    "path", "path ${1:5}", "N nodes in a line (N ≥ 1)",
    "**`graph path N`** — N nodes in a line (N ≥ 1): k – k+1.";
    "complete", "complete ${1:5}", "N nodes, every pair adjacent (N ≤ 4000)",
    "**`graph complete N`** — N nodes, every pair adjacent (1 ≤ N ≤ 4000).";
    "cube-surface", "cube-surface ${1:3}", "the 6·N² faces of an N×N×N cube",
    "**`graph cube-surface N`** — the surface of an N×N×N cube (N ≤ 400): 6·N² cells of four neighbours each, across the cube's edges too (`cube-surface 3` is the Lights Out Cube). Faces in the reading order of the cross-shaped net — up; left, front, right, back; down — each face row by row as seen in the net.";
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
    "presses", "presses ${1:1}", "the minimum number of presses is N (or A..B)",
    "**`expect presses N`** — holds when the cheapest solution presses exactly N times in all; `expect presses A..B`, when it presses between A and B times.";
    "difficulty", "difficulty ${1:1}..${2:50}", "the difficulty is between A and B",
    "**`expect difficulty A..B`** — holds when the level's difficulty (the actions of a player who uses the easiest method that works: pressing what helps, light chasing, the first-row table) is between A and B; `difficulty N` is `N..N`. See docs/authoring/packs.md.";
};

/// `order by presses|difficulty`, outside blocks.
pub const ORDER: Word = Word {
    word: "order",
    snippet: "order by ${1|presses,difficulty|}",
    summary: "the levels get harder in this order",
    doc: "**`order by presses`** or **`order by difficulty`** (outside the blocks) — the file's levels should get harder in that order: a level that needs fewer presses (or is easier) than the one before it gets warning L0209.",
};

pub const VALUES: &[Word] = words! {
    "on", "on", "every cell at W−1",
    "**`on`** — every cell at its highest state W−1 (lit, for `states 2`).";
    "off", "off", "every cell 0",
    "**`off`** — every cell 0.";
    "at", "at ${1:1,1}", "a sparse list of cells",
    "**`at r,c r,c:v …`** — the listed cells (1-based `row,column`; on a graph, node numbers: `at 1 4:2`) get the value after `:` (1 when omitted); every other cell is 0.";
};

/// `locked on`: every button locked.
pub const MASK_ON: Word = Word {
    word: "on",
    snippet: "on",
    summary: "every cell",
    doc: "**`locked on`** — every button is locked: the puzzle is solved only if its lights already are the goal.",
};

/// `locked off`, `holes off`: none (the default).
pub const MASK_OFF: Word =
    Word { word: "off", snippet: "off", summary: "no cell", doc: "**`off`** — no cell (the default)." };

/// `at` in a graph puzzle: a list of nodes.
pub const NODE_LIST: Word = Word {
    word: "at",
    snippet: "at ${1:1}",
    summary: "a sparse list of nodes",
    doc: "**`at n n:v …`** — the listed nodes (numbered from 1) get the value after `:` (1 when omitted); every other node is 0.",
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
    kind.either(STATEMENTS, SLIDING_STATEMENTS)
}

pub fn claims_of(kind: BlockKind) -> &'static [Word] {
    kind.either(CLAIMS, SLIDING_CLAIMS)
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
        .chain(GRIDS)
        .chain(GRAPHS)
        .chain(CLAIMS)
        .chain(VALUES)
        .chain(std::iter::once(&SLIDING))
        .chain(std::iter::once(&ORDER))
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
        for kind in BlockKind::ALL {
            let words: Vec<&str> = statements_of(kind).iter().map(|w| w.word).collect();
            assert_eq!(words, kind.statement_keywords(), "{kind:?}");
            let claims: Vec<&str> = claims_of(kind).iter().map(|w| w.word).collect();
            assert_eq!(claims, kind.claim_keywords(), "{kind:?}");
        }
        assert!(describe_in(BlockKind::Sliding, "goal").unwrap().contains("tiles"));
        assert!(describe_in(BlockKind::Lights, "goal").unwrap().contains("state to reach"));
        for name in lights_compiler::model::Rule::NAMES {
            assert!(describe(name).is_some(), "{name}");
        }
        for w in TOPOLOGIES {
            assert!(lights_compiler::model::Topology::from_name(w.word).is_some(), "{}", w.word);
        }
        let rules: Vec<&str> = RULES.iter().map(|w| w.word).collect();
        assert_eq!(rules, lights_compiler::model::Rule::NAMES);
        let graphs: Vec<&str> = GRAPHS.iter().map(|w| w.word).collect();
        let named: Vec<&str> = lights_compiler::graph::NAMED_GRAPHS.iter().map(|(n, _)| *n).collect();
        assert_eq!(graphs, named);
        for (w, (_, sized)) in GRAPHS.iter().zip(lights_compiler::graph::NAMED_GRAPHS) {
            assert_eq!(w.snippet != w.word, *sized, "{} takes a size: its snippet asks for it", w.word);
        }
        assert_eq!(GRIDS.iter().map(|w| w.word).collect::<Vec<_>>(), ["square", "hex"]);
    }
}
