// Boards beyond squares: hex boards, holes, graphs (examples/shapes.lights,
// examples/graphs.lights) load, press as the tool's patterns say, and the
// cells a press changes are the ones drawn next to the pressed one.

import { test } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import {
  EXAMPLES, api, artifact, cell, choose, sharedBrowser, press, pressCount, solveByHints, status, values, withHoles,
  withPage, withPlay,
} from "../lib.mjs";

const browser = sharedBrowser();

function indexOf(list, name) {
  const entry = list.puzzles.find((p) => p.name === name);
  assert.ok(entry, `the file has a puzzle "${name}"`);
  return entry.index;
}

/** Click `cells` one by one; after each, every cell's value must match the simulation. */
async function pressAndCompare(page, board, cells) {
  let expected = withHoles(board.lights, board.holes);
  const n = board.lights.length;
  assert.deepEqual(await values(page, n), expected, `"${board.name}": the start position`);
  for (const i of cells) {
    await cell(page, i).click();
    expected = withHoles(press(expected.map((v) => v ?? 0), board.presses, board.states, i), board.holes);
    assert.deepEqual(await values(page, n), expected, `"${board.name}": after pressing ${i}`);
  }
  return expected;
}

/** On-screen centres of the cells, by index. */
async function centres(page) {
  const boxes = await page.$$eval("svg.board [data-cell]", (els) =>
    els.map((e) => {
      const r = e.querySelector(".shape").getBoundingClientRect();
      return [Number(e.getAttribute("data-cell")), r.x + r.width / 2, r.y + r.height / 2, r.width];
    }),
  );
  return new Map(boxes.map(([i, x, y, w]) => [i, { x, y, w }]));
}

test("hex boards: a press changes the cell and the six drawn around it; hints solve one", async () => {
  await withPlay(path.join(EXAMPLES, "shapes.lights"), async (server) => {
    const list = await api(server.url, "api/puzzles");
    const index = indexOf(list, "hex 5x6");
    const board = await api(server.url, `api/puzzle/${index}`);
    assert.equal(board.shape, "hex");
    await withPage(browser(), `${server.url}?puzzle=${index}`, async (page) => {
      assert.equal(await page.locator("svg.board [data-cell] polygon.shape").count(), 30, "30 hexagons");

      // An inner cell's pattern is itself and six neighbours, all drawn next to it.
      const at = await centres(page);
      for (const i of [8, 14, 21]) {
        const targets = board.presses[i].map(([t]) => t);
        assert.equal(targets.length, 7, `inner hex cell ${i} presses 7 cells`);
        const me = at.get(i);
        for (const t of targets) {
          if (t === i) continue;
          const d = Math.hypot(at.get(t).x - me.x, at.get(t).y - me.y);
          assert.ok(d > 0.8 * me.w && d < 1.25 * me.w, `cell ${t}, pressed with ${i}, is drawn next to it (${d.toFixed(1)} px, cell ${me.w.toFixed(1)} px)`);
        }
      }
      await pressAndCompare(page, board, [8, 0, 29, 14, 6]);
      await artifact(page, "shape-hex-pressed");
      await page.click("#reset");
      const n = await solveByHints(page, server.url, index, board);
      assert.equal(n, board.report.presses, "the hints take the minimum");
      assert.deepEqual(await values(page, 30), board.goal);
    });
  });
});

test("holes have no cell and presses skip them; the goal is shown", async () => {
  await withPlay(path.join(EXAMPLES, "shapes.lights"), async (server) => {
    const list = await api(server.url, "api/puzzles");
    const donut = await api(server.url, `api/puzzle/${indexOf(list, "donut")}`);
    await withPage(browser(), `${server.url}?puzzle=donut`, async (page) => {
      assert.equal(await page.locator("svg.board [data-cell]").count(), 24, "the hole has no element");
      assert.equal(await page.locator('svg.board [data-cell="12"]').count(), 0);
      await pressAndCompare(page, donut, [7, 11, 13, 17, 0]);

      // "thick plus, three states": a goal, shown by default.
      const index = indexOf(list, "thick plus, three states");
      const plus = await api(server.url, `api/puzzle/${index}`);
      await choose(page, index, plus);
      const goals = await page.$$eval("svg.board [data-cell]", (els) => els.map((e) => [Number(e.dataset.cell), Number(e.dataset.goal)]));
      assert.equal(goals.length, plus.holes.filter((h) => !h).length);
      for (const [i, g] of goals) assert.equal(g, plus.goal[i], `goal of ${i}`);
      assert.equal(await page.locator("#show-goal").getAttribute("aria-pressed"), "true", "a board with a goal shows it");
      assert.equal(await page.locator("svg.board .goal-mark").first().isVisible(), true);
      await page.click("#show-goal");
      assert.equal(await page.locator("svg.board .goal-mark").first().isVisible(), false, "show goal toggles the marks");
      await pressAndCompare(page, plus, [14, 15, 20, 2]);
    });
  });
});

test("graphs: nodes and edges as served, presses as the tool's patterns, a locked node", async () => {
  await withPlay(path.join(EXAMPLES, "graphs.lights"), async (server) => {
    const list = await api(server.url, "api/puzzles");
    const index = indexOf(list, "petersen sigma plus");
    const board = await api(server.url, `api/puzzle/${index}`);
    assert.equal(board.shape, "graph");
    await withPage(browser(), `${server.url}?puzzle=${index}`, async (page) => {
      assert.equal(await page.locator("svg.board [data-cell] circle.shape").count(), 10, "ten nodes");
      assert.equal(await page.locator("svg.board line.edge").count(), board.graph.edges.length, "every edge drawn");
      assert.equal(board.graph.edges.length, 15);
      // σ+: a press changes the node and its three neighbours, the graph's edges.
      for (let i = 0; i < 10; i++) {
        const nbrs = board.graph.edges.filter((e) => e.includes(i)).map(([a, b]) => (a === i ? b : a));
        assert.deepEqual(board.presses[i].map(([t]) => t), [i, ...nbrs].sort((a, b) => a - b), `pattern of node ${i + 1}`);
      }
      await pressAndCompare(page, board, [0, 5, 9, 0]);
      await page.click("#reset");
      const n = await solveByHints(page, server.url, index, board);
      assert.equal(n, board.report.presses);
      await artifact(page, "shape-graph-solved");

      const custom = indexOf(list, "custom graph");
      const cboard = await api(server.url, `api/puzzle/${custom}`);
      await choose(page, custom, cboard);
      await pressAndCompare(page, cboard, [0, 3, 3, 5]);
      const locked = cboard.locked.indexOf(true);
      const before = await values(page, cboard.lights.length);
      const pressesBefore = await pressCount(page);
      await cell(page, locked).click();
      assert.deepEqual(await values(page, cboard.lights.length), before, "a locked node does not press");
      assert.equal(await pressCount(page), pressesBefore);
      assert.match(await status(page), /locked/);
    });
  });
});
