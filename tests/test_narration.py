"""Narration: what a move does and which rule allows it, in English, Dutch and Swedish; rules in words."""

from __future__ import annotations

import pytest

from patiencelab import Klondike, Rules
from patiencelab.core.cards import Card
from patiencelab.core.i18n import LANGUAGES, card_name, message
from patiencelab.core.narration import narrate_played

from .model_helpers import col, game_from


def test_a_move_onto_a_column_names_cards_columns_and_the_rule() -> None:
    game = Klondike(seed=7)
    assert game.explain("t1-t3") == ("Move the 5♦ from column 1 onto the 6♠ in column 3: red on black, one rank lower.")
    game.lang = "nl"
    assert game.explain("t1-t3") == "Leg de 5♦ van kolom 1 op de 6♠ in kolom 3: rood op zwart, één lager."
    game.lang = "sv"
    assert game.explain("t1-t3") == "Flytta 5♦ från kolumn 1 till 6♠ i kolumn 3: rött på svart, ett steg lägre."


def test_a_turned_card_and_points_are_mentioned_but_the_card_is_not_named() -> None:
    game = Klondike(seed=7)
    hidden = game.tableau[4].down[-1]
    text = game.explain("t5-t3")
    assert "uncovers a face-down card in column 5" in text and text.endswith("Score: +5.")
    assert hidden.symbol not in text
    game.play("t5-t3")
    played = game.last_played()
    assert played is not None and played.turned == hidden
    told = narrate_played(game, played)
    assert f"The {hidden.symbol} turns face up in column 5." in told
    move_sentence = text.split(" This uncovers")[0]
    assert told.startswith(move_sentence) and told.endswith("Score: +5."), "explained before, narrated after: alike"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_kind_of_move_is_narrated(lang: str) -> None:
    game = game_from(
        [col("", "KS"), col("", "6H"), col("", "AH"), col("9D", "QD JS"), col("", ""), col("", "5S")],
        waste="2H",
        stock="3D",
        found={"H": 0, "C": 5},
        rules=Rules(draw=1),
    )
    game.lang = lang
    texts = {move: game.explain(move) for move in ("t3-f", "t6-t2", "t1-t5", "fC-t2", "d", "t4-t1")}
    assert all(texts.values()), texts
    assert len(set(texts.values())) == len(texts), "each kind has its own sentence"
    assert card_name(Card.parse("AH"), lang) in texts["t3-f"] and "5♠" in texts["t6-t2"] and "K♠" in texts["t1-t5"]
    assert "5♣" in texts["fC-t2"]
    assert message("explain.turn-up", lang, column="4") in texts["t4-t1"]
    assert game.explain("d") == message("explain.draw-one", lang)


def test_illegal_moves_say_which_rule_forbids_them() -> None:
    game = Klondike(seed=7, lang="sv")
    text = game.explain("t1-t2")
    assert text.startswith("Inte tillåtet. ") and game.check("t1-t2").reason in text  # type: ignore[union-attr]


def test_recycles_with_a_pass_limit_say_how_many_are_left() -> None:
    game = game_from([col("", "KS")], waste="2H 3H", rest="t1", rules=Rules.preset("traditional", draw=3))
    assert "After this one, 1 pass through the stock is left." in game.explain("r")


def test_winning_move_says_the_game_is_won() -> None:
    game = game_from([col("", "KS")], found={"C": 13, "D": 13, "H": 13, "S": 12})
    assert game.explain("t1-f").endswith("the game is won!")


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("preset", ["standard", "traditional", "six-column"])
def test_rules_describe_themselves(lang: str, preset: str) -> None:
    text = Rules.preset(preset, draw=3).describe(lang)
    lines = text.splitlines()
    assert lines[0] == message(f"rules.title.{preset}", lang)
    assert len(lines) == 9
    expected = {"standard": "24", "traditional": "24", "six-column": "25"}[preset]
    assert expected in lines[1]
    assert message("rules.return-off" if preset == "traditional" else "rules.return-on", lang) in lines


def test_custom_rules_are_called_custom() -> None:
    text = Rules(draw=2, empty_column="any").describe("en")
    assert text.startswith("Custom rules") and "Any card or run may fill an empty column." in text
