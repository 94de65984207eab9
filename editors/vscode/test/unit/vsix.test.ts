// The platform .vsix scripts on bad inputs: scripts/package-platform.mjs
// refuses a missing or wrong binary with a message that says what to do, and
// scripts/check-vsix.mjs finds a server that would not run (mode 644, wrong
// format, missing) in packages made here by hand. The good path (the real
// binary packaged and run from the package) is `npm run test:platform`.

import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { deflateRawSync } from "node:zlib";
import { afterAll, describe, expect, it } from "vitest";

const extension = resolve(__dirname, "..", "..");
const scratch = mkdtempSync(join(tmpdir(), "lights-vsix-test-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function run(script: string, args: string[], env: Record<string, string | undefined> = {}) {
  const r = spawnSync(process.execPath, [join(extension, "scripts", script), ...args], {
    cwd: extension,
    encoding: "utf8",
    env: { ...process.env, ...env },
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(data: Buffer): number {
  let c = 0xffffffff;
  for (const b of data) c = CRC_TABLE[(c ^ b) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/** A zip made on unix (deflated entries), each file with its unix mode. */
function zip(files: { name: string; data: Buffer | string; mode?: number }[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const f of files) {
    const data = Buffer.isBuffer(f.data) ? f.data : Buffer.from(f.data);
    const packed = deflateRawSync(data);
    const name = Buffer.from(f.name);
    const crc = crc32(data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(packed.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE((3 << 8) | 20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(packed.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(((f.mode ?? 0o100644) << 16) >>> 0, 38);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, packed);
    centrals.push(central, name);
    offset += local.length + name.length + packed.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(files.length, 8);
  end.writeUInt16LE(files.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

/** The first bytes of an ELF executable for x86-64 (enough for the format check). */
function elfX64(): Buffer {
  const b = Buffer.alloc(64);
  b.writeUInt32BE(0x7f454c46, 0);
  b[4] = 2; // 64-bit
  b[5] = 1; // little-endian
  b.writeUInt16LE(2, 16); // executable
  b.writeUInt16LE(0x3e, 18); // x86-64
  return b;
}

/** A package with everything check-vsix.mjs asks for, plus `extra`. */
function vsix(file: string, platform: string | undefined, extra: { name: string; data: Buffer | string; mode?: number }[]) {
  const manifest = {
    name: "lights",
    version: "0.1.0",
    main: "./out/extension.js",
    contributes: {
      grammars: [{ language: "lights", scopeName: "source.lights", path: "./syntaxes/lights.tmLanguage.json" }],
      languages: [{ id: "lights", configuration: "./language-configuration.json" }],
    },
  };
  const target = platform === undefined ? "" : ` TargetPlatform="${platform}"`;
  const files = [
    { name: "extension.vsixmanifest", data: `<PackageManifest><Metadata><Identity Id="lights" Version="0.1.0"${target}/></Metadata></PackageManifest>` },
    { name: "extension/package.json", data: JSON.stringify(manifest) },
    { name: "extension/syntaxes/lights.tmLanguage.json", data: JSON.stringify({ scopeName: "source.lights" }) },
    { name: "extension/language-configuration.json", data: "{}" },
    { name: "extension/out/extension.js", data: "exports.activate = () => ({ initializationOptions: 1 }); exports.deactivate = () => {};" },
    { name: "extension/out/play/board.js", data: "" },
    { name: "extension/out/play/board.css", data: "" },
    { name: "extension/images/icon.png", data: "" },
    { name: "extension/images/file-icon.svg", data: "" },
    ...["first-puzzles.lights", "walkthrough/open.md", "walkthrough/counts.md", "walkthrough/insert.md", "walkthrough/play.md"].map((f) => ({
      name: `extension/media/${f}`,
      data: "",
    })),
    { name: "extension/readme.md", data: "" },
    { name: "extension/changelog.md", data: "" },
    { name: "extension/LICENSE.txt", data: "" },
    ...extra,
  ];
  const path = join(scratch, file);
  writeFileSync(path, zip(files));
  return path;
}

describe("check-vsix.mjs", () => {
  it("accepts a universal package without a server", () => {
    const r = run("check-vsix.mjs", [vsix("universal.vsix", undefined, [])]);
    expect(r.stderr).toBe("");
    expect(r.stdout).toContain("universal: no server inside");
    expect(r.status).toBe(0);
  });

  it("refuses a universal package that holds a server", () => {
    const r = run("check-vsix.mjs", [vsix("universal-server.vsix", undefined, [{ name: "extension/server/lights", data: elfX64(), mode: 0o100755 }])]);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain("the universal package holds a server: extension/server/lights");
  });

  it("accepts a server with mode 755 of the target's format (not run: it is not a real binary)", () => {
    // A target this machine is not, so the stand-in is not started.
    const other = process.platform === "linux" && process.arch === "x64" ? "alpine-x64" : "linux-x64";
    const r = run("check-vsix.mjs", ["--target", other, vsix("ok.vsix", other, [{ name: "extension/server/lights", data: elfX64(), mode: 0o100755 }])]);
    expect(r.stderr).toBe("");
    expect(r.stdout).toContain(`with an executable server for ${other} (not run`);
    expect(r.status).toBe(0);
  });

  it("refuses a server that is not executable (mode 644)", () => {
    const r = run("check-vsix.mjs", ["--target", "linux-x64", vsix("mode.vsix", "linux-x64", [{ name: "extension/server/lights", data: elfX64(), mode: 0o100644 }])]);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain("extension/server/lights has mode 644, not 755: it would not run");
  });

  it("refuses a server built for another platform", () => {
    const r = run("check-vsix.mjs", ["--target", "darwin-arm64", vsix("format.vsix", "darwin-arm64", [{ name: "extension/server/lights", data: elfX64(), mode: 0o100755 }])]);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain("it is an ELF x86-64 binary; darwin-arm64 needs a Mach-O arm64 binary");
  });

  it("refuses a platform package without its server, or marked for another platform", () => {
    const r = run("check-vsix.mjs", ["--target", "win32-x64", vsix("noserver.vsix", "linux-x64", [])]);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain("missing extension/server/lights.exe (the bundled server)");
    expect(r.stderr).toContain("the package is marked for linux-x64, not win32-x64");
  });

  it("starts the server when the target is this machine's, and compares its version", () => {
    if (process.platform !== "linux" || process.arch !== "x64") return;
    // /bin/echo is an executable of the right format; its --version is not lights'.
    const echo = readFileSync("/bin/echo");
    const r = run("check-vsix.mjs", ["--target", "linux-x64", vsix("echo.vsix", "linux-x64", [{ name: "extension/server/lights", data: echo, mode: 0o100755 }])]);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain("the bundled server answers --version with");
    expect(r.stderr).toContain(`not "lights 0.1.0" (the extension's version)`);
  });

  it("refuses a script in place of the server", () => {
    const r = run("check-vsix.mjs", ["--target", "linux-x64", vsix("script.vsix", "linux-x64", [{ name: "extension/server/lights", data: "#!/bin/sh\necho lights 0.1.0\n", mode: 0o100755 }])]);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain("it is not an executable (no ELF, Mach-O or PE header)");
  });

  it("explains its usage", () => {
    const r = run("check-vsix.mjs", ["--target", "linux-sparc", "x.vsix"]);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('unknown target "linux-sparc"; one of linux-x64');
  });
});

describe("package-platform.mjs", () => {
  it("names the file LIGHTS_BIN points at when there is none", () => {
    const r = run("package-platform.mjs", ["linux-x64"], { LIGHTS_BIN: join(scratch, "no-such-lights") });
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(`LIGHTS_BIN is "${join(scratch, "no-such-lights")}", but there is no file there`);
  });

  it("refuses a file that is not a binary for the target", () => {
    const text = join(scratch, "lights-script");
    writeFileSync(text, "#!/bin/sh\n");
    let r = run("package-platform.mjs", ["linux-x64"], { LIGHTS_BIN: text });
    expect(r.status).toBe(1);
    expect(r.stderr).toContain("cannot go into the linux-x64 package: it is not an executable");
    const elf = join(scratch, "lights-elf");
    writeFileSync(elf, elfX64());
    r = run("package-platform.mjs", ["win32-arm64"], { LIGHTS_BIN: elf });
    expect(r.status).toBe(1);
    expect(r.stderr).toContain("cannot go into the win32-arm64 package: it is an ELF x86-64 binary; win32-arm64 needs a PE arm64 binary");
  });

  it("refuses an unknown target and lists the known ones", () => {
    const r = run("package-platform.mjs", ["linux-sparc"], { LIGHTS_BIN: "/bin/sh" });
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('unknown target "linux-sparc"');
    expect(r.stderr).toContain("darwin-arm64");
  });
});
