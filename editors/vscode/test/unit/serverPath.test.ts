import { describe, expect, it } from "vitest";

import { binaryName, describeLookup, findServer, resolveConfigured, searchPath, ServerSearch } from "../../src/serverPath";

/** A fake file system: the set of executable files. */
function search(executables: string[], over: Partial<ServerSearch> = {}): ServerSearch {
  const files = new Set(executables);
  return {
    configured: "",
    extensionPath: "/ext",
    workspaceFolder: "/work/pack",
    platform: "linux",
    env: { PATH: "/usr/local/bin:/usr/bin", HOME: "/home/ann" },
    isExecutable: (f) => files.has(f),
    ...over,
  };
}

describe("findServer: bundled, then the setting, then PATH", () => {
  const all = ["/opt/lights/bin/lights", "/ext/server/lights", "/usr/bin/lights"];

  it("takes the bundled server first, and says when the setting is set but not used", () => {
    expect(findServer(search(all, { configured: "/opt/lights/bin/lights" }))).toEqual({
      found: true,
      path: "/ext/server/lights",
      source: "bundled",
      settingNotUsed: "/opt/lights/bin/lights",
    });
    // Even a setting that points at nothing does not stand in the way of the bundled server.
    expect(findServer(search(all, { configured: " /nowhere/lights " }))).toEqual({
      found: true,
      path: "/ext/server/lights",
      source: "bundled",
      settingNotUsed: "/nowhere/lights",
    });
  });

  it("takes the bundled binary when the setting is empty or blank, with nothing to say about it", () => {
    for (const configured of ["", "   ", undefined]) {
      expect(findServer(search(all, { configured }))).toEqual({
        found: true,
        path: "/ext/server/lights",
        source: "bundled",
      });
    }
  });

  it("takes the setting when nothing is bundled (the universal package), before PATH", () => {
    const noBundle = ["/opt/lights/bin/lights", "/usr/bin/lights"];
    expect(findServer(search(noBundle, { configured: "/opt/lights/bin/lights" }))).toEqual({
      found: true,
      path: "/opt/lights/bin/lights",
      source: "setting",
    });
  });

  it("does not take a bundled file that is not executable", () => {
    const files = new Set(["/usr/bin/lights"]);
    const r = findServer({ ...search([]), isExecutable: (f) => files.has(f) });
    expect(r).toEqual({ found: true, path: "/usr/bin/lights", source: "path" });
  });

  it("takes lights on PATH when nothing is bundled or set", () => {
    expect(findServer(search(["/usr/bin/lights"]))).toEqual({ found: true, path: "/usr/bin/lights", source: "path" });
  });

  it("does not fall back to PATH when the setting points at nothing (and nothing is bundled)", () => {
    const r = findServer(search(["/usr/bin/lights"], { configured: "/nowhere/lights" }));
    expect(r.found).toBe(false);
    if (r.found) return;
    expect(r.settingIsWrong).toBe(true);
    expect(r.message).toContain("lights.server.path");
    expect(r.message).toContain("/nowhere/lights");
  });

  it("says what to do when there is no binary at all: the platform package, the setting, and whose PATH", () => {
    const r = findServer(search([]));
    expect(r.found).toBe(false);
    if (r.found) return;
    expect(r.settingIsWrong).toBe(false);
    expect(r.message).toContain("platform package (lights-linux-x64.vsix");
    expect(r.message).toContain("has one and needs nothing else");
    expect(r.message).toContain("cargo install --path crates/cli");
    expect(r.message).toContain("lights.server.path");
    expect(r.message).toContain("Only the PATH of VS Code's extension host is searched, and it is not your shell's");
    expect(r.message).toContain("remote window");
  });

  it("looks for server\\lights.exe in the extension on Windows", () => {
    const r = findServer(
      search(["C:\\ext\\server\\lights.exe"], {
        platform: "win32",
        extensionPath: "C:\\ext",
        workspaceFolder: "C:\\work",
        env: { Path: "C:\\Windows" },
      }),
    );
    expect(r).toEqual({ found: true, path: "C:\\ext\\server\\lights.exe", source: "bundled" });
    expect(binaryName("win32")).toBe("lights.exe");
    expect(binaryName("darwin")).toBe("lights");
  });
});

