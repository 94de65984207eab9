// Pressing on a 5×5 cross board: every cell's value after each click,
// right-click (W−1 presses), undo/redo, the keyboard, and the hint against
// the tool's own minimum solution.

import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import {
  FIXTURES, api, artifact, cell, choose, sharedBrowser, press, pressCount, startPlay, status, values, withPage,
} from "../lib.mjs";

const FILE = path.join(FIXTURES, "boards.lights");
const browser = sharedBrowser();
let server;

before(async () => {
  server = await startPlay(FILE);
});

after(async () => {
  await server?.stop();
});

/** The cross on the plane, computed here: the tool's patterns must be it. */
function cross(rows, cols, i) {
  const r = Math.floor(i / cols);
  const c = i % cols;
  const out = [];
  for (const [dr, dc] of [[-1, 0], [0, -1], [0, 0], [0, 1], [1, 0]]) {
    const rr = r + dr;
    const cc = c + dc;
    if (rr >= 0 && rr < rows && cc >= 0 && cc < cols) out.push([rr * cols + cc, 1]);
  }
  return out.sort((a, b) => a[0] - b[0]);
}

test("clicks on a 5×5 cross board press as the tool's own patterns say", async () => {
  const board = await api(server.url, "api/puzzle/0");
  assert.equal(board.name, "all on 5x5");
  assert.equal(board.rows * board.cols, 25);
  // The served patterns are the plain cross (so the simulation below is not circular).
  board.presses.forEach((p, i) => assert.deepEqual(p, cross(5, 5, i), `press pattern of cell ${i}`));

  await withPage(browser(), server.url, async (page) => {
    let expected = board.lights.slice();
    assert.deepEqual(await values(page, 25), expected, "the start position");
    const clicks = [12, 0, 4, 7, 12, 24, 18, 3];
    for (const [n, i] of clicks.entries()) {
      await cell(page, i).click();
      expected = press(expected, board.presses, board.states, i);
      assert.deepEqual(await values(page, 25), expected, `after clicking cell ${i}`);
      assert.equal(await pressCount(page), n + 1, "the press counter");
    }
    await artifact(page, "press-5x5");

    // Undo twice, redo once: the values go back and forth.
    const history = [board.lights.slice()];
    for (const i of clicks) history.push(press(history[history.length - 1], board.presses, board.states, i));
    await page.click("#undo");
    assert.deepEqual(await values(page, 25), history[clicks.length - 1], "after one undo");
    await page.click("#undo");
    assert.deepEqual(await values(page, 25), history[clicks.length - 2], "after two undos");
    assert.equal(await pressCount(page), clicks.length - 2);
    await page.click("#redo");
    assert.deepEqual(await values(page, 25), history[clicks.length - 1], "after a redo");
    expected = history[clicks.length - 1];

    // The hint is a press of the tool's minimum solution from here, and that
    // minimum, applied with the served patterns, reaches the goal.
    const solve = await api(server.url, "api/puzzle/0/solve", { lights: expected });
    assert.equal(solve.solvable, true);
    const reached = solve.minimum.reduce((l, n, i) => (n > 0 ? press(l, board.presses, board.states, i, n) : l), expected);
    assert.deepEqual(reached, board.goal, "the tool's minimum reaches the goal under its own patterns");
    await page.click("#hint");
    const hinted = page.locator("svg.board .cell.hint");
    await hinted.waitFor({ state: "attached" });
    const h = Number(await hinted.getAttribute("data-cell"));
    assert.ok(solve.minimum[h] > 0, `hinted cell ${h} should be pressed in the minimum ${solve.minimum}`);
    assert.match(await status(page), new RegExp(`\\(${solve.presses} press(es)? to go\\)`), "the hint says how many presses are left");
    assert.equal(await page.evaluate(() => document.activeElement?.getAttribute("data-cell")), String(h), "the hint takes the focus");
    await artifact(page, "press-5x5-hint");

    // Reset: back to the puzzle's lights.
    await page.click("#reset");
    assert.deepEqual(await values(page, 25), board.lights, "after reset");
  });
});

