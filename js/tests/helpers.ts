/** A fake anywidget model and protocol states for the tests. */

import type { GameState, Intent, Labels } from "../types";

type Handler = (...args: unknown[]) => void;

export class FakeModel {
  data: { state: GameState; labels: Labels };
  sent: Intent[] = [];
  saves = 0;
  handlers = new Map<string, Set<Handler>>();

  constructor(state: GameState, labels: Labels = {}) {
    this.data = { state, labels };
  }

  get<K extends keyof FakeModel["data"]>(key: K): FakeModel["data"][K] {
    return this.data[key];
  }

  set<K extends keyof FakeModel["data"]>(key: K, value: FakeModel["data"][K]): void {
    this.data[key] = value;
    this.emit(`change:${key}`);
  }

  on(name: string, cb: Handler): void {
    if (!this.handlers.has(name)) this.handlers.set(name, new Set());
    this.handlers.get(name)?.add(cb);
  }

  off(name?: string | null, cb?: Handler | null): void {
    if (!name) this.handlers.clear();
    else if (!cb) this.handlers.delete(name);
    else this.handlers.get(name)?.delete(cb);
  }

  send(msg: Intent): void {
    this.sent.push(msg);
  }

  save_changes(): void {
    this.saves++;
  }

  emit(name: string, ...args: unknown[]): void {
    for (const cb of this.handlers.get(name) ?? []) cb(...args);
  }

  listenerCount(): number {
    let n = 0;
    for (const set of this.handlers.values()) n += set.size;
    return n;
  }
}

const downs = (n: number): null[] => Array.from({ length: n }, () => null);

/** A fresh standard deal: seven columns, 24 in the stock. */
export function startState(over: Partial<GameState> = {}): GameState {
  const ups = ["5H", "6S", "AD", "9C", "KD", "2C", "QH"];
  return {
    version: 1,
    columns: 7,
    tableau: ups.map((card, i) => ({ down: downs(i), up: [card] })),
    stock: downs(24),
    waste: [],
    foundations: { C: 0, D: 0, H: 0, S: 0 },
    draw: 1,
    recycles: 0,
    passes_left: null,
    score: 0,
    moves: 0,
    seconds: 0,
    clock_running: false,
    status: "playing",
    can_undo: false,
    can_redo: false,
    can_draw: true,
    can_recycle: false,
    can_autocomplete: false,
    targets: { "5H": ["t2"], AD: ["f"] },
    last_move: null,
    rules: { preset: "standard", draw: 1, max_passes: null, foundation_to_tableau: true },
    reveal: false,
    lang: "en",
    ...over,
  };
}

/** The start state after 5H went onto the 6S of column 2. */
export function afterMove(): GameState {
  const s = startState({ version: 2, moves: 1, score: 0, can_undo: true });
  s.tableau[0] = { down: [], up: [] };
  s.tableau[1] = { down: [null], up: ["6S", "5H"] };
  s.targets = { AD: ["f"], KD: ["t1"] };
  s.last_move = { move: "t1-t2", cards: ["5H"], from: "t1", to: "t2", undo: false };
  return s;
}

export function pointer(target: Element, type: string, init: PointerEventInit = {}): void {
  const Ctor = (globalThis.PointerEvent ?? MouseEvent) as typeof PointerEvent;
  target.dispatchEvent(new Ctor(type, { bubbles: true, cancelable: true, button: 0, pointerId: 1, ...init }));
}

/** A click as the board sees it: pointerdown on the element, pointerup on the window. */
export function tap(target: Element): void {
  pointer(target, "pointerdown");
  pointer(window as unknown as Element, "pointerup");
}

export function key(target: Element, k: string, init: KeyboardEventInit = {}): KeyboardEvent {
  const e = new KeyboardEvent("keydown", { key: k, bubbles: true, cancelable: true, ...init });
  target.dispatchEvent(e);
  return e;
}
