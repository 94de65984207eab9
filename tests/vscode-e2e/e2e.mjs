// The VS Code extension in a real VS Code: code-server (VS Code in a
// browser) with the packaged .vsix installed, driven through Debian's
// Chromium by playwright-core. Run by ./run, which installs code-server and
// builds the .vsix; this file expects, in the environment:
//   CODE_SERVER   the code-server launcher (bin/code-server)
//   LIGHTS_VSIX   the .vsix to install
//   LIGHTS_BIN    the `lights` binary (for `lights fmt` and `lights check`)
//   LIGHTS_SERVER_PATH  optional: a `lights.server.path` to put in the user
//                 settings (for a universal .vsix, which has no server)
//   LIGHTS_VSCODE_ARTIFACTS  where screenshots go
// Every step is logged; the first failure names its step, saves a
// screenshot and exits 1.

import { spawn, execFileSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import assert from "node:assert/strict";
import { chromium } from "playwright-core";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const REPO = path.resolve(HERE, "../..");
const need = (name) => {
  const v = process.env[name];
  if (!v) throw new Error(`${name} is not set: run tests/vscode-e2e/run`);
  return v;
};
const CODE_SERVER = need("CODE_SERVER");
const VSIX = need("LIGHTS_VSIX");
const LIGHTS = need("LIGHTS_BIN");
const ARTIFACTS = process.env.LIGHTS_VSCODE_ARTIFACTS ?? path.join(REPO, "target", "vscode-e2e-artifacts");
const CHROMIUM = process.env.CHROMIUM ?? "/usr/bin/chromium";
/** Generous: code-server and the debug server share a small, busy machine. */
const LONG = 90_000;

const started = Date.now();
const elapsed = () => `${((Date.now() - started) / 1000).toFixed(1)} s`;
let page;
let shot = 0;

async function screenshot(name) {
  if (!page) return;
  mkdirSync(ARTIFACTS, { recursive: true });
  const file = path.join(ARTIFACTS, `${String(++shot).padStart(2, "0")}-${name}.png`);
  try {
    await page.screenshot({ path: file });
    console.log(`     screenshot: ${path.relative(process.cwd(), file)}`);
  } catch (e) {
    console.log(`     (no screenshot: ${e.message})`);
  }
}

const steps = [];
/** A step; `setup` steps stop the run when they fail, the others are all tried. */
function step(name, body, { setup = false } = {}) {
  steps.push({ name, body, setup });
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

// ------------------------------------------------------------------ the UI

/**
 * Run a command by its palette title (F1, type, pick the entry whose label
 * is the title). Editor commands need the editor focused (after `goTo`).
 */
async function command(title) {
  await page.keyboard.press("F1");
  const input = page.locator(".quick-input-widget input");
  await input.waitFor({ state: "visible", timeout: LONG });
  await input.fill(`>${title}`);
  const rows = page.locator(".quick-input-widget .monaco-list-row");
  const entry = rows.filter({ has: page.locator(".label-name", { hasText: new RegExp(`^\\s*${title.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\\s*$`) }) }).first();
  try {
    await entry.waitFor({ state: "visible", timeout: 30_000 });
  } catch (error) {
    const shown = await rows.evaluateAll((rs) => rs.map((r) => r.getAttribute("aria-label")));
    await page.keyboard.press("Escape");
    throw new Error(`the command palette has no "${title}"; it offers: ${JSON.stringify(shown)}`, { cause: error });
  }
  await entry.click();
  await page.locator(".quick-input-widget").waitFor({ state: "hidden", timeout: LONG }).catch(() => {});
}

/** Open a workspace file with Quick Open. */
async function openFile(name) {
  await page.keyboard.press("F1");
  const input = page.locator(".quick-input-widget input");
  await input.waitFor({ state: "visible", timeout: LONG });
  await input.fill(name);
  await page.locator(".quick-input-widget .monaco-list-row", { hasText: name }).first().waitFor({ timeout: LONG });
  await page.keyboard.press("Enter");
  await page.locator(`.tab.active[aria-label*="${name}"], .tab.active:has-text("${name}")`).first().waitFor({ timeout: LONG });
  await page.locator(".monaco-editor .view-lines").first().waitFor({ timeout: LONG });
}

/** Put the cursor at line:column (1-based) of the active editor (Quick Open's `:`). */
async function goTo(line, column) {
  await page.keyboard.press("F1");
  const input = page.locator(".quick-input-widget input");
  await input.waitFor({ state: "visible", timeout: LONG });
  await input.fill(`:${line}:${column}`);
  await page.locator(".quick-input-widget .monaco-list-row", { hasText: `${line}` }).first().waitFor({ timeout: LONG });
  await page.keyboard.press("Enter");
  await page.locator(".quick-input-widget").waitFor({ state: "hidden", timeout: LONG });
  await page
    .locator(".statusbar-item", { hasText: `Ln ${line}, Col ${column}` })
    .first()
    .waitFor({ timeout: LONG });
}

/** The rows of the Problems panel, as text. */
async function problemRows() {
  return page.locator(".markers-panel .monaco-list-row").evaluateAll((rows) =>
    rows.map((r) => (r.getAttribute("aria-label") || "") + " | " + (r.textContent || "")),
  );
}

/** Fail at once when the extension shows an error notification. */
async function noLightsError() {
  const toasts = await page.locator(".notification-toast", { hasText: "Lights:" }).allInnerTexts();
  const errors = toasts.filter((t) => /not found|not running|failed|error/i.test(t));
  if (errors.length) throw new Error(`the extension shows an error: ${errors.join(" / ")}`);
}

/** Wait until `predicate(rows)` holds for the Problems rows; returns them. */
async function waitProblems(predicate, what) {
  const deadline = Date.now() + LONG;
  let rows = [];
  while (Date.now() < deadline) {
    await noLightsError();
    rows = await problemRows();
    if (predicate(rows)) return rows;
    await page.waitForTimeout(500);
  }
  throw new Error(`the Problems panel never showed ${what}; it shows:\n  ${rows.join("\n  ")}`);
}

/** The text of an output channel, picked in the Output view. */
async function outputText(channel) {
  await command("Output: Show Output Channels...");
  const input = page.locator(".quick-input-widget input");
  await input.waitFor({ state: "visible", timeout: LONG });
  await input.fill(channel);
  await page.locator(".quick-input-widget .monaco-list-row", { hasText: channel }).first().waitFor({ timeout: LONG });
  await page.keyboard.press("Enter");
  const view = page.locator(".output-view .monaco-editor .view-lines, .panel .output .monaco-editor .view-lines").first();
  await view.waitFor({ timeout: LONG });
  return view;
}

// ------------------------------------------------------------------ setup

const tmp = mkdtempSync(path.join(os.tmpdir(), "lights-vscode-e2e-"));
const userData = path.join(tmp, "user-data");
const extensions = path.join(tmp, "extensions");
const workspace = path.join(tmp, "puzzles");
let codeServer;
let codeServerLog = "";
let browser;

step("make the workspace folder (fixtures + examples/classic.lights) and the user settings", async () => {
  cpSync(path.join(HERE, "fixtures"), workspace, { recursive: true });
  cpSync(path.join(REPO, "examples", "classic.lights"), path.join(workspace, "classic.lights"));
  mkdirSync(path.join(userData, "User"), { recursive: true });
  const settings = {
    "telemetry.telemetryLevel": "off",
    "workbench.startupEditor": "none",
    "workbench.tips.enabled": false,
    "workbench.enableExperiments": false,
    "security.workspace.trust.enabled": false,
    "extensions.autoUpdate": false,
    "extensions.autoCheckUpdates": false,
    "extensions.ignoreRecommendations": true,
    "update.mode": "none",
    "editor.codeLens": true,
    "editor.hover.delay": 100,
    "files.autoSave": "off",
    "window.restoreWindows": "none",
    "chat.disableAIFeatures": true,
  };
  writeFileSync(path.join(userData, "User", "settings.json"), JSON.stringify(settings, null, 2));
  // A universal .vsix has no server: name it in the remote machine's
  // settings (code-server's extension host is "remote").
  if (process.env.LIGHTS_SERVER_PATH) {
    mkdirSync(path.join(userData, "Machine"), { recursive: true });
    const machine = { "lights.server.path": process.env.LIGHTS_SERVER_PATH };
    writeFileSync(path.join(userData, "Machine", "settings.json"), JSON.stringify(machine, null, 2));
  }
}, { setup: true });

const codeServerArgs = () => ["--user-data-dir", userData, "--extensions-dir", extensions];
// code-server writes its config.yaml and data under XDG folders: keep them in tmp.
const codeServerEnv = { ...process.env, XDG_CONFIG_HOME: path.join(tmp, "config"), XDG_DATA_HOME: path.join(tmp, "data") };

step(`install the .vsix (${path.basename(VSIX)}) with code-server --install-extension`, async () => {
  const out = execFileSync(CODE_SERVER, [...codeServerArgs(), "--install-extension", VSIX], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
    env: codeServerEnv,
  });
  console.log(out.trim().replace(/^/gm, "     "));
  const listed = execFileSync(CODE_SERVER, [...codeServerArgs(), "--list-extensions", "--show-versions"], {
    encoding: "utf8",
    env: codeServerEnv,
  });
  assert.match(listed, /^lights\.lights@/m, `the extension should be installed; --list-extensions says:\n${listed}`);
}, { setup: true });

let url;
step("start code-server (--auth none, 127.0.0.1, free port, telemetry off)", async () => {
  const port = await freePort();
  codeServer = spawn(
    CODE_SERVER,
    [
      ...codeServerArgs(),
      "--auth", "none",
      "--bind-addr", `127.0.0.1:${port}`,
      "--disable-telemetry",
      "--disable-update-check",
      "--disable-workspace-trust",
      "--disable-getting-started-override",
      "--ignore-last-opened",
      workspace,
    ],
    { stdio: ["ignore", "pipe", "pipe"], detached: true, env: codeServerEnv },
  );
  codeServer.stdout.on("data", (d) => (codeServerLog += d));
  codeServer.stderr.on("data", (d) => (codeServerLog += d));
  await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`code-server did not listen within 60 s:\n${codeServerLog}`)), 60_000);
    const poll = setInterval(() => {
      if (/HTTP server listening on/.test(codeServerLog)) {
        clearTimeout(timer);
        clearInterval(poll);
        resolve();
      }
    }, 200);
    codeServer.on("exit", (code) => {
      clearTimeout(timer);
      clearInterval(poll);
      reject(new Error(`code-server exited (${code}):\n${codeServerLog}`));
    });
  });
  url = `http://127.0.0.1:${port}/?folder=${encodeURIComponent(workspace)}`;
}, { setup: true });

