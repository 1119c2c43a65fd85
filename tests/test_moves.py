"""Moves and their notation: every move form parses, prints in place form, and round-trips."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given
from hypothesis import strategies as st

from patiencelab import Card, InvalidMoveError, Move, PatienceError

COLUMNS = [f"t{i}" for i in range(1, 8)]
FOUNDATIONS = ["fC", "fD", "fH", "fS"]
SYMBOL_OF = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}


def place_form_moves() -> list[str]:
    moves = ["d", "r"]
    moves += [f"w-{t}" for t in [*COLUMNS, "f", *FOUNDATIONS]]
    for a in COLUMNS:
        moves += [f"{a}-{b}" for b in [*COLUMNS, "f", *FOUNDATIONS] if b != a]
    moves += [f"{f}-{t}" for f in FOUNDATIONS for t in COLUMNS]
    return moves


PLACE_MOVES = place_form_moves()


@pytest.mark.parametrize("text", PLACE_MOVES)
def test_place_form_round_trips(text: str) -> None:
    move = Move.parse(text)
    assert str(move) == text
    assert Move.parse(str(move)) == move
    assert move.card is None


@pytest.mark.parametrize("text", PLACE_MOVES)
def test_place_form_is_case_insensitive(text: str) -> None:
    assert Move.parse(text.upper()) == Move.parse(text)
    assert str(Move.parse(text.upper())) == text


def test_parts_of_a_move() -> None:
    move = Move.parse("t2-t5")
    assert (move.source, move.target, move.card) == ("t2", "t5", None)
    assert Move.parse("w-f") == Move("w", "f")
    assert Move.parse("fH-t4") == Move("fH", "t4")
    assert Move.parse("d").is_draw and not Move.parse("d").is_recycle
    assert Move.parse("r").is_recycle and not Move.parse("r").is_draw
    assert not Move.parse("w-t3").is_draw


@pytest.mark.parametrize("suit", "CDHS")
def test_foundation_symbol_spelling(suit: str) -> None:
    assert Move.parse(f"f{SYMBOL_OF[suit]}-t4") == Move.parse(f"f{suit}-t4")
    assert Move.parse(f"w-f{suit.lower()}") == Move.parse(f"w-f{suit}")
    assert str(Move.parse(f"w-f{SYMBOL_OF[suit]}")) == f"w-f{suit}"


CARD_TEXTS = [r + s for s in "CDHS" for r in "A23456789TJQK"]


@pytest.mark.parametrize("card", CARD_TEXTS)
def test_card_form_round_trips(card: str) -> None:
    for target in ["t5", "f", "fH", "t1"]:
        move = Move.parse(f"{card}-{target}")
        assert move.card == Card.parse(card)
        assert move.target == target
        assert str(move) == f"{card}-{target}"  # printed as written: card form, not resolved
        assert Move.parse(str(move)) == move


@pytest.mark.parametrize("text", ["10♥-t5", "th-t5", "10h-T5", "TH-t5", "t♥-t5"])
def test_card_form_spellings(text: str) -> None:
    move = Move.parse(text)
    assert move.card == Card.parse("TH")
    assert move.target == "t5"
    assert move.source is None


@pytest.mark.parametrize(
    "text",
    [
        "",
        "x",
        "dd",
        "d-t1",
        "r-t1",
        "w",
        "t1",
        "t1-",
        "-t1",
        "t0-t1",
        "t1-t10",
        "t1-t1",
        "w-w",
        "t1-w",
        "f-t1",
        "fH-fS",
        "fH-f",
        "fX-t1",
        "w-t1-t2",
        "1H-t1",
        "5H-w",
        "5H",
        "t2 t5",
        "t2->t5",
        "z-t3",
    ],
)
def test_bad_text_raises_invalid_move_error(text: str) -> None:
    with pytest.raises(InvalidMoveError):
        Move.parse(text)


def test_invalid_move_error_is_a_patience_error() -> None:
    assert issubclass(InvalidMoveError, PatienceError)
    with pytest.raises(InvalidMoveError):
        Move.parse(3)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("source", "target"),
    [("d", "t1"), ("w", "w"), ("t1", "t1"), ("f", "t2"), ("fH", "fS"), ("x", "t1"), ("t1", None), ("T1", "t2")],
)
def test_bad_move_values(source: str, target: str | None) -> None:
    with pytest.raises(InvalidMoveError):
        Move(source, target)


def test_moves_are_frozen_values() -> None:
    move = Move.parse("w-t3")
    with pytest.raises(dataclasses.FrozenInstanceError):
        move.target = "t4"  # type: ignore[misc]
    assert {Move.parse("w-t3"), Move("w", "t3")} == {move}
    assert eval(repr(move), {"Move": Move}) == move
    assert eval(repr(Move.parse("5H-t5")), {"Move": Move}) == Move.parse("5H-t5")


def test_parse_returns_a_move_as_is() -> None:
    move = Move("t2", "t5")
    assert Move.parse(move) is move


@given(st.sampled_from(PLACE_MOVES + [f"{c}-{t}" for c in CARD_TEXTS for t in ("f", "t3")]))
def test_str_parse_is_identity(text: str) -> None:
    move = Move.parse(text)
    assert Move.parse(str(move)) == move
    assert str(Move.parse(str(move))) == str(move)
