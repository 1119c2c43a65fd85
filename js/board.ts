/** The board: DOM built from a state object by a keyed update of card elements. Knows nothing of anywidget. */

import { Animator, celebrate, type Point } from "./animate";
import { cardName, drawBack, drawFace } from "./cards";
import { attachPointer } from "./drag";
import { Keyboard } from "./keyboard";
import { LessonView } from "./lesson";
import { layout, pileFor, pileIds, placeFor, tableauPiles } from "./piles";
import { Toolbar } from "./toolbar";
import type { GameState, IntentBody, Intent, Labels, Message, PileId, Reply, Suit } from "./types";
import { announcement, pileName, word } from "./words";

export interface BoardOptions {
  /** Sends one intent to the model. */
  send: (intent: Intent) => void;
}

/** Cards dropped on a legal pile, held where they were dropped until the new state (or a rejection) arrives. */
interface Held {
  els: HTMLElement[];
  dx: number;
  dy: number;
  timer: number;
}

const HOLD_MS = 4000;
const TOAST_MS = 3000;
const HINT_MS = 2000;
const EYE =
  '<svg viewBox="0 0 24 24" aria-hidden="true" focusable="false"><path d="M12 5C6.5 5 2.7 9.4 1.5 12c1.2 2.6 5 7 ' +
  '10.5 7s9.3-4.4 10.5-7C21.3 9.4 17.5 5 12 5zm0 11.5a4.5 4.5 0 1 1 0-9 4.5 4.5 0 0 1 0 9zm0-2.3a2.2 2.2 0 1 0 ' +
  '0-4.4 2.2 2.2 0 0 0 0 4.4z"/></svg>';

export class Board {
  readonly root: HTMLElement;
  readonly table: HTMLElement;
  readonly animator: Animator;
  readonly keyboard: Keyboard;
  state: GameState | null = null;
  labels: Labels = {};
  /** The card picked up by a click or by Enter, waiting for a target pile. */
  selected: string | null = null;
  private readonly win: Window;
  private readonly controller = new AbortController();
  private readonly cards = new Map<string, HTMLElement>();
  private readonly piles = new Map<PileId, HTMLElement>();
  private readonly top: HTMLElement;
  private readonly tableau: HTMLElement;
  private readonly toast: HTMLElement;
  private readonly live: HTMLElement;
  private readonly toolbar: Toolbar;
  readonly lesson: LessonView;
  /** The slim narration line under the status line (when no lesson is shown). */
  private readonly narration: HTMLElement;
  /** The id of the last `state.message` shown. */
  private messageId: number | null = null;
  private held: Held | null = null;
  private nextId = 1;
  private toastTimer = 0;
  private hintTimer = 0;

  constructor(
    host: HTMLElement,
    private readonly options: BoardOptions,
  ) {
    const doc = host.ownerDocument;
    this.win = doc.defaultView ?? window;
    this.animator = new Animator(this.win);
    this.root = el(doc, "div", "pl-root");
    this.root.tabIndex = 0;
    this.root.dataset.lmSuppressShortcuts = "true";
    this.root.setAttribute("role", "application");
    this.root.setAttribute("aria-roledescription", "Klondike");
    this.table = el(doc, "div", "pl-table");
    this.top = el(doc, "div", "pl-top");
    this.tableau = el(doc, "div", "pl-tableau");
    this.toast = el(doc, "div", "pl-toast");
    this.toast.setAttribute("role", "status");
    this.live = el(doc, "div", "pl-live pl-sr-only");
    this.live.setAttribute("aria-live", "polite");
    for (const pile of pileIds(null).slice(0, 6)) {
      this.top.append(this.makePile(pile));
    }
    const signal = this.controller.signal;
    this.toolbar = new Toolbar(doc, (body) => this.intent(body), signal);
    this.lesson = new LessonView(doc, (body) => this.intent(body), signal);
    this.narration = el(doc, "p", "pl-narration");
    this.narration.hidden = true;
    this.table.append(this.top, this.tableau, this.toolbar.banner, this.toast);
    this.root.append(
      this.toolbar.bar,
      this.toolbar.status,
      this.narration,
      this.lesson.el,
      this.table,
      this.toolbar.rulesPanel.el,
      this.toolbar.statsPanel.el,
      this.live,
    );
    host.append(this.root);
    this.keyboard = new Keyboard(this, signal);
    attachPointer(this, signal);
    this.setColumns(7);
  }

