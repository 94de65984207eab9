// The platform .vsix, built and checked (last step of `npm test`): with
// LIGHTS_BIN set (tests/run sets it to the debug build), packages that binary
// for this machine's target (lights-linux-x64.vsix on Linux x64) and runs
// scripts/check-vsix.mjs --target on it: the server is in the package with
// mode 755 and answers --version. Without LIGHTS_BIN it says so and skips,
// like the integration tests (a release build is not assumed).

import { spawnSync } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { hostTarget } from "./targets.mjs";

const scripts = dirname(fileURLToPath(import.meta.url));
if (!process.env.LIGHTS_BIN) {
  console.warn("LIGHTS_BIN is not set: the platform .vsix is not built (LIGHTS_BIN=/abs/path/to/lights npm test builds and checks it)");
  process.exit(0);
}
const target = hostTarget();
if (target === undefined) {
  console.warn(`VS Code ships no platform package for ${process.platform}-${process.arch}: the platform .vsix is not built`);
  process.exit(0);
}
const started = Date.now();
for (const args of [
  [join(scripts, "package-platform.mjs"), target],
  [join(scripts, "check-vsix.mjs"), "--target", target, `lights-${target}.vsix`],
]) {
  const run = spawnSync(process.execPath, args, { cwd: join(scripts, ".."), stdio: "inherit" });
  if (run.status !== 0) process.exit(run.status ?? 1);
}
console.log(`platform .vsix for ${target} built and checked in ${((Date.now() - started) / 1000).toFixed(1)} s`);
