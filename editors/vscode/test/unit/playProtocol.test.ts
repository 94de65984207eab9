// The Play webview's messages: src/playProtocol.ts (the extension's side)
// with fake deps, and the webview's MessageBackend (editors/play) talking to
// it through fake postMessage channels.

import { afterEach, describe, expect, it, vi } from "vitest";

import { BackendEvent, HttpBackend, MessageBackend } from "../../../play/src/backend";
import type { LspTextEdit, PlayResponse, ToWebview } from "../../../play/src/protocol";
import {
  BOARD_REQUEST,
  handleRequest,
  LIGHTS_EDIT_REQUEST,
  parseRequest,
  PlayDeps,
  PlaySession,
  puzzleList,
  ServerDown,
  SOLVE_FROM_REQUEST,
} from "../../src/playProtocol";
import { crossBoard, solve } from "./playBoards";

const URI = "file:///work/levels.lights";

/** Deps answering like the language server would, recording what was asked and applied. */
function fakeDeps(options: { down?: boolean; edits?: LspTextEdit[] | null; apply?: boolean } = {}) {
  const board = crossBoard({ rows: 3, cols: 3, name: "first light", lights: [0, 1, 0, 1, 1, 1, 0, 1, 0] });
  const requests: { method: string; params: unknown }[] = [];
  const applied: LspTextEdit[][] = [];
  const deps: PlayDeps = {
    uri: () => URI,
    async request(method, params) {
      if (options.down) throw new ServerDown();
      requests.push({ method, params });
      const p = params as { puzzle: number; lights?: number[] };
      if (p.puzzle !== 0) return null;
      if (method === BOARD_REQUEST) return board;
      if (method === SOLVE_FROM_REQUEST) return solve(board, p.lights!);
      if (method === LIGHTS_EDIT_REQUEST) return options.edits === null ? null : { edits: options.edits ?? [] };
      throw Object.assign(new Error(`Unhandled method ${method}`), { code: -32601 });
    },
    async puzzles() {
      return puzzleList([{ name: "first light", detail: "3×3 cross" }], "levels.lights", 4, 0);
    },
    async applyEdits(edits) {
      applied.push(edits);
      // The document's version after the edit (the fake's puzzle list is at version 4).
      return options.apply === false ? false : 5;
    },
  };
  return { deps, board, requests, applied };
}

afterEach(() => {
  vi.useRealTimers();
});

describe("parseRequest", () => {
  it("takes well-formed requests and says what is wrong with the others", () => {
    expect(parseRequest({ type: "request", id: 1, method: "puzzles" })).toMatchObject({ method: "puzzles", id: 1 });
    expect(parseRequest({ type: "request", id: 2, method: "solve", params: { puzzle: 0, lights: [0, 1] } })).toMatchObject({
      method: "solve",
    });
    expect(parseRequest(null)).toEqual({ invalid: "not a request" });
    expect(parseRequest({ type: "response", id: 1 })).toEqual({ invalid: "not a request" });
    expect(parseRequest({ type: "request", id: "1", method: "puzzles" })).toMatchObject({ invalid: expect.stringContaining("id") });
    expect(parseRequest({ type: "request", id: 3, method: "rm" })).toEqual({ invalid: "unknown method rm", id: 3 });
    expect(parseRequest({ type: "request", id: 4, method: "board", params: {} })).toMatchObject({ id: 4, invalid: expect.stringContaining("puzzle") });
    expect(parseRequest({ type: "request", id: 5, method: "solve", params: { puzzle: 0, lights: [1, -1] } })).toMatchObject({
      id: 5,
      invalid: expect.stringContaining("lights"),
    });
    expect(parseRequest({ type: "request", id: 6, method: "writeBack", params: { puzzle: 0, lights: [1], version: "7" } })).toMatchObject({
      id: 6,
      invalid: expect.stringContaining("version"),
    });
  });
});