  // ----------------------------------------------------------------------------------------- lookups

  cardEl(key: string): HTMLElement | undefined {
    return this.cards.get(key);
  }

  pileEl(pile: PileId): HTMLElement | undefined {
    return this.piles.get(pile);
  }

  allPiles(): PileId[] {
    return [...this.piles.keys()];
  }

  /** The card elements of a pile, bottom first. */
  pileCards(pile: PileId): HTMLElement[] {
    const host = this.piles.get(pile);
    return host ? ([...host.children] as HTMLElement[]).filter((c) => c.classList.contains("pl-card")) : [];
  }

  pileOf(card: string): PileId | null {
    return this.cards.get(card)?.closest<HTMLElement>(".pl-pile")?.dataset.pile ?? null;
  }

  /** The element of `card` and the ones lying on it. */
  runFrom(card: string): HTMLElement[] {
    const pile = this.pileOf(card);
    if (!pile) return [];
    const cards = this.pileCards(pile);
    const start = cards.findIndex((c) => c.dataset.key === card);
    return start < 0 ? [] : pile.startsWith("t") ? cards.slice(start) : [cards[start]];
  }

  isMovable(card: string | null | undefined): card is string {
    return !!card && !!this.state && this.state.status !== "won" && card in (this.state.targets ?? {});
  }

  /** Whether `card` may be picked up and dragged: any face-up card of a column, or the top card of the waste or
   * of a foundation. A drop where it may not go still reaches Python, which says why not. */
  isDraggable(card: string | null | undefined): card is string {
    if (!card || !this.state || this.state.status === "won") return false;
    const pile = this.pileOf(card);
    if (!pile || pile === "stock") return false;
    if (pile.startsWith("t")) return this.cards.get(card)?.dataset.face === "up";
    const cards = this.pileCards(pile);
    return cards[cards.length - 1]?.dataset.key === card;
  }

  /** Whether dropping `card` on `pile` is one of its legal targets. */
  isLegal(card: string, pile: PileId): boolean {
    const place = placeFor(card, pile);
    return !!place && !!this.state && (this.state.targets[card] ?? []).includes(place);
  }

  // ----------------------------------------------------------------------------------------- intents

  /** Sends an intent made on the current version; returns its id. */
  intent(body: IntentBody): number {
    const id = this.nextId++;
    this.options.send({ ...body, version: this.state?.version ?? 0, id } as Intent);
    return id;
  }

  /** Sends `card` to `pile` (a legal or an illegal pile: Python explains why not). False when no place fits. */
  moveTo(card: string, pile: PileId): boolean {
    const to = placeFor(card, pile);
    if (!to) return false;
    this.select(null);
    this.intent({ type: "move", card, to });
    return true;
  }

  /** A click on the stock: draw, or turn the waste over, or say that no pass is left. */
  stockAction(): void {
    const s = this.state;
    if (!s) return;
    this.select(null);
    if (s.stock.length) this.intent({ type: "draw" });
    else if (s.can_recycle) this.intent({ type: "recycle" });
    else if (s.waste.length && s.passes_left === 0) this.notify(word(this.labels, "no-passes"));
  }

  /** Picks up `card` (click-to-move or keyboard), or drops the selection with null. */
  select(card: string | null): void {
    this.selected = card && this.isMovable(card) ? card : null;
    for (const c of this.root.querySelectorAll(".pl-selected")) c.classList.remove("pl-selected");
    for (const p of this.root.querySelectorAll(".pl-target")) p.classList.remove("pl-target");
    this.markDrops(this.selected);
    if (!this.selected || !this.state) return;
    for (const c of this.runFrom(this.selected)) c.classList.add("pl-selected");
    for (const place of this.state.targets[this.selected] ?? []) {
      const pile = pileFor(this.selected, place);
      if (pile) this.piles.get(pile)?.classList.add("pl-target");
    }
  }

