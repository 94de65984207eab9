// Boards as `lights/board` describes them, built here for the tests of the
// board model and the Play messages, with an independent solver (Gaussian
// elimination modulo a prime W, minimum over the null space) standing in for
// the tool's.

import type { BoardData, Gluing, SolveResult } from "../../../play/src/protocol";

export interface SquareSpec {
  name?: string;
  rows: number;
  cols: number;
  states?: number;
  topology?: "plane" | "cylinder" | "torus";
  lights?: number[];
  goal?: number[];
  locked?: boolean[];
}

/** A square board with the cross rule (the cell and its four neighbours, weight 1). */
export function crossBoard(spec: SquareSpec): BoardData {
  const { rows, cols } = spec;
  const n = rows * cols;
  const states = spec.states ?? 2;
  const topology = spec.topology ?? "plane";
  const wrapCols = topology !== "plane";
  const wrapRows = topology === "torus";
  const presses: [number, number][][] = [];
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      const targets = new Map<number, number>();
      const add = (rr: number, cc: number) => {
        if (wrapRows) rr = (rr + rows) % rows;
        if (wrapCols) cc = (cc + cols) % cols;
        if (rr < 0 || rr >= rows || cc < 0 || cc >= cols) return;
        const t = rr * cols + cc;
        targets.set(t, (targets.get(t) ?? 0) + 1);
      };
      add(r, c);
      add(r - 1, c);
      add(r + 1, c);
      add(r, c - 1);
      add(r, c + 1);
      presses.push([...targets].map(([t, w]) => [t, w % states] as [number, number]).filter(([, w]) => w !== 0));
    }
  }
  const locked = spec.locked ?? new Array<boolean>(n).fill(false);
  const gluing: { columns: Gluing; rows: Gluing } = {
    columns: wrapCols ? "glued" : "open",
    rows: wrapRows ? "glued" : "open",
  };
  const board: BoardData = {
    version: 1,
    index: 0,
    name: spec.name ?? `${rows}x${cols}`,
    playable: true,
    why: null,
    shape: "square",
    rows,
    cols,
    states,
    rule: "cross",
    topology,
    gluing,
    description: `${rows}×${cols} square board · rule cross · ${topology} · ${states} states`,
    // Test colours, one per state (the tool sends its palette; these only need to differ).
    palette: Array.from({ length: states }, (_, v) => `#${(v * 17 + 16).toString(16).padStart(2, "0")}0000`),
    labels: Array.from({ length: n }, (_, i) => `${Math.floor(i / cols) + 1},${(i % cols) + 1}`),
    lights: spec.lights ?? new Array<number>(n).fill(1),
    goal: spec.goal ?? new Array<number>(n).fill(0),
    locked,
    holes: new Array<boolean>(n).fill(false),
    presses,
    graph: null,
    chase: topology === "plane" && !locked.some((l) => l),
    report: null,
  };
  board.report = solve(board, board.lights);
  return board;
}

function inverse(a: number, p: number): number {
  for (let x = 1; x < p; x++) if ((a * x) % p === 1) return x;
  throw new Error(`${a} has no inverse modulo ${p}`);
}

/** The minimum solution from `lights` to the goal, modulo a prime W. */
export function solve(board: BoardData, lights: readonly number[]): SolveResult {
  const p = board.states;
  const n = lights.length;
  const vars = [...Array(n).keys()].filter((j) => !board.locked[j] && !board.holes[j]);
  const m = vars.length;
  // Rows: one equation per cell; columns: the variables, then the right-hand side.
  const a: number[][] = [];
  for (let t = 0; t < n; t++) {
    if (board.holes[t]) continue;
    const row = new Array<number>(m + 1).fill(0);
    vars.forEach((j, k) => {
      for (const [target, w] of board.presses[j]!) if (target === t) row[k] = (row[k]! + w) % p;
    });
    row[m] = (((board.goal[t]! - lights[t]!) % p) + p) % p;
    a.push(row);
  }
  const pivots: number[] = [];
  let r = 0;
  for (let c = 0; c < m && r < a.length; c++) {
    const pr = a.findIndex((row, i) => i >= r && row[c] !== 0);
    if (pr < 0) continue;
    [a[r], a[pr]] = [a[pr]!, a[r]!];
    const inv = inverse(a[r]![c]!, p);
    a[r] = a[r]!.map((x) => (x * inv) % p);
    for (let i = 0; i < a.length; i++) {
      if (i === r || a[i]![c] === 0) continue;
      const f = a[i]![c]!;
      a[i] = a[i]!.map((x, k) => (((x - f * a[r]![k]!) % p) + p) % p);
    }
    pivots.push(c);
    r++;
  }
  if (a.some((row, i) => i >= r && row[m] !== 0)) {
    return { solvable: false, solutions: "0", presses: null, optimal: true, minimum: null, status: "unsolvable" };
  }
  const free = [...Array(m).keys()].filter((c) => !pivots.includes(c));
  if (free.length > 16) throw new Error("too many free variables for the test solver");
  let best: number[] | undefined;
  let bestWeight = Infinity;
  const combos = p ** free.length;
  for (let code = 0; code < combos; code++) {
    const x = new Array<number>(m).fill(0);
    let rest = code;
    for (const f of free) {
      x[f] = rest % p;
      rest = Math.floor(rest / p);
    }
    pivots.forEach((c, i) => {
      let v = a[i]![m]!;
      for (const f of free) v -= a[i]![f]! * x[f]!;
      x[c] = ((v % p) + p) % p;
    });
    const weight = x.reduce((s, v) => s + v, 0);
    if (weight < bestWeight) {
      bestWeight = weight;
      best = x;
    }
  }
  const minimum = new Array<number>(n).fill(0);
  vars.forEach((j, k) => (minimum[j] = best![k]!));
  const solutions = String(combos);
  return {
    solvable: true,
    solutions,
    presses: bestWeight,
    optimal: true,
    minimum,
    status: `${solutions} solution${combos === 1 ? "" : "s"} · minimum ${bestWeight} presses`,
  };
}
