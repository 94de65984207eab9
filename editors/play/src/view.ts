// The board drawn as SVG: one <g class="cell"> per cell (square, hexagon or
// graph node), the surface's gluing as arrows on the borders, state numbers,
// locks, the goal, and the hint / solution overlays. It knows nothing about
// the game: the controller calls update() with a position and gets
// onActivate(cell, backwards) back from clicks and keys.
//
// SVG, one element per cell, because it stays fast enough at 100×100 (see
// docs/play.md, "SVG, measured") and gives every cell a DOM node: focus, roving
// tabindex, aria labels and test hooks come for free. Only changed cells are
// touched on a press.

import { GAP, Geometry, geometry, PITCH, showsNumbers, stateColour, textColour } from "./geometry";
import type { CellGeometry, NumbersMode } from "./geometry";
import type { BoardData } from "./protocol";

export { geometry, paletteSlot, PALETTE_SLOTS, showsNumbers, stateColour, textColour } from "./geometry";
export type { CellGeometry, Geometry, NumbersMode } from "./geometry";

const SVG_NS = "http://www.w3.org/2000/svg";

const f1 = (x: number) => (Math.round(x * 10) / 10).toString();

function hexPoints(x: number, y: number, r: number): string {
  const R = (r * 2) / Math.sqrt(3) - GAP * 0.6;
  const pts: string[] = [];
  for (let k = 0; k < 6; k++) {
    const a = (Math.PI / 180) * (60 * k - 90);
    pts.push(`${f1(x + R * Math.cos(a))},${f1(y + R * Math.sin(a))}`);
  }
  return pts.join(" ");
}

/** The SVG of a cell's outline, with a class and a fill. */
function shapeMarkup(kind: Geometry["kind"], g: CellGeometry, cls: string, fill: string): string {
  const attrs = `class="${cls}" fill="${fill}"`;
  if (kind === "graph") return `<circle ${attrs} cx="${f1(g.x)}" cy="${f1(g.y)}" r="${f1(g.r)}"/>`;
  if (kind === "hex") return `<polygon ${attrs} points="${hexPoints(g.x, g.y, g.r)}"/>`;
  const s = PITCH - GAP;
  return `<rect ${attrs} x="${f1(g.x - s / 2)}" y="${f1(g.y - s / 2)}" width="${s}" height="${s}" rx="4"/>`;
}

export function escapeXml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

function fontSize(r: number, text: string): number {
  return Math.max(5, Math.min(r * 0.95, (r * 1.7) / (0.62 * Math.max(1, text.length))));
}

// ---------------------------------------------------------------- gluing arrows

const GLUE_COLOURS = { columns: "#4fc3f7", rows: "#f48fb1" } as const;

/** A chevron (or two) pointing along (dx, dy) at (x, y). */
function chevrons(x: number, y: number, dx: number, dy: number, count: number): string {
  const size = 7;
  const px = -dy;
  const py = dx;
  let d = "";
  for (let k = 0; k < count; k++) {
    const ox = x + dx * (k * 7 - (count - 1) * 3.5);
    const oy = y + dy * (k * 7 - (count - 1) * 3.5);
    const tipX = ox + dx * size * 0.6;
    const tipY = oy + dy * size * 0.6;
    d += `M${f1(tipX - dx * size + px * size * 0.7)},${f1(tipY - dy * size + py * size * 0.7)}L${f1(tipX)},${f1(tipY)}L${f1(tipX - dx * size - px * size * 0.7)},${f1(tipY - dy * size - py * size * 0.7)}`;
  }
  return d;
}

/**
 * The arrows of a glued surface: left/right borders (`columns`) with one
 * chevron, top/bottom (`rows`) with two, as topology books draw them. Glued
 * borders point the same way, twisted ones opposite ways.
 */
