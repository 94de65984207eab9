// A small stand-in for the `vscode` module: just what src/extension.ts
// uses, recording what the extension does (messages, commands, diagnostics,
// webviews) so tests can drive it without VS Code. Aliased to `vscode` in
// vitest.config.mts.

import * as path from "node:path";

type Listener<T> = (e: T) => unknown;

export class EventEmitter<T> {
  private listeners: Listener<T>[] = [];
  event = (listener: Listener<T>) => {
    this.listeners.push(listener);
    return { dispose: () => (this.listeners = this.listeners.filter((l) => l !== listener)) };
  };
  fire(e: T): void {
    for (const l of [...this.listeners]) l(e);
  }
}

export class Position {
  constructor(
    readonly line: number,
    readonly character: number,
  ) {}
}

export class Range {
  readonly start: Position;
  readonly end: Position;
  constructor(l1: number, c1: number, l2: number, c2: number) {
    this.start = new Position(l1, c1);
    this.end = new Position(l2, c2);
  }
}

export class Uri {
  private constructor(
    readonly scheme: string,
    readonly fsPath: string,
  ) {}
  static file(p: string): Uri {
    return new Uri("file", path.resolve(p));
  }
  static untitled(name: string): Uri {
    return new Uri("untitled", name);
  }
  static joinPath(base: Uri, ...parts: string[]): Uri {
    return new Uri(base.scheme, path.join(base.fsPath, ...parts));
  }
  toString(): string {
    return this.scheme === "file" ? `file://${encodeURI(this.fsPath)}` : `${this.scheme}:${this.fsPath}`;
  }
}

export enum DiagnosticSeverity {
  Error = 0,
  Warning = 1,
  Information = 2,
  Hint = 3,
}

export class Diagnostic {
  source?: string;
  code?: string;
  constructor(
    readonly range: Range,
    readonly message: string,
    readonly severity: DiagnosticSeverity,
  ) {}
}

/** Edits to apply with workspace.applyEdit (only `replace` is used). */
export class WorkspaceEdit {
  readonly edits: { uri: Uri; range: Range; newText: string }[] = [];
  replace(uri: Uri, range: Range, newText: string): void {
    this.edits.push({ uri, range, newText });
  }
}

export enum ProgressLocation {
  Notification = 15,
}

export enum ViewColumn {
  Active = -1,
  Beside = -2,
}

export class TextDocument {
  version = 1;
  constructor(
    readonly uri: Uri,
    public text: string,
    readonly languageId = "lights",
  ) {}
  get fileName(): string {
    return this.uri.fsPath;
  }
  offsetAt(p: { line: number; character: number }): number {
    const lines = this.text.split("\n");
    return lines.slice(0, p.line).reduce((n, l) => n + l.length + 1, 0) + p.character;
  }
  getText(range?: Range): string {
    if (range === undefined) return this.text;
    return this.text.slice(this.offsetAt(range.start), this.offsetAt(range.end));
  }
}

// ---------------------------------------------------------------- recorded state

export interface Message {
  kind: "error" | "warning" | "info";
  text: string;
  buttons: string[];
}

export const state = {
  config: {} as Record<string, unknown>,
  messages: [] as Message[],
  /** The button the next message is answered with. */
  answer: undefined as string | undefined,
  executed: [] as { command: string; args: unknown[] }[],
  commands: new Map<string, (...args: unknown[]) => unknown>(),
  statusBar: [] as string[],
  collections: [] as DiagnosticCollection[],
  panels: [] as WebviewPanel[],
  applied: [] as unknown[],
  progress: [] as { title: string; reports: unknown[]; ended: boolean; messagesWhenEnded: number }[],
  /** How an edit is applied to the documents (set by the test). */
  applyEdit: (_edit: unknown) => true,
};

export function reset(): void {
  state.config = {};
  state.messages = [];
  state.answer = undefined;
  state.executed = [];
  state.commands = new Map();
  state.statusBar = [];
  state.collections = [];
  state.panels = [];
  state.applied = [];
  state.progress = [];
  state.applyEdit = () => true;
  env.remoteName = undefined;
  workspace.workspaceFolders = undefined;
  workspace.textDocuments = [];
  window.activeTextEditor = undefined;
  window.visibleTextEditors = [];
  window.shown = [];
  window.outputs = [];
  events.open = new EventEmitter();
  events.change = new EventEmitter();
  events.save = new EventEmitter();
  events.configuration = new EventEmitter();
  events.selection = new EventEmitter();
}

export const events = {
  open: new EventEmitter<TextDocument>(),
  change: new EventEmitter<{ document: TextDocument }>(),
  save: new EventEmitter<TextDocument>(),
  configuration: new EventEmitter<{ affectsConfiguration: (s: string) => boolean }>(),
  selection: new EventEmitter<{ textEditor: unknown }>(),
};

// ---------------------------------------------------------------- namespaces

class DiagnosticCollection {
  readonly entries = new Map<string, Diagnostic[]>();
  constructor(readonly name: string) {}
  set(uri: Uri, list: Diagnostic[]): void {
    this.entries.set(uri.toString(), list);
  }
  delete(uri: Uri): void {
    this.entries.delete(uri.toString());
  }
  clear(): void {
    this.entries.clear();
  }
  dispose(): void {}
}

export const languages = {
  createDiagnosticCollection(name: string): DiagnosticCollection {
    const c = new DiagnosticCollection(name);
    state.collections.push(c);
    return c;
  },
};

