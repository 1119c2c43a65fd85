// Protocol states (docs/widget-protocol.md) for the page tests and screenshots.

/** The English labels, as Python sends them: served by the test server from the catalogue (en.po), so the page
 * tests keep no words of their own. */
export const LABELS = await (await fetch("/labels/en.json")).json();

export const LANGUAGES = [["en", "English"], ["nl", "Nederlands"], ["sv", "Svenska"]];

const down = (n) => Array.from({ length: n }, () => null);

function base(over) {
  return {
    version: 1, columns: 7, tableau: [], stock: down(24), waste: [],
    foundations: { C: 0, D: 0, H: 0, S: 0 }, draw: 1, recycles: 0, passes_left: null,
    score: 0, moves: 0, seconds: 0, clock_running: true, status: "playing",
    can_undo: false, can_redo: false, can_draw: true, can_recycle: false, can_autocomplete: false,
    targets: {}, last_move: null,
    rules: { preset: "standard", draw: 1, max_passes: null, foundation_to_tableau: true, scoring: "standard" },
    reveal: false, lang: "en", languages: LANGUAGES, show_moves: false, message: null, lesson: null,
    rules_text: "Standard rules: draw 1, passes unlimited.\nBuild columns down in alternating colours.\n" +
      "Only a King fills an empty column.\nCards may come back from the foundations.",
    indicator: { enabled: false, verdict: null, error: null },
    recording: null, review: { offered: false, busy: false }, autoplay: { running: false, player: null },
    stats: { enabled: true, error: null, notice: null, rules_key: "standard", draw: 1, scoring: "standard", played: 12, won: 5, win_rate: 0.4167,
      best_score: 645, fewest_moves: 98, fastest_win: 201.5, current_streak: 2, longest_streak: 3, new: [] },
    ...over,
  };
}

const cols = (...ups) => ups.map((up, i) => ({ down: down(i), up }));

/** A fresh deal: 9H may go on TC, AS to its foundation, JD on QS. */
export function start() {
  return base({
    tableau: cols(["7D"], ["QS"], ["AS"], ["TC"], ["9H"], ["2S"], ["JD"]),
    targets: { "9H": ["t4"], AS: ["fS"], JD: ["t2"] },
  });
}

/** After 9H went onto TC: column 5 turned up the 6C. */
export function afterNineOnTen() {
  const s = start();
  s.tableau[3].up = ["TC", "9H"];
  s.tableau[4] = { down: down(3), up: ["6C"] };
  return { ...s, moves: 1, score: 5, can_undo: true, targets: { AS: ["fS"], JD: ["t2"] },
    last_move: { move: "t5-t4", cards: ["9H"], from: "t5", to: "t4", undo: false, text: "9 of hearts to Column 4" } };
}

/** After one draw from the start. */
export function afterDraw() {
  const s = start();
  return { ...s, stock: down(23), waste: ["KH"], moves: 1, can_undo: true,
    last_move: { move: "d", cards: [], from: "stock", to: "w", undo: false, text: "Draw: King of hearts" } };
}

/** After JD went onto QS (keyboard). */
export function afterJackOnQueen() {
  const s = start();
  s.tableau[1].up = ["QS", "JD"];
  s.tableau[6] = { down: down(5), up: ["3H"] };
  return { ...s, moves: 1, score: 5, can_undo: true, targets: { "9H": ["t4"], AS: ["fS"] },
    last_move: { move: "t7-t2", cards: ["JD"], from: "t7", to: "t2", undo: false, text: "Jack of diamonds to Column 2" } };
}

/** A game in progress: foundations started, long runs, waste in use, limited passes. */
export function midGame() {
  return base({
    tableau: [
      { down: [], up: ["KS", "QH", "JC", "TD", "9S", "8H"] },
      { down: down(1), up: ["9D"] },
      { down: down(1), up: ["QC", "JH", "TS"] },
      { down: [], up: [] },
      { down: down(3), up: ["KD", "QS", "JD", "TC", "9H", "8C", "7D"] },
      { down: down(4), up: ["6S"] },
      { down: down(5), up: ["8D", "7C"] },
    ],
    stock: down(9), waste: ["4C", "5H", "7S"],
    foundations: { C: 3, D: 4, H: 4, S: 5 }, moves: 57, score: 135, seconds: 312, passes_left: 2,
    can_undo: true, targets: { "7S": ["t2"], "6S": ["t1", "t5"], KD: ["t4"], "9D": ["t3"] },
    rules: { preset: "traditional", draw: 1, max_passes: 3, foundation_to_tableau: false, scoring: "standard" },
  });
}

