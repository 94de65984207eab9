// The VS Code extension in a real VS Code: code-server (VS Code in a
// browser) with the packaged .vsix installed, driven through Debian's
// Chromium by playwright-core. Run by ./run, which installs code-server and
// builds the .vsix; this file expects, in the environment:
//   CODE_SERVER   the code-server launcher (bin/code-server)
//   LIGHTS_VSIX   the .vsix to install
//   LIGHTS_BIN    the `lights` binary (for `lights fmt` and `lights check`)
//   LIGHTS_SERVER_PATH  optional: a `lights.server.path` to put in the remote
//                 machine's settings (for a universal LIGHTS_VSIX, which has
//                 no server)
//   LIGHTS_UNIVERSAL_VSIX  optional: the universal .vsix, for the check that
//                 `lights.server.path` in the Remote settings is honoured in
//                 code-server's remote window (./run always sets it; with
//                 LIGHTS_VSCODE_REMOTE_SETTING=1 the User tab is tried too)
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
const SERVER_PATH = process.env.LIGHTS_SERVER_PATH || "";
const ARTIFACTS = process.env.LIGHTS_VSCODE_ARTIFACTS ?? path.join(REPO, "target", "vscode-e2e-artifacts");
const CHROMIUM = process.env.CHROMIUM ?? "/usr/bin/chromium";
/** Generous: code-server and the debug server share a small, busy machine. */
const LONG = 90_000;

rmSync(ARTIFACTS, { recursive: true, force: true });
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
  // The palette closes, or (a command that asks something) shows a new picker.
  await page.waitForFunction(
    (typed) => {
      const widget = document.querySelector(".quick-input-widget");
      const input = widget?.querySelector("input");
      return !widget || widget.offsetParent === null || getComputedStyle(widget).display === "none" || input?.value !== typed;
    },
    `>${title}`,
    { timeout: LONG },
  );
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

/** The file's text once a save has changed it from `before` (saving is asynchronous). */
async function savedText(file, before) {
  const deadline = Date.now() + LONG;
  while (Date.now() < deadline) {
    const now = readFileSync(file, "utf8");
    if (now !== before) return now;
    await page.waitForTimeout(250);
  }
  throw new Error(`${path.basename(file)} was not saved (its text on disk did not change)`);
}

/** The rows of the Problems panel, as text. */
async function problemRows() {
  return page.locator(".markers-panel .monaco-list-row").evaluateAll((rows) =>
    rows.map((r) => (r.getAttribute("aria-label") || "") + " | " + (r.textContent || "")),
  );
}

/**
 * Filter the Problems panel by `text` and wait until `predicate(rows)` holds.
 * The filter is typed again (the view focused first) when its box does not
 * hold `text` or the rows have not followed it for a few seconds: on a busy
 * machine a typed filter was once lost while the view re-rendered, and the
 * panel went on showing the unfiltered list for the whole wait.
 */
async function filterProblems(text, predicate, what) {
  const filter = page
    .locator(".panel .viewpane-filter input, .markers-panel-action-filter input")
    .filter({ visible: true })
    .first();
  let typed = 0;
  let value = "";
  const retype = async () => {
    value = await filter.inputValue({ timeout: 5_000 }).catch(() => "(no filter box)");
    if (value !== text || Date.now() - typed > 10_000) {
      if (!(await filter.count())) await command("Problems: Focus on Problems View");
      await filter.fill("");
      await filter.fill(text);
      typed = Date.now();
    }
  };
  return waitProblems(predicate, `${what} (filtered by "${text}")`, retype, () => `the filter box holds "${value}"; `);
}

/** Fail at once when the extension shows an error notification. */
async function noLightsError() {
  const toasts = await page.locator(".notification-toast", { hasText: "Lights:" }).allInnerTexts();
  const errors = toasts.filter((t) => /not found|not running|failed|error/i.test(t));
  if (errors.length) throw new Error(`the extension shows an error: ${errors.join(" / ")}`);
}

