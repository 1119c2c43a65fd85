"""The words Python and the front end share have one source, in Python: the card-code and pile-name patterns and
the marks' colours. The generated ``js/vocabulary.ts``, the protocol's schema and ``js/types.ts`` follow it.
"""

from __future__ import annotations

import importlib.util
import json
import pathlib
import re
from typing import Any

from patiencelab.core.cards import CARD_PATTERN, full_deck
from patiencelab.core.marks import COLORS, MARK_COLORS, PILE_PATTERN, is_pile

JS = pathlib.Path(__file__).parent.parent / "js"


def _generator() -> Any:
    spec = importlib.util.spec_from_file_location("vocabulary", JS / "vocabulary.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_front_ends_copy_is_generated_from_python() -> None:
    generated = _generator().text()
    assert (JS / "vocabulary.ts").read_text(encoding="utf-8") == generated, "run: python js/vocabulary.py"
    assert f"/^{CARD_PATTERN}$/" in generated and f"/^({PILE_PATTERN})$/" in generated
    for name, value in MARK_COLORS.items():
        assert f'{name}: "{value}"' in generated


def test_the_schema_and_the_types_hold_the_same_patterns_and_colours() -> None:
    definitions = json.loads((JS / "protocol.schema.json").read_text(encoding="utf-8"))["definitions"]
    assert definitions["CardId"]["pattern"] == f"^{CARD_PATTERN}$"
    assert definitions["PileId"]["pattern"] == f"^({PILE_PATTERN})$"
    assert definitions["MarkColor"]["enum"] == list(COLORS)
    types = (JS / "types.ts").read_text(encoding="utf-8")
    union = re.search(r"export type MarkColor = (.*);", types)
    assert union is not None and re.findall(r'"(\w+)"', union.group(1)) == list(COLORS)


def test_the_patterns_say_what_python_says() -> None:
    assert all(re.fullmatch(CARD_PATTERN, str(card)) for card in full_deck())
    assert not re.fullmatch(CARD_PATTERN, "10H"), "the protocol writes a ten as T"
    piles = ["stock", "w", *(f"t{i}" for i in range(1, 10)), *(f"f{s}" for s in "CDHS")]
    assert all(is_pile(p) and re.fullmatch(PILE_PATTERN, p) for p in piles)
    assert not any(is_pile(p) for p in ("t0", "t10", "fX", "waste", "5H"))
