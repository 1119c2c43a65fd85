/** Types of the widget protocol (docs/widget-protocol.md): synced state, labels, intents and replies. */

export type Suit = "C" | "D" | "H" | "S";
export type Status = "playing" | "won" | "stuck";
/** A card in notation (`5H`, `TD`), or `null` for a face-down card. */
export type CardId = string;
export type MaybeCard = CardId | null;
/** Pile names used on `data-pile`: `stock`, `waste`, `t1`..`t7`, `fC` `fD` `fH` `fS`. */
export type PileId = string;

export interface Column {
  down: MaybeCard[];
  up: MaybeCard[];
}

export interface LastMove {
  move: string;
  cards: CardId[];
  from: string;
  to: string;
  undo: boolean;
}

export interface RulesView {
  preset: string | null;
  draw: number;
  max_passes: number | null;
  foundation_to_tableau: boolean;
  scoring?: string;
}

export interface GameState {
  version: number;
  columns: number;
  tableau: Column[];
  stock: MaybeCard[];
  waste: MaybeCard[];
  foundations: Record<Suit, number>;
  draw: number;
  recycles: number;
  passes_left: number | null;
  score: number;
  moves: number;
  seconds: number;
  clock_running: boolean;
  status: Status;
  can_undo: boolean;
  can_redo: boolean;
  can_draw: boolean;
  can_recycle: boolean;
  can_autocomplete: boolean;
  targets: Record<CardId, string[]>;
  last_move: LastMove | null;
  rules: RulesView;
  reveal: boolean;
  lang: string;
}

export type Labels = Record<string, string>;

export type Preset = "standard" | "traditional" | "six-column";

/** The fields of an intent; the board adds `version` and `id`. */
export type IntentBody =
  | { type: "move"; card: CardId; to: string }
  | { type: "draw" | "recycle" | "undo" | "redo" | "hint" | "restart" | "autocomplete" }
  | { type: "new"; preset?: Preset; draw?: 1 | 3; seed?: number };

export type Intent = IntentBody & { version: number; id: number };

export interface RejectedReply {
  type: "rejected";
  id: number | null;
  rule: string | null;
  text: string;
  version: number;
}

export interface HintReply {
  type: "hint";
  id: number | null;
  move: string;
  card: CardId | null;
  to: string | null;
  text: string;
}

export type Reply = RejectedReply | HintReply;

export const SUITS: readonly Suit[] = ["C", "D", "H", "S"];
export const RANKS = "A23456789TJQK";
