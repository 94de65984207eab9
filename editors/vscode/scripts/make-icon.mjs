// Draws the extension's icons: a 3×3 board whose lit cells form the cross
// that one press leaves on a dark board.
//
//   node scripts/make-icon.mjs        # writes images/icon.png, icon.svg, file-icon.svg
//
// No dependencies: the PNG is rasterised here (4×4 supersampling of rounded
// squares) and encoded with Node's zlib. The output is deterministic, so
// running the script again leaves the committed files unchanged.

import { writeFileSync, mkdirSync } from "node:fs";
import { deflateSync } from "node:zlib";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const images = join(here, "..", "images");

const BACKGROUND = "#161b2b";
const ON = "#ffd84d";
const OFF = "#333b57";
// Off cells of the file icon, which has no background: visible on light and dark themes.
const OFF_BARE = "#7d849c";
const LIT = [
  [false, true, false],
  [true, true, true],
  [false, true, false],
];

/** The shapes of an icon `size` pixels wide: [x, y, w, h, radius, colour]. */
function shapes(size, { background = true } = {}) {
  const off = background ? OFF : OFF_BARE;
  const s = size / 128;
  const out = [];
  if (background) out.push([0, 0, 128 * s, 128 * s, 22 * s, BACKGROUND]);
  const cell = 32 * s;
  const gap = 6 * s;
  const margin = (128 * s - 3 * cell - 2 * gap) / 2;
  for (let r = 0; r < 3; r++) {
    for (let c = 0; c < 3; c++) {
      out.push([margin + c * (cell + gap), margin + r * (cell + gap), cell, cell, 7 * s, LIT[r][c] ? ON : off]);
    }
  }
  return out;
}

function svg(size, options) {
  const rects = shapes(size, options)
    .map(([x, y, w, h, rx, fill]) => `  <rect x="${x}" y="${y}" width="${w}" height="${h}" rx="${rx}" fill="${fill}"/>`)
    .join("\n");
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 ${size} ${size}">\n${rects}\n</svg>\n`;
}

function rgb(hex) {
  return [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
}

/** Is (px, py) inside the rounded rectangle? */
function inside([x, y, w, h, r], px, py) {
  if (px < x || py < y || px > x + w || py > y + h) return false;
  const cx = Math.min(Math.max(px, x + r), x + w - r);
  const cy = Math.min(Math.max(py, y + r), y + h - r);
  return (px - cx) ** 2 + (py - cy) ** 2 <= r * r;
}

function rasterise(size) {
  const list = shapes(size);
  const pixels = Buffer.alloc(size * size * 4);
  const n = 4; // samples per axis
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      // Composite each sample over transparency, then average.
      let [r, g, b, a] = [0, 0, 0, 0];
      for (let sy = 0; sy < n; sy++) {
        for (let sx = 0; sx < n; sx++) {
          const px = x + (sx + 0.5) / n;
          const py = y + (sy + 0.5) / n;
          let top = null;
          for (const shape of list) if (inside(shape, px, py)) top = shape;
          if (top) {
            const [cr, cg, cb] = rgb(top[5]);
            r += cr;
            g += cg;
            b += cb;
            a += 1;
          }
        }
      }
      const i = (y * size + x) * 4;
      if (a > 0) {
        pixels[i] = Math.round(r / a);
        pixels[i + 1] = Math.round(g / a);
        pixels[i + 2] = Math.round(b / a);
      }
      pixels[i + 3] = Math.round((255 * a) / (n * n));
    }
  }
  return pixels;
}

const CRC_TABLE = Array.from({ length: 256 }, (_, k) => {
  let c = k;
  for (let i = 0; i < 8; i++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(buf) {
  let c = 0xffffffff;
  for (const byte of buf) c = CRC_TABLE[(c ^ byte) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type, data) {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, "ascii"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

function png(size) {
  const pixels = rasterise(size);
  const raw = Buffer.alloc(size * (size * 4 + 1));
  for (let y = 0; y < size; y++) {
    raw[y * (size * 4 + 1)] = 0; // filter: none
    pixels.copy(raw, y * (size * 4 + 1) + 1, y * size * 4, (y + 1) * size * 4);
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header[8] = 8; // bit depth
  header[9] = 6; // RGBA
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", deflateSync(raw, { level: 9 })),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

mkdirSync(images, { recursive: true });
writeFileSync(join(images, "icon.png"), png(128));
writeFileSync(join(images, "icon.svg"), svg(128));
// The file icon shows in the explorer at 16 px: no background square.
writeFileSync(join(images, "file-icon.svg"), svg(16, { background: false }));
console.log(`wrote ${join(images, "icon.png")}, icon.svg and file-icon.svg`);
