// src/extension.ts driven without VS Code: `vscode` is a recording stand-in
// (fake/vscode.ts) and the language client talks to the real `lights lsp`
// (fake/languageclient.ts). What is checked is what a user would see:
// messages, edits, Problems entries and the preview's HTML.

import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, symlinkSync, mkdirSync, copyFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

import { parseCheckOutput } from "../../src/check";
import { serverSettings } from "../../src/settings";
import { LanguageClient } from "./fake/languageclient";
import * as vscode from "./fake/vscode";
import { lightsBin, repo } from "./lightsBinary";

vi.mock("vscode-languageclient/node", () => import("./fake/languageclient"));

const { activate, deactivate } = await import("../../src/extension");

const manifest = JSON.parse(readFileSync(join(__dirname, "..", "..", "package.json"), "utf8"));
const tick = () => new Promise((r) => setTimeout(r, 20));

function context(extensionPath: string) {
  return { subscriptions: [] as { dispose(): unknown }[], extensionPath };
}

/** An extension folder with `server/lights` (a copy of the real binary), or without. */
function extensionFolder(withServer: boolean): string {
  const dir = mkdtempSync(join(tmpdir(), "lights-ext-"));
  if (withServer && lightsBin !== undefined) {
    mkdirSync(join(dir, "server"));
    try {
      symlinkSync(lightsBin, join(dir, "server", "lights"));
    } catch {
      copyFileSync(lightsBin, join(dir, "server", "lights"));
    }
  }
  return dir;
}

let ctx: ReturnType<typeof context>;
const savedPath = process.env.PATH;

beforeEach(() => {
  vscode.reset();
  LanguageClient.instances.length = 0;
});

afterEach(async () => {
  for (const p of vscode.state.panels) p.dispose();
  await deactivate();
  for (const s of ctx?.subscriptions ?? []) s.dispose();
  process.env.PATH = savedPath;
});

/** Apply an LSP workspace edit (documentChanges or changes) to the fake documents. */
function applyToDocuments(edit: unknown): boolean {
  const e = edit as {
    documentChanges?: { textDocument: { uri: string }; edits: { range: vscode.Range; newText: string }[] }[];
    changes?: Record<string, { range: vscode.Range; newText: string }[]>;
  };
  const byUri = new Map<string, { range: vscode.Range; newText: string }[]>();
  for (const c of e.documentChanges ?? []) byUri.set(c.textDocument.uri, c.edits);
  for (const [uri, edits] of Object.entries(e.changes ?? {})) byUri.set(uri, edits);
  for (const [uri, edits] of byUri) {
    const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri);
    if (doc === undefined) return false;
    const sorted = edits
      .map((x) => ({ ...x, from: doc.offsetAt(x.range.start), to: doc.offsetAt(x.range.end) }))
      .sort((a, b) => b.from - a.from);
    for (const x of sorted) doc.text = doc.text.slice(0, x.from) + x.newText + doc.text.slice(x.to);
    doc.version++;
  }
  return true;
}

async function checkText(text: string) {
  const child = spawn(lightsBin!, ["check", "--format", "json", "-"], { stdio: ["pipe", "pipe", "ignore"] });
  let out = "";
  child.stdout.on("data", (d) => (out += d));
  child.stdin.end(text);
  const code = await new Promise((r) => child.on("close", r));
  return { code, entries: parseCheckOutput(out) };
}

function openEditor(file: string, text: string, line: number, character = 2) {
  const doc = new vscode.TextDocument(vscode.Uri.file(file), text);
  vscode.workspace.textDocuments.push(doc);
  vscode.window.activeTextEditor = { document: doc, selection: { active: new vscode.Position(line, character) } };
  return doc;
}

