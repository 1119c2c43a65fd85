"""Writes ``js/vocabulary.ts``, the front end's copy of the words Python and TypeScript share: the card-code and
pile-name patterns and the marks' colours. Python is their one source (``patiencelab.core.cards.CARD_PATTERN``,
``patiencelab.core.marks.PILE_PATTERN`` and ``MARK_COLORS``); ``tests/test_vocabulary.py`` fails when the file,
the protocol's schema or ``js/types.ts`` drift from it.

Run ``python js/vocabulary.py`` after changing one of them (``--check`` only compares).
"""

from __future__ import annotations

import pathlib
import sys

from patiencelab.core.cards import CARD_PATTERN
from patiencelab.core.marks import MARK_COLORS, PILE_PATTERN

FILE = pathlib.Path(__file__).with_name("vocabulary.ts")


def text() -> str:
    """The text of ``js/vocabulary.ts``."""
    colors = "".join(f'  {name}: "{value}",\n' for name, value in MARK_COLORS.items())
    return (
        "// The words Python and the front end share. Generated from src/patiencelab/core/cards.py and marks.py by\n"
        "// js/vocabulary.py: do not edit; tests/test_vocabulary.py fails when it drifts.\n\n"
        'import type { MarkColor } from "./types";\n\n'
        "/** A card's code (`5H`, `TD`): rank letter, then suit letter. */\n"
        f"export const CARD_PATTERN = /^{CARD_PATTERN}$/;\n\n"
        "/** A pile's name: `stock`, `w`, `t1`..`t9`, `fC`..`fS`. */\n"
        f"export const PILE_PATTERN = /^({PILE_PATTERN})$/;\n\n"
        "/** The colours of a teacher's marks, by name (the first is the default). */\n"
        f"export const MARK_COLORS: Record<MarkColor, string> = {{\n{colors}}};\n"
    )


if __name__ == "__main__":
    if "--check" in sys.argv:
        sys.exit(
            0
            if FILE.read_text(encoding="utf-8") == text()
            else "js/vocabulary.ts is out of date: run python js/vocabulary.py"
        )
    FILE.write_text(text(), encoding="utf-8")