export function gluingMarkup(board: Pick<BoardData, "gluing" | "topology">, frame: NonNullable<Geometry["frame"]>): string {
  const out: string[] = [];
  const off = 11;
  const { x0, y0, x1, y1 } = frame;
  const edge = (
    pair: "columns" | "rows",
    side: "left" | "right" | "top" | "bottom",
    gluing: string,
    ax: number,
    ay: number,
    bx: number,
    by: number,
    forward: boolean,
  ) => {
    const len = Math.hypot(bx - ax, by - ay) || 1;
    let dx = (bx - ax) / len;
    let dy = (by - ay) / len;
    if (!forward) {
      dx = -dx;
      dy = -dy;
    }
    const colour = GLUE_COLOURS[pair];
    const what = pair === "columns" ? "left and right borders" : "top and bottom borders";
    const how = gluing === "twisted" ? "glued with a twist (arrows point opposite ways)" : "glued (arrows point the same way)";
    out.push(
      `<g class="glue-arrow glue-${pair}" data-gluing="${gluing}" data-edge="${side}" data-pair="${pair}">` +
        `<title>${escapeXml(`${board.topology}: the ${what} are ${how}`)}</title>` +
        `<line x1="${f1(ax)}" y1="${f1(ay)}" x2="${f1(bx)}" y2="${f1(by)}" stroke="${colour}"/>` +
        `<path d="${chevrons((ax + bx) / 2, (ay + by) / 2, dx, dy, pair === "columns" ? 1 : 2)}" stroke="${colour}"/>` +
        `</g>`,
    );
  };
  const cols = board.gluing.columns;
  if (cols === "glued" || cols === "twisted") {
    edge("columns", "left", cols, x0 - off, y0, x0 - off, y1, true);
    edge("columns", "right", cols, x1 + off, y0, x1 + off, y1, cols === "glued");
  }
  const rows = board.gluing.rows;
  if (rows === "glued" || rows === "twisted") {
    edge("rows", "top", rows, x0, y0 - off, x1, y0 - off, true);
    edge("rows", "bottom", rows, x0, y1 + off, x1, y1 + off, rows === "glued");
  }
  return out.join("");
}

// ---------------------------------------------------------------- the view

export interface ViewCallbacks {
  /** A cell was clicked or activated by key; `backwards`: right-click or Shift. */
  onActivate(cell: number, backwards: boolean): void;
}

export interface Overlay {
  hint?: number;
  solution?: readonly number[] | null;
}

export class BoardView {
  readonly svg: SVGSVGElement;
  private board: BoardData | undefined;
  private geom: Geometry | undefined;
  private elements: (SVGGElement | undefined)[] = [];
  private shown: number[] = [];
  private numbers = false;
  private focusIndex = -1;
  private hint: number | undefined;
  private solutionCells: number[] = [];

  constructor(
    private readonly container: HTMLElement,
    private readonly callbacks: ViewCallbacks,
  ) {
    this.svg = document.createElementNS(SVG_NS, "svg");
    this.svg.setAttribute("class", "board");
    this.svg.setAttribute("role", "group");
    container.appendChild(this.svg);
    this.svg.addEventListener("click", (e) => this.activate(e, e.shiftKey));
    this.svg.addEventListener("contextmenu", (e) => {
      if (this.cellOf(e.target) !== undefined) e.preventDefault();
      this.activate(e, true);
    });
    this.svg.addEventListener("keydown", (e) => this.key(e));
  }

  private cellOf(target: EventTarget | null): number | undefined {
    const el = (target as Element | null)?.closest?.("[data-cell]");
    if (!el) return undefined;
    const i = Number(el.getAttribute("data-cell"));
    return Number.isInteger(i) ? i : undefined;
  }

  private activate(e: MouseEvent, backwards: boolean): void {
    const cell = this.cellOf(e.target);
    if (cell === undefined) return;
    this.moveFocus(cell, true);
    this.callbacks.onActivate(cell, backwards);
  }

