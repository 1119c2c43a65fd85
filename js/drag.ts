/** Pointer input: drag a card (and the run on it), click to select and click a pile to move, double-click/tap to a
 * foundation, click the stock. Emits actions; the board decides and draws. */

import type { BoardInput, PileBox } from "./input";
import { gestureColor, gestureMark, type Spot } from "./marks";
import { canPickUp, tapActions } from "./ui";
import type { CardId, PileId } from "./types";

const DRAG_START_PX = 5;
const DOUBLE_MS = 400;

interface Press {
  id: number;
  x: number;
  y: number;
  card: CardId | null;
  pile: PileId | null;
  els: HTMLElement[];
  dragging: boolean;
  moves: AbortController;
}

/** Wires pointer events on the board's table; everything is removed when `signal` aborts. */
export function attachPointer(board: BoardInput, signal: AbortSignal): void {
  const table = board.table;
  const win = table.ownerDocument.defaultView ?? window;
  let press: Press | null = null;
  let lastTap = { card: "", time: 0 };

  const end = (): void => {
    press?.moves.abort();
    press = null;
  };

  /** The pile (and face-up card) under a point of the table, or null. */
  const spotAt = (target: EventTarget | null): Spot | null => {
    const hit = target instanceof Element ? target : null;
    const pile = hit?.closest<HTMLElement>(".pl-pile")?.dataset.pile;
    if (!pile || !table.contains(hit)) return null;
    const cardEl = hit?.closest<HTMLElement>(".pl-card");
    return { pile, card: cardEl?.dataset.face === "up" ? (cardEl.dataset.key ?? null) : null };
  };

  /** While recording: a right-drag or Shift-drag draws a mark, from where it starts to where it ends. */
  const onMarkDown = (e: PointerEvent): boolean => {
    if (!board.recording() || !(e.button === 2 || (e.button === 0 && e.shiftKey))) return false;
    const start = spotAt(e.target);
    if (!start) return false;
    e.preventDefault();
    const moves = new AbortController();
    const up = (u: PointerEvent): void => {
      if (u.pointerId !== e.pointerId) return;
      moves.abort();
      const rootNode = table.getRootNode() as Document | ShadowRoot;
      const end = spotAt(rootNode.elementFromPoint?.(u.clientX, u.clientY) ?? u.target);
      const mark = gestureMark(start, end, gestureColor(e.altKey, e.ctrlKey || e.metaKey));
      if (mark) board.dispatch({ type: "mark", mark });
    };
    win.addEventListener("pointerup", up, { signal: moves.signal });
    win.addEventListener("pointercancel", () => moves.abort(), { signal: moves.signal });
    signal.addEventListener("abort", () => moves.abort(), { once: true, signal: moves.signal });
    return true;
  };

  const onDown = (e: PointerEvent): void => {
    if (press || onMarkDown(e) || e.button !== 0) return;
    const target = e.target instanceof Element ? e.target : null;
    const cardEl = target?.closest<HTMLElement>(".pl-card");
    const pileEl = target?.closest<HTMLElement>(".pl-pile");
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
      moves: new AbortController(),
    };
    const opts = { signal: press.moves.signal };
    win.addEventListener("pointermove", onMove, opts);
    win.addEventListener("pointerup", onUp, opts);
    win.addEventListener("pointercancel", onCancel, opts);
    if (canPickUp(board.game(), card)) e.preventDefault();
    board.root.focus({ preventScroll: true });
  };

  const onMove = (e: PointerEvent): void => {
    if (!press || e.pointerId !== press.id) return;
    const dx = e.clientX - press.x;
    const dy = e.clientY - press.y;
    if (!press.dragging) {
      if (Math.hypot(dx, dy) < DRAG_START_PX || !press.card || !press.pile || !canPickUp(board.game(), press.card)) {
        return;
      }
      press.dragging = true;
      press.els = board.runEls(press.card);
      board.dispatch({ type: "drag-start", card: press.card, from: press.pile });
    }
    e.preventDefault();
    for (const c of press.els) c.style.transform = `translate(${dx}px, ${dy}px)`;
    const over = dropPile(press.els[0]?.getBoundingClientRect(), board.dropBoxes(), press.pile);
    if (over !== (board.ui().drag?.over ?? null)) board.dispatch({ type: "drag-over", pile: over });
  };

  const finish = (e: PointerEvent, cancel: boolean): void => {
    if (!press || e.pointerId !== press.id) return;
    const p = press;
    end();
    const dx = e.clientX - p.x;
    const dy = e.clientY - p.y;
    if (p.dragging) {
      const to = cancel ? null : dropPile(p.els[0]?.getBoundingClientRect(), board.dropBoxes(), p.pile);
      board.dispatch({ type: "drag-end", to, dx, dy });
    } else if (!cancel) {
      tap(p.card, p.pile, e);
    }
  };
  const onUp = (e: PointerEvent): void => finish(e, false);
  const onCancel = (e: PointerEvent): void => finish(e, true);

  const tap = (card: CardId | null, pile: PileId | null, e: PointerEvent): void => {
    const now = e.timeStamp || win.performance.now();
    const double = !!card && lastTap.card === card && now - lastTap.time < DOUBLE_MS;
    lastTap = { card: card ?? "", time: now };
    const actions = tapActions(board.game(), board.ui(), card, pile, double);
    if (double && actions[0]?.type === "move") lastTap = { card: "", time: 0 };
    for (const action of actions) board.dispatch(action);
  };

  table.addEventListener("pointerdown", onDown, { signal });
  table.addEventListener("dragstart", (e) => e.preventDefault(), { signal });
  // while recording, the right button draws: no browser or JupyterLab menu
  const noMenu = (e: Event): void => {
    if (!board.recording()) return;
    e.preventDefault();
    e.stopPropagation();
  };
  table.addEventListener("contextmenu", noMenu, { signal });
  signal.addEventListener("abort", end, { once: true });
}

/** The pile that the dragged lead card's box `r` overlaps most (not its own pile), or null. */
export function dropPile(r: DOMRect | undefined, boxes: PileBox[], source: PileId | null): PileId | null {
  if (!r) return null;
  let best: PileId | null = null;
  let bestArea = 0;
  for (const box of boxes) {
    if (box.pile === source) continue;
    const w = Math.min(r.right, box.right) - Math.max(r.left, box.left);
    const h = Math.min(r.bottom, box.bottom) - Math.max(r.top, box.top);
    if (w > 0 && h > 0 && w * h > bestArea) {
      bestArea = w * h;
      best = box.pile;
    }
  }
  return best;
}
