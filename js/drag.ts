/** Pointer input: drag a card (and the run on it), click to select and click a pile to move, double-click/tap to a foundation, click the stock. */

import type { Board } from "./board";
import type { PileId } from "./types";

const DRAG_START_PX = 5;
const DOUBLE_MS = 400;

interface Press {
  id: number;
  x: number;
  y: number;
  card: string | null;
  pile: PileId | null;
  els: HTMLElement[];
  dragging: boolean;
  over: HTMLElement | null;
  moves: AbortController;
}

/** Wires pointer events on the board's table; everything is removed when `signal` aborts. */
export function attachPointer(board: Board, signal: AbortSignal): void {
  const table = board.table;
  const win = table.ownerDocument.defaultView ?? window;
  let press: Press | null = null;
  let lastTap = { card: "", time: 0 };

  const cardOf = (target: EventTarget | null): HTMLElement | null =>
    target instanceof Element ? target.closest<HTMLElement>(".pl-card") : null;
  const pileOf = (target: EventTarget | null): HTMLElement | null =>
    target instanceof Element ? target.closest<HTMLElement>(".pl-pile") : null;

  const end = (): void => {
    if (!press) return;
    press.moves.abort();
    press.over?.classList.remove("pl-over");
    if (press.dragging) board.markDrops(null);
    press = null;
  };

  const onDown = (e: PointerEvent): void => {
    if (e.button !== 0 || press) return;
    const cardEl = cardOf(e.target);
    const pileEl = pileOf(e.target);
    if (!pileEl) return;
    const card = cardEl?.dataset.face === "up" ? (cardEl.dataset.key ?? null) : null;
    press = {
      id: e.pointerId,
      x: e.clientX,
      y: e.clientY,
      card,
      pile: pileEl.dataset.pile ?? null,
      els: [],
      dragging: false,
      over: null,
      moves: new AbortController(),
    };
    const opts = { signal: press.moves.signal };
    win.addEventListener("pointermove", onMove, opts);
    win.addEventListener("pointerup", onUp, opts);
    win.addEventListener("pointercancel", onCancel, opts);
    if (board.isDraggable(card)) e.preventDefault();
    board.root.focus({ preventScroll: true });
  };

  const onMove = (e: PointerEvent): void => {
    if (!press || e.pointerId !== press.id) return;
    const dx = e.clientX - press.x;
    const dy = e.clientY - press.y;
    if (!press.dragging) {
      if (Math.hypot(dx, dy) < DRAG_START_PX || !board.isDraggable(press.card)) return;
      press.dragging = true;
      press.els = board.runFrom(press.card);
      board.select(null);
      board.markDrops(press.card);
      for (const c of press.els) {
        board.animator.stop(c);
        c.classList.add("pl-dragging");
      }
    }
    e.preventDefault();
    for (const c of press.els) c.style.transform = `translate(${dx}px, ${dy}px)`;
    const over = dropPile(board, press.els[0], press.pile);
    const overEl = over ? (board.pileEl(over) ?? null) : null;
    if (overEl !== press.over) {
      press.over?.classList.remove("pl-over");
      overEl?.classList.add("pl-over");
      press.over = overEl;
    }
  };

  const onUp = (e: PointerEvent): void => {
    if (!press || e.pointerId !== press.id) return;
    const p = press;
    end();
    if (p.dragging) drop(board, p, e.clientX - p.x, e.clientY - p.y);
    else tap(p.card, p.pile, e);
  };

  const onCancel = (e: PointerEvent): void => {
    if (!press || e.pointerId !== press.id) return;
    const p = press;
    end();
    if (p.dragging) for (const c of p.els) snap(board, c, e.clientX - p.x, e.clientY - p.y);
  };

  const tap = (card: string | null, pile: PileId | null, e: PointerEvent): void => {
    const now = e.timeStamp || win.performance.now();
    const double = !!card && lastTap.card === card && now - lastTap.time < DOUBLE_MS;
    lastTap = { card: card ?? "", time: now };
    if (pile === "stock") {
      board.stockAction();
      return;
    }
    const state = board.state;
    if (double && card && state && (state.targets[card] ?? []).includes("f")) {
      lastTap = { card: "", time: 0 };
      board.moveTo(card, `f${card[card.length - 1]}`);
      return;
    }
    const selected = board.selected;
    if (selected && card === selected) {
      board.select(null);
      return;
    }
    if (selected && pile && pile !== board.pileOf(selected)) {
      if (board.isLegal(selected, pile) || !board.isMovable(card)) {
        board.moveTo(selected, pile);
        return;
      }
    }
    board.select(board.isMovable(card) ? card : null);
  };

  table.addEventListener("pointerdown", onDown, { signal });
  table.addEventListener("dragstart", (e) => e.preventDefault(), { signal });
  signal.addEventListener("abort", end, { once: true });
}

function snap(board: Board, card: HTMLElement, dx: number, dy: number): void {
  card.classList.remove("pl-dragging");
  board.animator.snapBack(card, dx, dy);
}

/** The pile that the dragged lead card overlaps most (not its own pile), or null. */
export function dropPile(board: Board, lead: HTMLElement | undefined, source: PileId | null): PileId | null {
  if (!lead) return null;
  const r = lead.getBoundingClientRect();
  let best: PileId | null = null;
  let bestArea = 0;
  for (const pile of board.allPiles()) {
    if (pile === source || pile === "stock" || pile === "waste") continue;
    const host = board.pileEl(pile);
    if (!host) continue;
    const box = host.getBoundingClientRect();
    const last = lastOf(board.pileCards(pile))?.getBoundingClientRect();
    const bottom = Math.max(box.bottom, last?.bottom ?? 0);
    const w = Math.min(r.right, box.right) - Math.max(r.left, box.left);
    const h = Math.min(r.bottom, bottom) - Math.max(r.top, box.top);
    if (w > 0 && h > 0 && w * h > bestArea) {
      bestArea = w * h;
      best = pile;
    }
  }
  return best;
}

function drop(board: Board, press: Press, dx: number, dy: number): void {
  const card = press.card;
  const target = dropPile(board, press.els[0], press.pile);
  if (!card || !target) {
    for (const c of press.els) snap(board, c, dx, dy);
    return;
  }
  if (board.isLegal(card, target)) {
    board.hold(press.els, dx, dy);
    board.moveTo(card, target);
    return;
  }
  // An illegal pile: the cards go home, and the model says why the move is not allowed.
  for (const c of press.els) snap(board, c, dx, dy);
  board.moveTo(card, target);
}

function lastOf<T>(items: T[]): T | undefined {
  return items[items.length - 1];
}
