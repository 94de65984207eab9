// "Lights: Play": the messages between the webview (editors/play, with its
// MessageBackend) and the extension, answered with the language server's
// custom requests. No `vscode` here: the extension gives a PlayDeps (how to
// reach the server and edit the document), the tests give fakes.
//
//   webview → {type: "request", id, method: puzzles|board|solve|writeBack, params}
//   extension → {type: "response", id, result | error}
//   extension → {type: "changed", version}   the document was edited
//   extension → {type: "select", puzzle}     the cursor moved into another puzzle

import type {
  BoardData,
  LspTextEdit,
  PlayRequest,
  PlayResponse,
  PuzzleEntry,
  PuzzleList,
  RequestMethod,
  ToWebview,
  WriteBackResult,
} from "../../play/src/protocol";

export type { BoardData, LspTextEdit, PlayRequest, PlayResponse, PuzzleList, ToWebview };

/** The language server's custom requests (crates/lsp; built by crates/ide's play module). */
export const BOARD_REQUEST = "lights/board";
export const SOLVE_FROM_REQUEST = "lights/solveFrom";
export const LIGHTS_EDIT_REQUEST = "lights/lightsEdit";

/** Thrown by PlayDeps.request when no language server is running. */
export class ServerDown extends Error {
  constructor(message = "the language server is not running (see the Lights Language Server output, or run Lights: Restart Language Server)") {
    super(message);
    this.name = "ServerDown";
  }
}

export interface PlayDeps {
  /** The played document's URI as the server knows it. */
  uri(): string;
  /** A request to the language server (throws ServerDown when none runs). */
  request(method: string, params: unknown): Promise<unknown>;
  /** The document's puzzles (from its outline). */
  puzzles(): Promise<PuzzleList>;
  /**
   * Apply edits to the played document: its version after them, or false when
   * they were not applied (also when the document is no longer at `version`,
   * the one the server made them for).
   */
  applyEdits(edits: LspTextEdit[], version?: number): Promise<number | false>;
}

const METHODS: readonly RequestMethod[] = ["puzzles", "board", "solve", "writeBack"];

function messageOf(e: unknown): string {
  if (e instanceof Error) return e.message;
  if (typeof e === "object" && e !== null && typeof (e as { message?: unknown }).message === "string") {
    return (e as { message: string }).message;
  }
  return String(e);
}

const isIndex = (v: unknown): v is number => typeof v === "number" && Number.isInteger(v) && v >= 0;
const isLights = (v: unknown): v is number[] => Array.isArray(v) && v.every(isIndex);

/** A request from the webview, or why it is not one (with its id when it has one). */
export function parseRequest(message: unknown): PlayRequest | { invalid: string; id?: number } {
  const m = message as Partial<PlayRequest> | null;
  if (typeof m !== "object" || m === null || m.type !== "request") return { invalid: "not a request" };
  if (!isIndex(m.id)) return { invalid: "a request needs an integer id" };
  const id = m.id;
  if (!METHODS.includes(m.method as RequestMethod)) return { invalid: `unknown method ${String(m.method)}`, id };
  const params = (m.params ?? {}) as PlayRequest["params"] & object;
  if (m.method !== "puzzles" && !isIndex(params.puzzle)) return { invalid: `${m.method} needs a puzzle index`, id };
  if ((m.method === "solve" || m.method === "writeBack") && !isLights(params.lights)) {
    return { invalid: `${m.method} needs lights: an array of non-negative integers`, id };
  }
  if (params.version !== undefined && !Number.isInteger(params.version)) {
    return { invalid: "a version is an integer", id };
  }
  return { type: "request", id, method: m.method as RequestMethod, params };
}

/** Answer one request. Never throws: failures are `{error}` responses. */
export async function handleRequest(request: PlayRequest, deps: PlayDeps): Promise<PlayResponse> {
  const { id } = request;
  try {
    return { type: "response", id, result: await answer(request, deps) };
  } catch (e) {
    return { type: "response", id, error: messageOf(e) };
  }
}