describe("handleRequest", () => {
  it("answers each request with its id, through the server's custom requests", async () => {
    const { deps, board, requests } = fakeDeps();
    const r1 = await handleRequest({ type: "request", id: 7, method: "board", params: { puzzle: 0 } }, deps);
    expect(r1).toEqual({ type: "response", id: 7, result: board });
    const lights = [0, 0, 0, 0, 1, 0, 0, 0, 0];
    const r2 = await handleRequest({ type: "request", id: 8, method: "solve", params: { puzzle: 0, lights } }, deps);
    expect(r2.id).toBe(8);
    expect(r2.result).toEqual(solve(board, lights));
    expect(requests).toEqual([
      { method: "lights/board", params: { uri: URI, puzzle: 0 } },
      { method: "lights/solveFrom", params: { uri: URI, puzzle: 0, lights } },
    ]);
    const r3 = await handleRequest({ type: "request", id: 9, method: "puzzles" }, deps);
    expect(r3.result).toMatchObject({ file: "levels.lights", version: 4, selected: 0, puzzles: [{ index: 0, name: "first light", playable: true }] });
  });

  it("turns failures into error responses: server down, no such puzzle, unknown method", async () => {
    const down = fakeDeps({ down: true }).deps;
    const r = await handleRequest({ type: "request", id: 1, method: "board", params: { puzzle: 0 } }, down);
    expect(r).toEqual({ type: "response", id: 1, error: expect.stringContaining("language server is not running") });
    const { deps } = fakeDeps();
    const missing = await handleRequest({ type: "request", id: 2, method: "board", params: { puzzle: 3 } }, deps);
    expect(missing.error).toBe("there is no puzzle 4 in the file");
    const rejected = await handleRequest(
      { type: "request", id: 3, method: "board", params: { puzzle: 0 } },
      { ...deps, request: () => Promise.reject({ code: -32601, message: "Unhandled method lights/board" }) },
    );
    expect(rejected.error).toBe("Unhandled method lights/board");
  });

  it("writes back by applying the server's edits to the document", async () => {
    const edits: LspTextEdit[] = [
      { range: { start: { line: 2, character: 2 }, end: { line: 6, character: 3 } }, newText: "lights {\n    1 . 1\n  }" },
    ];
    const { deps, applied, requests } = fakeDeps({ edits });
    const lights = [1, 0, 1, 0, 0, 0, 0, 0, 0];
    const r = await handleRequest({ type: "request", id: 4, method: "writeBack", params: { puzzle: 0, lights } }, deps);
    // The document's version after the edit comes back: the page knows the change is its own.
    expect(r.result).toEqual({ message: "Wrote the position into the file as the puzzle's lights.", version: 5 });
    expect(applied).toEqual([edits]);
    expect(requests).toEqual([{ method: "lights/lightsEdit", params: { uri: URI, puzzle: 0, lights } }]);

    const same = await handleRequest({ type: "request", id: 5, method: "writeBack", params: { puzzle: 0, lights } }, fakeDeps({ edits: [] }).deps);
    expect(same.result).toEqual({ message: "The file already has these lights." });
    const stale = await handleRequest({ type: "request", id: 6, method: "writeBack", params: { puzzle: 0, lights } }, fakeDeps({ edits: null }).deps);
    expect(stale.error).toContain("nothing was written");
    // The board's version goes to the server, and the server's to the edit.
    const versioned = fakeDeps({ edits });
    versioned.deps.request = async (method, params) => {
      versioned.requests.push({ method, params });
      return { edits, version: 12 };
    };
    const seen: (number | undefined)[] = [];
    const apply = versioned.deps.applyEdits;
    versioned.deps.applyEdits = async (e, v) => (seen.push(v), apply(e, v));
    await handleRequest({ type: "request", id: 8, method: "writeBack", params: { puzzle: 0, lights, version: 12 } }, versioned.deps);
    expect(versioned.requests).toEqual([{ method: "lights/lightsEdit", params: { uri: URI, puzzle: 0, lights, version: 12 } }]);
    expect(seen).toEqual([12]);
    const refused = fakeDeps({ edits, apply: false });
    const r2 = await handleRequest({ type: "request", id: 7, method: "writeBack", params: { puzzle: 0, lights } }, refused.deps);
    expect(r2.error).toContain("did not apply");
  });
});

