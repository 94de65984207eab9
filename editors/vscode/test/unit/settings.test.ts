import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

import { DEFAULT_SETTINGS, needsRestart, readSettings, serverPathSettings, serverSettings } from "../../src/settings";

const manifest = JSON.parse(readFileSync(join(__dirname, "..", "..", "package.json"), "utf8"));
const properties: Record<string, { default: unknown; minimum?: number; maximum?: number; pattern?: string }> =
  manifest.contributes.configuration.properties;

describe("readSettings", () => {
  it("gives the defaults when nothing is set", () => {
    expect(readSettings(() => undefined)).toEqual(DEFAULT_SETTINGS);
  });

  it("reads every setting", () => {
    const values: Record<string, unknown> = {
      "server.path": " /opt/lights ",
      "codeLens.enable": false,
      "inlayHints.enable": true,
      "solver.timeBudgetMs": 2500,
      "solver.minimumBudget": " 2s ",
      "cache.budgetMb": 64,
    };
    expect(readSettings((k) => values[k])).toEqual({
      serverPath: "/opt/lights",
      codeLens: false,
      inlayHints: true,
      timeBudgetMs: 2500,
      minimumBudget: "2s",
      cacheBudgetMb: 64,
    });
  });

  it("falls back to the default for values of the wrong type, and clamps the budget", () => {
    const values: Record<string, unknown> = {
      "server.path": 3,
      "codeLens.enable": "no",
      "inlayHints.enable": 1,
      "solver.timeBudgetMs": "fast",
      "solver.minimumBudget": 2,
      "cache.budgetMb": "lots",
    };
    expect(readSettings((k) => values[k])).toEqual(DEFAULT_SETTINGS);
    expect(readSettings((k) => (k === "solver.timeBudgetMs" ? 0 : undefined)).timeBudgetMs).toBe(1);
    expect(readSettings((k) => (k === "solver.timeBudgetMs" ? 1e12 : undefined)).timeBudgetMs).toBe(3_600_000);
    expect(readSettings((k) => (k === "solver.timeBudgetMs" ? 99.6 : undefined)).timeBudgetMs).toBe(100);
    expect(readSettings((k) => (k === "solver.timeBudgetMs" ? Number.NaN : undefined)).timeBudgetMs).toBe(10_000);
    expect(readSettings((k) => (k === "cache.budgetMb" ? -5 : undefined)).cacheBudgetMb).toBe(0);
    expect(readSettings((k) => (k === "cache.budgetMb" ? 1e12 : undefined)).cacheBudgetMb).toBe(1_048_576);
  });
});

describe("serverSettings", () => {
  it("nests the settings under `lights` as docs/lsp.md describes", () => {
    expect(
      serverSettings({ serverPath: "/x", codeLens: false, inlayHints: true, timeBudgetMs: 42, minimumBudget: "", cacheBudgetMb: 7 }),
    ).toEqual({
      lights: {
        codeLens: { enable: false },
        inlayHints: { enable: true },
        solver: { timeBudgetMs: 42 },
        cache: { budgetMb: 7 },
      },
    });
  });

  it("sends the minimum budget only when one is set", () => {
    expect(serverSettings({ ...DEFAULT_SETTINGS, minimumBudget: "2s" }).lights.solver).toEqual({ timeBudgetMs: 10_000, minimumBudget: "2s" });
    expect(serverSettings(DEFAULT_SETTINGS).lights.solver).toEqual({ timeBudgetMs: 10_000 });
  });

  it("does not send the server path to the server", () => {
    expect(JSON.stringify(serverSettings({ ...DEFAULT_SETTINGS, serverPath: "/secret/place" }))).not.toContain("secret");
  });
});

describe("needsRestart", () => {
  it("restarts only for a new server path", () => {
    expect(needsRestart(DEFAULT_SETTINGS, { ...DEFAULT_SETTINGS, serverPath: "/x" })).toBe(true);
    expect(needsRestart(DEFAULT_SETTINGS, { ...DEFAULT_SETTINGS, codeLens: false, timeBudgetMs: 5 })).toBe(false);
  });
});

describe("package.json agrees with the settings module", () => {
  it("contributes each setting that readSettings reads, with the same default", () => {
    expect(properties["lights.server.path"]?.default).toBe(DEFAULT_SETTINGS.serverPath);
    expect(properties["lights.codeLens.enable"]?.default).toBe(DEFAULT_SETTINGS.codeLens);
    expect(properties["lights.inlayHints.enable"]?.default).toBe(DEFAULT_SETTINGS.inlayHints);
    expect(properties["lights.solver.timeBudgetMs"]?.default).toBe(DEFAULT_SETTINGS.timeBudgetMs);
    expect(properties["lights.solver.timeBudgetMs"]?.minimum).toBe(1);
    expect(properties["lights.solver.timeBudgetMs"]?.maximum).toBe(3_600_000);
    expect(properties["lights.solver.minimumBudget"]?.default).toBe(DEFAULT_SETTINGS.minimumBudget);
  });

  it("lets the settings editor accept exactly the budgets the server reads", () => {
    const pattern = new RegExp(properties["lights.solver.minimumBudget"]?.pattern ?? "(?!)");
    for (const ok of ["", "0", "0.0", "250ms", "2s", "2 s", " 2sec ", "1.5s", "1m", "1min", "1h"]) expect(pattern.test(ok), ok).toBe(true);
    for (const bad of ["-1s", "abc", "2", "1e3s", "2weeks", "1.s"]) expect(pattern.test(bad), bad).toBe(false);
  });

  it("reads the keys package.json contributes (through a get over the `lights` section)", () => {
    const seen: string[] = [];
    readSettings((k) => {
      seen.push(`lights.${k}`);
      return undefined;
    });
    for (const key of seen) expect(Object.keys(properties)).toContain(key);
  });
});

describe("serverPathSettings (the Open Settings button)", () => {
  const query = { query: "lights.server.path" };

  it("opens the User tab in a local window", () => {
    expect(serverPathSettings(false, undefined)).toEqual({ command: "workbench.action.openGlobalSettings", args: [query] });
    expect(serverPathSettings(false, { globalValue: "/opt/lights" })).toEqual({ command: "workbench.action.openGlobalSettings", args: [query] });
  });

  it("opens the Remote tab in a remote window, where the User tab's value is not read", () => {
    expect(serverPathSettings(true, undefined)).toEqual({ command: "workbench.action.openRemoteSettings", args: [query] });
    expect(serverPathSettings(true, { globalValue: "/opt/lights" })).toEqual({ command: "workbench.action.openRemoteSettings", args: [query] });
  });

  it("opens the Workspace tab when the workspace or a folder sets the path", () => {
    for (const remote of [false, true]) {
      expect(serverPathSettings(remote, { workspaceValue: "bin/lights" })).toEqual({ command: "workbench.action.openWorkspaceSettings", args: [query] });
      expect(serverPathSettings(remote, { workspaceFolderValue: "bin/lights", globalValue: "x" })).toEqual({
        command: "workbench.action.openWorkspaceSettings",
        args: [query],
      });
    }
    // A blank workspace value sets nothing.
    expect(serverPathSettings(false, { workspaceValue: "  " }).command).toBe("workbench.action.openGlobalSettings");
  });
});
