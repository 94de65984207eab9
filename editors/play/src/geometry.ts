// Where things go and what colour they are, without a DOM: the palette of
// light states (the tool's, sent with the board) and the geometry of cells,
// hexagons and graph nodes. The view (view.ts) draws from these; the unit
// tests check them without a browser.

import type { BoardData } from "./protocol";

export type NumbersMode = "auto" | "always" | "never";

/** Cell pitch, gap between cells and the margin left for the gluing arrows, in SVG units. */
export const PITCH = 40;
export const GAP = 3;
/** The margin around a board with glued borders (room for the arrows) and around a plane board. */
const GLUE_MARGIN = 26;
const PLANE_MARGIN = 8;

// ---------------------------------------------------------------- colours

/** The palette slots W states share (the tool's `lights_compiler::palette`): W up to 1,024. */
export const PALETTE_SLOTS = 1024;

/**
 * The palette slot of state v of W: v itself up to 1,024 states; beyond, 0 and W−1 keep
 * the two ends and the states between spread over the slots between (the tool's `slot`).
 */
export function paletteSlot(v: number, states: number): number {
  if (states <= PALETTE_SLOTS || v === 0) return v;
  if (v >= states - 1) return PALETTE_SLOTS - 1;
  return 1 + Math.floor(((v - 1) * (PALETTE_SLOTS - 2)) / (states - 2));
}

/** The fill of a light at value v of W states, from the board's palette (dark off, yellow fully on). */
export function stateColour(v: number, states: number, palette: readonly string[]): string {
  return palette[paletteSlot(v, states)] ?? (v === 0 ? "#1f2433" : "#ffd84d");
}

/** Black or white, whichever reads better on `fill` (#rrggbb). */
export function textColour(fill: string): string {
  const n = parseInt(fill.slice(1), 16);
  const [r, g, b] = [(n >> 16) & 255, (n >> 8) & 255, n & 255];
  return 0.299 * r + 0.587 * g + 0.114 * b > 150 ? "#111111" : "#ffffff";
}

export function showsNumbers(mode: NumbersMode, states: number): boolean {
  return mode === "always" || (mode === "auto" && states > 2);
}

// ---------------------------------------------------------------- geometry

export interface CellGeometry {
  x: number;
  y: number;
  /** Half the cell's width (square, hexagon) or the node's radius. */
  r: number;
  row: number;
  col: number;
}

export interface Geometry {
  width: number;
  height: number;
  /** Per cell; undefined for holes. */
  cells: (CellGeometry | undefined)[];
  /** The board's frame, where the gluing arrows go (null for a graph). */
  frame: { x0: number; y0: number; x1: number; y1: number } | null;
  kind: "square" | "hex" | "graph";
}

type GeometryInput = Pick<BoardData, "shape" | "rows" | "cols" | "holes" | "graph"> & Partial<Pick<BoardData, "gluing">>;

/** Where each cell goes. Hex boards: pointy-top hexagons, odd (0-based) rows shifted right by half a cell. */
export function geometry(board: GeometryInput): Geometry {
  // Room for the gluing arrows only where a border is glued (a graph: room for its nodes).
  const glued = board.gluing !== undefined && (board.gluing.columns !== "open" || board.gluing.rows !== "open");
  const margin = board.shape === "graph" || glued || board.gluing === undefined ? GLUE_MARGIN : PLANE_MARGIN;
  const { rows, cols } = board;
  const n = board.shape === "graph" ? board.holes.length || cols : rows * cols;
  const cells: (CellGeometry | undefined)[] = new Array(n);
  if (board.shape === "graph" && board.graph !== null) {
    const layout = board.graph.layout;
    // The tool's drawing says how large a node may be (no two touch, no solid edge
    // through a node); the drawing grows until nodes are at least 6 units across the
    // radius, within a bound.
    const radius = board.graph.node_radius > 0 ? board.graph.node_radius : 0.5 / Math.max(1, n);
    const extent = Math.max(PITCH * Math.max(4, 1.7 * Math.sqrt(n)), Math.min(6 / radius, 40000));
    const r = Math.min(PITCH * 0.55, radius * extent);
    for (let i = 0; i < n; i++) {
      if (board.holes[i]) continue;
      const [x, y] = layout[i] ?? [0.5, 0.5];
      cells[i] = { x: margin + r + x * extent, y: margin + r + y * extent, r, row: 0, col: i };
    }
    const size = 2 * margin + 2 * r + extent;
    return { width: size, height: size, cells, frame: null, kind: "graph" };
  }
  if (board.shape === "hex") {
    const R = PITCH / Math.sqrt(3);
    const dy = 1.5 * R;
    for (let row = 0; row < rows; row++) {
      for (let col = 0; col < cols; col++) {
        const i = row * cols + col;
        if (board.holes[i]) continue;
        const x = margin + col * PITCH + PITCH / 2 + (row % 2 === 1 ? PITCH / 2 : 0);
        cells[i] = { x, y: margin + R + row * dy, r: PITCH / 2, row, col };
      }
    }
    const x1 = margin + cols * PITCH + (rows > 1 ? PITCH / 2 : 0);
    const y1 = margin + 2 * R + (rows - 1) * dy;
    return { width: x1 + margin, height: y1 + margin, cells, frame: { x0: margin, y0: margin, x1, y1 }, kind: "hex" };
  }
  for (let row = 0; row < rows; row++) {
    for (let col = 0; col < cols; col++) {
      const i = row * cols + col;
      if (board.holes[i]) continue;
      cells[i] = { x: margin + col * PITCH + PITCH / 2, y: margin + row * PITCH + PITCH / 2, r: PITCH / 2, row, col };
    }
  }
  const x1 = margin + cols * PITCH;
  const y1 = margin + rows * PITCH;
  return { width: x1 + margin, height: y1 + margin, cells, frame: { x0: margin, y0: margin, x1, y1 }, kind: "square" };
}

