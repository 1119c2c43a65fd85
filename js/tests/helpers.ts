/** A fake anywidget model and protocol states for the tests. */

import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import type { RenderProps } from "@anywidget/types";
import { afterEach, beforeEach } from "vitest";
import type { GameState, Intent, Labels } from "../types";
import widget from "../widget";

type Handler = (...args: unknown[]) => void;

/** Every `label.` entry of a PO catalogue, keyed without the prefix: the `labels` trait as Python builds it
 * (`i18n.labels`). A small reader: `msgid`/`msgstr` pairs, continued strings, the usual escapes; a plural entry's
 * `msgstr[0]` and `msgstr[1]` become `key|one` and `key|other` (the catalogues' languages have those two forms). */
export function poLabels(text: string): Labels {
  const entries: Labels = {};
  type Field = "msgid" | "msgid_plural" | "msgstr" | "msgstr[0]" | "msgstr[1]";
  let field: Field | null = null;
  let id = "";
  let strs: Partial<Record<Field, string>> = {};
  const unquote = (quoted: string): string =>
    JSON.parse(quoted.replace(/\\([^"\\nt])/g, "$1")) as string;
  const flush = (): void => {
    const key = id.slice("label.".length);
    if (id.startsWith("label.") && strs.msgstr) entries[key] = strs.msgstr;
    if (id.startsWith("label.") && strs["msgstr[0]"]) entries[`${key}|one`] = strs["msgstr[0]"];
    if (id.startsWith("label.") && strs["msgstr[1]"]) entries[`${key}|other`] = strs["msgstr[1]"];
    id = "";
    strs = {};
    field = null;
  };
  const isStr = (f: Field | null): boolean => f !== null && f.startsWith("msgstr");
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    const start = /^(msgid|msgid_plural|msgstr|msgstr\[[01]\])\s+(".*")$/.exec(line);
    if (start) {
      if (start[1] === "msgid" && isStr(field)) flush();
      field = start[1] as Field;
      if (field === "msgid") id = unquote(start[2]);
      else strs[field] = unquote(start[2]);
    } else if (line.startsWith('"') && field) {
      if (field === "msgid") id += unquote(line);
      else strs[field] = (strs[field] ?? "") + unquote(line);
    } else if (!line || line.startsWith("#")) {
      if (isStr(field)) flush();
    }
  }
  if (isStr(field)) flush();
  return entries;
}

/** The catalogues, found from the config's root (`js/`), which vitest runs in. */
const LOCALE = resolve(process.cwd(), "..", "src", "patiencelab", "locale");

/** The labels of one language's catalogue (English fills what it lacks, as in Python). */
export function catalogueLabels(lang: string): Labels {
  const read = (code: string): Labels => poLabels(readFileSync(resolve(LOCALE, `${code}.po`), "utf8"));
  return { ...read("en"), ...read(lang) };
}

/** The English labels as Python sends them: the board has no words of its own, and neither do the tests. */
export const LABELS: Labels = catalogueLabels("en");

export class FakeModel {
  data: { state: GameState; labels: Labels; size: number | null; faces: string };
  sent: Intent[] = [];
  saves = 0;
  handlers = new Map<string, Set<Handler>>();

  constructor(state: GameState, labels: Labels = LABELS) {
    this.data = { state, labels, size: null, faces: "local" };
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
    targets: { "5H": ["t2"], AD: ["fD"] },
    pickable: [...ups],
    last_move: null,
    rules: { preset: "standard", draw: 1, max_passes: null, foundation_to_tableau: true, scoring: "standard" },
    reveal: false,
    lang: "en",
    languages: [
      ["en", "English"],
      ["nl", "Nederlands"],
      ["sv", "Svenska"],
    ],
    show_moves: false,
    rules_text: "",
    message: null,
    lesson: null,
    indicator: { enabled: false, verdict: null, error: null },
    stats: { enabled: false, error: null, notice: null, rules_key: "standard", draw: 1, scoring: "standard", new: [] },
    recording: null,
    review: { offered: false, busy: false },
    autoplay: { running: false, player: null },
    ...over,
  };
}

/** The start state after 5H went onto the 6S of column 2. */
export function afterMove(): GameState {
  const s = startState({ version: 2, moves: 1, score: 0, can_undo: true });
  s.tableau[0] = { down: [], up: [] };
  s.tableau[1] = { down: [null], up: ["6S", "5H"] };
  s.targets = { AD: ["fD"], KD: ["t1"] };
  s.pickable = ["6S", "5H", "AD", "9C", "KD", "2C", "QH"];
  s.last_move = { move: "t1-t2", cards: ["5H"], from: "t1", to: "t2", undo: false, text: "5 of hearts to Column 2" };
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
