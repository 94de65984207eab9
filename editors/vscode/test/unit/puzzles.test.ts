import { describe, expect, it } from "vitest";

import {
  contains,
  isSolving,
  noSolutionMessage,
  puzzleAt,
  puzzleNameFromSource,
  puzzleSymbols,
  solutionAction,
} from "../../src/puzzles";

const range = (l1: number, c1: number, l2: number, c2: number) => ({
  start: { line: l1, character: c1 },
  end: { line: l2, character: c2 },
});

// Three puzzles as `lights lsp` outlines them: lines 1–5, 7–9, and a one-line block on line 11.
const response = [
  { name: "a", kind: 19, range: range(1, 0, 5, 1), selectionRange: range(1, 7, 1, 10) },
  { name: "b \"q\"", kind: 19, range: range(7, 0, 9, 1), selectionRange: range(7, 7, 7, 16) },
  { name: "c", kind: 19, range: range(11, 0, 11, 30), selectionRange: range(11, 7, 11, 10) },
];

describe("puzzleSymbols", () => {
  it("reads DocumentSymbol[]", () => {
    const s = puzzleSymbols(response);
    expect(s.map((x) => x?.name)).toEqual(["a", 'b "q"', "c"]);
    expect(s[1]?.selectionRange).toEqual(range(7, 7, 7, 16));
  });

  it("reads SymbolInformation[] (the selection is then the whole block)", () => {
    const s = puzzleSymbols([{ name: "a", kind: 19, location: { uri: "file:///a.lights", range: range(0, 0, 3, 1) } }]);
    expect(s).toEqual([{ name: "a", range: range(0, 0, 3, 1), selectionRange: range(0, 0, 3, 1) }]);
  });

  it("keeps the server's indices when an entry is unusable, and ignores non-arrays", () => {
    const s = puzzleSymbols([{ name: "broken" }, response[1]]);
    expect(s[0]).toBeUndefined();
    expect(puzzleAt(s, { line: 8, character: 2 })?.index).toBe(1);
    expect(puzzleSymbols(null)).toEqual([]);
    expect(puzzleSymbols({ name: "a" })).toEqual([]);
  });
});

describe("puzzleAt", () => {
  const symbols = puzzleSymbols(response);

  it("finds the block holding the cursor, with its index", () => {
    expect(puzzleAt(symbols, { line: 3, character: 4 })?.index).toBe(0);
    expect(puzzleAt(symbols, { line: 8, character: 0 })?.index).toBe(1);
    expect(puzzleAt(symbols, { line: 11, character: 29 })?.index).toBe(2);
  });

  it("counts both ends of a block as inside", () => {
    expect(puzzleAt(symbols, { line: 1, character: 0 })?.index).toBe(0);
    expect(puzzleAt(symbols, { line: 5, character: 1 })?.index).toBe(0);
    expect(puzzleAt(symbols, { line: 5, character: 2 })).toBeUndefined();
  });

  it("finds nothing between blocks of a file with several", () => {
    expect(puzzleAt(symbols, { line: 6, character: 0 })).toBeUndefined();
    expect(puzzleAt(symbols, { line: 0, character: 0 })).toBeUndefined();
    expect(puzzleAt([], { line: 0, character: 0 })).toBeUndefined();
  });

  it("takes the only puzzle of a file even from outside it", () => {
    expect(puzzleAt([symbols[1]], { line: 0, character: 0 })?.index).toBe(0);
    expect(puzzleAt([undefined, symbols[1]], { line: 20, character: 0 })?.index).toBe(1);
  });

  it("contains() compares lines before characters", () => {
    expect(contains(range(1, 5, 3, 0), { line: 2, character: 99 })).toBe(true);
    expect(contains(range(1, 5, 3, 0), { line: 1, character: 4 })).toBe(false);
    expect(contains(range(1, 5, 3, 0), { line: 3, character: 1 })).toBe(false);
  });
});

describe("puzzleNameFromSource", () => {
  it("unescapes the quoted name", () => {
    expect(puzzleNameFromSource('"level 3"')).toBe("level 3");
    expect(puzzleNameFromSource('"say \\"hi\\" \\\\ bye"')).toBe('say "hi" \\ bye');
    expect(puzzleNameFromSource('"dé 🎲"')).toBe("dé 🎲");
    expect(puzzleNameFromSource('""')).toBe("");
  });

  it("rejects what is not one well-formed name", () => {
    for (const text of ["puzzle {", "classic", '"a" "b"', '"bad \\n escape"', '"open', '"a"b"']) {
      expect(puzzleNameFromSource(text)).toBeUndefined();
    }
  });
});

describe("solutionAction", () => {
  const actions = [
    { title: "Make solvable by toggling row 1, column 1", kind: "quickfix" },
    { title: "Add expect lines for the current result", kind: "refactor.rewrite" },
    { title: "Insert minimum solution (15 presses)", kind: "refactor.rewrite", edit: {} },
  ];

  it("picks the insert or replace action, by the server's titles", () => {
    expect(solutionAction(actions)?.title).toBe("Insert minimum solution (15 presses)");
    expect(solutionAction([{ title: "Replace solution (1 press)" }])?.title).toBe("Replace solution (1 press)");
    expect(solutionAction([{ title: "Replace solution" }])?.title).toBe("Replace solution");
    // Sliding blocks: moves, not presses.
    expect(solutionAction([{ title: "Insert solution (31 moves, optimal)" }])?.title).toBe(
      "Insert solution (31 moves, optimal)",
    );
  });

  it("finds nothing when there is no such action", () => {
    expect(solutionAction(actions.slice(0, 2))).toBeUndefined();
    expect(solutionAction([{ title: "Replace solutions everywhere" }])).toBeUndefined();
    expect(solutionAction(null)).toBeUndefined();
    expect(solutionAction([])).toBeUndefined();
  });

  it("explains an empty result", () => {
    expect(noSolutionMessage("x")).toMatch(/"x".*cannot be solved.*errors.*being solved/);
  });
});

describe("isSolving", () => {
  const lens = (line: number, title: string) => ({ range: range(line, 0, line, 20), command: { title } });

  it("reads the status lens on the puzzle's header line", () => {
    const lenses = [lens(1, "✓ 1 solution · minimum 1 press"), lens(1, "insert minimum solution"), lens(7, "⋯ solving…")];
    expect(isSolving(lenses, 7)).toBe(true);
    expect(isSolving(lenses, 1)).toBe(false);
    expect(isSolving(lenses, 3)).toBe(false);
  });

  it("is false without lenses (turned off)", () => {
    expect(isSolving([], 7)).toBe(false);
    expect(isSolving(null, 7)).toBe(false);
    expect(isSolving([{ range: range(7, 0, 7, 1), command: null }], 7)).toBe(false);
  });
});
