// What the extension asks of `lights lsp`, against the real server over
// stdio: the settings it sends are understood, the document symbols give
// the puzzle under the cursor and its index, and the code action that
// "Lights: Insert Solution" applies (and the `lights.insertSolution`
// command of the code lens) insert a solution that `lights check` accepts.

import { ChildProcess, spawn } from "node:child_process";
import { afterEach, describe, expect, it } from "vitest";
import {
  CodeAction,
  CodeActionRequest,
  CodeLensRequest,
  DidChangeConfigurationNotification,
  DidOpenTextDocumentNotification,
  DocumentSymbolRequest,
  ExecuteCommandRequest,
  InitializeRequest,
  InitializedNotification,
  ProtocolConnection,
  PublishDiagnosticsNotification,
  PublishDiagnosticsParams,
  StreamMessageReader,
  StreamMessageWriter,
  TextEdit,
  WorkspaceEdit,
  createProtocolConnection,
} from "vscode-languageserver-protocol/node";

import { parseCheckOutput } from "../../src/check";
import { run } from "../../src/cli";
import { puzzleAt, puzzleNameFromSource, puzzleSymbols, solutionAction } from "../../src/puzzles";
import { DEFAULT_SETTINGS, LightsSettings, serverSettings } from "../../src/settings";
import { lightsBin } from "./lightsBinary";

const bin = lightsBin ?? "";
const uri = "file:///virtual/pack.lights";

const text = `// two puzzles
puzzle "first" {
  size 3x3
  lights at 2,2
}

puzzle "second \\"one\\"" {
  size 5x5
  lights {
    . 1 . . .
    1 1 1 . .
    . 1 . . .
    . . . . .
    . . . . .
  }
}
`;

interface Server {
  connection: ProtocolConnection;
  process: ChildProcess;
  diagnostics: PublishDiagnosticsParams[];
  applied: WorkspaceEdit[];
}

const servers: Server[] = [];

afterEach(() => {
  for (const s of servers.splice(0)) {
    s.connection.dispose();
    s.process.kill();
  }
});

async function start(settings: LightsSettings, content = text): Promise<Server> {
  const child = spawn(bin, ["lsp"], { stdio: ["pipe", "pipe", "inherit"] });
  const connection = createProtocolConnection(
    new StreamMessageReader(child.stdout!),
    new StreamMessageWriter(child.stdin!),
  );
  const server: Server = { connection, process: child, diagnostics: [], applied: [] };
  servers.push(server);
  connection.onNotification(PublishDiagnosticsNotification.type, (p) => server.diagnostics.push(p));
  connection.onRequest("workspace/applyEdit", (p: { edit: WorkspaceEdit }) => {
    server.applied.push(p.edit);
    return { applied: true };
  });
  connection.listen();
  await connection.sendRequest(InitializeRequest.type, {
    processId: process.pid,
    rootUri: null,
    capabilities: {
      workspace: { applyEdit: true, workspaceEdit: { documentChanges: true } },
      textDocument: { codeAction: { codeActionLiteralSupport: { codeActionKind: { valueSet: ["quickfix"] } } } },
    },
    initializationOptions: serverSettings(settings),
  });
  await connection.sendNotification(InitializedNotification.type, {});
  await connection.sendNotification(DidOpenTextDocumentNotification.type, {
    textDocument: { uri, languageId: "lights", version: 1, text: content },
  });
  return server;
}

/** The text with the edits of a workspace edit for `uri` applied (positions in UTF-16 units). */
function applyEdit(source: string, edit: WorkspaceEdit): string {
  const edits: TextEdit[] = [];
  for (const change of edit.documentChanges ?? []) {
    if ("textDocument" in change && change.textDocument.uri === uri) edits.push(...(change.edits as TextEdit[]));
  }
  edits.push(...(edit.changes?.[uri] ?? []));
  const lines = source.split("\n");
  const offset = (p: { line: number; character: number }) =>
    lines.slice(0, p.line).reduce((n, l) => n + l.length + 1, 0) + p.character;
  const sorted = edits.map((e) => ({ ...e, from: offset(e.range.start), to: offset(e.range.end) }));
  sorted.sort((a, b) => b.from - a.from);
  let out = source;
  for (const e of sorted) out = out.slice(0, e.from) + e.newText + out.slice(e.to);
  return out;
}