  private key(e: KeyboardEvent): void {
    const cell = this.cellOf(e.target);
    if (cell === undefined || this.geom === undefined || this.board === undefined) return;
    if (e.key === "Enter" || e.key === " ") {
      e.preventDefault();
      this.callbacks.onActivate(cell, e.shiftKey);
      return;
    }
    const next = this.neighbour(cell, e.key);
    if (next !== undefined) {
      e.preventDefault();
      this.moveFocus(next, true);
    }
  }

  /** The cell an arrow key (or Home/End) goes to from `cell`, skipping holes. */
  private neighbour(cell: number, key: string): number | undefined {
    const cells = this.geom!.cells;
    const present = (i: number) => i >= 0 && i < cells.length && cells[i] !== undefined;
    if (key === "Home" || key === "End") {
      const order = [...cells.keys()].filter(present);
      return key === "Home" ? order[0] : order[order.length - 1];
    }
    const { cols } = this.board!;
    const g = cells[cell]!;
    if (this.geom!.kind === "graph") {
      let step: number;
      if (key === "ArrowRight" || key === "ArrowDown") step = 1;
      else if (key === "ArrowLeft" || key === "ArrowUp") step = -1;
      else return undefined;
      for (let i = cell + step; i >= 0 && i < cells.length; i += step) if (present(i)) return i;
      return undefined;
    }
    let dr = 0;
    let dc = 0;
    if (key === "ArrowRight") dc = 1;
    else if (key === "ArrowLeft") dc = -1;
    else if (key === "ArrowDown") dr = 1;
    else if (key === "ArrowUp") dr = -1;
    else return undefined;
    for (let r = g.row + dr, c = g.col + dc; r >= 0 && r < this.board!.rows && c >= 0 && c < cols; r += dr, c += dc) {
      const i = r * cols + c;
      if (present(i)) return i;
    }
    return undefined;
  }

  /** Make `cell` the one focusable cell (roving tabindex); focus it when `focus`. */
  moveFocus(cell: number, focus: boolean): void {
    const el = this.elements[cell];
    if (el === undefined) return;
    const old = this.elements[this.focusIndex];
    if (old !== undefined && old !== el) old.setAttribute("tabindex", "-1");
    el.setAttribute("tabindex", "0");
    this.focusIndex = cell;
    if (focus) el.focus();
  }

  get focused(): number {
    return this.focusIndex;
  }

  cellElement(cell: number): SVGGElement | undefined {
    return this.elements[cell];
  }

  /**
   * The win moment: a wave of light across the board from its top-left corner
   * (CSS animation `celebrate`; none under prefers-reduced-motion).
   */
  celebrate(): void {
    const geom = this.geom;
    if (geom === undefined) return;
    let far = 1;
    for (const c of geom.cells) if (c) far = Math.max(far, c.x + c.y);
    this.elements.forEach((el, i) => {
      const c = geom.cells[i];
      if (el && c) el.style.setProperty("--wave", String(((c.x + c.y) / far).toFixed(3)));
    });
    this.svg.classList.remove("won");
    // Restart the animation when a level is won twice in a row.
    void this.svg.getBoundingClientRect();
    this.svg.classList.add("won");
  }