/**
 * Wait until `predicate(rows)` holds for the Problems rows; returns them.
 * `each` runs before every look (`filterProblems` keeps its filter typed);
 * `state()` adds to the failure what it knows.
 */
async function waitProblems(predicate, what, each = async () => {}, state = () => "") {
  const deadline = Date.now() + LONG;
  let rows = [];
  while (Date.now() < deadline) {
    await noLightsError();
    await each();
    rows = await problemRows();
    if (predicate(rows)) return rows;
    await page.waitForTimeout(500);
  }
  throw new Error(`the Problems panel never showed ${what}; ${state()}it shows:\n  ${rows.join("\n  ")}`);
}

/**
 * Show an output channel in the Output view; returns a function giving its
 * text (the locator is resolved anew each time: the view's editor is
 * replaced when the channel changes). Word-wrapped lines are joined back
 * (visual lines are concatenated without a separator).
 */
async function showOutput(channel) {
  await command("Output: Show Output Channels...");
  const input = page.locator(".quick-input-widget input");
  await input.waitFor({ state: "visible", timeout: LONG });
  await input.fill(channel);
  const row = page.locator(".quick-input-widget .monaco-list-row", {
    has: page.locator(".label-name", { hasText: new RegExp(`^\\s*${channel}\\s*$`) }),
  });
  await row.first().waitFor({ timeout: LONG });
  await row.first().click();
  await page.locator(".quick-input-widget").waitFor({ state: "hidden", timeout: LONG }).catch(() => {});
  const view = page.locator(".output-view .monaco-editor .view-lines, .panel .output .monaco-editor .view-lines").first();
  await view.waitFor({ timeout: LONG });
  // Monaco draws spaces as no-break spaces.
  return async () => (await view.locator(".view-line").allInnerTexts()).join("").replace(/\u00a0/g, " ");
}

/** Wait until the channel's text satisfies `predicate`; returns the text. */
async function waitOutput(channel, predicate, what, timeout = LONG) {
  const text = await showOutput(channel);
  const deadline = Date.now() + timeout;
  let now = "";
  while (Date.now() < deadline) {
    now = await text();
    if (predicate(now)) return now;
    await page.waitForTimeout(500);
  }
  throw new Error(`the "${channel}" output never showed ${what}; it shows:\n${now}`);
}

// ------------------------------------------------------------------ setup

const tmp = mkdtempSync(path.join(os.tmpdir(), "lights-vscode-e2e-"));
const workspace = path.join(tmp, "puzzles");
let browser;
const instances = [];

/**
 * A code-server of its own: user data, extensions, XDG folders (its
 * config.yaml) under tmp/NAME. `user` and `machine` are settings.
 */
function codeServerInstance(name, { user = {}, machine } = {}) {
  const root = path.join(tmp, name);
  const inst = {
    name,
    args: ["--user-data-dir", path.join(root, "user-data"), "--extensions-dir", path.join(root, "extensions")],
    env: { ...process.env, XDG_CONFIG_HOME: path.join(root, "config"), XDG_DATA_HOME: path.join(root, "data") },
    log: "",
    proc: undefined,
    url: undefined,
  };
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
    ...user,
  };
  mkdirSync(path.join(root, "user-data", "User"), { recursive: true });
  writeFileSync(path.join(root, "user-data", "User", "settings.json"), JSON.stringify(settings, null, 2));
  if (machine) {
    mkdirSync(path.join(root, "user-data", "Machine"), { recursive: true });
    writeFileSync(path.join(root, "user-data", "Machine", "settings.json"), JSON.stringify(machine, null, 2));
  }
  instances.push(inst);
  return inst;
}