  /** With "show moves" on, outlines every pile that the picked-up `card` may go to (null clears). */
  markDrops(card: string | null): void {
    for (const p of this.root.querySelectorAll(".pl-can-drop")) p.classList.remove("pl-can-drop");
    if (!card || !this.state?.show_moves) return;
    for (const place of this.state.targets[card] ?? []) {
      const pile = pileFor(card, place);
      if (pile) this.piles.get(pile)?.classList.add("pl-can-drop");
    }
  }

  /** Keeps dropped cards where they are until the state that moves them arrives. */
  hold(els: HTMLElement[], dx: number, dy: number): void {
    this.release(false);
    const timer = this.win.setTimeout(() => this.release(true), HOLD_MS);
    this.held = { els, dx, dy, timer };
  }

  /** Lets go of held cards, animating them home when `snap`. */
  private release(snap: boolean): void {
    const held = this.held;
    if (!held) return;
    this.held = null;
    this.win.clearTimeout(held.timer);
    for (const c of held.els) {
      c.classList.remove("pl-dragging");
      if (snap) this.animator.snapBack(c, held.dx, held.dy);
    }
  }

  // ----------------------------------------------------------------------------------------- messages

  /** A custom message from the model: a rejection or a hint. */
  receive(msg: unknown): void {
    if (!msg || typeof msg !== "object") return;
    const reply = msg as Reply;
    if (reply.type === "rejected") {
      this.release(true);
      this.select(null);
      this.notify(String(reply.text ?? ""));
    } else if (reply.type === "hint") {
      this.showHint(reply.card ?? null, reply.to ?? null, String(reply.text ?? ""));
    } else if (reply.type === "stats") {
      this.toolbar.showStats(Array.isArray(reply.rows) ? reply.rows : []);
    }
  }

  /** Shows `text` in the toast for a few seconds and announces it. */
  notify(text: string): void {
    if (!text) return;
    this.toast.textContent = text;
    this.toast.classList.add("pl-show");
    this.win.clearTimeout(this.toastTimer);
    this.toastTimer = this.win.setTimeout(() => this.toast.classList.remove("pl-show"), TOAST_MS);
    this.announce(text);
  }

  announce(text: string): void {
    // Re-setting the same text would not be read again; a trailing no-break space makes it new.
    this.live.textContent = this.live.textContent === text ? `${text}\u00a0` : text;
  }

  private showHint(card: string | null, to: string | null, text: string): void {
    this.clearHint();
    const marks: Element[] = [];
    if (card) {
      marks.push(...this.runFrom(card));
      const pile = to ? pileFor(card, to) : null;
      const target = pile ? this.piles.get(pile) : undefined;
      if (target) marks.push(target);
      this.announce(pile ? `${cardName(card, this.labels)} \u2192 ${pileName(pile, this.labels)}` : text);
    } else {
      const stock = this.piles.get("stock");
      if (stock) marks.push(stock);
      this.announce(text || word(this.labels, "stock"));
    }
    for (const m of marks) m.classList.add("pl-hint");
    this.hintTimer = this.win.setTimeout(() => this.clearHint(), HINT_MS);
  }

  private clearHint(): void {
    this.win.clearTimeout(this.hintTimer);
    for (const m of this.root.querySelectorAll(".pl-hint")) m.classList.remove("pl-hint");
  }

  // ----------------------------------------------------------------------------------------- render

  setLabels(labels: Labels | null | undefined): void {
    this.labels = labels && typeof labels === "object" ? labels : {};
    this.toolbar.setLabels(this.labels);
    if (this.state) this.render(this.state, null);
    for (const [pile, host] of this.piles) host.setAttribute("aria-label", pileName(pile, this.labels));
    this.root.setAttribute("aria-label", word(this.labels, "title"));
  }