step("open the workbench in Chromium", async () => {
  const args = ["--disable-background-networking", "--disable-dev-shm-usage", "--disable-gpu"];
  if (typeof process.getuid === "function" && process.getuid() === 0) args.push("--no-sandbox");
  browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args });
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  page = await context.newPage();
  page.setDefaultTimeout(LONG);
  await page.goto(url);
  await page.locator(".monaco-workbench").waitFor({ timeout: LONG });
  await page.locator(".explorer-folders-view, .explorer-viewlet").first().waitFor({ timeout: LONG });
  await screenshot("workbench");
}, { setup: true });

step("open puzzles.lights: the language is Lights", async () => {
  await openFile("puzzles.lights");
  await page.locator(".statusbar-item", { hasText: /^\s*Lights\s*$/ }).first().waitFor({ timeout: LONG });
  await screenshot("puzzles-open");
}, { setup: true });

step("the Problems panel shows L0201, L0202 and L0203 with their messages", async () => {
  await command("Problems: Focus on Problems View");
  await waitProblems((rows) => rows.some((r) => r.includes("puzzles.lights")), "puzzles.lights");
  await screenshot("problems");
  // The panel is a virtual list (long rows, related information): filter
  // it by code to see each one.
  const filter = page.locator(".panel .viewpane-filter input, .markers-panel-action-filter input").first();
  const want = [
    ["L0201", 'puzzle "corner" cannot be solved', "[Ln 11, Col 1]"],
    ["L0202", "`expect solutions 2` does not hold: the puzzle has 1 solution", "[Ln 20, Col 3]"],
    ["L0203", "this `solution` does not solve the puzzle", "[Ln 31, Col 3]"],
  ];
  for (const [code, message, where] of want) {
    await filter.fill(code);
    const rows = await waitProblems(
      (rows) => rows.some((r) => r.includes(code) && r.includes(message) && r.includes(where)),
      `${code} "${message}" ${where}`,
    );
    console.log(`     ${code}: ${rows.find((r) => r.includes(code)).split(" | ")[0].split("\n")[0]}`);
    await screenshot(`problems-${code}`);
  }
  await filter.fill("");
});

