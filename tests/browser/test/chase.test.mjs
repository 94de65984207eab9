// Light chasing, animated, reaches "solved!" on plane cross puzzles: the
// 5×5 all-on board (watched while it runs), a 3-state and the 12-state
// "clock" of the level pack; and the button is off where chasing does not apply.

import { test } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import {
  EXAMPLES, FIXTURES, api, artifact, choose, sharedBrowser, status, values, waitSolved, withPage, withPlay,
} from "../lib.mjs";

const browser = sharedBrowser();

test("the animated chase solves the 5×5 all-on board", async () => {
  await withPlay(path.join(FIXTURES, "boards.lights"), async (server) => {
    const board = await api(server.url, "api/puzzle/0");
    assert.equal(board.chase, true);
    await withPage(browser(), server.url, async (page) => {
      assert.equal(await page.locator("#chase").isEnabled(), true);
      await page.click("#chase");
      // While it runs, the button stops it and the status says what is done.
      await page.waitForFunction(() => document.getElementById("chase")?.textContent === "Stop");
      await page.waitForFunction(() => /Chasing|Fix-up/.test(document.getElementById("status")?.textContent ?? ""));
      await waitSolved(page, 30_000);
      await page.waitForFunction(() => document.getElementById("chase")?.textContent === "Chase");
      assert.deepEqual(await values(page, 25), board.goal);
      assert.match(await status(page), /Chased to the goal/);
      await artifact(page, "chase-5x5-solved");

      // Chasing is off on a torus (not the plane).
      const torus = await api(server.url, "api/puzzle/2");
      assert.equal(torus.chase, false);
      await choose(page, 2, torus);
      assert.equal(await page.locator("#chase").isDisabled(), true, "no chase on a torus");
    });
  });
});

test("the chase solves the 3-state and the 12-state levels of the level pack", async () => {
  await withPlay(path.join(EXAMPLES, "level-pack.lights"), async (server) => {
    const list = await api(server.url, "api/puzzles");
    await withPage(browser(), server.url, { reducedMotion: "reduce" }, async (page) => {
      for (const name of ["three colours", "clock", "finale"]) {
        const index = list.puzzles.find((p) => p.name === name).index;
        const board = await api(server.url, `api/puzzle/${index}`);
        assert.equal(board.chase, true, `"${name}" can be chased`);
        await choose(page, index, board);
        await page.click("#chase");
        await waitSolved(page, 30_000);
        assert.deepEqual(await values(page, board.lights.length), board.goal, `"${name}" chased to its goal`);
      }
    });
  });
});