describe("resolveConfigured", () => {
  const base = { workspaceFolder: "/work/pack", platform: "linux" as const, env: { HOME: "/home/ann" } };

  it("expands ~ and ${workspaceFolder}, and resolves relative paths from the folder", () => {
    expect(resolveConfigured({ ...base, configured: "~/bin/lights" })).toBe("/home/ann/bin/lights");
    expect(resolveConfigured({ ...base, configured: "${workspaceFolder}/target/debug/lights" })).toBe(
      "/work/pack/target/debug/lights",
    );
    expect(resolveConfigured({ ...base, configured: "target/release/lights" })).toBe("/work/pack/target/release/lights");
    expect(resolveConfigured({ ...base, configured: "/a/../b/lights" })).toBe("/b/lights");
  });

  it("leaves a relative path as it is without a folder (it is then not found)", () => {
    const r = findServer(search(["/work/pack/lights"], { configured: "lights", workspaceFolder: undefined }));
    expect(r.found).toBe(false);
  });

  it("uses USERPROFILE for ~ on Windows", () => {
    expect(
      resolveConfigured({
        configured: "~\\bin\\lights.exe",
        workspaceFolder: undefined,
        platform: "win32",
        env: { USERPROFILE: "C:\\Users\\ann" },
      }),
    ).toBe("C:\\Users\\ann\\bin\\lights.exe");
  });

  it("is undefined when unset", () => {
    expect(resolveConfigured({ ...base, configured: " " })).toBeUndefined();
  });
});

describe("searchPath", () => {
  it("returns the first executable in PATH order, skipping empty and relative entries", () => {
    const files = new Set(["/b/lights", "/c/lights", "/rel/lights"]);
    const env = { PATH: ":rel:/a:/b:/c" };
    expect(searchPath("lights", env, "linux", (f) => files.has(f))).toBe("/b/lights");
  });

  it("is undefined when PATH is unset or has no lights", () => {
    expect(searchPath("lights", {}, "linux", () => true)).toBeUndefined();
    expect(searchPath("lights", { PATH: "/a:/b" }, "linux", () => false)).toBeUndefined();
  });

  it("on Windows: any case of Path, quoted entries, only .exe/.com from PATHEXT", () => {
    const files = new Set(["C:\\tools\\lights.cmd", "C:\\Program Files\\lights\\lights.exe"]);
    const env = { Path: 'C:\\tools;"C:\\Program Files\\lights"', PATHEXT: ".COM;.EXE;.BAT;.CMD" };
    expect(searchPath("lights", env, "win32", (f) => files.has(f))).toBe("C:\\Program Files\\lights\\lights.exe");
    expect(searchPath("lights", { Path: "C:\\tools", PATHEXT: ".CMD" }, "win32", (f) => files.has(f))).toBeUndefined();
  });
});

describe("describeLookup (the output channel's lines)", () => {
  it("names the binary and where it was found", () => {
    expect(describeLookup({ found: true, path: "/ext/server/lights", source: "bundled" })).toEqual([
      "server: /ext/server/lights (the server bundled with the extension)",
    ]);
    expect(describeLookup({ found: true, path: "/opt/lights", source: "setting" })).toEqual([
      "server: /opt/lights (the lights.server.path setting)",
    ]);
    expect(describeLookup({ found: true, path: "/usr/bin/lights", source: "path" })).toEqual(["server: /usr/bin/lights (lights on PATH)"]);
  });

  it("says that a setting is not used, and how to use another build", () => {
    const lines = describeLookup({ found: true, path: "/ext/server/lights", source: "bundled", settingNotUsed: "~/lights" });
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain('the setting lights.server.path ("~/lights") is not used: the server bundled with the extension comes first');
    expect(lines[1]).toContain("universal package");
  });
});
