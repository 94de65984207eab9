import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

import {
  CheckOutputError,
  entryLine,
  isFileLevel,
  parseCheckOutput,
  placeDiagnostics,
  summarize,
  summaryLine,
  tokenEnd,
  utf16Offset,
} from "../../src/check";

const fixtures = join(__dirname, "..", "fixtures");
// `lights check sample.lights --format json`, run in test/fixtures (see sample.lights).
const output = readFileSync(join(fixtures, "check-output.json"), "utf8");
const sample = readFileSync(join(fixtures, "sample.lights"), "utf8").split("\n");

describe("parseCheckOutput", () => {
  it("reads every entry of the CLI's JSON", () => {
    const entries = parseCheckOutput(output);
    expect(entries.map((e) => e.puzzle)).toEqual([null, "a", "dé 🎲", "b"]);
    expect(entries[1]).toMatchObject({ file: "sample.lights", solvable: true, solutions: "1", presses: 5 });
    expect(entries[1]?.diagnostics).toEqual([]);
    expect(entries[2]?.diagnostics[0]).toMatchObject({ code: "L0006", severity: "error", line: 7, column: 26 });
  });

  it("rejects output that is not the CLI's JSON", () => {
    expect(() => parseCheckOutput("error: cannot read `x`")).toThrow(CheckOutputError);
    expect(() => parseCheckOutput("{}")).toThrow(/not a JSON array/);
    expect(() => parseCheckOutput('[{"file": "a"}]')).toThrow(/no `file` or no `diagnostics`/);
    expect(() => parseCheckOutput('[{"file": "a", "diagnostics": [{"message": "m", "line": 0, "column": 1}]}]')).toThrow(
      /malformed/,
    );
  });

  it("reads warnings and tolerates missing optional fields", () => {
    const [e] = parseCheckOutput(
      '[{"file": "w.lights", "puzzle": "big", "diagnostics": [{"code": "L0206", "severity": "warning", "message": "m", "line": 3, "column": 3}]}]',
    );
    expect(e).toMatchObject({ puzzle: "big", solvable: null, solutions: null, presses: null });
    expect(e?.diagnostics[0]?.severity).toBe("warning");
  });
});

describe("columns: characters to UTF-16", () => {
  it("counts characters outside the BMP as two units", () => {
    const line = 'puzzle "dé 🎲" { size 2x2 lightz on }';
    expect(utf16Offset(line, 1)).toBe(0);
    expect(utf16Offset(line, 12)).toBe(11); // the die itself
    expect(utf16Offset(line, 13)).toBe(13); // the quote after it
    expect(line.slice(utf16Offset(line, 26))).toMatch(/^lightz/);
    expect(utf16Offset("ab", 10)).toBe(2);
  });

  it("ends a range at the end of the token, or one unit on", () => {
    expect(tokenEnd("  lightz on", 2)).toBe(8);
    expect(tokenEnd("a  b", 1)).toBe(2);
    expect(tokenEnd("abc", 3)).toBe(3);
    expect(tokenEnd("", 0)).toBe(0);
  });
});

describe("placeDiagnostics", () => {
  it("places each diagnostic on its token, by absolute file", () => {
    const entries = parseCheckOutput(output);
    const placed = placeDiagnostics(entries, fixtures, (_file, line) => sample[line]);
    const file = join(fixtures, "sample.lights");
    expect([...placed.keys()]).toEqual([file]);
    const list = placed.get(file) ?? [];
    expect(list).toHaveLength(3);
    const l0006 = list.find((d) => d.code === "L0006");
    expect(l0006).toMatchObject({ line: 6, startCharacter: 26, endCharacter: 32, puzzle: "dé 🎲" });
    const lineText = sample[6] ?? "";
    expect(lineText.slice(l0006?.startCharacter, l0006?.endCharacter)).toBe("lightz");
    expect(list.find((d) => d.code === "L0001")).toMatchObject({ line: 12, startCharacter: 0, endCharacter: 4 });
  });

  it("uses the column as it is when the file cannot be read", () => {
    const entries = parseCheckOutput(output);
    const list = placeDiagnostics(entries, "/elsewhere", () => undefined).get("/elsewhere/sample.lights") ?? [];
    expect(list.find((d) => d.code === "L0006")).toMatchObject({ startCharacter: 25, endCharacter: 26 });
  });
});

