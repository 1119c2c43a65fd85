/** The small interface that input modules (pointer, keyboard) see of the board: its elements for listeners,
 * the synced state and the interaction to read, a way to act, and the geometry a drag needs. */

import type { Action, Interaction } from "./ui";
import type { CardId, GameState, PileId } from "./types";

/** A pile's box on the page, reaching down to its last card. */
export interface PileBox {
  pile: PileId;
  left: number;
  top: number;
  right: number;
  bottom: number;
}

export interface BoardInput {
  /** The focusable root (keys, focus). */
  readonly root: HTMLElement;
  /** The table of piles (pointer events). */
  readonly table: HTMLElement;
  /** The last synced state. */
  game(): GameState | null;
  /** The board's interaction (what is picked up, dragged, focused, waiting for an answer). */
  ui(): Readonly<Interaction>;
  dispatch(action: Action): void;
  /** The elements of `card` and the cards lying on it. */
  runEls(card: CardId): HTMLElement[];
  /** The boxes of the piles a card may be dropped on (columns and foundations). */
  dropBoxes(): PileBox[];
  /** Whether a lesson is being recorded (mark gestures and the clear key apply). */
  recording(): boolean;
}
