// Lists a .vsix (a zip file) and checks that it holds what the extension
// needs to work, and nothing it must not ship.
//
//   node scripts/check-vsix.mjs lights.vsix                        (universal: no server inside)
//   node scripts/check-vsix.mjs --target linux-x64 lights-linux-x64.vsix
//
// With --target, the package must be marked for that platform and hold the
// server (extension/server/lights, or lights.exe for win32-*) with unix mode
// 0755 and the target's executable format; when the target is this machine's,
// the server is extracted (with the mode the zip gives it, as VS Code does)
// and must answer `--version` with the extension's version.
//
// The zip is read with Node alone (central directory + inflate), so no
// `unzip` is needed. Exit 1 with the reason when something is wrong.

import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import Module, { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { inflateRawSync } from "node:zlib";
import { TARGETS, binaryName, hostTarget, mismatch } from "./targets.mjs";

const args = process.argv.slice(2);
let target;
const t = args.indexOf("--target");
if (t >= 0) {
  target = args[t + 1];
  args.splice(t, 2);
  if (!(target in TARGETS)) {
    console.error(`unknown target "${target}"; one of ${Object.keys(TARGETS).join(", ")}`);
    process.exit(2);
  }
}
const file = args[0];
if (!file || args.length !== 1) {
  console.error("usage: node scripts/check-vsix.mjs [--target TARGET] FILE.vsix");
  process.exit(2);
}
const zip = readFileSync(file);

/** name → { method, compressed size, offset of the local header } from the central directory. */
function entries(buf) {
  let eocd = -1;
  for (let i = buf.length - 22; i >= Math.max(0, buf.length - 65557); i--) {
    if (buf.readUInt32LE(i) === 0x06054b50) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw new Error(`${file} is not a zip file (no end of central directory)`);
  const count = buf.readUInt16LE(eocd + 10);
  let p = buf.readUInt32LE(eocd + 16);
  const out = new Map();
  for (let i = 0; i < count; i++) {
    if (buf.readUInt32LE(p) !== 0x02014b50) throw new Error(`bad central directory entry ${i}`);
    const method = buf.readUInt16LE(p + 10);
    const size = buf.readUInt32LE(p + 20);
    const unpacked = buf.readUInt32LE(p + 24);
    const nameLength = buf.readUInt16LE(p + 28);
    const extraLength = buf.readUInt16LE(p + 30);
    const commentLength = buf.readUInt16LE(p + 32);
    // Made by unix (high byte 3): the high 16 bits of the external attributes are st_mode.
    const madeBy = buf.readUInt16LE(p + 4) >> 8;
    const mode = madeBy === 3 ? buf.readUInt32LE(p + 38) >>> 16 : undefined;
    const offset = buf.readUInt32LE(p + 42);
    const name = buf.toString("utf8", p + 46, p + 46 + nameLength);
    out.set(name, { method, size, unpacked, offset, mode });
    p += 46 + nameLength + extraLength + commentLength;
  }
  return out;
}

function read(buf, entry) {
  const start = entry.offset + 30 + buf.readUInt16LE(entry.offset + 26) + buf.readUInt16LE(entry.offset + 28);
  const data = buf.subarray(start, start + entry.size);
  if (entry.method === 0) return data;
  if (entry.method === 8) return inflateRawSync(data);
  throw new Error(`unknown compression method ${entry.method}`);
}

const list = entries(zip);
for (const [name, e] of list) console.log(`${String(e.unpacked).padStart(9)}  ${name}`);

const problems = [];
const need = [
  "extension.vsixmanifest",
  "extension/package.json",
  "extension/syntaxes/lights.tmLanguage.json",
  "extension/language-configuration.json",
  "extension/out/extension.js",
  "extension/out/play/board.js",
  "extension/out/play/board.css",
  "extension/images/icon.png",
  "extension/images/file-icon.svg",
  "extension/media/first-puzzles.lights",
  "extension/media/walkthrough/open.md",
  "extension/media/walkthrough/counts.md",
  "extension/media/walkthrough/insert.md",
  "extension/media/walkthrough/play.md",
];
for (const n of need) if (!list.has(n)) problems.push(`missing ${n}`);
// vsce renames these (readme.md, changelog.md, LICENSE.txt).
for (const [what, re] of [
  ["the README", /^extension\/readme\.md$/i],
  ["the CHANGELOG", /^extension\/changelog\.md$/i],
  ["the LICENSE", /^extension\/license(\.txt|\.md)?$/i],
]) {
  if (![...list.keys()].some((n) => re.test(n))) problems.push(`missing ${what}`);
}
for (const n of list.keys()) {
  if (/(^|\/)(node_modules|src|test|scripts)\//.test(n) || n.endsWith(".map") || n.endsWith(".ts")) {
    problems.push(`should not be shipped: ${n}`);
  }
}

// The server: only in a platform package, executable, built for its target.
const serverEntries = [...list.keys()].filter((n) => n.startsWith("extension/server/"));
const manifestXml = list.has("extension.vsixmanifest") ? read(zip, list.get("extension.vsixmanifest")).toString("utf8") : "";
const platform = /TargetPlatform="([^"]*)"/.exec(manifestXml)?.[1];
let server;
if (target === undefined) {
  if (serverEntries.length > 0) problems.push(`the universal package holds a server: ${serverEntries.join(", ")}`);
  if (platform !== undefined) problems.push(`the universal package is marked for ${platform}`);
} else {
  if (platform !== target) problems.push(`the package is marked for ${platform ?? "every platform"}, not ${target} (vsce package --target ${target})`);
  const name = `extension/server/${binaryName(target)}`;
  const extra = serverEntries.filter((n) => n !== name);
  if (extra.length > 0) problems.push(`unexpected files in server/: ${extra.join(", ")}`);
  const entry = list.get(name);
  if (entry === undefined) {
    problems.push(`missing ${name} (the bundled server)`);
  } else {
    server = read(zip, entry);
    if (server.length !== entry.unpacked) problems.push(`${name} unpacks to ${server.length} bytes, not ${entry.unpacked}`);
    if (entry.mode === undefined) problems.push(`${name} has no unix mode (the zip was not made on unix)`);
    else if ((entry.mode & 0o777) !== 0o755) problems.push(`${name} has mode ${(entry.mode & 0o777).toString(8)}, not 755: it would not run`);
    else if ((entry.mode & 0o170000) !== 0o100000) problems.push(`${name} is not a regular file (mode ${entry.mode.toString(8)})`);
    const wrong = mismatch(server, target);
    if (wrong !== undefined) problems.push(`${name}: ${wrong}`);
  }
}

