// Running the `lights` command line: `check --format json`.
// Node only (no `vscode`), so the integration tests run it for real.

import { execFile } from "node:child_process";

import { CheckEntry, CheckOutputError, parseCheckOutput } from "./check";

export interface RunResult {
  /** The exit status (`null` when the process was killed). */
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Run `bin args…` without a shell; rejects only when it cannot be started or is cancelled. */
export function run(bin: string, args: string[], options: { cwd?: string; signal?: AbortSignal } = {}): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    execFile(
      bin,
      args,
      { cwd: options.cwd, signal: options.signal, maxBuffer: 512 * 1024 * 1024, encoding: "utf8", windowsHide: true },
      (error, stdout, stderr) => {
        if (error && (error as NodeJS.ErrnoException).code === "ABORT_ERR") {
          reject(error);
          return;
        }
        if (error === null) {
          resolve({ code: 0, stdout, stderr });
        } else if (typeof error.code === "number") {
          resolve({ code: error.code, stdout, stderr });
        } else if (error.signal) {
          resolve({ code: null, stdout, stderr: stderr || `killed by ${error.signal}` });
        } else {
          reject(new Error(`cannot run ${bin}: ${error.message}`));
        }
      },
    );
  });
}

export interface CheckRun {
  entries: CheckEntry[];
  /** What `lights check` said on standard error (unreadable files and the like). */
  stderr: string;
  code: number | null;
}

/**
 * `lights check --format json FOLDER` (every `*.lights` below it). Exit 0
 * and 1 both come with the JSON; exit 2 may too (an unreadable file among
 * readable ones), else it is an error with `lights`' own message.
 */
export async function checkFolder(bin: string, folder: string, signal?: AbortSignal): Promise<CheckRun> {
  const result = await run(bin, ["check", "--format", "json", folder], { signal });
  const out = result.stdout.trim();
  if (out.startsWith("[")) {
    const entries = parseCheckOutput(out);
    // Exit 2 with nothing but unreadable entries: nothing was checked.
    const unreadable = (e: CheckEntry) => e.puzzle === null && e.diagnostics.length === 0 && (e.errors ?? []).length > 0;
    if (result.code !== 2 || !entries.every(unreadable)) {
      return { entries, stderr: result.stderr, code: result.code };
    }
  }
  const why = result.stderr.trim() || `exit status ${result.code}`;
  throw new CheckOutputError(`lights check failed on ${folder}: ${why}`);
}

