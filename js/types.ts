// Types of the widget protocol (docs/widget-protocol.md): synced state, labels, intents and replies.
//
// The synced state's types are generated from Python (src/patiencelab/widget/state.py) into state.generated.ts by
// tools/state_types.py, and exported here; the rest is written here. `npm run schema` generates
// `protocol.schema.json` from both (a test keeps the two equal), and the Python tests validate every state the
// widget sends against that schema.

export type * from "./state.generated";

export type Suit = "C" | "D" | "H" | "S";
/**
 * A card in notation (`5H`, `TD`).
 * @pattern ^[A2-9TJQK][CDHS]$
 */
export type CardId = string;
/**
 * A pile, named as in the move notation: `stock`, `w` (the waste), `t1`..`t9` (columns from the left), `fC` `fD`
 * `fH` `fS` (foundations by suit). The same names are used in `targets`, `last_move`, hints, lessons, intents
 * and on `data-pile` in the DOM.
 * @pattern ^(stock|w|t[1-9]|f[CDHS])$
 */
export type PileId = string;

/** A review lesson's chart of the player's fair chances through the game (from what the player could see: nothing
 * in it depends on a face-down card). */
export interface ReviewChart {
  /** One per position of the game as played, `points[k].step == k` (the lesson step that shows it). */
  points: ChancePoint[];
  /** The marked moves, in order of move. */
  marks: ReviewMark[];
  /** The first step from which no deal consistent with the player's view could be won (bad luck from there), or
   * null. */
  lost_from: number | null;
}

export interface ChancePoint {
  /** @asType integer
   * @minimum 0 */
  step: number;
  /** The fair chance of winning from this position, and its 95% interval; null where no sampled deal was
   * decided within the budget (then nothing was measured: no number is drawn, only the band).
   * @minimum 0
   * @maximum 1 */
  estimate: number | null;
  /** @minimum 0
   * @maximum 1 */
  low: number;
  /** @minimum 0
   * @maximum 1 */
  high: number;
  /** The interval is wider than 20 points: the point is drawn hollow, off the line, and told with its interval.
   * Absent in lesson files written before it. */
  wide?: boolean;
}

export type ReviewMarkLabel = "inaccuracy" | "mistake" | "blunder" | "luck";

export interface ReviewMark {
  /** The lesson step to land on: the position before the move (its caption says why), or for luck the position
   * where luck decided it.
   * @asType integer
   * @minimum 0 */
  step: number;
  /** The 1-based number of the player's move.
   * @asType integer
   * @minimum 1 */
  move: number;
  label: ReviewMarkLabel;
}

export type MarkColor = "green" | "red" | "blue" | "yellow";

/** An arrow between two piles, or a circle on a pile or a card. */
export type Mark = { arrow: [PileId, PileId]; color?: MarkColor } | { circle: PileId | CardId; color?: MarkColor };

/** The bests of one rule set and draw count (`state.stats`, and each row of a `stats` reply). */
export interface StatsRow {
  rules_key: string;
  draw: number;
  /** The scoring scheme (`standard`, `windows`, `vegas`, `none`, or `custom-<digest>`): bests are kept per scheme. */
  scoring: string;
  played: number;
  won: number;
  win_rate: number | null;
  best_score: number | null;
  fewest_moves: number | null;
  fastest_win: number | null;
  current_streak: number;
  longest_streak: number;
}

export type Labels = Record<string, string>;

export type Preset = "standard" | "traditional" | "six-column";

/** The fields of an intent; the board adds `version` and `id`. */
export type IntentBody =
  | { type: "move"; card: CardId; to: PileId | "f" }
  | { type: "draw" | "recycle" | "undo" | "redo" | "hint" | "restart" | "autocomplete" }
  | { type: "new"; preset?: Preset; draw?: 1 | 3; seed?: number }
  | { type: "lesson"; action: LessonAction; pace?: number }
  | { type: "lesson"; action: "goto"; step: number }
  | { type: "lesson"; action: "next-mark" | "prev-mark" }
  | { type: "lang"; lang: string }
  | { type: "show_moves" | "indicator"; on: boolean }
  | { type: "stats" }
  | { type: "review"; action?: "start" | "cancel" }
  | { type: "resume"; accept: boolean }
  | { type: "autoplay"; action: "stop" }
  | { type: "record"; action: "start" | "stop" | "clear" }
  | { type: "record"; action: "note" | "title"; text: string }
  | { type: "record"; action: "mark"; mark: Mark }
  | { type: "record"; action: "quiz"; quiz: "move" | "winnable" | null };

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
  /** The pile to highlight (`stock` for a draw or recycle). */
  to: PileId;
  /** Why it is a good move (see `patiencelab.hints`). */
  reason: "turn-up" | "foundation" | "waste" | "winnable" | "draw-only" | "no-card-move" | "promising" | "chances";
  /** The hint as a sentence in the board's language, with its reason. */
  text: string;
}

export interface StatsReply {
  type: "stats";
  id: number | null;
  rows: StatsRow[];
}

/** How a quiz step judged the class's move (the board's message says the same). */
export interface AnswerReply {
  type: "answer";
  id: number | null;
  verdict: "right" | "illegal" | "loses" | "other";
  text: string;
}

export type Reply = RejectedReply | HintReply | StatsReply | AnswerReply;

export const SUITS: readonly Suit[] = ["C", "D", "H", "S"];
export const RANKS = "A23456789TJQK";
