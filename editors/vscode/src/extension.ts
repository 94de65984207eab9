// The VS Code side of `lights`: starts `lights lsp` and adds the commands
// (Insert Solution, Check Workspace, Play, Preview Board = Play). Everything that can be
// decided without VS Code lives in the small modules beside this one.

import * as fs from "node:fs";
import * as path from "node:path";
import * as vscode from "vscode";
import {
  CodeAction,
  CodeActionRequest,
  CodeLensRequest,
  Command,
  DidChangeConfigurationNotification,
  DocumentSymbolRequest,
  LanguageClient,
  LanguageClientOptions,
  RequestType,
  ServerOptions,
} from "vscode-languageclient/node";

import { CheckEntry, count, entryLine, PlacedDiagnostic, placeDiagnostics, summarize, summaryLine } from "./check";
import { checkFolder, run } from "./cli";
import { PlayDeps, PlaySession, puzzleList, ServerDown } from "./playProtocol";
import { makeNonce, messageHtml, playHtml } from "./preview";
import {
  isSolving,
  noSolutionMessage,
  puzzleAt,
  puzzleNameFromSource,
  puzzleSymbols,
  PuzzleAt,
  PuzzleSymbol,
  solutionAction,
} from "./puzzles";
import { describeLookup, findServer, ServerLookup } from "./serverPath";
import { LightsSettings, needsRestart, readSettings, serverPathSettings, serverSettings } from "./settings";

const LANGUAGE = "lights";

let client: LanguageClient | undefined;
let output: vscode.OutputChannel;
let serverOutput: vscode.OutputChannel;
let settings: LightsSettings;
let extensionContext: vscode.ExtensionContext | undefined;

function currentSettings(): LightsSettings {
  const config = vscode.workspace.getConfiguration("lights");
  return readSettings((key) => config.get(key));
}