step("the code lens shows the solution counts", async () => {
  await goTo(1, 1);
  const lens = page.locator(".codelens-decoration", { hasText: "4 solutions · minimum 15 presses" });
  await lens.first().waitFor({ timeout: LONG });
  const all = await page.locator(".codelens-decoration").allTextContents();
  console.log(`     lenses: ${all.join(" / ")}`);
  assert.ok(all.some((t) => t.includes("✓ 4 solutions · minimum 15 presses")), "the all-on lens");
  assert.ok(all.some((t) => t.includes("✗ unsolvable")), "the corner lens");
  await screenshot("code-lens");
});

step("hover on a cell of a lights grid answers", async () => {
  // puzzles.lights line 27 is `    1 1 .` of "wrong-solution": cell 1,1 at column 5.
  await goTo(27, 5);
  await command("Show or Focus Hover");
  const hover = page.locator(".monaco-hover:not(.hidden)", { hasText: "cell 1,1" }).first();
  await hover.waitFor({ timeout: LONG });
  const text = await hover.innerText();
  console.log(`     hover: ${text.replace(/\s+/g, " ").slice(0, 200)}`);
  assert.match(text, /cell 1,1/);
  assert.match(text, /lights 1 · goal 0/);
  assert.match(text, /minimum solution: pressed/);
  await screenshot("hover");
  await page.keyboard.press("Escape");
});

