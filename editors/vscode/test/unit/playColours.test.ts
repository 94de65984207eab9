// The play view colours a state from the board's palette (the tool's one
// colour scheme, shared with `lights render`) and draws a graph from the
// tool's drawing (node radius, dashed edges).

import { describe, expect, it } from "vitest";

import { geometry, paletteSlot, PALETTE_SLOTS, stateColour } from "../../../play/src/geometry";

describe("state colours", () => {
  it("take state v's colour from the palette up to 1,024 states", () => {
    const palette = ["#1f2433", "#552c8a", "#c84578", "#ffd84d"];
    for (let v = 0; v < 4; v++) expect(stateColour(v, 4, palette)).toBe(palette[v]);
  });

  it("spread many states over the slots, keeping the two ends", () => {
    for (const w of [1025, 1026, 5000, 65536]) {
      expect(paletteSlot(0, w)).toBe(0);
      expect(paletteSlot(w - 1, w)).toBe(PALETTE_SLOTS - 1);
      let last = 1;
      for (const v of [1, 2, 3, Math.floor(w / 2), w - 3, w - 2]) {
        const s = paletteSlot(v, w);
        expect(s).toBeGreaterThanOrEqual(last);
        expect(s).toBeGreaterThanOrEqual(1);
        expect(s).toBeLessThanOrEqual(PALETTE_SLOTS - 2);
        last = s;
      }
    }
    // The tool's `slot` (crates/compiler/src/palette.rs) at W = 5000: 1 + (v − 1)·1022 / 4998.
    expect(paletteSlot(2500, 5000)).toBe(1 + Math.floor((2499 * 1022) / 4998));
  });
});

describe("graph geometry", () => {
  const graph = (radius: number) => ({
    shape: "graph" as const,
    rows: 1,
    cols: 3,
    holes: [false, false, false],
    graph: {
      edges: [
        [0, 1],
        [1, 2],
      ] as [number, number][],
      layout: [
        [0.1, 0.5],
        [0.5, 0.5],
        [0.9, 0.5],
      ] as [number, number][],
      dashed: [false, true],
      node_radius: radius,
    },
  });

  it("draws nodes no larger than the tool's radius allows", () => {
    const g = geometry(graph(0.01));
    const [a, b] = [g.cells[0]!, g.cells[1]!];
    const unit = (b.x - a.x) / 0.4;
    expect(a.r).toBeLessThanOrEqual(0.01 * unit + 1e-9);
    expect(Math.hypot(b.x - a.x, b.y - a.y)).toBeGreaterThanOrEqual(2 * a.r);
  });

  it("grows a dense drawing so that nodes stay readable", () => {
    const g = geometry(graph(0.001));
    expect(g.cells[0]!.r).toBeGreaterThanOrEqual(5.99);
  });
});
