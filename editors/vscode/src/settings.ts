// The extension's settings (`lights.*`) and what of them the server gets.
//
// The server (`lights lsp`, docs/lsp.md) reads `codeLens.enable`,
// `inlayHints.enable`, `solver.timeBudgetMs`, `solver.minimumBudget` and `cache.budgetMb`, as `initializationOptions`
// and in `workspace/didChangeConfiguration`, under a `lights` key. The same
// object is sent both times, built here.

export interface LightsSettings {
  serverPath: string;
  codeLens: boolean;
  inlayHints: boolean;
  timeBudgetMs: number;
  /** `--minimum-budget`'s text (`"2s"`); blank: the solver's default. */
  minimumBudget: string;
  cacheBudgetMb: number;
}

export const DEFAULT_SETTINGS: Readonly<LightsSettings> = Object.freeze({
  serverPath: "",
  codeLens: true,
  inlayHints: false,
  timeBudgetMs: 10_000,
  minimumBudget: "",
  cacheBudgetMb: 256,
});

/** The largest cache budget the server accepts (MB). */
export const CACHE_BUDGET_MAX_MB = 1_048_576;

/** The range the server accepts for the time budget (1 ms to 1 hour). */
export const TIME_BUDGET_MIN_MS = 1;
export const TIME_BUDGET_MAX_MS = 3_600_000;

/** What the server is sent: `{ lights: { codeLens: { enable }, … } }`. */
export interface ServerSettings {
  lights: {
    codeLens: { enable: boolean };
    inlayHints: { enable: boolean };
    solver: { timeBudgetMs: number; minimumBudget?: string };
    cache: { budgetMb: number };
  };
}

/**
 * The settings from a `get(key)` over the `lights` section (VS Code's
 * `workspace.getConfiguration("lights").get`). A value of the wrong type
 * (hand-edited settings.json) falls back to the default; the time budget is
 * rounded and clamped to what the server accepts.
 */
export function readSettings(get: (key: string) => unknown): LightsSettings {
  const bool = (key: string, fallback: boolean): boolean => {
    const v = get(key);
    return typeof v === "boolean" ? v : fallback;
  };
  const path = get("server.path");
  const budget = get("solver.timeBudgetMs");
  const cache = get("cache.budgetMb");
  const minimum = get("solver.minimumBudget");
  return {
    serverPath: typeof path === "string" ? path.trim() : DEFAULT_SETTINGS.serverPath,
    codeLens: bool("codeLens.enable", DEFAULT_SETTINGS.codeLens),
    inlayHints: bool("inlayHints.enable", DEFAULT_SETTINGS.inlayHints),
    timeBudgetMs:
      typeof budget === "number" && Number.isFinite(budget)
        ? Math.min(TIME_BUDGET_MAX_MS, Math.max(TIME_BUDGET_MIN_MS, Math.round(budget)))
        : DEFAULT_SETTINGS.timeBudgetMs,
    minimumBudget: typeof minimum === "string" ? minimum.trim() : DEFAULT_SETTINGS.minimumBudget,
    cacheBudgetMb:
      typeof cache === "number" && Number.isFinite(cache)
        ? Math.min(CACHE_BUDGET_MAX_MB, Math.max(0, Math.round(cache)))
        : DEFAULT_SETTINGS.cacheBudgetMb,
  };
}

/** The object for `initializationOptions` and `didChangeConfiguration`'s `settings`. */
export function serverSettings(s: LightsSettings): ServerSettings {
  return {
    lights: {
      codeLens: { enable: s.codeLens },
      inlayHints: { enable: s.inlayHints },
      // The server reads the text as `--minimum-budget` does; blank is left
      // out (the solver's default, or the folder's lights.toml).
      solver: s.minimumBudget ? { timeBudgetMs: s.timeBudgetMs, minimumBudget: s.minimumBudget } : { timeBudgetMs: s.timeBudgetMs },
      cache: { budgetMb: s.cacheBudgetMb },
    },
  };
}

/** Does going from `before` to `after` need a new server process (not just new settings)? */
export function needsRestart(before: LightsSettings, after: LightsSettings): boolean {
  return before.serverPath !== after.serverPath;
}

/** Where a setting's value comes from (VS Code's `WorkspaceConfiguration.inspect`). */
export interface SettingValues {
  globalValue?: unknown;
  workspaceValue?: unknown;
  workspaceFolderValue?: unknown;
}

/**
 * The command that opens the Settings editor on `lights.server.path` in the
 * tab whose value is read: the workspace's when it sets one; else, in a
 * remote window (SSH, WSL, a container, code-server), the Remote tab,
 * because the setting is `machine-overridable` and the value in the local
 * User tab does not reach the remote machine; else the User tab.
 */
export function serverPathSettings(remote: boolean, values: SettingValues | undefined): { command: string; args: unknown[] } {
  const query = { query: "lights.server.path" };
  const set = (v: unknown) => typeof v === "string" && v.trim() !== "";
  if (set(values?.workspaceFolderValue) || set(values?.workspaceValue)) {
    return { command: "workbench.action.openWorkspaceSettings", args: [query] };
  }
  if (remote) return { command: "workbench.action.openRemoteSettings", args: [query] };
  return { command: "workbench.action.openGlobalSettings", args: [query] };
}
