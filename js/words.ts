/** Words the board shows or announces: from `labels` (the model's language), English where one is missing. */

import { cardName } from "./cards";
import type { GameState, LastMove, Labels, PileId } from "./types";

const ENGLISH: Labels = {
  title: "Klondike solitaire",
  new: "New",
  restart: "Restart",
  undo: "Undo",
  redo: "Redo",
  hint: "Hint",
  autocomplete: "Autocomplete",
  score: "Score",
  moves: "Moves",
  time: "Time",
  passes: "Passes left",
  stock: "Stock",
  waste: "Waste",
  foundation: "Foundation",
  column: "Column",
  draw1: "Draw 1",
  draw3: "Draw 3",
  "preset.standard": "Standard",
  "preset.traditional": "Traditional",
  "preset.six-column": "Six columns",
  won: "You won!",
  stuck: "No moves left",
  "new-deal": "New deal",
  "new-game": "New game",
  "same-rules": "Same rules",
  "no-passes": "No passes left",
  recycle: "Turn the waste over",
  draw: "Draw",
  "face-down": "face-down card",
  "picked-up": "Picked up {card}",
  "cannot-move": "The {card} cannot move now",
  "moved-to": "{card} to {place}",
  "suit.C": "clubs",
  "suit.D": "diamonds",
  "suit.H": "hearts",
  "suit.S": "spades",
};

/** The word for `key`. */
export function word(labels: Labels, key: string): string {
  return labels[key] ?? ENGLISH[key] ?? key;
}

/** `word` with `{name}` fields filled in. */
export function phrase(labels: Labels, key: string, fields: Record<string, string>): string {
  return word(labels, key).replace(/\{(\w+)\}/g, (whole, name: string) => fields[name] ?? whole);
}

/** The name of a pile: "Column 3", "Foundation hearts", "Stock". */
export function pileName(pile: PileId, labels: Labels): string {
  if (pile === "stock" || pile === "waste") return word(labels, pile);
  if (pile.startsWith("t")) return `${word(labels, "column")} ${pile.slice(1)}`;
  if (pile.startsWith("f")) return `${word(labels, "foundation")} ${word(labels, `suit.${pile.slice(1)}`)}`;
  return pile;
}

/** The sentence the live region reads for the last move. */
export function announcement(move: LastMove, state: GameState, labels: Labels): string {
  const prefix = move.undo ? `${word(labels, "undo")}: ` : "";
  if (move.move === "d" || move.move === "r") {
    const top = state.waste[state.waste.length - 1];
    if (move.move === "r" || move.undo) return prefix + word(labels, move.move === "r" ? "recycle" : "draw");
    return `${word(labels, "draw")}: ${top ? cardName(top, labels) : ""}`.trim();
  }
  const lead = move.cards[0];
  const place = move.to === "f" && lead ? `f${lead[lead.length - 1]}` : move.to;
  const name = lead ? cardName(lead, labels) : move.move;
  const where = place === "w" ? word(labels, "waste") : pileName(place, labels);
  return prefix + phrase(labels, "moved-to", { card: name, place: where });
}
