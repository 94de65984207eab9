// What the board shows: gluing arrows on glued borders (same direction for
// a plain gluing, opposite for a twisted one) and none on the plane; state
// numbers equal to the lights on a 12-state board.

import { test } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import {
  EXAMPLES, FIXTURES, api, artifact, cell, sharedBrowser, press, values, withPage, withPlay,
} from "../lib.mjs";

const browser = sharedBrowser();

/**
 * The arrows drawn: per border (`left`, `right`, `top`, `bottom`) its
 * gluing and the direction its first chevron points along the border
 * (+1 down / right, −1 up / left), read from the path's first two points.
 */
async function arrows(page) {
  return page.$$eval("svg.board .glue-arrow", (els) =>
    els.map((g) => {
      const d = g.querySelector("path")?.getAttribute("d") ?? "";
      const [x0, y0, x1, y1] = (/M([-\d.]+),([-\d.]+)L([-\d.]+),([-\d.]+)/.exec(d) ?? []).slice(1).map(Number);
      const pair = g.getAttribute("data-pair");
      const along = pair === "columns" ? y1 - y0 : x1 - x0;
      return { edge: g.getAttribute("data-edge"), pair, gluing: g.getAttribute("data-gluing"), direction: Math.sign(along) };
    }),
  );
}

/** The arrows a board's `gluing` calls for: both borders of each glued pair, twisted ones opposite. */
function checkArrows(shown, board) {
  const byEdge = Object.fromEntries(shown.map((a) => [a.edge, a]));
  assert.equal(shown.length, Object.keys(byEdge).length, "one arrow per border");
  for (const [pair, [a, b]] of [["columns", ["left", "right"]], ["rows", ["top", "bottom"]]]) {
    const gluing = board.gluing[pair];
    if (gluing === "open") {
      assert.equal(byEdge[a], undefined, `${board.topology}: no arrow on the open ${a} border`);
      assert.equal(byEdge[b], undefined, `${board.topology}: no arrow on the open ${b} border`);
      continue;
    }
    for (const edge of [a, b]) {
      assert.equal(byEdge[edge]?.gluing, gluing, `${board.topology}: the ${edge} border is ${gluing}`);
      assert.equal(byEdge[edge]?.pair, pair);
      assert.notEqual(byEdge[edge]?.direction, 0, `${board.topology}: the ${edge} arrow points along its border`);
    }
    const same = byEdge[a].direction === byEdge[b].direction;
    assert.equal(same, gluing === "glued", `${board.topology}: the ${a}/${b} arrows point ${gluing === "glued" ? "the same way" : "opposite ways"}`);
  }
}

test("gluing arrows: none on the plane, glued on a torus, glued and twisted on a Klein bottle", async () => {
  await withPlay(path.join(FIXTURES, "boards.lights"), async (server) => {
    await withPage(browser(), `${server.url}?puzzle=0`, async (page) => {
      assert.equal((await api(server.url, "api/puzzle/0")).topology, "plane");
      assert.deepEqual(await arrows(page), [], "a plane has no gluing arrows");
    });

    const torus = await api(server.url, "api/puzzle/2");
    assert.equal(torus.topology, "torus");
    await withPage(browser(), `${server.url}?puzzle=2`, async (p2) => {
      const shown = await arrows(p2);
      assert.equal(shown.length, 4);
      assert.ok(shown.every((a) => a.gluing === "glued"), "a torus has only glued arrows");
      checkArrows(shown, torus);
      // A torus presses across the borders: the corner's pattern wraps.
      assert.deepEqual(torus.presses[0].map(([t]) => t), [0, 1, 3, 4, 12]);
      let expected = torus.lights.slice();
      for (const i of [0, 15, 5]) {
        await cell(p2, i).click();
        expected = press(expected, torus.presses, torus.states, i);
        assert.deepEqual(await values(p2, 16), expected, `torus: after pressing ${i}`);
      }
      await artifact(p2, "surface-torus");
    });

    const klein = await api(server.url, "api/puzzle/3");
    assert.equal(klein.topology, "klein");
    assert.deepEqual(klein.gluing, { columns: "glued", rows: "twisted" });
    await withPage(browser(), `${server.url}?puzzle=3`, async (p3) => {
      const kshown = await arrows(p3);
      assert.ok(kshown.some((a) => a.gluing === "glued") && kshown.some((a) => a.gluing === "twisted"), "a Klein bottle has both");
      checkArrows(kshown, klein);
      await artifact(p3, "surface-klein");
    });
  });
});

test("gluing arrows of the cylinder, Möbius and projective examples follow their gluing", async () => {
  for (const name of ["cylinder", "mobius", "projective"]) {
    await withPlay(path.join(EXAMPLES, `${name}.lights`), async (server) => {
      const board = await api(server.url, "api/puzzle/0");
      assert.equal(board.topology, name);
      await withPage(browser(), server.url, async (page) => {
        const shown = await arrows(page);
        assert.ok(shown.length >= 2, `${name}: arrows are drawn`);
        checkArrows(shown, board);
      });
    });
  }
});

test("a 12-state board shows each light's number, 10 and 11 included", async () => {
  await withPlay(path.join(FIXTURES, "boards.lights"), async (server) => {
    const board = await api(server.url, "api/puzzle/4");
    assert.equal(board.states, 12);
    await withPage(browser(), `${server.url}?puzzle=4`, async (page) => {
      const n = board.lights.length;
      const numbers = () =>
        page.$$eval("svg.board [data-cell]", (els) => els.map((e) => e.querySelector(".cell-number")?.textContent ?? null));
      const check = async (what) => {
        const v = await values(page, n);
        assert.deepEqual((await numbers()).map(Number), v, `${what}: the numbers are the lights`);
        return v;
      };
      let shown = await check("at the start");
      assert.ok(shown.includes(10) && shown.includes(11) && shown.includes(0), "10, 11 and 0 are on the board");
      let expected = board.lights.slice();
      for (const i of [1, 6, 6, 11]) {
        await cell(page, i).click();
        expected = press(expected, board.presses, 12, i);
      }
      await cell(page, 2).click({ button: "right" });
      expected = press(expected, board.presses, 12, 2, 11);
      shown = await check("after presses (11 → 0, 10 → 11 …)");
      assert.deepEqual(shown, expected);
      await artifact(page, "numbers-12-states");

      // The numbers menu: never hides them, always shows them on two states too.
      await page.selectOption("#numbers", "never");
      assert.equal(await page.locator("svg.board .cell-number").count(), 0, "numbers: never");
      await page.selectOption("#numbers", "auto");
      assert.equal(await page.locator("svg.board .cell-number").count(), n, "numbers: auto on 12 states");
      await page.selectOption("#puzzle", "0");
      await page.waitForFunction(() => document.querySelectorAll("svg.board [data-cell]").length === 25);
      assert.equal(await page.locator("svg.board .cell-number").count(), 0, "no numbers on two states by default");
      await page.selectOption("#numbers", "always");
      assert.deepEqual((await numbers()).map(Number), await values(page, 25), "numbers: always on two states");
    });
  });
});