test("keyboard: arrows move the focus, Enter and Space press, u/r/Ctrl+Z undo and redo", async () => {
  const board = await api(server.url, "api/puzzle/0");
  await withPage(browser(), server.url, async (page) => {
    await cell(page, 0).focus();
    const focused = () => page.evaluate(() => Number(document.activeElement?.getAttribute("data-cell")));
    assert.equal(await focused(), 0);
    await page.keyboard.press("ArrowRight");
    await page.keyboard.press("ArrowRight");
    await page.keyboard.press("ArrowDown");
    assert.equal(await focused(), 7, "right, right, down from 1,1 is 2,3");
    await page.keyboard.press("ArrowLeft");
    await page.keyboard.press("ArrowLeft");
    await page.keyboard.press("ArrowLeft"); // stops at the border
    assert.equal(await focused(), 5);
    await page.keyboard.press("ArrowUp");
    await page.keyboard.press("ArrowUp");
    assert.equal(await focused(), 0, "up stops at the top");
    await page.keyboard.press("End");
    assert.equal(await focused(), 24);
    await page.keyboard.press("Home");
    await page.keyboard.press("ArrowDown");
    await page.keyboard.press("ArrowRight");
    assert.equal(await focused(), 6);
    let expected = press(board.lights, board.presses, 2, 6);
    await page.keyboard.press("Enter");
    assert.deepEqual(await values(page, 25), expected, "Enter presses the focused cell");
    await page.keyboard.press("ArrowRight");
    expected = press(expected, board.presses, 2, 7);
    await page.keyboard.press(" ");
    assert.deepEqual(await values(page, 25), expected, "Space presses too");
    assert.equal(await pressCount(page), 2);
    // Page keys: u undoes, r redoes.
    await page.keyboard.press("u");
    assert.deepEqual(await values(page, 25), press(board.lights, board.presses, 2, 6), "u undoes");
    await page.keyboard.press("r");
    assert.deepEqual(await values(page, 25), expected, "r redoes");
    await page.keyboard.press("Control+z");
    assert.deepEqual(await values(page, 25), press(board.lights, board.presses, 2, 6), "Ctrl+Z undoes");
  });
});

test("right-click and Shift+click press W−1 times on a 3-state board", async () => {
  const board = await api(server.url, "api/puzzle/1");
  assert.equal(board.states, 3);
  await withPage(browser(), `${server.url}?puzzle=three%20states%203x3`, async (page) => {
    assert.deepEqual(await values(page, 9), board.lights, "?puzzle=NAME opens that puzzle");
    let expected = board.lights.slice();
    await cell(page, 4).click({ button: "right" });
    expected = press(expected, board.presses, 3, 4, 2);
    assert.deepEqual(await values(page, 9), expected, "right-click on the centre");
    assert.equal(await pressCount(page), 2, "a right-click counts W−1 presses");
    await cell(page, 4).click();
    assert.deepEqual(await values(page, 9), board.lights, "a click after a right-click on the same cell undoes it");
    await cell(page, 0).click({ modifiers: ["Shift"] });
    expected = press(board.lights, board.presses, 3, 0, 2);
    assert.deepEqual(await values(page, 9), expected, "Shift+click");
    await cell(page, 2).click();
    expected = press(expected, board.presses, 3, 2, 1);
    assert.deepEqual(await values(page, 9), expected, "click");
    await page.click("#undo");
    await page.click("#undo");
    assert.deepEqual(await values(page, 9), board.lights, "undo restores the lights");
    await page.click("#redo");
    assert.deepEqual(await values(page, 9), press(board.lights, board.presses, 3, 0, 2), "redo restores the Shift+click");
    await artifact(page, "press-three-states");

    // The picker: choosing another puzzle draws it and writes ?puzzle=N.
    const torus = await api(server.url, "api/puzzle/2");
    await choose(page, 2, torus);
    assert.deepEqual(await values(page, 16), torus.lights);
    assert.equal(new URL(page.url()).searchParams.get("puzzle"), "2");
  });
});
