// The board model of editors/play (src/model.ts): presses with the tool's
// patterns modulo W, undo/redo, the solved test, hints and the light chase,
// against boards and a solver built independently in playBoards.ts.

import { describe, expect, it } from "vitest";

import {
  applyCounts,
  firstPress,
  fixUpPlan,
  Game,
  isSolved,
  planChase,
  planChaseToGoal,
  pressInto,
  timesFor,
} from "../../../play/src/model";
import { crossBoard, solve } from "./playBoards";

const at = (cols: number, r: number, c: number) => r * cols + c;

describe("pressing", () => {
  it("adds the press pattern modulo W, and W−1 presses undo one", () => {
    const board = crossBoard({ rows: 3, cols: 3, states: 3, lights: new Array(9).fill(0) });
    const game = new Game(board);
    expect(game.press(at(3, 1, 1))).toBe(true);
    expect(game.lights).toEqual([0, 1, 0, 1, 1, 1, 0, 1, 0]);
    game.press(at(3, 1, 1));
    game.press(at(3, 0, 0));
    expect(game.lights).toEqual([1, 0, 0, 0, 2, 2, 0, 2, 0]);
    expect(game.presses).toBe(3);
    // A right-click: W−1 = 2 presses of the corner, back to before it.
    game.press(at(3, 0, 0), board.states - 1);
    expect(game.lights).toEqual([0, 2, 0, 2, 2, 2, 0, 2, 0]);
    expect(game.presses).toBe(5);
  });

  it("wraps around on a torus, as the pattern says", () => {
    const board = crossBoard({ rows: 3, cols: 4, topology: "torus", lights: new Array(12).fill(0) });
    const lights = board.lights.slice();
    pressInto(board, lights, 0, 1);
    expect(lights.flatMap((v, i) => (v ? [i] : []))).toEqual([0, 1, 3, 4, 8]);
  });

  it("never presses holes or locked buttons; edit mode sets lights", () => {
    const locked = new Array(9).fill(false);
    locked[4] = true;
    const board = crossBoard({ rows: 3, cols: 3, locked, lights: new Array(9).fill(0) });
    const game = new Game(board);
    expect(game.press(4)).toBe(false);
    expect(game.lights).toEqual(new Array(9).fill(0));
    expect(game.setLight(4, 1)).toBe(true);
    expect(game.lights[4]).toBe(1);
    expect(game.setLight(4, 0)).toBe(true);
    expect(game.lights[4]).toBe(0);
    expect(game.presses).toBe(0);
  });

  it("undoes and redoes presses, edits and resets; a new move drops the redo list", () => {
    const board = crossBoard({ rows: 3, cols: 3 });
    const game = new Game(board);
    const start = game.lights.slice();
    game.press(0);
    const one = game.lights.slice();
    game.setLight(8, 0);
    const two = game.lights.slice();
    game.reset();
    expect(game.lights).toEqual(start);
    expect(game.presses).toBe(0);
    game.undo();
    expect(game.lights).toEqual(two);
    expect(game.presses).toBe(1);
    game.undo();
    expect(game.lights).toEqual(one);
    game.undo();
    expect(game.lights).toEqual(start);
    expect(game.presses).toBe(0);
    expect(game.undo()).toBeUndefined();
    game.redo();
    expect(game.lights).toEqual(one);
    expect(game.canRedo).toBe(true);
    game.press(4);
    expect(game.canRedo).toBe(false);
    expect(game.redo()).toBeUndefined();
  });

  it("is solved when every light shows its goal", () => {
    const board = crossBoard({ rows: 3, cols: 3, lights: [0, 1, 0, 1, 1, 1, 0, 1, 0] });
    const game = new Game(board);
    expect(game.solved).toBe(false);
    game.press(4);
    expect(game.solved).toBe(true);
    expect(isSolved({ ...board, goal: new Array(9).fill(1) }, new Array(9).fill(1))).toBe(true);
  });
});

describe("hints and solutions", () => {
  it("the minimum solution applied reaches the goal; the hint is its first pressed cell", () => {
    const board = crossBoard({ rows: 5, cols: 5 });
    const result = solve(board, board.lights);
    expect(result.solvable).toBe(true);
    expect(result.presses).toBe(15);
    expect(isSolved(board, applyCounts(board, board.lights, result.minimum!))).toBe(true);
    expect(result.minimum![firstPress(result.minimum)!]).toBeGreaterThan(0);
    expect(firstPress(new Array(25).fill(0))).toBeUndefined();
    expect(firstPress(null)).toBeUndefined();
  });

  it("following hints one press at a time solves the puzzle", () => {
    // A position made by pressing from the goal, so it is solvable.
    const blank = crossBoard({ rows: 4, cols: 4, states: 3, lights: new Array(16).fill(0) });
    const lights = applyCounts(blank, blank.lights, [1, 2, 0, 0, 0, 1, 1, 0, 2, 0, 0, 1, 0, 0, 2, 1]);
    const board = crossBoard({ rows: 4, cols: 4, states: 3, lights });
    const game = new Game(board);
    for (let guard = 0; !game.solved && guard < 100; guard++) {
      const r = solve(board, game.lights);
      expect(r.solvable).toBe(true);
      game.press(firstPress(r.minimum)!);
    }
    expect(game.solved).toBe(true);
  });
});