function message(kind: Message["kind"]) {
  return async (text: string, ...buttons: string[]): Promise<string | undefined> => {
    state.messages.push({ kind, text, buttons });
    const answer = state.answer;
    state.answer = undefined;
    return answer !== undefined && buttons.includes(answer) ? answer : undefined;
  };
}

class OutputChannel {
  lines: string[] = [];
  constructor(readonly name: string) {}
  appendLine(line: string): void {
    this.lines.push(line);
  }
  append(text: string): void {
    this.lines.push(text);
  }
  show(): void {}
  dispose(): void {}
}

class Webview {
  html = "";
  readonly cspSource = "fake-csp-source";
  /** Messages the extension posted to the page. */
  readonly posted: unknown[] = [];
  readonly received = new EventEmitter<unknown>();
  onDidReceiveMessage = this.received.event;
  asWebviewUri(uri: Uri): { toString(): string } {
    return { toString: () => `https://fake.vscode-resource${uri.fsPath}` };
  }
  async postMessage(message: unknown): Promise<boolean> {
    this.posted.push(message);
    return true;
  }
}

class WebviewPanel {
  readonly webview = new Webview();
  title: string;
  iconPath: unknown;
  readonly disposed = new EventEmitter<void>();
  onDidDispose = this.disposed.event;
  constructor(
    readonly viewType: string,
    title: string,
    readonly showOptions: unknown,
    readonly options: { enableScripts?: boolean; localResourceRoots?: unknown[]; retainContextWhenHidden?: boolean },
  ) {
    this.title = title;
  }
  reveal(): void {}
  dispose(): void {
    this.disposed.fire();
  }
}

type Editor = { document: TextDocument; selection: { active: Position } };

export const window = {
  activeTextEditor: undefined as Editor | undefined,
  /** Editors showing (the active one is not added by tests that set it directly). */
  visibleTextEditors: [] as Editor[],
  /** What showTextDocument was asked to show, and where. */
  shown: [] as { document: TextDocument; options: unknown }[],
  async showTextDocument(document: TextDocument, options?: unknown): Promise<Editor> {
    const editor = { document, selection: { active: new Position(0, 0) } };
    window.shown.push({ document, options });
    window.activeTextEditor = editor;
    window.visibleTextEditors.push(editor);
    return editor;
  },
  outputs: [] as OutputChannel[],
  createOutputChannel(name: string): OutputChannel {
    const c = new OutputChannel(name);
    window.outputs.push(c);
    return c;
  },
  showErrorMessage: message("error"),
  showWarningMessage: message("warning"),
  showInformationMessage: message("info"),
  setStatusBarMessage(text: string): { dispose(): void } {
    state.statusBar.push(text);
    return { dispose() {} };
  },
  /** Records the progress shown (state.progress) and when it ends, relative to the messages shown. */
  async withProgress<T>(
    options: { title?: string },
    task: (
      progress: { report(v: unknown): void },
      token: { isCancellationRequested: boolean; onCancellationRequested: (f: () => void) => void },
    ) => Promise<T>,
  ): Promise<T> {
    const record = { title: options.title ?? "", reports: [] as unknown[], ended: false, messagesWhenEnded: -1 };
    state.progress.push(record);
    try {
      return await task({ report: (v) => record.reports.push(v) }, { isCancellationRequested: false, onCancellationRequested() {} });
    } finally {
      record.ended = true;
      record.messagesWhenEnded = state.messages.length;
    }
  },
  createWebviewPanel(
    viewType: string,
    title: string,
    showOptions: unknown,
    options: { enableScripts?: boolean; localResourceRoots?: unknown[] },
  ): WebviewPanel {
    const p = new WebviewPanel(viewType, title, showOptions, options);
    state.panels.push(p);
    return p;
  },
  get onDidChangeTextEditorSelection() {
    return events.selection.event;
  },
};

export const workspace = {
  workspaceFolders: undefined as { uri: Uri; name: string }[] | undefined,
  textDocuments: [] as TextDocument[],
  getConfiguration(section: string) {
    return {
      get: (key: string) => state.config[`${section}.${key}`],
      // Every value set by a test counts as the user's (globalValue).
      inspect: (key: string) => ({ key: `${section}.${key}`, globalValue: state.config[`${section}.${key}`] }),
    };
  },
  get onDidOpenTextDocument() {
    return events.open.event;
  },
  get onDidChangeTextDocument() {
    return events.change.event;
  },
  get onDidSaveTextDocument() {
    return events.save.event;
  },
  get onDidChangeConfiguration() {
    return events.configuration.event;
  },
  async applyEdit(edit: unknown): Promise<boolean> {
    state.applied.push(edit);
    return state.applyEdit(edit);
  },
  /** An untitled document with this content (the only form the extension uses). */
  async openTextDocument(options: { language: string; content: string }): Promise<TextDocument> {
    const doc = new TextDocument(Uri.untitled(`Untitled-${workspace.textDocuments.length + 1}`), options.content, options.language);
    workspace.textDocuments.push(doc);
    return doc;
  },
  asRelativePath(uri: Uri): string {
    return path.basename(uri.fsPath);
  },
};

export const version = "1.82.0-fake";

export const env = {
  /** Set by a test to pretend to be a remote window (`ssh-remote`, `wsl`, code-server's host). */
  remoteName: undefined as string | undefined,
};

export const commands = {
  registerCommand(id: string, f: (...args: unknown[]) => unknown) {
    state.commands.set(id, f);
    return { dispose: () => state.commands.delete(id) };
  },
  async executeCommand(command: string, ...args: unknown[]): Promise<unknown> {
    state.executed.push({ command, args });
    const f = state.commands.get(command);
    return f === undefined ? undefined : f(...args);
  },
};
