// Builds the board view (editors/play) into one self-contained ES module,
// editors/play/dist/board.js, which is committed: `lights play` embeds it
// (with index.html and board.css) and the extension ships a copy.
//
//   node scripts/build-play.mjs           type-check, then write dist/board.js
//   node scripts/build-play.mjs --check   type-check, rebuild in memory and fail
//                                         when the committed file differs
//
// esbuild bundles src/main.ts and what it imports (no node_modules at run
// time); its output is deterministic for a given esbuild version (the one
// in package-lock.json), and paths in it are relative to editors/play.

import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync, mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const here = dirname(fileURLToPath(import.meta.url));
const extension = join(here, "..");
const play = join(extension, "..", "play");
const out = join(play, "dist", "board.js");
const check = process.argv.includes("--check");

const tsc = join(extension, "node_modules", "typescript", "bin", "tsc");
const typecheck = spawnSync(process.execPath, [tsc, "-p", play], { stdio: "inherit" });
if (typecheck.status !== 0) {
  console.error("error: editors/play does not type-check");
  process.exit(1);
}

const result = await build({
  absWorkingDir: play,
  entryPoints: ["src/main.ts"],
  bundle: true,
  format: "esm",
  target: "es2020",
  platform: "browser",
  charset: "utf8",
  legalComments: "none",
  write: false,
  banner: {
    js: "// Generated from editors/play/src by editors/vscode/scripts/build-play.mjs: do not edit (npm run build:play).",
  },
});
const built = result.outputFiles[0].text;

if (check) {
  const committed = existsSync(out) ? readFileSync(out, "utf8") : "";
  if (committed !== built) {
    console.error(
      "error: editors/play/dist/board.js is not what editors/play/src builds to: run `npm run build:play` in editors/vscode and commit it",
    );
    process.exit(1);
  }
  console.log(`editors/play/dist/board.js is up to date (${built.length} bytes)`);
} else {
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, built);
  console.log(`wrote editors/play/dist/board.js (${built.length} bytes)`);
}
