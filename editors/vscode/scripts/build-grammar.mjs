// Builds syntaxes/lights.tmLanguage.json, the TextMate grammar of `.lights`
// files, from readable regular expressions.
//
//   node scripts/build-grammar.mjs          # write the grammar
//   node scripts/build-grammar.mjs --check  # exit 1 when the committed file is stale
//
// The grammar follows grammar/lights.pest (the parser of the `lights` tool)
// closely enough to colour what the parser accepts and to mark what it
// rejects: a statement is one line (or one grid), a grid ends at `}` or
// before the next line that starts with a keyword, a block ends at `}` or at
// the next `puzzle` or `sliding`, and text the parser would skip is
// `invalid.illegal`. Like the parser, both kinds of block (`puzzle`, and
// `sliding` for sliding-tile puzzles) take every statement; which statements
// belong to which kind is checked by the compiler.

import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const out = join(dirname(fileURLToPath(import.meta.url)), "..", "syntaxes", "lights.tmLanguage.json");

const BLOCKS = ["puzzle", "sliding"];
const STATEMENTS = [
  "size",
  "grid",
  "graph",
  "states",
  "rule",
  "topology",
  "holes",
  "lights",
  "goal",
  "locked",
  "expect",
  "solution",
  "tiles",
];
const RULES = ["cross", "king", "flip", "merlin", "ring"];
// `grid square` | `grid hex`.
const GRIDS = ["square", "hex"];
// `graph NAME [N]` (crates/compiler/src/graph.rs, NAMED_GRAPHS).
const GRAPHS = ["tetrahedron", "cube", "octahedron", "dodecahedron", "icosahedron", "petersen", "cycle", "path", "complete", "cube-surface"];
const TOPOLOGIES = ["plane", "cylinder", "torus", "mobius", "klein", "projective", "cross-cap"];
const CLAIMS = ["solvable", "unsolvable", "unique", "solutions", "presses", "difficulty", "moves"];
// `order by presses|difficulty`, outside the blocks.
const ORDER_KEYS = ["presses", "difficulty"];

// A word of the language: letters, digits, `-` and `_` (pest's `name_char`).
const before = String.raw`(?<![A-Za-z0-9_-])`;
const after = String.raw`(?![A-Za-z0-9_-])`;
const word = (w) => `${before}${w}${after}`;
const alternatives = (ws) => `(?:${ws.join("|")})`;
/** `(?:(a)|(b)|…)` as one regex, with a capture per word named `prefix.word.lights`. */
function wordSet(ws, prefix) {
  const regex = `${before}(?:${ws.map((w) => `(${w})`).join("|")})${after}`;
  const captures = Object.fromEntries(ws.map((w, i) => [String(i + 1), { name: `${prefix}.${w}.lights` }]));
  return { match: regex, captures };
}

const ANY_KEYWORD = word(alternatives([...BLOCKS, ...STATEMENTS]));
// Where a statement ends (pest's `stmt_end`): the end of the line, the
// block's `}`, or the next statement keyword on the same line.
const STATEMENT_END = `(?=$|\\}|${ANY_KEYWORD})`;
// A grid without its `}` ends before the next line that starts with a keyword.
const LINE_STARTS_WITH_KEYWORD = `(?=^[ \\t]*${ANY_KEYWORD})`;
// Text that cannot be part of the current statement: up to a space, `}` or `//`.
const JUNK = String.raw`(?:[^\s}/]|/(?!/))+`;
// A row of a grid starts at the start of a line, right after the grid's `{`
// or right after the `/` that separates rows on one line, and ends before the
// end of the line, a `}`, a `/` or a comment (`//`).
const ROW_START = String.raw`(?:^|(?<=[{/]))[ \t]*`;
const ROW_END = String.raw`(?=[ \t]*(?:$|\}|/))`;

const statement = (kw, patterns) => ({
  name: `meta.statement.${kw}.lights`,
  begin: word(`(${kw})`),
  beginCaptures: { 1: { name: `keyword.other.statement.${kw}.lights` } },
  end: STATEMENT_END,
  patterns: [{ include: "#comment" }, ...patterns, { include: "#unexpected" }],
});

