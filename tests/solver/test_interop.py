"""Deal strings of other programs: round trips, a known example, and the errors bad input raises."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from patiencelab import Card, InvalidPositionError, PatienceError
from patiencelab.core.position import seeded_deal
from patiencelab.interop import FORMATS, from_deal_string, to_deal_string


@given(seed=st.integers(0, 2**31))
def test_round_trip_every_format(seed: int) -> None:
    cards = seeded_deal(seed)
    for fmt in FORMATS:
        assert from_deal_string(to_deal_string(cards, fmt), fmt) == cards  # type: ignore[arg-type]


def test_klondike_solver_digits() -> None:
    cards = seeded_deal(0)
    text = to_deal_string(cards, "klondike-solver")
    assert len(text) == 156 and text.isdigit()
    first = cards[0]
    assert text[:3] == f"{first.rank:02d}{'CDHS'.index(first.suit.value) + 1}"


def test_solvitaire_layout() -> None:
    cards = seeded_deal(1)
    data = json.loads(to_deal_string(cards, "solvitaire"))
    assert set(data) == {"tableau piles", "stock"}  # as Solvitaire's own deal files: no waste, no foundations
    piles = data["tableau piles"]
    assert [len(p) for p in piles] == [1, 2, 3, 4, 5, 6, 7]
    assert piles[0] == [str(cards[0]).replace("T", "10")]
    assert piles[1][0] == str(cards[1]).replace("T", "10")[:-1] + str(cards[1])[-1].lower()
    assert all(p[-1][-1].isupper() and all(c[-1].islower() for c in p[:-1]) for p in piles)
    assert Card.parse(data["stock"][-1]) == cards[28]  # the next card is last
    assert len(data["stock"]) == 24


@pytest.mark.parametrize(
    ("text", "fmt", "words"),
    [
        ("123", "klondike-solver", "156 digits"),
        ("x" * 156, "klondike-solver", "digits only"),
        ("141" + "011" * 51, "klondike-solver", "card 1"),
        ("011" * 52, "klondike-solver", "repeats"),
        ("not json", "solvitaire", "JSON"),
        ('{"stock": []}', "solvitaire", "tableau piles"),
        ('{"tableau piles": [["AH", "2C"]], "stock": []}', "solvitaire", "only the top card"),
        ('{"tableau piles": [["ZZ"]], "stock": []}', "solvitaire", "not a card"),
        ('{"tableau piles": [["AH"]], "stock": ["2C"]}', "solvitaire", "52 cards"),
        ("AC" * 52, "patiencelab", "repeats"),
    ],
)
def test_bad_input_names_the_problem(text: str, fmt: str, words: str) -> None:
    with pytest.raises(InvalidPositionError, match=words):
        from_deal_string(text, fmt)  # type: ignore[arg-type]


def test_unknown_format() -> None:
    with pytest.raises(PatienceError, match="unknown deal format"):
        from_deal_string("x", "pysol")  # type: ignore[arg-type]
    with pytest.raises(InvalidPositionError, match="52 cards"):
        to_deal_string(seeded_deal(0)[:51], "patiencelab")
