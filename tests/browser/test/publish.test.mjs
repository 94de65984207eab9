// `lights publish`: the site it writes plays the pack with no server and no
// solver — from file:// and from a static HTTP server — hints included: a
// level is played to the win by following hints, the win is remembered
// across a reload, hints work from an edited position (the hint table) and
// along the start of a level whose W has a square factor, and the address's
// #level=N opens a level.

import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { EXAMPLES, artifact, cell, lightsBin, pressCount, sharedBrowser, solveByHints, status, withPage } from "../lib.mjs";

const browser = sharedBrowser();
let dir;
let site;
let data;

before(() => {
  dir = mkdtempSync(path.join(tmpdir(), "lights-publish-"));
  site = path.join(dir, "site");
  execFileSync(lightsBin(), ["--color", "never", "publish", path.join(EXAMPLES, "level-pack.lights"), "-o", site]);
  const js = readFileSync(path.join(site, "levels.js"), "utf8");
  data = JSON.parse(js.slice(js.indexOf("{"), js.lastIndexOf("}") + 1));
});
after(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function chooseLevel(page, index) {
  await page.click(`#levels button.level[data-index="${index}"]`);
  await page.waitForFunction((i) => document.querySelector("#puzzle")?.value === String(i), index);
}

async function win(page, index) {
  const board = data.levels[index].board;
  const n = await solveByHints(page, null, index, board, { check: false });
  assert.match(await status(page), /solved!/);
  await page.waitForSelector("#win", { state: "visible" });
  if (board.report.optimal) assert.equal(n, board.report.presses, `"${board.name}": the hints follow its minimum`);
  return n;
}

test("from file://: the whole pack is played to the end by hints, the wins survive a reload, #level=N opens a level", async () => {
  const url = pathToFileURL(path.join(site, "index.html")).href;
  await withPage(browser(), url, { reducedMotion: "reduce" }, async (page) => {
    assert.equal(await page.locator("#levels button.level").count(), data.levels.length);
    assert.equal(await page.isVisible("#writeback"), false, "a site has no file to write");
    // Every level in order, by hints, each through Next level; the W = 12 level ("clock")
    // has hints along its minimum from its start only.
    const clock = data.levels.findIndex((l) => l.board.states === 12);
    assert.ok(clock >= 0 && data.levels[clock].hints.kind === "start");
    for (let i = 0; i < data.levels.length; i++) {
      await win(page, i);
      if (i === 3) await artifact(page, "publish-win", { board: false });
      if (i + 1 < data.levels.length) {
        await page.click("#next-level");
        await page.waitForFunction((n) => document.querySelector("#puzzle")?.value === String(n), i + 1);
        assert.match(page.url(), new RegExp(`#level=${i + 2}$`), "the address names the level");
      } else {
        assert.equal(await page.isVisible("#next-level"), false, "no next level after the last");
      }
    }

    await page.reload();
    await page.waitForSelector("svg.board [data-cell]");
    assert.equal(await page.locator("#levels button.level.solved").count(), data.levels.length, "every level marked solved");
    await page.evaluate(() => localStorage.clear());
    await page.reload();
    await page.waitForSelector("svg.board [data-cell]");
    assert.equal(await page.locator('#levels button.level[data-index="1"].solved').count(), 0);

    // A shared link opens its level.
    await page.goto(`${url}#level=3`);
    await page.waitForFunction(() => document.querySelector("#puzzle")?.value === "2");
  });
});

test("hints from an edited position come from the hint table and reach the goal", async () => {
  const url = `${pathToFileURL(path.join(site, "index.html")).href}#level=2`;
  await withPage(browser(), url, { reducedMotion: "reduce" }, async (page) => {
    await page.waitForFunction(() => document.querySelector("#puzzle")?.value === "1");
    const board = data.levels[1].board;
    assert.equal(data.levels[1].hints.kind, "map");
    await page.click("#edit");
    for (const i of [1, 4, 8]) await cell(page, i).click();
    await page.click("#edit");
    await solveByHints(page, null, 1, board, { check: false });
    assert.match(await status(page), /solved!/);
    assert.ok((await pressCount(page)) > 0);
  });
});

test("from a static HTTP server the site plays the same", async () => {
  const server = createServer((req, res) => {
    const name = decodeURIComponent(new URL(req.url, "http://x").pathname).replace(/^\/$/, "/index.html");
    const file = path.join(site, path.normalize(name));
    try {
      const body = readFileSync(file);
      const type = { ".html": "text/html", ".js": "text/javascript", ".css": "text/css", ".json": "application/json" }[path.extname(file)];
      res.writeHead(200, { "content-type": type ?? "application/octet-stream" });
      res.end(body);
    } catch {
      res.writeHead(404);
      res.end();
    }
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  try {
    const url = `http://127.0.0.1:${server.address().port}/`;
    await withPage(browser(), url, { reducedMotion: "reduce" }, async (page) => {
      await win(page, 0);
      await page.reload();
      await page.waitForSelector("svg.board [data-cell]");
      assert.equal(await page.locator('#levels button.level[data-index="0"].solved').count(), 1);
    });
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
});