function grid(kind, cells) {
  return {
    name: `meta.grid.${kind}.lights`,
    begin: String.raw`\{`,
    beginCaptures: { 0: { name: "punctuation.section.grid.begin.lights" } },
    end: String.raw`(\})|` + LINE_STARTS_WITH_KEYWORD,
    endCaptures: { 1: { name: "punctuation.section.grid.end.lights" } },
    patterns: [
      { include: "#comment" },
      // A `/` with no row before it (`{ / 1 }`, `1 / / 1`) or after it (`1 / }`) is L0007.
      { match: String.raw`(?<=[{/])[ \t]*(/)(?!/)`, captures: { 1: { name: "invalid.illegal.row.lights" } } },
      { match: String.raw`/(?!/)(?=[ \t]*(?:$|\}))`, name: "invalid.illegal.row.lights" },
      // `/` between two rows on one line (`{ .1. / 111 / .1. }`); `//` is a comment.
      { match: "/(?!/)", name: "punctuation.separator.row.lights" },
      {
        // Spaced row: two or more cells separated by spaces or tabs; each token is a cell.
        name: "meta.row.spaced.lights",
        match: String.raw`${ROW_START}((?:[.x]|[0-9]+)(?:[ \t]+(?:[.x]|[0-9]+))+)${ROW_END}`,
        captures: { 1: { patterns: [{ include: `#${cells}-spaced` }] } },
      },
      {
        // Compact row: one token, a cell per character.
        name: "meta.row.compact.lights",
        match: String.raw`${ROW_START}([.x0-9]+)${ROW_END}`,
        captures: { 1: { patterns: [{ include: `#${cells}-compact` }] } },
      },
      {
        // Anything else on a row is a broken row.
        match: String.raw`${ROW_START}([^\s}/][^}/]*?)${ROW_END}`,
        captures: { 1: { name: "invalid.illegal.row.lights" } },
      },
    ],
  };
}

// Off cells and the blank of a sliding block are constants like `off`
// (`constant.language`), which every default theme colours (Dark+ and
// Light+: blue), unlike `punctuation.definition` (left in the text colour);
// on cells are numbers (`constant.numeric`: green in both), so the two
// differ at a glance.
const OFF = "constant.language.cell.off.lights";
const LOCKED_HERE = "invalid.illegal.cell.locked-outside-mask.lights";
// A value cell: `.` or 0 is off, any other number a light on at that state.
function valueCells(token) {
  // `token` is the regex of one digit (compact rows) or of one number (spaced rows).
  const d = token === "digit";
  const num = (body) => (d ? body : String.raw`(?<![0-9])0*${body}(?![0-9])`);
  const states = [];
  for (let n = 1; n <= 9; n++) {
    states.push({ match: num(String(n)), name: `constant.numeric.cell.on.state-${n}.lights` });
  }
  if (!d) states.push({ match: num("[1-9][0-9]+"), name: "constant.numeric.cell.on.state-10-plus.lights" });
  return [
    { match: String.raw`\.`, name: OFF },
    { match: d ? "0" : String.raw`(?<![0-9])0+(?![0-9])`, name: OFF },
    ...states,
    { match: "x", name: LOCKED_HERE },
  ];
}

