// The TextMate grammar against the parser of `lights`: files the parser
// accepts get no invalid.illegal token, and each mistake the parser reports
// on a line of text (not a missing brace) is marked on that line.
// (The per-scope assertions are in test/grammar/*.test.lights.)

import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import * as oniguruma from "vscode-oniguruma";
import * as textmate from "vscode-textmate";

import { checkFolder } from "../../src/cli";
import { lightsBin, repo } from "./lightsBinary";

const root = join(__dirname, "..", "..");
let grammar: textmate.IGrammar;

beforeAll(async () => {
  const wasm = readFileSync(join(root, "node_modules", "vscode-oniguruma", "release", "onig.wasm"));
  await oniguruma.loadWASM(wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength));
  const registry = new textmate.Registry({
    onigLib: Promise.resolve({
      createOnigScanner: (sources: string[]) => new oniguruma.OnigScanner(sources),
      createOnigString: (s: string) => new oniguruma.OnigString(s),
    }),
    loadGrammar: async (scopeName: string) => {
      if (scopeName !== "source.lights") return null;
      const path = join(root, "syntaxes", "lights.tmLanguage.json");
      return textmate.parseRawGrammar(readFileSync(path, "utf8"), path);
    },
  });
  const g = await registry.loadGrammar("source.lights");
  if (g === null) throw new Error("the grammar did not load");
  grammar = g;
});

/** The 0-based lines that hold an invalid.illegal token, with the token's text. */
function invalidLines(text: string): Map<number, string[]> {
  const out = new Map<number, string[]>();
  let stack = textmate.INITIAL;
  text.split(/\r?\n/).forEach((line, i) => {
    const r = grammar.tokenizeLine(line, stack);
    for (const t of r.tokens) {
      if (t.scopes.some((s) => s.startsWith("invalid.illegal"))) {
        out.set(i, [...(out.get(i) ?? []), line.slice(t.startIndex, t.endIndex)]);
      }
    }
    stack = r.ruleStack;
  });
  return out;
}

const lightsFiles = (dir: string) =>
  readdirSync(dir)
    .filter((f) => f.endsWith(".lights"))
    .map((f) => join(dir, f));

describe("the grammar on files the parser accepts", () => {
  const files = lightsFiles(join(repo, "examples"));

  it("finds the examples", () => {
    expect(files.length).toBeGreaterThan(10);
  });

  it("marks nothing invalid in any example", () => {
    for (const file of files) {
      expect(Object.fromEntries(invalidLines(readFileSync(file, "utf8"))), file).toEqual({});
    }
  });

  it("marks nothing invalid in holes, hex boards and graphs", () => {
    const shapes = [
      'puzzle "donut" {\n  size 5x5\n  holes {\n    . . . . .\n    . . x . .\n  }\n  holes at 3,3\n  lights on\n}',
      'puzzle "hex" {\n  size 3x4\n  grid hex\n  rule ring\n  topology cylinder\n  lights {\n    1 . . 1\n     . 1 . .\n    ....\n  }\n}',
      'puzzle "orbix" {\n  graph icosahedron\n  lights at 1 4:2 12\n  locked at 2\n  holes at 5\n  solution at 3 7:2\n}',
      'puzzle "cube" { graph cube-surface 3 lights on }',
      'puzzle "custom" {\n  graph { 1-2 2 - 3\n    3-1 // a triangle\n    4 }\n  states 3\n}',
    ].join("\n\n");
    expect(Object.fromEntries(invalidLines(shapes))).toEqual({});
  });

  it("marks nothing invalid in the README's tour", () => {
    const readme = readFileSync(join(repo, "README.md"), "utf8");
    const tour = /## A tour of the language\n\n```[^\n]*\n([\s\S]*?)```/.exec(readme)?.[1];
    expect(tour).toContain("puzzle");
    expect(Object.fromEntries(invalidLines(tour!))).toEqual({});
  });
});

// Codes of mistakes in the text itself, which the grammar can see.
const TEXT_CODES = new Set(["L0001", "L0002", "L0003", "L0005", "L0006", "L0007", "L0106", "L0109", "L0110", "L0120"]);

describe.skipIf(lightsBin === undefined)("the grammar on the parser's error corpus", () => {
  it("marks the line of each mistake in the text", async () => {
    const corpus = join(repo, "tests", "corpus");
    const { entries } = await checkFolder(lightsBin!, corpus);
    let checked = 0;
    const byFile = new Map<string, typeof entries>();
    for (const e of entries) byFile.set(e.file, [...(byFile.get(e.file) ?? []), e]);
    for (const [file, list] of byFile) {
      const invalid = invalidLines(readFileSync(file, "utf8"));
      const diagnostics = list.flatMap((e) => e.diagnostics);
      for (const d of diagnostics.filter((x) => TEXT_CODES.has(x.code))) {
        expect(invalid.has(d.line - 1), `${file}:${d.line}: ${d.code} ${d.message}`).toBe(true);
        checked++;
      }
      // And the grammar flags no line where the parser saw nothing wrong.
      const reported = new Set(diagnostics.map((d) => d.line));
      for (const [line, tokens] of invalid) {
        expect(reported.has(line + 1), `${file}:${line + 1}: ${tokens.join(" ")}`).toBe(true);
      }
    }
    expect(checked).toBeGreaterThanOrEqual(TEXT_CODES.size);
  });
});

describe("the colours of a board", () => {
  /** The innermost scope of each non-blank character of a line inside a puzzle. */
  function cellScopes(rows: string): Map<string, string> {
    const text = `puzzle "p" {\n  size 2x3\n  lights {\n${rows}\n  }\n}`;
    let stack = textmate.INITIAL;
    const out = new Map<string, string>();
    text.split("\n").forEach((line, i) => {
      const r = grammar.tokenizeLine(line, stack);
      stack = r.ruleStack;
      if (i < 3 || i > 4) return;
      for (const t of r.tokens) {
        const s = line.slice(t.startIndex, t.endIndex).trim();
        if (s !== "") out.set(s, t.scopes[t.scopes.length - 1]!);
      }
    });
    return out;
  }

  it("gives off cells a scope default themes colour (constant.language, like `off`), and on cells another (constant.numeric)", () => {
    const spaced = cellScopes("    . 1 0\n    2 . 1");
    expect(spaced.get(".")).toBe("constant.language.cell.off.lights");
    expect(spaced.get("0")).toBe("constant.language.cell.off.lights");
    expect(spaced.get("1")).toBe("constant.numeric.cell.on.state-1.lights");
    const compact = cellScopes("    .1.\n    1..");
    expect(compact.get(".")).toBe("constant.language.cell.off.lights");
    // `constant.language` and `constant.numeric` are separate rules in Dark+, Light+ and the high-contrast themes.
    expect(spaced.get(".")!.split(".").slice(0, 2)).toEqual(["constant", "language"]);
    expect(spaced.get("1")!.split(".").slice(0, 2)).toEqual(["constant", "numeric"]);
  });

  it("gives the blank of a sliding block the same kind of scope", () => {
    let stack = textmate.INITIAL;
    const scopes: string[] = [];
    for (const line of ['sliding "s" {', "  tiles {", "    1 2", "    3 .", "  }", "}"]) {
      const r = grammar.tokenizeLine(line, stack);
      stack = r.ruleStack;
      for (const t of r.tokens) if (line.slice(t.startIndex, t.endIndex) === ".") scopes.push(t.scopes[t.scopes.length - 1]!);
    }
    expect(scopes).toEqual(["constant.language.cell.blank.lights"]);
  });
});