/** `code-server --install-extension VSIX`, checked with --list-extensions. */
function installVsix(inst, vsix) {
  const out = execFileSync(CODE_SERVER, [...inst.args, "--install-extension", vsix], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
    env: inst.env,
  });
  console.log(out.trim().replace(/^/gm, "     "));
  const listed = execFileSync(CODE_SERVER, [...inst.args, "--list-extensions", "--show-versions"], {
    encoding: "utf8",
    env: inst.env,
  });
  assert.match(listed, /^lights\.lights@/m, `the extension should be installed; --list-extensions says:\n${listed}`);
}

/** Start code-server on a free port of 127.0.0.1, no auth, no telemetry; the folder to open is `workspace`. */
async function startCodeServer(inst) {
  const port = await freePort();
  inst.proc = spawn(
    CODE_SERVER,
    [
      ...inst.args,
      "--auth", "none",
      "--bind-addr", `127.0.0.1:${port}`,
      "--disable-telemetry",
      "--disable-update-check",
      "--disable-workspace-trust",
      "--disable-getting-started-override",
      "--ignore-last-opened",
      workspace,
    ],
    { stdio: ["ignore", "pipe", "pipe"], detached: true, env: inst.env },
  );
  inst.proc.stdout.on("data", (d) => (inst.log += d));
  inst.proc.stderr.on("data", (d) => (inst.log += d));
  await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`code-server did not listen within 60 s:\n${inst.log}`)), 60_000);
    const poll = setInterval(() => {
      if (/HTTP server listening on/.test(inst.log)) {
        clearTimeout(timer);
        clearInterval(poll);
        resolve();
      }
    }, 200);
    inst.proc.on("exit", (code) => {
      clearTimeout(timer);
      clearInterval(poll);
      reject(new Error(`code-server exited (${code}):\n${inst.log}`));
    });
  });
  inst.url = `http://127.0.0.1:${port}/?folder=${encodeURIComponent(workspace)}`;
}

function stopCodeServer(inst) {
  if (!inst.proc || inst.proc.exitCode !== null) return;
  try {
    process.kill(-inst.proc.pid, "SIGTERM");
  } catch {
    inst.proc.kill("SIGTERM");
  }
}

/** A new page on the instance's workbench (it becomes `page`). */
async function openWorkbench(inst) {
  if (!browser) {
    // The flags of tests/browser/lib.mjs; no sandbox for root.
    const args = ["--disable-background-networking", "--disable-dev-shm-usage", "--disable-gpu"];
    if (typeof process.getuid === "function" && process.getuid() === 0) args.push("--no-sandbox");
    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args });
  }
  if (page) await page.context().close();
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  page = await context.newPage();
  page.setDefaultTimeout(LONG);
  await page.goto(inst.url);
  await page.locator(".monaco-workbench").waitFor({ timeout: LONG });
  await page.locator(".explorer-folders-view, .explorer-viewlet").first().waitFor({ timeout: LONG });
}

let main;
step("make the workspace folder (fixtures + examples/classic.lights) and the settings", async () => {
  cpSync(path.join(HERE, "fixtures"), workspace, { recursive: true });
  cpSync(path.join(REPO, "examples", "classic.lights"), path.join(workspace, "classic.lights"));
  // A universal .vsix has no server: name it in the remote machine's
  // settings (code-server's extension host is "remote").
  main = codeServerInstance("main", { machine: SERVER_PATH ? { "lights.server.path": SERVER_PATH } : undefined });
}, { setup: true });

step(`install the .vsix (${path.basename(VSIX)}) with code-server --install-extension`, async () => {
  installVsix(main, VSIX);
}, { setup: true });

step("start code-server (--auth none, 127.0.0.1, free port, telemetry off)", async () => {
  await startCodeServer(main);
}, { setup: true });

