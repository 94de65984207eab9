// Where the real `lights` binary is for the integration tests: `LIGHTS_BIN`
// (then it must exist: CI sets it), else the workspace's debug build. When
// neither is there, the integration tests are skipped with a note.

import { existsSync } from "node:fs";
import { join, resolve } from "node:path";

export const repo = resolve(__dirname, "..", "..", "..", "..");

function locate(): string | undefined {
  const fromEnv = process.env.LIGHTS_BIN;
  if (fromEnv !== undefined && fromEnv !== "") {
    const bin = resolve(fromEnv);
    if (!existsSync(bin)) throw new Error(`LIGHTS_BIN is ${fromEnv}, but there is no file there (run cargo build)`);
    return bin;
  }
  const debug = join(repo, "target", "debug", process.platform === "win32" ? "lights.exe" : "lights");
  if (existsSync(debug)) return debug;
  console.warn("no lights binary (set LIGHTS_BIN or run cargo build): the integration tests are skipped");
  return undefined;
}

export const lightsBin = locate();
