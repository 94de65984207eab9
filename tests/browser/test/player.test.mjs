// The player's page (issue 30): the board fills the window on a desktop and
// fits a phone; winning shows the moment, the presses against the minimum
// and a next-level button; solved levels are remembered across reloads in
// the level picker; sound is off until turned on.

import { test } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { EXAMPLES, FIXTURES, api, artifact, sharedBrowser, solveByHints, status, withPage, withPlay } from "../lib.mjs";

const browser = sharedBrowser();

/** The board's cells' bounding box on the page (the drawing, not the SVG's box). */
async function cellsBox(page) {
  return page.evaluate(() => {
    let [x0, y0, x1, y1] = [Infinity, Infinity, -Infinity, -Infinity];
    for (const el of document.querySelectorAll("svg.board [data-cell]")) {
      const r = el.getBoundingClientRect();
      x0 = Math.min(x0, r.left);
      y0 = Math.min(y0, r.top);
      x1 = Math.max(x1, r.right);
      y1 = Math.max(y1, r.bottom);
    }
    return { x0, y0, width: x1 - x0, height: y1 - y0 };
  });
}

test("a 5×5 level fills most of a 1280×800 window, and Fit toggles it", async () => {
  await withPlay(path.join(FIXTURES, "boards.lights"), async (server) => {
    await withPage(browser(), server.url, { viewport: { width: 1280, height: 800 } }, async (page) => {
      const box = await cellsBox(page);
      await artifact(page, "player-5x5-1280x800", { board: false });
      // Square cells: the height is what limits; most of the window's height is board.
      assert.ok(box.height >= 0.6 * 800, `the board is ${Math.round(box.height)} px tall in an 800 px window`);
      assert.ok(box.y0 + box.height <= 800, "the whole board is in view without scrolling");
      assert.ok(box.width / 5 >= 90, `cells are ${Math.round(box.width / 5)} px wide`);
      await page.click("#fit");
      const natural = await cellsBox(page);
      assert.ok(natural.width < box.width, "Fit off: the natural size (about 56 px a cell)");
      await page.click("#fit");
      assert.ok(Math.abs((await cellsBox(page)).width - box.width) < 1, "Fit on again: the board fills the window again");
    });
  });
});

test("on a 390×844 phone the board fits the screen and nothing scrolls sideways", async () => {
  await withPlay(path.join(FIXTURES, "boards.lights"), async (server) => {
    await withPage(browser(), server.url, { viewport: { width: 390, height: 844 } }, async (page) => {
      const box = await cellsBox(page);
      await artifact(page, "player-5x5-390x844", { board: false });
      assert.ok(box.x0 >= 0 && box.x0 + box.width <= 390, `the board spans ${box.x0}…${box.x0 + box.width}`);
      assert.ok(box.width >= 300, `the board is ${Math.round(box.width)} px wide on a 390 px screen`);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      assert.equal(overflow, 0, "no horizontal scrolling");
      // A tap presses.
      await page.locator('svg.board [data-cell="12"]').tap?.().catch(() => {});
    });
  });
});

test("winning shows the moment and the next level; progress survives a reload; sound is off", async () => {
  const pack = path.join(EXAMPLES, "level-pack.lights");
  await withPlay(pack, async (server) => {
    await withPage(browser(), server.url, { reducedMotion: "reduce" }, async (page) => {
      await page.evaluate(() => localStorage.clear());
      await page.reload();
      await page.waitForSelector("svg.board [data-cell]");
      assert.equal(await page.getAttribute("#sound", "aria-pressed"), "false", "sound is off by default");
      const list = await api(server.url, "api/puzzles");
      assert.equal(await page.locator("#levels button.level").count(), list.puzzles.length, "a tile per level");
      assert.equal(await page.locator("#levels button.level.solved").count(), 0);
      assert.equal(await page.isVisible("#win"), false, "no win before playing");

      const board = await api(server.url, "api/puzzle/0");
      const n = await solveByHints(page, server.url, 0, board);
      assert.match(await status(page), /solved!/);
      await page.waitForSelector("#win", { state: "visible" });
      const text = await page.locator("#win-presses").textContent();
      assert.match(text, new RegExp(`in ${n} press`), text);
      if (board.report.optimal && n === board.report.presses) assert.match(text, /the minimum/);
      assert.equal(await page.locator('#levels button.level[data-index="0"].solved').count(), 1, "level 1 marked solved");
      await artifact(page, "player-win", { board: false });

      // Undo leaves the goal: the panel goes.
      await page.click("#undo");
      assert.equal(await page.isVisible("#win"), false, "undo hides the win");
      await page.click("#redo");
      await page.waitForSelector("#win", { state: "visible" });

      // Next level.
      await page.click("#next-level");
      await page.waitForFunction(() => document.querySelector("#puzzle")?.value === "1");
      assert.equal(await page.isVisible("#win"), false);

      // Reload: level 1 is still solved, level 2 not.
      await page.reload();
      await page.waitForSelector("svg.board [data-cell]");
      assert.equal(await page.locator('#levels button.level[data-index="0"].solved').count(), 1, "remembered");
      assert.equal(await page.locator('#levels button.level[data-index="1"].solved').count(), 0);

      // Sound: turned on, remembered.
      await page.click("#sound");
      await page.reload();
      await page.waitForSelector("svg.board [data-cell]");
      assert.equal(await page.getAttribute("#sound", "aria-pressed"), "true");
    });
  });
});

test("corrupt progress in storage does not break the page", async () => {
  await withPlay(path.join(EXAMPLES, "level-pack.lights"), async (server) => {
    await withPage(browser(), server.url, async (page) => {
      await page.evaluate(() => {
        for (let i = 0; i < localStorage.length; i++) localStorage.removeItem(localStorage.key(i));
        localStorage.setItem(`lights-progress:${document.getElementById("file").textContent}`, "{not json");
      });
      await page.reload();
      await page.waitForSelector("svg.board [data-cell]");
      assert.equal(await page.locator("#levels button.level.solved").count(), 0);
    });
  });
});
