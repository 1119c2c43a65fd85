/** The board: DOM built from the synced state and the interaction (`ui.ts`) by a keyed update of card elements.
 * Input modules act on it through `BoardInput`; it knows nothing of anywidget. */

import { Animator, celebrate, type Point } from "./animate";
import { cardName, drawBack, drawFace, faceLetters } from "./cards";
import { attachPointer } from "./drag";
import { node } from "./dom";
import { cardWidthFor, scroller, visibleBox } from "./fit";
import type { BoardInput, PileBox } from "./input";
import { attachKeyboard } from "./keyboard";
import { LessonView } from "./lesson";
import { drawShapes, markShape, type Box, type Shape } from "./marks";
import { RecordView } from "./record";
import { layout, pileIds, tableauPiles } from "./piles";
import { Toolbar } from "./toolbar";
import type { CardId, GameState, IntentBody, Intent, Labels, Message, PileId, Reply, Suit } from "./types";
import { afterState, focusIndex, initialInteraction, isDropPile, isLegal, isMovable, legalDrops, reduce } from "./ui";
import { stockIntent, type Action, type Interaction } from "./ui";
import { phrase, pileName, word } from "./words";

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
/** The smallest card width (px) the height fit may choose: below it the board scrolls instead. */
const MIN_FIT = 44;

/** What the message line says: a hint, a rejection, a notice from Python, or a narration. */
type SayKind = "hint" | "error" | "info" | "narration";
const EYE =
  '<svg viewBox="0 0 24 24" aria-hidden="true" focusable="false"><path d="M12 5C6.5 5 2.7 9.4 1.5 12c1.2 2.6 5 7 ' +
  '10.5 7s9.3-4.4 10.5-7C21.3 9.4 17.5 5 12 5zm0 11.5a4.5 4.5 0 1 1 0-9 4.5 4.5 0 0 1 0 9zm0-2.3a2.2 2.2 0 1 0 ' +
  '0-4.4 2.2 2.2 0 0 0 0 4.4z"/></svg>';

/** The visible height (px) under which a lesson's board is short: its status line gives way and its words shrink. */
const SHORT = 720;
/** The board's width (px) up to which it is laid out for a phone (as the CSS's narrowest container queries). */
const PHONE = 520;

export class Board implements BoardInput {
  readonly root: HTMLElement;
  readonly table: HTMLElement;
  readonly animator: Animator;
  state: GameState | null = null;
  labels: Labels = {};
  /** The `faces` trait: the language's rank letters on the faces unless it is "standard" (A J Q K). */
  private localFaces = true;
  /** What is picked up, dragged and focused (pure data; `paint` draws it). */
  private interaction: Interaction = initialInteraction();
  private readonly win: Window;
  private readonly controller = new AbortController();
  private readonly cards = new Map<string, HTMLElement>();
  private readonly piles = new Map<PileId, HTMLElement>();
  private readonly top: HTMLElement;
  private readonly tableau: HTMLElement;
  /** The message line above the table (hints, rejections, notices, narration): shown only while it says
   * something, in full, never over the cards; inside the lesson's caption box while a lesson is shown. */
  private readonly say: HTMLElement;
  private said: { kind: SayKind; text: string } | null = null;
  /** The pile the shown hint points at (the message line's caret stands above it). */
  private hintPile: PileId | null = null;
  private readonly live: HTMLElement;
  private readonly toolbar: Toolbar;
  readonly lesson: LessonView;
  readonly record: RecordView;
  /** The teacher's marks, drawn over the table. */
  private readonly overlay: SVGSVGElement;
  /** The id of the last `state.message` shown. */
  private messageId: number | null = null;
  private held: Held | null = null;
  private nextId = 1;
  private fitFrame = 0;
  /** The deepest fan of the lesson shown (see `lessonFan`), and which lesson it was measured for. */
  private fan = 0;
  private fanFor = "";
  private observer: ResizeObserver | null = null;
  /** The scrolling panel the board lives in, observed for its height. */
  private observed: HTMLElement | null = null;

