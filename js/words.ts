/** Words the board shows or announces: all from `labels` (Python's catalogue in the chosen language). A missing
 * label shows its key, so that it is seen and added to the catalogue rather than silently shown in English. */

import type { Labels, PileId } from "./types";

/** The word for `key`. */
export function word(labels: Labels, key: string): string {
  return labels[key] ?? key;
}

/** `word` with `{name}` fields filled in. */
export function phrase(labels: Labels, key: string, fields: Record<string, string>): string {
  return word(labels, key).replace(/\{(\w+)\}/g, (whole, name: string) => fields[name] ?? whole);
}

/** The name of a pile: "Column 3", "Foundation hearts", "Stock", "Waste". */
export function pileName(pile: PileId, labels: Labels): string {
  if (pile === "stock") return word(labels, "stock");
  if (pile === "w") return word(labels, "waste");
  if (pile.startsWith("t")) return `${word(labels, "column")} ${pile.slice(1)}`;
  if (pile.startsWith("f")) return `${word(labels, "foundation")} ${word(labels, `suit.${pile.slice(1)}`)}`;
  return pile;
}
