"""Suits and cards: immutable values with the notation of docs/script.md (``TH``, ``5s``, ``10♥``)."""

from __future__ import annotations

import enum
from dataclasses import dataclass

from patiencelab.core.errors import PatienceError, quote
from patiencelab.core.limits import MAX_CARD_TEXT, check_instance, check_length, check_whole

__all__ = ["CARD_PATTERN", "RANKS", "Card", "Color", "Suit", "full_deck"]

#: Rank letters, index = rank - 1.
RANKS = "A23456789TJQK"
#: A card's code as the board and the protocol write it (the whole code): rank letter, then suit letter. The
#: front end (``js/vocabulary.ts``) and the protocol's schema hold the same pattern (a test keeps them equal).
CARD_PATTERN = r"[A2-9TJQK][CDHS]"


class Color(enum.Enum):
    """The colour of a suit."""

    BLACK = "black"
    RED = "red"


class Suit(enum.Enum):
    """The four suits, in the order of the ordered deck: clubs, diamonds, hearts, spades."""

    CLUBS = "C"
    DIAMONDS = "D"
    HEARTS = "H"
    SPADES = "S"

    def __repr__(self) -> str:
        return f"Suit.{self.name}"

    def __str__(self) -> str:
        return self.value

    @property
    def color(self) -> Color:
        """Red for diamonds and hearts, black for clubs and spades."""
        return Color.RED if self in (Suit.DIAMONDS, Suit.HEARTS) else Color.BLACK

    @property
    def symbol(self) -> str:
        """The suit's symbol, such as ``♥``."""
        return _SUIT_SYMBOLS[self]

    @property
    def index(self) -> int:
        """0 for clubs up to 3 for spades."""
        return _SUIT_INDEX[self]

    @classmethod
    def parse(cls, text: str) -> Suit:
        """Read a suit from its letter (any case) or symbol."""
        if not isinstance(text, str):
            raise PatienceError(f"a suit must be text, not {type(text).__name__}")
        check_length(text, MAX_CARD_TEXT, "a suit")
        suit = _SUIT_BY_TEXT.get(text.strip().upper())
        if suit is None:
            raise PatienceError(f"{quote(text)} is not a suit: use C, D, H, S or ♣ ♦ ♥ ♠")
        return suit


_SUIT_SYMBOLS = {Suit.CLUBS: "♣", Suit.DIAMONDS: "♦", Suit.HEARTS: "♥", Suit.SPADES: "♠"}
_SUIT_INDEX = {suit: i for i, suit in enumerate(Suit)}
_SUIT_BY_TEXT = {**{s.value: s for s in Suit}, **{sym: s for s, sym in _SUIT_SYMBOLS.items()}}


@dataclass(frozen=True, slots=True)
class Card:
    """A playing card: ``rank`` 1 (Ace) to 13 (King) and a ``suit``.

    ``str(card)`` is the notation (``TH``); ``Card.parse`` reads ``TH``, ``10h``, ``10♥``.
    ``Card.parse`` returns one shared instance per card, so parsed cards compare fast by identity.

    >>> card = Card.parse("10♥")
    >>> card, str(card), card.symbol, card.is_red
    (Card(10, Suit.HEARTS), 'TH', '10♥', True)
    """

    rank: int
    suit: Suit

    def __post_init__(self) -> None:
        check_whole(self.rank, "a card's rank", low=1, high=13)
        check_instance(self.suit, "a card's suit", Suit)

    def __repr__(self) -> str:
        return f"Card({self.rank}, {self.suit!r})"

    def __str__(self) -> str:
        return RANKS[self.rank - 1] + self.suit.value

    @property
    def color(self) -> Color:
        """The colour of the card's suit."""
        return self.suit.color

    @property
    def is_red(self) -> bool:
        """True for diamonds and hearts."""
        return self.suit.color is Color.RED

    @property
    def symbol(self) -> str:
        """The card with its suit symbol and a plain 10, such as ``10♥``."""
        rank = "10" if self.rank == 10 else RANKS[self.rank - 1]
        return rank + self.suit.symbol

    @property
    def index(self) -> int:
        """The card's place in the ordered deck ``AC..KC AD..KD AH..KH AS..KS``: 0 to 51."""
        return self.suit.index * 13 + self.rank - 1

    @classmethod
    def parse(cls, text: str) -> Card:
        """Read a card: rank ``A 2-9 T J Q K`` (or ``10``), suit ``C D H S`` or ``♣ ♦ ♥ ♠``, any case."""
        if not isinstance(text, str):
            raise PatienceError(f"a card must be text such as '5H', not {type(text).__name__}")
        check_length(text, MAX_CARD_TEXT, "a card")
        card = _CARD_BY_TEXT.get(text.strip().upper())
        if card is None:
            raise PatienceError(
                f"{quote(text)} is not a card: write a rank (A, 2-9, T or 10, J, Q, K) and a suit (C, D, H, S)"
            )
        return card

    @classmethod
    def from_index(cls, index: int) -> Card:
        """The card at ``index`` (0 to 51) of the ordered deck."""
        return _DECK[check_whole(index, "index", low=0, high=51)]


def _card_texts(card: Card) -> list[str]:
    ranks = [RANKS[card.rank - 1]] + (["10"] if card.rank == 10 else [])
    suits = [card.suit.value, card.suit.symbol]
    return [r + s for r in ranks for s in suits]


_DECK: tuple[Card, ...] = tuple(Card(rank, suit) for suit in Suit for rank in range(1, 14))
_CARD_BY_TEXT: dict[str, Card] = {text: card for card in _DECK for text in _card_texts(card)}


def full_deck() -> tuple[Card, ...]:
    """The 52 cards in the ordered deck ``AC..KC AD..KD AH..KH AS..KS``."""
    return _DECK
