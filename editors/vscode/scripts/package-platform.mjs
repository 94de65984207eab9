// Builds a platform .vsix: the extension with the `lights` binary inside
// (`server/lights`, mode 755), which the extension runs before any setting or
// PATH. One package per vsce target; VS Code's marketplace and `code
// --install-extension` pick the one for the machine.
//
//   LIGHTS_BIN=/abs/path/to/lights node scripts/package-platform.mjs linux-x64
//   npm run package:linux-x64            (the binary of `cargo build --release`)
//
// writes lights-TARGET.vsix here. The binary comes from LIGHTS_BIN, else from
// the repository's target/release/ (target/release/lights.exe for win32-*).
// Its format must fit the target (an ELF x86-64 binary for linux-x64, ...).
// server/ is removed again afterwards, so `npm run package` (the universal
// .vsix) stays without a server.

import { spawnSync } from "node:child_process";
import { chmodSync, copyFileSync, existsSync, mkdirSync, rmSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { TARGETS, binaryName, head, hostTarget, mismatch } from "./targets.mjs";

const extension = join(dirname(fileURLToPath(import.meta.url)), "..");
const repo = resolve(extension, "..", "..");

function fail(message) {
  console.error(`error: ${message}`);
  process.exit(1);
}

const target = process.argv[2] ?? hostTarget();
if (target === undefined || !(target in TARGETS)) {
  fail(
    `${target === undefined ? "this machine is not a platform VS Code ships for" : `unknown target "${target}"`}. ` +
      `usage: node scripts/package-platform.mjs TARGET, where TARGET is one of ${Object.keys(TARGETS).join(", ")}`,
  );
}
const name = binaryName(target);

let bin;
const fromEnv = process.env.LIGHTS_BIN;
if (fromEnv !== undefined && fromEnv !== "") {
  bin = resolve(process.cwd(), fromEnv);
  if (!existsSync(bin) || !statSync(bin).isFile()) {
    fail(`LIGHTS_BIN is "${fromEnv}", but there is no file there. Point LIGHTS_BIN at a \`lights\` binary built for ${target}.`);
  }
} else {
  bin = join(repo, "target", "release", name);
  if (!existsSync(bin)) {
    fail(
      `no \`lights\` binary to put in the package: LIGHTS_BIN is not set and ${bin} does not exist. ` +
        "Either build it (`cargo build --release -p lights-cli` at the repository's root) " +
        `or set LIGHTS_BIN to the binary for ${target} (LIGHTS_BIN=/abs/path/to/lights npm run package:${target}).`,
    );
  }
}
const wrong = mismatch(head(bin), target);
if (wrong !== undefined) fail(`${bin} cannot go into the ${target} package: ${wrong}.`);

const server = join(extension, "server");
const out = `lights-${target}.vsix`;
const vsce = join(extension, "node_modules", "@vscode", "vsce", "vsce");
if (!existsSync(vsce)) fail("vsce is not installed: run `npm ci` in editors/vscode first.");

rmSync(server, { recursive: true, force: true });
let status = 1;
try {
  mkdirSync(server);
  copyFileSync(bin, join(server, name));
  // vsce stores each file's mode in the zip; VS Code restores it on install.
  chmodSync(join(server, name), 0o755);
  console.log(`packaging ${bin} as server/${name} for ${target}`);
  const run = spawnSync(
    process.execPath,
    [vsce, "package", "--target", target, "--no-dependencies", "--allow-missing-repository", "--out", out],
    { cwd: extension, stdio: "inherit" },
  );
  if (run.error) throw run.error;
  status = run.status ?? 1;
} finally {
  rmSync(server, { recursive: true, force: true });
}
if (status !== 0) fail(`vsce package --target ${target} failed (exit ${status})`);
console.log(`wrote ${join(extension, out)}`);
