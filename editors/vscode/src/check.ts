// "Lights: Check Workspace": reading `lights check --format json`.
//
// The output is one JSON array with an object per puzzle (and one for the
// text outside blocks when it has errors), each with `diagnostics`:
// `{code, severity, message, line, column}`, the line and column 1-based and
// the column counted in characters (Unicode scalar values). VS Code counts
// UTF-16 code units, so columns are converted with the line's text.

import * as path from "node:path";

export type Severity = "error" | "warning";

export interface CheckDiagnostic {
  code: string;
  severity: Severity;
  message: string;
  /** 1-based. */
  line: number;
  /** 1-based, in characters. */
  column: number;
}

/** One object of the array. */
export interface CheckEntry {
  file: string;
  puzzle: string | null;
  /** `"puzzle"` or `"sliding"`; null for the text outside blocks (absent before lights 0.1's JSON had it). */
  kind?: "puzzle" | "sliding" | null;
  /**
   * The block's one-line result as `lights check` prints it and the editor's
   * lens shows it (`4 solutions · minimum 15 presses`, `unsolvable, as
   * expected`, `2 errors`); null for the text outside blocks. Absent from
   * the JSON of older binaries.
   */
  status?: string | null;
  solvable: boolean | null;
  solutions: string | null;
  presses: number | null;
  /** Whether `presses` (or, for a sliding block, `moves`) is proven minimum. */
  optimal: boolean | null;
  /** Sliding blocks: the number of moves found (absent for Lights Out puzzles). */
  moves?: number | null;
  /** The error messages; for a file that could not be read, its only content. */
  errors?: string[];
  diagnostics: CheckDiagnostic[];
}

/**
 * Is this the entry for the text outside the puzzle blocks (not a puzzle)?
 * The JSON does not say so directly: that entry has no puzzle name and only
 * L0001 ("outside any puzzle block") diagnostics, or none for a file without
 * puzzles. A puzzle without a name always has L0002 (bad header), so it is
 * never taken for it.
 */
export function isFileLevel(e: CheckEntry): boolean {
  if (e.kind !== undefined) return e.kind === null;
  return e.puzzle === null && e.diagnostics.every((d) => d.code === "L0001");
}

/** A diagnostic placed in a file, in VS Code's terms (0-based, UTF-16). */
export interface PlacedDiagnostic {
  line: number;
  startCharacter: number;
  endCharacter: number;
  severity: Severity;
  code: string;
  message: string;
  /** The puzzle it belongs to, when it belongs to one. */
  puzzle: string | null;
}

export class CheckOutputError extends Error {}

const str = (v: unknown): string | null => (typeof v === "string" ? v : null);

/** The entries of `lights check --format json` output; throws `CheckOutputError` on anything else. */
export function parseCheckOutput(stdout: string): CheckEntry[] {
  let data: unknown;
  try {
    data = JSON.parse(stdout);
  } catch (e) {
    throw new CheckOutputError(`the output of \`lights check --format json\` is not JSON (${(e as Error).message})`);
  }
  if (!Array.isArray(data)) throw new CheckOutputError("the output of `lights check --format json` is not a JSON array");
  return data.map((item: unknown, i): CheckEntry => {
    const o = item as Record<string, unknown>;
    if (typeof o !== "object" || o === null || typeof o.file !== "string" || !Array.isArray(o.diagnostics)) {
      throw new CheckOutputError(`entry ${i + 1} of the output has no \`file\` or no \`diagnostics\``);
    }
    const diagnostics = o.diagnostics.map((d: unknown, j): CheckDiagnostic => {
      const x = d as Record<string, unknown>;
      const ok =
        typeof x === "object" &&
        x !== null &&
        typeof x.message === "string" &&
        Number.isInteger(x.line) &&
        Number.isInteger(x.column) &&
        (x.line as number) >= 1 &&
        (x.column as number) >= 1;
      if (!ok) throw new CheckOutputError(`diagnostic ${j + 1} of entry ${i + 1} is malformed`);
      return {
        code: str(x.code) ?? "",
        severity: x.severity === "warning" ? "warning" : "error",
        message: x.message as string,
        line: x.line as number,
        column: x.column as number,
      };
    });
    return {
      file: o.file,
      puzzle: str(o.puzzle),
      ...("kind" in o ? { kind: o.kind === "puzzle" || o.kind === "sliding" ? o.kind : null } : {}),
      ...("status" in o ? { status: str(o.status) } : {}),
      solvable: typeof o.solvable === "boolean" ? o.solvable : null,
      solutions: str(o.solutions),
      presses: typeof o.presses === "number" ? o.presses : null,
      optimal: typeof o.optimal === "boolean" ? o.optimal : null,
      moves: typeof o.moves === "number" ? o.moves : null,
      ...(Array.isArray(o.errors) ? { errors: o.errors.filter((e): e is string => typeof e === "string") } : {}),
      diagnostics,
    };
  });
}

