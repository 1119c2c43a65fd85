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
  languages?: [string, string][];
  show_moves?: boolean;
  rules_text?: string;
  message?: Message | null;
  lesson?: Lesson | null;
  indicator?: Indicator | null;
  records?: Records | null;
}

export interface Message {
  id: number;
  kind: "narration" | "info";
  text: string;
}

export interface Lesson {
  title: string;
  step: number;
  steps: number;
  caption: string;
  note: string | null;
  playing: boolean;
  pace: number;
  taken_over: boolean;
  highlight: { cards: CardId[]; to: string | null } | null;
}

export type Verdict = "winnable" | "lost" | "unknown" | "pending";

export interface Indicator {
  enabled: boolean;
  verdict: Verdict | null;
}

/** The bests of one rule set and draw count (`state.records`, and each row of a `stats` reply). */
export interface StatsRow {
  rules_key: string;
  draw: number;
  played: number;
  won: number;
  win_rate: number | null;
  best_score: number | null;
  fewest_moves: number | null;
  fastest_win: number | null;
  current_streak: number;
  longest_streak: number;
}

export interface Records extends StatsRow {
  enabled: boolean;
  error: string | null;
  new: string[];
}

export type Labels = Record<string, string>;

export type Preset = "standard" | "traditional" | "six-column";

/** The fields of an intent; the board adds `version` and `id`. */
export type IntentBody =
  | { type: "move"; card: CardId; to: string }
  | { type: "draw" | "recycle" | "undo" | "redo" | "hint" | "restart" | "autocomplete" }
  | { type: "new"; preset?: Preset; draw?: 1 | 3; seed?: number }
  | { type: "lesson"; action: LessonAction; pace?: number }
  | { type: "lang"; lang: string }
  | { type: "show_moves" | "indicator"; on: boolean }
  | { type: "stats" };

export type LessonAction = "first" | "back" | "forward" | "last" | "play" | "pause" | "resume" | "close" | "pace";

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

export interface StatsReply {
  type: "stats";
  id: number | null;
  rows: StatsRow[];
}

export type Reply = RejectedReply | HintReply | StatsReply;

export const SUITS: readonly Suit[] = ["C", "D", "H", "S"];
export const RANKS = "A23456789TJQK";
