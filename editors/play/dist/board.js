// Generated from editors/play/src by editors/vscode/scripts/build-play.mjs: do not edit (npm run build:play).

// src/backend.ts
var HttpError = class extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
};
function messageOf(e) {
  return e instanceof Error ? e.message : String(e);
}
var HttpBackend = class {
  constructor(base = "", fetchFn = (input, init) => fetch(input, init), pollMs = 1e3) {
    this.base = base;
    this.fetchFn = fetchFn;
    this.pollMs = pollMs;
    this.host = "browser";
    this.offline = false;
    this.readOnly = false;
  }
  async call(path, body) {
    const init = body === void 0 ? void 0 : { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) };
    let res;
    try {
      res = await this.fetchFn(this.base + path, init);
    } catch {
      throw new Error("the lights play server does not answer (was it stopped?)");
    }
    let data;
    try {
      data = await res.json();
    } catch {
      data = void 0;
    }
    if (!res.ok) {
      const error = data?.error;
      throw new HttpError(res.status, typeof error === "string" ? error : `${res.status} ${res.statusText}`);
    }
    return data;
  }
  async puzzles() {
    const list = await this.call("/api/puzzles");
    this.readOnly = list.read_only === true;
    return list;
  }
  board(puzzle) {
    return this.call(`/api/puzzle/${puzzle}`);
  }
  solve(puzzle, lights) {
    return this.call(`/api/puzzle/${puzzle}/solve`, { lights });
  }
  /**
   * Write the position into the file (`POST …/write` with the board's version: the server
   * answers 409 when the file moved on, and nothing is written). A server started with
   * `--read-only` (the puzzle list says so) gives the statement to copy instead.
   */
  async writeBack(puzzle, lights, version) {
    if (!this.readOnly) {
      try {
        const written = await this.call(`/api/puzzle/${puzzle}/write`, { lights, version });
        return { message: written.message, version: written.version };
      } catch (e) {
        if (!(e instanceof HttpError) || e.status !== 403) throw e;
      }
    }
    const { text } = await this.call(`/api/puzzle/${puzzle}/lights`, { lights });
    return {
      message: "This server does not write the file (--read-only): copy or download the position as the puzzle's lights statement.",
      text
    };
  }
  /** Poll GET /api/version; a new version means the file changed. */
  watch(listener) {
    this.dispose();
    const poll = async () => {
      try {
        const { version } = await this.call("/api/version");
        if (this.offline) {
          this.offline = false;
          listener({ kind: "online" });
        }
        if (this.version !== void 0 && version !== this.version) listener({ kind: "changed", version });
        this.version = version;
      } catch (e) {
        if (!this.offline) {
          this.offline = true;
          listener({ kind: "offline", message: messageOf(e) });
        }
      }
    };
    void poll();
    this.timer = setInterval(() => void poll(), this.pollMs);
  }
  dispose() {
    if (this.timer !== void 0) clearInterval(this.timer);
    this.timer = void 0;
  }
};
var MessageBackend = class {
  constructor(post) {
    this.post = post;
    this.host = "vscode";
    this.nextId = 1;
    this.pending = /* @__PURE__ */ new Map();
  }
  /** Give every message from the extension to this. */
  receive(message) {
    const m = message;
    if (typeof m !== "object" || m === null) return;
    if (m.type === "response") {
      const p = this.pending.get(m.id);
      if (p === void 0) return;
      this.pending.delete(m.id);
      if (typeof m.error === "string") p.reject(new Error(m.error));
      else p.resolve(m.result);
    } else if (m.type === "changed") {
      this.listener?.({ kind: "changed", version: m.version });
    } else if (m.type === "select" && Number.isInteger(m.puzzle)) {
      this.listener?.({ kind: "select", puzzle: m.puzzle });
    }
  }
  call(method, params) {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      const request = { type: "request", id, method };
      if (params !== void 0) request.params = params;
      try {
        this.post(request);
      } catch (e) {
        this.pending.delete(id);
        reject(new Error(messageOf(e)));
      }
    });
  }
  puzzles() {
    return this.call("puzzles");
  }
  board(puzzle) {
    return this.call("board", { puzzle });
  }
  solve(puzzle, lights) {
    return this.call("solve", { puzzle, lights });
  }
  writeBack(puzzle, lights, version) {
    return this.call("writeBack", version === void 0 ? { puzzle, lights } : { puzzle, lights, version });
  }
  watch(listener) {
    this.listener = listener;
  }
  dispose() {
    for (const p of this.pending.values()) p.reject(new Error("closed"));
    this.pending.clear();
    this.listener = void 0;
  }
};

