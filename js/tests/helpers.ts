/** A fake anywidget model and protocol states for the tests. */

import type { RenderProps } from "@anywidget/types";
import { afterEach, beforeEach } from "vitest";
import type { GameState, Intent, Labels } from "../types";
import widget from "../widget";

type Handler = (...args: unknown[]) => void;

/** The English catalogue as Python sends it (`labels` trait): the board has no words of its own. */
export const LABELS: Labels = {
  title: "Klondike solitaire", new: "New", restart: "Restart", undo: "Undo", redo: "Redo", hint: "Hint",
  autocomplete: "Autocomplete", score: "Score", moves: "Moves", time: "Time", passes: "Passes left",
  stock: "Stock", waste: "Waste", foundation: "Foundation", column: "Column", draw1: "Draw 1", draw3: "Draw 3",
  "preset.standard": "Standard", "preset.traditional": "Traditional", "preset.six-column": "Six columns",
  won: "You won!", stuck: "No moves left", "new-deal": "New deal", "new-game": "New game",
  "same-rules": "Same rules", draw: "Draw", "picked-up": "Picked up {card}", "cannot-move": "The {card} cannot move now",
  "moved-to": "{card} to {place}", "no-hint": "No moves left.", "no-passes": "No passes left",
  recycle: "Turn the waste over", "face-down": "face-down card", "rank.1": "Ace", "rank.11": "Jack",
  "rank.12": "Queen", "rank.13": "King", of: "{rank} of {suit}", "suit.C": "clubs", "suit.D": "diamonds",
  "suit.H": "hearts", "suit.S": "spades", lang: "Language", "show-moves": "Show moves", rules: "Rules",
  lesson: "Lesson", first: "First step", back: "Step back", forward: "Step forward", last: "Last step",
  play: "Play", pause: "Pause", pace: "Pace", "step-of": "Step {step} of {steps}", return: "Back to the lesson",
  close: "Close", statistics: "Statistics", played: "Played", "won-count": "Won", "win-rate": "Win rate",
  "best-score": "Best score", "fewest-moves": "Fewest moves", "fastest-win": "Fastest win", streak: "Streak",
  "longest-streak": "Longest streak", "new-record": "New personal best:", "record.best_score": "best score",
  "record.fewest_moves": "fewest moves", "record.fastest_win": "fastest win", indicator: "Winnability",
  "indicator.winnable": "Winnable", "indicator.lost": "No longer winnable", "indicator.unknown": "Unknown",
  "indicator.pending": "Thinking\u2026", "records-off": "Records are off", revealed: "revealed", more: "More",
  "no-stats": "No games yet", best: "Best", "draw-n": "Draw {draw}",
};

export class FakeModel {
  data: { state: GameState; labels: Labels };
  sent: Intent[] = [];
  saves = 0;
  handlers = new Map<string, Set<Handler>>();

  constructor(state: GameState, labels: Labels = LABELS) {
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

/** A widget mounted on a fresh host with a fake model for every test of a file; removed after each test. */
export class Harness {
  host!: HTMLElement;
  model!: FakeModel;
  controller!: AbortController;
  cleanup: (() => void) | null = null;

  constructor() {
    beforeEach(() => {
      this.host = document.createElement("div");
      document.body.append(this.host);
    });
    afterEach(() => {
      this.cleanup?.();
      this.cleanup = null;
      this.host.remove();
    });
  }

  /** Renders the widget for `state` and returns its root element. */
  mount(state: GameState = startState(), labels: Labels = LABELS): HTMLElement {
    this.model = new FakeModel(state, labels);
    this.controller = new AbortController();
    const props = { model: this.model, el: this.host, signal: this.controller.signal } as unknown as RenderProps;
    this.cleanup = widget.render(props as never) as () => void;
    return this.q(".pl-root");
  }

  /** The first element under the host that matches `sel` (an error when there is none). */
  q<T extends Element = HTMLElement>(sel: string): T {
    const found = this.host.querySelector<T>(sel);
    if (!found) throw new Error(`nothing matches ${sel}`);
    return found;
  }
}
