// Shared by the browser tests: start `lights play`, drive Debian's Chromium
// with playwright-core (no browser download), talk to the JSON API, and
// simulate presses with the press patterns the tool itself serves.

import { spawn, execFileSync } from "node:child_process";
import { existsSync, mkdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import assert from "node:assert/strict";
import { after, before } from "node:test";
import { chromium } from "playwright-core";

export const HERE = path.dirname(fileURLToPath(import.meta.url));
export const REPO = path.resolve(HERE, "../..");
export const FIXTURES = path.join(HERE, "fixtures");
export const EXAMPLES = path.join(REPO, "examples");
/** Screenshots taken by the tests (test artifacts). */
export const ARTIFACTS = process.env.LIGHTS_BROWSER_ARTIFACTS ?? path.join(REPO, "target", "browser-artifacts");

/** The `lights` binary: $LIGHTS_BIN, else target/debug/lights (or $CARGO_TARGET_DIR/debug/lights). */
export function lightsBin() {
  const bin =
    process.env.LIGHTS_BIN ?? path.resolve(REPO, process.env.CARGO_TARGET_DIR ?? "target", "debug", "lights");
  if (!existsSync(bin)) throw new Error(`no lights binary at ${bin}: build it (cargo build -p lights-cli) or set LIGHTS_BIN`);
  return bin;
}

/** The system's Chromium: $CHROMIUM, else `chromium` (Debian) or `chromium-browser` on the PATH. */
export function chromiumPath() {
  if (process.env.CHROMIUM) return process.env.CHROMIUM;
  for (const name of ["chromium", "chromium-browser", "google-chrome"]) {
    try {
      const found = execFileSync("sh", ["-c", `command -v ${name}`], { encoding: "utf8" }).trim();
      if (found) return found;
    } catch {
      // not on the PATH
    }
  }
  throw new Error("no Chromium found: install Debian's chromium (apt-get install chromium) or set CHROMIUM");
}

/** Headless Chromium; --no-sandbox only when running as root (the sandbox refuses root). */
export async function launchBrowser() {
  const args = [];
  if (typeof process.getuid === "function" && process.getuid() === 0) args.push("--no-sandbox");
  return chromium.launch({ executablePath: chromiumPath(), headless: true, args });
}

/**
 * One browser for the tests of a file: launched before them, closed after.
 * Returns a function giving it (it exists once the tests run).
 */
export function sharedBrowser() {
  let browser;
  before(async () => {
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
  });
  return () => browser;
}

/**
 * `lights play FILE --no-open --port 0 ...extra`: resolves once the URL is
 * printed. `stop()` sends SIGINT and checks the server exits with status 0.
 */
export async function startPlay(file, extra = [], { cwd } = {}) {
  const child = spawn(lightsBin(), ["--color", "never", "play", file, "--no-open", "--port", "0", ...extra], {
    stdio: ["ignore", "pipe", "pipe"],
    cwd,
  });
  let out = "";
  let err = "";
  child.stderr.on("data", (d) => (err += d));
  const exited = new Promise((resolve) => child.on("exit", (code, signal) => resolve({ code, signal })));
  const url = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`lights play printed no URL within 20 s; stderr: ${err}`)), 20_000);
    child.stdout.on("data", (d) => {
      out += d;
      const m = /^lights play: (http:\/\/127\.0\.0\.1:\d+\/) /m.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    });
    exited.then(({ code, signal }) => reject(new Error(`lights play exited (${code ?? signal}) before printing a URL: ${err}`)));
  });
  return {
    url,
    stderr: () => err,
    async stop() {
      child.kill("SIGINT");
      let timer;
      const timeout = new Promise((resolve) => (timer = setTimeout(() => resolve("timeout"), 10_000)));
      const result = await Promise.race([exited, timeout]);
      clearTimeout(timer);
      if (result === "timeout") {
        child.kill("SIGKILL");
        assert.fail("lights play did not stop within 10 s of SIGINT");
      }
      assert.deepEqual(result, { code: 0, signal: null }, `lights play should exit 0 on SIGINT; stderr: ${err}`);
    },
  };
}

/**
 * Run `body(server)` against `lights play FILE ...extra` (see `startPlay`),
 * then stop the server, whether `body` succeeded or not; the stop checks
 * the server exits 0 on SIGINT. Called as `withPlay(file, body)`,
 * `withPlay(file, extra, body)` or `withPlay(file, extra, { cwd }, body)`.
 * When both `body` and the stop fail, both errors are reported.
 * Returns what `body` returns.
 */
export async function withPlay(file, ...rest) {
  const body = rest.pop();
  const [extra = [], options = {}] = rest;
  const server = await startPlay(file, extra, options);
  return finish(() => body(server), () => server.stop());
}

/**
 * Run `body(page)` on a page opened on `url` (see `openPage`), then close
 * it, whether `body` succeeded or not; on success the close checks the page
 * logged no script or console error (on failure the errors are listed with
 * the failure). Called as `withPage(browser, url, body)` or
 * `withPage(browser, url, options, body)`. Returns what `body` returns.
 */
export async function withPage(browser, url, ...rest) {
  const body = rest.pop();
  const [options = {}] = rest;
  const page = await openPage(browser, url, options);
  return finish(() => body(page), () => closePage(page));
}

/**
 * `await work()`, then `await cleanup()` even if `work` threw. A failure of
 * `work` wins; if `cleanup` fails as well, both are thrown together.
 */