/** Draw 3: the waste fans its last three cards. */
export function drawThree() {
  return { ...start(), draw: 3, stock: down(15), waste: ["2D", "8S", "4H", "TH", "5C", "QD"],
    targets: { "9H": ["t4"], AS: ["fS"], JD: ["t2"] },
    rules: { preset: "standard", draw: 3, max_passes: null, foundation_to_tableau: true, scoring: "standard" } };
}

/** Six columns (draw 3). */
export function sixColumns() {
  const tableau = [["7D"], ["QS"], ["AS"], ["TC"], ["9H"], ["JD"]].map((up, i) => ({ down: down(i + 1), up }));
  return base({ columns: 6, tableau, stock: down(25), draw: 3, targets: { "9H": ["t4"], AS: ["fS"], JD: ["t2"] },
    rules: { preset: "six-column", draw: 3, max_passes: null, foundation_to_tableau: true, scoring: "standard" } });
}

/** The stock is used up and no pass is left. */
export function noPasses() {
  return { ...midGame(), stock: [], can_draw: false, can_recycle: false, passes_left: 0 };
}

/** No legal move left. */
export function stuck() {
  return { ...midGame(), status: "stuck", clock_running: false, targets: {} };
}

/** One card from a win: KC may go to its foundation. */
export function almostWon() {
  const s = base({ tableau: cols([], [], [], [], [], [], []), stock: [], waste: ["KC"],
    foundations: { C: 12, D: 13, H: 13, S: 13 }, moves: 140, score: 620, seconds: 402,
    targets: { KC: ["fC"] }, can_draw: false, can_undo: true });
  s.tableau = Array.from({ length: 7 }, () => ({ down: [], up: [] }));
  return s;
}

/** The game is won. */
export function won() {
  return { ...almostWon(), waste: [], foundations: { C: 13, D: 13, H: 13, S: 13 }, status: "won",
    clock_running: false, targets: {}, moves: 141, score: 630,
    last_move: { move: "w-f", cards: ["KC"], from: "w", to: "fC", undo: false, text: "King of clubs to Foundation clubs" } };
}

const LESSON = {
  title: "Draw 1: building down in alternating colours", steps: 9, playing: false, pace: 2, taken_over: false, marks: [], quiz: null,
};

/** A lesson at step 1 on the start position. */
export function lessonOne() {
  return { ...start(), lesson: { ...LESSON, step: 1,
    caption: "Look for a card that can go on a card one rank higher of the other colour.",
    note: "Start with the face-up cards before you touch the stock.", highlight: { cards: ["9H"], to: null } },
    indicator: { enabled: true, verdict: "winnable", error: null } };
}

/** Step 2: the 9H went onto the TC (as a normal last_move, so it animates). */
export function lessonTwo() {
  return { ...afterNineOnTen(), lesson: { ...LESSON, step: 2,
    caption: "Move the 9\u2665 from column 5 onto the 10\u2663 in column 4: red on black, one rank lower. Score: +5.",
    note: "Column 5 turns up its next card: the 6\u2663.", highlight: { cards: ["9H"], to: "t4" } },
    indicator: { enabled: true, verdict: "winnable", error: null } };
}

/** Playing at a pace of 1.5 s per step. */
export function lessonPlaying() {
  return { ...lessonOne(), lesson: { ...lessonOne().lesson, playing: true, pace: 1.5 } };
}

/** The teacher played on by hand. */
export function lessonTakenOver() {
  return { ...afterDraw(), lesson: { ...lessonOne().lesson, taken_over: true } };
}

/** Mid-game with "show moves" on. */
export function showMoves() {
  return { ...midGame(), show_moves: true, indicator: { enabled: true, verdict: "pending", error: null } };
}

