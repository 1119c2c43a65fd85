"""Errors: the exception tree, every rule code reachable in a constructed position, the check order of the
fine print, reasons that name the cards, and failed calls that change nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest

from patiencelab import (
    IllegalMoveError,
    InvalidMoveError,
    InvalidPositionError,
    InvalidRecordError,
    Klondike,
    PatienceError,
    Rules,
)
from patiencelab.core.cards import Card
from patiencelab.core.i18n import card_name

from .model_helpers import LANGUAGE, col, game_from, state

CODES = (
    "alternate-colors",
    "one-lower",
    "king-on-empty",
    "foundation-suit",
    "foundation-order",
    "one-card-to-foundation",
    "face-down",
    "waste-top-only",
    "foundation-top-only",
    "empty-source",
    "stock-empty",
    "stock-not-empty",
    "no-passes-left",
    "foundation-return-off",
    "game-over",
)

TRADITIONAL = Rules.preset("traditional")


@pytest.fixture(autouse=True, params=["en", "nl", "sv"])
def language(request: pytest.FixtureRequest) -> Iterator[str]:
    """Every test here runs with games in English, Dutch and Swedish."""
    LANGUAGE["value"] = request.param
    yield request.param
    LANGUAGE["value"] = "en"


def expect(game: Klondike, move: str, rule: str, *names: str) -> IllegalMoveError:
    """``move`` is refused with ``rule`` by check, can_play and play; the reason names ``names``; nothing changes."""
    before = state(game)
    found = game.check(move)
    assert found is not None, f"{move} should be illegal ({rule})"
    assert found.rule == rule, (move, found.rule, found.reason)
    assert not game.can_play(move)
    with pytest.raises(IllegalMoveError) as info:
        game.play(move)
    assert info.value.rule == rule
    assert info.value.reason == found.reason
    assert str(info.value) == info.value.reason
    for name in names:
        named = card_name(Card.parse(name), game.lang) if name[-1] in "♣♦♥♠" else name
        assert named in info.value.reason, (named, info.value.reason)
    if game.lang != "en":
        english = game.copy()
        english.lang = "en"
        english_error = english.check(move)
        assert english_error is not None and english_error.rule == rule
        assert english_error.reason != info.value.reason, "the reason is translated"
    assert state(game) == before
    return info.value


def test_exception_tree() -> None:
    assert issubclass(PatienceError, ValueError)
    for cls in (InvalidMoveError, IllegalMoveError, InvalidPositionError, InvalidRecordError):
        assert issubclass(cls, PatienceError)
    assert not issubclass(IllegalMoveError, InvalidMoveError)
    assert not issubclass(InvalidMoveError, IllegalMoveError)


def won_game() -> Klondike:
    return game_from([], found={"C": 13, "D": 13, "H": 13, "S": 13})


def test_game_over() -> None:
    game = won_game()
    assert game.is_won
    for move in ("d", "r", "w-t1", "t1-t2", "fH-t1", "KH-t1", "t3-f"):
        expect(game, move, "game-over")


def test_stock_empty() -> None:
    game = game_from([col("", "KS")], waste="5H", rest="t1")
    expect(game, "d", "stock-empty")
    with pytest.raises(IllegalMoveError) as info:
        game.draw()
    assert info.value.rule == "stock-empty"


def test_stock_not_empty() -> None:
    game = game_from([col("", "KS")], stock="2H", waste="5H", rest="t1")
    expect(game, "r", "stock-not-empty")
    with pytest.raises(IllegalMoveError):
        game.recycle()


def test_recycle_with_no_waste_is_empty_source() -> None:
    game = game_from([col("", "KS")], rest="t1")
    expect(game, "r", "empty-source")


@pytest.mark.parametrize(("draw", "recycles"), [(1, 0), (3, 2)])
def test_no_passes_left(draw: int, recycles: int) -> None:
    rules = Rules.preset("traditional", draw=draw)
    game = game_from([col("", "KS")], waste="5H", rest="t1", rules=rules, recycles=recycles)
    assert game.passes_left == 0
    expect(game, "r", "no-passes-left")


def test_recycle_check_order() -> None:
    # stock not empty and no passes left: stock-not-empty first
    game = game_from([col("", "KS")], stock="2H", rest="t1", rules=TRADITIONAL)
    expect(game, "r", "stock-not-empty")
    # no waste and no passes left: empty-source first
    game = game_from([col("", "KS")], rest="t1", rules=TRADITIONAL)
    expect(game, "r", "empty-source")


def test_empty_source_places() -> None:
    game = game_from([col("", "KS"), col("", "QH")], rest="t1")
    expect(game, "w-t1", "empty-source")
    expect(game, "w-f", "empty-source")
    expect(game, "t3-t1", "empty-source")
    expect(game, "t3-f", "empty-source")
    expect(game, "fH-t1", "empty-source")


def test_empty_foundation_is_empty_source_before_return_off() -> None:
    game = game_from([col("", "KS")], rest="t1", rules=TRADITIONAL)
    expect(game, "fH-t1", "empty-source")


def test_face_down_card_in_a_column() -> None:
    game = game_from([col("5H 9C", "KS"), col("", "6S")], stock="3D")
    expect(game, "5H-t2", "face-down", "5♥")
    expect(game, "9C-f", "face-down", "9♣")


def test_face_down_card_in_the_stock() -> None:
    game = game_from([col("", "KS"), col("", "6S")], stock="5H 3D")
    expect(game, "5H-t2", "face-down", "5♥")
    expect(game, "3D-f", "face-down", "3♦")


def test_face_down_comes_before_target_checks() -> None:
    game = game_from([col("5H", "KS"), col("", "6H")], stock="3D")
    expect(game, "5H-t2", "face-down", "5♥")  # the 5♥ would also break alternate-colors
    expect(game, "5H-fS", "face-down", "5♥")  # and foundation-suit


def test_waste_top_only() -> None:
    game = game_from([col("", "KS"), col("", "6S")], waste="5H 9D")
    expect(game, "5H-t2", "waste-top-only", "5♥", "9♦")
    expect(game, "5H-fS", "waste-top-only", "5♥")


def test_waste_top_only_with_draw_three() -> None:
    rules = Rules.preset("standard", draw=3)
    game = game_from([col("", "KS"), col("", "6S")], waste="5H 9D 2C", found={"C": 1}, rules=rules)
    expect(game, "9D-t2", "waste-top-only", "9♦", "2♣")
    expect(game, "5H-t2", "waste-top-only", "5♥")
    assert game.can_play("2C-f")


def test_foundation_top_only() -> None:
    game = game_from([col("", "KS"), col("", "6S")], found={"H": 5})
    expect(game, "3H-t2", "foundation-top-only", "3♥", "5♥")
    assert game.can_play("5H-t2")


def test_foundation_top_only_before_return_off() -> None:
    game = game_from([col("", "KS"), col("", "6S")], found={"H": 5}, rules=TRADITIONAL)
    expect(game, "4H-t2", "foundation-top-only", "4♥", "5♥")


def test_foundation_return_off() -> None:
    game = game_from([col("", "KS"), col("", "6S")], found={"H": 5}, rules=TRADITIONAL)
    expect(game, "fH-t2", "foundation-return-off", "5♥")
    expect(game, "5H-t2", "foundation-return-off", "5♥")
    # before the target checks: the 5♥ would not fit on the K♠ either
    expect(game, "fH-t1", "foundation-return-off", "5♥")
    assert "fH-t2" not in {str(m) for m in game.legal_moves()}


def test_foundation_return_on() -> None:
    game = game_from([col("", "KS"), col("", "6S")], found={"H": 5})
    assert game.can_play("fH-t2")
    assert "fH-t2" in {str(m) for m in game.legal_moves()}
    expect(game, "fH-t1", "one-lower", "5♥", "K♠")


def test_one_card_to_foundation() -> None:
    game = game_from([col("", "9H 8S")], found={"H": 8, "S": 7})
    expect(game, "9H-f", "one-card-to-foundation", "9♥")
    expect(game, "9H-fH", "one-card-to-foundation", "9♥")
    # before foundation-suit and foundation-order
    expect(game, "9H-fS", "one-card-to-foundation", "9♥")
    assert game.can_play("t1-f")  # the top card, the 8♠, goes


def test_foundation_suit() -> None:
    game = game_from([col("", "KS")], waste="5S", found={"S": 4})
    expect(game, "w-fH", "foundation-suit", "5♠")
    game = game_from([col("", "KS")], waste="5S", found={"S": 1})
    # before foundation-order
    expect(game, "w-fD", "foundation-suit", "5♠")


def test_foundation_order() -> None:
    game = game_from([col("", "KS"), col("", "7D")], waste="5S", found={"S": 2, "D": 0})
    expect(game, "w-f", "foundation-order", "5♠", "3♠")
    expect(game, "w-fS", "foundation-order", "5♠")
    expect(game, "t2-f", "foundation-order", "7♦", "A♦")
    expect(game, "7D-f", "foundation-order", "7♦")


def test_king_on_empty() -> None:
    game = game_from([col("", ""), col("", "QH"), col("", "KS")], waste="JC", found={"H": 0})
    expect(game, "t2-t1", "king-on-empty", "Q♥")
    expect(game, "w-t1", "king-on-empty", "J♣")
    expect(game, "QH-t1", "king-on-empty", "Q♥")
    assert game.can_play("t3-t1")  # a pointless King move is still legal


def test_king_on_empty_from_a_foundation() -> None:
    game = game_from([col("", ""), col("", "KS")], found={"H": 4})
    expect(game, "fH-t1", "king-on-empty", "4♥")


def test_one_lower() -> None:
    game = game_from([col("", "KS"), col("", "7S")], waste="5H")
    expect(game, "w-t2", "one-lower", "5♥", "7♠")
    # one-lower before alternate-colors: a 5♠ on a 7♠ breaks both
    game = game_from([col("", "KS"), col("", "7S")], waste="5S")
    expect(game, "w-t2", "one-lower", "5♠", "7♠")


COLOR_WORDS = {"en": ("black", "red"), "nl": ("zwarte", "rood"), "sv": ("svart", "röd")}


def test_alternate_colors(language: str) -> None:
    game = game_from([col("", "KS"), col("", "6H")], waste="5H")
    error = expect(game, "w-t2", "alternate-colors", "5♥", "6♥")
    black, red = COLOR_WORDS[language]
    assert black in error.reason
    assert red in error.reason


def test_target_errors_from_a_column() -> None:
    game = game_from([col("", "9S 8H"), col("", "9D"), col("", "TS"), col("", "5C")])
    # the implied run led by the card one below the target's top: the 8♥ onto the 9♦
    expect(game, "t1-t2", "alternate-colors", "8♥", "9♦")
    # led by the 9: the 9♠ onto the 10♠
    expect(game, "t1-t3", "alternate-colors", "9♠", "10♠")
    # no 4 in the run: the whole run, and the error is about its first card, the 9♠
    expect(game, "t1-t4", "one-lower", "9♠", "5♣")


def test_implied_run_on_an_empty_column_is_about_the_first_card() -> None:
    game = game_from([col("", ""), col("", "9S 8H")])
    expect(game, "t2-t1", "king-on-empty", "9♠")


ONE_PER_CODE: list[tuple[str, Callable[[], Klondike], str, tuple[str, ...]]] = [
    ("game-over", won_game, "d", ()),
    ("stock-empty", lambda: game_from([col("", "KS")], rest="t1"), "d", ()),
    ("stock-not-empty", lambda: game_from([col("", "KS")], stock="2H"), "r", ()),
    ("no-passes-left", lambda: game_from([col("", "KS")], waste="2H", rest="t1", rules=TRADITIONAL), "r", ()),
    ("empty-source", lambda: game_from([col("", "KS")]), "w-t2", ()),
    ("face-down", lambda: game_from([col("5H", "KS")]), "5H-f", ("5♥",)),
    ("waste-top-only", lambda: game_from([col("", "KS")], waste="QH 5H"), "QH-t1", ("Q♥", "5♥")),
    ("foundation-top-only", lambda: game_from([col("", "KS")], found={"D": 9}), "8D-t1", ("8♦", "9♦")),
    (
        "foundation-return-off",
        lambda: game_from([col("", "KS")], found={"D": 12}, rules=TRADITIONAL),
        "fD-t1",
        ("Q♦",),
    ),
    ("one-card-to-foundation", lambda: game_from([col("", "KS QH")], found={"S": 12}), "KS-f", ("K♠",)),
    ("foundation-suit", lambda: game_from([col("", "KS QH")], found={"H": 11}), "t1-fS", ("Q♥",)),
    ("foundation-order", lambda: game_from([col("", "KS QH")], found={"H": 10}), "t1-f", ("Q♥", "J♥")),
    ("king-on-empty", lambda: game_from([col("", "KS QH")]), "QH-t2", ("Q♥",)),
    ("one-lower", lambda: game_from([col("", "KS QH"), col("", "TS")]), "t2-t1", ("10♠", "Q♥")),
    ("alternate-colors", lambda: game_from([col("", "KS QH"), col("", "JD")]), "t2-t1", ("J♦", "Q♥")),
]


@pytest.mark.parametrize(("rule", "make", "move", "names"), ONE_PER_CODE, ids=[c[0] for c in ONE_PER_CODE])
def test_each_code_in_a_constructed_position(
    rule: str, make: Callable[[], Klondike], move: str, names: tuple[str, ...]
) -> None:
    expect(make(), move, rule, *names)


def test_every_code_is_covered() -> None:
    assert sorted(rule for rule, *_ in ONE_PER_CODE) == sorted(CODES)


def test_codes_are_stable_strings() -> None:
    from patiencelab.core.errors import RULE_CODES

    assert set(RULE_CODES) == set(CODES)
    with pytest.raises(ValueError, match="no-such-rule"):
        IllegalMoveError("no-such-rule", "x")


@pytest.mark.parametrize("text", ["t0-t1", "x", "w-w", "t1-t1", "d-t1", "", "t8-t1", "w-t9"])
def test_invalid_move_text_raises_invalid_move_error_and_changes_nothing(text: str) -> None:
    game = Klondike(seed=5)
    game.play("d")
    before = state(game)
    with pytest.raises(InvalidMoveError):
        game.play(text)
    with pytest.raises(InvalidMoveError):
        game.check(text)
    with pytest.raises(InvalidMoveError):
        game.can_play(text)
    assert state(game) == before


@pytest.mark.parametrize("text", ["t7-f", "w-t7", "t7-t1", "t1-t7"])
def test_nonexistent_column_in_six_column_game(text: str) -> None:
    game = Klondike(seed=5, rules=Rules.preset("six-column"))
    before = state(game)
    with pytest.raises(InvalidMoveError):
        game.play(text)
    with pytest.raises(InvalidMoveError):
        game.check(text)
    assert state(game) == before
