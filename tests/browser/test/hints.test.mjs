// Following the hints reaches "solved!": on the 5×5 all-on board and on
// every puzzle of examples/level-pack.lights (issue 19's "done when"). Each
// hint is checked against the tool's minimum from the same position, and a
// minimum solution followed press by press takes exactly its length.

import { test } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import {
  EXAMPLES, FIXTURES, api, artifact, choose, sharedBrowser, pressCount, solveByHints, status, values, withHoles, withPage,
  withPlay,
} from "../lib.mjs";

const browser = sharedBrowser();

/** Solve puzzle `index` by hints on `page`; check the count and the final lights. */
async function playToSolved(page, base, index) {
  const board = await api(base, `api/puzzle/${index}`);
  assert.equal(board.playable, true, `"${board.name}" should be playable: ${board.why}`);
  assert.equal(board.report?.solvable, true, `"${board.name}" should be solvable`);
  const n = await solveByHints(page, base, index, board);
  assert.match(await status(page), /solved!/);
  assert.equal(await pressCount(page), n, "the counter counts the hinted presses");
  if (board.report.optimal) {
    assert.equal(n, board.report.presses, `"${board.name}": the hints follow a minimum solution (${board.report.presses} presses)`);
  }
  const count = board.lights.length;
  assert.deepEqual(await values(page, count), withHoles(board.goal, board.holes), `"${board.name}": the lights are the goal`);
  return board;
}

test("hints solve the 5×5 all-on board", async () => {
  await withPlay(path.join(FIXTURES, "boards.lights"), async (server) => {
    await withPage(browser(), server.url, { reducedMotion: "reduce" }, async (page) => {
      await playToSolved(page, server.url, 0);
      await artifact(page, "hints-5x5-solved");
      // Solved: the hint says there is nothing to press.
      await page.click("#hint");
      await page.waitForFunction(() => document.getElementById("status")?.textContent?.includes("Nothing to press"));
    });
  });
});

test("every puzzle of examples/level-pack.lights is played to solved! by hints", async () => {
  await withPlay(path.join(EXAMPLES, "level-pack.lights"), async (server) => {
    const list = await api(server.url, "api/puzzles");
    assert.equal(list.error, null);
    assert.ok(list.puzzles.length >= 8, "the level pack has its eight levels");
    await withPage(browser(), server.url, { reducedMotion: "reduce" }, async (page) => {
      for (const entry of list.puzzles) {
        const board = await api(server.url, `api/puzzle/${entry.index}`);
        if (entry.index !== 0) await choose(page, entry.index, board);
        await playToSolved(page, server.url, entry.index);
        await artifact(page, `hints-level-${entry.index + 1}-solved`);
      }
    });
  });
});

test("--puzzle NAME opens that level, and locked buttons say so instead of pressing", async () => {
  await withPlay(path.join(EXAMPLES, "level-pack.lights"), ["--puzzle", "broken buttons"], async (server) => {
    const list = await api(server.url, "api/puzzles");
    const index = list.puzzles.find((p) => p.name === "broken buttons").index;
    assert.equal(list.start, index);
    const board = await api(server.url, `api/puzzle/${index}`);
    await withPage(browser(), server.url, async (page) => {
      assert.equal(await page.locator("#puzzle").inputValue(), String(index), "the picker shows --puzzle's level");
      assert.deepEqual(await values(page, board.lights.length), board.lights);
      const locked = board.locked.indexOf(true);
      assert.equal(await page.locator(`[data-cell="${locked}"]`).getAttribute("data-locked"), "true");
      assert.equal(await page.locator("svg.board [data-locked]").count(), board.locked.filter(Boolean).length);
      await page.locator(`[data-cell="${locked}"]`).click();
      assert.deepEqual(await values(page, board.lights.length), board.lights, "a locked button does not press");
      assert.equal(await pressCount(page), 0);
      assert.match(await status(page), /is locked/);
    });
  });
});