  /** Draws a new synced state. */
  setState(state: GameState | null | undefined): void {
    if (!state || typeof state !== "object" || typeof state.version !== "number" || !Array.isArray(state.tableau)) {
      return;
    }
    const previous = this.state;
    this.state = state;
    this.render(state, previous);
  }

  private render(state: GameState, previous: GameState | null): void {
    const changed = !previous || previous.version !== state.version;
    const animate = changed && !!previous && this.animator.enabled && this.root.isConnected;
    const before = new Map<HTMLElement, Point>();
    if (animate) for (const c of this.cards.values()) before.set(c, Animator.place(c));
    if (changed) {
      this.clearHint();
      const held = this.held;
      if (held) {
        this.held = null;
        this.win.clearTimeout(held.timer);
        for (const c of held.els) c.classList.remove("pl-dragging");
      }
    }
    this.setColumns(state.columns || state.tableau.length);
    this.place(state);
    if (animate) this.animateFrom(before, state);
    this.root.dataset.version = String(state.version);
    this.root.dataset.status = state.status;
    this.root.classList.toggle("pl-draw3", state.draw === 3);
    const stock = this.piles.get("stock");
    const noPasses = !state.stock.length && !state.can_recycle && state.passes_left === 0;
    stock?.classList.toggle("pl-no-passes", noPasses);
    stock?.classList.toggle("pl-can-recycle", !state.stock.length && state.can_recycle);
    stock?.setAttribute("data-empty-label", noPasses ? word(this.labels, "no-passes") : "");
    this.toolbar.update(state);
    this.lesson.update(state, this.labels);
    this.root.classList.toggle("pl-teaching", this.lesson.shown);
    this.markLesson(state);
    if (changed) {
      this.select(null);
      if (previous && state.last_move) this.announce(announcement(state.last_move, state, this.labels));
      const caption = state.lesson?.caption;
      if (previous && caption && caption !== previous.lesson?.caption) this.announce(caption);
      if (previous && previous.status !== "won" && state.status === "won") this.celebrate();
    } else if (this.selected) {
      this.select(this.selected);
    }
    this.showMessage(state.message ?? null, !!previous);
    this.keyboard.refresh();
  }

  /** Outlines the cards that moved in the lesson step shown and the pile they went to. */
  private markLesson(state: GameState): void {
    for (const m of this.root.querySelectorAll(".pl-lesson-mark")) m.classList.remove("pl-lesson-mark");
    const mark = state.lesson?.highlight;
    if (!mark || state.lesson?.taken_over) return;
    const cards = Array.isArray(mark.cards) ? mark.cards : [];
    for (const card of cards) this.cards.get(card)?.classList.add("pl-lesson-mark");
    const pile = mark.to ? pileFor(cards[0] ?? null, mark.to) : null;
    if (pile) this.piles.get(pile)?.classList.add("pl-lesson-mark");
  }

  /** `state.message`: a narration in the caption area, a notice in the toast; both announced once per id. */
  private showMessage(message: Message | null, later: boolean): void {
    const valid = !!message && typeof message === "object" && typeof message.text === "string";
    const narration = valid && message.kind === "narration" ? message.text : "";
    this.lesson.setNarration(this.lesson.shown ? narration : "");
    this.narration.textContent = this.lesson.shown ? "" : narration;
    this.narration.hidden = this.lesson.shown || !narration;
    const id = valid ? message.id : null;
    if (id === this.messageId) return;
    this.messageId = id;
    if (!valid || !later) return;
    if (message.kind === "info") this.notify(message.text);
    else this.announce(message.text);
  }

