/** The toolbar (New menu, Restart, Undo, Redo, Hint, Autocomplete, Stop while a player plays from Python, Cancel
 * while a review runs, Show moves, the "More" menu with Rules,
 * Statistics, the winnability indicator and the languages), the status line, the panels and the end-of-game
 * banner. */

import { button, node } from "./dom";
import { fitBar } from "./fit";
import { ICONS, icon, type IconName } from "./icons";
import { Menu, Panel } from "./menu";
import { bestsText, clock, newRecordText, statsTable } from "./stats";
import type { GameState, IntentBody, Labels, Preset, StatsRow } from "./types";
import { countPhrase, phrase, word } from "./words";

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

const SIMPLE = new Set(["restart", "undo", "redo", "hint", "autocomplete"]);

export class Toolbar {
  readonly bar: HTMLElement;
  readonly status: HTMLElement;
  readonly banner: HTMLElement;
  readonly rulesPanel: Panel;
  readonly statsPanel: Panel;
  private readonly newMenu: Menu;
  private readonly moreMenu: Menu;
  private readonly buttons = new Map<string, HTMLButtonElement>();
  private readonly stats = new Map<string, HTMLElement>();
  private readonly records: HTMLElement;
  private readonly recordsWarn: HTMLElement;
  private readonly badge: HTMLElement;
  /** "Greedy is playing", while a player plays from Python (Stop ends it). */
  private readonly playing: HTMLElement;
  /** "Reviewing… 12/80", while a review runs (Cancel stops it). */
  private readonly reviewing: HTMLElement;
  private labels: Labels = {};
  private state: GameState | null = null;
  private statsRows: StatsRow[] | null = null;
  private syncedAt = 0;
  private timer = 0;
  private readonly win: Window;

  constructor(
    private readonly doc: Document,
    private readonly send: Send,
    signal: AbortSignal,
  ) {
    this.win = doc.defaultView ?? window;
    this.bar = this.node("div", "pl-bar pl-bar-full");
    this.bar.setAttribute("role", "toolbar");
    this.newMenu = new Menu(doc, this.button("new"), signal, "pl-new", "pl-menu");
    this.moreMenu = new Menu(doc, this.button("more"), signal, "pl-more", "pl-more-menu");
    const showMoves = this.button("show-moves");
    showMoves.setAttribute("aria-pressed", "false");
    const stop = this.button("stop-autoplay");
    stop.hidden = true;
    const cancel = this.button("cancel-review");
    cancel.hidden = true;
    const spacer = this.node("span", "pl-bar-spacer");
    const simple = [...SIMPLE].map((a) => this.button(a));
    this.bar.append(this.newMenu.wrap, ...simple, stop, cancel, spacer, showMoves, this.moreMenu.wrap);
    this.status = this.node("div", "pl-status");
    for (const stat of ["score", "moves", "time", "pass"]) {
      const item = this.node("span", `pl-stat pl-stat-${stat}`);
      item.dataset.stat = stat;
      item.append(this.node("span", "pl-stat-label"), this.node("span", "pl-stat-value"));
      this.stats.set(stat, item);
      this.status.append(item);
    }
    this.records = this.node("span", "pl-stat pl-records");
    this.recordsWarn = this.node("span", "pl-records-warn");
    this.recordsWarn.append(icon(doc, "warning"));
    this.recordsWarn.setAttribute("role", "img");
    this.playing = this.node("span", "pl-stat pl-playing");
    this.playing.hidden = true;
    this.reviewing = this.node("span", "pl-stat pl-reviewing");
    this.reviewing.hidden = true;
    this.badge = this.node("span", "pl-indicator");
    this.badge.append(this.node("span", "pl-spinner"), this.node("span", "pl-indicator-text"));
    this.status.append(this.records, this.recordsWarn, this.playing, this.reviewing, this.badge);
    this.banner = this.node("div", "pl-banner");
    this.banner.hidden = true;
    this.banner.setAttribute("role", "alert");
    this.rulesPanel = new Panel(doc, "rules", signal);
    this.statsPanel = new Panel(doc, "stats", signal);
    for (const host of [this.bar, this.banner]) host.addEventListener("click", (e) => this.onClick(e), { signal });
    signal.addEventListener("abort", () => this.win.clearInterval(this.timer), { once: true });
  }