/** The start position with every face-down card revealed (a teacher's view), "show moves" on. */
export function revealed() {
  const hidden = ["JC", "5H", "KC", "JS", "KS", "2H", "4H", "QD", "TS", "3S", "6H", "9D", "3H", "TH", "6S", "3D", "5C", "3C", "TD", "JH", "6C"];
  const s = start();
  s.tableau = s.tableau.map((col) => ({ ...col, down: col.down.map(() => hidden.shift()) }));
  return { ...s, reveal: true, show_moves: true, stock: ["9C", "2D", "7C", "8S", "AC", "KH", "8D", "4S", "6D", "AD", "5S", "8H", "AH", "8C", "QC", "4C", "4D", "7H", "2C", "QH", "9S", "KD", "5D", "7S"] };
}

/** Rows of a `stats` reply. */
export function statsRows() {
  return [
    { rules_key: "standard", draw: 1, played: 12, won: 5, win_rate: 0.4167, best_score: 645, fewest_moves: 98,
      fastest_win: 201.5, current_streak: 2, longest_streak: 3 },
    { rules_key: "standard", draw: 3, played: 30, won: 4, win_rate: 0.1333, best_score: 590, fewest_moves: 121,
      fastest_win: 344, current_streak: 0, longest_streak: 1 },
    { rules_key: "six-column", draw: 3, played: 2, won: 0, win_rate: 0, best_score: null, fewest_moves: null,
      fastest_win: null, current_streak: 0, longest_streak: 0 },
  ];
}

/** What Python adds to every state: the cards a player may pick up (the face-up cards of the columns, the top of
 * the waste and of each foundation; none once won). The fake kernel fills it in as the real one does. */
export function complete(state) {
  if (state.pickable) return state;
  const suits = ["C", "D", "H", "S"];
  const tops = suits.filter((s) => state.foundations[s] > 0).map((s) => "A23456789TJQK"[state.foundations[s] - 1] + s);
  const pickable = state.status === "won" ? [] :
    [...state.tableau.flatMap((col) => col.up), ...state.waste.slice(-1), ...tops];
  return { ...state, pickable };
}

/** A review's chart of chances (issue 25) for a game of 85 moves: the fair chance at every position with its 95%
 * interval, five marked moves, and the deal lost from step 70 on. Made by a fixed formula, not by Python. */
export function chart() {
  const marks = [
    { step: 11, move: 12, label: "inaccuracy" },
    { step: 23, move: 24, label: "mistake" },
    { step: 24, move: 25, label: "inaccuracy" },
    { step: 41, move: 42, label: "blunder" },
    { step: 70, move: 70, label: "luck" },
  ];
  const drops = { 12: 0.06, 24: 0.14, 25: 0.05, 42: 0.22, 70: 0.12 };
  let chance = 0.62;
  const points = [];
  for (let step = 0; step <= 85; step++) {
    chance = Math.max(0, chance - (drops[step] ?? 0) + 0.012 * Math.sin(step / 3));
    if (step >= 70) chance = 0;
    const wide = step >= 70 ? 0 : 0.05 + 0.04 * Math.cos(step / 9);
    const r = (v) => Math.round(Math.min(1, Math.max(0, v)) * 1000) / 1000;
    points.push({ step, estimate: r(chance), low: r(chance - wide), high: r(chance + wide) });
  }
  return { points, marks, lost_from: 70 };
}

/** A review lesson of the whole game, at the blunder (step 41) with its sentence and the chart. */
export function reviewChart() {
  return { ...midGame(), moves: 41, lesson: { title: "Review", step: 41, steps: 85, playing: false, pace: 2,
    taken_over: false, quiz: null, review: true, highlight: { cards: ["6S"], to: "t1" }, marks: [{ arrow: ["t6", "t5"] }],
    caption: "Move the 6\u2660 from column 6 onto the 7\u2666 in column 5: black on red, one rank lower.",
    note: "A blunder: your chances fell from 41% to 19% with this move (the 6\u2660 to column 1). Better: the 6\u2660 " +
      "onto the 7\u2666, which turns up a card in column 6.",
    chart: chart() } };
}

/** The same review one step on: a step with no mark. */
export function reviewChartNext() {
  const s = reviewChart();
  return { ...s, lesson: { ...s.lesson, step: 42, review: false, marks: [], note: null } };
}

/** A review running: 12 positions of 85 judged so far. */
export function reviewRunning() {
  return { ...stuck(), review: { offered: false, busy: true, progress: { done: 12, total: 85 } } };
}
