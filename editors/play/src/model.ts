// The game without a screen: a position, presses with the tool's patterns
// modulo W, undo/redo, the solved test, and the plans for hints, steps and
// the light chase. No DOM: the unit tests import this file directly.

import type { BoardData, SolveResult } from "./protocol";

/** What the model needs of a board. */
export type Board = Pick<
  BoardData,
  "rows" | "cols" | "states" | "lights" | "goal" | "locked" | "holes" | "presses" | "chase" | "shape"
>;

/** `times` presses of `cell`. */
export interface Press {
  cell: number;
  times: number;
}

export function mod(x: number, w: number): number {
  const r = x % w;
  return r < 0 ? r + w : r;
}

/** Press `cell` `times` times, in place: every target of its pattern gains times × weight, modulo W. */
export function pressInto(board: Board, lights: number[], cell: number, times: number): void {
  const w = board.states;
  for (const [target, weight] of board.presses[cell] ?? []) {
    lights[target] = mod((lights[target] ?? 0) + mod(times, w) * mod(weight, w), w);
  }
}

/** The position after pressing every cell `counts[i]` times. */
export function applyCounts(board: Board, lights: readonly number[], counts: readonly number[]): number[] {
  const out = lights.slice();
  counts.forEach((n, cell) => {
    if (n !== 0) pressInto(board, out, cell, n);
  });
  return out;
}

export function isSolved(board: Board, lights: readonly number[]): boolean {
  for (let i = 0; i < lights.length; i++) {
    if (!board.holes[i] && lights[i] !== board.goal[i]) return false;
  }
  return true;
}

/** Can `cell` be pressed (not a hole, not locked)? */
export function pressable(board: Board, cell: number): boolean {
  return cell >= 0 && cell < board.presses.length && !board.holes[cell] && !board.locked[cell];
}

/** A key for a position, for caches. */
export function positionKey(lights: readonly number[]): string {
  return lights.join(",");
}

// ---------------------------------------------------------------- game: position and history

export type Action =
  | { kind: "press"; cell: number; times: number }
  | { kind: "set"; cell: number; from: number; to: number }
  | { kind: "jump"; from: number[]; to: number[]; pressesFrom: number; pressesTo: number };

/**
 * A position being played, with its history. The press counter counts
 * presses the way the solver does: pressing a cell k times is k presses
 * (a right-click on a W-state board is W−1 of them).
 */
export class Game {
  lights: number[];
  presses = 0;
  private done: Action[] = [];
  private undone: Action[] = [];

  constructor(
    readonly board: Board,
    start: readonly number[] = board.lights,
  ) {
    this.lights = start.slice();
    this.startedAtLights = positionKey(start) === positionKey(board.lights);
  }

  private readonly startedAtLights: boolean;

  get solved(): boolean {
    return isSolved(this.board, this.lights);
  }
  get canUndo(): boolean {
    return this.done.length > 0;
  }

  /**
   * Only presses since the puzzle's own lights (a reset counts as a fresh start; an
   * edit or a jump elsewhere does not): only then do the presses compare with the
   * puzzle's minimum.
   */
  /**
   * The presses since the puzzle's own lights, per cell modulo W, when the position was
   * reached only by presses from there ({@link playedFromStart}); else undefined.
   */
  pressVector(): number[] | undefined {
    if (!this.playedFromStart) return undefined;
    const counts = new Array<number>(this.lights.length).fill(0);
    for (let i = this.done.length - 1; i >= 0; i--) {
      const a = this.done[i]!;
      if (a.kind === "jump") break;
      if (a.kind === "press") counts[a.cell] = mod((counts[a.cell] ?? 0) + a.times, this.board.states);
    }
    return counts;
  }

  get playedFromStart(): boolean {
    const start = positionKey(this.board.lights);
    for (let i = this.done.length - 1; i >= 0; i--) {
      const a = this.done[i]!;
      if (a.kind === "set") return false;
      if (a.kind === "jump") return positionKey(a.to) === start && a.pressesTo === 0;
    }
    return this.startedAtLights;
  }
  get canRedo(): boolean {
    return this.undone.length > 0;
  }

  /** Press a cell `times` times (1…W−1); false (and nothing changes) for a hole or a locked button. */
  press(cell: number, times = 1): boolean {
    const t = mod(times, this.board.states);
    if (!pressable(this.board, cell) || t === 0) return false;
    this.perform({ kind: "press", cell, times: t });
    return true;
  }

  /** Edit mode: set a light directly (not a press). False for a hole. */
  setLight(cell: number, value: number): boolean {
    if (cell < 0 || cell >= this.lights.length || this.board.holes[cell]) return false;
    const to = mod(value, this.board.states);
    const from = this.lights[cell] ?? 0;
    if (from === to) return false;
    this.perform({ kind: "set", cell, from, to });
    return true;
  }

  /** Back to the puzzle's own lights and no presses (undoable). */
  reset(): boolean {
    return this.jump(this.board.lights, 0);
  }

  /** Go to a position in one undoable step. */
  jump(lights: readonly number[], presses = this.presses): boolean {
    if (positionKey(lights) === positionKey(this.lights) && presses === this.presses) return false;
    this.perform({ kind: "jump", from: this.lights.slice(), to: lights.slice(), pressesFrom: this.presses, pressesTo: presses });
    return true;
  }

  undo(): Action | undefined {
    const a = this.done.pop();
    if (a === undefined) return undefined;
    this.apply(a, true);
    this.undone.push(a);
    return a;
  }