const grammar = {
  $schema: "https://raw.githubusercontent.com/martinring/tmlanguage/master/tmlanguage.json",
  name: "Lights",
  scopeName: "source.lights",
  fileTypes: ["lights"],
  patterns: [{ include: "#comment" }, { include: "#order" }, { include: "#puzzle" }, { include: "#stray" }],
  repository: {
    // `order by presses` (a pack's progression), outside the blocks; a
    // misspelt order key is marked as the parser reports it.
    order: {
      name: "meta.statement.order.lights",
      begin: `^[ \\t]*(order)${after}`,
      beginCaptures: { 1: { name: "keyword.other.statement.order.lights" } },
      end: "$",
      patterns: [
        { include: "#comment" },
        { match: `${before}(by)${after}`, captures: { 1: { name: "keyword.other.by.lights" } } },
        wordSet(ORDER_KEYS, "constant.language.order"),
        { match: String.raw`(?:[^\s/]|/(?!/))+`, name: "invalid.illegal.order.lights" },
      ],
    },
    comment: {
      name: "comment.line.double-slash.lights",
      match: "(//).*$",
      captures: { 1: { name: "punctuation.definition.comment.lights" } },
    },

    // ------------------------------------------------------------ blocks
    puzzle: {
      name: "meta.puzzle.lights",
      // `puzzle`, `sliding`, or a misspelt block keyword followed by a name (`puzzel "x" {`).
      begin: `${before}(?:(puzzle)${after}|(sliding)${after}|([A-Za-z][A-Za-z0-9_-]*)(?=[ \\t]*"))`,
      beginCaptures: {
        1: { name: "storage.type.puzzle.lights" },
        2: { name: "storage.type.sliding.lights" },
        3: { name: "invalid.illegal.block-keyword.lights" },
      },
      // The block's `}`, or the next block keyword when the `}` is missing.
      end: `(\\})|(?=${word(alternatives(BLOCKS))})`,
      endCaptures: { 1: { name: "punctuation.section.block.end.lights" } },
      patterns: [{ include: "#puzzle-head" }, { include: "#comment" }, { include: "#statements" }, { include: "#bad-statement" }],
    },
    "puzzle-head": {
      // From right after `puzzle` to the block's `{` (which may be on a later line).
      name: "meta.puzzle.head.lights",
      begin: String.raw`\G`,
      end: `(\\{)|(?=\\}|${ANY_KEYWORD})`,
      endCaptures: { 1: { name: "punctuation.section.block.begin.lights" } },
      patterns: [
        { include: "#comment" },
        { include: "#puzzle-name" },
        { match: String.raw`(?:[^\s{}/]|/(?!/))+`, name: "invalid.illegal.head.lights" },
      ],
    },
    "puzzle-name": {
      patterns: [
        {
          // A string that does not end on its line.
          match: String.raw`"(?:[^"\\]|\\.)*\\?$`,
          name: "invalid.illegal.unterminated-string.lights",
        },
        {
          name: "string.quoted.double.lights",
          begin: '"',
          beginCaptures: { 0: { name: "punctuation.definition.string.begin.lights" } },
          end: '"',
          endCaptures: { 0: { name: "punctuation.definition.string.end.lights" } },
          contentName: "entity.name.type.puzzle.lights",
          patterns: [
            { match: String.raw`\\["\\]`, name: "constant.character.escape.lights" },
            { match: String.raw`\\.`, name: "invalid.illegal.escape.lights" },
          ],
        },
      ],
    },
    // Text outside every block.
    stray: {
      match: String.raw`(?:[^\s/]|/(?!/))(?:[^/]|/(?!/))*`,
      name: "invalid.illegal.stray.lights",
    },
    // A line in a block that is not a statement: the rest of the line, or
    // (when it opens a brace) everything up to the matching `}`.
    "bad-statement": {
      patterns: [
        {
          name: "invalid.illegal.statement.lights",
          begin: String.raw`(?:[^\s}/{]|/(?!/))(?:[^{}/\n]|/(?!/))*\{`,
          end: String.raw`\}|` + LINE_STARTS_WITH_KEYWORD,
          patterns: [{ include: "#comment" }],
        },
        { match: String.raw`(?:[^\s}/]|/(?!/))(?:[^}/]|/(?!/))*`, name: "invalid.illegal.statement.lights" },
      ],
    },
    unexpected: { match: JUNK, name: "invalid.illegal.unexpected.lights" },

    // ------------------------------------------------------------ statements
    statements: {
      patterns: STATEMENTS.map((s) => ({ include: `#${s}` })),
    },
    size: statement("size", [
      {
        match: String.raw`([0-9]+)[ \t]*(x)[ \t]*([0-9]+)${after}`,
        captures: {
          1: { name: "constant.numeric.integer.rows.lights" },
          2: { name: "keyword.operator.dimension.lights" },
          3: { name: "constant.numeric.integer.columns.lights" },
        },
      },
    ]),
    states: statement("states", [{ include: "#number" }]),
    rule: statement("rule", [
      wordSet(RULES, "support.function.rule"),
      { match: `${before}[A-Za-z][A-Za-z0-9_-]*`, name: "invalid.illegal.unknown-rule.lights" },
      { include: "#value-grid" },
    ]),
    topology: statement("topology", [
      wordSet(TOPOLOGIES, "support.type.topology"),
      { match: `${before}[A-Za-z][A-Za-z0-9_-]*`, name: "invalid.illegal.unknown-topology.lights" },
    ]),
    lights: statement("lights", [{ include: "#value" }]),
    goal: statement("goal", [{ include: "#value" }]),
    // A grid or sparse list of presses (puzzles), or a string of moves (sliding).
    solution: statement("solution", [{ include: "#moves" }, { include: "#value" }]),
    tiles: statement("tiles", [{ include: "#tile-grid" }]),
    // The edges of a written graph: `a-b`, or a lone node `a`, across lines;
    // like a grid it ends at `}` or before a line that starts with a keyword.
    edges: {
      name: "meta.graph.edges.lights",
      begin: String.raw`\{`,
      beginCaptures: { 0: { name: "punctuation.section.graph.begin.lights" } },
      end: String.raw`(\})|` + LINE_STARTS_WITH_KEYWORD,
      endCaptures: { 1: { name: "punctuation.section.graph.end.lights" } },
      patterns: [
        { include: "#comment" },
        {
          match: String.raw`${before}([0-9]+)[ \t]*(-)[ \t]*([0-9]+)${after}`,
          captures: {
            1: { name: "constant.numeric.integer.node.lights" },
            2: { name: "punctuation.separator.edge.lights" },
            3: { name: "constant.numeric.integer.node.lights" },
          },
        },
        { match: String.raw`${before}[0-9]+${after}`, name: "constant.numeric.integer.node.lights" },
        { match: String.raw`(?:[^\s}/]|/(?!/))+`, name: "invalid.illegal.edge.lights" },
      ],
    },
    locked: statement("locked", [
      // A mask is a grid or a sparse list: `on`/`off` are not masks.
      { match: word("(?:on|off)"), name: "invalid.illegal.mask.lights" },
      { include: "#sparse-mask" },
      { include: "#mask-grid" },
    ]),
    // Cells that do not exist: a mask, like `locked` (`x` is a hole).
    holes: statement("holes", [
      { match: word("(?:on|off)"), name: "invalid.illegal.mask.lights" },
      { include: "#sparse-mask" },
      { include: "#mask-grid" },
    ]),
    grid: statement("grid", [
      wordSet(GRIDS, "support.type.grid"),
      { match: `${before}[A-Za-z][A-Za-z0-9_-]*`, name: "invalid.illegal.unknown-grid.lights" },
    ]),
    // `graph petersen`, `graph cycle 7`, or `graph { 1-2 2-3 4 }`.
    graph: statement("graph", [
      wordSet(GRAPHS, "support.type.graph"),
      { match: `${before}[A-Za-z][A-Za-z0-9_-]*`, name: "invalid.illegal.unknown-graph.lights" },
      { include: "#number" },
      { include: "#edges" },
    ]),
    expect: statement("expect", [
      wordSet(CLAIMS, "constant.language.claim"),
      { include: "#number" },
      // `presses 4..8`, `difficulty 1..30`.
      { match: String.raw`(?<=\d)[ \t]*(\.\.)(?=[ \t]*\d)`, captures: { 1: { name: "keyword.operator.range.lights" } } },
      { match: `${before}[A-Za-z][A-Za-z0-9_-]*`, name: "invalid.illegal.unknown-claim.lights" },
    ]),

    // ------------------------------------------------------------ values
    number: { match: String.raw`${before}[0-9]+${after}`, name: "constant.numeric.integer.lights" },
    value: {
      patterns: [
        wordSet(["on", "off"], "constant.language.value"),
        { include: "#sparse" },
        { include: "#value-grid" },
        { match: `${before}[A-Za-z][A-Za-z0-9_-]*`, name: "invalid.illegal.unknown-value.lights" },
      ],
    },
    sparse: sparse("sparse", "#entry"),
    "sparse-mask": sparse("sparse.mask", "#mask-entry"),
    entry: entry(false),
    "mask-entry": entry(true),
    "value-grid": grid("value", "value-cells"),
    "mask-grid": grid("mask", "mask-cells"),
    "value-cells-spaced": { patterns: valueCells("number") },
    "value-cells-compact": { patterns: valueCells("digit") },
    "mask-cells-spaced": { patterns: maskCells() },
    "mask-cells-compact": { patterns: maskCells() },
    "tile-grid": grid("tiles", "tile-cells"),
    "tile-cells-spaced": { patterns: tileCells("number") },
    "tile-cells-compact": { patterns: tileCells("digit") },
    // `"LLUR DRUL"`: the blank's moves; anything but U, D, L, R and spaces is not a move.
    moves: {
      patterns: [
        {
          // A string that does not end on its line.
          match: String.raw`"(?:[^"\\]|\\.)*\\?$`,
          name: "invalid.illegal.unterminated-string.lights",
        },
        {
          name: "string.quoted.double.moves.lights",
          begin: '"',
          beginCaptures: { 0: { name: "punctuation.definition.string.begin.lights" } },
          end: '"',
          endCaptures: { 0: { name: "punctuation.definition.string.end.lights" } },
          patterns: [
            { match: "[UDLR]", name: "keyword.other.move.lights" },
            { match: String.raw`\\.|[^\sUDLR"]`, name: "invalid.illegal.move.lights" },
          ],
        },
      ],
    },
  },
};

