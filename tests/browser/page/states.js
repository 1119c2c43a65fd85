// Protocol states (docs/widget-protocol.md) for the page tests and screenshots.

export const LABELS = {
  new: "New", restart: "Restart", undo: "Undo", redo: "Redo", hint: "Hint", autocomplete: "Autocomplete",
  score: "Score", moves: "Moves", time: "Time", passes: "Passes left", stock: "Stock", waste: "Waste",
  foundation: "Foundation", column: "Column", draw1: "Draw 1", draw3: "Draw 3",
  "preset.standard": "Standard", "preset.traditional": "Traditional", "preset.six-column": "Six columns",
  won: "You won!", stuck: "No moves left", "new-deal": "New deal", "no-passes": "No passes left",
  recycle: "Turn the waste over", "face-down": "face-down card", "rank.1": "Ace", "rank.11": "Jack",
  "rank.12": "Queen", "rank.13": "King", of: "{rank} of {suit}", "suit.C": "clubs", "suit.D": "diamonds",
  "suit.H": "hearts", "suit.S": "spades",
};

const down = (n) => Array.from({ length: n }, () => null);

function base(over) {
  return {
    version: 1, columns: 7, tableau: [], stock: down(24), waste: [],
    foundations: { C: 0, D: 0, H: 0, S: 0 }, draw: 1, recycles: 0, passes_left: null,
    score: 0, moves: 0, seconds: 0, clock_running: true, status: "playing",
    can_undo: false, can_redo: false, can_draw: true, can_recycle: false, can_autocomplete: false,
    targets: {}, last_move: null,
    rules: { preset: "standard", draw: 1, max_passes: null, foundation_to_tableau: true, scoring: "standard" },
    reveal: false, lang: "en", ...over,
  };
}

const cols = (...ups) => ups.map((up, i) => ({ down: down(i), up }));

/** A fresh deal: 9H may go on TC, AS to its foundation, JD on QS. */
export function start() {
  return base({
    tableau: cols(["7D"], ["QS"], ["AS"], ["TC"], ["9H"], ["2S"], ["JD"]),
    targets: { "9H": ["t4"], AS: ["f"], JD: ["t2"] },
  });
}

/** After 9H went onto TC: column 5 turned up the 6C. */
export function afterNineOnTen() {
  const s = start();
  s.tableau[3].up = ["TC", "9H"];
  s.tableau[4] = { down: down(3), up: ["6C"] };
  return { ...s, moves: 1, score: 5, can_undo: true, targets: { AS: ["f"], JD: ["t2"] },
    last_move: { move: "t5-t4", cards: ["9H"], from: "t5", to: "t4", undo: false } };
}

/** After one draw from the start. */
export function afterDraw() {
  const s = start();
  return { ...s, stock: down(23), waste: ["KH"], moves: 1, can_undo: true,
    last_move: { move: "d", cards: [], from: "stock", to: "waste", undo: false } };
}

/** After JD went onto QS (keyboard). */
export function afterJackOnQueen() {
  const s = start();
  s.tableau[1].up = ["QS", "JD"];
  s.tableau[6] = { down: down(5), up: ["3H"] };
  return { ...s, moves: 1, score: 5, can_undo: true, targets: { "9H": ["t4"], AS: ["f"] },
    last_move: { move: "t7-t2", cards: ["JD"], from: "t7", to: "t2", undo: false } };
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
    targets: { "9H": ["t4"], AS: ["f"], JD: ["t2"] },
    rules: { preset: "standard", draw: 3, max_passes: null, foundation_to_tableau: true, scoring: "standard" } };
}

/** Six columns (draw 3). */
export function sixColumns() {
  const tableau = [["7D"], ["QS"], ["AS"], ["TC"], ["9H"], ["JD"]].map((up, i) => ({ down: down(i + 1), up }));
  return base({ columns: 6, tableau, stock: down(25), draw: 3, targets: { "9H": ["t4"], AS: ["f"], JD: ["t2"] },
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
    targets: { KC: ["f"] }, can_draw: false, can_undo: true });
  s.tableau = Array.from({ length: 7 }, () => ({ down: [], up: [] }));
  return s;
}

/** The game is won. */
export function won() {
  return { ...almostWon(), waste: [], foundations: { C: 13, D: 13, H: 13, S: 13 }, status: "won",
    clock_running: false, targets: {}, moves: 141, score: 630,
    last_move: { move: "w-f", cards: ["KC"], from: "w", to: "fC", undo: false } };
}
