// Types of the widget protocol (docs/widget-protocol.md): synced state, labels, intents and replies.
//
// This file is the one source of the protocol's shape: `npm run schema` generates `protocol.schema.json` from it
// (a test keeps the two equal), and the Python tests validate every state the widget sends against that schema.

export type Suit = "C" | "D" | "H" | "S";
export type Status = "playing" | "won" | "stuck";
/**
 * A card in notation (`5H`, `TD`).
 * @pattern ^[A2-9TJQK][CDHS]$
 */
export type CardId = string;
/** A card, or `null` for a face-down card. */
export type MaybeCard = CardId | null;
/**
 * A pile, named as in the move notation: `stock`, `w` (the waste), `t1`..`t9` (columns from the left), `fC` `fD`
 * `fH` `fS` (foundations by suit). The same names are used in `targets`, `last_move`, hints, lessons, intents
 * and on `data-pile` in the DOM.
 * @pattern ^(stock|w|t[1-9]|f[CDHS])$
 */
export type PileId = string;

export interface Column {
  down: MaybeCard[];
  up: MaybeCard[];
}

export interface LastMove {
  /** The move in notation (`t2-t5`, `w-f`, `d`, `r`). */
  move: string;
  cards: CardId[];
  from: PileId;
  to: PileId;
  undo: boolean;
  /** The sentence the live region reads, in the board's language ("5 of hearts to Column 2"). */
  text: string;
}

export interface RulesView {
  preset: string | null;
  draw: number;
  max_passes: number | null;
  foundation_to_tableau: boolean;
  scoring: string;
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
  /** Every card that can move now and the piles it may legally go to. */
  targets: Record<CardId, PileId[]>;
  /** The cards a player may pick up (a drop where one may not go is answered with the reason). */
  pickable: CardId[];
  last_move: LastMove | null;
  rules: RulesView;
  reveal: boolean;
  lang: string;
  languages: [string, string][];
  show_moves: boolean;
  rules_text: string;
  message: Message | null;
  lesson: Lesson | null;
  indicator: Indicator;
  stats: Records;
  /** The lesson being recorded (its last step, which takes a note, marks and a quiz), or null. */
  recording: RecordState | null;
  /** Whether the board offers "Review game" (the game is over, stuck or lost), and whether one is running. */
  review: ReviewState;
  /** The automatic player at work on the board (`board.autoplay(player)` in Python), which Stop ends. */
  autoplay: AutoplayState;
}

export interface AutoplayState {
  running: boolean;
  /** The player's name, as Python gives it ("Greedy", a function's name), or null when none plays. */
  player: string | null;
}

export interface RecordState {
  /** Steps recorded so far. */
  steps: number;
  /** The lesson's title as the teacher typed it ("" until then: the recorder asks for one). */
  title: string;
  /** The last step's note in the board's language ("" when it has none). */
  note: string;
  note_lang: string;
  /** Whether the last step is an illegal move shown, not played. */
  illegal: boolean;
  /** The last step's quiz: it asks for its own move, or any move that keeps the deal winnable; or none. */
  quiz: "move" | "winnable" | null;
  can_quiz: boolean;
  /** The last step's marks. */
  marks: Mark[];
}

export interface ReviewState {
  offered: boolean;
  busy: boolean;
  /** How far a running review is (positions judged of the game's), or null when none runs. */
  progress?: ReviewProgress | null;
}

export interface ReviewProgress {
  /** @asType integer
   * @minimum 0 */
  done: number;
  /** @asType integer
   * @minimum 1 */
  total: number;
}

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
  highlight: { cards: CardId[]; to: PileId | null } | null;
  /** The teacher's arrows and circles of the step shown. */
  marks: Mark[];
  /** The lesson's quiz score, and whether the board waits for the class's answer; null in a lesson without quiz
   * steps. */
  quiz: QuizState | null;
  /** The step of a game review that carries the review's words: `note` leads the caption box, `caption` follows. */
  review?: boolean;
  /** A review lesson's chart of chances (the lesson's steps are then the whole game as played); null otherwise. */
  chart?: ReviewChart | null;
}

export type MarkColor = "green" | "red" | "blue" | "yellow";

/** An arrow between two piles, or a circle on a pile or a card. */
export type Mark = { arrow: [PileId, PileId]; color?: MarkColor } | { circle: PileId | CardId; color?: MarkColor };

export interface QuizState {
  waiting: boolean;
  tries_left: number;
  right: number;
  asked: number;
  /** "Right answers: 2 of 3" in the board's language. */
  score: string;
}

export type Verdict = "winnable" | "lost" | "unknown" | "pending";

export interface Indicator {
  enabled: boolean;
  verdict: Verdict | null;
  /** Positions searched so far without a verdict: the indicator shows it is working while it thinks. */
  searched?: number;
  /** Why the indicator switched itself off, or null. */
  error: string | null;
}

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

/** The records part of the state: the bests are missing when no games can be stored. */
export interface Records extends Partial<StatsRow> {
  enabled: boolean;
  error: string | null;
  /** "Your statistics can't be saved: …" in the board's language when records are off because they can't be used. */
  notice: string | null;
  rules_key: string;
  draw: number;
  scoring: string;
  new: ("best_score" | "fewest_moves" | "fastest_win")[];
  /** A game a board left in play (before a kernel restart or a page reload), offered to be continued. */
  resume?: ResumeOffer | null;
}

/** The offer to continue a game left in play. */
export interface ResumeOffer {
  /** "Continue your game from 12:04?" in the board's language. */
  text: string;
  /** When it was last played, as the text shows it. */
  when: string;
  moves: number;
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