  redo(): Action | undefined {
    const a = this.undone.pop();
    if (a === undefined) return undefined;
    this.apply(a, false);
    this.done.push(a);
    return a;
  }

  private perform(a: Action): void {
    this.apply(a, false);
    this.done.push(a);
    this.undone = [];
  }

  private apply(a: Action, backwards: boolean): void {
    const w = this.board.states;
    switch (a.kind) {
      case "press":
        pressInto(this.board, this.lights, a.cell, backwards ? w - a.times : a.times);
        this.presses += backwards ? -a.times : a.times;
        break;
      case "set":
        this.lights[a.cell] = backwards ? a.from : a.to;
        break;
      case "jump":
        this.lights = (backwards ? a.from : a.to).slice();
        this.presses = backwards ? a.pressesFrom : a.pressesTo;
        break;
    }
  }
}

// ---------------------------------------------------------------- hints and steps

/** The first cell (in reading order) a minimum solution presses, or undefined. */
export function firstPress(minimum: readonly number[] | null | undefined): number | undefined {
  if (!minimum) return undefined;
  const i = minimum.findIndex((n) => n > 0);
  return i < 0 ? undefined : i;
}

/** The cells of a solution that are pressed, with their counts. */
export function solutionPresses(minimum: readonly number[]): Press[] {
  const out: Press[] = [];
  minimum.forEach((times, cell) => {
    if (times > 0) out.push({ cell, times });
  });
  return out;
}

/** Sum of a solution's presses. */
export function totalPresses(minimum: readonly number[]): number {
  return minimum.reduce((a, b) => a + b, 0);
}

// ---------------------------------------------------------------- light chasing

/** The weight with which pressing `from` changes `to` (0 when it does not). */
export function weightOf(board: Board, from: number, to: number): number {
  let w = 0;
  for (const [t, weight] of board.presses[from] ?? []) if (t === to) w += weight;
  return mod(w, board.states);
}

/** The smallest k in 0…W−1 with k·w ≡ d (mod W), or undefined. */
export function timesFor(d: number, w: number, states: number): number | undefined {
  d = mod(d, states);
  if (d === 0) return 0;
  if (w === 1) return d;
  for (let k = 1; k < states; k++) if (mod(k * w, states) === d) return k;
  return undefined;
}

/**
 * Chase the lights down: for each row r from the top, for each cell (r, c),
 * press (r+1, c) until (r, c) shows its goal value. Afterwards every row but
 * the last matches the goal. Computed on a copy; the presses are returned
 * in order (one entry per cell pressed, with its count).
 */
export function planChase(board: Board, lights: readonly number[]): Press[] {
  const { rows, cols } = board;
  const work = lights.slice();
  const plan: Press[] = [];
  for (let r = 0; r + 1 < rows; r++) {
    for (let c = 0; c < cols; c++) {
      const cell = r * cols + c;
      const below = cell + cols;
      const d = (board.goal[cell] ?? 0) - (work[cell] ?? 0);
      const k = timesFor(d, weightOf(board, below, cell), board.states);
      if (k === undefined || k === 0 || !pressable(board, below)) continue;
      pressInto(board, work, below, k);
      plan.push({ cell: below, times: k });
    }
  }
  return plan;
}

/** The classic fix-up: the first-row presses of a solution from the start of the chase. */
export function fixUpPlan(board: Board, minimum: readonly number[]): Press[] {
  const out: Press[] = [];
  for (let c = 0; c < board.cols; c++) {
    const times = minimum[c] ?? 0;
    if (times > 0 && pressable(board, c)) out.push({ cell: c, times });
  }
  return out;
}

export interface ChasePhase {
  kind: "chase" | "fix-up" | "chase again";
  presses: Press[];
}

export interface ChasePlan {
  phases: ChasePhase[];
  /** False: after the first chase the last row cannot be cleared (no solution from the start). */
  solvable: boolean;
  /** The position at the end of the plan. */
  end: number[];
  /** Why it stopped short, for people. */
  note?: string;
}

/**
 * The whole light chase from `lights`: chase down; when the last row is not
 * right, ask for the minimum solution from the START position, press its
 * first row (the fix-up), and chase down again, which reaches the goal.
 * (Pressing commutes: the first row fixes every later row's presses, so the
 * second chase completes exactly that minimum solution.)
 */
export async function planChaseToGoal(
  board: Board,
  lights: readonly number[],
  solve: (lights: number[]) => Promise<SolveResult>,
): Promise<ChasePlan> {
  const first = planChase(board, lights);
  let work = lights.slice();
  for (const p of first) pressInto(board, work, p.cell, p.times);
  const phases: ChasePhase[] = [{ kind: "chase", presses: first }];
  if (isSolved(board, work)) return { phases, solvable: true, end: work };
  const result = await solve(lights.slice());
  if (!result.solvable || result.minimum === null) {
    return {
      phases,
      solvable: result.solvable,
      end: work,
      note: result.solvable ? result.status : "the last row cannot be cleared: there is no solution from this position",
    };
  }
  const fix = fixUpPlan(board, result.minimum);
  for (const p of fix) pressInto(board, work, p.cell, p.times);
  const again = planChase(board, work);
  for (const p of again) pressInto(board, work, p.cell, p.times);
  phases.push({ kind: "fix-up", presses: fix }, { kind: "chase again", presses: again });
  return { phases, solvable: true, end: work };
}