describe("puzzleList", () => {
  it("lists the outline's puzzles in order; sliding blocks cannot be played", () => {
    const list = puzzleList(
      [{ name: "a", detail: "5×5 cross" }, { name: "tiles", detail: "sliding" }, { bogus: true }],
      "f.lights",
      2,
    );
    expect(list.selected).toBeUndefined();
    expect(list.puzzles).toEqual([
      { index: 0, name: "a", kind: "puzzle", playable: true, why: null, status: "5×5 cross" },
      { index: 1, name: "tiles", kind: "sliding", playable: false, why: expect.stringContaining("sliding"), status: "sliding" },
      { index: 2, name: "puzzle 3", kind: "puzzle", playable: true, why: null, status: "" },
    ]);
    expect(puzzleList(null, "f", 1).puzzles).toEqual([]);
  });
});

describe("PlaySession", () => {
  it("posts one response per request, errors for bad requests with an id, nothing for noise", async () => {
    const posted: ToWebview[] = [];
    const titles: string[] = [];
    const session = new PlaySession((m) => posted.push(m), fakeDeps().deps, { onBoard: (b) => titles.push(b.name) });
    await session.receive({ type: "request", id: 1, method: "board", params: { puzzle: 0 } });
    await session.receive({ type: "request", id: 2, method: "nope" });
    await session.receive("hello");
    expect(posted.map((m) => [m.type, (m as PlayResponse).id, (m as PlayResponse).error])).toEqual([
      ["response", 1, undefined],
      ["response", 2, "unknown method nope"],
    ]);
    expect(titles).toEqual(["first light"]);
    expect(session.shown).toBe(0);
  });

  it("tells the webview about document changes once the edits pause", () => {
    vi.useFakeTimers();
    const posted: ToWebview[] = [];
    const session = new PlaySession((m) => posted.push(m), fakeDeps().deps, { debounceMs: 200 });
    session.documentChanged(2);
    vi.advanceTimersByTime(100);
    session.documentChanged(3);
    vi.advanceTimersByTime(150);
    expect(posted).toEqual([]);
    vi.advanceTimersByTime(100);
    expect(posted).toEqual([{ type: "changed", version: 3 }]);
    session.documentChanged(4);
    session.dispose();
    vi.advanceTimersByTime(1000);
    expect(posted).toHaveLength(1);
  });

  it("selects the cursor's puzzle only when the webview shows another", async () => {
    const posted: ToWebview[] = [];
    const session = new PlaySession((m) => posted.push(m), fakeDeps().deps);
    await session.receive({ type: "request", id: 1, method: "board", params: { puzzle: 0 } });
    expect(session.select(0)).toBe(false);
    expect(session.select(2)).toBe(true);
    expect(posted.slice(1)).toEqual([{ type: "select", puzzle: 2 }]);
  });
});

describe("the webview's MessageBackend with the extension's PlaySession", () => {
  /** Both ends, joined by (asynchronous, like postMessage) fake channels. */
  function connect(deps: PlayDeps) {
    let backend: MessageBackend;
    const session = new PlaySession((m) => setTimeout(() => backend.receive(m), 0), deps, { debounceMs: 0 });
    backend = new MessageBackend((m) => setTimeout(() => void session.receive(m), 0));
    return { backend, session };
  }

  it("gets the board, solves and writes back by request/response", async () => {
    const edits: LspTextEdit[] = [{ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, newText: "x" }];
    const { deps, board, applied } = fakeDeps({ edits });
    const { backend } = connect(deps);
    // Several requests in flight at once: each answer finds its caller by id.
    const [list, got, solved] = await Promise.all([backend.puzzles(), backend.board(0), backend.solve(0, board.lights)]);
    expect(list.puzzles.map((p) => p.name)).toEqual(["first light"]);
    expect(got).toEqual(board);
    expect(solved.minimum).toEqual([0, 0, 0, 0, 1, 0, 0, 0, 0]);
    await expect(backend.writeBack(0, board.lights)).resolves.toEqual({ message: expect.stringContaining("Wrote"), version: 5 });
    expect(applied).toEqual([edits]);
    await expect(backend.board(5)).rejects.toThrow("there is no puzzle 6 in the file");
  });

  it("rejects when the server is down, and passes changes and selections on", async () => {
    const { backend, session } = connect(fakeDeps({ down: true }).deps);
    await expect(backend.board(0)).rejects.toThrow("not running");
    const events: BackendEvent[] = [];
    backend.watch((e) => events.push(e));
    session.documentChanged(9);
    session.select(1);
    await vi.waitFor(() => expect(events).toHaveLength(2));
    expect(events).toEqual([
      { kind: "changed", version: 9 },
      { kind: "select", puzzle: 1 },
    ]);
    // Answers nobody waits for are ignored; closing rejects what is pending.
    backend.receive({ type: "response", id: 999, result: 1 });
    const orphan = new MessageBackend(() => {});
    const waiting = orphan.board(0);
    orphan.dispose();
    await expect(waiting).rejects.toThrow("closed");
  });
});