function isExecutable(file: string): boolean {
  try {
    if (!fs.statSync(file).isFile()) return false;
    if (process.platform !== "win32") fs.accessSync(file, fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function lookupServer(context: vscode.ExtensionContext): ServerLookup {
  const folder = vscode.workspace.workspaceFolders?.find((f) => f.uri.scheme === "file");
  return findServer({
    configured: settings.serverPath,
    extensionPath: context.extensionPath,
    workspaceFolder: folder?.uri.fsPath,
    platform: process.platform,
    env: process.env,
    isExecutable,
  });
}

/** A line in the "Lights Language Server" output channel (shown at every trace level). */
function log(line: string): void {
  try {
    serverOutput.appendLine(`[${new Date().toLocaleTimeString()}] ${line}`);
  } catch {
    // The channel is gone (the extension is being deactivated).
  }
}

/**
 * The one message shown when there is no `lights` binary, with a button to
 * the setting: in the Settings tab whose value is read (the Remote tab in a
 * remote window, where the User tab's value does not apply).
 */
async function reportMissing(lookup: ServerLookup & { found: false }): Promise<void> {
  log(`error: ${lookup.message}`);
  const open = "Open Settings";
  const choice = await vscode.window.showErrorMessage(`Lights: ${lookup.message}`, open);
  if (choice === open) {
    const values = vscode.workspace.getConfiguration("lights").inspect("server.path");
    const { command, args } = serverPathSettings(vscode.env.remoteName !== undefined, values);
    await vscode.commands.executeCommand(command, ...args);
  }
}

/** The binary for a command, or `undefined` after telling the user it is missing. */
function binaryFor(context: vscode.ExtensionContext): string | undefined {
  const lookup = lookupServer(context);
  if (lookup.found) return lookup.path;
  void reportMissing(lookup);
  return undefined;
}

/** `lights --version`'s answer, or why there is none (logged; the server is started anyway). */
async function binaryVersion(bin: string): Promise<string> {
  try {
    const r = await run(bin, ["--version"], { signal: AbortSignal.timeout(10_000) });
    if (r.code === 0 && r.stdout.trim() !== "") return r.stdout.trim();
    return `no version (--version exited ${r.code ?? "by a signal"}${r.stderr.trim() === "" ? "" : `: ${r.stderr.trim()}`})`;
  } catch (e) {
    return `no version (${e instanceof Error ? e.message : String(e)})`;
  }
}

async function startClient(context: vscode.ExtensionContext): Promise<void> {
  const where = vscode.env.remoteName === undefined ? "local window" : `remote window (${vscode.env.remoteName})`;
  log(`starting the language server (VS Code ${vscode.version}, ${where}, ${process.platform}-${process.arch})`);
  const lookup = lookupServer(context);
  if (!lookup.found) {
    void reportMissing(lookup);
    return;
  }
  for (const line of describeLookup(lookup)) log(line);
  log(`version: ${await binaryVersion(lookup.path)}`);
  output.appendLine(`language server: ${lookup.path} lsp (from ${describeSource(lookup.source)})`);
  const serverOptions: ServerOptions = { command: lookup.path, args: ["lsp"] };
  const clientOptions: LanguageClientOptions = {
    documentSelector: [
      { language: LANGUAGE, scheme: "file" },
      { language: LANGUAGE, scheme: "untitled" },
    ],
    initializationOptions: serverSettings(settings),
    outputChannel: serverOutput,
  };
  const c = new LanguageClient(LANGUAGE, "Lights Language Server", serverOptions, clientOptions);
  client = c;
  try {
    await c.start();
    log(`started: ${lookup.path} lsp`);
  } catch (e) {
    // The client has already said so (a notification, and the details in its
    // output channel): one message is enough.
    client = undefined;
    const message = e instanceof Error ? e.message : String(e);
    output.appendLine(`the language server did not start: ${message}`);
    log(`error: the language server did not start: ${message}`);
  }
}

function describeSource(source: "setting" | "bundled" | "path"): string {
  return source === "setting" ? "the lights.server.path setting" : source === "bundled" ? "the extension" : "PATH";
}

async function stopClient(): Promise<void> {
  const c = client;
  client = undefined;
  if (c !== undefined) {
    log("stopping the language server");
    try {
      await c.stop();
    } catch {
      // Already stopped (it crashed, or never started): nothing to do.
    }
  }
}

async function onConfigurationChanged(context: vscode.ExtensionContext): Promise<void> {
  const before = settings;
  settings = currentSettings();
  if (needsRestart(before, settings)) {
    await stopClient();
    await startClient(context);
  } else if (client !== undefined) {
    await client.sendNotification(DidChangeConfigurationNotification.type, { settings: serverSettings(settings) });
  }
  // Without a server, other settings wait for the next start (Lights: Restart Language Server).
}

// ---------------------------------------------------------------- puzzles

interface Target {
  editor: vscode.TextEditor;
  client: LanguageClient;
  puzzle: PuzzleAt;
  /** The name as `lights render --puzzle` takes it (undefined for a block without a name). */
  name: string | undefined;
}

/**
 * The `.lights` editor a command acts on: the active one, else one that is
 * visible (beside the walkthrough or the Play board, which are not text
 * editors).
 */
function lightsEditor(): vscode.TextEditor | undefined {
  const active = vscode.window.activeTextEditor;
  if (active !== undefined && active.document.languageId === LANGUAGE) return active;
  return vscode.window.visibleTextEditors.find((e) => e.document.languageId === LANGUAGE);
}

/** The puzzle under the cursor of the `.lights` editor, or `undefined` after saying why not. */
async function targetAtCursor(): Promise<Target | undefined> {
  const editor = lightsEditor();
  if (editor === undefined) {
    void vscode.window.showInformationMessage("Lights: open a .lights file and put the cursor in a puzzle.");
    return undefined;
  }
  const c = runningClient();
  if (c === undefined) return undefined;
  const puzzle = await puzzleIn(c, editor.document, editor.selection.active);
  if (puzzle === undefined) {
    void vscode.window.showInformationMessage("Lights: put the cursor inside a puzzle block first.");
    return undefined;
  }
  return { editor, client: c, puzzle, name: nameOf(editor.document, puzzle.symbol) };
}

async function puzzleIn(
  c: LanguageClient,
  document: vscode.TextDocument,
  position: vscode.Position,
): Promise<PuzzleAt | undefined> {
  const response = await c.sendRequest(DocumentSymbolRequest.type, {
    textDocument: { uri: c.code2ProtocolConverter.asUri(document.uri) },
  });
  return puzzleAt(puzzleSymbols(response), { line: position.line, character: position.character });
}

function nameOf(document: vscode.TextDocument, symbol: PuzzleSymbol): string | undefined {
  const r = symbol.selectionRange;
  const text = document.getText(new vscode.Range(r.start.line, r.start.character, r.end.line, r.end.character));
  return puzzleNameFromSource(text);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The server's "Insert minimum solution" / "Replace solution" action for a
 * puzzle. Right after a file is opened or edited the puzzle may still be
 * being solved (its lens says `⋯ solving…`): then ask again until it is
 * solved or the server's time budget is over.
 */
async function solutionActionFor(
  c: LanguageClient,
  document: vscode.TextDocument,
  symbol: PuzzleSymbol,
): Promise<CodeAction | Command | undefined> {
  const uri = c.code2ProtocolConverter.asUri(document.uri);
  const at = symbol.selectionRange.start;
  const deadline = Date.now() + settings.timeBudgetMs + 1000;
  for (;;) {
    // The lenses first: when they say the puzzle is solved, the actions asked
    // for next know its answer (asked the other way round, a solve ending in
    // between would look like "nothing to insert").
    const lenses = await c.sendRequest(CodeLensRequest.type, { textDocument: { uri } });
    const solving = isSolving(lenses, symbol.selectionRange.start.line);
    const actions = await c.sendRequest(CodeActionRequest.type, {
      textDocument: { uri },
      range: { start: at, end: at },
      context: { diagnostics: [] },
    });
    const action = solutionAction<CodeAction | Command>(actions ?? []);
    if (action !== undefined || !solving || Date.now() > deadline) return action;
    await sleep(200);
  }
}

/** "Lights: Insert Solution": apply the server's "Insert minimum solution" / "Replace solution" action. */
async function insertSolution(): Promise<void> {
  const target = await targetAtCursor();
  if (target === undefined) return;
  const { editor, client: c, puzzle } = target;
  const action = await solutionActionFor(c, editor.document, puzzle.symbol);
  const shown = target.name ?? puzzle.symbol.name;
  if (action === undefined) {
    void vscode.window.showInformationMessage(`Lights: ${noSolutionMessage(shown)}`);
    return;
  }
  let applied = true;
  if ("edit" in action && action.edit !== undefined) {
    const edit = await c.protocol2CodeConverter.asWorkspaceEdit(action.edit);
    applied = await vscode.workspace.applyEdit(edit);
  }
  const command = Command.is(action) ? action : action.command;
  if (command !== undefined) {
    await vscode.commands.executeCommand(command.command, ...(command.arguments ?? []));
  }
  if (applied) {
    vscode.window.setStatusBarMessage(`Lights: ${action.title} in "${shown}"`, 5000);
  } else {
    void vscode.window.showWarningMessage(
      `Lights: the solution for "${shown}" was not inserted: the file changed meanwhile. Try again.`,
    );
  }
}

// ---------------------------------------------------------------- check workspace

/**
 * "Lights: Check Workspace": `lights check --format json` on every workspace
 * folder. Results go to the Problems panel (source `lights check`) and a
 * per-puzzle report to the Lights output channel. Files open in an editor
 * are left to the language server, whose diagnostics are live; a file's
 * check results are dropped when it is opened or edited.
 */
async function checkWorkspace(context: vscode.ExtensionContext, checks: vscode.DiagnosticCollection): Promise<void> {
  const folders = (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === "file");
  if (folders.length === 0) {
    void vscode.window.showInformationMessage("Lights: open a folder to check its .lights files.");
    return;
  }
  const bin = binaryFor(context);
  if (bin === undefined) return;
  const entries: CheckEntry[] = [];
  const placed = new Map<string, PlacedDiagnostic[]>();
  const failures: string[] = [];
  await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: "Lights: checking .lights files", cancellable: true },
    async (progress, token) => {
      const abort = new AbortController();
      token.onCancellationRequested(() => abort.abort());
      output.appendLine("");
      output.appendLine(`== lights check (${new Date().toLocaleTimeString()})`);
      for (const folder of folders) {
        if (token.isCancellationRequested) break;
        const dir = folder.uri.fsPath;
        progress.report({ message: folder.name });
        try {
          const result = await checkFolder(bin, dir, abort.signal);
          for (const line of result.stderr.split(/\r?\n/).filter((l) => l.trim() !== "")) {
            output.appendLine(line);
            failures.push(line);
          }
          for (const e of result.entries) output.appendLine(entryLine(e, path.relative(dir, path.resolve(dir, e.file))));
          entries.push(...result.entries);
          const lines = new Map<string, string[] | undefined>();
          const lineText = (file: string, line: number) => {
            if (!lines.has(file)) {
              try {
                lines.set(file, fs.readFileSync(file, "utf8").split(/\r?\n/));
              } catch {
                lines.set(file, undefined);
              }
            }
            return lines.get(file)?.[line];
          };
          for (const [file, list] of placeDiagnostics(result.entries, dir, lineText)) placed.set(file, list);
        } catch (e) {
          if (abort.signal.aborted) break;
          const message = e instanceof Error ? e.message : String(e);
          output.appendLine(`error: ${message}`);
          failures.push(message);
        }
      }
    },
  );
  const open = new Set(
    vscode.workspace.textDocuments.filter((d) => d.languageId === LANGUAGE).map((d) => d.uri.toString()),
  );
  checks.clear();
  for (const [file, list] of placed) {
    const uri = vscode.Uri.file(file);
    if (open.has(uri.toString())) continue;
    checks.set(
      uri,
      list.map((d) => {
        const range = new vscode.Range(d.line, d.startCharacter, d.line, d.endCharacter);
        const severity = d.severity === "error" ? vscode.DiagnosticSeverity.Error : vscode.DiagnosticSeverity.Warning;
        const diagnostic = new vscode.Diagnostic(range, d.message, severity);
        diagnostic.source = "lights check";
        diagnostic.code = d.code;
        return diagnostic;
      }),
    );
  }
  const summary = summarize(entries);
  const line = summaryLine(summary);
  output.appendLine(line);
  const problems = "Open Problems";
  const report = "Show Report";
  const buttons = summary.errors + summary.warnings > 0 ? [problems, report] : [report];
  const suffix = failures.length > 0 ? ` (${count(failures.length, "problem")} running lights check: see the report)` : "";
  const text = `Lights: ${line}${suffix}`;
  // The progress notification is over by now (withProgress has returned).
  // The summary is not awaited: the command is done when the check is, not
  // when the user answers (or never answers) the summary.
  void (async () => {
    const choice =
      failures.length > 0 || summary.errors > 0
        ? await vscode.window.showWarningMessage(text, ...buttons)
        : await vscode.window.showInformationMessage(text, ...buttons);
    if (choice === problems) await vscode.commands.executeCommand("workbench.actions.view.problems");
    if (choice === report) output.show(true);
  })();
}

// ---------------------------------------------------------------- play

/**
 * "Lights: Play" (also "Preview Board"): one webview panel running the board
 * view of editors/play, which talks to the extension by messages
 * (playProtocol.ts) answered with the language server's `lights/board`,
 * `lights/solveFrom` and `lights/lightsEdit`. It follows the played
 * document's edits and the cursor's puzzle.
 */
class PlayPanel {
  private static current: PlayPanel | undefined;
  private session: PlaySession;
  private followTimer: ReturnType<typeof setTimeout> | undefined;
  private readonly subscriptions: vscode.Disposable[];

  private constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly panel: vscode.WebviewPanel,
    private document: vscode.TextDocument,
    private puzzle: number,
  ) {
    this.session = this.newSession();
    this.subscriptions = [
      vscode.workspace.onDidChangeTextDocument((e) => {
        // (An event without changes is only the dirty flag, on save.)
        if (e.contentChanges !== undefined && e.contentChanges.length === 0) return;
        if (e.document.uri.toString() === this.document.uri.toString()) this.session.documentChanged(e.document.version);
      }),
      vscode.window.onDidChangeTextEditorSelection((e) => this.follow(e.textEditor)),
      panel.webview.onDidReceiveMessage((m: unknown) => void this.session.receive(m)),
    ];
    panel.onDidDispose(() => {
      this.subscriptions.forEach((s) => s.dispose());
      this.session.dispose();
      if (this.followTimer !== undefined) clearTimeout(this.followTimer);
      if (PlayPanel.current === this) PlayPanel.current = undefined;
    });
  }

  private newSession(): PlaySession {
    return new PlaySession((m) => this.panel.webview.postMessage(m), playDeps(() => this.document, () => this.puzzle), {
      onBoard: (board) => {
        this.panel.title = `Play ${board.name}`;
      },
    });
  }

  static async show(context: vscode.ExtensionContext): Promise<void> {
    const editor = lightsEditor();
    if (editor === undefined) {
      void vscode.window.showInformationMessage("Lights: open a .lights file to play its puzzles.");
      return;
    }
    const c = runningClient();
    if (c === undefined) return;
    let index = 0;
    try {
      index = (await puzzleIn(c, editor.document, editor.selection.active))?.index ?? 0;
    } catch {
      // No outline (the server is busy or restarting): start with the first puzzle.
    }
    const document = editor.document;
    let play = PlayPanel.current;
    if (play === undefined) {
      const panel = vscode.window.createWebviewPanel(
        "lights.play",
        "Play",
        { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true },
        {
          enableScripts: true,
          enableCommandUris: false,
          retainContextWhenHidden: true,
          localResourceRoots: [vscode.Uri.file(path.join(context.extensionPath, "out", "play"))],
        },
      );
      panel.iconPath = vscode.Uri.file(path.join(context.extensionPath, "images", "file-icon.svg"));
      play = new PlayPanel(context, panel, document, index);
      PlayPanel.current = play;
    } else if (play.document.uri.toString() === document.uri.toString()) {
      // The same file: keep the game, show the cursor's puzzle.
      play.puzzle = index;
      play.session.select(index);
      play.panel.reveal(undefined, true);
      return;
    } else {
      play.document = document;
      play.puzzle = index;
      play.session.dispose();
      play.session = play.newSession();
      play.panel.reveal(undefined, true);
    }
    play.render();
  }

  /** (Re)load the page: it asks for the puzzles and shows `this.puzzle`. */
  private render(): void {
    const webview = this.panel.webview;
    const media = path.join(this.context.extensionPath, "out", "play");
    const script = path.join(media, "board.js");
    const style = path.join(media, "board.css");
    if (!fs.existsSync(script) || !fs.existsSync(style)) {
      webview.html = messageHtml(
        "The board view is missing",
        `${script} or ${style} is not there: run \`npm run bundle\` in editors/vscode (it copies editors/play's build into out/play/).`,
        makeNonce(),
      );
      return;
    }
    webview.html = playHtml({
      scriptUri: webview.asWebviewUri(vscode.Uri.file(script)).toString(),
      styleUri: webview.asWebviewUri(vscode.Uri.file(style)).toString(),
      cspSource: webview.cspSource,
      nonce: makeNonce(),
      title: "Lights: Play",
    });
  }

  /** When the cursor moves into another puzzle of the played file, show that one. */
  private follow(editor: vscode.TextEditor): void {
    if (editor.document.uri.toString() !== this.document.uri.toString()) return;
    if (this.followTimer !== undefined) clearTimeout(this.followTimer);
    this.followTimer = setTimeout(async () => {
      const c = client;
      if (c === undefined || !c.isRunning()) return;
      try {
        const puzzle = await puzzleIn(c, editor.document, editor.selection.active);
        if (puzzle !== undefined) {
          this.puzzle = puzzle.index;
          this.session.select(puzzle.index);
        }
      } catch {
        // The document was closed or the server restarted: keep the board.
      }
    }, 400);
  }
}

/** The running language client, or undefined after saying why there is none. */
function runningClient(): LanguageClient | undefined {
  const c = client;
  if (c !== undefined && c.isRunning()) return c;
  const lookup = extensionContext === undefined ? undefined : lookupServer(extensionContext);
  if (lookup !== undefined && !lookup.found) {
    void reportMissing(lookup);
  } else {
    void vscode.window.showErrorMessage(
      "Lights: the language server is not running (see the Lights Language Server output, or run Lights: Restart Language Server).",
    );
  }
  return undefined;
}

/** How a Play session reaches the language server and the document. */
function playDeps(document: () => vscode.TextDocument, selected: () => number): PlayDeps {
  const live = (): LanguageClient => {
    const c = client;
    if (c === undefined || !c.isRunning()) throw new ServerDown();
    return c;
  };
  return {
    uri: () => live().code2ProtocolConverter.asUri(document().uri),
    request: (method, params) => live().sendRequest(new RequestType<unknown, unknown, void>(method), params),
    puzzles: async () => {
      const c = live();
      const doc = document();
      const symbols = await c.sendRequest(DocumentSymbolRequest.type, {
        textDocument: { uri: c.code2ProtocolConverter.asUri(doc.uri) },
      });
      return puzzleList(symbols, vscode.workspace.asRelativePath(doc.uri), doc.version, selected());
    },
    applyEdits: async (edits, version) => {
      const doc = document();
      if (version !== undefined && doc.version !== version) return false;
      const edit = new vscode.WorkspaceEdit();
      for (const e of edits) {
        const { start, end } = e.range;
        edit.replace(doc.uri, new vscode.Range(start.line, start.character, end.line, end.character), e.newText);
      }
      // The document is live: after the edit it has the version its change event carries.
      return (await vscode.workspace.applyEdit(edit)) ? doc.version : false;
    },
  };
}

// ---------------------------------------------------------------- example

/**
 * "Lights: Open Example Puzzles" (the walkthrough's first step): the
 * extension's media/first-puzzles.lights as a new untitled `.lights` file,
 * beside the walkthrough when that is what is showing.
 */
async function openExample(context: vscode.ExtensionContext): Promise<void> {
  const file = path.join(context.extensionPath, "media", "first-puzzles.lights");
  let content: string;
  try {
    content = fs.readFileSync(file, "utf8");
  } catch (e) {
    void vscode.window.showErrorMessage(`Lights: the example puzzles are missing from the extension (${file}): ${e instanceof Error ? e.message : String(e)}`);
    return;
  }
  const document = await vscode.workspace.openTextDocument({ language: LANGUAGE, content });
  const column = vscode.window.activeTextEditor === undefined ? vscode.ViewColumn.Beside : vscode.ViewColumn.Active;
  await vscode.window.showTextDocument(document, { viewColumn: column, preview: false });
}

// ---------------------------------------------------------------- activation

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  extensionContext = context;
  output = vscode.window.createOutputChannel("Lights");
  serverOutput = vscode.window.createOutputChannel("Lights Language Server");
  settings = currentSettings();
  const checks = vscode.languages.createDiagnosticCollection("lights-check");
  const dropChecks = (doc: vscode.TextDocument) => {
    if (doc.languageId === LANGUAGE) checks.delete(doc.uri);
  };
  context.subscriptions.push(
    output,
    serverOutput,
    checks,
    vscode.workspace.onDidOpenTextDocument(dropChecks),
    vscode.workspace.onDidChangeTextDocument((e) => dropChecks(e.document)),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration("lights")) void onConfigurationChanged(context);
    }),
    vscode.commands.registerCommand("lights.openExample", () => openExample(context)),
    vscode.commands.registerCommand("lights.insertSolutionAtCursor", () => insertSolution()),
    vscode.commands.registerCommand("lights.checkWorkspace", () => checkWorkspace(context, checks)),
    vscode.commands.registerCommand("lights.play", () => PlayPanel.show(context)),
    // The static preview became Play; the old command id opens it too.
    vscode.commands.registerCommand("lights.previewBoard", () => PlayPanel.show(context)),
    vscode.commands.registerCommand("lights.restartServer", async () => {
      await stopClient();
      await startClient(context);
    }),
    { dispose: () => void stopClient() },
  );
  await startClient(context);
}

export function deactivate(): Promise<void> | undefined {
  return client === undefined ? undefined : stopClient();
}
