// The extension's settings (`lights.*`) and what of them the server gets.
//
// The server (`lights lsp`, docs/lsp.md) reads `codeLens.enable`,
// `inlayHints.enable` and `solver.timeBudgetMs`, as `initializationOptions`
// and in `workspace/didChangeConfiguration`, under a `lights` key. The same
// object is sent both times, built here.

export interface LightsSettings {
  serverPath: string;
  codeLens: boolean;
  inlayHints: boolean;
  timeBudgetMs: number;
}

export const DEFAULT_SETTINGS: Readonly<LightsSettings> = Object.freeze({
  serverPath: "",
  codeLens: true,
  inlayHints: false,
  timeBudgetMs: 10_000,
});

/** The range the server accepts for the time budget (1 ms to 1 hour). */
export const TIME_BUDGET_MIN_MS = 1;
export const TIME_BUDGET_MAX_MS = 3_600_000;

/** What the server is sent: `{ lights: { codeLens: { enable }, … } }`. */
export interface ServerSettings {
  lights: {
    codeLens: { enable: boolean };
    inlayHints: { enable: boolean };
    solver: { timeBudgetMs: number };
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
  return {
    serverPath: typeof path === "string" ? path.trim() : DEFAULT_SETTINGS.serverPath,
    codeLens: bool("codeLens.enable", DEFAULT_SETTINGS.codeLens),
    inlayHints: bool("inlayHints.enable", DEFAULT_SETTINGS.inlayHints),
    timeBudgetMs:
      typeof budget === "number" && Number.isFinite(budget)
        ? Math.min(TIME_BUDGET_MAX_MS, Math.max(TIME_BUDGET_MIN_MS, Math.round(budget)))
        : DEFAULT_SETTINGS.timeBudgetMs,
  };
}

/** The object for `initializationOptions` and `didChangeConfiguration`'s `settings`. */
export function serverSettings(s: LightsSettings): ServerSettings {
  return {
    lights: {
      codeLens: { enable: s.codeLens },
      inlayHints: { enable: s.inlayHints },
      solver: { timeBudgetMs: s.timeBudgetMs },
    },
  };
}

/** Does going from `before` to `after` need a new server process (not just new settings)? */
export function needsRestart(before: LightsSettings, after: LightsSettings): boolean {
  return before.serverPath !== after.serverPath;
}
