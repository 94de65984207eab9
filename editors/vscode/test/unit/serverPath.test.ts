import { describe, expect, it } from "vitest";

import { binaryName, findServer, resolveConfigured, searchPath, ServerSearch } from "../../src/serverPath";

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

describe("findServer: setting, then bundled, then PATH", () => {
  const all = ["/opt/lights/bin/lights", "/ext/server/lights", "/usr/bin/lights"];

  it("takes the setting first", () => {
    expect(findServer(search(all, { configured: "/opt/lights/bin/lights" }))).toEqual({
      found: true,
      path: "/opt/lights/bin/lights",
      source: "setting",
    });
  });

  it("takes the bundled binary when the setting is empty or blank", () => {
    for (const configured of ["", "   ", undefined]) {
      expect(findServer(search(all, { configured }))).toEqual({
        found: true,
        path: "/ext/server/lights",
        source: "bundled",
      });
    }
  });

  it("takes lights on PATH when nothing is bundled", () => {
    expect(findServer(search(["/usr/bin/lights"]))).toEqual({ found: true, path: "/usr/bin/lights", source: "path" });
  });

  it("does not fall back when the setting points at nothing", () => {
    const r = findServer(search(all, { configured: "/nowhere/lights" }));
    expect(r.found).toBe(false);
    if (r.found) return;
    expect(r.settingIsWrong).toBe(true);
    expect(r.message).toContain("lights.server.path");
    expect(r.message).toContain("/nowhere/lights");
  });

  it("says what to do when there is no binary at all", () => {
    const r = findServer(search([]));
    expect(r.found).toBe(false);
    if (r.found) return;
    expect(r.settingIsWrong).toBe(false);
    expect(r.message).toContain("cargo install --path crates/cli");
    expect(r.message).toContain("lights.server.path");
    expect(r.message).toContain("PATH");
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
