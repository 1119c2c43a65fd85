/** Where every card of a state goes: pile by pile, bottom first, with its fan offset (pure, no DOM). */

import { RANKS, SUITS, type GameState, type PileId, type Suit } from "./types";

/** One card's place: `key` identifies its element across renders (the card id when known). */
export interface Slot {
  key: string;
  /** Card notation when the face is known, else null. */
  card: string | null;
  faceUp: boolean;
  /** Offsets in card widths. */
  x: number;
  y: number;
}

export const DOWN_STEP = 0.12;
/** The step of a face-down card that a teacher revealed: its whole corner, as a face-up card's (a smaller step cut
 * the foot of the letters: a Q read as an O, a J as an I). */
export const REVEALED_STEP = 0.34;
export const UP_STEP = 0.34;
/** The closest a long column packs its face-up cards: still enough to read each card's rank and suit. */
const MIN_UP_STEP = 0.32;
const MAX_FAN = 5.2;
/** The draw-3 fan: enough for the corner (rank beside suit, as in the tableau) of each card beneath the top one,
 * with the fan still inside the two card slots the waste has. */
const WASTE_STEP = 0.55;
export const CARD_RATIO = 1.4;

export function foundationCard(rank: number, suit: Suit): string {
  return RANKS[rank - 1] + suit;
}

export function tableauPiles(columns: number): PileId[] {
  return Array.from({ length: columns }, (_, i) => `t${i + 1}`);
}

/** Every pile of a state, in keyboard/reading order: stock, waste, foundations, columns. */
export function pileIds(state: GameState | null): PileId[] {
  const columns = state ? state.columns || state.tableau.length : 7;
  return ["stock", "w", ...SUITS.map((s) => `f${s}`), ...tableauPiles(columns)];
}

function column(state: GameState, index: number): Slot[] {
  const pile = `t${index + 1}`;
  const col = state.tableau[index] ?? { down: [], up: [] };
  const slots: Slot[] = [];
  let y = 0;
  const ups = col.up.length;
  const downStep = (card: string | null): number => (card == null ? DOWN_STEP : REVEALED_STEP);
  const maxUpFan = MAX_FAN - col.down.reduce((sum, card) => sum + downStep(card), 0);
  const upStep = ups > 1 ? Math.max(MIN_UP_STEP, Math.min(UP_STEP, maxUpFan / (ups - 1))) : UP_STEP;
  col.down.forEach((card, i) => {
    slots.push({ key: card ?? `${pile}:${i}`, card: card ?? null, faceUp: false, x: 0, y });
    y += downStep(card);
  });
  col.up.forEach((card, i) => {
    slots.push({ key: card ?? `${pile}:u${i}`, card: card ?? null, faceUp: card != null, x: 0, y });
    y += upStep;
  });
  return slots;
}

/** The slots of every pile of `state`. */
export function layout(state: GameState): Map<PileId, Slot[]> {
  const piles = new Map<PileId, Slot[]>();
  const stock = state.stock;
  piles.set(
    "stock",
    stock.map((_, i) => {
      // The stock lists the next card first; the element at the bottom of the pile is the last one.
      const card = stock[stock.length - 1 - i];
      return { key: card ?? `stock:${i}`, card: card ?? null, faceUp: false, x: 0, y: 0 };
    }),
  );
  const waste = state.waste;
  const fan = state.draw === 3 ? Math.min(3, waste.length) : 1;
  piles.set(
    "w",
    waste.map((card, i) => {
      const pos = i - (waste.length - fan);
      const x = pos > 0 ? pos * WASTE_STEP : 0;
      return { key: card ?? `w:${i}`, card: card ?? null, faceUp: card != null, x, y: 0 };
    }),
  );
  for (const suit of SUITS) {
    const count = state.foundations[suit] ?? 0;
    const slots: Slot[] = [];
    for (let rank = 1; rank <= count; rank++) {
      const card = foundationCard(rank, suit);
      slots.push({ key: card, card, faceUp: true, x: 0, y: 0 });
    }
    piles.set(`f${suit}`, slots);
  }
  const columns = state.columns || state.tableau.length;
  for (let i = 0; i < columns; i++) piles.set(`t${i + 1}`, column(state, i));
  return piles;
}
