// The extension's use of the command line, against the real `lights` binary.

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

import { CheckEntry, CheckOutputError, entryLine, isFileLevel, placeDiagnostics, summarize, summaryLine } from "../../src/check";
import { checkFolder, run } from "../../src/cli";
import { lightsBin, repo } from "./lightsBinary";

const bin = lightsBin ?? "";
const examples = join(repo, "examples");
const corpus = join(repo, "tests", "corpus");

/** The ✓/✗ lines of the CLI's own report for `path`. */
async function humanLines(path: string): Promise<string[]> {
  const { stdout } = await run(bin, ["check", path]);
  return stdout.split("\n").filter((l) => /^[✓✗] /.test(l));
}

describe.skipIf(lightsBin === undefined)("lights check --format json", () => {
  it("reads the examples: every puzzle fine, one line per puzzle as the CLI writes it", async () => {
    const result = await checkFolder(bin, examples);
    expect(result.code).toBe(0);
    const s = summarize(result.entries);
    expect(s.errors).toBe(0);
    expect(s.puzzles).toBeGreaterThan(10);
    expect(result.entries.map((e) => entryLine(e, e.file))).toEqual(await humanLines(examples));
    expect(result.entries.some((e) => e.optimal === false)).toBe(true);
  });

  it("reads the error corpus: each diagnostic placed inside its line, counts as the CLI's", async () => {
    const result = await checkFolder(bin, corpus);
    expect(result.code).toBe(1);
    const lines = new Map<string, string[]>();
    const lineText = (file: string, line: number) => {
      if (!lines.has(file)) lines.set(file, readFileSync(file, "utf8").split("\n"));
      return lines.get(file)?.[line];
    };
    const placed = placeDiagnostics(result.entries, corpus, lineText);
    let count = 0;
    for (const [file, list] of placed) {
      for (const d of list) {
        const text = lineText(file, d.line);
        expect(text, `${file}:${d.line + 1}`).toBeDefined();
        expect(d.startCharacter).toBeLessThanOrEqual(text!.length);
        expect(d.endCharacter).toBeGreaterThanOrEqual(d.startCharacter);
        expect(d.endCharacter).toBeLessThanOrEqual(Math.max(text!.length, d.startCharacter + 1));
        count++;
      }
    }
    const { stdout } = await run(bin, ["check", corpus]);
    const last = stdout.trim().split("\n").pop() ?? "";
    const s = summarize(result.entries);
    expect(last).toBe(summaryLine(s));
    expect(count).toBe(s.errors + s.warnings);
    const puzzles = (entries: CheckEntry[]) => entries.filter((e) => !isFileLevel(e));
    expect(puzzles(result.entries).map((e) => entryLine(e, e.file))).toEqual(await humanLines(corpus));
    // The file names each diagnostic's own file: every L01xx corpus file has its code.
    for (const [file, list] of placed) {
      const code = /(L\d{4})-[^/]*\.lights$/.exec(file)?.[1];
      if (code !== undefined) expect(list.map((d) => d.code), file).toContain(code);
    }
  });

  it("fails with lights' own message on a folder that is not there", async () => {
    await expect(checkFolder(bin, join(repo, "no-such-folder"))).rejects.toThrow(CheckOutputError);
    await expect(checkFolder(bin, join(repo, "no-such-folder"))).rejects.toThrow(/cannot read/);
  });

  it("rejects a binary that cannot be run", async () => {
    await expect(run(join(repo, "no-such-binary"), ["check"])).rejects.toThrow(/cannot run/);
  });
});
