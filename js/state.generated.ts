// The widget's synced state (docs/widget-protocol.md). Generated from src/patiencelab/widget/state.py by
// tools/state_types.py: do not edit; tests/test_state_types.py fails when it drifts.

import type { CardId, Mark, PileId, ReviewChart, Suit } from "./types";

/**
 * The single action of a change (played, redone or taken back), as the board animates and reads it:
 * `move` in notation (`t2-t5`, `w-f`, `d`, `r`), and `text`, the sentence the live region reads, in the
 * board's language ("5 of hearts to Column 2").
 */
export interface LastMove {
  move: string;
  cards: CardId[];
  from: PileId;
  to: PileId;
  undo: boolean;
  text: string;
}

/** A column: its face-down and face-up cards (a face-down card is `null` unless revealed). */
export interface Column {
  down: (CardId | null)[];
  up: (CardId | null)[];
}

/** The rules in play. */
export interface RulesView {
  preset: string | null;
  draw: number;
  max_passes: number | null;
  foundation_to_tableau: boolean;
  scoring: string;
}

/** The status line's message. */
export interface Message {
  id: number;
  kind: "narration" | "info";
  text: string;
}

/** A lesson's quiz score, and whether the board waits for the class's answer. */
export interface QuizState {
  waiting: boolean;
  tries_left: number;
  right: number;
  asked: number;
  /** "Right answers: 2 of 3" in the board's language. */
  score: string;
}

/** The cards a lesson's step moves, and where they go. */
export interface Highlight {
  cards: CardId[];
  to: PileId | null;
}

/** The lesson shown. */
export interface LessonState {
  title: string;
  step: number;
  steps: number;
  caption: string;
  note: string | null;
  playing: boolean;
  pace: number;
  taken_over: boolean;
  highlight: Highlight | null;
  /** The teacher's arrows and circles of the step shown. */
  marks: Mark[];
  /**
   * The lesson's quiz score, and whether the board waits for the class's answer; null in a lesson without quiz
   * steps.
   */
  quiz: QuizState | null;
  /**
   * The step of a game review that carries the review's words: `note` leads the caption box, `caption`
   * follows.
   */
  review?: boolean;
  /** A review lesson's chart of chances (the lesson's steps are then the whole game as played); null otherwise. */
  chart?: ReviewChart | null;
}

/** The winnability indicator. */
export interface IndicatorState {
  enabled: boolean;
  verdict: "winnable" | "lost" | "unknown" | "pending" | null;
  /** Why the indicator switched itself off, or null. */
  error: string | null;
  /** Positions searched so far without a verdict: the indicator shows it is working while it thinks. */
  searched?: number;
}

/** The offer to continue a game left in play. */
export interface ResumeOffer {
  /** "Continue your game from 12:04?" in the board's language. */
  text: string;
  /** When it was last played, as the text shows it. */
  when: string;
  moves: number;
}

/** The records and the bests of the rules in play (the bests are missing when no games can be stored). */
export interface RecordsState {
  enabled: boolean;
  error: string | null;
  /**
   * "Your statistics can't be saved: …" in the board's language when records are off because they can't be
   * used.
   */
  notice: string | null;
  rules_key: string;
  draw: number;
  /**
   * The scoring scheme (`standard`, `windows`, `vegas`, `none`, or `custom-<digest>`): bests are kept
   * per scheme.
   */
  scoring: string;
  new: ("best_score" | "fewest_moves" | "fastest_win")[];
  /** A game a board left in play (before a kernel restart or a page reload), offered to be continued. */
  resume?: ResumeOffer | null;
  played?: number;
  won?: number;
  win_rate?: number | null;
  best_score?: number | null;
  fewest_moves?: number | null;
  fastest_win?: number | null;
  current_streak?: number;
  longest_streak?: number;
}

/** The lesson being recorded: its last step, which takes a note, marks and a quiz. */
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

/** How far a running review is. */
export interface ReviewProgress {
  /**
   * @asType integer
   * @minimum 0
   */
  done: number;
  /**
   * @asType integer
   * @minimum 1
   */
  total: number;
}

/** Whether the board offers "Review game" (the game is over, stuck or lost), and whether one is running. */
export interface ReviewState {
  offered: boolean;
  busy: boolean;
  /** How far a running review is (positions judged of the game's), or null when none runs. */
  progress?: ReviewProgress | null;
}

/** The automatic player at work on the board (`board.autoplay(player)` in Python), which Stop ends. */
export interface AutoplayState {
  running: boolean;
  /** The player's name, as Python gives it ("Greedy", a function's name), or null when none plays. */
  player: string | null;
}

/** The game's public view (`Klondike.view`). */
export interface ViewState {
  columns: number;
  tableau: Column[];
  stock: (CardId | null)[];
  waste: (CardId | null)[];
  foundations: Record<Suit, number>;
  draw: number;
  recycles: number;
  passes_left: number | null;
  score: number;
  moves: number;
  status: "playing" | "won" | "stuck";
  can_undo: boolean;
  can_redo: boolean;
}

/** The part of the synced state that follows from the game and the board's options. */
export interface BoardState extends ViewState {
  seconds: number;
  clock_running: boolean;
  can_draw: boolean;
  can_recycle: boolean;
  can_autocomplete: boolean;
  /** Every card that can move now and the piles it may legally go to. */
  targets: Record<CardId, PileId[]>;
  /** The cards a player may pick up (a drop where one may not go is answered with the reason). */
  pickable: CardId[];
  rules: RulesView;
  reveal: boolean;
  show_moves: boolean;
  lang: string;
  languages: [string, string][];
  rules_text: string;
}

/** The whole synced state. */
export interface GameState extends BoardState {
  last_move: LastMove | null;
  message: Message | null;
  lesson: LessonState | null;
  indicator: IndicatorState;
  stats: RecordsState;
  /** The lesson being recorded (its last step, which takes a note, marks and a quiz), or null. */
  recording: RecordState | null;
  review: ReviewState;
  autoplay: AutoplayState;
  version: number;
}
