// A stand-in for `vscode-languageclient/node` that talks to the real
// `lights lsp` over stdio: the extension's requests reach the real server,
// the documents the fake workspace holds are opened in it, and the server's
// `workspace/applyEdit` goes to the fake workspace.

import { ChildProcess, spawn } from "node:child_process";
import {
  createProtocolConnection,
  ProtocolConnection,
  StreamMessageReader,
  StreamMessageWriter,
} from "vscode-languageserver-protocol/node";

import * as vscode from "./vscode";

export * from "vscode-languageserver-protocol";

interface Executable {
  command: string;
  args?: string[];
}

interface ClientOptions {
  documentSelector: { language: string; scheme?: string }[];
  initializationOptions?: unknown;
}

export class LanguageClient {
  static instances: LanguageClient[] = [];
  readonly notifications: { method: string; params: unknown }[] = [];
  private process: ChildProcess | undefined;
  private connection: ProtocolConnection | undefined;
  private running = false;
  stopped = false;

  constructor(
    readonly id: string,
    readonly name: string,
    readonly serverOptions: Executable,
    readonly clientOptions: ClientOptions,
  ) {
    LanguageClient.instances.push(this);
  }

  readonly code2ProtocolConverter = { asUri: (uri: vscode.Uri) => uri.toString() };
  readonly protocol2CodeConverter = { asWorkspaceEdit: async (edit: unknown) => edit };

  async start(): Promise<void> {
    const child = spawn(this.serverOptions.command, this.serverOptions.args ?? [], { stdio: ["pipe", "pipe", "ignore"] });
    await new Promise<void>((resolve, reject) => {
      child.once("spawn", resolve);
      child.once("error", reject);
    });
    this.process = child;
    const connection = createProtocolConnection(new StreamMessageReader(child.stdout!), new StreamMessageWriter(child.stdin!));
    this.connection = connection;
    connection.onRequest("workspace/applyEdit", async (p: { edit: unknown }) => ({
      applied: await vscode.workspace.applyEdit(p.edit),
    }));
    connection.onRequest("workspace/codeLens/refresh", () => null);
    connection.listen();
    await connection.sendRequest("initialize", {
      processId: process.pid,
      rootUri: null,
      capabilities: { workspace: { applyEdit: true, workspaceEdit: { documentChanges: true } } },
      initializationOptions: this.clientOptions.initializationOptions,
    });
    await connection.sendNotification("initialized", {});
    const languages = new Set(this.clientOptions.documentSelector.map((s) => s.language));
    for (const doc of vscode.workspace.textDocuments.filter((d) => languages.has(d.languageId))) {
      await connection.sendNotification("textDocument/didOpen", {
        textDocument: { uri: doc.uri.toString(), languageId: doc.languageId, version: doc.version, text: doc.text },
      });
    }
    this.running = true;
  }

  isRunning(): boolean {
    return this.running;
  }

  async stop(): Promise<void> {
    this.running = false;
    this.stopped = true;
    this.connection?.dispose();
    this.process?.kill();
  }

  /** Tell the server about a changed document (VS Code's client does this on every edit). */
  async didChange(doc: vscode.TextDocument): Promise<void> {
    await this.connection!.sendNotification("textDocument/didChange", {
      textDocument: { uri: doc.uri.toString(), version: doc.version },
      contentChanges: [{ text: doc.text }],
    });
  }

  sendRequest(type: { method: string }, params: unknown): Promise<unknown> {
    return this.connection!.sendRequest(type.method, params);
  }

  async sendNotification(type: { method: string }, params: unknown): Promise<void> {
    this.notifications.push({ method: type.method, params });
    await this.connection?.sendNotification(type.method, params);
  }
}