  /** Fits the toolbar on one row (labels give way to icons) and keeps open menus and panels inside the widget. */
  fit(): void {
    fitBar(this.bar);
    for (const popup of [this.newMenu, this.moreMenu, this.rulesPanel, this.statsPanel]) popup.place();
  }

  private node(tag: string, className: string): HTMLElement {
    return node(this.doc, tag, className);
  }

  private button(action: string): HTMLButtonElement {
    const b = button(this.doc, `pl-btn pl-btn-${action}`, "action", action);
    const glyph = this.node("span", "pl-icon");
    glyph.setAttribute("aria-hidden", "true");
    if (action in ICONS) glyph.append(icon(this.doc, action as IconName));
    b.append(glyph, this.node("span", "pl-text"));
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
      b.setAttribute("aria-label", text);
    }
    this.bar.setAttribute("aria-label", word(labels, "title"));
    this.rulesPanel.setTitle(word(labels, "rules"), word(labels, "close"));
    this.statsPanel.setTitle(word(labels, "statistics"), word(labels, "close"));
    this.buildNewMenu();
    if (this.state) this.update(this.state);
    if (this.statsRows) this.showStats(this.statsRows);
  }

  private buildNewMenu(): void {
    const items = [this.menuItem(word(this.labels, "same-rules"), "deal")];
    for (const choice of CHOICES) {
      const text = `${word(this.labels, `preset.${choice.preset}`)} \u00b7 ${word(this.labels, `draw${choice.draw}`)}`;
      const item = this.menuItem(text, "deal");
      item.dataset.preset = choice.preset;
      item.dataset.draw = String(choice.draw);
      items.push(item);
    }
    items[0].classList.add("pl-menu-head");
    this.newMenu.list.replaceChildren(...items);
  }

  /** The More menu: Rules, Statistics, the indicator switch, and the languages. */
  private buildMoreMenu(state: GameState): void {
    const items: HTMLElement[] = [
      this.menuItem(word(this.labels, "rules"), "rules"),
      this.menuItem(word(this.labels, "statistics"), "stats"),
    ];
    const indicator = this.menuItem(word(this.labels, "indicator-toggle"), "indicator", "menuitemcheckbox");
    indicator.setAttribute("aria-checked", String(!!state.indicator?.enabled));
    indicator.classList.toggle("pl-checked", !!state.indicator?.enabled);
    items.push(indicator);
    if (state.review?.offered || state.review?.busy) items.push(this.reviewButton(state, "pl-menu-item"));
    const recording = !!state.recording;
    items.push(this.menuItem(word(this.labels, recording ? "record-stop" : "record"), recording ? "record-stop" : "record"));
    const languages = state.languages ?? [];
    if (languages.length) {
      const heading = this.node("div", "pl-menu-label");
      heading.setAttribute("role", "presentation");
      heading.textContent = word(this.labels, "lang");
      items.push(heading);
      for (const [code, name] of languages) {
        const item = this.menuItem(name, "lang", "menuitemradio");
        item.dataset.lang = code;
        item.lang = code;
        item.setAttribute("aria-checked", String(code === state.lang));
        item.classList.toggle("pl-checked", code === state.lang);
        items.push(item);
      }
    }
    this.moreMenu.list.replaceChildren(...items);
  }

  /** "Review game" ("Reviewing… 12/80", disabled, while the review runs). */
  private reviewButton(state: GameState, className: string): HTMLButtonElement {
    const busy = !!state.review?.busy;
    const b = this.menuItem(busy ? reviewText(state, this.labels) : word(this.labels, "review"), "review");
    b.className = className;
    b.disabled = busy;
    b.setAttribute("aria-busy", String(busy));
    return b;
  }

  private menuItem(text: string, action: string, role = "menuitem"): HTMLButtonElement {
    const b = this.doc.createElement("button");
    b.type = "button";
    b.className = "pl-menu-item";
    b.setAttribute("role", role);
    b.dataset.action = action;
    b.textContent = text;
    return b;
  }

  private onClick(e: Event): void {
    const target = e.target instanceof Element ? e.target.closest<HTMLElement>("[data-action]") : null;
    const action = target?.dataset.action;
    if (!target || !action || (target as HTMLButtonElement).disabled) return;
    if (action === "new" || action === "more") {
      const menu = action === "new" ? this.newMenu : this.moreMenu;
      (action === "new" ? this.moreMenu : this.newMenu).open(false);
      menu.open(!menu.isOpen);
      return;
    }
    this.newMenu.open(false);
    this.moreMenu.open(false);
    const state = this.state;
    const more = this.buttons.get("more") ?? null;
    if (action === "deal") {
      const preset = target.dataset.preset as Preset | undefined;
      const draw = target.dataset.draw === "3" ? 3 : target.dataset.draw === "1" ? 1 : undefined;
      this.send(preset && draw ? { type: "new", preset, draw } : { type: "new" });
    } else if (SIMPLE.has(action)) {
      this.send({ type: action as "undo" });
    } else if (action === "show-moves") {
      this.send({ type: "show_moves", on: !state?.show_moves });
    } else if (action === "indicator") {
      this.send({ type: "indicator", on: !state?.indicator?.enabled });
    } else if (action === "review") {
      this.send({ type: "review" });
    } else if (action === "cancel-review") {
      this.send({ type: "review", action: "cancel" });
    } else if (action === "stop-autoplay") {
      this.send({ type: "autoplay", action: "stop" });
    } else if (action === "resume" || action === "resume-decline") {
      this.send({ type: "resume", accept: action === "resume" });
    } else if (action === "record" || action === "record-stop") {
      this.send({ type: "record", action: action === "record" ? "start" : "stop" });
    } else if (action === "lang" && target.dataset.lang) {
      this.send({ type: "lang", lang: target.dataset.lang });
    } else if (action === "rules") {
      this.statsPanel.open(false);
      this.fillRules();
      this.rulesPanel.open(true, more);
    } else if (action === "stats") {
      this.rulesPanel.open(false);
      this.statsRows = null;
      this.statsPanel.body.replaceChildren(this.node("div", "pl-spinner pl-spinner-big"));
      this.statsPanel.el.setAttribute("aria-busy", "true");
      this.statsPanel.open(true, more);
      this.send({ type: "stats" });
    }
  }

  private fillRules(): void {
    const lines = (this.state?.rules_text ?? "").split("\n").filter((line) => line.trim());
    this.rulesPanel.body.replaceChildren(
      ...lines.map((line) => {
        const p = this.node("p", "pl-rules-line");
        p.textContent = line;
        return p;
      }),
    );
  }

  /** The rows of a `stats` reply, shown in the statistics panel. */
  showStats(rows: StatsRow[]): void {
    this.statsRows = rows;
    this.statsPanel.el.removeAttribute("aria-busy");
    this.statsPanel.body.replaceChildren(statsTable(this.doc, rows, this.labels));
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
    const stop = this.buttons.get("stop-autoplay");
    const player = state.autoplay?.running ? (state.autoplay.player ?? "") : null;
    if (stop) stop.hidden = player === null;
    this.playing.hidden = player === null;
    this.playing.textContent = player === null ? "" : phrase(this.labels, "autoplay-playing", { player });
    const busy = !!state.review?.busy;
    const cancel = this.buttons.get("cancel-review");
    if (cancel) cancel.hidden = !busy;
    this.reviewing.hidden = !busy;
    this.reviewing.textContent = busy ? reviewText(state, this.labels) : "";
    const showMoves = this.buttons.get("show-moves");
    showMoves?.setAttribute("aria-pressed", String(!!state.show_moves));
    showMoves?.classList.toggle("pl-on", !!state.show_moves);
    for (const item of this.newMenu.list.querySelectorAll<HTMLElement>("[data-preset]")) {
      const current = item.dataset.preset === state.rules?.preset && item.dataset.draw === String(state.draw);
      item.classList.toggle("pl-current", current);
    }
    const focusedLang = this.moreMenu.isOpen ? (this.doc.activeElement as HTMLElement | null)?.dataset?.lang : null;
    this.buildMoreMenu(state);
    if (focusedLang) this.moreMenu.list.querySelector<HTMLElement>(`[data-lang="${focusedLang}"]`)?.focus();
    if (this.rulesPanel.isOpen) this.fillRules();
    this.stat("score", String(state.score));
    this.stat("moves", String(state.moves));
    this.stat("pass", passText(state, this.labels));
    this.updateRecords(state);
    this.updateBadge(state);
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

  private updateRecords(state: GameState): void {
    const text = bestsText(state.stats, this.labels);
    this.records.hidden = !text;
    this.records.textContent = text;
    const error = state.stats?.error;
    this.recordsWarn.hidden = !error;
    // Python's sentence in the board's language ("Your statistics can't be saved: …"), else the raw reason
    const notice = state.stats?.notice;
    const why = notice != null ? notice : error ? `${word(this.labels, "records-off")}: ${error}` : "";
    this.recordsWarn.title = why;
    this.recordsWarn.setAttribute("aria-label", why);
  }

  private updateBadge(state: GameState): void {
    const verdict = state.indicator?.enabled ? state.indicator.verdict : null;
    this.badge.hidden = !verdict;
    this.badge.dataset.verdict = verdict ?? "";
    const searched = state.indicator?.searched ?? 0;
    const working = verdict === "pending" && typeof searched === "number" && searched > 0;
    const count = working ? new Intl.NumberFormat(state.lang || undefined).format(searched) : "";
    const text = working
      ? countPhrase(this.labels, "indicator.searched", searched, "count", { count }, state.lang)
      : verdict
        ? word(this.labels, `indicator.${verdict}`)
        : "";
    const label = this.badge.lastElementChild;
    if (label) label.textContent = text;
    this.badge.title = verdict ? `${word(this.labels, "indicator")}: ${text}` : "";
  }

  private tick(): void {
    const s = this.state;
    if (!s) return;
    const extra = s.clock_running ? (this.win.performance.now() - this.syncedAt) / 1000 : 0;
    this.stat("time", clock((s.seconds || 0) + extra));
  }

  private updateBanner(state: GameState): void {
    const offer = state.stats?.resume;
    // a lesson's or a review's step says itself what happens on it: the game's end shows once the teacher plays on
    const stepping = !!state.lesson && !state.lesson.taken_over;
    const ended = stepping ? null : state.status === "won" ? "won" : state.status === "stuck" ? "stuck" : null;
    const kind = offer && typeof offer.text === "string" && !state.lesson ? "resume" : ended;
    this.banner.hidden = !kind;
    this.banner.dataset.kind = kind ?? "";
    if (!kind) {
      this.banner.replaceChildren();
      return;
    }
    const title = this.node("div", "pl-banner-title");
    title.textContent = kind === "resume" ? (offer?.text ?? "") : word(this.labels, kind);
    const parts: HTMLElement[] = [title];
    if (kind === "resume") {
      const actions = this.node("div", "pl-banner-actions");
      for (const [action, primary] of [["resume", true], ["resume-decline", false]] as const) {
        const b = button(this.doc, primary ? "pl-btn pl-btn-primary" : "pl-btn", "action", action);
        b.textContent = word(this.labels, action);
        actions.append(b);
      }
      this.banner.replaceChildren(title, actions);
      return;
    }
    const record = kind === "won" ? newRecordText(state.stats, this.labels) : "";
    if (record) {
      const line = this.node("div", "pl-banner-record");
      line.textContent = record;
      parts.push(line);
    }
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
    if (state.review?.offered || state.review?.busy) actions.append(this.reviewButton(state, "pl-btn pl-btn-primary"));
    actions.append(make("deal", word(this.labels, kind === "won" ? "new-game" : "new-deal")));
    parts.push(actions);
    this.banner.replaceChildren(...parts);
  }
}

/** "Reviewing… 12/80" while a review runs and says how far it is, else "Reviewing…". */
export function reviewText(state: GameState, labels: Labels): string {
  const p = state.review?.progress;
  const ok = !!p && typeof p === "object" && Number.isFinite(p.done) && Number.isFinite(p.total) && p.total > 0;
  if (!ok) return word(labels, "reviewing");
  const done = Math.min(p.total, Math.max(0, p.done));
  return phrase(labels, "review-progress", { done: String(done), total: String(p.total) });
}

/** "1 of 3": the pass through the stock the player is on, when the passes are limited (null when they are not).
 * Counting the pass being played, not the passes left, a one-pass game starts at "Pass 1 of 1", not "0 left". */
export function passText(state: GameState, labels: Labels): string | null {
  const total = state.rules?.max_passes;
  if (state.passes_left == null || total == null) return null;
  const pass = Math.min(total, Math.max(1, total - state.passes_left));
  return phrase(labels, "n-of", { n: String(pass), total: String(total) });
}