step("the quick fix replaces the wrong solution and L0203 goes away", async () => {
  await goTo(31, 3);
  await command("Quick Fix...");
  const fix = page.locator(".action-widget .monaco-list-row", { hasText: "Replace solution" }).first();
  await fix.waitFor({ timeout: LONG });
  await screenshot("quick-fix-menu");
  await fix.click();
  await waitProblems((rows) => !rows.some((r) => r.includes("L0203")), "no L0203 after the quick fix");
  await command("File: Save");
  const saved = readFileSync(path.join(workspace, "puzzles.lights"), "utf8");
  assert.match(saved, /solution \{\n\s*1 \. \.\n\s*\. \. \.\n\s*\. \. \.\n\s*\}/, `the minimum solution (press 1,1) should be written:\n${saved}`);
  const check = (() => {
    try {
      return execFileSync(LIGHTS, ["--color", "never", "check", path.join(workspace, "puzzles.lights")], { encoding: "utf8" });
    } catch (e) {
      return `${e.stdout}${e.stderr}`;
    }
  })();
  assert.match(check, /wrong-solution: 1 solution · minimum 1 press$/m, `lights check of the saved file:\n${check}`);
  assert.doesNotMatch(check, /L0203/);
  await screenshot("quick-fix-applied");
});

step("Format Document gives what `lights fmt` gives", async () => {
  const file = path.join(workspace, "messy.lights");
  const before = readFileSync(file, "utf8");
  const expected = execFileSync(LIGHTS, ["fmt", "-"], { input: before, encoding: "utf8" });
  assert.notEqual(before, expected, "the fixture should need formatting");
  await openFile("messy.lights");
  await command("Format Document");
  await page.locator(".tab.active.dirty, .tab.active[class*=dirty]").first().waitFor({ timeout: LONG });
  await command("File: Save");
  const deadline = Date.now() + LONG;
  while (readFileSync(file, "utf8") === before && Date.now() < deadline) await page.waitForTimeout(250);
  assert.equal(readFileSync(file, "utf8"), expected);
  await screenshot("formatted");
});

