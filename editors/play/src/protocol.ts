// The data the board view plays with, as the tool sends it (the contract of
// issue 19: one Rust function in crates/ide builds each object; `lights play`
// serves it over HTTP, `lights lsp` answers it as custom requests), and the
// messages between the VS Code webview and the extension.
//
// Types only: imported by the page (editors/play/src), by the extension
// (editors/vscode/src) and by the tests. No DOM, no Node.

export type Gluing = "open" | "glued" | "twisted";
export type Shape = "square" | "hex" | "graph";

/** The minimum solution from a position to the puzzle's goal (presses per cell). */
export interface SolveResult {
  solvable: boolean;
  /** How many solutions, as a decimal string (it can exceed 2^53). */
  solutions: string;
  /** Presses of the minimum solution (null when not known). */
  presses: number | null;
  optimal: boolean;
  /** Presses per cell, 0…W−1; locked buttons and holes never pressed. Null when unsolvable or not computed. */
  minimum: number[] | null;
  /** One line for people: "4 solutions · minimum 12 presses". */
  status: string;
}

/** One puzzle, ready to play: everything per cell, in reading order (a graph: cell i is node i+1). */
export interface BoardData {
  version: number;
  index: number;
  name: string;
  /** False: only index, name, version and `why` are meaningful. */
  playable: boolean;
  why: string | null;
  shape: Shape;
  rows: number;
  cols: number;
  /** W: lights take the values 0…W−1 and a press adds modulo W. */
  states: number;
  rule: string;
  topology: string;
  /** columns: the left and right borders; rows: the top and bottom borders. */
  gluing: { columns: Gluing; rows: Gluing };
  /** The board in one line for people: "5×5 square board · rule cross · torus · 2 states", "Petersen graph · 10 nodes · 15 edges · rule σ+ (…) · 2 states". */
  description: string;
  /**
   * The colour of each light state (#rrggbb), the one scheme `lights render` draws:
   * one per state up to 1,024 states; beyond, 1,024 slots (see `paletteSlot`).
   */
  palette: string[];
  labels: string[];
  lights: number[];
  goal: number[];
  locked: boolean[];
  holes: boolean[];
  /** Per cell, its press pattern exactly as the solver defines it: [target cell, weight] pairs (empty for holes). */
  presses: [number, number][][];
  /**
   * A graph's drawing (the one `lights render` draws): edges, a point per node in the unit
   * square, per edge whether it is dashed (a cube's surface: faces apart in the net), and the
   * largest node radius (layout units) at which nodes do not touch and no solid edge passes
   * through a node.
   */
  graph: { edges: [number, number][]; layout: [number, number][]; dashed: boolean[]; node_radius: number } | null;
  /** The animated light chase applies (square grid, cross rule, plane, no holes, no locks). */
  chase: boolean;
  /** The puzzle's own lights solved, or null. */
  report: SolveResult | null;
}

export interface PuzzleEntry {
  index: number;
  name: string;
  kind: "puzzle" | "sliding";
  playable: boolean;
  why: string | null;
  status: string;
}

export interface PuzzleList {
  file: string;
  /** A published site: the pack's identity, for the saved progress (else the file's name is used). */
  pack?: string;
  version: number;
  puzzles: PuzzleEntry[];
  /** `lights play --puzzle NAME`: the block the page opens on (else null or absent). */
  start?: number | null;
  /** Why the file could not be read, or its first error outside every block; else null or absent. */
  error?: string | null;
  /** `lights play --read-only`: Write back offers the statement to copy instead of writing the file. */
  read_only?: boolean;
  /** VS Code only: the puzzle under the cursor when Play was opened. */
  selected?: number;
}

/** What "write back" did: a message, and (in the browser) the `lights` statement to copy or download. */
export interface WriteBackResult {
  message: string;
  text?: string;
  /** The file's version after the write, when it wrote: the version its "changed" event will carry. */
  version?: number;
}

// ---------------------------------------------------------------- webview messages

export type RequestMethod = "puzzles" | "board" | "solve" | "writeBack";

/**
 * Webview → extension. `puzzle` for board/solve/writeBack, `lights` for
 * solve/writeBack; `version` (writeBack, optional): the board's version the
 * position was played on: nothing is written when the document moved on.
 */
export interface PlayRequest {
  type: "request";
  id: number;
  method: RequestMethod;
  params?: { puzzle?: number; lights?: number[]; version?: number };
}

/** Extension → webview: the answer to request `id` (exactly one of result and error). */
export interface PlayResponse {
  type: "response";
  id: number;
  result?: unknown;
  error?: string;
}

/** Extension → webview: the document changed; ask again. */
export interface PlayChanged {
  type: "changed";
  version?: number;
}

/** Extension → webview: the cursor moved into puzzle `puzzle`; show it. */
export interface PlaySelect {
  type: "select";
  puzzle: number;
}

export type ToWebview = PlayResponse | PlayChanged | PlaySelect;
export type FromWebview = PlayRequest;

/** An LSP TextEdit, as `lights/lightsEdit` returns them. */
export interface LspTextEdit {
  range: { start: { line: number; character: number }; end: { line: number; character: number } };
  newText: string;
}