  private place(state: GameState): void {
    const doc = this.root.ownerDocument;
    const seen = new Set<string>();
    for (const [pile, slots] of layout(state)) {
      const host = this.piles.get(pile);
      if (!host) continue;
      let height = 0;
      slots.forEach((slot, index) => {
        seen.add(slot.key);
        let card = this.cards.get(slot.key);
        const face = slot.faceUp ? "up" : slot.card ? "revealed" : "down";
        if (!card) {
          card = el(doc, "div", "pl-card");
          card.dataset.key = slot.key;
          card.setAttribute("role", "img");
          this.cards.set(slot.key, card);
        }
        if (card.dataset.face !== face) {
          card.dataset.face = face;
          card.className = `pl-card pl-${face}`;
          if (slot.card) drawFace(card, slot.card);
          else drawBack(card);
          if (face === "revealed") card.insertAdjacentHTML("beforeend", `<span class="pl-eye">${EYE}</span>`);
        }
        card.dataset.card = slot.card ?? "back";
        if (face === "revealed") card.dataset.revealed = "true";
        else delete card.dataset.revealed;
        const name = slot.card ? cardName(slot.card, this.labels) : word(this.labels, "face-down");
        card.setAttribute("aria-label", face === "revealed" ? `${name} (${word(this.labels, "revealed")})` : name);
        const movable = slot.faceUp && this.isMovable(slot.card);
        card.classList.toggle("pl-movable", movable);
        card.classList.toggle("pl-can-move", movable && !!state.show_moves);
        card.style.setProperty("--x", String(slot.x));
        card.style.setProperty("--y", String(slot.y));
        if (host.children[index] !== card) host.insertBefore(card, host.children[index] ?? null);
        height = Math.max(height, slot.y);
      });
      host.style.setProperty("--h", String(height));
    }
    for (const [key, card] of this.cards) {
      if (!seen.has(key)) {
        this.animator.stop(card);
        card.remove();
        this.cards.delete(key);
      }
    }
  }

  /** FLIP: every card that was on the board glides from where it was; new cards come from where they came. */
  private animateFrom(before: Map<HTMLElement, Point>, state: GameState): void {
    const move = state.last_move;
    const source = move ? this.piles.get(pileFor(null, move.from) ?? "") : undefined;
    const from = source ? Animator.place(source) : null;
    for (const card of this.cards.values()) {
      const old = before.get(card);
      card.style.transform = "";
      if (old) this.animator.flip(card, old);
      else if (from && (move?.move === "d" || move?.move === "r")) this.animator.flip(card, from);
      else if (card.dataset.face === "up") {
        card.classList.remove("pl-turn");
        void card.offsetWidth;
        card.classList.add("pl-turn");
      }
    }
  }

  private celebrate(): void {
    const box = this.table.getBoundingClientRect();
    const origins = ["fC", "fD", "fH", "fS"].map((p) => {
      const r = this.piles.get(p)?.getBoundingClientRect();
      return r ? { x: r.left - box.left, y: r.top - box.top } : { x: 0, y: 0 };
    });
    const width = this.piles.get("fC")?.getBoundingClientRect().width ?? 60;
    celebrate(this.table, width, origins, this.controller.signal);
  }

  private makePile(pile: PileId): HTMLElement {
    const host = el(this.root.ownerDocument, "div", `pl-pile pl-pile-${pile[0] === "f" ? "foundation" : pile}`);
    host.dataset.pile = pile;
    host.setAttribute("role", "group");
    host.setAttribute("aria-label", pileName(pile, this.labels));
    if (pile[0] === "f") host.dataset.suit = pile[1] as Suit;
    this.piles.set(pile, host);
    return host;
  }

  private setColumns(columns: number): void {
    const want = tableauPiles(columns);
    const have = [...this.tableau.children].map((c) => (c as HTMLElement).dataset.pile);
    if (want.join() === have.join()) return;
    for (const pile of have) if (pile) this.piles.delete(pile);
    this.tableau.replaceChildren(...want.map((p) => this.makePile(p)));
    this.tableau.style.setProperty("--pl-cols", String(columns));
    this.root.style.setProperty("--pl-cols", String(columns));
  }

  /** Removes every listener, timer and animation. */
  destroy(): void {
    this.controller.abort();
    this.animator.destroy();
    this.release(false);
    this.win.clearTimeout(this.toastTimer);
    this.win.clearTimeout(this.hintTimer);
    this.lesson.stopTimer();
    this.root.remove();
    this.cards.clear();
  }
}

function el(doc: Document, tag: string, className: string): HTMLElement {
  const node = doc.createElement(tag);
  node.className = className;
  return node;
}