describe("light chasing", () => {
  it("solves k·w ≡ d (mod W)", () => {
    expect(timesFor(3, 1, 5)).toBe(3);
    expect(timesFor(-1, 1, 5)).toBe(4);
    expect(timesFor(1, 2, 5)).toBe(3);
    expect(timesFor(1, 2, 4)).toBeUndefined();
    expect(timesFor(0, 0, 4)).toBe(0);
  });

  it("chasing down leaves only the last row wrong, pressing only below the first row", () => {
    const board = crossBoard({ rows: 5, cols: 5 });
    const plan = planChase(board, board.lights);
    expect(plan.every((p) => p.cell >= 5)).toBe(true);
    const lights = board.lights.slice();
    for (const p of plan) pressInto(board, lights, p.cell, p.times);
    expect(lights.slice(0, 20)).toEqual(new Array(20).fill(0));
  });

  it("chases toward the goal, not toward all off", () => {
    const goal = new Array(9).fill(0);
    goal[0] = 1;
    goal[4] = 1;
    const board = crossBoard({ rows: 3, cols: 3, lights: new Array(9).fill(0), goal });
    const lights = board.lights.slice();
    for (const p of planChase(board, lights)) pressInto(board, lights, p.cell, p.times);
    expect(lights.slice(0, 6)).toEqual(goal.slice(0, 6));
  });

  it("the fix-up takes the first row of a solution, skipping the rest", () => {
    const board = crossBoard({ rows: 3, cols: 3 });
    expect(fixUpPlan(board, [1, 0, 2, 1, 1, 1, 1, 1, 1])).toEqual([
      { cell: 0, times: 1 },
      { cell: 2, times: 2 },
    ]);
  });

  const cases: [string, Parameters<typeof crossBoard>[0]][] = [
    ["3×3 all on", { rows: 3, cols: 3 }],
    ["3×3 corners", { rows: 3, cols: 3, lights: [1, 0, 1, 0, 0, 0, 1, 0, 1] }],
    ["5×5 all on", { rows: 5, cols: 5 }],
    ["5×5 with a goal", { rows: 5, cols: 5, lights: new Array(25).fill(0).map((_, i) => i % 3 === 0 ? 1 : 0), goal: new Array(25).fill(0).map((_, i) => (i % 7 === 1 ? 1 : 0)) }],
    ["5×5, three states", { rows: 5, cols: 5, states: 3, lights: new Array(25).fill(0).map((_, i) => (i * 7) % 3) }],
  ];
  for (const [name, spec] of cases) {
    it(`reaches the goal on ${name} when it is solvable (chase, fix-up from the start, chase)`, async () => {
      const board = crossBoard(spec);
      const asked: number[][] = [];
      const plan = await planChaseToGoal(board, board.lights, async (lights) => {
        asked.push(lights);
        return solve(board, lights);
      });
      const solvable = solve(board, board.lights).solvable;
      expect(plan.solvable).toBe(solvable);
      if (!solvable) return;
      // Replaying the phases press by press, as the page animates them.
      const game = new Game(board);
      for (const phase of plan.phases) for (const p of phase.presses) expect(game.press(p.cell, p.times)).toBe(true);
      expect(game.lights).toEqual(plan.end);
      expect(game.solved).toBe(true);
      // The solver is asked at most once, about the position at the start of the chase.
      expect(asked.length).toBeLessThanOrEqual(1);
      for (const a of asked) expect(a).toEqual(board.lights);
      if (asked.length === 1) expect(plan.phases.map((p) => p.kind)).toEqual(["chase", "fix-up", "chase again"]);
    });
  }

  it("says so when the last row cannot be cleared", async () => {
    // 5×5 all-off goal from a single light in a corner: not solvable (5×5 has nullity 2).
    const lights = new Array(25).fill(0);
    lights[0] = 1;
    const board = crossBoard({ rows: 5, cols: 5, lights });
    expect(solve(board, lights).solvable).toBe(false);
    const plan = await planChaseToGoal(board, lights, async (l) => solve(board, l));
    expect(plan.solvable).toBe(false);
    expect(plan.phases).toHaveLength(1);
    expect(plan.note).toContain("no solution");
  });
});