async function finish(work, cleanup) {
  let result;
  try {
    result = await work();
  } catch (error) {
    try {
      await cleanup();
    } catch (also) {
      throw new AggregateError([error, also], `${error?.message ?? error}\n(and then: ${also?.message ?? also})`);
    }
    throw error;
  }
  await cleanup();
  return result;
}

/** A JSON API call against the server at `base`. */
export async function api(base, route, body) {
  const response = await fetch(new URL(route, base), {
    method: body === undefined ? "GET" : "POST",
    headers: body === undefined ? {} : { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = await response.json();
  assert.equal(response.status, 200, `${route}: ${JSON.stringify(json)}`);
  return json;
}

/**
 * A page on `url`, failing the test on any script error or console error.
 * `reducedMotion`: the page skips animations (and the chase runs at once).
 */
export async function openPage(browser, url, { reducedMotion = "no-preference", viewport = { width: 1100, height: 900 } } = {}) {
  const context = await browser.newContext({ reducedMotion, viewport, acceptDownloads: true });
  const page = await context.newPage();
  const problems = [];
  page.on("pageerror", (e) => problems.push(`page error: ${e.message}`));
  page.on("console", (m) => {
    if (m.type() === "error") problems.push(`console error: ${m.text()}`);
  });
  page.problems = problems;
  try {
    await page.goto(url);
    await page.waitForSelector("svg.board [data-cell]");
  } catch (error) {
    await context.close();
    if (problems.length) error.message += `\n(the page logged: ${problems.join("; ")})`;
    throw error;
  }
  return page;
}

/** Close the page's context; assert it logged no script or console error. */
export async function closePage(page) {
  const problems = page.problems.slice();
  await page.context().close();
  assert.deepEqual(problems, [], "the page should log no errors");
}

/** Every cell's `data-value`, indexed by cell (holes, which have no element: null). */
export async function values(page, count) {
  const shown = await page.$$eval("svg.board [data-cell]", (els) =>
    els.map((e) => [Number(e.getAttribute("data-cell")), Number(e.getAttribute("data-value"))]),
  );
  const out = new Array(count).fill(null);
  for (const [i, v] of shown) out[i] = v;
  return out;
}

/** The position with holes as null, as `values` reads it. */
export function withHoles(lights, holes) {
  return lights.map((v, i) => (holes[i] ? null : v));
}

/** Press `cell` `times` times on `lights` (W states) with the tool's patterns. */
export function press(lights, presses, states, cell, times = 1) {
  const next = lights.slice();
  for (const [target, weight] of presses[cell]) next[target] = (next[target] + weight * times) % states;
  return next;
}

/** Apply a whole solution (presses per cell). */
export function applyAll(lights, presses, states, counts) {
  let next = lights.slice();
  counts.forEach((n, cell) => {
    if (n > 0) next = press(next, presses, states, cell, n);
  });
  return next;
}

export function cell(page, i) {
  return page.locator(`svg.board [data-cell="${i}"]`);
}

export async function pressCount(page) {
  return Number(await page.locator("#presses").textContent());
}

export async function status(page) {
  return (await page.locator("#status").textContent()) ?? "";
}

/** Wait for the status line to say "solved!". */
export async function waitSolved(page, timeout = 15_000) {
  await page.waitForFunction(() => document.getElementById("status")?.textContent?.includes("solved!"), null, { timeout });
}

/** Open puzzle `index` with the picker and wait until its board is drawn. */
export async function choose(page, index, board) {
  await page.selectOption("#puzzle", String(index));
  await page.waitForFunction(
    (label) => document.querySelector("svg.board")?.getAttribute("aria-label")?.startsWith(label),
    `${board.name}:`,
  );
}

/** A screenshot of the board (or the whole page) into ARTIFACTS; prints its path. */
export async function artifact(page, name, { board = true } = {}) {
  mkdirSync(ARTIFACTS, { recursive: true });
  const file = path.join(ARTIFACTS, `${name}.png`);
  if (board) await page.locator("svg.board").screenshot({ path: file });
  else await page.screenshot({ path: file, fullPage: true });
  console.log(`screenshot: ${file}`);
  return file;
}

/**
 * Follow the hints to "solved!": click #hint, read the highlighted cell
 * (class `hint`), check the tool's minimum from this position presses it,
 * click it; repeat. Returns the number of presses.
 */
export async function solveByHints(page, base, index, board, { check = true } = {}) {
  const limit = 2000;
  let position = board.lights.slice();
  for (let n = 0; n < limit; n++) {
    if ((await status(page)).includes("solved!")) return n;
    await page.click("#hint");
    const hinted = page.locator("svg.board .cell.hint");
    await hinted.waitFor({ state: "attached", timeout: 15_000 });
    const i = Number(await hinted.getAttribute("data-cell"));
    if (check) {
      const solve = await api(base, `api/puzzle/${index}/solve`, { lights: position });
      assert.equal(solve.solvable, true, `"${board.name}" should be solvable from the position`);
      assert.ok(solve.minimum[i] > 0, `"${board.name}": the hinted cell ${i} should be pressed by the tool's minimum ${solve.minimum}`);
      assert.ok(!board.locked[i], `"${board.name}": the hint must not be a locked button (${i})`);
      position = press(position, board.presses, board.states, i);
    }
    await hinted.click();
    await page.waitForFunction((c) => !document.querySelector(`svg.board [data-cell="${c}"]`)?.classList.contains("hint"), i);
  }
  assert.fail(`"${board.name}" not solved after ${limit} hinted presses`);
}
