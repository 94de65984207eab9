// The backend of a published site (`lights publish`): no server, no solver.
// Everything comes from the data the tool wrote into levels.js
// (`window.LIGHTS_SITE`): the boards, each level's minimum solution from its
// start, and its hint table — a linear map M over Z/W such that
// x = M·(goal − position) solves every position from which the goal can be
// reached. The page only subtracts, applies the map and replays presses to
// check: it never searches.

import type { Backend, BackendEvent } from "./backend";
import { applyCounts, isSolved, mod, totalPresses as total } from "./model";
import type { BoardData, PuzzleList, SolveResult, WriteBackResult } from "./protocol";

export type SiteHints = { kind: "map"; rows: string[] } | { kind: "start"; reason: string };

export interface SiteLevel {
  board: BoardData;
  hints: SiteHints;
}

/** The data of `levels.js` (format lights-site/1). */
export interface SiteData {
  format: string;
  title: string;
  /** The pack's identity, for the saved progress. */
  pack: string;
  levels: SiteLevel[];
}

function decodeBase64(text: string): Uint8Array {
  const raw = atob(text);
  const out = new Uint8Array(raw.length);
  for (let i = 0; i < raw.length; i++) out[i] = raw.charCodeAt(i);
  return out;
}

/** x = M·b mod W, M as `lights publish` encodes it (W = 2: bits; else a byte an entry). */
export function applyMap(rows: readonly string[], b: readonly number[], states: number): number[] {
  return rows.map((row) => {
    const bytes = decodeBase64(row);
    let sum = 0;
    for (let j = 0; j < b.length; j++) {
      const v = b[j] ?? 0;
      if (v === 0) continue;
      const m = states === 2 ? ((bytes[j >> 3] ?? 0) >> (j & 7)) & 1 : (bytes[j] ?? 0);
      sum = (sum + m * v) % states;
    }
    return sum;
  });
}

/** Whether pressing `x` from `lights` reaches the board's goal. */
function reaches(board: BoardData, lights: readonly number[], x: readonly number[]): boolean {
  return isSolved(board, applyCounts(board, lights, x));
}

export class StaticBackend implements Backend {
  readonly host = "static" as const;

  constructor(private readonly site: SiteData) {}

  private level(puzzle: number): SiteLevel {
    const level = this.site.levels[puzzle];
    if (level === undefined) throw new Error(`there is no level ${puzzle + 1}`);
    return level;
  }

  puzzles(): Promise<PuzzleList> {
    return Promise.resolve({
      file: this.site.title,
      pack: this.site.pack,
      version: 0,
      puzzles: this.site.levels.map((l, index) => ({
        index,
        name: l.board.name,
        kind: "puzzle" as const,
        playable: true,
        why: null,
        status: l.board.report?.status ?? "",
      })),
    });
  }

  board(puzzle: number): Promise<BoardData> {
    try {
      return Promise.resolve({ ...this.level(puzzle).board, index: puzzle });
    } catch (e) {
      return Promise.reject(e);
    }
  }

  /**
   * A solution from `lights`: along the level's minimum (minimum − presses made, when the
   * position was reached by presses from the start), else by the hint table.
   */
  solve(puzzle: number, lights: number[], presses?: number[]): Promise<SolveResult> {
    const { board, hints } = this.level(puzzle);
    const w = board.states;
    const report = board.report;
    const answer = (x: number[], optimal: boolean): SolveResult => ({
      solvable: true,
      solutions: report?.solutions ?? "1",
      presses: total(x),
      optimal,
      minimum: x,
      status: optimal ? `minimum ${total(x)} presses` : `a solution of ${total(x)} presses`,
    });
    if (presses !== undefined && report?.minimum) {
      const x = report.minimum.map((m, i) => mod(m - (presses[i] ?? 0), w));
      if (reaches(board, lights, x)) {
        // From the start, |x| + |presses| presses is the minimum: x is a minimum from here.
        const optimal = report.optimal && report.presses !== null && total(x) + total(presses) === report.presses;
        return Promise.resolve(answer(x, optimal));
      }
    }
    if (hints.kind === "map") {
      const b = board.goal.map((g, i) => mod(g - (lights[i] ?? 0), w));
      const x = applyMap(hints.rows, b, w);
      if (reaches(board, lights, x)) return Promise.resolve(answer(x, false));
      return Promise.resolve({
        solvable: false,
        solutions: "0",
        presses: null,
        optimal: false,
        minimum: null,
        status: "the goal cannot be reached from this position",
      });
    }
    return Promise.reject(new Error(`hints here follow the level from its start only (${hints.reason}); Reset to get them`));
  }

  writeBack(): Promise<WriteBackResult> {
    return Promise.reject(new Error("a published site has no file to write"));
  }

  watch(_listener: (e: BackendEvent) => void): void {}

  dispose(): void {}
}