// src/model.ts
function mod(x, w) {
  const r = x % w;
  return r < 0 ? r + w : r;
}
function pressInto(board, lights, cell, times) {
  const w = board.states;
  for (const [target, weight] of board.presses[cell] ?? []) {
    lights[target] = mod((lights[target] ?? 0) + mod(times, w) * mod(weight, w), w);
  }
}
function applyCounts(board, lights, counts) {
  const out = lights.slice();
  counts.forEach((n, cell) => {
    if (n !== 0) pressInto(board, out, cell, n);
  });
  return out;
}
function isSolved(board, lights) {
  for (let i = 0; i < lights.length; i++) {
    if (!board.holes[i] && lights[i] !== board.goal[i]) return false;
  }
  return true;
}
function pressable(board, cell) {
  return cell >= 0 && cell < board.presses.length && !board.holes[cell] && !board.locked[cell];
}
function positionKey(lights) {
  return lights.join(",");
}
var Game = class {
  constructor(board, start = board.lights) {
    this.board = board;
    this.presses = 0;
    this.done = [];
    this.undone = [];
    this.lights = start.slice();
    this.startedAtLights = positionKey(start) === positionKey(board.lights);
  }
  get solved() {
    return isSolved(this.board, this.lights);
  }
  get canUndo() {
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
  pressVector() {
    if (!this.playedFromStart) return void 0;
    const counts = new Array(this.lights.length).fill(0);
    for (let i = this.done.length - 1; i >= 0; i--) {
      const a = this.done[i];
      if (a.kind === "jump") break;
      if (a.kind === "press") counts[a.cell] = mod((counts[a.cell] ?? 0) + a.times, this.board.states);
    }
    return counts;
  }
  get playedFromStart() {
    const start = positionKey(this.board.lights);
    for (let i = this.done.length - 1; i >= 0; i--) {
      const a = this.done[i];
      if (a.kind === "set") return false;
      if (a.kind === "jump") return positionKey(a.to) === start && a.pressesTo === 0;
    }
    return this.startedAtLights;
  }
  get canRedo() {
    return this.undone.length > 0;
  }
  /** Press a cell `times` times (1…W−1); false (and nothing changes) for a hole or a locked button. */
  press(cell, times = 1) {
    const t = mod(times, this.board.states);
    if (!pressable(this.board, cell) || t === 0) return false;
    this.perform({ kind: "press", cell, times: t });
    return true;
  }
  /** Edit mode: set a light directly (not a press). False for a hole. */
  setLight(cell, value) {
    if (cell < 0 || cell >= this.lights.length || this.board.holes[cell]) return false;
    const to = mod(value, this.board.states);
    const from = this.lights[cell] ?? 0;
    if (from === to) return false;
    this.perform({ kind: "set", cell, from, to });
    return true;
  }
  /** Back to the puzzle's own lights and no presses (undoable). */
  reset() {
    return this.jump(this.board.lights, 0);
  }
  /** Go to a position in one undoable step. */
  jump(lights, presses = this.presses) {
    if (positionKey(lights) === positionKey(this.lights) && presses === this.presses) return false;
    this.perform({ kind: "jump", from: this.lights.slice(), to: lights.slice(), pressesFrom: this.presses, pressesTo: presses });
    return true;
  }
  undo() {
    const a = this.done.pop();
    if (a === void 0) return void 0;
    this.apply(a, true);
    this.undone.push(a);
    return a;
  }
  redo() {
    const a = this.undone.pop();
    if (a === void 0) return void 0;
    this.apply(a, false);
    this.done.push(a);
    return a;
  }
  perform(a) {
    this.apply(a, false);
    this.done.push(a);
    this.undone = [];
  }
  apply(a, backwards) {
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
};
function firstPress(minimum) {
  if (!minimum) return void 0;
  const i = minimum.findIndex((n) => n > 0);
  return i < 0 ? void 0 : i;
}
function totalPresses(minimum) {
  return minimum.reduce((a, b) => a + b, 0);
}
function weightOf(board, from, to) {
  let w = 0;
  for (const [t, weight] of board.presses[from] ?? []) if (t === to) w += weight;
  return mod(w, board.states);
}
function timesFor(d, w, states) {
  d = mod(d, states);
  if (d === 0) return 0;
  if (w === 1) return d;
  for (let k = 1; k < states; k++) if (mod(k * w, states) === d) return k;
  return void 0;
}
function planChase(board, lights) {
  const { rows, cols } = board;
  const work = lights.slice();
  const plan = [];
  for (let r = 0; r + 1 < rows; r++) {
    for (let c = 0; c < cols; c++) {
      const cell = r * cols + c;
      const below = cell + cols;
      const d = (board.goal[cell] ?? 0) - (work[cell] ?? 0);
      const k = timesFor(d, weightOf(board, below, cell), board.states);
      if (k === void 0 || k === 0 || !pressable(board, below)) continue;
      pressInto(board, work, below, k);
      plan.push({ cell: below, times: k });
    }
  }
  return plan;
}
function fixUpPlan(board, minimum) {
  const out = [];
  for (let c = 0; c < board.cols; c++) {
    const times = minimum[c] ?? 0;
    if (times > 0 && pressable(board, c)) out.push({ cell: c, times });
  }
  return out;
}
async function planChaseToGoal(board, lights, solve) {
  const first = planChase(board, lights);
  let work = lights.slice();
  for (const p of first) pressInto(board, work, p.cell, p.times);
  const phases = [{ kind: "chase", presses: first }];
  if (isSolved(board, work)) return { phases, solvable: true, end: work };
  const result = await solve(lights.slice());
  if (!result.solvable || result.minimum === null) {
    return {
      phases,
      solvable: result.solvable,
      end: work,
      note: result.solvable ? result.status : "the last row cannot be cleared: there is no solution from this position"
    };
  }
  const fix = fixUpPlan(board, result.minimum);
  for (const p of fix) pressInto(board, work, p.cell, p.times);
  const again = planChase(board, work);
  for (const p of again) pressInto(board, work, p.cell, p.times);
  phases.push({ kind: "fix-up", presses: fix }, { kind: "chase again", presses: again });
  return { phases, solvable: true, end: work };
}

// src/static.ts
function decodeBase64(text) {
  const raw = atob(text);
  const out = new Uint8Array(raw.length);
  for (let i = 0; i < raw.length; i++) out[i] = raw.charCodeAt(i);
  return out;
}
function applyMap(rows, b, states) {
  return rows.map((row) => {
    const bytes = decodeBase64(row);
    let sum = 0;
    for (let j = 0; j < b.length; j++) {
      const v = b[j] ?? 0;
      if (v === 0) continue;
      const m = states === 2 ? (bytes[j >> 3] ?? 0) >> (j & 7) & 1 : bytes[j] ?? 0;
      sum = (sum + m * v) % states;
    }
    return sum;
  });
}
function reaches(board, lights, x) {
  return isSolved(board, applyCounts(board, lights, x));
}
var StaticBackend = class {
  constructor(site) {
    this.site = site;
    this.host = "static";
  }
  level(puzzle) {
    const level = this.site.levels[puzzle];
    if (level === void 0) throw new Error(`there is no level ${puzzle + 1}`);
    return level;
  }
  puzzles() {
    return Promise.resolve({
      file: this.site.title,
      pack: this.site.pack,
      version: 0,
      puzzles: this.site.levels.map((l, index) => ({
        index,
        name: l.board.name,
        kind: "puzzle",
        playable: true,
        why: null,
        status: l.board.report?.status ?? ""
      }))
    });
  }
  board(puzzle) {
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
  solve(puzzle, lights, presses) {
    const { board, hints } = this.level(puzzle);
    const w = board.states;
    const report = board.report;
    const answer = (x, optimal) => ({
      solvable: true,
      solutions: report?.solutions ?? "1",
      presses: totalPresses(x),
      optimal,
      minimum: x,
      status: optimal ? `minimum ${totalPresses(x)} presses` : `a solution of ${totalPresses(x)} presses`
    });
    if (presses !== void 0 && report?.minimum) {
      const x = report.minimum.map((m, i) => mod(m - (presses[i] ?? 0), w));
      if (reaches(board, lights, x)) {
        const optimal = report.optimal && report.presses !== null && totalPresses(x) + totalPresses(presses) === report.presses;
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
        status: "the goal cannot be reached from this position"
      });
    }
    return Promise.reject(new Error(`hints here follow the level from its start only (${hints.reason}); Reset to get them`));
  }
  writeBack() {
    return Promise.reject(new Error("a published site has no file to write"));
  }
  watch(_listener) {
  }
  dispose() {
  }
};

// src/progress.ts
function defaultStore() {
  try {
    return typeof localStorage === "undefined" ? void 0 : localStorage;
  } catch {
    return void 0;
  }
}
var Progress = class {
  constructor(pack, store = defaultStore()) {
    this.store = store;
    this.solved = /* @__PURE__ */ new Set();
    this.key = `lights-progress:${pack}`;
    try {
      const raw = this.store?.getItem(this.key);
      const parsed = raw ? JSON.parse(raw) : [];
      if (Array.isArray(parsed)) {
        for (const name of parsed) if (typeof name === "string") this.solved.add(name);
      }
    } catch {
    }
  }
  has(name) {
    return this.solved.has(name);
  }
  /** Mark `name` solved; true when it was not before. */
  mark(name) {
    if (this.solved.has(name)) return false;
    this.solved.add(name);
    try {
      this.store?.setItem(this.key, JSON.stringify([...this.solved]));
    } catch {
    }
    return true;
  }
  get count() {
    return this.solved.size;
  }
};
function soundPreference(store = defaultStore()) {
  try {
    return store?.getItem("lights-sound") === "on";
  } catch {
    return false;
  }
}
function saveSoundPreference(on, store = defaultStore()) {
  try {
    store?.setItem("lights-sound", on ? "on" : "off");
  } catch {
  }
}
var Sounds = class {
  tone(freq, start, length, gain) {
    const ctx = this.context;
    if (ctx === void 0) return;
    const osc = ctx.createOscillator();
    const amp = ctx.createGain();
    osc.type = "triangle";
    osc.frequency.value = freq;
    const t = ctx.currentTime + start;
    amp.gain.setValueAtTime(0, t);
    amp.gain.linearRampToValueAtTime(gain, t + 0.01);
    amp.gain.exponentialRampToValueAtTime(1e-4, t + length);
    osc.connect(amp).connect(ctx.destination);
    osc.start(t);
    osc.stop(t + length + 0.02);
  }
  ready() {
    if (this.context === void 0) {
      const Ctx = globalThis.AudioContext;
      if (Ctx === void 0) return false;
      try {
        this.context = new Ctx();
      } catch {
        return false;
      }
    }
    return true;
  }
  press() {
    if (this.ready()) this.tone(660, 0, 0.06, 0.08);
  }
  win() {
    if (!this.ready()) return;
    [523.25, 659.25, 783.99, 1046.5].forEach((f, i) => this.tone(f, i * 0.09, 0.5, 0.09));
  }
};

// src/geometry.ts
var PITCH = 40;
var GAP = 3;
var GLUE_MARGIN = 26;
var PLANE_MARGIN = 8;
var PALETTE_SLOTS = 1024;
function paletteSlot(v, states) {
  if (states <= PALETTE_SLOTS || v === 0) return v;
  if (v >= states - 1) return PALETTE_SLOTS - 1;
  return 1 + Math.floor((v - 1) * (PALETTE_SLOTS - 2) / (states - 2));
}
function stateColour(v, states, palette) {
  return palette[paletteSlot(v, states)] ?? (v === 0 ? "#1f2433" : "#ffd84d");
}
function textColour(fill) {
  const n = parseInt(fill.slice(1), 16);
  const [r, g, b] = [n >> 16 & 255, n >> 8 & 255, n & 255];
  return 0.299 * r + 0.587 * g + 0.114 * b > 150 ? "#111111" : "#ffffff";
}
function showsNumbers(mode, states) {
  return mode === "always" || mode === "auto" && states > 2;
}
function geometry(board) {
  const glued = board.gluing !== void 0 && (board.gluing.columns !== "open" || board.gluing.rows !== "open");
  const margin = board.shape === "graph" || glued || board.gluing === void 0 ? GLUE_MARGIN : PLANE_MARGIN;
  const { rows, cols } = board;
  const n = board.shape === "graph" ? board.holes.length || cols : rows * cols;
  const cells = new Array(n);
  if (board.shape === "graph" && board.graph !== null) {
    const layout = board.graph.layout;
    const radius = board.graph.node_radius > 0 ? board.graph.node_radius : 0.5 / Math.max(1, n);
    const extent = Math.max(PITCH * Math.max(4, 1.7 * Math.sqrt(n)), Math.min(6 / radius, 4e4));
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
    const x12 = margin + cols * PITCH + (rows > 1 ? PITCH / 2 : 0);
    const y12 = margin + 2 * R + (rows - 1) * dy;
    return { width: x12 + margin, height: y12 + margin, cells, frame: { x0: margin, y0: margin, x1: x12, y1: y12 }, kind: "hex" };
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

// src/view.ts
var SVG_NS = "http://www.w3.org/2000/svg";
var f1 = (x) => (Math.round(x * 10) / 10).toString();
function hexPoints(x, y, r) {
  const R = r * 2 / Math.sqrt(3) - GAP * 0.6;
  const pts = [];
  for (let k = 0; k < 6; k++) {
    const a = Math.PI / 180 * (60 * k - 90);
    pts.push(`${f1(x + R * Math.cos(a))},${f1(y + R * Math.sin(a))}`);
  }
  return pts.join(" ");
}
function shapeMarkup(kind, g, cls, fill) {
  const attrs = `class="${cls}" fill="${fill}"`;
  if (kind === "graph") return `<circle ${attrs} cx="${f1(g.x)}" cy="${f1(g.y)}" r="${f1(g.r)}"/>`;
  if (kind === "hex") return `<polygon ${attrs} points="${hexPoints(g.x, g.y, g.r)}"/>`;
  const s = PITCH - GAP;
  return `<rect ${attrs} x="${f1(g.x - s / 2)}" y="${f1(g.y - s / 2)}" width="${s}" height="${s}" rx="4"/>`;
}
function escapeXml(text) {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}
function fontSize(r, text) {
  return Math.max(5, Math.min(r * 0.95, r * 1.7 / (0.62 * Math.max(1, text.length))));
}
var GLUE_COLOURS = { columns: "#4fc3f7", rows: "#f48fb1" };
function chevrons(x, y, dx, dy, count) {
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
function gluingMarkup(board, frame) {
  const out = [];
  const off = 11;
  const { x0, y0, x1, y1 } = frame;
  const edge = (pair, side, gluing, ax, ay, bx, by, forward) => {
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
      `<g class="glue-arrow glue-${pair}" data-gluing="${gluing}" data-edge="${side}" data-pair="${pair}"><title>${escapeXml(`${board.topology}: the ${what} are ${how}`)}</title><line x1="${f1(ax)}" y1="${f1(ay)}" x2="${f1(bx)}" y2="${f1(by)}" stroke="${colour}"/><path d="${chevrons((ax + bx) / 2, (ay + by) / 2, dx, dy, pair === "columns" ? 1 : 2)}" stroke="${colour}"/></g>`
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
var BoardView = class {
  constructor(container, callbacks) {
    this.container = container;
    this.callbacks = callbacks;
    this.elements = [];
    this.shown = [];
    this.numbers = false;
    this.focusIndex = -1;
    this.solutionCells = [];
    this.svg = document.createElementNS(SVG_NS, "svg");
    this.svg.setAttribute("class", "board");
    this.svg.setAttribute("role", "group");
    container.appendChild(this.svg);
    this.svg.addEventListener("click", (e) => this.activate(e, e.shiftKey));
    this.svg.addEventListener("contextmenu", (e) => {
      if (this.cellOf(e.target) !== void 0) e.preventDefault();
      this.activate(e, true);
    });
    this.svg.addEventListener("keydown", (e) => this.key(e));
  }
  cellOf(target) {
    const el = target?.closest?.("[data-cell]");
    if (!el) return void 0;
    const i = Number(el.getAttribute("data-cell"));
    return Number.isInteger(i) ? i : void 0;
  }
  activate(e, backwards) {
    const cell = this.cellOf(e.target);
    if (cell === void 0) return;
    this.moveFocus(cell, true);
    this.callbacks.onActivate(cell, backwards);
  }
  key(e) {
    const cell = this.cellOf(e.target);
    if (cell === void 0 || this.geom === void 0 || this.board === void 0) return;
    if (e.key === "Enter" || e.key === " ") {
      e.preventDefault();
      this.callbacks.onActivate(cell, e.shiftKey);
      return;
    }
    const next = this.neighbour(cell, e.key);
    if (next !== void 0) {
      e.preventDefault();
      this.moveFocus(next, true);
    }
  }
  /** The cell an arrow key (or Home/End) goes to from `cell`, skipping holes. */
  neighbour(cell, key) {
    const cells = this.geom.cells;
    const present = (i) => i >= 0 && i < cells.length && cells[i] !== void 0;
    if (key === "Home" || key === "End") {
      const order = [...cells.keys()].filter(present);
      return key === "Home" ? order[0] : order[order.length - 1];
    }
    const { cols } = this.board;
    const g = cells[cell];
    if (this.geom.kind === "graph") {
      let step;
      if (key === "ArrowRight" || key === "ArrowDown") step = 1;
      else if (key === "ArrowLeft" || key === "ArrowUp") step = -1;
      else return void 0;
      for (let i = cell + step; i >= 0 && i < cells.length; i += step) if (present(i)) return i;
      return void 0;
    }
    let dr = 0;
    let dc = 0;
    if (key === "ArrowRight") dc = 1;
    else if (key === "ArrowLeft") dc = -1;
    else if (key === "ArrowDown") dr = 1;
    else if (key === "ArrowUp") dr = -1;
    else return void 0;
    for (let r = g.row + dr, c = g.col + dc; r >= 0 && r < this.board.rows && c >= 0 && c < cols; r += dr, c += dc) {
      const i = r * cols + c;
      if (present(i)) return i;
    }
    return void 0;
  }
  /** Make `cell` the one focusable cell (roving tabindex); focus it when `focus`. */
  moveFocus(cell, focus) {
    const el = this.elements[cell];
    if (el === void 0) return;
    const old = this.elements[this.focusIndex];
    if (old !== void 0 && old !== el) old.setAttribute("tabindex", "-1");
    el.setAttribute("tabindex", "0");
    this.focusIndex = cell;
    if (focus) el.focus();
  }
  get focused() {
    return this.focusIndex;
  }
  cellElement(cell) {
    return this.elements[cell];
  }
  /**
   * The win moment: a wave of light across the board from its top-left corner
   * (CSS animation `celebrate`; none under prefers-reduced-motion).
   */
  celebrate() {
    const geom = this.geom;
    if (geom === void 0) return;
    let far = 1;
    for (const c of geom.cells) if (c) far = Math.max(far, c.x + c.y);
    this.elements.forEach((el, i) => {
      const c = geom.cells[i];
      if (el && c) el.style.setProperty("--wave", String(((c.x + c.y) / far).toFixed(3)));
    });
    this.svg.classList.remove("won");
    void this.svg.getBoundingClientRect();
    this.svg.classList.add("won");
  }
  /** Draw a new board at position `lights`. */
  setBoard(board, lights, mode) {
    this.board = board;
    const geom = geometry(board);
    this.geom = geom;
    this.numbers = showsNumbers(mode, board.states);
    this.hint = void 0;
    this.solutionCells = [];
    const parts = [
      `<defs><pattern id="lights-hatch" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)"><line x1="0" y1="0" x2="0" y2="6" class="hatch-line"/></pattern></defs>`
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
        const cls = dashed[k] === true ? "edge dashed" : "edge";
        if (p && q) parts.push(`<line class="${cls}" x1="${f1(p.x)}" y1="${f1(p.y)}" x2="${f1(q.x)}" y2="${f1(q.y)}"/>`);
      });
      parts.push(`</g>`);
    }
    parts.push(`<g class="cells">`);
    geom.cells.forEach((g, i) => {
      if (g !== void 0) parts.push(this.cellMarkup(board, geom.kind, g, i, lights[i] ?? 0));
    });
    parts.push(`</g>`);
    this.svg.setAttribute("viewBox", `0 0 ${f1(geom.width)} ${f1(geom.height)}`);
    this.svg.setAttribute("preserveAspectRatio", "xMidYMin meet");
    const scale = 56 / PITCH;
    this.svg.setAttribute("width", f1(geom.width * scale));
    this.svg.setAttribute("height", f1(geom.height * scale));
    this.svg.setAttribute("aria-label", `${board.name}: ${board.rows}×${board.cols} ${board.shape} board, ${board.states} states`);
    this.svg.classList.toggle("graph", geom.kind === "graph");
    this.svg.classList.remove("won");
    this.svg.innerHTML = parts.join("");
    this.elements = new Array(geom.cells.length);
    for (const el of Array.from(this.svg.querySelectorAll("g[data-cell]"))) {
      this.elements[Number(el.getAttribute("data-cell"))] = el;
    }
    this.shown = lights.slice();
    const first = geom.cells.findIndex((g) => g !== void 0);
    this.focusIndex = -1;
    if (first >= 0) this.moveFocus(first, false);
  }
  label(board, i, v) {
    const where = board.shape === "graph" ? `node ${board.labels[i] ?? i + 1}` : `cell ${board.labels[i] ?? i}`;
    const lock = board.locked[i] ? ", locked" : "";
    return `${where}: ${v}, goal ${board.goal[i] ?? 0}${lock}`;
  }
  cellMarkup(board, kind, g, i, v) {
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
      `aria-label="${escapeXml(this.label(board, i, v))}"`
    ].filter((a) => a !== "");
    let inner = shapeMarkup(kind, g, "shape", fill);
    if (locked) inner += shapeMarkup(kind, g, "lock-mark", "url(#lights-hatch)");
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
  update(lights) {
    const board = this.board;
    if (board === void 0) return;
    for (let i = 0; i < lights.length; i++) {
      const v = lights[i] ?? 0;
      if (v === this.shown[i]) continue;
      this.shown[i] = v;
      const el = this.elements[i];
      if (el === void 0) continue;
      const fill = stateColour(v, board.states, board.palette);
      el.setAttribute("data-value", String(v));
      el.setAttribute("aria-label", this.label(board, i, v));
      el.querySelector(".shape")?.setAttribute("fill", fill);
      const number = el.querySelector(".cell-number");
      if (number !== null) {
        number.textContent = String(v);
        number.setAttribute("fill", textColour(fill));
        const g = this.geom.cells[i];
        number.setAttribute("font-size", f1(fontSize(g.r, String(v))));
      }
      el.querySelector(".node-label.inside")?.setAttribute("fill", textColour(fill));
    }
  }
  /** Flash a cell briefly (animated presses). */
  flash(cell) {
    const el = this.elements[cell];
    if (el === void 0) return;
    el.classList.remove("flash");
    void el.getBoundingClientRect();
    el.classList.add("flash");
  }
  setOverlay(overlay) {
    if (this.hint !== overlay.hint) {
      if (this.hint !== void 0) this.elements[this.hint]?.classList.remove("hint");
      this.hint = overlay.hint;
      if (this.hint !== void 0) this.elements[this.hint]?.classList.add("hint");
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
        const g = this.geom.cells[i];
        if (n <= 0 || el === void 0 || g === void 0) return;
        this.solutionCells.push(i);
        el.classList.add("in-solution");
        const t = document.createElementNS(SVG_NS, "text");
        t.setAttribute("class", "solution-count");
        const k = this.geom.kind === "graph" ? 0.75 : 0.62;
        t.setAttribute("x", f1(g.x - g.r * k));
        t.setAttribute("y", f1(g.y - g.r * k));
        t.setAttribute("font-size", f1(Math.max(6, g.r * 0.55)));
        t.textContent = `×${n}`;
        el.appendChild(t);
      });
    }
  }
  setShowGoal(show) {
    this.svg.classList.toggle("show-goal", show);
  }
  setEditing(editing) {
    this.svg.classList.toggle("editing", editing);
  }
  clear() {
    this.board = void 0;
    this.geom = void 0;
    this.elements = [];
    this.svg.innerHTML = "";
    this.svg.removeAttribute("viewBox");
  }
  get element() {
    return this.container;
  }
};

// src/main.ts
function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
  for (const c of children) el.append(c);
  return el;
}
function button(id, label, title) {
  return h("button", { id, type: "button", title }, label);
}
var sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
function messageOf2(e) {
  return e instanceof Error ? e.message : String(e);
}
function gameShape(b) {
  return JSON.stringify([
    b.shape,
    b.rows,
    b.cols,
    b.states,
    b.lights,
    b.goal,
    b.locked,
    b.holes,
    b.presses,
    b.gluing,
    b.labels,
    b.graph
  ]);
}
var KEYS_HELP = "Click a light to press it; right-click or Shift+click presses it W−1 times. Keys: arrows move · Enter/Space press · h hint · s step · v solution · c chase · g goal · f fit · e edit · u undo · r redo · Shift+R reset · n next level (after a win) · Esc stop";
var Player = class {
  constructor(root, backend) {
    this.backend = backend;
    this.index = 0;
    this.shape = "";
    this.editing = false;
    this.showGoal = false;
    this.showSolution = false;
    this.numbers = "auto";
    this.solution = null;
    this.message = "";
    this.error = false;
    this.loading = 0;
    this.cache = /* @__PURE__ */ new Map();
    this.progress = new Progress("");
    /** The position was at the goal when last drawn (a win is the step onto it). */
    this.wasSolved = false;
    this.soundOn = soundPreference();
    this.sounds = new Sounds();
    this.levels = h("nav", { id: "levels", class: "levels", "aria-label": "Levels" });
    this.winPresses = h("span", { id: "win-presses" });
    this.nextLevel = button("next-level", "Next level →", "Play the next level (n)");
    this.winPanel = h(
      "div",
      { id: "win", class: "win", role: "status", hidden: "" },
      h("strong", { class: "win-title" }, "Solved!"),
      this.winPresses,
      this.nextLevel
    );
    this.picker = h("select", { id: "puzzle", "aria-label": "Puzzle" });
    this.file = h("span", { id: "file", class: "file" });
    this.info = h("span", { id: "info", class: "info" });
    this.pressCount = h("span", { id: "presses" }, "0");
    this.status = h("div", { id: "status", class: "status", role: "status", "aria-live": "polite" });
    this.legend = h("div", { id: "legend", class: "legend", "aria-hidden": "true" });
    this.boardBox = h("div", { id: "board", class: "board-box" });
    this.numbersPicker = h(
      "select",
      { id: "numbers", "aria-label": "State numbers", title: "Draw each light's state number" },
      h("option", { value: "auto" }, "numbers: when W > 2"),
      h("option", { value: "always" }, "numbers: always"),
      h("option", { value: "never" }, "numbers: never")
    );
    this.buttons = {
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
      share: button("share", "Share", "Copy a link to this level")
    };
    this.writebackPanel = h("div", { id: "writeback-panel", class: "writeback-panel", hidden: "" });
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
        h("span", { class: "group" }, b.showGoal, b.fit, b.sound, this.numbersPicker)
      ),
      h("div", { class: "counters" }, h("span", {}, "Presses: "), this.pressCount, this.info),
      this.status,
      this.winPanel,
      this.boardBox,
      this.legend,
      this.writebackPanel,
      h("p", { class: "keys" }, KEYS_HELP)
    );
    this.view = new BoardView(this.boardBox, { onActivate: (cell, back) => this.activate(cell, back) });
    this.picker.addEventListener("change", () => void this.select(Number(this.picker.value), true));
    this.numbersPicker.addEventListener("change", () => {
      this.numbers = this.numbersPicker.value;
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
    const published = backend.host === "static";
    b.writeback.hidden = published;
    b.share.hidden = !published;
    if (published) window.addEventListener("hashchange", () => void this.fromFragment());
    this.nextLevel.addEventListener("click", () => void this.goNext());
    document.addEventListener("keydown", (e) => this.key(e));
    window.addEventListener("resize", () => this.fitHeight());
  }
  // ------------------------------------------------------------ loading
  async start() {
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
  initialPuzzle() {
    const list = this.list;
    const puzzles = list?.puzzles ?? [];
    if (list?.selected !== void 0) return list.selected;
    if (this.backend.host === "browser") {
      const wanted = new URLSearchParams(window.location.search).get("puzzle");
      if (wanted !== null) {
        const byName = puzzles.find((p) => p.name === wanted);
        if (byName !== void 0) return byName.index;
        if (/^\d+$/.test(wanted) && Number(wanted) < puzzles.length) return Number(wanted);
      }
    }
    if (this.backend.host === "static") {
      const level = levelInFragment(window.location.hash, puzzles.length);
      if (level !== void 0) return level;
    }
    if (typeof list?.start === "number" && list.start < puzzles.length) return list.start;
    return puzzles.find((p) => p.playable)?.index ?? 0;
  }
  async loadList() {
    try {
      this.list = await this.backend.puzzles();
    } catch (e) {
      this.say(`Cannot list the puzzles: ${messageOf2(e)}`, true);
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
  drawLevels() {
    const puzzles = this.list?.puzzles ?? [];
    const tiles = puzzles.map((p) => {
      const solved = this.progress.has(p.name);
      const tile = h(
        "button",
        { type: "button", class: solved ? "level solved" : "level", "data-index": String(p.index) },
        solved ? `✓ ${p.index + 1}` : String(p.index + 1)
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
  nextPlayable() {
    return this.list?.puzzles.find((p) => p.index > this.index && p.playable)?.index;
  }
  async goNext() {
    const next = this.nextPlayable();
    if (next !== void 0) await this.select(next, true);
  }
  /** Show puzzle `index` from its start position. */
  async select(index, fromPicker) {
    this.stop();
    const ticket = ++this.loading;
    let board;
    try {
      board = await this.backend.board(index);
    } catch (e) {
      if (ticket === this.loading) this.say(`Cannot load puzzle ${index + 1}: ${messageOf2(e)}`, true);
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
  show(board, keep) {
    const shape = board.playable ? gameShape(board) : "";
    const same = keep && this.game !== void 0 && shape === this.shape;
    this.board = board;
    this.shape = shape;
    document.documentElement.dataset.version = String(board.version);
    this.cache.clear();
    this.stepPlan = void 0;
    this.hint = void 0;
    this.solution = null;
    document.title = `${board.name} — Lights: Play`;
    this.wasSolved = true;
    this.winPanel.hidden = true;
    if (!board.playable) {
      this.game = void 0;
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
  redraw() {
    if (this.board === void 0 || !this.board.playable || this.game === void 0) return;
    this.view.setBoard(this.board, this.game.lights, this.numbers);
    this.view.setShowGoal(this.showGoal);
    this.view.setEditing(this.editing);
    this.view.setOverlay({ hint: this.hint, solution: this.showSolution ? this.solution : null });
  }
  drawLegend(board) {
    if (board.states > 16) {
      this.legend.replaceChildren(h("span", {}, `${board.states} states: 0 dark, then violet → rose → yellow (${board.states - 1})`));
      return;
    }
    const items = [];
    for (let v = 0; v < board.states; v++) {
      const swatch = h("span", { class: "swatch", "data-state": String(v) });
      swatch.style.background = stateColour(v, board.states, board.palette);
      items.push(h("span", { class: "legend-item" }, swatch, String(v)));
    }
    this.legend.replaceChildren(...items);
  }
  async onEvent(e) {
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
  async reload(version) {
    this.stop();
    await this.loadList();
    const count = this.list?.puzzles.length ?? 0;
    const index = this.index < count ? this.index : 0;
    const ticket = ++this.loading;
    try {
      const board = await this.backend.board(index);
      if (ticket !== this.loading) return;
      const kept = this.game !== void 0 && board.playable && gameShape(board) === this.shape && index === this.index;
      this.index = index;
      this.picker.value = String(index);
      this.show(board, kept);
      if (board.playable) {
        const own = await this.ownWrite(version);
        if (ticket !== this.loading) return;
        if (own !== void 0) this.say(own.message, false);
        else this.say(kept ? "The file changed; this puzzle did not." : "The file changed: reloaded.", false);
      }
    } catch (e) {
      if (ticket === this.loading) this.say(`Cannot reload: ${messageOf2(e)}`, true);
    }
  }
  // ------------------------------------------------------------ drawing
  say(message, error) {
    this.message = message;
    this.error = error;
    this.renderStatus();
  }
  renderStatus() {
    const g = this.game;
    const parts = [];
    if (g !== void 0 && g.solved) parts.push(`solved! (${g.presses} ${g.presses === 1 ? "press" : "presses"})`);
    if (this.editing) parts.push("Edit mode: clicks change lights (Shift or right-click: down); Write back puts them in the file.");
    if (this.message) parts.push(this.message);
    this.status.textContent = parts.join(" · ");
    this.status.classList.toggle("solved", g !== void 0 && g.solved);
    this.status.classList.toggle("error", this.error);
  }
  render() {
    const g = this.game;
    if (g === void 0) return;
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
  updateButtons() {
    const b = this.buttons;
    const g = this.game;
    const playing = g !== void 0;
    const animating = this.animation !== void 0;
    b.undo.disabled = !playing || !g.canUndo;
    b.redo.disabled = !playing || !g.canRedo;
    b.reset.disabled = !playing;
    for (const x of [b.hint, b.solution, b.step, b.edit, b.writeback, b.showGoal]) x.disabled = !playing;
    const chase = playing && this.board?.chase === true;
    b.chase.disabled = !chase;
    b.chase.title = chase ? "Light chasing, animated: row by row, then the first-row fix-up (c)" : "Light chasing needs a square board with the cross rule on the plane, without holes or locked buttons";
    b.chase.textContent = animating ? "Stop" : "Chase";
    b.solution.setAttribute("aria-pressed", String(this.showSolution));
    b.edit.setAttribute("aria-pressed", String(this.editing));
    b.showGoal.setAttribute("aria-pressed", String(this.showGoal));
  }
  /** After any change of the position: drop the hint, redraw, refresh the shown solution. */
  changed() {
    this.hint = void 0;
    this.message = "";
    this.error = false;
    this.render();
    if (this.showSolution) void this.refreshSolution();
  }
  // ------------------------------------------------------------ playing
  activate(cell, backwards) {
    const g = this.game;
    const board = this.board;
    if (g === void 0 || board === void 0) return;
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
  undo() {
    this.stop();
    if (this.game?.undo() !== void 0) this.changed();
  }
  redo() {
    this.stop();
    if (this.game?.redo() !== void 0) this.changed();
  }
  reset() {
    this.stop();
    if (this.game?.reset()) this.changed();
  }
  toggleEdit() {
    this.stop();
    this.editing = !this.editing;
    this.view.setEditing(this.editing);
    this.message = "";
    this.render();
  }
  /** The win moment: the lights celebrate, the presses against the minimum, the next level. */
  win() {
    const g = this.game;
    const board = this.board;
    if (g === void 0 || board === void 0) return;
    const report = board.report;
    const min = report?.presses ?? null;
    const presses = `${g.presses} ${g.presses === 1 ? "press" : "presses"}`;
    let text;
    if (min === null || !g.playedFromStart) text = `in ${presses}.`;
    else if (g.presses <= min && report?.optimal) text = `in ${presses}: the minimum. A perfect solve!`;
    else text = `in ${presses}; the ${report?.optimal ? "minimum" : "best known"} is ${min}.`;
    this.winPresses.textContent = text;
    const next = this.nextPlayable();
    this.nextLevel.hidden = next === void 0;
    this.nextLevel.disabled = next === void 0;
    this.winPanel.hidden = false;
    this.fitHeight();
    if (this.progress.mark(board.name)) this.drawLevels();
    this.view.celebrate();
    if (this.soundOn) this.sounds.win();
  }
  /** A published site: the address names the level (#level=N); copy it. */
  async share() {
    const link = window.location.href;
    try {
      await navigator.clipboard.writeText(link);
      this.say(`Copied a link to this level: ${link}`, false);
    } catch {
      this.say(`The link to this level: ${link}`, false);
    }
  }
  async fromFragment() {
    const level = levelInFragment(window.location.hash, this.list?.puzzles.length ?? 0);
    if (level !== void 0 && level !== this.index) await this.select(level, false);
  }
  toggleSound() {
    this.soundOn = !this.soundOn;
    saveSoundPreference(this.soundOn);
    this.buttons.sound.setAttribute("aria-pressed", String(this.soundOn));
    if (this.soundOn) this.sounds.press();
  }
  /**
   * "Fit": the board fills the window below the toolbar (small boards get large cells,
   * large ones shrink), at least 240 px tall.
   */
  fitHeight() {
    const top = this.boardBox.getBoundingClientRect().top + window.scrollY;
    const height = Math.max(240, window.innerHeight - top - 12);
    this.boardBox.style.setProperty("--fit-height", `${Math.floor(height)}px`);
  }
  toggleFit() {
    const fit = this.boardBox.classList.toggle("natural") === false;
    this.buttons.fit.setAttribute("aria-pressed", String(fit));
    this.fitHeight();
    if (this.view.focused >= 0) this.view.cellElement(this.view.focused)?.scrollIntoView({ block: "nearest", inline: "nearest" });
  }
  toggleGoal() {
    this.showGoal = !this.showGoal;
    this.view.setShowGoal(this.showGoal);
    this.updateButtons();
  }
  /** The minimum solution from the current position (cached per position). */
  async solveHere() {
    const g = this.game;
    const key = `${this.index}/${this.board.version}/${positionKey(g.lights)}`;
    const hit = this.cache.get(key);
    if (hit !== void 0) return hit;
    const result = await this.backend.solve(this.index, g.lights.slice(), g.pressVector());
    if (this.cache.size > 64) this.cache.clear();
    this.cache.set(key, result);
    return result;
  }
  async showHint() {
    const g = this.game;
    if (g === void 0) return;
    if (g.solved) {
      this.say("Nothing to press: this is the goal.", false);
      return;
    }
    const key = positionKey(g.lights);
    let result;
    try {
      result = await this.solveHere();
    } catch (e) {
      this.say(`No hint: ${messageOf2(e)}`, true);
      return;
    }
    if (this.game !== g || positionKey(g.lights) !== key) return;
    if (!result.solvable) {
      this.say("No hint: the goal cannot be reached from this position (unsolvable).", false);
      return;
    }
    const cell = firstPress(result.minimum);
    if (cell === void 0) {
      this.say(`No hint: ${result.status}`, false);
      return;
    }
    this.hint = cell;
    this.view.setOverlay({ hint: cell, solution: this.showSolution ? this.solution : null });
    this.view.moveFocus(cell, true);
    const left = totalPresses(result.minimum);
    this.say(`Hint: press ${this.board.labels[cell] ?? cell} (${left} ${left === 1 ? "press" : "presses"} to go).`, false);
  }
  async toggleSolution() {
    this.showSolution = !this.showSolution;
    this.updateButtons();
    if (this.showSolution) await this.refreshSolution();
    else this.view.setOverlay({ hint: this.hint, solution: null });
  }
  async refreshSolution() {
    const g = this.game;
    if (g === void 0) return;
    const key = positionKey(g.lights);
    try {
      const result = await this.solveHere();
      if (this.game !== g || positionKey(g.lights) !== key || !this.showSolution) return;
      this.solution = result.minimum;
      this.view.setOverlay({ hint: this.hint, solution: this.solution });
      if (!result.solvable) this.say("Unsolvable from this position: no solution to show.", false);
      else if (this.message === "" && !g.solved) this.say(`Minimum from here: ${result.status}`, false);
    } catch (e) {
      this.say(`Cannot show the solution: ${messageOf2(e)}`, true);
    }
  }
  /** Press the next button of the minimum solution from here (one press). */
  async step() {
    const g = this.game;
    if (g === void 0) return;
    this.stop();
    if (g.solved) {
      this.say("Nothing to press: this is the goal.", false);
      return;
    }
    let key = positionKey(g.lights);
    if (this.stepPlan?.key !== key) {
      let result;
      try {
        result = await this.solveHere();
      } catch (e) {
        this.say(`Cannot step: ${messageOf2(e)}`, true);
        return;
      }
      if (this.game !== g || positionKey(g.lights) !== key) return;
      if (!result.solvable || result.minimum === null) {
        this.say(result.solvable ? `Cannot step: ${result.status}` : "Cannot step: unsolvable from this position.", false);
        return;
      }
      this.stepPlan = { key, counts: result.minimum.slice() };
    }
    const plan = this.stepPlan;
    const cell = firstPress(plan.counts);
    if (cell === void 0) return;
    g.press(cell, 1);
    plan.counts[cell] -= 1;
    key = positionKey(g.lights);
    plan.key = key;
    this.view.flash(cell);
    this.changed();
    const left = totalPresses(plan.counts);
    if (!g.solved) this.say(`Step: pressed ${this.board.labels[cell] ?? cell}; ${left} to go.`, false);
  }
  // ------------------------------------------------------------ light chasing
  stop() {
    if (this.animation !== void 0) {
      this.animation.cancelled = true;
      this.animation = void 0;
      this.updateButtons();
    }
  }
  async animate(presses, token) {
    const g = this.game;
    const reduced = window.matchMedia?.("(prefers-reduced-motion: reduce)").matches === true;
    const delay = reduced ? 0 : Math.max(12, Math.min(160, 5e3 / Math.max(1, presses.length)));
    for (const p of presses) {
      if (token.cancelled || this.game !== g) return false;
      g.press(p.cell, p.times);
      this.view.flash(p.cell);
      this.hint = void 0;
      this.render();
      await sleep(delay);
    }
    return !token.cancelled && this.game === g;
  }
  /** Light chasing, animated: chase down, the first-row fix-up, chase again. */
  async chase() {
    const g = this.game;
    const board = this.board;
    if (this.animation !== void 0) {
      this.stop();
      this.say("Chase stopped.", false);
      return;
    }
    if (g === void 0 || board === void 0 || !board.chase) return;
    if (this.editing) this.toggleEdit();
    const token = { cancelled: false };
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
          phase.kind === "chase" ? "Chasing: each row is put right by pressing the cells below it…" : phase.kind === "fix-up" ? "Fix-up: pressing the first row as the minimum solution from the start does…" : "Chasing again…",
          false
        );
        if (!await this.animate(phase.presses, token)) return;
      }
      if (g.solved) this.say("Chased to the goal.", false);
      else this.say(plan.note ?? "The chase stopped short of the goal.", false);
    } catch (e) {
      this.say(`Chase failed: ${messageOf2(e)}`, true);
    } finally {
      if (this.animation === token) this.animation = void 0;
      this.updateButtons();
    }
  }
  // ------------------------------------------------------------ writing back
  async writeBack() {
    const g = this.game;
    if (g === void 0) return;
    this.stop();
    const writing = this.backend.writeBack(this.index, g.lights.slice(), this.board?.version);
    this.lastWrite = writing.catch(() => void 0);
    try {
      const result = await writing;
      this.say(result.message, false);
      if (result.text !== void 0) this.offerText(result.text);
    } catch (e) {
      this.say(`Not written: ${messageOf2(e)}`, true);
    }
  }
  /** The last write-back's answer when the change to `version` is that write's (waiting for it if it is under way). */
  async ownWrite(version) {
    if (version === void 0 || this.lastWrite === void 0) return void 0;
    const result = await this.lastWrite;
    return result?.version === version ? result : void 0;
  }
  /** The browser: the `lights` statement to copy or download. */
  offerText(text) {
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
      const url = URL.createObjectURL(new Blob([`${text}
`], { type: "text/plain" }));
      const name = (this.board?.name ?? "puzzle").replace(/[^A-Za-z0-9._-]+/g, "-");
      const a = h("a", { href: url, download: `${name}-lights.txt` });
      document.body.append(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(url), 1e3);
    });
    close.addEventListener("click", () => this.writebackPanel.setAttribute("hidden", ""));
    this.writebackPanel.replaceChildren(
      h("p", {}, `The puzzle's lights statement for this position:`),
      area,
      h("div", { class: "group" }, copy, download, close)
    );
    this.writebackPanel.removeAttribute("hidden");
  }
  // ------------------------------------------------------------ keyboard
  key(e) {
    const target = e.target;
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
      if (this.animation !== void 0) {
        this.stop();
        this.say("Chase stopped.", false);
      } else if (this.hint !== void 0) {
        this.hint = void 0;
        this.render();
      } else handled = false;
    } else handled = false;
    if (handled) e.preventDefault();
  }
};
function levelInFragment(hash, count) {
  const m = /(?:^#|&)level=(\d+)(?:&|$)/.exec(hash);
  if (m === null) return void 0;
  const n = Number(m[1]);
  return n >= 1 && n <= count ? n - 1 : void 0;
}
function chooseBackend() {
  const site = window.LIGHTS_SITE;
  if (site !== void 0 && Array.isArray(site.levels)) return new StaticBackend(site);
  if (typeof acquireVsCodeApi === "function") {
    const api = acquireVsCodeApi();
    const backend = new MessageBackend((m) => api.postMessage(m));
    window.addEventListener("message", (e) => backend.receive(e.data));
    return backend;
  }
  return new HttpBackend("");
}
function main() {
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
