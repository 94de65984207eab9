// The page: builds the toolbar, the board view and the status line in
// #app, and plays. The same code runs in the page `lights play` serves
// (HttpBackend) and in the VS Code webview (MessageBackend, when
// acquireVsCodeApi exists).

import { Backend, BackendEvent, HttpBackend, MessageBackend } from "./backend";
import { SiteData, StaticBackend } from "./static";
import { firstPress, Game, planChaseToGoal, positionKey, Press, totalPresses } from "./model";
import { Progress, saveSoundPreference, Sounds, soundPreference } from "./progress";
import type { BoardData, PuzzleList, SolveResult, WriteBackResult } from "./protocol";
import { BoardView, NumbersMode, stateColour } from "./view";

// ---------------------------------------------------------------- small DOM helpers

type Child = Node | string;

function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Record<string, string> = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
  for (const c of children) el.append(c);
  return el;
}

function button(id: string, label: string, title: string): HTMLButtonElement {
  return h("button", { id, type: "button", title }, label);
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function messageOf(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/**
 * The parts of a board that decide the game and its drawing: when a reload
 * keeps them, the position, the history and the drawn board are kept.
 */
function gameShape(b: BoardData): string {
  return JSON.stringify([
    b.shape, b.rows, b.cols, b.states, b.lights, b.goal, b.locked, b.holes, b.presses, b.gluing, b.labels, b.graph,
  ]);
}

// ---------------------------------------------------------------- the player

interface Animation {
  cancelled: boolean;
}

const KEYS_HELP =
  "Click a light to press it; right-click or Shift+click presses it W−1 times. " +
  "Keys: arrows move · Enter/Space press · h hint · s step · v solution · c chase · g goal · f fit · e edit · u undo · r redo · Shift+R reset · n next level (after a win) · Esc stop";

class Player {
  private list: PuzzleList | undefined;
  private index = 0;
  private board: BoardData | undefined;
  private game: Game | undefined;
  private shape = "";
  private editing = false;
  private showGoal = false;
  private showSolution = false;
  private numbers: NumbersMode = "auto";
  private hint: number | undefined;
  private solution: number[] | null = null;
  private message = "";
  private error = false;
  private stepPlan: { key: string; counts: number[] } | undefined;
  private animation: Animation | undefined;
  private loading = 0;
  /**
   * The last write-back (its answer once it came): the change it makes to the file comes back
   * as a "changed" event, which must not be announced as an outside change.
   */
  private lastWrite: Promise<WriteBackResult | undefined> | undefined;
  private readonly cache = new Map<string, SolveResult>();
  private progress: Progress = new Progress("");
  /** The position was at the goal when last drawn (a win is the step onto it). */
  private wasSolved = false;
  private soundOn = soundPreference();
  private readonly sounds = new Sounds();
  private readonly levels = h("nav", { id: "levels", class: "levels", "aria-label": "Levels" });
  private readonly winPresses = h("span", { id: "win-presses" });
  private readonly nextLevel = button("next-level", "Next level →", "Play the next level (n)");
  private readonly winPanel = h(
    "div",
    { id: "win", class: "win", role: "status", hidden: "" },
    h("strong", { class: "win-title" }, "Solved!"),
    this.winPresses,
    this.nextLevel,
  );

  private readonly picker = h("select", { id: "puzzle", "aria-label": "Puzzle" });
  private readonly file = h("span", { id: "file", class: "file" });
  private readonly info = h("span", { id: "info", class: "info" });
  private readonly pressCount = h("span", { id: "presses" }, "0");
  private readonly status = h("div", { id: "status", class: "status", role: "status", "aria-live": "polite" });
  private readonly legend = h("div", { id: "legend", class: "legend", "aria-hidden": "true" });
  private readonly boardBox = h("div", { id: "board", class: "board-box" });
  private readonly numbersPicker = h(
    "select",
    { id: "numbers", "aria-label": "State numbers", title: "Draw each light's state number" },
    h("option", { value: "auto" }, "numbers: when W > 2"),
    h("option", { value: "always" }, "numbers: always"),
    h("option", { value: "never" }, "numbers: never"),
  );
  private readonly buttons = {
    undo: button("undo", "Undo", "Undo the last press or edit (u, Ctrl+Z)"),
    redo: button("redo", "Redo", "Redo (r, Ctrl+Y)"),
    reset: button("reset", "Reset", "Back to the puzzle's lights (Shift+R; undoable)"),
    hint: button("hint", "Hint", "Highlight the next press of a minimum solution (h)"),
    solution: button("solution", "Show solution", "Show how often each cell is pressed by a minimum solution from here (v)"),
    step: button("step", "Step", "Press the next button of the minimum solution (s)"),
    chase: button("chase", "Chase", "Light chasing, animated: row by row, then the first-row fix-up (c)"),
    edit: button("edit", "Edit lights", "Edit mode: clicks change lights instead of pressing (e)"),
    writeback: button("writeback", "Write back", "Write this position into the file as the puzzle's lights"),
    showGoal: button("show-goal", "Show goal", "Mark each cell's goal value (g)"),
    fit: button("fit", "Fit", "Fit the board to the window; off: full size, scrolled (f)"),
    sound: button("sound", "Sound", "Sounds on presses and wins (off unless you turn it on)"),
    share: button("share", "Share", "Copy a link to this level"),
  };
  private readonly writebackPanel = h("div", { id: "writeback-panel", class: "writeback-panel", hidden: "" });
  private readonly view: BoardView;

  constructor(
    root: HTMLElement,
    private readonly backend: Backend,
  ) {
    const b = this.buttons;
    for (const t of [b.solution, b.edit, b.showGoal]) t.setAttribute("aria-pressed", "false");
    b.fit.setAttribute("aria-pressed", "true");
    b.sound.setAttribute("aria-pressed", String(this.soundOn));
    root.append(
      h("header", { class: "top" }, h("label", { class: "picker" }, "Puzzle ", this.picker), this.file),
      this.levels,
      h(
        "div",
        { class: "toolbar", role: "toolbar", "aria-label": "Play" },
        h("span", { class: "group" }, b.undo, b.redo, b.reset),
        h("span", { class: "group" }, b.hint, b.solution, b.step, b.chase),
        h("span", { class: "group" }, b.edit, b.writeback, b.share),
        h("span", { class: "group" }, b.showGoal, b.fit, b.sound, this.numbersPicker),
      ),
      h("div", { class: "counters" }, h("span", {}, "Presses: "), this.pressCount, this.info),
      this.status,
      this.winPanel,
      this.boardBox,
      this.legend,
      this.writebackPanel,
      h("p", { class: "keys" }, KEYS_HELP),
    );
    this.view = new BoardView(this.boardBox, { onActivate: (cell, back) => this.activate(cell, back) });

    this.picker.addEventListener("change", () => void this.select(Number(this.picker.value), true));
    this.numbersPicker.addEventListener("change", () => {
      this.numbers = this.numbersPicker.value as NumbersMode;
      this.redraw();
    });
    b.undo.addEventListener("click", () => this.undo());
    b.redo.addEventListener("click", () => this.redo());
    b.reset.addEventListener("click", () => this.reset());
    b.hint.addEventListener("click", () => void this.showHint());
    b.solution.addEventListener("click", () => void this.toggleSolution());
    b.step.addEventListener("click", () => void this.step());
    b.chase.addEventListener("click", () => void this.chase());
    b.edit.addEventListener("click", () => this.toggleEdit());
    b.writeback.addEventListener("click", () => void this.writeBack());
    b.showGoal.addEventListener("click", () => this.toggleGoal());
    b.fit.addEventListener("click", () => this.toggleFit());
    b.sound.addEventListener("click", () => this.toggleSound());
    b.share.addEventListener("click", () => void this.share());
    // A published site: no file to write; a level is shared by its link.
    const published = backend.host === "static";
    b.writeback.hidden = published;
    b.share.hidden = !published;
    if (published) window.addEventListener("hashchange", () => void this.fromFragment());
    this.nextLevel.addEventListener("click", () => void this.goNext());
    document.addEventListener("keydown", (e) => this.key(e));
    window.addEventListener("resize", () => this.fitHeight());
  }

  // ------------------------------------------------------------ loading

  async start(): Promise<void> {
    this.backend.watch((e) => void this.onEvent(e));
    await this.loadList();
    await this.select(this.initialPuzzle(), false);
  }

  /**
   * The puzzle to open: the cursor's in VS Code; in the browser `?puzzle=N`
   * (0-based index, what the picker puts in the address) or `?puzzle=NAME`,
   * else `lights play --puzzle NAME` (the list's `start`); else the first
   * playable one.
   */
  private initialPuzzle(): number {
    const list = this.list;
    const puzzles = list?.puzzles ?? [];
    if (list?.selected !== undefined) return list.selected;
    if (this.backend.host === "browser") {
      const wanted = new URLSearchParams(window.location.search).get("puzzle");
      if (wanted !== null) {
        const byName = puzzles.find((p) => p.name === wanted);
        if (byName !== undefined) return byName.index;
        if (/^\d+$/.test(wanted) && Number(wanted) < puzzles.length) return Number(wanted);
      }
    }
    if (this.backend.host === "static") {
      const level = levelInFragment(window.location.hash, puzzles.length);
      if (level !== undefined) return level;
    }
    if (typeof list?.start === "number" && list.start < puzzles.length) return list.start;
    return puzzles.find((p) => p.playable)?.index ?? 0;
  }

  private async loadList(): Promise<void> {
    try {
      this.list = await this.backend.puzzles();
    } catch (e) {
      this.say(`Cannot list the puzzles: ${messageOf(e)}`, true);
      return;
    }
    this.file.textContent = this.list.file;
    if (this.list.error) this.say(this.list.error, true);
    const options = this.list.puzzles.map((p) => {
      const o = h("option", { value: String(p.index) }, `${p.index + 1}. ${p.name}${p.playable ? "" : " (cannot be played)"}`);
      if (p.status) o.title = p.status;
      return o;
    });
    this.picker.replaceChildren(...options);
    this.picker.value = String(this.index);
    this.progress = new Progress(this.list.pack ?? this.list.file);
    this.drawLevels();
  }

  /** The level picker: a numbered tile per puzzle, ✓ on the solved ones. */
  private drawLevels(): void {
    const puzzles = this.list?.puzzles ?? [];
    const tiles = puzzles.map((p) => {
      const solved = this.progress.has(p.name);
      const tile = h(
        "button",
        { type: "button", class: solved ? "level solved" : "level", "data-index": String(p.index) },
        solved ? `✓ ${p.index + 1}` : String(p.index + 1),
      );
      tile.title = `${p.index + 1}. ${p.name}${solved ? " (solved)" : ""}${p.playable ? "" : " (cannot be played)"}`;
      tile.setAttribute("aria-label", tile.title);
      if (p.index === this.index) tile.setAttribute("aria-current", "true");
      if (!p.playable) tile.disabled = true;
      tile.addEventListener("click", () => void this.select(p.index, true));
      return tile;
    });
    this.levels.replaceChildren(...tiles);
    this.levels.hidden = puzzles.length < 2;
  }

  /** The next playable puzzle after this one, if any. */
  private nextPlayable(): number | undefined {
    return this.list?.puzzles.find((p) => p.index > this.index && p.playable)?.index;
  }

  private async goNext(): Promise<void> {
    const next = this.nextPlayable();
    if (next !== undefined) await this.select(next, true);
  }

  /** Show puzzle `index` from its start position. */
  private async select(index: number, fromPicker: boolean): Promise<void> {
    this.stop();
    const ticket = ++this.loading;
    let board: BoardData;
    try {
      board = await this.backend.board(index);
    } catch (e) {
      if (ticket === this.loading) this.say(`Cannot load puzzle ${index + 1}: ${messageOf(e)}`, true);
      return;
    }
    if (ticket !== this.loading) return;
    this.index = index;
    this.picker.value = String(index);
    this.drawLevels();
    if (this.backend.host === "static") {
      const url = new URL(window.location.href);
      url.hash = `level=${index + 1}`;
      window.history.replaceState(null, "", url.toString());
    }
    if (fromPicker && this.backend.host === "browser") {
      const url = new URL(window.location.href);
      url.searchParams.set("puzzle", String(index));
      window.history.replaceState(null, "", url.toString());
    }
    this.show(board, false);
  }

  /** Draw `board`; keep the game when `keep` and the board plays the same. */
  private show(board: BoardData, keep: boolean): void {
    const shape = board.playable ? gameShape(board) : "";
    const same = keep && this.game !== undefined && shape === this.shape;
    this.board = board;
    this.shape = shape;
    // The version shown, for the tests (they wait for a reload by it).
    document.documentElement.dataset.version = String(board.version);
    this.cache.clear();
    this.stepPlan = undefined;
    this.hint = undefined;
    this.solution = null;
    document.title = `${board.name} — Lights: Play`;
    this.wasSolved = true; // no celebration for a position that starts at the goal
    this.winPanel.hidden = true;
    if (!board.playable) {
      this.game = undefined;
      this.view.clear();
      this.legend.replaceChildren();
      this.info.textContent = "";
      this.say(`"${board.name}" cannot be played here: ${board.why ?? "no reason given"}`, false);
      this.updateButtons();
      return;
    }
    if (!same) {
      this.game = new Game(board);
      this.showGoal = board.goal.some((g, i) => g !== 0 && !board.holes[i]);
      this.view.setBoard(board, this.game.lights, this.numbers);
      this.view.setShowGoal(this.showGoal);
      this.view.setEditing(this.editing);
      this.drawLegend(board);
    }
    this.fitHeight();
    const report = board.report ? ` · from the start: ${board.report.status}` : "";
    this.info.textContent = ` · ${board.description}${report}`;
    if (!keep) this.message = "";
    this.error = false;
    this.render();
    if (this.showSolution) void this.refreshSolution();
  }

  private redraw(): void {
    if (this.board === undefined || !this.board.playable || this.game === undefined) return;
    this.view.setBoard(this.board, this.game.lights, this.numbers);
    this.view.setShowGoal(this.showGoal);
    this.view.setEditing(this.editing);
    this.view.setOverlay({ hint: this.hint, solution: this.showSolution ? this.solution : null });
  }

  private drawLegend(board: BoardData): void {
    if (board.states > 16) {
      this.legend.replaceChildren(h("span", {}, `${board.states} states: 0 dark, then violet → rose → yellow (${board.states - 1})`));
      return;
    }
    const items: Node[] = [];
    for (let v = 0; v < board.states; v++) {
      const swatch = h("span", { class: "swatch", "data-state": String(v) });
      swatch.style.background = stateColour(v, board.states, board.palette);
      items.push(h("span", { class: "legend-item" }, swatch, String(v)));
    }
    this.legend.replaceChildren(...items);
  }

  private async onEvent(e: BackendEvent): Promise<void> {
    switch (e.kind) {
      case "changed":
        await this.reload(e.version);
        break;
      case "select":
        if (e.puzzle !== this.index) {
          await this.loadList();
          await this.select(e.puzzle, false);
        }
        break;
      case "offline":
        this.say(`${e.message}`, true);
        break;
      case "online":
        await this.reload();
        break;
    }
  }

  /**
   * The file changed (to `version`, when the host says): read it again; keep the position when
   * the puzzle plays the same. A change that is this page's own write-back keeps the write's
   * message rather than announcing an outside change.
   */
  private async reload(version?: number): Promise<void> {
    this.stop();
    await this.loadList();
    const count = this.list?.puzzles.length ?? 0;
    const index = this.index < count ? this.index : 0;
    const ticket = ++this.loading;
    try {
      const board = await this.backend.board(index);
      if (ticket !== this.loading) return;
      const kept = this.game !== undefined && board.playable && gameShape(board) === this.shape && index === this.index;
      this.index = index;
      this.picker.value = String(index);
      this.show(board, kept);
      // An unplayable board keeps the reason `show` gave.
      if (board.playable) {
        const own = await this.ownWrite(version);
        if (ticket !== this.loading) return;
        if (own !== undefined) this.say(own.message, false);
        else this.say(kept ? "The file changed; this puzzle did not." : "The file changed: reloaded.", false);
      }
    } catch (e) {
      if (ticket === this.loading) this.say(`Cannot reload: ${messageOf(e)}`, true);
    }
  }

  // ------------------------------------------------------------ drawing

  private say(message: string, error: boolean): void {
    this.message = message;
    this.error = error;
    this.renderStatus();
  }

  private renderStatus(): void {
    const g = this.game;
    const parts: string[] = [];
    if (g !== undefined && g.solved) parts.push(`solved! (${g.presses} ${g.presses === 1 ? "press" : "presses"})`);
    if (this.editing) parts.push("Edit mode: clicks change lights (Shift or right-click: down); Write back puts them in the file.");
    if (this.message) parts.push(this.message);
    this.status.textContent = parts.join(" · ");
    this.status.classList.toggle("solved", g !== undefined && g.solved);
    this.status.classList.toggle("error", this.error);
  }

  private render(): void {
    const g = this.game;
    if (g === undefined) return;
    this.view.update(g.lights);
    const solved = g.solved && !this.editing;
    if (solved && !this.wasSolved && g.presses > 0) this.win();
    if (!solved && !this.winPanel.hidden) {
      this.winPanel.hidden = true;
      this.fitHeight();
    }
    this.wasSolved = g.solved;
    this.view.setOverlay({ hint: this.hint, solution: this.showSolution ? this.solution : null });
    this.pressCount.textContent = String(g.presses);
    this.renderStatus();
    this.updateButtons();
  }

  private updateButtons(): void {
    const b = this.buttons;
    const g = this.game;
    const playing = g !== undefined;
    const animating = this.animation !== undefined;
    b.undo.disabled = !playing || !g.canUndo;
    b.redo.disabled = !playing || !g.canRedo;
    b.reset.disabled = !playing;
    for (const x of [b.hint, b.solution, b.step, b.edit, b.writeback, b.showGoal]) x.disabled = !playing;
    const chase = playing && this.board?.chase === true;
    b.chase.disabled = !chase;
    b.chase.title = chase
      ? "Light chasing, animated: row by row, then the first-row fix-up (c)"
      : "Light chasing needs a square board with the cross rule on the plane, without holes or locked buttons";
    b.chase.textContent = animating ? "Stop" : "Chase";
    b.solution.setAttribute("aria-pressed", String(this.showSolution));
    b.edit.setAttribute("aria-pressed", String(this.editing));
    b.showGoal.setAttribute("aria-pressed", String(this.showGoal));
  }

  /** After any change of the position: drop the hint, redraw, refresh the shown solution. */
  private changed(): void {
    this.hint = undefined;
    this.message = "";
    this.error = false;
    this.render();
    if (this.showSolution) void this.refreshSolution();
  }

  // ------------------------------------------------------------ playing

  private activate(cell: number, backwards: boolean): void {
    const g = this.game;
    const board = this.board;
    if (g === undefined || board === undefined) return;
    this.stop();
    if (this.editing) {
      if (g.setLight(cell, (g.lights[cell] ?? 0) + (backwards ? -1 : 1))) this.changed();
      return;
    }
    if (board.locked[cell]) {
      this.say(`${board.labels[cell] ?? cell} is locked: it cannot be pressed.`, false);
      return;
    }
    if (g.press(cell, backwards ? board.states - 1 : 1)) {
      if (this.soundOn) this.sounds.press();
      this.changed();
    }
  }

  private undo(): void {
    this.stop();
    if (this.game?.undo() !== undefined) this.changed();
  }

  private redo(): void {
    this.stop();
    if (this.game?.redo() !== undefined) this.changed();
  }

  private reset(): void {
    this.stop();
    if (this.game?.reset()) this.changed();
  }

  private toggleEdit(): void {
    this.stop();
    this.editing = !this.editing;
    this.view.setEditing(this.editing);
    this.message = "";
    this.render();
  }

  /** The win moment: the lights celebrate, the presses against the minimum, the next level. */
  private win(): void {
    const g = this.game;
    const board = this.board;
    if (g === undefined || board === undefined) return;
    const report = board.report;
    const min = report?.presses ?? null;
    const presses = `${g.presses} ${g.presses === 1 ? "press" : "presses"}`;
    let text: string;
    if (min === null || !g.playedFromStart) text = `in ${presses}.`;
    else if (g.presses <= min && report?.optimal) text = `in ${presses}: the minimum. A perfect solve!`;
    else text = `in ${presses}; the ${report?.optimal ? "minimum" : "best known"} is ${min}.`;
    this.winPresses.textContent = text;
    const next = this.nextPlayable();
    this.nextLevel.hidden = next === undefined;
    this.nextLevel.disabled = next === undefined;
    this.winPanel.hidden = false;
    this.fitHeight(); // the panel takes room above the board: the board stays in view
    if (this.progress.mark(board.name)) this.drawLevels();
    this.view.celebrate();
    if (this.soundOn) this.sounds.win();
  }

  /** A published site: the address names the level (#level=N); copy it. */
  private async share(): Promise<void> {
    const link = window.location.href;
    try {
      await navigator.clipboard.writeText(link);
      this.say(`Copied a link to this level: ${link}`, false);
    } catch {
      this.say(`The link to this level: ${link}`, false);
    }
  }

  private async fromFragment(): Promise<void> {
    const level = levelInFragment(window.location.hash, this.list?.puzzles.length ?? 0);
    if (level !== undefined && level !== this.index) await this.select(level, false);
  }

  private toggleSound(): void {
    this.soundOn = !this.soundOn;
    saveSoundPreference(this.soundOn);
    this.buttons.sound.setAttribute("aria-pressed", String(this.soundOn));
    if (this.soundOn) this.sounds.press();
  }

  /**
   * "Fit": the board fills the window below the toolbar (small boards get large cells,
   * large ones shrink), at least 240 px tall.
   */
  private fitHeight(): void {
    const top = this.boardBox.getBoundingClientRect().top + window.scrollY;
    const height = Math.max(240, window.innerHeight - top - 12);
    this.boardBox.style.setProperty("--fit-height", `${Math.floor(height)}px`);
  }

  private toggleFit(): void {
    const fit = this.boardBox.classList.toggle("natural") === false;
    this.buttons.fit.setAttribute("aria-pressed", String(fit));
    this.fitHeight();
    if (this.view.focused >= 0) this.view.cellElement(this.view.focused)?.scrollIntoView({ block: "nearest", inline: "nearest" });
  }

  private toggleGoal(): void {
    this.showGoal = !this.showGoal;
    this.view.setShowGoal(this.showGoal);
    this.updateButtons();
  }

  /** The minimum solution from the current position (cached per position). */
  private async solveHere(): Promise<SolveResult> {
    const g = this.game!;
    const key = `${this.index}/${this.board!.version}/${positionKey(g.lights)}`;
    const hit = this.cache.get(key);
    if (hit !== undefined) return hit;
    const result = await this.backend.solve(this.index, g.lights.slice(), g.pressVector());
    if (this.cache.size > 64) this.cache.clear();
    this.cache.set(key, result);
    return result;
  }

  private async showHint(): Promise<void> {
    const g = this.game;
    if (g === undefined) return;
    if (g.solved) {
      this.say("Nothing to press: this is the goal.", false);
      return;
    }
    const key = positionKey(g.lights);
    let result: SolveResult;
    try {
      result = await this.solveHere();
    } catch (e) {
      this.say(`No hint: ${messageOf(e)}`, true);
      return;
    }
    if (this.game !== g || positionKey(g.lights) !== key) return;
    if (!result.solvable) {
      this.say("No hint: the goal cannot be reached from this position (unsolvable).", false);
      return;
    }
    const cell = firstPress(result.minimum);
    if (cell === undefined) {
      this.say(`No hint: ${result.status}`, false);
      return;
    }
    this.hint = cell;
    this.view.setOverlay({ hint: cell, solution: this.showSolution ? this.solution : null });
    this.view.moveFocus(cell, true);
    const left = totalPresses(result.minimum!);
    this.say(`Hint: press ${this.board!.labels[cell] ?? cell} (${left} ${left === 1 ? "press" : "presses"} to go).`, false);
  }

  private async toggleSolution(): Promise<void> {
    this.showSolution = !this.showSolution;
    this.updateButtons();
    if (this.showSolution) await this.refreshSolution();
    else this.view.setOverlay({ hint: this.hint, solution: null });
  }

  private async refreshSolution(): Promise<void> {
    const g = this.game;
    if (g === undefined) return;
    const key = positionKey(g.lights);
    try {
      const result = await this.solveHere();
      if (this.game !== g || positionKey(g.lights) !== key || !this.showSolution) return;
      this.solution = result.minimum;
      this.view.setOverlay({ hint: this.hint, solution: this.solution });
      if (!result.solvable) this.say("Unsolvable from this position: no solution to show.", false);
      else if (this.message === "" && !g.solved) this.say(`Minimum from here: ${result.status}`, false);
    } catch (e) {
      this.say(`Cannot show the solution: ${messageOf(e)}`, true);
    }
  }

  /** Press the next button of the minimum solution from here (one press). */
  private async step(): Promise<void> {
    const g = this.game;
    if (g === undefined) return;
    this.stop();
    if (g.solved) {
      this.say("Nothing to press: this is the goal.", false);
      return;
    }
    let key = positionKey(g.lights);
    if (this.stepPlan?.key !== key) {
      let result: SolveResult;
      try {
        result = await this.solveHere();
      } catch (e) {
        this.say(`Cannot step: ${messageOf(e)}`, true);
        return;
      }
      if (this.game !== g || positionKey(g.lights) !== key) return;
      if (!result.solvable || result.minimum === null) {
        this.say(result.solvable ? `Cannot step: ${result.status}` : "Cannot step: unsolvable from this position.", false);
        return;
      }
      this.stepPlan = { key, counts: result.minimum.slice() };
    }
    const plan = this.stepPlan!;
    const cell = firstPress(plan.counts);
    if (cell === undefined) return;
    g.press(cell, 1);
    plan.counts[cell]! -= 1;
    key = positionKey(g.lights);
    plan.key = key;
    this.view.flash(cell);
    this.changed();
    const left = totalPresses(plan.counts);
    if (!g.solved) this.say(`Step: pressed ${this.board!.labels[cell] ?? cell}; ${left} to go.`, false);
  }

  // ------------------------------------------------------------ light chasing

  private stop(): void {
    if (this.animation !== undefined) {
      this.animation.cancelled = true;
      this.animation = undefined;
      this.updateButtons();
    }
  }

  private async animate(presses: Press[], token: Animation): Promise<boolean> {
    const g = this.game!;
    const reduced = window.matchMedia?.("(prefers-reduced-motion: reduce)").matches === true;
    const delay = reduced ? 0 : Math.max(12, Math.min(160, 5000 / Math.max(1, presses.length)));
    for (const p of presses) {
      if (token.cancelled || this.game !== g) return false;
      g.press(p.cell, p.times);
      this.view.flash(p.cell);
      this.hint = undefined;
      this.render();
      await sleep(delay);
    }
    return !token.cancelled && this.game === g;
  }

  /** Light chasing, animated: chase down, the first-row fix-up, chase again. */
  private async chase(): Promise<void> {
    const g = this.game;
    const board = this.board;
    if (this.animation !== undefined) {
      this.stop();
      this.say("Chase stopped.", false);
      return;
    }
    if (g === undefined || board === undefined || !board.chase) return;
    if (this.editing) this.toggleEdit();
    const token: Animation = { cancelled: false };
    this.animation = token;
    this.showSolution = false;
    this.updateButtons();
    const start = g.lights.slice();
    const index = this.index;
    try {
      const plan = await planChaseToGoal(board, start, (lights) => this.backend.solve(index, lights));
      for (const phase of plan.phases) {
        if (token.cancelled) return;
        this.say(
          phase.kind === "chase"
            ? "Chasing: each row is put right by pressing the cells below it…"
            : phase.kind === "fix-up"
              ? "Fix-up: pressing the first row as the minimum solution from the start does…"
              : "Chasing again…",
          false,
        );
        if (!(await this.animate(phase.presses, token))) return;
      }
      if (g.solved) this.say("Chased to the goal.", false);
      else this.say(plan.note ?? "The chase stopped short of the goal.", false);
    } catch (e) {
      this.say(`Chase failed: ${messageOf(e)}`, true);
    } finally {
      if (this.animation === token) this.animation = undefined;
      this.updateButtons();
    }
  }

  // ------------------------------------------------------------ writing back

  private async writeBack(): Promise<void> {
    const g = this.game;
    if (g === undefined) return;
    this.stop();
    const writing = this.backend.writeBack(this.index, g.lights.slice(), this.board?.version);
    this.lastWrite = writing.catch(() => undefined);
    try {
      const result = await writing;
      this.say(result.message, false);
      if (result.text !== undefined) this.offerText(result.text);
    } catch (e) {
      this.say(`Not written: ${messageOf(e)}`, true);
    }
  }

  /** The last write-back's answer when the change to `version` is that write's (waiting for it if it is under way). */
  private async ownWrite(version: number | undefined): Promise<WriteBackResult | undefined> {
    if (version === undefined || this.lastWrite === undefined) return undefined;
    const result = await this.lastWrite;
    return result?.version === version ? result : undefined;
  }

  /** The browser: the `lights` statement to copy or download. */
  private offerText(text: string): void {
    const area = h("textarea", { id: "writeback-text", readonly: "", rows: String(Math.min(20, text.split("\n").length + 1)), "aria-label": "The lights statement" });
    area.value = text;
    const copy = button("copy", "Copy", "Copy the statement to the clipboard");
    const download = button("download", "Download", "Save the statement as a file");
    const close = button("close-writeback", "Close", "Hide this");
    copy.addEventListener("click", async () => {
      try {
        await navigator.clipboard.writeText(text);
        this.say("Copied: paste it over the puzzle's lights statement.", false);
      } catch {
        area.select();
        this.say("Select and copy the text (the clipboard is not available here).", false);
      }
    });
    download.addEventListener("click", () => {
      const url = URL.createObjectURL(new Blob([`${text}\n`], { type: "text/plain" }));
      const name = (this.board?.name ?? "puzzle").replace(/[^A-Za-z0-9._-]+/g, "-");
      const a = h("a", { href: url, download: `${name}-lights.txt` });
      document.body.append(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(url), 1000);
    });
    close.addEventListener("click", () => this.writebackPanel.setAttribute("hidden", ""));
    this.writebackPanel.replaceChildren(
      h("p", {}, `The puzzle's lights statement for this position:`),
      area,
      h("div", { class: "group" }, copy, download, close),
    );
    this.writebackPanel.removeAttribute("hidden");
  }

  // ------------------------------------------------------------ keyboard

  private key(e: KeyboardEvent): void {
    const target = e.target as HTMLElement | null;
    const tag = target?.tagName ?? "";
    if (tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT" || e.altKey || e.defaultPrevented) return;
    const ctrl = e.ctrlKey || e.metaKey;
    const k = e.key;
    let handled = true;
    if (ctrl && (k === "z" || k === "Z")) {
      if (e.shiftKey) this.redo();
      else this.undo();
    } else if (ctrl && (k === "y" || k === "Y")) this.redo();
    else if (ctrl) handled = false;
    else if (k === "u") this.undo();
    else if (k === "r") this.redo();
    else if (k === "R") this.reset();
    else if (k === "h") void this.showHint();
    else if (k === "s") void this.step();
    else if (k === "v") void this.toggleSolution();
    else if (k === "c") {
      if (this.board?.chase) void this.chase();
    } else if (k === "g") this.toggleGoal();
    else if (k === "e") this.toggleEdit();
    else if (k === "f") this.toggleFit();
    else if (k === "n" && !this.winPanel.hidden) void this.goNext();
    else if (k === "Escape") {
      if (this.animation !== undefined) {
        this.stop();
        this.say("Chase stopped.", false);
      } else if (this.hint !== undefined) {
        this.hint = undefined;
        this.render();
      } else handled = false;
    } else handled = false;
    if (handled) e.preventDefault();
  }
}

// ---------------------------------------------------------------- start

declare const acquireVsCodeApi: undefined | (() => { postMessage(message: unknown): void });

/** `#level=N` (1-based) in a published site's address, as an index; else undefined. */
function levelInFragment(hash: string, count: number): number | undefined {
  const m = /(?:^#|&)level=(\d+)(?:&|$)/.exec(hash);
  if (m === null) return undefined;
  const n = Number(m[1]);
  return n >= 1 && n <= count ? n - 1 : undefined;
}

function chooseBackend(): Backend {
  const site = (window as { LIGHTS_SITE?: SiteData }).LIGHTS_SITE;
  if (site !== undefined && Array.isArray(site.levels)) return new StaticBackend(site);
  if (typeof acquireVsCodeApi === "function") {
    const api = acquireVsCodeApi();
    const backend = new MessageBackend((m) => api.postMessage(m));
    window.addEventListener("message", (e) => backend.receive(e.data));
    return backend;
  }
  return new HttpBackend("");
}

function main(): void {
  let root = document.getElementById("app");
  if (root === null) {
    root = h("main", { id: "app" });
    document.body.append(root);
  }
  const backend = chooseBackend();
  document.documentElement.dataset.host = backend.host;
  const player = new Player(root, backend);
  void player.start();
}

if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", main);
else main();
