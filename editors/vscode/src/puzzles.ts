// Which puzzle is under the cursor, from the server's document symbols (one
// per puzzle block, in file order: the server's puzzle index is the
// symbol's position in the list), and the code action that inserts its
// minimum solution.

export interface Position {
  line: number;
  character: number;
}

export interface Range {
  start: Position;
  end: Position;
}

/** A puzzle block as the server outlines it. */
export interface PuzzleSymbol {
  /** The name the server shows (unescaped; a placeholder for a block without a name). */
  name: string;
  /** The whole block. */
  range: Range;
  /** The quoted name (or the header when the block has no name). */
  selectionRange: Range;
}

export interface PuzzleAt {
  /** The puzzle's index in the file, as `lights.insertSolution` takes it. */
  index: number;
  symbol: PuzzleSymbol;
}

function isPosition(v: unknown): v is Position {
  const p = v as Position;
  return typeof p === "object" && p !== null && Number.isInteger(p.line) && Number.isInteger(p.character);
}

function isRange(v: unknown): v is Range {
  const r = v as Range;
  return typeof r === "object" && r !== null && isPosition(r.start) && isPosition(r.end);
}

/**
 * The puzzles of a `textDocument/documentSymbol` response: `DocumentSymbol[]`
 * (what `lights lsp` sends) or `SymbolInformation[]`. Anything else is no
 * puzzles; entries without a usable range are skipped, but they keep their
 * place so the indices stay those of the server.
 */
export function puzzleSymbols(response: unknown): (PuzzleSymbol | undefined)[] {
  if (!Array.isArray(response)) return [];
  return response.map((s: unknown) => {
    if (typeof s !== "object" || s === null) return undefined;
    const o = s as { name?: unknown; range?: unknown; selectionRange?: unknown; location?: { range?: unknown } };
    const name = typeof o.name === "string" ? o.name : "";
    const range = isRange(o.range) ? o.range : isRange(o.location?.range) ? o.location.range : undefined;
    if (range === undefined) return undefined;
    const selectionRange = isRange(o.selectionRange) ? o.selectionRange : range;
    return { name, range, selectionRange };
  });
}

function before(a: Position, b: Position): boolean {
  return a.line < b.line || (a.line === b.line && a.character < b.character);
}

/** Is `p` in `r` (both ends included: a cursor right after `}` is still in the block)? */
export function contains(r: Range, p: Position): boolean {
  return !before(p, r.start) && !before(r.end, p);
}

/**
 * The puzzle under the cursor: the block whose range holds it. When the
 * cursor is outside every block (a comment between two puzzles), a file with
 * exactly one puzzle still answers with that one; otherwise `undefined`.
 */
export function puzzleAt(symbols: (PuzzleSymbol | undefined)[], cursor: Position): PuzzleAt | undefined {
  // The last match wins: when one block ends on the line where the next one starts
  // (`} puzzle "b" {`), a cursor on the shared position belongs to the later block.
  let hit: PuzzleAt | undefined;
  symbols.forEach((symbol, index) => {
    if (symbol !== undefined && contains(symbol.range, cursor)) hit = { index, symbol };
  });
  if (hit !== undefined) return hit;
  const present = symbols.flatMap((symbol, index) => (symbol === undefined ? [] : [{ index, symbol }]));
  return present.length === 1 ? present[0] : undefined;
}

/**
 * The puzzle's name as `lights render --puzzle` wants it, from the source
 * text of the symbol's selection range: the quoted name, unescaped
 * (`\"` and `\\`). `undefined` when the text is not a well-formed name (a
 * block without a name, where the server shows a placeholder).
 */
export function puzzleNameFromSource(quoted: string): string | undefined {
  const m = /^"((?:[^"\\\r\n]|\\["\\])*)"$/.exec(quoted);
  if (m === null || m[1] === undefined) return undefined;
  return m[1].replace(/\\(["\\])/g, "$1");
}

/** The titles of the server's code action that inserts or replaces the minimum solution. */
export const SOLUTION_ACTION_TITLES = ["Insert minimum solution", "Insert solution", "Replace solution"] as const;

/** A code action (or a bare command) as the server sends it. */
export interface ActionLike {
  title: string;
  command?: unknown;
  edit?: unknown;
}

/**
 * The "Insert minimum solution (…)" / "Replace solution (…)" action among
 * `actions` (for a sliding block: "Insert solution (31 moves, optimal)").
 */
export function solutionAction<T extends ActionLike>(actions: readonly T[] | null | undefined): T | undefined {
  return (actions ?? []).find(
    (a) => typeof a?.title === "string" && SOLUTION_ACTION_TITLES.some((t) => a.title === t || a.title.startsWith(`${t} (`)),
  );
}

/** Why there is nothing to insert, for a message to the user. */
export function noSolutionMessage(name: string): string {
  return (
    `There is no minimum solution to insert into puzzle "${name}": it already has it, ` +
    "it cannot be solved, it has errors, or it is still being solved (see the line above the puzzle)."
  );
}

/** A code lens as the server sends it (only what is read here). */
export interface LensLike {
  range: Range;
  command?: { title?: string } | null;
}

/**
 * Is the puzzle whose header is on `headerLine` still being solved? The
 * server's status lens on that line says `⋯ solving…` until the answer is
 * there. (With code lenses turned off there are none: then this is false.)
 */
export function isSolving(lenses: readonly LensLike[] | null | undefined, headerLine: number): boolean {
  return (lenses ?? []).some((l) => l.range?.start?.line === headerLine && (l.command?.title ?? "").startsWith("⋯"));
}
