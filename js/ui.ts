/** The board's interaction (what is picked up, dragged, focused, waiting for an answer) and pure functions over it
 * and the synced game state. No DOM here: input modules turn events into `Action`s, the board applies them with
 * `reduce` and draws the result. Every rule comes from Python (`targets`, `pickable`); nothing is re-derived. */

import { layout } from "./piles";
import type { CardId, GameState, IntentBody, LessonAction, Mark, PileId } from "./types";

/** Where the keyboard's focus ring is: a pile, and the index of a card in it (tableau only; other piles focus
 * their top card). */
export interface Focus {
  pile: PileId;
  index: number;
}

/** A card (and what lies on it) being dragged from `from`, hovering over the pile `over`. */
export interface Drag {
  card: CardId;
  from: PileId;
  over: PileId | null;
}

/** What the player is doing on the board, which only the front end knows (it is never synced). */
export interface Interaction {
  /** The card picked up by a click or by Enter, waiting for a target pile. */
  selected: CardId | null;
  drag: Drag | null;
  focus: Focus;
  /** Whether the focus ring is shown (after the first key press). */
  focusVisible: boolean;
  /** Ids of the move intents sent and not yet answered by a new state or a rejection. */
  pending: number[];
}

/** What input modules ask the board to do. */
export type Action =
  | { type: "select"; card: CardId | null }
  | { type: "move"; card: CardId; to: PileId | "f" }
  | { type: "stock" }
  | { type: "intent"; body: IntentBody }
  | { type: "lesson"; action: LessonAction }
  | { type: "mark"; mark: Mark }
  | { type: "focus"; focus: Focus; visible: boolean }
  | { type: "announce-focus" }
  | { type: "pick-up"; card: CardId }
  | { type: "drag-start"; card: CardId; from: PileId }
  | { type: "drag-over"; pile: PileId | null }
  | { type: "drag-end"; to: PileId | null; dx: number; dy: number };

export const TOP_ROW: readonly PileId[] = ["stock", "w", "fC", "fD", "fH", "fS"];
/** The grid slot (of seven) of each top-row pile, to go up and down between the rows. */
const TOP_SLOT = [0, 1, 3, 4, 5, 6];

export function initialInteraction(): Interaction {
  return { selected: null, drag: null, focus: { pile: "t1", index: -1 }, focusVisible: false, pending: [] };
}

export function isTableau(pile: PileId | null | undefined): boolean {
  return !!pile && pile[0] === "t";
}

/** Whether cards may be dropped on `pile` at all (a column or a foundation; the rules decide the rest). */
export function isDropPile(pile: PileId | null | undefined): pile is PileId {
  return !!pile && (pile[0] === "t" || pile[0] === "f");
}

/** Whether `card` has a legal move now. */
export function isMovable(state: GameState | null, card: CardId | null | undefined): card is CardId {
  return !!card && !!state && (state.targets?.[card]?.length ?? 0) > 0;
}

/** Whether `card` may be picked up (dragged): Python lists these; a drop where it may not go is explained. */
export function canPickUp(state: GameState | null, card: CardId | null | undefined): card is CardId {
  return !!card && !!state && Array.isArray(state.pickable) && state.pickable.includes(card);
}

/** The piles `card` may legally go to. */
export function legalDrops(state: GameState | null, card: CardId | null): PileId[] {
  return card && state ? (state.targets?.[card] ?? []) : [];
}

export function isLegal(state: GameState | null, card: CardId, pile: PileId): boolean {
  return legalDrops(state, card).includes(pile);
}

/** The foundation `card` may legally go to, if any. */
export function foundationDrop(state: GameState | null, card: CardId | null): PileId | null {
  return legalDrops(state, card).find((pile) => pile[0] === "f") ?? null;
}

/** What a click on the stock does: draw, turn the waste over, say that no pass is left, or nothing. */
export function stockIntent(state: GameState | null): IntentBody | "no-passes" | null {
  if (!state) return null;
  if (state.stock.length) return { type: "draw" };
  if (state.can_recycle) return { type: "recycle" };
  if (state.waste.length && state.passes_left === 0) return "no-passes";
  return null;
}

/** Whether lesson step keys apply (a lesson is shown and the teacher has not taken over). */
export function isStepping(state: GameState | null): boolean {
  return !!state?.lesson && !state.lesson.taken_over;
}

/** The pile `card` lies in, or null. */
export function pileOfCard(state: GameState | null, card: CardId | null): PileId | null {
  if (!state || !card) return null;
  for (const [pile, slots] of layout(state)) if (slots.some((s) => s.card === card && s.faceUp)) return pile;
  return null;
}

/** What one click (tap) on a card or pile does. A click picks up what a drag may pick up (a card with no legal
 * move too: a click on a pile then asks Python, which says why not, as a drop there does). */
export function tapActions(
  state: GameState | null,
  ui: Interaction,
  card: CardId | null,
  pile: PileId | null,
  double: boolean,
): Action[] {
  if (pile === "stock") return [{ type: "stock" }];
  const foundation = double ? foundationDrop(state, card) : null;
  if (card && foundation) return [{ type: "move", card, to: foundation }];
  const selected = ui.selected;
  if (selected && card === selected) return [{ type: "select", card: null }];
  if (selected && pile && pile !== pileOfCard(state, selected)) {
    if (isLegal(state, selected, pile) || !isMovable(state, card)) {
      return isDropPile(pile) ? [{ type: "move", card: selected, to: pile }] : [];
    }
  }
  return [{ type: "select", card: canPickUp(state, card) ? card : null }];
}

