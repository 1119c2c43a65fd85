/** The toolbar (New menu, Restart, Undo, Redo, Hint, Autocomplete), the status line and the end-of-game banner. */

import type { GameState, IntentBody, Labels, Preset } from "./types";
import { word } from "./words";

type Send = (body: IntentBody) => void;

interface Choice {
  preset: Preset;
  draw: 1 | 3;
}

const CHOICES: Choice[] = [
  { preset: "standard", draw: 1 },
  { preset: "standard", draw: 3 },
  { preset: "traditional", draw: 1 },
  { preset: "traditional", draw: 3 },
  { preset: "six-column", draw: 3 },
];

const ICONS: Record<string, string> = {
  new: "\u271a",
  restart: "\u21bb",
  undo: "\u21b6",
  redo: "\u21b7",
  hint: "?",
  autocomplete: "\u21e7",
};

/** mm:ss (h:mm:ss past an hour). */
export function clock(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  const mm = String(Math.floor((s % 3600) / 60)).padStart(2, "0");
  const ss = String(s % 60).padStart(2, "0");
  return s >= 3600 ? `${Math.floor(s / 3600)}:${mm}:${ss}` : `${mm}:${ss}`;
}

export class Toolbar {
  readonly bar: HTMLElement;
  readonly status: HTMLElement;
  readonly banner: HTMLElement;
  private readonly menu: HTMLElement;
  private readonly buttons = new Map<string, HTMLButtonElement>();
  private readonly stats = new Map<string, HTMLElement>();
  private labels: Labels = {};
  private state: GameState | null = null;
  private syncedAt = 0;
  private timer = 0;
  private readonly win: Window;

  constructor(
    private readonly doc: Document,
    private readonly send: Send,
    signal: AbortSignal,
  ) {
    this.win = doc.defaultView ?? window;
    this.bar = this.node("div", "pl-bar");
    this.bar.setAttribute("role", "toolbar");
    this.menu = this.node("div", "pl-menu");
    this.menu.setAttribute("role", "menu");
    this.menu.hidden = true;
    const newWrap = this.node("div", "pl-new");
    newWrap.append(this.button("new"), this.menu);
    this.buttons.get("new")?.setAttribute("aria-haspopup", "menu");
    this.bar.append(newWrap, ...["restart", "undo", "redo", "hint", "autocomplete"].map((a) => this.button(a)));
    this.status = this.node("div", "pl-status");
    for (const stat of ["score", "moves", "time", "passes"]) {
      const item = this.node("span", `pl-stat pl-stat-${stat}`);
      item.dataset.stat = stat;
      item.append(this.node("span", "pl-stat-label"), this.node("span", "pl-stat-value"));
      this.stats.set(stat, item);
      this.status.append(item);
    }
    this.banner = this.node("div", "pl-banner");
    this.banner.hidden = true;
    this.banner.setAttribute("role", "alert");
    this.bar.addEventListener("click", (e) => this.onClick(e), { signal });
    this.banner.addEventListener("click", (e) => this.onClick(e), { signal });
    this.doc.addEventListener("pointerdown", (e) => this.closeMenuOutside(e), { signal });
    this.menu.addEventListener("keydown", (e) => this.onMenuKey(e), { signal });
    signal.addEventListener("abort", () => this.win.clearInterval(this.timer), { once: true });
  }

  private node(tag: string, className: string): HTMLElement {
    const el = this.doc.createElement(tag);
    el.className = className;
    return el;
  }

  private button(action: string, extra = ""): HTMLButtonElement {
    const b = this.doc.createElement("button");
    b.type = "button";
    b.className = `pl-btn pl-btn-${action} ${extra}`.trim();
    b.dataset.action = action;
    b.append(this.node("span", "pl-icon"), this.node("span", "pl-text"));
    (b.firstChild as HTMLElement).textContent = ICONS[action] ?? "";
    (b.firstChild as HTMLElement).setAttribute("aria-hidden", "true");
    this.buttons.set(action, b);
    return b;
  }

  setLabels(labels: Labels): void {
    this.labels = labels;
    for (const [action, b] of this.buttons) {
      const text = word(labels, action);
      const span = b.querySelector(".pl-text");
      if (span) span.textContent = text;
      b.title = text;
    }
    this.buildMenu();
    if (this.state) this.update(this.state);
  }

  private buildMenu(): void {
    const items = [this.menuItem(word(this.labels, "same-rules"), null)];
    for (const choice of CHOICES) {
      const text = `${word(this.labels, `preset.${choice.preset}`)} \u00b7 ${word(this.labels, `draw${choice.draw}`)}`;
      items.push(this.menuItem(text, choice));
    }
    this.menu.replaceChildren(...items);
  }