/** The UTF-16 offset of the 1-based character column `column` in `text` (clamped to its end). */
export function utf16Offset(text: string, column: number): number {
  let offset = 0;
  let chars = 1;
  for (const ch of text) {
    if (chars >= column) return offset;
    offset += ch.length;
    chars += 1;
  }
  return offset;
}

/** Where the token starting at `start` ends: the next whitespace, or at least one unit on. */
export function tokenEnd(text: string, start: number): number {
  let end = start;
  while (end < text.length && !/\s/.test(text[end] ?? "")) end++;
  return end > start ? end : Math.min(start + 1, Math.max(text.length, start));
}

/**
 * The diagnostics of the entries grouped by absolute file path (relative
 * `file`s are taken from `cwd`), placed on the token where each starts.
 * `lineText(file, line0)` gives a line's text (`undefined` when the file or
 * line cannot be read: the column is then used as it is).
 */
export function placeDiagnostics(
  entries: CheckEntry[],
  cwd: string,
  lineText: (file: string, line0: number) => string | undefined,
): Map<string, PlacedDiagnostic[]> {
  const out = new Map<string, PlacedDiagnostic[]>();
  for (const entry of entries) {
    const file = path.resolve(cwd, entry.file);
    const list = out.get(file) ?? [];
    out.set(file, list);
    for (const d of entry.diagnostics) {
      const line = d.line - 1;
      const text = lineText(file, line);
      const start = text === undefined ? d.column - 1 : utf16Offset(text, d.column);
      const end = text === undefined ? start + 1 : tokenEnd(text, start);
      list.push({
        line,
        startCharacter: start,
        endCharacter: end,
        severity: d.severity,
        code: d.code,
        message: d.message,
        puzzle: entry.puzzle,
      });
    }
  }
  return out;
}

export interface CheckSummary {
  files: number;
  puzzles: number;
  errors: number;
  warnings: number;
  /** Puzzles with at least one error. */
  badPuzzles: number;
}

export function summarize(entries: CheckEntry[]): CheckSummary {
  const files = new Set(entries.map((e) => e.file));
  const puzzles = entries.filter((e) => !isFileLevel(e));
  const count = (s: Severity) => entries.reduce((n, e) => n + e.diagnostics.filter((d) => d.severity === s).length, 0);
  return {
    files: files.size,
    puzzles: puzzles.length,
    errors: count("error"),
    warnings: count("warning"),
    badPuzzles: puzzles.filter((e) => e.diagnostics.some((d) => d.severity === "error")).length,
  };
}

/** `1 error`, `3 errors`: a count and its noun, singular only for one (as the CLI writes them). */
export const count = (n: number, noun: string) => `${n} ${noun}${n === 1 ? "" : "s"}`;

/** `checked 12 puzzles in 3 files: all fine` (the CLI's summary line). */
export function summaryLine(s: CheckSummary): string {
  const checked = `checked ${count(s.puzzles, "puzzle")} in ${count(s.files, "file")}`;
  let line =
    s.errors === 0
      ? `${checked}: all fine`
      : `${checked}: ${count(s.errors, "error")} in ${count(s.badPuzzles, "puzzle")}`;
  if (s.warnings > 0) line += `, ${count(s.warnings, "warning")}`;
  return line;
}

const presses = (n: number) => `${n} press${n === 1 ? "" : "es"}`;

/**
 * One line per entry for the output channel, as `lights check` writes it for
 * a puzzle: `✓ file: name: 4 solutions · minimum 15 presses`. The text
 * outside puzzles gets `(outside puzzles)` for a name.
 */
export function entryLine(e: CheckEntry, shownFile: string): string {
  const errors = e.diagnostics.filter((d) => d.severity === "error").length;
  const name = isFileLevel(e)
    ? "(outside puzzles)"
    : e.puzzle === null || e.puzzle.trim() === ""
      ? "(unnamed)"
      : e.puzzle;
  const mark = errors > 0 ? "✗" : "✓";
  // The CLI says it itself (the same words as the editor's lens).
  if (typeof e.status === "string") return `${mark} ${shownFile}: ${name}: ${e.status}`;
  // Older binaries: rebuilt from the other keys.
  let result: string;
  if (e.solvable === false) result = "unsolvable";
  else if (e.solvable === true && typeof e.moves === "number") {
    // A sliding block: the CLI's `optimal 31 moves` / `104 moves (not proven fewest)`.
    result = e.optimal === false ? `${e.moves} moves (not proven fewest)` : `optimal ${e.moves} moves`;
  } else if (e.solvable === true) {
    const n = e.solutions ?? "?";
    result = `${n} solution${n === "1" ? "" : "s"}`;
    if (e.presses !== null) {
      result += e.optimal === false ? ` · ${presses(e.presses)} (minimum not proven)` : ` · minimum ${presses(e.presses)}`;
    }
  } else result = errors > 0 || isFileLevel(e) ? "" : "well formed";
  const parts = [result, errors > 0 ? count(errors, "error") : ""].filter((p) => p !== "");
  return `${mark} ${shownFile}: ${name}: ${parts.join(" · ")}`;
}