step("open the workbench in Chromium", async () => {
  await openWorkbench(main);
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
  const want = [
    ["L0201", 'puzzle "corner" cannot be solved', "[Ln 11, Col 1]"],
    ["L0202", "`expect solutions 2` does not hold: the puzzle has 1 solution", "[Ln 20, Col 3]"],
    ["L0203", "this `solution` does not solve the puzzle", "[Ln 31, Col 3]"],
  ];
  for (const [code, message, where] of want) {
    const rows = await filterProblems(
      code,
      (rows) => rows.some((r) => r.includes(code) && r.includes(message) && r.includes(where)),
      `${code} "${message}" ${where}`,
    );
    const row = rows.find((r) => r.includes(code) && r.includes(message));
    console.log(`     ${code}: ${row.split(" | ")[0].split("\n")[0]}`);
    // The list shows a message in a proportional font, cut at the width: a
    // note that draws a grid keeps its title there, the rows go to the
    // related information (issue 26).
    const label = row.split(" | ")[0];
    assert.doesNotMatch(label, /\n\s*[0-9.]( [0-9.]){2,}\s*(\n|$)/, `${code}: no grid drawn in the Problems entry:\n${label}`);
    await screenshot(`problems-${code}`);
  }
  // The certificate's cells are related information entries of L0201.
  await filterProblems("L0201", (rows) => rows.some((r) => /marked cell 1,1\b/.test(r)), 'the related entry "marked cell 1,1"');
  await filterProblems("", () => true, "the whole list");
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
  const before = readFileSync(path.join(workspace, "puzzles.lights"), "utf8");
  await goTo(31, 3);
  await command("Quick Fix...");
  const fix = page.locator(".action-widget .monaco-list-row", { hasText: "Replace solution" }).first();
  await fix.waitFor({ timeout: LONG });
  await screenshot("quick-fix-menu");
  await fix.click();
  await waitProblems((rows) => !rows.some((r) => r.includes("L0203")), "no L0203 after the quick fix");
  await command("File: Save");
  const saved = await savedText(path.join(workspace, "puzzles.lights"), before);
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
  assert.equal(await savedText(file, before), expected);
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

step('the "Lights Language Server" output channel logs start-up, the binary and its version (default trace level)', async () => {
  const version = execFileSync(LIGHTS, ["--version"], { encoding: "utf8" }).trim();
  // Where the server comes from: the platform .vsix carries it; a universal one is given the setting.
  const source = SERVER_PATH
    ? /server: \S+ \(the lights\.server\.path setting\)/
    : /server: \S+\/server\/lights \(the server bundled with the extension\)/;
  const text = await waitOutput(
    "Lights Language Server",
    (t) => t.includes(`version: ${version}`),
    `"version: ${version}"`,
  ).catch(async (e) => {
    await screenshot("server-output");
    throw e;
  });
  console.log(`     output: ${text.replace(/(\[\d+:\d+:\d+[^\]]*\])/g, "\n       $1")}`);
  await screenshot("server-output");
  assert.match(text, /starting the language server .*remote window/, "start-up is logged (code-server's window is remote)");
  assert.match(text, source, "the binary's path and where it comes from are logged");
});

step('"Lights: Check Workspace" reports, and its "checking" notification goes away', async () => {
  await command("Lights: Check Workspace");
  const text = await waitOutput(
    "Lights",
    (t) => /== lights check/.test(t) && /puzzles\.lights: corner: unsolvable/.test(t),
    "the check's report",
  );
  assert.match(text, /messy\.lights: messy: 1 solution/);
  const toast = page.locator(".notification-toast", { hasText: "checking" });
  try {
    await toast.waitFor({ state: "detached", timeout: 30_000 });
  } catch {
    await screenshot("checking-stays");
    throw new Error('the "Lights: checking .lights files" notification is still shown 30 s after the check finished');
  }
  await screenshot("check-workspace");
});

// lights.server.path with the universal .vsix (no server inside) in a
// remote window (code-server's window is one). Its scope is
// `machine-overridable`, as rust-analyzer's: VS Code applies it from the
// Remote tab (the machine's settings), where the extension's "Open
// Settings" leads, and by design not from the local User tab (VS Code reads
// local User settings in a remote window with LOCAL_MACHINE_SCOPES, which
// leave machine scopes out: the path would name a file on the other
// machine). The Remote-tab check runs always; the User-tab one is opt-in
// (LIGHTS_VSCODE_REMOTE_SETTING=1) and shows that rule, passing only when
// the settings are read before the extension's manifest (a race).
const UNIVERSAL = process.env.LIGHTS_UNIVERSAL_VSIX;
function settingStep(tab, settings) {
  step(`a universal .vsix and lights.server.path in the ${tab} settings: the remote window runs that binary`, async () => {
    const remote = codeServerInstance(`setting-${tab.toLowerCase()}`, settings);
    installVsix(remote, UNIVERSAL);
    await startCodeServer(remote);
    await openWorkbench(remote);
    await openFile("puzzles.lights");
    // The server answers: the lens of "corner" (unchanged by the quick fix).
    // An error popup on the way (the setting read late) is a failure too.
    const lens = page.locator(".codelens-decoration", { hasText: "✗ unsolvable" });
    let popup;
    const deadline = Date.now() + LONG;
    while (Date.now() < deadline) {
      try {
        await noLightsError();
      } catch (e) {
        popup ??= e.message;
      }
      if (await lens.count()) break;
      await page.waitForTimeout(500);
    }
    await screenshot(`setting-${tab.toLowerCase()}`);
    const answered = (await lens.count()) > 0;
    const log = await (await showOutput("Lights Language Server"))();
    console.log(`     output: ${log.replace(/(\[\d+:\d+:\d+[^\]]*\])/g, "\n       $1")}`);
    if (!answered) {
      // For the report: is the setting there by now (read too early), or not at all?
      await command("Lights: Restart Language Server");
      const later = await lens
        .first()
        .waitFor({ timeout: 30_000 })
        .then(() => "after Lights: Restart Language Server it is used")
        .catch(() => "not even after Lights: Restart Language Server");
      await screenshot(`setting-${tab.toLowerCase()}-restarted`);
      throw new Error(`the server never answered: the ${tab} setting was not used (${later})${popup ? `; ${popup}` : ""}`);
    }
    if (popup) throw new Error(`the server answered in the end, but only after ${popup}`);
    await waitOutput(
      "Lights Language Server",
      (t) => t.includes(`server: ${LIGHTS} (the lights.server.path setting)`),
      `"server: ${LIGHTS} (the lights.server.path setting)"`,
    );
    stopCodeServer(remote);
  });
}
if (UNIVERSAL) {
  settingStep("Remote", { machine: { "lights.server.path": LIGHTS } });
  if (process.env.LIGHTS_VSCODE_REMOTE_SETTING === "1") settingStep("User", { user: { "lights.server.path": LIGHTS } });
}

// ------------------------------------------------------------------ run

const failed = [];
// LIGHTS_VSCODE_ONLY=REGEX: only the steps whose name matches (and the set-up), for working on one.
let ran = 0;
const only = process.env.LIGHTS_VSCODE_ONLY ? new RegExp(process.env.LIGHTS_VSCODE_ONLY) : undefined;
for (const [i, { name, body, setup }] of steps.entries()) {
  if (only && !setup && !only.test(name)) continue;
  ran++;
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
for (const inst of instances) stopCodeServer(inst);
if (failed.length) {
  for (const inst of instances) if (inst.log) console.error(`--- code-server (${inst.name}):\n${inst.log.slice(-4000)}`);
}
if (!process.env.LIGHTS_VSCODE_KEEP) rmSync(tmp, { recursive: true, force: true });
else console.log(`kept ${tmp}`);
if (failed.length) {
  console.error(`vscode-e2e: ${failed.length} step(s) FAILED (${elapsed()}):\n${failed.map((n) => `  - ${n}`).join("\n")}`);
  process.exit(1);
}
console.log(`vscode-e2e: all ${ran} steps passed in ${elapsed()}${ran < steps.length ? ` (of ${steps.length})` : ""}`);