  private menuItem(text: string, choice: Choice | null): HTMLButtonElement {
    const b = this.doc.createElement("button");
    b.type = "button";
    b.className = "pl-menu-item";
    b.setAttribute("role", "menuitem");
    b.dataset.action = "deal";
    if (choice) {
      b.dataset.preset = choice.preset;
      b.dataset.draw = String(choice.draw);
    }
    b.textContent = text;
    return b;
  }

  private openMenu(open: boolean): void {
    this.menu.hidden = !open;
    this.buttons.get("new")?.setAttribute("aria-expanded", String(open));
    if (open) this.menu.querySelector<HTMLElement>(".pl-menu-item")?.focus();
  }

  private closeMenuOutside(e: Event): void {
    if (!this.menu.hidden && !(e.target instanceof Node && this.bar.querySelector(".pl-new")?.contains(e.target))) {
      this.openMenu(false);
    }
  }

  private onMenuKey(e: KeyboardEvent): void {
    const items = [...this.menu.querySelectorAll<HTMLElement>(".pl-menu-item")];
    const at = items.indexOf(e.target as HTMLElement);
    if (e.key === "Escape") {
      this.openMenu(false);
      this.buttons.get("new")?.focus();
    } else if (e.key === "ArrowDown" || e.key === "ArrowUp") {
      const step = e.key === "ArrowDown" ? 1 : -1;
      items[(at + step + items.length) % items.length]?.focus();
    } else return;
    e.preventDefault();
    e.stopPropagation();
  }

  private onClick(e: Event): void {
    const target = e.target instanceof Element ? e.target.closest<HTMLElement>("[data-action]") : null;
    const action = target?.dataset.action;
    if (!target || !action || (target as HTMLButtonElement).disabled) return;
    if (action === "new") {
      this.openMenu(this.menu.hidden);
      return;
    }
    this.openMenu(false);
    if (action === "deal") {
      const preset = target.dataset.preset as Preset | undefined;
      const draw = target.dataset.draw === "3" ? 3 : target.dataset.draw === "1" ? 1 : undefined;
      this.send(preset && draw ? { type: "new", preset, draw } : { type: "new" });
    } else if (
      action === "restart" ||
      action === "undo" ||
      action === "redo" ||
      action === "hint" ||
      action === "autocomplete"
    ) {
      this.send({ type: action });
    }
  }

  /** Shows a new state: buttons enabled, stats, banner, and the local clock. */
  update(state: GameState): void {
    this.state = state;
    this.syncedAt = this.win.performance.now();
    const playing = state.status === "playing";
    const enable: Record<string, boolean> = {
      restart: state.moves > 0,
      undo: state.can_undo,
      redo: state.can_redo,
      hint: playing,
      autocomplete: state.can_autocomplete,
    };
    for (const [action, on] of Object.entries(enable)) {
      const b = this.buttons.get(action);
      if (b) b.disabled = !on;
    }
    for (const item of this.menu.querySelectorAll<HTMLElement>("[data-preset]")) {
      const current = item.dataset.preset === state.rules?.preset && item.dataset.draw === String(state.draw);
      item.classList.toggle("pl-current", current);
    }
    this.stat("score", String(state.score));
    this.stat("moves", String(state.moves));
    this.stat("passes", state.passes_left === null ? null : String(state.passes_left));
    this.tick();
    this.win.clearInterval(this.timer);
    if (state.clock_running) this.timer = this.win.setInterval(() => this.tick(), 500);
    this.updateBanner(state);
  }

  private stat(name: string, value: string | null): void {
    const item = this.stats.get(name);
    if (!item) return;
    item.hidden = value === null;
    const [label, val] = item.children;
    label.textContent = word(this.labels, name);
    if (value !== null) val.textContent = value;
  }

  private tick(): void {
    const s = this.state;
    if (!s) return;
    const extra = s.clock_running ? (this.win.performance.now() - this.syncedAt) / 1000 : 0;
    this.stat("time", clock((s.seconds || 0) + extra));
  }

  private updateBanner(state: GameState): void {
    const kind = state.status === "won" ? "won" : state.status === "stuck" ? "stuck" : null;
    this.banner.hidden = !kind;
    this.banner.dataset.kind = kind ?? "";
    if (!kind) {
      this.banner.replaceChildren();
      return;
    }
    const title = this.node("div", "pl-banner-title");
    title.textContent = word(this.labels, kind);
    const actions = this.node("div", "pl-banner-actions");
    const make = (action: string, text: string): HTMLButtonElement => {
      const b = this.doc.createElement("button");
      b.type = "button";
      b.className = "pl-btn pl-btn-primary";
      b.dataset.action = action;
      b.textContent = text;
      return b;
    };
    if (kind === "stuck") actions.append(make("undo", word(this.labels, "undo")));
    actions.append(make("deal", word(this.labels, kind === "won" ? "new-game" : "new-deal")));
    this.banner.replaceChildren(title, actions);
  }
}
