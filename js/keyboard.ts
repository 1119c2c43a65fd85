/** Keyboard play: arrows move a focus ring over piles and cards, Enter/Space picks up and drops, and shortcuts. */

import type { Board } from "./board";
import { cardName } from "./cards";
import type { LessonAction, PileId } from "./types";
import { phrase } from "./words";

const TOP_ROW: PileId[] = ["stock", "waste", "fC", "fD", "fH", "fS"];
/** The grid slot (of seven) of each top-row pile, to go up and down between the rows. */
const TOP_SLOT = [0, 1, 3, 4, 5, 6];

/** Lesson keys (while a lesson is shown and not taken over): step forward, back, to the first or last step, and
 * play/pause. Plain arrows keep moving the focus ring. */
export function lessonKey(e: KeyboardEvent): LessonAction | null {
  if (e.ctrlKey || e.metaKey || e.altKey) return null;
  const k = e.key;
  if (k === "." || k === ">" || (e.shiftKey && k === "ArrowRight")) return "forward";
  if (k === "," || k === "<" || (e.shiftKey && k === "ArrowLeft")) return "back";
  if (e.shiftKey && k === "Home") return "first";
  if (e.shiftKey && k === "End") return "last";
  if (k === "p" || k === "P") return "play";
  return null;
}

interface Focus {
  pile: PileId;
  /** Index of the focused card in the pile (tableau only; other piles focus their top card). */
  index: number;
}

export class Keyboard {
  focus: Focus = { pile: "t1", index: -1 };
  /** Whether the focus ring is shown (after the first key press). */
  private visible = false;

  constructor(
    private readonly board: Board,
    signal: AbortSignal,
  ) {
    board.root.addEventListener("keydown", (e) => this.onKey(e), { signal });
    board.root.addEventListener("pointerdown", () => this.hide(), { signal });
    board.root.addEventListener("blur", () => this.hide(), { signal });
    // Tabbing into the board shows the focus ring at once.
    board.root.addEventListener(
      "keyup",
      (e) => {
        if (e.key === "Tab" && e.target === board.root && !this.visible) {
          this.visible = true;
          this.draw();
        }
      },
      { signal },
    );
  }

  private tableau(): PileId[] {
    return this.board.allPiles().filter((p) => p.startsWith("t"));
  }

  /** The focused card key, if the focus is on a card. */
  focusedCard(): string | null {
    const cards = this.board.pileCards(this.focus.pile);
    const el = this.focus.pile.startsWith("t") ? cards[this.focus.index] : cards[cards.length - 1];
    return el?.dataset.face === "up" ? (el.dataset.key ?? null) : null;
  }

  /** The first face-up index of a tableau pile (its length when there is none). */
  private firstUp(pile: PileId): number {
    const cards = this.board.pileCards(pile);
    const i = cards.findIndex((c) => c.dataset.face === "up");
    return i < 0 ? cards.length : i;
  }

  private topIndex(pile: PileId): number {
    return this.board.pileCards(pile).length - 1;
  }

  /** Keeps the focus on something that exists after a render, and redraws the ring. */
  refresh(): void {
    const piles = this.board.allPiles();
    if (!piles.includes(this.focus.pile)) this.focus = { pile: "t1", index: -1 };
    if (this.focus.pile.startsWith("t")) {
      const top = this.topIndex(this.focus.pile);
      const first = this.firstUp(this.focus.pile);
      if (this.focus.index > top || this.focus.index < Math.min(first, top)) this.focus.index = top;
    }
    this.draw();
  }

  private hide(): void {
    this.visible = false;
    this.draw();
  }

  private draw(): void {
    for (const c of this.board.root.querySelectorAll(".pl-focus")) c.classList.remove("pl-focus");
    this.board.root.classList.toggle("pl-kbd", this.visible);
    if (!this.visible) return;
    const cards = this.board.pileCards(this.focus.pile);
    const target = this.focus.pile.startsWith("t") ? cards[this.focus.index] : cards[cards.length - 1];
    (target ?? this.board.pileEl(this.focus.pile))?.classList.add("pl-focus");
  }

