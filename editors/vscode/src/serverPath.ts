// Finding the `lights` binary: the binary bundled in the extension (the
// platform .vsix has `server/lights`, `server/lights.exe`), else the
// `lights.server.path` setting, else `lights` on PATH. The bundled server
// comes first, so installing the platform package is all a user needs, and
// a stale setting or PATH entry cannot shadow it; to run another build, use
// the universal .vsix (no server inside) with the setting. Pure: the file
// system and the environment come in as arguments, so the search is tested
// without touching either.

import * as path from "node:path";

export type ServerSource = "setting" | "bundled" | "path";

export interface ServerSearch {
  /** The `lights.server.path` setting; empty or blank means "not set". */
  configured: string | undefined;
  /** The extension's folder (where `server/` is). */
  extensionPath: string;
  /** The first workspace folder, against which a relative setting is resolved. */
  workspaceFolder: string | undefined;
  platform: NodeJS.Platform;
  env: Record<string, string | undefined>;
  /** Is there an executable file at this absolute path? */
  isExecutable: (file: string) => boolean;
}

export type ServerLookup =
  | {
      found: true;
      path: string;
      source: ServerSource;
      /** The `lights.server.path` setting when it is set but not used (the bundled server came first). */
      settingNotUsed?: string;
    }
  | { found: false; message: string; settingIsWrong: boolean };

/** `path.win32` or `path.posix`, by the platform searched (not the one running). */
function pathFor(platform: NodeJS.Platform): path.PlatformPath {
  return platform === "win32" ? path.win32 : path.posix;
}

/** The binary's file name on a platform. */
export function binaryName(platform: NodeJS.Platform): string {
  return platform === "win32" ? "lights.exe" : "lights";
}

/** An environment variable; on Windows, names are case-insensitive (`Path`). */
export function envVar(
  env: Record<string, string | undefined>,
  name: string,
  platform: NodeJS.Platform,
): string | undefined {
  if (platform !== "win32") return env[name];
  const key = Object.keys(env).find((k) => k.toUpperCase() === name.toUpperCase());
  return key === undefined ? undefined : env[key];
}

/**
 * The setting as an absolute path: `~` is the home folder, `${workspaceFolder}`
 * the first workspace folder, and a relative path is taken from that folder
 * (or is returned as it is when there is no folder, and then not found).
 */
export function resolveConfigured(search: Omit<ServerSearch, "isExecutable" | "extensionPath">): string | undefined {
  const raw = search.configured?.trim();
  if (!raw) return undefined;
  const p = pathFor(search.platform);
  const home = envVar(search.env, search.platform === "win32" ? "USERPROFILE" : "HOME", search.platform);
  let value = raw;
  if (search.workspaceFolder !== undefined) {
    value = value.split("${workspaceFolder}").join(search.workspaceFolder);
  }
  if (home !== undefined && (value === "~" || value.startsWith("~/") || value.startsWith("~\\"))) {
    value = p.join(home, value.slice(1));
  }
  if (p.isAbsolute(value)) return p.normalize(value);
  if (search.workspaceFolder !== undefined) return p.resolve(search.workspaceFolder, value);
  return value;
}

/** The first executable named `name` in the PATH directories (with PATHEXT on Windows). */
export function searchPath(
  name: string,
  env: Record<string, string | undefined>,
  platform: NodeJS.Platform,
  isExecutable: (file: string) => boolean,
): string | undefined {
  const p = pathFor(platform);
  const dirs = (envVar(env, "PATH", platform) ?? "").split(platform === "win32" ? ";" : ":");
  const names = [name];
  if (platform === "win32" && p.extname(name) === "") {
    // Only real executables: a `.cmd` or `.bat` would need a shell to start.
    const exts = (envVar(env, "PATHEXT", platform) ?? ".COM;.EXE")
      .split(";")
      .filter((e) => /^\.(exe|com)$/i.test(e));
    names.splice(0, 1, ...exts.map((e) => name + e.toLowerCase()));
  }
  for (const raw of dirs) {
    // Quoted entries are allowed on Windows; an empty entry is not the current folder here.
    const dir = raw.trim().replace(/^"(.*)"$/, "$1");
    if (dir === "" || !p.isAbsolute(dir)) continue;
    for (const n of names) {
      const candidate = p.join(dir, n);
      if (isExecutable(candidate)) return candidate;
    }
  }
  return undefined;
}

export const INSTALL_HINT =
  "Install it with `cargo install --path crates/cli` in the lights repository " +
  "(or build it with `cargo build --release` and use target/release/lights), " +
  "then set `lights.server.path` to the binary or put it on PATH.";

/**
 * Why nothing was found, and what to do. The platform package makes the
 * question moot; PATH is the extension host's, which is often not the one a
 * user set (in a shell profile VS Code did not read, in a terminal, or on
 * the local machine for a remote window).
 */
export const NOT_FOUND =
  "The `lights` binary, which runs the language server, was not found. " +
  "This copy of the extension has no server inside: the platform package (lights-linux-x64.vsix and the like) " +
  "has one and needs nothing else. " +
  INSTALL_HINT +
  " Only the PATH of VS Code's extension host is searched, and it is not your shell's: " +
  "a PATH set in a terminal, in a profile VS Code did not read, or on your own machine for a remote window " +
  "(SSH, WSL, a container, code-server) does not reach it; the setting, with the full path, always works.";

/** Where the `lights` binary is, or why it was not found: bundled, then the setting, then PATH. */
export function findServer(search: ServerSearch): ServerLookup {
  const configured = resolveConfigured(search);
  const shown = search.configured?.trim() ?? "";
  const name = binaryName(search.platform);
  const bundled = pathFor(search.platform).join(search.extensionPath, "server", name);
  if (search.isExecutable(bundled)) {
    return configured === undefined
      ? { found: true, path: bundled, source: "bundled" }
      : { found: true, path: bundled, source: "bundled", settingNotUsed: shown };
  }
  if (configured !== undefined) {
    if (search.isExecutable(configured)) return { found: true, path: configured, source: "setting" };
    const where = shown === configured ? "" : ` (${configured})`;
    return {
      found: false,
      settingIsWrong: true,
      message:
        `The setting \`lights.server.path\` is "${shown}"${where}, but there is no executable file there. ` +
        "Point it at the `lights` binary, or clear it to use `lights` on PATH.",
    };
  }
  const onPath = searchPath("lights", search.env, search.platform, search.isExecutable);
  if (onPath !== undefined) return { found: true, path: onPath, source: "path" };
  return { found: false, settingIsWrong: false, message: NOT_FOUND };
}

/** The output channel's lines about the binary found: where it is, where from, and a setting that is not used. */
export function describeLookup(lookup: ServerLookup & { found: true }): string[] {
  const from =
    lookup.source === "bundled"
      ? "the server bundled with the extension"
      : lookup.source === "setting"
        ? "the lights.server.path setting"
        : "lights on PATH";
  const lines = [`server: ${lookup.path} (${from})`];
  if (lookup.settingNotUsed !== undefined) {
    lines.push(
      `the setting lights.server.path ("${lookup.settingNotUsed}") is not used: the server bundled with the extension comes first. ` +
        "To run another build, install the universal package of the extension (no server inside) and keep the setting.",
    );
  }
  return lines;
}
