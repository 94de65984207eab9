// Regenerates the screenshots of docs/play.md: plays a few example puzzles
// in headless Chromium (as the tests do) and saves the board area as PNG.
//   node tests/browser/screenshots.mjs            # writes docs/play-*.png
//   node tests/browser/screenshots.mjs --out DIR  # elsewhere
// Needs the binary (LIGHTS_BIN or target/debug/lights) and `npm ci` here.

import { mkdirSync, statSync } from "node:fs";
import path from "node:path";
import { EXAMPLES, FIXTURES, REPO, api, cell, choose, launchBrowser, withPlay } from "./lib.mjs";

const outArg = process.argv.indexOf("--out");
const OUT = outArg > 0 ? path.resolve(process.argv[outArg + 1]) : path.join(REPO, "docs");
mkdirSync(OUT, { recursive: true });

const browser = await launchBrowser();

/** A page in the light theme, without animations (the hint drawn at full strength). */
async function open(url, width = 760, height = 900) {
  const context = await browser.newContext({
    viewport: { width, height },
    colorScheme: "light",
    reducedMotion: "reduce",
    deviceScaleFactor: 1,
  });
  const page = await context.newPage();
  await page.goto(url);
  await page.waitForSelector("svg.board [data-cell]");
  return page;
}

/**
 * Save the smallest area holding every element of `selectors` (the board
 * by default), with a margin of `pad` pixels.
 */
async function shot(page, name, selectors = ["svg.board"], pad = 8) {
  const boxes = [];
  for (const selector of selectors) {
    for (const el of await page.locator(selector).all()) boxes.push(await el.boundingBox());
  }
  const x = Math.max(0, Math.min(...boxes.map((b) => b.x)) - pad);
  const y = Math.max(0, Math.min(...boxes.map((b) => b.y)) - pad);
  const right = Math.max(...boxes.map((b) => b.x + b.width)) + pad;
  const bottom = Math.max(...boxes.map((b) => b.y + b.height)) + pad;
  const clip = { x, y, width: Math.round(right - x), height: Math.round(bottom - y) };
  const file = path.join(OUT, name);
  await page.screenshot({ path: file, clip });
  console.log(`${file}: ${clip.width}×${clip.height}, ${Math.round(statSync(file).size / 1024)} kB`);
}

/** No keyboard focus ring in the picture. */
async function blur(page) {
  await page.evaluate(() => (document.activeElement instanceof HTMLElement || document.activeElement instanceof SVGElement) && document.activeElement.blur());
}

async function hint(page) {
  await page.click("#hint");
  await page.locator("svg.board .cell.hint").waitFor({ state: "attached" });
}

async function followHints(page, n) {
  for (let k = 0; k < n; k++) {
    await hint(page);
    await page.locator("svg.board .cell.hint").click();
  }
}

/** `lights play` on a file of the repository, named relative to it (as the page shows it). */
async function withServer(file, body) {
  await withPlay(path.relative(REPO, file), [], { cwd: REPO }, (server) => body(server.url));
}

try {
  // A level mid-play with a hint shown: the whole 1280×800 window, the board filling it.
  await withServer(path.join(EXAMPLES, "level-pack.lights"), async (url) => {
    const page = await open(`${url}?puzzle=picture%20frame`, 1280, 800);
    await page.evaluate(() => localStorage.setItem(`lights-progress:${document.getElementById("file").textContent}`, JSON.stringify(["first light", "four corners", "far corners"])));
    await page.reload();
    await page.waitForSelector("svg.board [data-cell]");
    await followHints(page, 3);
    await hint(page);
    await page.screenshot({ path: path.join(OUT, "play-5x5.png") });
    console.log(`${path.join(OUT, "play-5x5.png")}: 1280×800`);

    // The win: the presses against the minimum and the next level.
    while (!((await page.locator("#status").textContent()) ?? "").includes("solved!")) await followHints(page, 1);
    await page.locator("#win").waitFor();
    await blur(page);
    await page.screenshot({ path: path.join(OUT, "play-win.png") });
    console.log(`${path.join(OUT, "play-win.png")}: 1280×800`);
    await page.context().close();

    // A phone, 390×844.
    const phone = await open(`${url}?puzzle=picture%20frame`, 390, 844);
    await followHints(phone, 2);
    await blur(phone);
    await phone.screenshot({ path: path.join(OUT, "play-phone.png") });
    console.log(`${path.join(OUT, "play-phone.png")}: 390×844`);
    await phone.context().close();
  });

  // The detail shots: the board at its natural size (Fit off).
  await withServer(path.join(EXAMPLES, "level-pack.lights"), async (url) => {
    const page = await open(url);
    await page.click("#fit");

    // Twelve states: the level pack's clock, a few presses in.
    const list = await api(url, "api/puzzles");
    const index = list.puzzles.find((p) => p.name === "clock").index;
    await choose(page, index, await api(url, `api/puzzle/${index}`));
    await cell(page, 4).click();
    await cell(page, 0).click();
    await blur(page);
    await shot(page, "play-12-states.png", ["svg.board", "#legend > *"]);
    await page.context().close();
  });

  // A torus: the gluing arrows.
  await withServer(path.join(FIXTURES, "boards.lights"), async (url) => {
    const page = await open(`${url}?puzzle=torus%204x4`);
    await page.click("#fit");
    await cell(page, 5).click();
    await hint(page);
    await shot(page, "play-torus.png");
    await page.context().close();
  });

  // Hexagons on a torus, with the minimum solution overlaid.
  await withServer(path.join(EXAMPLES, "shapes.lights"), async (url) => {
    const page = await open(`${url}?puzzle=hex%20torus`);
    await page.click("#fit");
    await cell(page, 9).click();
    await blur(page);
    await page.click("#solution");
    await page.locator("svg.board .solution-count").first().waitFor();
    await shot(page, "play-hex.png");
    await page.context().close();
  });

  // A graph: the Petersen graph, σ+.
  await withServer(path.join(EXAMPLES, "graphs.lights"), async (url) => {
    const page = await open(`${url}?puzzle=petersen%20sigma%20plus`);
    await page.click("#fit");
    await cell(page, 0).click();
    await hint(page);
    await shot(page, "play-graph.png");
    await page.context().close();
  });
} finally {
  await browser.close();
}