const text = (n) => (list.has(n) ? read(zip, list.get(n)).toString("utf8") : "");
try {
  const manifest = JSON.parse(text("extension/package.json"));
  const main = `extension/${manifest.main.replace(/^\.\//, "")}`;
  if (!list.has(main)) problems.push(`package.json's main (${manifest.main}) is not in the package`);
  for (const g of manifest.contributes.grammars) {
    const grammar = JSON.parse(text(`extension/${g.path.replace(/^\.\//, "")}`));
    if (grammar.scopeName !== g.scopeName) problems.push(`the grammar's scopeName is not ${g.scopeName}`);
  }
  for (const l of manifest.contributes.languages) {
    JSON.parse(text(`extension/${l.configuration.replace(/^\.\//, "")}`));
  }
  for (const w of manifest.contributes.walkthroughs ?? []) {
    for (const step of w.steps) {
      if (!list.has(`extension/${step.media.markdown}`)) problems.push(`the walkthrough's ${step.media.markdown} is not in the package`);
    }
  }
} catch (e) {
  problems.push(`cannot read the packaged manifest, grammar or language configuration: ${e.message}`);
}
const client = text("extension/out/extension.js");
// The client is bundled: it must not need node_modules at run time.
if (!client.includes("initializationOptions")) problems.push("out/extension.js does not look like the bundled client");
if (/require\(["']vscode-languageclient/.test(client)) problems.push("out/extension.js still requires vscode-languageclient");

// The bundle loads on its own (with a stand-in for the `vscode` module, which
// only VS Code provides) and exports activate/deactivate.
if (client !== "") {
  const dir = mkdtempSync(join(tmpdir(), "lights-vsix-"));
  const resolve = Module._resolveFilename;
  const anything = new Proxy(function () {}, { get: (_t, k) => (k === "then" ? undefined : anything), construct: () => anything, apply: () => anything });
  try {
    writeFileSync(join(dir, "extension.js"), client);
    writeFileSync(join(dir, "vscode.js"), "module.exports = globalThis.__lightsFakeVscode;");
    globalThis.__lightsFakeVscode = anything;
    Module._resolveFilename = function (request, ...rest) {
      return request === "vscode" ? join(dir, "vscode.js") : resolve.call(this, request, ...rest);
    };
    const loaded = createRequire(join(dir, "x.js"))("./extension.js");
    if (typeof loaded.activate !== "function" || typeof loaded.deactivate !== "function") {
      problems.push("out/extension.js does not export activate and deactivate");
    }
  } catch (e) {
    problems.push(`out/extension.js does not load: ${e.message}`);
  } finally {
    Module._resolveFilename = resolve;
    rmSync(dir, { recursive: true, force: true });
  }
}

// The bundled server runs once unpacked the way VS Code unpacks (the zip's
// mode, nothing added) and is the version the extension says it is.
let ran = "";
if (server !== undefined && problems.length === 0) {
  if (target !== hostTarget()) {
    ran = ` (not run: it is for ${target}, this machine is ${hostTarget() ?? process.platform + "-" + process.arch})`;
  } else {
    const dir = mkdtempSync(join(tmpdir(), "lights-vsix-server-"));
    try {
      const exe = join(dir, binaryName(target));
      writeFileSync(exe, server, { mode: list.get(`extension/server/${binaryName(target)}`).mode & 0o777 });
      const run = spawnSync(exe, ["--version"], { encoding: "utf8", timeout: 60_000 });
      const version = JSON.parse(text("extension/package.json")).version;
      if (run.error) problems.push(`the bundled server does not start: ${run.error.message}`);
      else if (run.status !== 0) problems.push(`the bundled server's --version exits ${run.status}: ${run.stderr.trim()}`);
      else if (run.stdout.trim() !== `lights ${version}`) {
        problems.push(`the bundled server answers --version with "${run.stdout.trim()}", not "lights ${version}" (the extension's version)`);
      } else ran = ` and answers --version with "${run.stdout.trim()}"`;
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
}

if (problems.length > 0) {
  for (const p of problems) console.error(`error: ${p}`);
  process.exit(1);
}
if (target === undefined) console.log(`${file}: ${list.size} files, everything the extension needs is there (universal: no server inside)`);
else console.log(`${file}: ${list.size} files, everything the extension needs is there, with an executable server for ${target}${ran}`);