step('"Lights: Play" opens the webview and a press changes the board', async () => {
  await openFile("classic.lights");
  await goTo(8, 1);
  await command("Lights: Play");
  const deadline = Date.now() + LONG;
  let frame;
  while (!frame && Date.now() < deadline) {
    for (const f of page.frames()) {
      if (await f.locator("svg.board [data-cell]").count().catch(() => 0)) frame = f;
    }
    if (!frame) await page.waitForTimeout(500);
  }
  assert.ok(frame, "no frame of the page shows a board (svg.board [data-cell])");
  const values = () =>
    frame.$$eval("svg.board [data-cell]", (els) => els.map((e) => e.getAttribute("data-value")).join(""));
  const before = await values();
  console.log(`     board before: ${before}`);
  await screenshot("play-open");
  await frame.locator('svg.board [data-cell="12"]').click();
  await frame.waitForFunction((b) => {
    const now = [...document.querySelectorAll("svg.board [data-cell]")].map((e) => e.getAttribute("data-value")).join("");
    return now !== b;
  }, before, { timeout: LONG });
  const after = await values();
  console.log(`     board after pressing cell 12: ${after}`);
  // The centre press of the classic 5×5: the cross around 3,3 toggles.
  const changed = [...after].map((v, i) => (v !== before[i] ? i : -1)).filter((i) => i >= 0);
  assert.deepEqual(changed, [7, 11, 12, 13, 17], "pressing the centre toggles it and its four neighbours");
  await screenshot("play-pressed");
});

step('the "Lights Language Server" output channel is not empty at the default trace level', async () => {
  const view = await outputText("Lights Language Server");
  const deadline = Date.now() + LONG;
  let text = "";
  while (Date.now() < deadline) {
    text = (await view.innerText()).trim();
    if (text) break;
    await page.waitForTimeout(500);
  }
  console.log(`     output: ${text.split("\n").slice(0, 4).join(" / ")}`);
  await screenshot("server-output");
  assert.ok(text.length > 0, "the Lights Language Server output channel is empty");
  assert.match(text, /lights/i);
});

step('"Lights: Check Workspace" reports, and its "checking" notification goes away', async () => {
  await command("Lights: Check Workspace");
  const view = await outputText("Lights");
  await page.waitForFunction(
    (el) => /== lights check/.test(el.innerText) && /puzzles\.lights/.test(el.innerText),
    await view.elementHandle(),
    { timeout: LONG },
  );
  await page
    .locator(".notification-toast", { hasText: "checking" })
    .waitFor({ state: "detached", timeout: 30_000 })
    .catch(async () => {
      await screenshot("checking-stays");
      throw new Error('the "Lights: checking .lights files" notification is still shown after the check finished');
    });
  await screenshot("check-workspace");
});

// ------------------------------------------------------------------ run

const failed = [];
for (const [i, { name, body, setup }] of steps.entries()) {
  console.log(`[${i + 1}/${steps.length}] ${name}  (${elapsed()})`);
  try {
    await body();
  } catch (error) {
    failed.push(name);
    console.error(`FAILED at step ${i + 1}: ${name}\n${error?.stack ?? error}`);
    await screenshot("FAILED");
    // Leave a clean slate for the next step: close menus, hovers, pickers.
    if (page) for (let n = 0; n < 3; n++) await page.keyboard.press("Escape").catch(() => {});
    if (setup) break;
  }
}
await browser?.close().catch(() => {});
if (codeServer && codeServer.exitCode === null) {
  try {
    process.kill(-codeServer.pid, "SIGTERM");
  } catch {
    codeServer.kill("SIGTERM");
  }
}
if (failed.length && codeServerLog) console.error(`--- code-server's output:\n${codeServerLog.slice(-4000)}`);
if (!process.env.LIGHTS_VSCODE_KEEP) rmSync(tmp, { recursive: true, force: true });
else console.log(`kept ${tmp}`);
if (failed.length) {
  console.error(`vscode-e2e: ${failed.length} step(s) FAILED (${elapsed()}):\n${failed.map((n) => `  - ${n}`).join("\n")}`);
  process.exit(1);
}
console.log(`vscode-e2e: all ${steps.length} steps passed in ${elapsed()}`);