describe("summaries", () => {
  it("counts like the CLI's last line", () => {
    const s = summarize(parseCheckOutput(output));
    expect(s).toEqual({ files: 1, puzzles: 3, errors: 3, warnings: 0, badPuzzles: 2 });
    expect(summaryLine(s)).toBe("checked 3 puzzles in 1 file: 3 errors in 2 puzzles");
    expect(summaryLine({ files: 2, puzzles: 5, errors: 0, warnings: 1, badPuzzles: 0 })).toBe(
      "checked 5 puzzles in 2 files: all fine, 1 warning",
    );
  });

  it("writes one line per puzzle", () => {
    const [outside, a, die, b] = parseCheckOutput(output);
    expect(entryLine(a!, "sample.lights")).toBe("✓ sample.lights: a: 1 solution · minimum 5 presses");
    expect(entryLine(die!, "s")).toBe("✗ s: dé 🎲: 1 error");
    expect(entryLine(b!, "s")).toBe("✗ s: b: unsolvable · 1 error");
    expect(entryLine(outside!, "s")).toBe("✗ s: (outside puzzles): 1 error");
  });
});

describe("entries that are not puzzles", () => {
  const diag = (code: string) => ({ code, severity: "error", message: "m", line: 1, column: 1 });
  const entry = (puzzle: string | null, codes: string[]) =>
    JSON.stringify({ file: "f.lights", puzzle, diagnostics: codes.map(diag) });

  it("tells the text outside blocks from a puzzle without a name", () => {
    const [outside, empty, unnamed, named] = parseCheckOutput(
      `[${entry(null, ["L0001", "L0001"])}, ${entry(null, [])}, ${entry(null, ["L0002"])}, ${entry("a", [])}]`,
    );
    expect([outside, empty, unnamed, named].map((e) => isFileLevel(e!))).toEqual([true, true, false, false]);
    expect(entryLine(unnamed!, "f")).toBe("✗ f: (unnamed): 1 error");
    expect(summarize(parseCheckOutput(`[${entry(null, ["L0001"])}, ${entry(null, ["L0002"])}]`))).toMatchObject({
      puzzles: 1,
      badPuzzles: 1,
      errors: 2,
    });
  });

  it("takes the status line and the kind from the CLI when it gives them", () => {
    const [outside, stuck, fine] = parseCheckOutput(
      `[${JSON.stringify({ file: "f", puzzle: null, kind: null, status: null, diagnostics: [diag("L0001")] })},` +
        `${JSON.stringify({ file: "f", puzzle: "stuck", kind: "puzzle", status: "unsolvable, as expected", solvable: false, diagnostics: [] })},` +
        `${JSON.stringify({ file: "f", puzzle: "p", kind: "sliding", status: "optimal 31 moves · 1 error", solvable: true, diagnostics: [diag("L0202")] })}]`,
    );
    expect([outside, stuck, fine].map((e) => isFileLevel(e!))).toEqual([true, false, false]);
    expect(entryLine(stuck!, "f")).toBe("✓ f: stuck: unsolvable, as expected");
    expect(entryLine(fine!, "f")).toBe("✗ f: p: optimal 31 moves · 1 error");
  });

  it("says when the minimum is not proven", () => {
    const [e] = parseCheckOutput(
      '[{"file": "f", "puzzle": "big", "solvable": true, "solutions": "1024", "presses": 616, "optimal": false, "diagnostics": []}]',
    );
    expect(entryLine(e!, "f")).toBe("✓ f: big: 1024 solutions · 616 presses (minimum not proven)");
  });
});