  /** Draw a new board at position `lights`. */
  setBoard(board: BoardData, lights: readonly number[], mode: NumbersMode): void {
    this.board = board;
    const geom = geometry(board);
    this.geom = geom;
    this.numbers = showsNumbers(mode, board.states);
    this.hint = undefined;
    this.solutionCells = [];
    const parts: string[] = [
      `<defs><pattern id="lights-hatch" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">` +
        `<line x1="0" y1="0" x2="0" y2="6" class="hatch-line"/></pattern></defs>`,
    ];
    if (geom.frame !== null) {
      const { x0, y0, x1, y1 } = geom.frame;
      parts.push(`<rect class="frame" x="${f1(x0 - 3)}" y="${f1(y0 - 3)}" width="${f1(x1 - x0 + 6)}" height="${f1(y1 - y0 + 6)}" rx="6"/>`);
      parts.push(gluingMarkup(board, geom.frame));
    }
    if (geom.kind === "graph" && board.graph !== null) {
      parts.push(`<g class="edges">`);
      const dashed = board.graph.dashed ?? [];
      board.graph.edges.forEach(([a, b], k) => {
        const p = geom.cells[a];
        const q = geom.cells[b];
        // Dashed: the edges `lights render` dashes (a cube's surface: faces apart in the net).
        const cls = dashed[k] === true ? "edge dashed" : "edge";
        if (p && q) parts.push(`<line class="${cls}" x1="${f1(p.x)}" y1="${f1(p.y)}" x2="${f1(q.x)}" y2="${f1(q.y)}"/>`);
      });
      parts.push(`</g>`);
    }
    parts.push(`<g class="cells">`);
    geom.cells.forEach((g, i) => {
      if (g !== undefined) parts.push(this.cellMarkup(board, geom.kind, g, i, lights[i] ?? 0));
    });
    parts.push(`</g>`);
    this.svg.setAttribute("viewBox", `0 0 ${f1(geom.width)} ${f1(geom.height)}`);
    // Fitted to the window, the board sits at the top of its box (the space left is below).
    this.svg.setAttribute("preserveAspectRatio", "xMidYMin meet");
    // Natural size: about 56 px a cell, scaled down by CSS (max-width) to fit.
    const scale = 56 / PITCH;
    this.svg.setAttribute("width", f1(geom.width * scale));
    this.svg.setAttribute("height", f1(geom.height * scale));
    this.svg.setAttribute("aria-label", `${board.name}: ${board.rows}×${board.cols} ${board.shape} board, ${board.states} states`);
    this.svg.classList.toggle("graph", geom.kind === "graph");
    this.svg.classList.remove("won");
    this.svg.innerHTML = parts.join("");
    this.elements = new Array(geom.cells.length);
    for (const el of Array.from(this.svg.querySelectorAll<SVGGElement>("g[data-cell]"))) {
      this.elements[Number(el.getAttribute("data-cell"))] = el;
    }
    this.shown = lights.slice();
    const first = geom.cells.findIndex((g) => g !== undefined);
    this.focusIndex = -1;
    if (first >= 0) this.moveFocus(first, false);
  }

  private label(board: BoardData, i: number, v: number): string {
    const where = board.shape === "graph" ? `node ${board.labels[i] ?? i + 1}` : `cell ${board.labels[i] ?? i}`;
    const lock = board.locked[i] ? ", locked" : "";
    return `${where}: ${v}, goal ${board.goal[i] ?? 0}${lock}`;
  }

  private cellMarkup(board: BoardData, kind: Geometry["kind"], g: CellGeometry, i: number, v: number): string {
    const fill = stateColour(v, board.states, board.palette);
    const goal = board.goal[i] ?? 0;
    const locked = board.locked[i] === true;
    const attrs = [
      `class="cell${locked ? " locked" : ""}"`,
      `data-cell="${i}"`,
      `data-value="${v}"`,
      `data-goal="${goal}"`,
      locked ? `data-locked="true"` : "",
      `tabindex="-1"`,
      `role="button"`,
      `aria-label="${escapeXml(this.label(board, i, v))}"`,
    ].filter((a) => a !== "");
    let inner = shapeMarkup(kind, g, "shape", fill);
    if (locked) inner += shapeMarkup(kind, g, "lock-mark", "url(#lights-hatch)");
    // The goal: a small dot in the corner, shown with "show goal".
    const gr = Math.max(2.5, g.r * 0.22);
    const gx = kind === "graph" ? g.x + g.r * 0.7 : g.x + g.r * 0.55;
    const gy = kind === "graph" ? g.y + g.r * 0.7 : g.y + g.r * 0.55;
    inner += `<circle class="goal-mark" cx="${f1(gx)}" cy="${f1(gy)}" r="${f1(gr)}" fill="${stateColour(goal, board.states, board.palette)}"/>`;
    if (kind === "graph") {
      const label = board.labels[i] ?? String(i + 1);
      if (this.numbers) {
        inner += `<text class="node-label" x="${f1(g.x - g.r * 0.8)}" y="${f1(g.y - g.r * 0.8)}" font-size="${f1(Math.max(6, g.r * 0.6))}">${escapeXml(label)}</text>`;
      } else {
        inner += `<text class="node-label inside" x="${f1(g.x)}" y="${f1(g.y)}" font-size="${f1(fontSize(g.r, label))}" fill="${textColour(fill)}">${escapeXml(label)}</text>`;
      }
    }
    if (this.numbers) {
      const text = String(v);
      inner += `<text class="cell-number" x="${f1(g.x)}" y="${f1(g.y)}" font-size="${f1(fontSize(g.r, text))}" fill="${textColour(fill)}">${text}</text>`;
    }
    return `<g ${attrs.join(" ")}>${inner}</g>`;
  }