  constructor(
    host: HTMLElement,
    private readonly options: BoardOptions,
  ) {
    const doc = host.ownerDocument;
    this.win = doc.defaultView ?? window;
    this.animator = new Animator(this.win);
    this.root = node(doc, "div", "pl-root");
    this.root.tabIndex = 0;
    this.root.dataset.lmSuppressShortcuts = "true";
    this.root.setAttribute("role", "application");
    this.root.setAttribute("aria-roledescription", "Klondike");
    this.table = node(doc, "div", "pl-table");
    this.top = node(doc, "div", "pl-top");
    this.tableau = node(doc, "div", "pl-tableau");
    this.say = node(doc, "p", "pl-say");
    this.live = node(doc, "div", "pl-live pl-sr-only");
    this.live.setAttribute("aria-live", "polite");
    for (const pile of pileIds(null).slice(0, 6)) {
      this.top.append(this.makePile(pile));
    }
    const signal = this.controller.signal;
    this.toolbar = new Toolbar(doc, (body) => this.intent(body), signal);
    this.lesson = new LessonView(doc, (body) => this.intent(body), signal);
    this.record = new RecordView(doc, (body) => this.intent(body), signal);
    this.overlay = doc.createElementNS("http://www.w3.org/2000/svg", "svg");
    this.overlay.setAttribute("class", "pl-marks");
    this.overlay.setAttribute("aria-hidden", "true");
    this.table.append(this.top, this.tableau, this.overlay, this.toolbar.banner);
    this.root.append(
      this.toolbar.bar,
      this.toolbar.status,
      this.say,
      this.record.el,
      this.lesson.el,
      this.table,
      this.toolbar.rulesPanel.el,
      this.toolbar.statsPanel.el,
      this.live,
    );
    host.append(this.root);
    attachKeyboard(this, signal);
    attachPointer(this, signal);
    this.setColumns(7);
    this.watchSize(signal);
  }

  // ----------------------------------------------------------------------------------------- fit

  /** Refits on every change of the widget's width or the window's height (measured, in every language). */
  private watchSize(signal: AbortSignal): void {
    const refit = (): void => this.scheduleFit();
    this.win.addEventListener("resize", refit, { signal });
    const Observer = (this.win as Window & { ResizeObserver?: typeof ResizeObserver }).ResizeObserver;
    if (typeof Observer === "function") {
      this.observer = new Observer(refit);
      this.observer.observe(this.root);
    }
  }

  private scheduleFit(): void {
    if (this.fitFrame || typeof this.win.requestAnimationFrame !== "function") return;
    this.fitFrame = this.win.requestAnimationFrame(() => {
      this.fitFrame = 0;
      this.fit();
    });
  }

  /** Toolbar on one row, menus and panels inside, and cards as large as the output's width and the window's
   * height allow (the CSS keeps the width limit; this adds the height limit as `--pl-fit-w`). */
  fit(): void {
    if (!this.root.isConnected) return;
    this.toolbar.fit();
    this.lesson.reserve(); // a new width: the caption box is measured again before the cards are
    this.pointCaret();
    const panel = scroller(this.root);
    if (panel && this.observer && panel !== this.observed) {
      this.observed = panel;
      this.observer.observe(panel);
    }
    const view = visibleBox(this.root);
    // a short screen (a projector's 768 px less the notebook's bars) wider than a phone (which has its own layout):
    // a lesson's board gives its words less room
    const wide = this.root.getBoundingClientRect().width > PHONE;
    this.root.classList.toggle("pl-short", view.bottom - view.top < SHORT && wide);
    const rootBox = this.root.getBoundingClientRect();
    const tableBox = this.table.getBoundingClientRect();
    if (view.bottom - view.top <= 0 || tableBox.height <= 0) return;
    const style = this.win.getComputedStyle(this.table);
    const padding = parseFloat(style.paddingTop) + parseFloat(style.paddingBottom);
    const fan = this.lessonFan();
    // a margin for a column that grows deeper than the fan measured (a lesson measures its deepest column as it
    // goes and refits when one grows deeper, so a small margin there)
    const height = view.bottom - view.top - (this.state?.lesson ? 4 : 16);
    const width = Math.max(MIN_FIT, cardWidthFor(height, rootBox.height - tableBox.height, padding, fan));
    const current = this.root.style.getPropertyValue("--pl-fit-w");
    if (current !== `${width}px`) this.root.style.setProperty("--pl-fit-w", `${width}px`);
    this.drawMarks();
  }

