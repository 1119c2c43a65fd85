// The words Python and the front end share. Generated from src/patiencelab/core/cards.py and marks.py by
// js/vocabulary.py: do not edit; tests/test_vocabulary.py fails when it drifts.

import type { MarkColor } from "./types";

/** A card's code (`5H`, `TD`): rank letter, then suit letter. */
export const CARD_PATTERN = /^[A2-9TJQK][CDHS]$/;

/** A pile's name: `stock`, `w`, `t1`..`t9`, `fC`..`fS`. */
export const PILE_PATTERN = /^(stock|w|t[1-9]|f[CDHS])$/;

/** The colours of a teacher's marks, by name (the first is the default). */
export const MARK_COLORS: Record<MarkColor, string> = {
  green: "#16a34a",
  red: "#dc2626",
  blue: "#2563eb",
  yellow: "#eab308",
};