// `at r,c r,c:v …`, up to the end of the statement.
function sparse(kind, entries) {
  return {
    name: `meta.${kind}.lights`,
    begin: word("(at)"),
    beginCaptures: { 1: { name: "keyword.other.at.lights" } },
    end: STATEMENT_END,
    patterns: [{ include: "#comment" }, { include: entries }, { include: "#unexpected" }],
  };
}

// `r,c` or `r,c:v` on a board, `n` or `n:v` (a node) on a graph (spaces
// allowed around `,` and `:`); a mask takes no `:v`.
function entry(mask) {
  const value = {
    punctuation: { name: mask ? "invalid.illegal.mask-value.lights" : "punctuation.separator.value.lights" },
    number: { name: mask ? "invalid.illegal.mask-value.lights" : "constant.numeric.integer.value.lights" },
  };
  return {
    patterns: [
      {
        match: String.raw`${before}([0-9]+)[ \t]*(,)[ \t]*([0-9]+)(?:[ \t]*(:)[ \t]*([0-9]+))?${after}`,
        captures: {
          1: { name: "constant.numeric.integer.row.lights" },
          2: { name: "punctuation.separator.coordinates.lights" },
          3: { name: "constant.numeric.integer.column.lights" },
          4: value.punctuation,
          5: value.number,
        },
      },
      {
        match: String.raw`${before}([0-9]+)(?![ \t]*,)(?:[ \t]*(:)[ \t]*([0-9]+))?${after}`,
        captures: {
          1: { name: "constant.numeric.integer.node.lights" },
          2: value.punctuation,
          3: value.number,
        },
      },
    ],
  };
}

// A tile cell: `.` is the blank, a number a tile; `x` has no place among tiles.
function tileCells(token) {
  return [
    { match: String.raw`\.`, name: "constant.language.cell.blank.lights" },
    { match: token === "digit" ? "[0-9]" : "[0-9]+", name: "constant.numeric.integer.tile.lights" },
    { match: "x", name: "invalid.illegal.cell.x-in-tiles.lights" },
  ];
}

// A mask cell: `.` is free, `x` locked; numbers have no place in a mask.
function maskCells() {
  return [
    { match: String.raw`\.`, name: "punctuation.definition.cell.free.lights" },
    { match: "x", name: "storage.modifier.cell.locked.lights" },
    { match: "[0-9]+", name: "invalid.illegal.cell.number-in-mask.lights" },
  ];
}

const text = JSON.stringify(grammar, null, 2) + "\n";
if (process.argv.includes("--check")) {
  let current = "";
  try {
    current = readFileSync(out, "utf8");
  } catch {
    // missing: stale
  }
  if (current !== text) {
    console.error(`${out} is out of date: run \`node scripts/build-grammar.mjs\``);
    process.exit(1);
  }
  console.log("grammar is up to date");
} else {
  writeFileSync(out, text);
  console.log(`wrote ${out}`);
}