// ------------------------------------------------------------------------------------------- keyboard focus

interface PileShape {
  /** Cards in the pile. */
  count: number;
  /** Index of the first face-up card (the count when none is face up). */
  firstUp: number;
  /** The face-up card at each index, or null. */
  cards: (CardId | null)[];
}

function shape(state: GameState | null, pile: PileId): PileShape {
  const slots = (state ? layout(state).get(pile) : undefined) ?? [];
  const first = slots.findIndex((s) => s.faceUp);
  const cards = slots.map((s) => (s.faceUp ? s.card : null));
  return { count: slots.length, firstUp: first < 0 ? slots.length : first, cards };
}

function tableau(state: GameState | null): PileId[] {
  const columns = state ? state.columns || state.tableau.length : 7;
  return Array.from({ length: columns }, (_, i) => `t${i + 1}`);
}

function onPile(state: GameState | null, pile: PileId): Focus {
  return { pile, index: shape(state, pile).count - 1 };
}

/** The index of the card the focus ring is on (the top card outside the tableau; -1 for an empty pile). */
export function focusIndex(state: GameState | null, focus: Focus): number {
  return isTableau(focus.pile) ? focus.index : shape(state, focus.pile).count - 1;
}

/** The face-up card under the focus ring, if any. */
export function focusedCard(state: GameState | null, focus: Focus): CardId | null {
  return shape(state, focus.pile).cards[focusIndex(state, focus)] ?? null;
}

/** Keeps the focus on something that exists in `state`. */
export function clampFocus(state: GameState | null, focus: Focus): Focus {
  const piles = [...TOP_ROW, ...tableau(state)];
  if (!piles.includes(focus.pile)) return { pile: "t1", index: -1 };
  if (!isTableau(focus.pile)) return focus;
  const { count, firstUp } = shape(state, focus.pile);
  const top = count - 1;
  return focus.index > top || focus.index < Math.min(firstUp, top) ? { pile: focus.pile, index: top } : focus;
}

/** Where an arrow key takes the focus ring. */
export function nextFocus(state: GameState | null, focus: Focus, key: string): Focus {
  const { pile, index } = focus;
  const cols = tableau(state);
  const inTop = TOP_ROW.indexOf(pile);
  if (inTop >= 0) {
    if (key === "ArrowLeft") return onPile(state, TOP_ROW[Math.max(0, inTop - 1)]);
    if (key === "ArrowRight") return onPile(state, TOP_ROW[Math.min(TOP_ROW.length - 1, inTop + 1)]);
    if (key === "ArrowDown") return onPile(state, cols[Math.min(cols.length - 1, TOP_SLOT[inTop])]);
    return focus;
  }
  const col = cols.indexOf(pile);
  const { count, firstUp } = shape(state, pile);
  if (key === "ArrowLeft") return onPile(state, cols[Math.max(0, col - 1)]);
  if (key === "ArrowRight") return onPile(state, cols[Math.min(cols.length - 1, col + 1)]);
  if (key === "ArrowDown") return { pile, index: Math.min(count - 1, index + 1) };
  if (key === "ArrowUp") {
    if (index > firstUp && index > 0) return { pile, index: index - 1 };
    let slot = 0;
    TOP_SLOT.forEach((s, i) => {
      if (s <= col) slot = i;
    });
    return onPile(state, TOP_ROW[slot]);
  }
  return focus;
}

/** What Enter or Space does: drop the picked-up card on the focused pile, draw, or pick up the focused card. */
export function activateActions(state: GameState | null, ui: Interaction): Action[] {
  const pile = ui.focus.pile;
  const held = ui.selected;
  if (held) {
    if (pile === pileOfCard(state, held) || !isDropPile(pile)) return [{ type: "select", card: null }];
    return [{ type: "move", card: held, to: pile }];
  }
  if (pile === "stock") return [{ type: "stock" }];
  const card = focusedCard(state, ui.focus);
  return card ? [{ type: "pick-up", card }] : [];
}

// ------------------------------------------------------------------------------------------- reducer

/** The interaction after `action` (the board sends intents and draws; this only keeps the interaction). */
export function reduce(state: GameState | null, ui: Interaction, action: Action): Interaction {
  switch (action.type) {
    case "select":
      return { ...ui, selected: canPickUp(state, action.card) ? action.card : null };
    case "pick-up":
      return { ...ui, selected: isMovable(state, action.card) ? action.card : ui.selected };
    case "move":
    case "stock":
      return { ...ui, selected: null };
    case "focus":
      return { ...ui, focus: clampFocus(state, action.focus), focusVisible: action.visible };
    case "drag-start":
      if (!canPickUp(state, action.card)) return ui;
      return { ...ui, selected: null, drag: { card: action.card, from: action.from, over: null } };
    case "drag-over":
      return ui.drag ? { ...ui, drag: { ...ui.drag, over: action.pile } } : ui;
    case "drag-end":
      return { ...ui, drag: null };
    default:
      return ui;
  }
}

/** The interaction once a new game state arrived: the selection is dropped when the version changed, and the focus
 * stays on something that exists. */
export function afterState(state: GameState, previous: GameState | null, ui: Interaction): Interaction {
  const changed = !previous || previous.version !== state.version;
  const selected = changed || !canPickUp(state, ui.selected) ? null : ui.selected;
  return { ...ui, selected, pending: changed ? [] : ui.pending, focus: clampFocus(state, ui.focus) };
}
