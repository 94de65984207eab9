// Authoring by playing, and following the file: edit mode changes lights;
// "Write back" writes the position into the file as the puzzle's `lights`
// (through the server, checked against the file's version), or, on a server
// started with --read-only, offers the statement (the text the API gives for
// that position) to copy or download and leaves the file alone; editing the
// file on disk makes the open page reload the new puzzle.

import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { copyFileSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import {
  FIXTURES, api, artifact, cell, sharedBrowser, pressCount, status, values, withPage, withPlay,
} from "../lib.mjs";

const browser = sharedBrowser();
let dir;
before(() => {
  dir = mkdtempSync(path.join(tmpdir(), "lights-browser-"));
});
after(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

function fingerprint(file) {
  const s = statSync(file);
  return { sha: createHash("sha256").update(readFileSync(file)).digest("hex"), mtime: s.mtimeMs, size: s.size };
}

test("write back writes the position into the file, and the page goes on from it", async () => {
  const file = path.join(dir, "write.lights");
  copyFileSync(path.join(FIXTURES, "boards.lights"), file);
  const original = readFileSync(file, "utf8");
  await withPlay(file, async (server) => {
    const board = await api(server.url, "api/puzzle/0");
    await withPage(browser(), server.url, async (page) => {
      await page.click("#edit");
      const expected = board.lights.slice();
      for (const i of [0, 6, 12, 18, 24]) {
        await cell(page, i).click();
        expected[i] = (expected[i] + 1) % board.states;
      }
      const statement = (await api(server.url, "api/puzzle/0/lights", { lights: expected })).text;
      await page.click("#writeback");
      await page.waitForFunction(() => document.getElementById("status")?.textContent?.includes("Wrote the lights of"));
      assert.match(await status(page), /Wrote the lights of "all on 5x5" into /);
      const written = readFileSync(file, "utf8");
      assert.equal(written, original.replace("  lights on", statement), "exactly the puzzle's lights statement changed");
      const now = await api(server.url, "api/puzzle/0");
      assert.ok(now.version > board.version, "the server serves the written text as a new version");
      assert.deepEqual(now.lights, expected, "the puzzle's lights are the written position");
      assert.equal(await page.isVisible("#writeback-panel"), false, "nothing to copy: the file was written");
      // The page's watcher sees the new version and reloads it: its own write is no outside change.
      await page.waitForFunction((v) => document.documentElement.dataset.version === String(v), now.version);
      assert.match(await status(page), /Wrote the lights of "all on 5x5" into /, "the reload of the page's own write keeps the write's message");
      assert.deepEqual(await values(page, 25), expected, "the page goes on from the written position");
    });
  });
});

test("on a --read-only server, edit mode changes lights; write back offers the API's lights text and leaves the file alone", async () => {
  const file = path.join(dir, "edit.lights");
  copyFileSync(path.join(FIXTURES, "boards.lights"), file);
  const before = fingerprint(file);
  await withPlay(file, ["--read-only"], async (server) => {
    const board = await api(server.url, "api/puzzle/0");
    await withPage(browser(), server.url, async (page) => {
      await page.click("#edit");
      assert.equal(await page.locator("#edit").getAttribute("aria-pressed"), "true");
      assert.match(await status(page), /Edit mode/);
      // Clicks change one light each (1 → 0 on this two-state board), no press.
      let expected = board.lights.slice();
      for (const i of [0, 6, 12, 18, 24]) {
        await cell(page, i).click();
        expected[i] = (expected[i] + 1) % board.states;
        assert.deepEqual(await values(page, 25), expected, `edit mode: a click on ${i} changes only that light`);
      }
      await cell(page, 6).click({ button: "right" });
      expected[6] = (expected[6] + board.states - 1) % board.states;
      assert.deepEqual(await values(page, 25), expected, "edit mode: a right-click changes the light down");
      assert.equal(await pressCount(page), 0, "edits are not presses");
      await page.click("#undo");
      expected[6] = (expected[6] + 1) % board.states;
      assert.deepEqual(await values(page, 25), expected, "an edit is undone");

      await page.click("#writeback");
      const area = page.locator("#writeback-text");
      await area.waitFor();
      const text = await area.inputValue();
      const served = await api(server.url, "api/puzzle/0/lights", { lights: expected });
      assert.equal(text, served.text, "the offered text is the API's for the edited position");
      // And it says what was edited, independently of the API.
      assert.equal(
        text,
        "  lights {\n    . 1 1 1 1\n    1 . 1 1 1\n    1 1 . 1 1\n    1 1 1 . 1\n    1 1 1 1 .\n  }",
      );
      await artifact(page, "edit-writeback", { board: false });

      // Download gives the same text (with a final newline).
      const [download] = await Promise.all([page.waitForEvent("download"), page.click("#download")]);
      const saved = path.join(dir, "download.txt");
      await download.saveAs(saved);
      assert.equal(readFileSync(saved, "utf8"), `${text}\n`);
      assert.match(download.suggestedFilename(), /^all-on-5x5-lights\.txt$/);

      // A read-only server never writes the file.
      assert.deepEqual(fingerprint(file), before, "the file on disk is not modified by write back");
      assert.match(await status(page), /--read-only/);

      // Leaving edit mode: clicks press again.
      await page.click("#edit");
      await cell(page, 12).click();
      assert.equal(await pressCount(page), 1);
    });
  });
  assert.deepEqual(fingerprint(file), before, "the file on disk is not modified");
});

test("editing the file on disk reloads the page's puzzle", async () => {
  const file = path.join(dir, "reload.lights");
  copyFileSync(path.join(FIXTURES, "boards.lights"), file);
  await withPlay(file, async (server) => {
    await withPage(browser(), server.url, async (page) => {
      const board = await api(server.url, "api/puzzle/0");
      assert.deepEqual(await values(page, 25), board.lights);
      await cell(page, 12).click();
      assert.equal(await pressCount(page), 1);

      // Paste a new lights statement over `lights on`, as after a write back.
      const lights = "  lights {\n    1 . . . 1\n    . . . . .\n    . . 1 . .\n    . . . . .\n    1 . . . 1\n  }";
      const text = readFileSync(file, "utf8");
      assert.ok(text.includes("  lights on\n"));
      writeFileSync(file, text.replace("  lights on\n", `${lights}\n`));
      const want = [1, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 1];
      const t0 = Date.now();
      await page.waitForFunction(
        (w) => Array.from(document.querySelectorAll("svg.board [data-cell]")).map((e) => e.getAttribute("data-value")).join("") === w,
        want.join(""),
        { timeout: 8_000 },
      );
      console.log(`reloaded after ${Date.now() - t0} ms`);
      assert.match(await status(page), /The file changed: reloaded/);
      assert.equal(await pressCount(page), 0, "a new puzzle starts afresh");
      assert.deepEqual((await api(server.url, "api/puzzle/0")).lights, want);

      // A new puzzle in the file shows up in the picker.
      writeFileSync(file, `${readFileSync(file, "utf8")}\npuzzle "added" {\n  size 2x2\n  lights on\n}\n`);
      await page.waitForFunction(() => document.querySelectorAll("#puzzle option").length === 6, null, { timeout: 8_000 });
      assert.equal(await page.locator("#puzzle option").last().textContent(), "6. added");

      // An error in the file is shown, and the page follows the fix.
      const good = readFileSync(file, "utf8");
      writeFileSync(file, good.replace('puzzle "all on 5x5" {\n  size 5x5', 'puzzle "all on 5x5" {\n  size 5x5\n  rule nonsense'));
      await page.waitForFunction(() => document.querySelectorAll("svg.board [data-cell]").length === 0, null, { timeout: 8_000 });
      assert.equal(await page.locator("#puzzle option").first().textContent(), "1. all on 5x5 (cannot be played)");
      writeFileSync(file, good);
      await page.waitForFunction(() => document.querySelectorAll("svg.board [data-cell]").length === 25, null, { timeout: 8_000 });
      assert.deepEqual(await values(page, 25), want);
    });
  });
});
