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

/** `phrase` for a sentence with a count in it: the form of `key` for `n` (`key|one`, `key|other`: Python's
 * forms of the plural entry, picked with the language's plural rules), `n` written as `field`. */
export function countPhrase(
  labels: Labels,
  key: string,
  n: number,
  field: string,
  fields: Record<string, string> = {},
  lang = "en",
): string {
  let category = "other";
  try {
    category = new Intl.PluralRules(lang || "en").select(n);
  } catch {
    // an unknown language: the "other" form
  }
  const form = labels[`${key}|${category}`] !== undefined ? `${key}|${category}` : `${key}|other`;
  const shown = field in fields ? fields : { ...fields, [field]: String(n) };
  return phrase(labels, labels[form] !== undefined ? form : key, shown);
}

/** The name of a pile: "Column 3", "Foundation hearts", "Stock", "Waste". */
export function pileName(pile: PileId, labels: Labels): string {
  if (pile === "stock") return word(labels, "stock");
  if (pile === "w") return word(labels, "waste");
  if (pile.startsWith("t")) return `${word(labels, "column")} ${pile.slice(1)}`;
  if (pile.startsWith("f")) return `${word(labels, "foundation")} ${word(labels, `suit.${pile.slice(1)}`)}`;
  return pile;
}