async function check(source: string) {
  const child = spawn(bin, ["check", "--format", "json", "-"], { stdio: ["pipe", "pipe", "pipe"] });
  let stdout = "";
  child.stdout.on("data", (d) => (stdout += d));
  child.stdin.end(source);
  const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
  return { code, entries: parseCheckOutput(stdout) };
}

async function until<T>(what: () => Promise<T>, ok: (t: T) => boolean, ms = 5000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const t = await what();
    if (ok(t) || Date.now() > end) return t;
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe.skipIf(lightsBin === undefined)("lights lsp, as the extension uses it", () => {
  it("outlines the puzzles: the one under the cursor, its index and its name", async () => {
    const { connection } = await start(DEFAULT_SETTINGS);
    const response = await connection.sendRequest(DocumentSymbolRequest.type, { textDocument: { uri } });
    const symbols = puzzleSymbols(response);
    expect(symbols).toHaveLength(2);
    const lines = text.split("\n");
    const inGrid = { line: lines.indexOf("    1 1 1 . ."), character: 4 };
    const target = puzzleAt(symbols, inGrid);
    expect(target?.index).toBe(1);
    const sel = target!.symbol.selectionRange;
    expect(sel.start.line).toBe(sel.end.line);
    const quoted = lines[sel.start.line]!.slice(sel.start.character, sel.end.character);
    expect(puzzleNameFromSource(quoted)).toBe('second "one"');
    expect(puzzleAt(symbols, { line: 3, character: 2 })?.index).toBe(0);
    expect(puzzleAt(symbols, { line: 5, character: 0 })).toBeUndefined();
  });

  it("inserts the minimum solution through the code action, and the result checks", async () => {
    const { connection } = await start(DEFAULT_SETTINGS);
    const symbols = puzzleSymbols(await connection.sendRequest(DocumentSymbolRequest.type, { textDocument: { uri } }));
    const at = symbols[1]!.selectionRange.start;
    const actions = await until(
      () =>
        connection.sendRequest(CodeActionRequest.type, {
          textDocument: { uri },
          range: { start: at, end: at },
          context: { diagnostics: [] },
        }),
      (a) => solutionAction(a ?? []) !== undefined,
    );
    const action = solutionAction(actions ?? []) as CodeAction | undefined;
    expect(action?.title).toMatch(/^Insert minimum solution \(\d+ press(es)?\)$/);
    expect(action?.edit).toBeDefined();
    const after = applyEdit(text, action!.edit!);
    expect(after).not.toBe(text);
    expect(after.split("solution").length - 1).toBe(1);
    const { code, entries } = await check(after);
    expect(code).toBe(0);
    expect(entries.find((e) => e.puzzle === 'second "one"')?.diagnostics).toEqual([]);

    // The code lens's command edits the same way, through workspace/applyEdit.
    const server = servers[0]!;
    await connection.sendRequest(ExecuteCommandRequest.type, { command: "lights.insertSolution", arguments: [uri, 1] });
    expect(server.applied).toHaveLength(1);
    expect(applyEdit(text, server.applied[0]!)).toBe(after);
  });

  it("inserts the moves into a sliding block through the same action", async () => {
    const sliding = 'sliding "s" {\n  size 3x3\n  tiles {\n    1 2 3\n    4 5 6\n    . 7 8\n  }\n}\n';
    const { connection } = await start(DEFAULT_SETTINGS, sliding);
    const actions = await until(
      () =>
        connection.sendRequest(CodeActionRequest.type, {
          textDocument: { uri },
          range: { start: { line: 0, character: 9 }, end: { line: 0, character: 9 } },
          context: { diagnostics: [] },
        }),
      (a) => solutionAction(a ?? []) !== undefined,
    );
    const action = solutionAction(actions ?? []) as CodeAction | undefined;
    expect(action?.title).toBe("Insert solution (2 moves, optimal)");
    const after = applyEdit(sliding, action!.edit!);
    expect(after).toContain('  solution "RR"\n}');
    const { code, entries } = await check(after);
    expect(code).toBe(0);
    expect(entries[0]?.diagnostics).toEqual([]);
  });

  it("offers no solution action for an unsolvable puzzle", async () => {
    const unsolvable = 'puzzle "u" {\n  size 2x2\n  states 6\n  goal on\n}\n';
    const { connection } = await start(DEFAULT_SETTINGS, unsolvable);
    // Once solved, the server offers to make it solvable, but has no solution to insert.
    const actions = await until(
      () =>
        connection.sendRequest(CodeActionRequest.type, {
          textDocument: { uri },
          range: { start: { line: 0, character: 7 }, end: { line: 0, character: 7 } },
          context: { diagnostics: [] },
        }),
      (a) => (a ?? []).length > 0,
    );
    expect((actions ?? []).map((a) => a.title)).toContainEqual(expect.stringMatching(/^Make solvable by /));
    expect(solutionAction(actions ?? [])).toBeUndefined();
  });

  it("understands the settings: code lens on by default, off from initializationOptions", async () => {
    const on = await start(DEFAULT_SETTINGS);
    const lenses = await on.connection.sendRequest(CodeLensRequest.type, { textDocument: { uri } });
    expect((lenses ?? []).length).toBeGreaterThanOrEqual(2);
    const off = await start({ ...DEFAULT_SETTINGS, codeLens: false });
    expect(await off.connection.sendRequest(CodeLensRequest.type, { textDocument: { uri } })).toEqual([]);
  });

  it("understands a change of settings (didChangeConfiguration)", async () => {
    const { connection } = await start(DEFAULT_SETTINGS);
    await connection.sendNotification(DidChangeConfigurationNotification.type, {
      settings: serverSettings({ ...DEFAULT_SETTINGS, codeLens: false }),
    });
    const lenses = await until(
      () => connection.sendRequest(CodeLensRequest.type, { textDocument: { uri } }),
      (l) => (l ?? []).length === 0,
    );
    expect(lenses).toEqual([]);
  });

  it("passes the solver's time budget: 1 ms is too little for the 48×48 three-state torus, the default is enough", async () => {
    // About 20 ms (3^17 solutions, whose fewest presses the search spends
    // its whole budget on): beyond 1 ms even on a fast machine, far within
    // the default 10 s.
    const big = 'puzzle "t" {\n  size 48x48\n  states 3\n  topology torus\n  lights on\n}\n';
    const lensTitles = async (s: Server) => {
      const lenses = await s.connection.sendRequest(CodeLensRequest.type, { textDocument: { uri } });
      return (lenses ?? []).map((l) => l.command?.title ?? "");
    };
    const settled = (titles: string[]) => titles.length > 0 && !titles.some((t) => t.includes("solving"));

    const hurried = await start({ ...DEFAULT_SETTINGS, timeBudgetMs: 1 }, big);
    const codes = await until(
      async () => hurried.diagnostics.flatMap((p) => p.diagnostics.map((d) => d.code)),
      (c) => c.includes("L0301"),
      20_000,
    );
    expect(codes).toContain("L0301");
    expect((await until(() => lensTitles(hurried), settled, 20_000))[0]).toMatch(/^⏱ not solved within/);

    const patient = await start(DEFAULT_SETTINGS, big);
    expect((await until(() => lensTitles(patient), settled, 60_000))[0]).toMatch(/^✓/);
    expect(patient.diagnostics.flatMap((p) => p.diagnostics.map((d) => d.code))).not.toContain("L0301");
  });
});

// The binary's own `check` is used above to judge the edit; make sure it is the real one.
describe.skipIf(lightsBin === undefined)("the lights binary", () => {
  it("is a lights binary", async () => {
    const { stdout } = await run(bin, ["--help"]);
    expect(stdout).toContain("lsp");
  });
});
