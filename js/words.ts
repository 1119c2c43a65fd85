/** Words the board shows or announces: all from `labels` (Python's catalogue in the chosen language). A missing
 * label shows its key, so that it is seen and added to the catalogue rather than silently shown in English. */

import { cardName } from "./cards";
import type { GameState, LastMove, Labels, PileId } from "./types";

/** The word for `key`. */
export function word(labels: Labels, key: string): string {
  return labels[key] ?? key;
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