  /** In a lesson, the deepest column's fan (card widths) shown so far in it: the board keeps it in view, so a
   * presenter never scrolls (the cards shrink once when a column first grows deeper). Elsewhere the usual room. */
  private lessonFan(): number {
    const lesson = this.state?.lesson;
    if (!lesson) {
      this.fanFor = "";
      this.fan = 0;
      return 0;
    }
    const key = `${lesson.title ?? ""}|${lesson.steps}`;
    if (key !== this.fanFor) {
      this.fanFor = key;
      this.fan = 0;
    }
    for (const pile of tableauPiles(this.state?.columns || 7)) {
      this.fan = Math.max(this.fan, parseFloat(this.piles.get(pile)?.style.getPropertyValue("--h") ?? "") || 0);
    }
    return this.fan;
  }

  /** Draws the marks of the recorded step, or of the lesson step shown, over the table. */
  drawMarks(): void {
    const s = this.state;
    const marks = s?.recording ? s.recording.marks : s?.lesson && !s.lesson.taken_over ? s.lesson.marks : [];
    const list = Array.isArray(marks) ? marks : [];
    const shapes: Shape[] = [];
    if (list.length && this.root.isConnected) {
      const table = this.table.getBoundingClientRect();
      const unit = this.piles.get("t1")?.getBoundingClientRect().width || 60;
      for (const mark of list) {
        const shape = markShape(mark, (name) => this.placeBox(name, table, unit), unit);
        if (shape) shapes.push(shape);
      }
    }
    drawShapes(this.overlay, shapes);
  }

  /** The box, relative to the table, of a pile's top card (its place when empty), or of the seen part of a
   * face-up card. Offsets, not client boxes: a card gliding into place is measured where it will be. */
  private placeBox(name: string, table: DOMRect, unit: number): Box | null {
    const card = this.piles.has(name) ? this.pileCards(name).pop() : this.cards.get(name);
    if (!this.piles.has(name) && card?.dataset.face !== "up") return null;
    const host = card ? card.closest<HTMLElement>(".pl-pile") : this.piles.get(name);
    if (!host) return null;
    const p = host.getBoundingClientRect();
    const left = p.left - table.left;
    const top = p.top - table.top;
    if (!card) return { left, top, width: unit, height: Math.min(p.height, unit * 1.45) };
    const next = card.nextElementSibling as HTMLElement | null;
    const fanned = next?.classList.contains("pl-card") && host.dataset.pile?.startsWith("t") && !this.piles.has(name);
    const height = fanned && next ? Math.max(unit * 0.3, next.offsetTop - card.offsetTop) : card.offsetHeight;
    return { left: left + card.offsetLeft, top: top + card.offsetTop, width: card.offsetWidth, height };
  }

  recording(): boolean {
    return !!this.state?.recording;
  }

  // ----------------------------------------------------------------------------------------- input

  game(): GameState | null {
    return this.state;
  }

  ui(): Readonly<Interaction> {
    return this.interaction;
  }

  /** The card elements of a pile, bottom first. */
  private pileCards(pile: PileId): HTMLElement[] {
    const host = this.piles.get(pile);
    return host ? ([...host.children] as HTMLElement[]).filter((c) => c.classList.contains("pl-card")) : [];
  }

  runEls(card: CardId): HTMLElement[] {
    const pile = this.cards.get(card)?.closest<HTMLElement>(".pl-pile")?.dataset.pile;
    if (!pile) return [];
    const cards = this.pileCards(pile);
    const start = cards.findIndex((c) => c.dataset.key === card);
    return start < 0 ? [] : pile.startsWith("t") ? cards.slice(start) : [cards[start]];
  }

  dropBoxes(): PileBox[] {
    const boxes: PileBox[] = [];
    for (const [pile, host] of this.piles) {
      if (!isDropPile(pile)) continue;
      const box = host.getBoundingClientRect();
      const cards = this.pileCards(pile);
      const last = cards[cards.length - 1]?.getBoundingClientRect();
      const bottom = Math.max(box.bottom, last?.bottom ?? 0);
      boxes.push({ pile, left: box.left, top: box.top, right: box.right, bottom });
    }
    return boxes;
  }

