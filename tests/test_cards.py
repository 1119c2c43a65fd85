"""Suits and cards: notation in every accepted spelling, colours, symbols, the ordered deck."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given
from hypothesis import strategies as st

import patiencelab
from patiencelab import Card, Color, PatienceError, Suit
from patiencelab.core.cards import full_deck

SYMBOLS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
RANKS = "A23456789TJQK"


def spellings(rank: int, suit: str) -> list[str]:
    """Every spelling of one card that ``docs/script.md`` lists."""
    ranks = [RANKS[rank - 1]] + (["10"] if rank == 10 else [])
    ranks += [r.lower() for r in ranks if r.isalpha()]
    suits = [suit, suit.lower(), SYMBOLS[suit]]
    return [r + s for r in ranks for s in suits]


ALL = [(rank, suit) for suit in "CDHS" for rank in range(1, 14)]


@pytest.mark.parametrize(("rank", "suit"), ALL)
def test_every_spelling_parses_to_the_card(rank: int, suit: str) -> None:
    expected = Card(rank, Suit(suit))
    for text in spellings(rank, suit):
        assert Card.parse(text) == expected, text


@pytest.mark.parametrize(("rank", "suit"), ALL)
def test_str_is_the_two_letter_notation_and_round_trips(rank: int, suit: str) -> None:
    card = Card(rank, Suit(suit))
    assert str(card) == RANKS[rank - 1] + suit
    assert len(str(card)) == 2
    assert Card.parse(str(card)) == card
    assert Card.parse(card.symbol) == card


@pytest.mark.parametrize(("rank", "suit"), ALL)
def test_symbol_uses_a_plain_ten_and_the_suit_symbol(rank: int, suit: str) -> None:
    card = Card(rank, Suit(suit))
    rank_text = "10" if rank == 10 else RANKS[rank - 1]
    assert card.symbol == rank_text + SYMBOLS[suit]


def test_examples_from_the_design() -> None:
    assert Card.parse("TH") == Card(10, Suit.HEARTS)
    assert Card.parse("5s") == Card(5, Suit.SPADES)
    assert Card.parse("10♥") == Card(10, Suit.HEARTS)
    assert Card.parse("10♥").symbol == "10♥"
    assert str(Card.parse("10h")) == "TH"
    assert Card.parse("kd").symbol == "K♦"


@pytest.mark.parametrize(
    "text", ["", "H", "T", "1H", "11H", "0S", "1OH", "TX", "HT", "5", "5HH", "10", "♥5", "AC2C", "Z♣", "ten of hearts"]
)
def test_bad_card_text_raises_patience_error(text: str) -> None:
    with pytest.raises(PatienceError):
        Card.parse(text)


def test_non_text_card_raises_patience_error() -> None:
    with pytest.raises(PatienceError):
        Card.parse(5)  # type: ignore[arg-type]


@pytest.mark.parametrize(("rank", "suit"), [(0, Suit.CLUBS), (14, Suit.HEARTS), (True, Suit.SPADES)])
def test_bad_card_values_are_rejected(rank: int, suit: Suit) -> None:
    with pytest.raises(PatienceError):
        Card(rank, suit)


def test_bad_suit_value_is_rejected() -> None:
    with pytest.raises(PatienceError):
        Card(5, "H")  # type: ignore[arg-type]


def test_colors() -> None:
    assert Suit.CLUBS.color is Color.BLACK
    assert Suit.SPADES.color is Color.BLACK
    assert Suit.DIAMONDS.color is Color.RED
    assert Suit.HEARTS.color is Color.RED
    for rank, suit in ALL:
        card = Card(rank, Suit(suit))
        assert card.color is card.suit.color
        assert card.color is (Color.RED if suit in "DH" else Color.BLACK)


@pytest.mark.parametrize("letter", "CDHS")
def test_suit_parse_and_symbol(letter: str) -> None:
    suit = Suit(letter)
    assert Suit.parse(letter) is suit
    assert Suit.parse(letter.lower()) is suit
    assert Suit.parse(SYMBOLS[letter]) is suit
    assert suit.symbol == SYMBOLS[letter]
    assert str(suit) == letter


@pytest.mark.parametrize("text", ["", "X", "CD", "hearts", "♡"])
def test_bad_suit_text(text: str) -> None:
    with pytest.raises(PatienceError):
        Suit.parse(text)


def test_cards_are_frozen_and_hashable() -> None:
    card = Card.parse("5H")
    with pytest.raises(dataclasses.FrozenInstanceError):
        card.rank = 6  # type: ignore[misc]
    assert len({Card.parse("5H"), Card(5, Suit.HEARTS), Card.parse("5♥")}) == 1


@pytest.mark.parametrize(("rank", "suit"), ALL)
def test_repr_evaluates_back(rank: int, suit: str) -> None:
    card = Card(rank, Suit(suit))
    assert eval(repr(card), {"Card": Card, "Suit": Suit}) == card


def test_full_deck_is_the_ordered_deck() -> None:
    deck = full_deck()
    assert [str(c) for c in deck] == [r + s for s in "CDHS" for r in RANKS]
    assert len(set(deck)) == 52


def test_error_is_a_value_error() -> None:
    assert issubclass(PatienceError, ValueError)
    with pytest.raises(ValueError, match="XX"):
        Card.parse("XX")


def test_package_exports_the_values() -> None:
    for name in ("Card", "Suit", "Move", "Rules", "Scoring", "Klondike", "PatienceError"):
        assert hasattr(patiencelab, name)


@given(st.sampled_from(ALL), st.data())
def test_parse_is_case_insensitive(pair: tuple[int, str], data: st.DataObject) -> None:
    rank, suit = pair
    text = data.draw(st.sampled_from(spellings(rank, suit)))
    flipped = "".join(ch.swapcase() if data.draw(st.booleans()) else ch for ch in text)
    assert Card.parse(flipped) == Card(rank, Suit(suit))