describe("activation without a lights binary", () => {
  it("shows one error that says what to do, with a button to the setting", async () => {
    process.env.PATH = "";
    ctx = context(extensionFolder(false));
    vscode.state.answer = "Open Settings";
    await activate(ctx as never);
    await tick();
    expect(vscode.state.messages).toHaveLength(1);
    const [m] = vscode.state.messages;
    expect(m!.kind).toBe("error");
    expect(m!.text).toContain("lights.server.path");
    expect(m!.text).toContain("cargo install --path crates/cli");
    expect(m!.buttons).toEqual(["Open Settings"]);
    expect(vscode.state.executed).toContainEqual({
      command: "workbench.action.openSettings",
      args: ["lights.server.path"],
    });
    expect(LanguageClient.instances).toHaveLength(0);

    // Other settings changing does not repeat the message; restarting by hand does.
    vscode.state.config["lights.codeLens.enable"] = false;
    vscode.events.configuration.fire({ affectsConfiguration: (s) => s === "lights" });
    await tick();
    expect(vscode.state.messages).toHaveLength(1);
    await vscode.commands.executeCommand("lights.restartServer");
    await tick();
    expect(vscode.state.messages).toHaveLength(2);
    expect(LanguageClient.instances).toHaveLength(0);

    // A command that needs the server says the same.
    openEditor("/virtual/a.lights", 'puzzle "a" {\n  size 1x1\n}\n', 1);
    await vscode.commands.executeCommand("lights.insertSolutionAtCursor");
    await tick();
    expect(vscode.state.messages).toHaveLength(3);
    expect(vscode.state.messages[2]!.text).toBe(vscode.state.messages[0]!.text);
  });

  it("names the setting when it points at nothing", async () => {
    ctx = context(extensionFolder(false));
    vscode.state.config["lights.server.path"] = "/no/such/lights";
    await activate(ctx as never);
    await tick();
    expect(vscode.state.messages.map((m) => m.text)).toEqual([expect.stringContaining('"/no/such/lights"')]);
  });

  it("registers every command package.json contributes", async () => {
    process.env.PATH = "";
    ctx = context(extensionFolder(false));
    await activate(ctx as never);
    const contributed = manifest.contributes.commands.map((c: { command: string }) => c.command).sort();
    expect([...vscode.state.commands.keys()].sort()).toEqual(contributed);
  });
});

describe.skipIf(lightsBin === undefined)("the language client", () => {
  it("starts the bundled lights lsp with the settings, and follows changes", async () => {
    process.env.PATH = "";
    const ext = extensionFolder(true);
    ctx = context(ext);
    vscode.state.config["lights.codeLens.enable"] = false;
    vscode.state.config["lights.solver.timeBudgetMs"] = 1234;
    await activate(ctx as never);
    expect(vscode.state.messages).toEqual([]);
    const [client] = LanguageClient.instances;
    expect(client!.id).toBe("lights");
    expect(client!.serverOptions).toEqual({ command: join(ext, "server", "lights"), args: ["lsp"] });
    expect(client!.clientOptions.documentSelector).toContainEqual({ language: "lights", scheme: "file" });
    expect(client!.clientOptions.initializationOptions).toEqual(
      serverSettings({ serverPath: "", codeLens: false, inlayHints: false, timeBudgetMs: 1234, cacheBudgetMb: 256 }),
    );
    expect(client!.isRunning()).toBe(true);

    // A new setting is sent to the running server.
    vscode.state.config["lights.codeLens.enable"] = true;
    vscode.events.configuration.fire({ affectsConfiguration: (s) => s === "lights" });
    await tick();
    expect(client!.notifications).toContainEqual({
      method: "workspace/didChangeConfiguration",
      params: { settings: serverSettings({ serverPath: "", codeLens: true, inlayHints: false, timeBudgetMs: 1234, cacheBudgetMb: 256 }) },
    });

    // A new server path starts a new server.
    vscode.state.config["lights.server.path"] = lightsBin;
    vscode.events.configuration.fire({ affectsConfiguration: (s) => s === "lights" });
    await vi.waitFor(() => expect(LanguageClient.instances).toHaveLength(2));
    await vi.waitFor(() => expect(LanguageClient.instances[1]!.isRunning()).toBe(true));
    expect(client!.stopped).toBe(true);
    expect(LanguageClient.instances[1]!.serverOptions.command).toBe(lightsBin);
  });
});