  /** Show position `lights`: only the cells that changed are touched. */
  update(lights: readonly number[]): void {
    const board = this.board;
    if (board === undefined) return;
    for (let i = 0; i < lights.length; i++) {
      const v = lights[i] ?? 0;
      if (v === this.shown[i]) continue;
      this.shown[i] = v;
      const el = this.elements[i];
      if (el === undefined) continue;
      const fill = stateColour(v, board.states, board.palette);
      el.setAttribute("data-value", String(v));
      el.setAttribute("aria-label", this.label(board, i, v));
      el.querySelector(".shape")?.setAttribute("fill", fill);
      const number = el.querySelector(".cell-number");
      if (number !== null) {
        number.textContent = String(v);
        number.setAttribute("fill", textColour(fill));
        const g = this.geom!.cells[i]!;
        number.setAttribute("font-size", f1(fontSize(g.r, String(v))));
      }
      el.querySelector(".node-label.inside")?.setAttribute("fill", textColour(fill));
    }
  }

  /** Flash a cell briefly (animated presses). */
  flash(cell: number): void {
    const el = this.elements[cell];
    if (el === undefined) return;
    el.classList.remove("flash");
    // Restart the animation.
    void el.getBoundingClientRect();
    el.classList.add("flash");
  }

  setOverlay(overlay: Overlay): void {
    if (this.hint !== overlay.hint) {
      if (this.hint !== undefined) this.elements[this.hint]?.classList.remove("hint");
      this.hint = overlay.hint;
      if (this.hint !== undefined) this.elements[this.hint]?.classList.add("hint");
    }
    for (const i of this.solutionCells) {
      const el = this.elements[i];
      el?.classList.remove("in-solution");
      el?.querySelector(".solution-count")?.remove();
    }
    this.solutionCells = [];
    const solution = overlay.solution;
    if (solution && this.geom) {
      solution.forEach((n, i) => {
        const el = this.elements[i];
        const g = this.geom!.cells[i];
        if (n <= 0 || el === undefined || g === undefined) return;
        this.solutionCells.push(i);
        el.classList.add("in-solution");
        const t = document.createElementNS(SVG_NS, "text");
        t.setAttribute("class", "solution-count");
        const k = this.geom!.kind === "graph" ? 0.75 : 0.62;
        t.setAttribute("x", f1(g.x - g.r * k));
        t.setAttribute("y", f1(g.y - g.r * k));
        t.setAttribute("font-size", f1(Math.max(6, g.r * 0.55)));
        t.textContent = `×${n}`;
        el.appendChild(t);
      });
    }
  }

  setShowGoal(show: boolean): void {
    this.svg.classList.toggle("show-goal", show);
  }

  setEditing(editing: boolean): void {
    this.svg.classList.toggle("editing", editing);
  }

  clear(): void {
    this.board = undefined;
    this.geom = undefined;
    this.elements = [];
    this.svg.innerHTML = "";
    this.svg.removeAttribute("viewBox");
  }

  get element(): HTMLElement {
    return this.container;
  }
}
