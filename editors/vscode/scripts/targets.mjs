// The platforms a platform .vsix can be built for (`vsce package --target`),
// and what a `lights` binary for each looks like: its file name in `server/`
// and its executable format (read from the first bytes of the file, so a
// macOS binary is not shipped in the linux-x64 package by mistake).
//
// Shared by scripts/package-platform.mjs and scripts/check-vsix.mjs.

import { closeSync, openSync, readSync } from "node:fs";

/** vsce target → [format, machine]. `alpine-*` are musl builds: also ELF. */
export const TARGETS = {
  "linux-x64": ["ELF", "x86-64"],
  "linux-arm64": ["ELF", "arm64"],
  "linux-armhf": ["ELF", "arm"],
  "alpine-x64": ["ELF", "x86-64"],
  "alpine-arm64": ["ELF", "arm64"],
  "darwin-x64": ["Mach-O", "x86-64"],
  "darwin-arm64": ["Mach-O", "arm64"],
  "win32-x64": ["PE", "x86-64"],
  "win32-arm64": ["PE", "arm64"],
};

/** The binary's name inside `server/` for a target. */
export function binaryName(target) {
  return target.startsWith("win32-") ? "lights.exe" : "lights";
}

/** The target of the machine running this script (`linux-x64`, ...), or undefined. */
export function hostTarget() {
  const arch = { x64: "x64", arm64: "arm64", arm: "armhf" }[process.arch];
  if (arch === undefined) return undefined;
  const t = `${process.platform}-${arch}`;
  return t in TARGETS ? t : undefined;
}

/** Format and machine of an executable from its first bytes, e.g. ["ELF", "x86-64"], or undefined. */
export function executableKind(head) {
  if (head.length >= 20 && head.readUInt32BE(0) === 0x7f454c46) {
    const little = head[5] === 1;
    const machine = little ? head.readUInt16LE(18) : head.readUInt16BE(18);
    return ["ELF", { 0x3e: "x86-64", 0xb7: "arm64", 0x28: "arm", 0x03: "x86" }[machine] ?? `machine 0x${machine.toString(16)}`];
  }
  if (head.length >= 8) {
    const magic = head.readUInt32LE(0);
    if (magic === 0xfeedfacf) {
      const cpu = head.readUInt32LE(4);
      return ["Mach-O", { 0x01000007: "x86-64", 0x0100000c: "arm64" }[cpu] ?? `cpu 0x${cpu.toString(16)}`];
    }
    if (head.readUInt32BE(0) === 0xcafebabe) return ["Mach-O", "universal"];
  }
  if (head.length >= 64 && head[0] === 0x4d && head[1] === 0x5a) {
    const pe = head.readUInt32LE(60);
    if (pe + 6 <= head.length && head.readUInt32BE(pe) === 0x50450000) {
      const machine = head.readUInt16LE(pe + 4);
      return ["PE", { 0x8664: "x86-64", 0xaa64: "arm64", 0x14c: "x86" }[machine] ?? `machine 0x${machine.toString(16)}`];
    }
    return ["PE", "unknown"];
  }
  return undefined;
}

/** The first KiB of a file. */
export function head(file) {
  const fd = openSync(file, "r");
  try {
    const buf = Buffer.alloc(1024);
    const n = readSync(fd, buf, 0, buf.length, 0);
    return buf.subarray(0, n);
  } finally {
    closeSync(fd);
  }
}

/** "an ELF x86-64 binary", "a Mach-O arm64 binary". */
function describe([format, machine]) {
  return `${format === "ELF" ? "an" : "a"} ${format} ${machine} binary`;
}

/**
 * Why a binary (its first bytes) does not fit a target, or undefined when it
 * does. A universal Mach-O fits both darwin targets.
 */
export function mismatch(bytes, target) {
  const want = TARGETS[target];
  const got = executableKind(bytes);
  if (got === undefined) return `it is not an executable (no ELF, Mach-O or PE header); ${target} needs ${describe(want)}`;
  if (got[0] === want[0] && (got[1] === want[1] || (got[0] === "Mach-O" && got[1] === "universal"))) return undefined;
  return `it is ${describe(got)}; ${target} needs ${describe(want)}`;
}