  /** Applies one action of an input module: sends what it asks for, keeps the interaction, and draws it. */
  dispatch(action: Action): void {
    const state = this.state;
    const before = this.interaction;
    this.interaction = reduce(state, before, action);
    switch (action.type) {
      case "move":
        this.send({ type: "move", card: action.card, to: action.to });
        break;
      case "stock": {
        const what = stockIntent(state);
        if (what === "no-passes") this.notify(word(this.labels, "no-passes"));
        else if (what) this.send(what);
        break;
      }
      case "intent":
        this.send(action.body);
        break;
      case "mark":
        this.send({ type: "record", action: "mark", mark: action.mark });
        break;
      case "lesson":
        this.lesson.step(action.action);
        break;
      case "announce-focus":
        this.announce(this.focusLabel());
        break;
      case "pick-up": {
        const key = isMovable(state, action.card) ? "picked-up" : "cannot-move";
        this.announce(phrase(this.labels, key, { card: cardName(action.card, this.labels) }));
        break;
      }
      case "drag-start":
        for (const c of this.runEls(action.card)) {
          this.animator.stop(c);
          c.classList.add("pl-dragging");
        }
        break;
      case "drag-end":
        if (before.drag) this.drop(before.drag.card, action.to, action.dx, action.dy);
        break;
      default:
        break;
    }
    this.paint();
  }

  /** The end of a drag: a legal drop is held where it fell until the new state; any other snaps back, and a drop on
   * a pile where the card may not go still asks Python, which says why not. */
  private drop(card: CardId, to: PileId | null, dx: number, dy: number): void {
    const els = this.runEls(card);
    if (to && isLegal(this.state, card, to)) {
      this.hold(els, dx, dy);
    } else {
      for (const c of els) {
        c.classList.remove("pl-dragging");
        this.animator.snapBack(c, dx, dy);
      }
    }
    if (to) this.send({ type: "move", card, to });
  }

  /** Sends an intent made on the current version; returns its id. */
  intent(body: IntentBody): number {
    return this.send(body);
  }

  private send(body: IntentBody): number {
    // a note being typed belongs to the step recorded before this intent: it goes first
    if (body.type !== "record" || body.action !== "note") this.record.flushNote();
    const id = this.nextId++;
    // The next action ends a hint and a rejection (they stay until then, for a class to read).
    this.clearHint();
    if (this.said && this.said.kind !== "narration") this.setSay(null);
    if (body.type === "move") this.interaction = { ...this.interaction, pending: [...this.interaction.pending, id] };
    this.options.send({ ...body, version: this.state?.version ?? 0, id } as Intent);
    return id;
  }

  /** Draws the interaction: the selection and its targets, the drag's piles, the focus ring. */
  private paint(): void {
    const ui = this.interaction;
    const state = this.state;
    const clear = (cls: string): void => {
      for (const c of this.root.querySelectorAll(`.${cls}`)) c.classList.remove(cls);
    };
    for (const cls of ["pl-selected", "pl-target", "pl-can-drop", "pl-over", "pl-focus"]) clear(cls);
    if (ui.selected) {
      for (const c of this.runEls(ui.selected)) c.classList.add("pl-selected");
      for (const pile of legalDrops(state, ui.selected)) this.piles.get(pile)?.classList.add("pl-target");
    }
    const held = ui.drag?.card ?? ui.selected;
    if (held && state?.show_moves) {
      for (const pile of legalDrops(state, held)) this.piles.get(pile)?.classList.add("pl-can-drop");
    }
    if (ui.drag?.over) this.piles.get(ui.drag.over)?.classList.add("pl-over");
    this.root.classList.toggle("pl-kbd", ui.focusVisible);
    if (ui.focusVisible) {
      const cards = this.pileCards(ui.focus.pile);
      (cards[focusIndex(state, ui.focus)] ?? this.piles.get(ui.focus.pile))?.classList.add("pl-focus");
    }
  }

