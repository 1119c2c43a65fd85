"""Deal strings of other Klondike programs: Klondike-Solver's 156 digits and Solvitaire's JSON.

Every format lists the same 52 cards in our dealing order (docs/script.md, "Records and positions"): the
tableau row by row, then the stock, first drawn first.

>>> from patiencelab.core.position import seeded_deal
>>> cards = seeded_deal(7)
>>> from_deal_string(to_deal_string(cards, "klondike-solver"), "klondike-solver") == cards
True
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Literal

from patiencelab.core.cards import RANKS, Card, Suit
from patiencelab.core.errors import InvalidPositionError, PatienceError, quote
from patiencelab.core.limits import MAX_DEAL_TEXT, check_choice, check_length, load_json
from patiencelab.core.position import check_deal, deal_piles, parse_deal

__all__ = ["FORMATS", "DealFormat", "from_deal_string", "to_deal_string"]

#: The names of the deal string formats (:data:`FORMATS`).
DealFormat = Literal["patiencelab", "klondike-solver", "solvitaire"]
#: The formats :func:`to_deal_string` and :func:`from_deal_string` know.
FORMATS: tuple[str, ...] = ("patiencelab", "klondike-solver", "solvitaire")

_STANDARD = (0, 1, 2, 3, 4, 5, 6)
_SUITS = tuple(Suit)


def _check_format(format: object) -> None:
    check_choice(format, "deal format", FORMATS)


def to_deal_string(cards: Sequence[Card], format: DealFormat, *, face_down: Sequence[int] = _STANDARD) -> str:
    """Write ``cards`` (dealing order) in ``format``; ``face_down`` shapes the Solvitaire tableau."""
    _check_format(format)
    cards = check_deal(cards)
    if format == "patiencelab":
        return "".join(map(str, cards))
    if format == "klondike-solver":
        return "".join(f"{c.rank:02d}{c.suit.index + 1}" for c in cards)
    piles, rest = deal_piles(cards, face_down)
    tableau = [[_solvitaire_card(c, up=k == len(p) - 1) for k, c in enumerate(p)] for p in piles]
    stock = [_solvitaire_card(c, up=False) for c in reversed(rest)]
    # Only the two fields a fresh deal has: Solvitaire reads "foundations" as a flat list of cards, and its reader
    # crashed on the four empty lists written here before.
    return json.dumps({"tableau piles": tableau, "stock": stock})


def _solvitaire_card(card: Card, *, up: bool) -> str:
    rank = "10" if card.rank == 10 else RANKS[card.rank - 1]
    return rank + (card.suit.value if up else card.suit.value.lower())


def from_deal_string(text: str, format: DealFormat) -> tuple[Card, ...]:
    """Read a deal written in ``format``; :class:`InvalidPositionError` names what is wrong."""
    _check_format(format)
    if not isinstance(text, str):
        raise InvalidPositionError(f"a deal string must be text, not {type(text).__name__}")
    check_length(text, MAX_DEAL_TEXT, "a deal string", InvalidPositionError)
    if format == "patiencelab":
        return parse_deal(text)
    if format == "klondike-solver":
        return _read_klondike_solver(text)
    return _read_solvitaire(text)


def _read_klondike_solver(text: str) -> tuple[Card, ...]:
    digits = "".join(text.split())
    ascii_digits = digits.isascii() and digits.isdigit()  # int() and str.isdigit() accept other scripts' digits
    if len(digits) != 156 or not ascii_digits:
        raise InvalidPositionError(
            f"a Klondike-Solver deal is 156 digits (rank 01-13 and suit 1-4 per card), not {len(digits)} characters"
            if ascii_digits
            else "a Klondike-Solver deal holds digits only (0 to 9)"
        )
    cards = []
    for i in range(0, 156, 3):
        rank, suit = int(digits[i : i + 2]), int(digits[i + 2])
        if not 1 <= rank <= 13 or not 1 <= suit <= 4:
            raise InvalidPositionError(
                f"Klondike-Solver deal, card {i // 3 + 1}: {quote(digits[i : i + 3])} is not rank 01-13 and suit 1-4"
            )
        cards.append(Card(rank, _SUITS[suit - 1]))
    return check_deal(cards)


def _parse_solvitaire_card(text: object, where: str) -> tuple[Card, bool]:
    if not isinstance(text, str) or len(text) < 2:
        raise InvalidPositionError(f"Solvitaire deal, {where}: {quote(text)} is not a card such as '10h' or 'QS'")
    rank, suit = text[:-1], text[-1]
    try:
        card = Card.parse(rank + suit)
    except PatienceError:
        raise InvalidPositionError(f"Solvitaire deal, {where}: {quote(text)} is not a card") from None
    return card, suit.isupper()


def _read_solvitaire(text: str) -> tuple[Card, ...]:
    data = load_json(text, "a Solvitaire deal", InvalidPositionError, limit=MAX_DEAL_TEXT)
    if not isinstance(data, dict) or not isinstance(data.get("tableau piles"), list) or not data["tableau piles"]:
        raise InvalidPositionError("a Solvitaire deal is an object with 'tableau piles' (a list of piles) and 'stock'")
    waste, foundations = data.get("waste", []), data.get("foundations", [])
    if (
        not isinstance(waste, list)
        or waste
        or not isinstance(foundations, list)
        or any(not isinstance(pile, list) or pile for pile in foundations)
    ):
        raise InvalidPositionError("a Solvitaire deal has an empty waste and empty foundations (empty lists)")
    piles: list[list[Card]] = []
    for i, pile in enumerate(data["tableau piles"], 1):
        if not isinstance(pile, list) or not pile:
            raise InvalidPositionError(f"Solvitaire deal, tableau pile {i} must be a non-empty list of cards")
        cards = []
        for k, item in enumerate(pile):
            card, up = _parse_solvitaire_card(item, f"tableau pile {i}")
            if up != (k == len(pile) - 1):
                raise InvalidPositionError(
                    f"Solvitaire deal, tableau pile {i}: only the top card of a dealt pile is face up"
                )
            cards.append(card)
        piles.append(cards)
    stock = data.get("stock", [])
    if not isinstance(stock, list):
        raise InvalidPositionError("Solvitaire deal: 'stock' must be a list of cards")
    order: list[Card] = []
    for row in range(max(len(p) for p in piles)):
        order.extend(p[row] for p in piles if row < len(p))
    order.extend(_parse_solvitaire_card(item, "stock")[0] for item in reversed(stock))
    return check_deal(order)