  /** The spoken name of what has the focus ring. */
  private focusLabel(): string {
    const cards = this.board.pileCards(this.focus.pile);
    const target = this.focus.pile.startsWith("t") ? cards[this.focus.index] : cards[cards.length - 1];
    const pile = this.board.pileEl(this.focus.pile)?.getAttribute("aria-label") ?? "";
    const card = target?.getAttribute("aria-label");
    return card ? `${pile}: ${card}` : pile;
  }

  private go(pile: PileId, index?: number): void {
    this.focus = { pile, index: index ?? this.topIndex(pile) };
  }

  private arrow(key: string): void {
    const { pile, index } = this.focus;
    const cols = this.tableau();
    const inTop = TOP_ROW.indexOf(pile);
    if (inTop >= 0) {
      if (key === "ArrowLeft") this.go(TOP_ROW[Math.max(0, inTop - 1)]);
      else if (key === "ArrowRight") this.go(TOP_ROW[Math.min(TOP_ROW.length - 1, inTop + 1)]);
      else if (key === "ArrowDown") this.go(cols[Math.min(cols.length - 1, TOP_SLOT[inTop])]);
      return;
    }
    const col = cols.indexOf(pile);
    if (key === "ArrowLeft") this.go(cols[Math.max(0, col - 1)]);
    else if (key === "ArrowRight") this.go(cols[Math.min(cols.length - 1, col + 1)]);
    else if (key === "ArrowDown") this.focus.index = Math.min(this.topIndex(pile), index + 1);
    else if (key === "ArrowUp") {
      if (index > this.firstUp(pile) && index > 0) this.focus.index = index - 1;
      else {
        let slot = 0;
        TOP_SLOT.forEach((s, i) => {
          if (s <= col) slot = i;
        });
        this.go(TOP_ROW[slot]);
      }
    }
  }

  /** Enter or Space: pick up the focused card, or drop the picked-up card on the focused pile. */
  private activate(): void {
    const board = this.board;
    const pile = this.focus.pile;
    const held = board.selected;
    if (held) {
      if (pile === board.pileOf(held) || !board.moveTo(held, pile)) board.select(null);
      return;
    }
    if (pile === "stock") {
      board.stockAction();
      return;
    }
    const card = this.focusedCard();
    if (!card) return;
    if (board.isMovable(card)) {
      board.select(card);
      board.announce(phrase(board.labels, "picked-up", { card: cardName(card, board.labels) }));
    } else {
      board.announce(phrase(board.labels, "cannot-move", { card: cardName(card, board.labels) }));
    }
  }

  private onKey(e: KeyboardEvent): void {
    if (e.target !== this.board.root || e.altKey) return;
    const key = e.key.length === 1 ? e.key.toLowerCase() : e.key;
    const ctrl = e.ctrlKey || e.metaKey;
    const board = this.board;
    let handled = true;
    const step = board.lesson.stepping ? lessonKey(e) : null;
    if (step) {
      board.lesson.step(step);
    } else if (key.startsWith("Arrow") && !ctrl) {
      if (this.visible) this.arrow(key);
      this.visible = true;
      board.announce(this.focusLabel());
    } else if ((key === "Enter" || key === " ") && !ctrl) {
      this.visible = true;
      this.activate();
    } else if (key === "Escape") {
      if (!board.selected) handled = false;
      board.select(null);
    } else if (ctrl && (key === "y" || (key === "z" && e.shiftKey))) {
      board.intent({ type: "redo" });
    } else if ((ctrl && key === "z") || (key === "u" && !ctrl)) {
      board.intent({ type: "undo" });
    } else if (ctrl) {
      handled = false;
    } else if (key === "d") {
      board.stockAction();
    } else if (key === "h") {
      board.intent({ type: "hint" });
    } else if (key === "f") {
      const card = this.focusedCard();
      if (card) board.moveTo(card, `f${card[card.length - 1]}`);
    } else {
      handled = false;
    }
    if (!handled) return;
    e.preventDefault();
    e.stopPropagation();
    this.draw();
  }
}