  /** The spoken name of what has the focus ring. */
  private focusLabel(): string {
    const focus = this.interaction.focus;
    const target = this.pileCards(focus.pile)[focusIndex(this.state, focus)];
    const pile = pileName(focus.pile, this.labels);
    const card = target?.getAttribute("aria-label");
    return card ? `${pile}: ${card}` : pile;
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
      const pending = this.interaction.pending.filter((id) => id !== reply.id);
      this.interaction = { ...this.interaction, selected: null, pending };
      this.paint();
      this.notify(String(reply.text ?? ""));
    } else if (reply.type === "hint") {
      this.showHint(reply.card ?? null, reply.to ?? null, String(reply.text ?? ""));
    } else if (reply.type === "stats") {
      this.toolbar.showStats(Array.isArray(reply.rows) ? reply.rows : []);
    }
  }

  /** Shows `text` in the message line until the next action, and announces it. */
  notify(text: string, kind: SayKind = "error"): void {
    if (!text) return;
    this.setSay({ kind, text });
    this.announce(text);
  }

  /** Puts a message in the message line (or, while a lesson is shown, in its caption box). */
  private setSay(said: { kind: SayKind; text: string } | null): void {
    this.said = said;
    const inLesson = this.lesson.shown;
    this.say.textContent = inLesson || !said ? "" : said.text;
    this.say.dataset.kind = inLesson || !said ? "" : said.kind;
    this.say.hidden = inLesson;
    this.lesson.setNarration(inLesson && said ? said.text : "", said?.kind ?? "");
  }

  announce(text: string): void {
    // Re-setting the same text would not be read again; a trailing no-break space makes it new.
    this.live.textContent = this.live.textContent === text ? `${text}\u00a0` : text;
  }

  /** Marks the hinted card and pile until the next action, and says why in the message line. */
  private showHint(card: string | null, to: PileId | null, text: string): void {
    this.clearHint();
    const marks: Element[] = card ? this.runEls(card) : [];
    const target = this.piles.get(to ?? (card ? "" : "stock"));
    if (target) marks.push(target);
    for (const m of marks) m.classList.add("pl-hint");
    this.hintPile = to ?? (card ? null : "stock");
    this.notify(text, "hint");
    this.pointCaret();
  }

  private clearHint(): void {
    this.hintPile = null;
    for (const m of this.root.querySelectorAll(".pl-hint")) m.classList.remove("pl-hint");
  }

  /** Stands a caret on the table's top edge, under the hint's sentence and above the hinted pile, so the sentence
   * points at its move (in the felt's margin, never on a card). */
  private pointCaret(): void {
    const pile = this.hintPile ? this.piles.get(this.hintPile) : undefined;
    const shown = !!pile && this.said?.kind === "hint" && !this.lesson.shown;
    this.table.classList.toggle("pl-hinting", shown);
    if (!pile || !shown) return;
    const box = pile.getBoundingClientRect();
    const card = this.pileCards(this.hintPile ?? "")[0]?.getBoundingClientRect().width ?? box.width;
    const x = box.left + Math.min(box.width, card || box.width) / 2 - this.table.getBoundingClientRect().left;
    this.table.style.setProperty("--pl-caret-x", `${Math.round(x)}px`);
  }

  // ----------------------------------------------------------------------------------------- render

  setLabels(labels: Labels | null | undefined): void {
    this.labels = labels && typeof labels === "object" ? labels : {};
    this.toolbar.setLabels(this.labels);
    if (this.state) this.render(this.state, null);
    // new words, new widths: refit the toolbar now, not a frame later
    if (this.root.isConnected) this.toolbar.fit();
    for (const [pile, host] of this.piles) host.setAttribute("aria-label", pileName(pile, this.labels));
    this.root.setAttribute("aria-label", word(this.labels, "title"));
  }

  /** The `faces` trait: "standard" draws A J Q K on the faces; anything else ("local", the default) the
   * language's rank letters, as the sentences name the cards (Dutch B V K A, Swedish Kn D K E). */
  setFaces(faces: unknown): void {
    this.localFaces = faces !== "standard";
    if (this.state) this.render(this.state, null);
  }

  /** The `size` trait: a card width in pixels (40 to 240) fixes the cards' size; anything else fits them. */
  setSize(size: unknown): void {
    const ok = typeof size === "number" && Number.isInteger(size) && size >= 40 && size <= 240;
    if (ok) this.root.style.setProperty("--pl-card-width", `${size}px`);
    else this.root.style.removeProperty("--pl-card-width");
    this.scheduleFit();
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
      this.said = null;
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
    this.root.dataset.lessonStep = state.lesson ? String(state.lesson.step) : "";
    this.root.classList.toggle("pl-draw3", state.draw === 3);
    const stock = this.piles.get("stock");
    const noPasses = stockIntent(state) === "no-passes";
    stock?.classList.toggle("pl-no-passes", noPasses);
    stock?.classList.toggle("pl-can-recycle", !state.stock.length && state.can_recycle);
    stock?.setAttribute("data-empty-label", noPasses ? word(this.labels, "no-passes") : "");
    // "Show moves" marks the stock too when drawing (or turning the waste over) is a move
    const stockMoves = state.status === "playing" && (!!state.can_draw || !!state.can_recycle);
    stock?.classList.toggle("pl-can-move", !!state.show_moves && stockMoves);
    this.toolbar.update(state);
    this.lesson.update(state, this.labels);
    this.record.update(state, this.labels);
    this.root.classList.toggle("pl-teaching", this.lesson.shown);
    this.root.classList.toggle("pl-presenting", this.lesson.stepping);
    this.root.classList.toggle("pl-recording", this.record.shown);
    this.markLesson(state);
    this.interaction = afterState(state, previous, this.interaction);
    const message = state.message ?? null;
    const narrated = message?.kind === "narration" && message.id !== this.messageId;
    if (changed && previous) {
      // One sentence per move: Python's narration when it narrates, else the move's own sentence.
      if (state.last_move && !narrated) this.announce(state.last_move.text ?? "");
      const caption = state.lesson?.caption;
      if (caption && caption !== previous.lesson?.caption) this.announce(caption);
      if (previous.status !== "won" && state.status === "won") this.celebrate();
    }
    this.showMessage(message, !!previous);
    this.paint();
    this.drawMarks();
    this.scheduleFit();
  }

  /** Outlines the cards that moved in the lesson step shown and the pile they went to. */
  private markLesson(state: GameState): void {
    for (const m of this.root.querySelectorAll(".pl-lesson-mark")) m.classList.remove("pl-lesson-mark");
    const mark = state.lesson?.highlight;
    if (!mark || state.lesson?.taken_over) return;
    const cards = Array.isArray(mark.cards) ? mark.cards : [];
    for (const card of cards) this.cards.get(card)?.classList.add("pl-lesson-mark");
    if (mark.to) this.piles.get(mark.to)?.classList.add("pl-lesson-mark");
  }

  /** `state.message`: a narration or a notice in the message line (the caption box in a lesson), announced once
   * per id. */
  private showMessage(message: Message | null, later: boolean): void {
    const valid = !!message && typeof message === "object" && typeof message.text === "string";
    const id = valid ? message.id : null;
    const fresh = id !== this.messageId;
    this.messageId = id;
    if (valid && message.kind === "narration" && (fresh || !this.said)) this.said = { kind: "narration", text: message.text };
    if (valid && message.kind === "info" && fresh && later) this.said = { kind: "info", text: message.text };
    this.setSay(this.said);
    if (!valid || !fresh || !later) return;
    this.announce(message.text);
  }

  private place(state: GameState): void {
    const doc = this.root.ownerDocument;
    const seen = new Set<string>();
    const letters = faceLetters(this.labels, this.localFaces);
    const lettering = Object.values(letters).join(" ");
    for (const [pile, slots] of layout(state)) {
      const host = this.piles.get(pile);
      if (!host) continue;
      let height = 0;
      slots.forEach((slot, index) => {
        seen.add(slot.key);
        let card = this.cards.get(slot.key);
        const face = slot.faceUp ? "up" : slot.card ? "revealed" : "down";
        if (!card) {
          card = node(doc, "div", "pl-card");
          card.dataset.key = slot.key;
          card.setAttribute("role", "img");
          this.cards.set(slot.key, card);
        }
        if (card.dataset.face !== face || (slot.card && card.dataset.letters !== lettering)) {
          card.dataset.face = face;
          card.dataset.letters = lettering;
          card.className = `pl-card pl-${face}`;
          if (slot.card) drawFace(card, slot.card, letters);
          else drawBack(card);
          if (face === "revealed") card.insertAdjacentHTML("beforeend", `<span class="pl-eye">${EYE}</span>`);
        }
        card.dataset.card = slot.card ?? "back";
        if (face === "revealed") card.dataset.revealed = "true";
        else delete card.dataset.revealed;
        const name = slot.card ? cardName(slot.card, this.labels) : word(this.labels, "face-down");
        card.setAttribute("aria-label", face === "revealed" ? `${name} (${word(this.labels, "revealed")})` : name);
        const movable = slot.faceUp && isMovable(state, slot.card);
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
    const source = move ? this.piles.get(move.from) : undefined;
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
    const kind = pile === "w" ? "waste" : pile[0] === "f" ? "foundation" : pile;
    const host = node(this.root.ownerDocument, "div", `pl-pile pl-pile-${kind}`);
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
    if (this.fitFrame) this.win.cancelAnimationFrame(this.fitFrame);
    this.observer?.disconnect();
    this.lesson.stopTimer();
    this.root.remove();
    this.cards.clear();
  }
}