async function answer(request: PlayRequest, deps: PlayDeps): Promise<unknown> {
  const puzzle = request.params?.puzzle ?? 0;
  const lights = request.params?.lights ?? [];
  switch (request.method) {
    case "puzzles":
      return deps.puzzles();
    case "board": {
      const board = await deps.request(BOARD_REQUEST, { uri: deps.uri(), puzzle });
      if (board === null || board === undefined) throw new Error(`there is no puzzle ${puzzle + 1} in the file`);
      return board;
    }
    case "solve": {
      const result = await deps.request(SOLVE_FROM_REQUEST, { uri: deps.uri(), puzzle, lights });
      if (result === null || result === undefined) throw new Error("the server could not solve this position (the file changed?)");
      return result;
    }
    case "writeBack":
      return writeBack(puzzle, lights, request.params?.version, deps);
  }
}

async function writeBack(
  puzzle: number,
  lights: number[],
  version: number | undefined,
  deps: PlayDeps,
): Promise<WriteBackResult> {
  const params = version === undefined ? { uri: deps.uri(), puzzle, lights } : { uri: deps.uri(), puzzle, lights, version };
  const result = (await deps.request(LIGHTS_EDIT_REQUEST, params)) as { edits?: LspTextEdit[]; version?: number } | null;
  if (result === null || result === undefined || !Array.isArray(result.edits)) {
    throw new Error("the file changed meanwhile, or the puzzle has errors, so nothing was written: try again");
  }
  if (result.edits.length === 0) return { message: "The file already has these lights." };
  const applied = await deps.applyEdits(result.edits, typeof result.version === "number" ? result.version : undefined);
  if (applied === false) throw new Error("VS Code did not apply the edit (the file changed meanwhile?): try again");
  return { message: "Wrote the position into the file as the puzzle's lights.", version: applied };
}

/** The puzzle list from the server's document symbols (one per block, in order; `detail` "sliding" for sliding blocks). */
export function puzzleList(symbols: unknown, file: string, version: number, selected?: number): PuzzleList {
  const entries: PuzzleEntry[] = (Array.isArray(symbols) ? symbols : []).map((s: unknown, index) => {
    const o = (typeof s === "object" && s !== null ? s : {}) as { name?: unknown; detail?: unknown };
    const name = typeof o.name === "string" ? o.name : `puzzle ${index + 1}`;
    const detail = typeof o.detail === "string" ? o.detail : "";
    const sliding = detail === "sliding";
    return {
      index,
      name,
      kind: sliding ? "sliding" : "puzzle",
      playable: !sliding,
      why: sliding ? "a sliding-tile puzzle: Play shows Lights Out boards" : null,
      status: detail,
    };
  });
  const list: PuzzleList = { file, version, puzzles: entries };
  if (selected !== undefined) list.selected = selected;
  return list;
}

/**
 * One Play panel's conversation: requests from the webview are answered with
 * the deps; document edits become one `changed` message (debounced), the
 * cursor's puzzle a `select`.
 */
export class PlaySession {
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** The puzzle the webview shows (the last one it asked the board of). */
  shown: number | undefined;

  constructor(
    private readonly post: (message: ToWebview) => unknown,
    private readonly deps: PlayDeps,
    private readonly options: { debounceMs?: number; onBoard?: (board: BoardData) => void } = {},
  ) {}

  /** A message from the webview: answer it (invalid requests with an id get an error response). */
  async receive(message: unknown): Promise<PlayResponse | undefined> {
    const request = parseRequest(message);
    let response: PlayResponse;
    if ("invalid" in request) {
      if (request.id === undefined) return undefined;
      response = { type: "response", id: request.id, error: request.invalid };
    } else {
      response = await handleRequest(request, this.deps);
      if (request.method === "board" && response.error === undefined) {
        this.shown = request.params?.puzzle;
        this.options.onBoard?.(response.result as BoardData);
      }
    }
    this.post(response);
    return response;
  }

  /** The document was edited: tell the webview once the edits pause. */
  documentChanged(version?: number): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    const send = () => {
      this.timer = undefined;
      this.post(version === undefined ? { type: "changed" } : { type: "changed", version });
    };
    const delay = this.options.debounceMs ?? 200;
    if (delay <= 0) send();
    else this.timer = setTimeout(send, delay);
  }

  /** Show another puzzle (the cursor moved into it); nothing when it is already shown. */
  select(puzzle: number): boolean {
    if (puzzle === this.shown) return false;
    this.shown = puzzle;
    this.post({ type: "select", puzzle });
    return true;
  }

  dispose(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
  }
}
