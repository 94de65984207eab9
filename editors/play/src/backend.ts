// Where the board's data and the solver's answers come from: the HTTP API of
// `lights play` (the local page) or the VS Code extension by messages (the
// webview). No DOM: fetch and timers only, so the tests can drive both.

import type {
  BoardData,
  PlayRequest,
  PuzzleList,
  RequestMethod,
  SolveResult,
  ToWebview,
  WriteBackResult,
} from "./protocol";

/** Something the page should react to that it did not ask for. */
export type BackendEvent =
  | { kind: "changed"; version?: number }
  | { kind: "select"; puzzle: number }
  | { kind: "offline"; message: string }
  | { kind: "online" };

export interface Backend {
  /** "browser": `lights play`; "vscode": the extension; "static": a site of `lights publish`. */
  readonly host: "browser" | "vscode" | "static";
  puzzles(): Promise<PuzzleList>;
  board(puzzle: number): Promise<BoardData>;
  /**
   * The minimum solution from `lights` to the puzzle's goal. `presses` (per cell, mod W): the
   * presses made since the puzzle's start, when the position was reached so (a published
   * site's hints follow the minimum with it; the tool's servers solve from the position).
   */
  solve(puzzle: number, lights: number[], presses?: number[]): Promise<SolveResult>;
  /**
   * Write `lights` as the puzzle's `lights` statement (VS Code: into the
   * document, unless it moved on from `version`; browser: the text to copy).
   */
  writeBack(puzzle: number, lights: number[], version?: number): Promise<WriteBackResult>;
  /** Start telling `listener` about file changes (and, in VS Code, the cursor's puzzle). */
  watch(listener: (e: BackendEvent) => void): void;
  dispose(): void;
}

/** An HTTP answer that is not a success: its status and the server's message. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

function messageOf(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

// ---------------------------------------------------------------- HTTP (`lights play`)

type Fetch = (input: string, init?: { method?: string; headers?: Record<string, string>; body?: string }) => Promise<{
  ok: boolean;
  status: number;
  statusText: string;
  json(): Promise<unknown>;
}>;

export class HttpBackend implements Backend {
  readonly host = "browser" as const;
  private timer: ReturnType<typeof setInterval> | undefined;
  private version: number | undefined;
  private offline = false;
  private readOnly = false;

  constructor(
    private readonly base = "",
    private readonly fetchFn: Fetch = (input, init) => fetch(input, init),
    private readonly pollMs = 1000,
  ) {}

  private async call<T>(path: string, body?: unknown): Promise<T> {
    const init =
      body === undefined
        ? undefined
        : { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) };
    let res: Awaited<ReturnType<Fetch>>;
    try {
      res = await this.fetchFn(this.base + path, init);
    } catch {
      throw new Error("the lights play server does not answer (was it stopped?)");
    }
    let data: unknown;
    try {
      data = await res.json();
    } catch {
      data = undefined;
    }
    if (!res.ok) {
      const error = (data as { error?: unknown } | undefined)?.error;
      throw new HttpError(res.status, typeof error === "string" ? error : `${res.status} ${res.statusText}`);
    }
    return data as T;
  }

  async puzzles(): Promise<PuzzleList> {
    const list = await this.call<PuzzleList>("/api/puzzles");
    this.readOnly = list.read_only === true;
    return list;
  }
  board(puzzle: number): Promise<BoardData> {
    return this.call(`/api/puzzle/${puzzle}`);
  }
  solve(puzzle: number, lights: number[]): Promise<SolveResult> {
    return this.call(`/api/puzzle/${puzzle}/solve`, { lights });
  }
  /**
   * Write the position into the file (`POST …/write` with the board's version: the server
   * answers 409 when the file moved on, and nothing is written). A server started with
   * `--read-only` (the puzzle list says so) gives the statement to copy instead.
   */
  async writeBack(puzzle: number, lights: number[], version?: number): Promise<WriteBackResult> {
    if (!this.readOnly) {
      try {
        const written = await this.call<{ message: string; version: number }>(`/api/puzzle/${puzzle}/write`, { lights, version });
        return { message: written.message, version: written.version };
      } catch (e) {
        // A server that turned read-only under us: offer the text.
        if (!(e instanceof HttpError) || e.status !== 403) throw e;
      }
    }
    const { text } = await this.call<{ text: string }>(`/api/puzzle/${puzzle}/lights`, { lights });
    return {
      message: "This server does not write the file (--read-only): copy or download the position as the puzzle's lights statement.",
      text,
    };
  }

  /** Poll GET /api/version; a new version means the file changed. */
  watch(listener: (e: BackendEvent) => void): void {
    this.dispose();
    const poll = async () => {
      try {
        const { version } = await this.call<{ version: number }>("/api/version");
        if (this.offline) {
          this.offline = false;
          listener({ kind: "online" });
        }
        if (this.version !== undefined && version !== this.version) listener({ kind: "changed", version });
        this.version = version;
      } catch (e) {
        if (!this.offline) {
          this.offline = true;
          listener({ kind: "offline", message: messageOf(e) });
        }
      }
    };
    void poll();
    this.timer = setInterval(() => void poll(), this.pollMs);
  }

  dispose(): void {
    if (this.timer !== undefined) clearInterval(this.timer);
    this.timer = undefined;
  }
}

// ---------------------------------------------------------------- messages (VS Code webview)

/**
 * Requests to the extension as `{type: "request", id, method, params}`; the
 * extension answers `{type: "response", id, result | error}`, and pushes
 * `{type: "changed"}` (the document was edited) and `{type: "select"}` (the
 * cursor moved into another puzzle).
 */
export class MessageBackend implements Backend {
  readonly host = "vscode" as const;
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  private listener: ((e: BackendEvent) => void) | undefined;

  constructor(private readonly post: (message: PlayRequest) => void) {}

  /** Give every message from the extension to this. */
  receive(message: unknown): void {
    const m = message as ToWebview | null;
    if (typeof m !== "object" || m === null) return;
    if (m.type === "response") {
      const p = this.pending.get(m.id);
      if (p === undefined) return;
      this.pending.delete(m.id);
      if (typeof m.error === "string") p.reject(new Error(m.error));
      else p.resolve(m.result);
    } else if (m.type === "changed") {
      this.listener?.({ kind: "changed", version: m.version });
    } else if (m.type === "select" && Number.isInteger(m.puzzle)) {
      this.listener?.({ kind: "select", puzzle: m.puzzle });
    }
  }

  private call<T>(method: RequestMethod, params?: PlayRequest["params"]): Promise<T> {
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
      const request: PlayRequest = { type: "request", id, method };
      if (params !== undefined) request.params = params;
      try {
        this.post(request);
      } catch (e) {
        this.pending.delete(id);
        reject(new Error(messageOf(e)));
      }
    });
  }

  puzzles(): Promise<PuzzleList> {
    return this.call("puzzles");
  }
  board(puzzle: number): Promise<BoardData> {
    return this.call("board", { puzzle });
  }
  solve(puzzle: number, lights: number[]): Promise<SolveResult> {
    return this.call("solve", { puzzle, lights });
  }
  writeBack(puzzle: number, lights: number[], version?: number): Promise<WriteBackResult> {
    return this.call("writeBack", version === undefined ? { puzzle, lights } : { puzzle, lights, version });
  }
  watch(listener: (e: BackendEvent) => void): void {
    this.listener = listener;
  }
  dispose(): void {
    for (const p of this.pending.values()) p.reject(new Error("closed"));
    this.pending.clear();
    this.listener = undefined;
  }
}
