// What the player keeps across reloads, in the browser's localStorage: the
// levels solved (per file or published pack) and whether sound is on. Any
// storage failure (disabled, full, another page's junk under our key) is
// survived: progress then lasts for the page's life only.

/** The storage the page uses (a parameter so tests can pass their own). */
export interface KeyValueStore {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
}

function defaultStore(): KeyValueStore | undefined {
  try {
    return typeof localStorage === "undefined" ? undefined : localStorage;
  } catch {
    return undefined; // a sandboxed frame can throw on the mere access
  }
}

/** The levels solved in one file or pack, by name. */
export class Progress {
  private readonly solved = new Set<string>();
  private readonly key: string;

  constructor(
    pack: string,
    private readonly store: KeyValueStore | undefined = defaultStore(),
  ) {
    this.key = `lights-progress:${pack}`;
    try {
      const raw = this.store?.getItem(this.key);
      const parsed: unknown = raw ? JSON.parse(raw) : [];
      if (Array.isArray(parsed)) for (const name of parsed) if (typeof name === "string") this.solved.add(name);
    } catch {
      // Corrupt data: start afresh (it is overwritten on the next win).
    }
  }

  has(name: string): boolean {
    return this.solved.has(name);
  }

  /** Mark `name` solved; true when it was not before. */
  mark(name: string): boolean {
    if (this.solved.has(name)) return false;
    this.solved.add(name);
    try {
      this.store?.setItem(this.key, JSON.stringify([...this.solved]));
    } catch {
      // Storage full or disabled: kept for this page's life.
    }
    return true;
  }

  get count(): number {
    return this.solved.size;
  }
}

/** Whether sound is on (off unless the player turned it on). */
export function soundPreference(store: KeyValueStore | undefined = defaultStore()): boolean {
  try {
    return store?.getItem("lights-sound") === "on";
  } catch {
    return false;
  }
}

export function saveSoundPreference(on: boolean, store: KeyValueStore | undefined = defaultStore()): void {
  try {
    store?.setItem("lights-sound", on ? "on" : "off");
  } catch {
    // Not remembered.
  }
}

/** Short sounds by WebAudio, made only after the player turned sound on. */
export class Sounds {
  private context: AudioContext | undefined;

  private tone(freq: number, start: number, length: number, gain: number): void {
    const ctx = this.context;
    if (ctx === undefined) return;
    const osc = ctx.createOscillator();
    const amp = ctx.createGain();
    osc.type = "triangle";
    osc.frequency.value = freq;
    const t = ctx.currentTime + start;
    amp.gain.setValueAtTime(0, t);
    amp.gain.linearRampToValueAtTime(gain, t + 0.01);
    amp.gain.exponentialRampToValueAtTime(0.0001, t + length);
    osc.connect(amp).connect(ctx.destination);
    osc.start(t);
    osc.stop(t + length + 0.02);
  }

  private ready(): boolean {
    if (this.context === undefined) {
      const Ctx = (globalThis as { AudioContext?: typeof AudioContext }).AudioContext;
      if (Ctx === undefined) return false;
      try {
        this.context = new Ctx();
      } catch {
        return false;
      }
    }
    return true;
  }

  press(): void {
    if (this.ready()) this.tone(660, 0, 0.06, 0.08);
  }

  win(): void {
    if (!this.ready()) return;
    [523.25, 659.25, 783.99, 1046.5].forEach((f, i) => this.tone(f, i * 0.09, 0.5, 0.09));
  }
}