describe("HttpBackend (the page of lights play)", () => {
  it("calls the JSON API and reports {error} bodies", async () => {
    const calls: { url: string; init?: unknown }[] = [];
    const http = new HttpBackend("http://127.0.0.1:1", async (url, init) => {
      calls.push({ url, init });
      if (url.endsWith("/api/puzzle/9")) return { ok: false, status: 404, statusText: "Not Found", json: async () => ({ error: "no puzzle 9" }) };
      if (url.endsWith("/write")) return { ok: true, status: 200, statusText: "OK", json: async () => ({ version: 8, message: "Wrote it." }) };
      return { ok: true, status: 200, statusText: "OK", json: async () => ({ text: "  lights on" }) };
    });
    await expect(http.board(9)).rejects.toThrow("no puzzle 9");
    // Write back writes through the server, with the version played on.
    await expect(http.writeBack(1, [1, 0], 7)).resolves.toEqual({ message: "Wrote it.", version: 8 });
    expect(calls[1]).toEqual({
      url: "http://127.0.0.1:1/api/puzzle/1/write",
      init: { method: "POST", headers: { "content-type": "application/json" }, body: '{"lights":[1,0],"version":7}' },
    });
  });

  it("write back: a 409 is reported; a read-only server offers the statement", async () => {
    const calls: string[] = [];
    let readOnly = false;
    const http = new HttpBackend("", async (url) => {
      calls.push(url);
      if (url === "/api/puzzles") return { ok: true, status: 200, statusText: "OK", json: async () => ({ file: "f", version: 1, puzzles: [], read_only: readOnly }) };
      if (url.endsWith("/write")) return { ok: false, status: 409, statusText: "Conflict", json: async () => ({ error: "the file changed since this board was loaded" }) };
      return { ok: true, status: 200, statusText: "OK", json: async () => ({ text: "  lights on" }) };
    });
    await http.puzzles();
    await expect(http.writeBack(0, [1], 1)).rejects.toThrow("the file changed");
    readOnly = true;
    await http.puzzles();
    calls.length = 0;
    await expect(http.writeBack(0, [1], 1)).resolves.toMatchObject({ text: "  lights on", message: expect.stringContaining("--read-only") });
    expect(calls).toEqual(["/api/puzzle/0/lights"]);
  });

  it("polls /api/version: a new version is a change; a dead server is reported once", async () => {
    vi.useFakeTimers();
    let version = 1;
    let up = true;
    const http = new HttpBackend(
      "",
      async () => {
        if (!up) throw new TypeError("fetch failed");
        return { ok: true, status: 200, statusText: "OK", json: async () => ({ version }) };
      },
      1000,
    );
    const events: BackendEvent[] = [];
    http.watch((e) => events.push(e));
    await vi.advanceTimersByTimeAsync(2500);
    expect(events).toEqual([]);
    version = 2;
    await vi.advanceTimersByTimeAsync(1000);
    expect(events).toEqual([{ kind: "changed", version: 2 }]);
    up = false;
    await vi.advanceTimersByTimeAsync(3000);
    expect(events.slice(1)).toEqual([{ kind: "offline", message: expect.stringContaining("does not answer") }]);
    up = true;
    await vi.advanceTimersByTimeAsync(1000);
    expect(events.slice(2)).toEqual([{ kind: "online" }]);
    http.dispose();
  });
});