const pack = `// two puzzles
puzzle "first" {
  size 3x3
  lights at 2,2
}

puzzle "second" {
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

describe.skipIf(lightsBin === undefined)("Lights: Insert Solution", () => {
  it("inserts the minimum solution into the puzzle under the cursor", async () => {
    ctx = context(extensionFolder(false));
    vscode.state.config["lights.server.path"] = lightsBin;
    const doc = openEditor("/virtual/pack.lights", pack, 10);
    vscode.state.applyEdit = applyToDocuments;
    await activate(ctx as never);
    await vscode.commands.executeCommand("lights.insertSolutionAtCursor");
    expect(vscode.state.messages).toEqual([]);
    expect(vscode.state.applied).toHaveLength(1);
    expect(vscode.state.statusBar).toEqual([expect.stringMatching(/^Lights: Insert minimum solution \(.*\) in "second"$/)]);
    // Only the second puzzle changed, and it now checks with its solution.
    expect(doc.text.startsWith(pack.slice(0, pack.indexOf('puzzle "second"')))).toBe(true);
    const { code, entries } = await checkText(doc.text);
    expect(code).toBe(0);
    expect(doc.text.slice(doc.text.indexOf('puzzle "second"'))).toMatch(/\n  solution /);
    expect(entries.map((e) => e.diagnostics)).toEqual([[], []]);

    // Again: the minimum is there now, so there is nothing to insert.
    await LanguageClient.instances[0]!.didChange(doc);
    await vscode.commands.executeCommand("lights.insertSolutionAtCursor");
    expect(vscode.state.applied).toHaveLength(1);
    expect(vscode.state.messages).toEqual([
      expect.objectContaining({ kind: "info", text: expect.stringContaining('no minimum solution to insert into puzzle "second"') }),
    ]);
  });

  it("asks for a cursor inside a puzzle", async () => {
    ctx = context(extensionFolder(false));
    vscode.state.config["lights.server.path"] = lightsBin;
    openEditor("/virtual/pack.lights", pack, 5, 0);
    await activate(ctx as never);
    await vscode.commands.executeCommand("lights.insertSolutionAtCursor");
    expect(vscode.state.applied).toEqual([]);
    expect(vscode.state.messages.map((m) => m.text)).toEqual([expect.stringContaining("inside a puzzle block")]);
  });
});

describe.skipIf(lightsBin === undefined)("Lights: Check Workspace", () => {
  it("puts lights check's findings in the Problems panel, leaving open files to the server", async () => {
    const corpus = join(repo, "tests", "corpus");
    ctx = context(extensionFolder(false));
    vscode.state.config["lights.server.path"] = lightsBin;
    vscode.workspace.workspaceFolders = [{ uri: vscode.Uri.file(corpus), name: "corpus" }];
    const openFile = join(corpus, "L0005-unknown-statement.lights");
    vscode.workspace.textDocuments.push(new vscode.TextDocument(vscode.Uri.file(openFile), readFileSync(openFile, "utf8")));
    await activate(ctx as never);
    await vscode.commands.executeCommand("lights.checkWorkspace");

    const checks = vscode.state.collections.find((c) => c.name === "lights-check")!;
    expect(checks.entries.has(vscode.Uri.file(openFile).toString())).toBe(false);
    const rule = join(corpus, "L0109-unknown-rule.lights");
    const [d] = checks.entries.get(vscode.Uri.file(rule).toString()) ?? [];
    expect(d).toMatchObject({ code: "L0109", source: "lights check", severity: vscode.DiagnosticSeverity.Error });
    const line = readFileSync(rule, "utf8").split("\n")[d!.range.start.line]!;
    expect(line.slice(d!.range.start.character, d!.range.end.character)).toBe("knight");
    expect(checks.entries.size).toBeGreaterThan(20);

    const [summary] = vscode.state.messages;
    expect(summary).toMatchObject({ kind: "warning", buttons: ["Open Problems", "Show Report"] });
    expect(summary!.text).toMatch(/^Lights: checked \d+ puzzles in \d+ files: \d+ errors/);
    const report = vscode.window.outputs.find((o) => o.name === "Lights")!;
    expect(report.lines).toContainEqual(expect.stringMatching(/^✗ L0109-unknown-rule\.lights: a: /));

    // Opening a file hands it over to the server.
    vscode.events.open.fire(new vscode.TextDocument(vscode.Uri.file(rule), ""));
    expect(checks.entries.has(vscode.Uri.file(rule).toString())).toBe(false);
  });
});

describe.skipIf(lightsBin === undefined)("Lights: Check Workspace on a clean folder", () => {
  it("says all is fine and leaves the Problems panel empty", async () => {
    ctx = context(extensionFolder(false));
    vscode.state.config["lights.server.path"] = lightsBin;
    vscode.workspace.workspaceFolders = [{ uri: vscode.Uri.file(join(repo, "examples")), name: "examples" }];
    await activate(ctx as never);
    await vscode.commands.executeCommand("lights.checkWorkspace");
    const checks = vscode.state.collections.find((c) => c.name === "lights-check")!;
    expect([...checks.entries.values()].flat()).toEqual([]);
    expect(vscode.state.messages).toEqual([
      { kind: "info", text: expect.stringMatching(/^Lights: checked \d+ puzzles? in \d+ files?: all fine$/), buttons: ["Show Report"] },
    ]);
  });

  it("asks for a folder when there is none", async () => {
    ctx = context(extensionFolder(false));
    vscode.state.config["lights.server.path"] = lightsBin;
    await activate(ctx as never);
    await vscode.commands.executeCommand("lights.checkWorkspace");
    expect(vscode.state.messages.map((m) => m.text)).toEqual([expect.stringContaining("open a folder")]);
  });
});

describe.skipIf(lightsBin === undefined)("Lights: Preview Board", () => {
  it("shows the puzzle under the cursor as an image, redrawn on save and when the cursor moves", async () => {
    ctx = context(extensionFolder(false));
    vscode.state.config["lights.server.path"] = lightsBin;
    const file = join(repo, "examples", "classic.lights");
    const text = readFileSync(file, "utf8");
    const lines = text.split("\n");
    const doc = openEditor(file, text, lines.findIndex((l) => l.startsWith('puzzle "all-on"')) + 2);
    await activate(ctx as never);
    await vscode.commands.executeCommand("lights.previewBoard");

    const [panel] = vscode.state.panels;
    expect(panel!.options.enableScripts).toBe(false);
    expect(panel!.options.localResourceRoots).toEqual([]);
    const svgOf = (html: string) => {
      const m = /src="data:image\/svg\+xml;base64,([^"]+)"/.exec(html);
      return m === null ? "" : Buffer.from(m[1]!, "base64").toString("utf8");
    };
    expect(panel!.webview.html).toContain("default-src 'none'; img-src data:;");
    expect(panel!.webview.html).not.toContain("<script");
    expect(svgOf(panel!.webview.html)).toContain("<title>all-on — 5×5");
    expect(panel!.title).toBe("Preview all-on");

    // Saved with a different board: drawn again.
    const before = svgOf(panel!.webview.html);
    doc.text = doc.text.replace(/(puzzle "all-on" \{\n\s*size 5x5\n\s*lights) on/, "$1 at 1,1");
    expect(doc.text).toContain("lights at 1,1");
    vscode.events.save.fire(doc);
    await vi.waitFor(() => expect(svgOf(panel!.webview.html)).not.toBe(before));
    expect(svgOf(panel!.webview.html)).toContain("<title>all-on — 5×5");

    // The cursor moves to the other puzzle: the preview follows.
    const editor = vscode.window.activeTextEditor!;
    editor.selection = { active: new vscode.Position(lines.findIndex((l) => l.startsWith('puzzle "classic"')) + 1, 2) };
    await LanguageClient.instances[0]!.didChange(doc);
    vscode.events.selection.fire({ textEditor: editor });
    await vi.waitFor(() => expect(svgOf(panel!.webview.html)).toContain("<title>classic — 5×5"), { timeout: 5000 });
    expect(panel!.title).toBe("Preview classic");
  });

  it("shows lights' message when the puzzle cannot be drawn", async () => {
    ctx = context(extensionFolder(false));
    vscode.state.config["lights.server.path"] = lightsBin;
    openEditor("/virtual/broken.lights", 'puzzle "b" {\n  size 2x2\n  lightz on\n}\n', 1);
    await activate(ctx as never);
    await vscode.commands.executeCommand("lights.previewBoard");
    const html = vscode.state.panels[0]!.webview.html;
    expect(html).toContain("Cannot draw &quot;b&quot;");
    expect(html).toContain("cannot be drawn");
    expect(html).not.toContain("lights-preview-");
  });
});
