// Copies the board view into the extension: editors/play/dist/board.js and
// editors/play/board.css → out/play/ (what the Play webview loads; packaged
// into the .vsix, see .vscodeignore). Run by `npm run bundle`.

import { copyFileSync, mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const extension = join(dirname(fileURLToPath(import.meta.url)), "..");
const play = join(extension, "..", "play");
const media = join(extension, "out", "play");
mkdirSync(media, { recursive: true });
for (const [from, to] of [
  [join(play, "dist", "board.js"), join(media, "board.js")],
  [join(play, "board.css"), join(media, "board.css")],
]) {
  copyFileSync(from, to);
}
console.log("copied the board view into out/play/");
