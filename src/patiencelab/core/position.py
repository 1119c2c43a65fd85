"""Positions: immutable snapshots of where every card lies, their JSON form, and dealing."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from patiencelab.core.cards import Card, Suit, full_deck
from patiencelab.core.errors import ArgumentTypeError, InvalidPositionError, PatienceError, quote, unknown_fields
from patiencelab.core.kernel import fits
from patiencelab.core.limits import MAX_DEAL_TEXT, check_instance, check_length, check_seed, check_whole
from patiencelab.core.rules import Rules

#: The most recycles a position may count (more than any game could make).
MAX_RECYCLES = 1_000_000_000

__all__ = [
    "MAX_RECYCLES",
    "Column",
    "Position",
    "check_deal",
    "check_source",
    "deal_piles",
    "deal_position",
    "parse_deal",
    "seeded_deal",
]


@dataclass(frozen=True, slots=True)
class Column:
    """One tableau column: ``down`` (face-down) and ``up`` (face-up) cards, bottom first."""

    down: tuple[Card, ...] = ()
    up: tuple[Card, ...] = ()

    def __len__(self) -> int:
        return len(self.down) + len(self.up)

    @property
    def top(self) -> Card | None:
        """The card on top, or ``None`` for an empty column."""
        return self.up[-1] if self.up else None


@dataclass(frozen=True, slots=True)
class Position:
    """Where every card lies. ``stock`` is in draw order (next card first); ``waste`` bottom first;
    ``foundations`` maps each suit to the number of its cards on the foundation (Ace up to that rank).

    ``stock_seen`` is what a player knows of the stock, not where a card lies: how many of the stock's cards,
    from the next one to draw, the player has seen (a game made from this position hands them to its
    :meth:`~patiencelab.core.engine.Engine.player_view`; the others stay unknown until drawn in that game). It is
    0 unless said otherwise, whatever ``recycles`` is: a position says nothing of what its player saw before.
    A game's :meth:`~patiencelab.core.engine.Engine.snapshot` fills it in. It is left out of comparisons, hashes
    and ``repr``: two positions with the same cards in the same places are equal.
    """

    tableau: tuple[Column, ...]
    stock: tuple[Card, ...]
    waste: tuple[Card, ...]
    foundations: Mapping[Suit, int]
    recycles: int = 0
    stock_seen: int = field(default=0, compare=False, repr=False)

    def to_json(self) -> dict[str, Any]:
        """The JSON form of docs/script.md ("Records and positions"); ``stock_seen`` only when it is not 0."""
        data = {
            "tableau": [{"down": [str(c) for c in col.down], "up": [str(c) for c in col.up]} for col in self.tableau],
            "stock": [str(c) for c in self.stock],
            "waste": [str(c) for c in self.waste],
            "foundations": {suit.value: self.foundations.get(suit, 0) for suit in Suit},
            "recycles": self.recycles,
        }
        if self.stock_seen:
            data["stock_seen"] = self.stock_seen
        return data

    @classmethod
    def from_json(cls, data: object, *, columns: int | None = None) -> Position:
        """Read and check a position; :class:`InvalidPositionError` names what is wrong."""
        if not isinstance(data, Mapping):
            raise InvalidPositionError(f"a position must be an object, not {type(data).__name__}")
        unknown = unknown_fields(data, ("tableau", "stock", "waste", "foundations", "recycles", "stock_seen"))
        if unknown:
            raise InvalidPositionError(f"unknown position field(s): {unknown}")
        tableau = _read_tableau(data.get("tableau"), columns)
        stock = _read_cards(data.get("stock", []), "stock")
        waste = _read_cards(data.get("waste", []), "waste")
        foundations = _read_foundations(data.get("foundations", {}))
        recycles = check_whole(
            data.get("recycles", 0), "recycles", low=0, high=MAX_RECYCLES, error=InvalidPositionError
        )
        stock_seen = check_whole(
            data.get("stock_seen", 0), "stock_seen", low=0, high=len(stock), error=InvalidPositionError
        )
        position = cls(tableau, stock, waste, foundations, recycles, stock_seen)
        position.check()
        return position

    def check(self, rules: Rules | None = None) -> None:
        """Raise :class:`InvalidPositionError` unless every card is there once, face-up runs are in order,
        ``recycles`` is a whole number from 0 (and, under ``rules``, within their pass limit: a game of one pass
        has made no recycle) and ``stock_seen`` a whole number from 0 to the stock's size; under ``rules`` also
        unless the position has their number of columns.
        """
        if rules is not None:
            check_instance(rules, "rules", Rules)
        recycles = check_whole(self.recycles, "recycles", low=0, high=MAX_RECYCLES, error=InvalidPositionError)
        check_whole(self.stock_seen, "stock_seen", low=0, high=len(self.stock), error=InvalidPositionError)
        if rules is not None:
            if len(self.tableau) != rules.columns:
                raise InvalidPositionError(
                    f"the position has {len(self.tableau)} columns; the rules have {rules.columns}"
                )
            if rules.max_passes is not None and recycles > rules.max_passes - 1:
                passes = f"{rules.max_passes} pass" + ("es" if rules.max_passes > 1 else "")
                raise InvalidPositionError(
                    f"recycles is {recycles:,}, but the rules allow {passes} through the stock "
                    f"(at most {rules.max_passes - 1:,} recycles)"
                )
        seen: dict[Card, str] = {}

        def place(card: Card, where: str) -> None:
            if card in seen:
                raise InvalidPositionError(f"the {card.symbol} is both in {seen[card]} and in {where}")
            seen[card] = where

        for suit in Suit:
            for rank in range(1, self.foundations.get(suit, 0) + 1):
                place(Card(rank, suit), f"foundation {suit.value}")
        for i, col in enumerate(self.tableau, 1):
            if col.down and not col.up:
                raise InvalidPositionError(f"column t{i} has face-down cards but no face-up card")
            for card in col.down + col.up:
                place(card, f"column t{i}")
            for lower, upper in zip(col.up, col.up[1:]):
                if not fits(upper.index, lower.index):
                    raise InvalidPositionError(
                        f"column t{i}: the {upper.symbol} cannot lie on the {lower.symbol} in a face-up run "
                        "(runs go down by one in alternating colours)"
                    )
        for card in self.stock:
            place(card, "the stock")
        for card in self.waste:
            place(card, "the waste")
        missing = [c.symbol for c in full_deck() if c not in seen]
        if missing:
            raise InvalidPositionError(f"{len(missing)} card(s) missing: {' '.join(missing)}")


def _read_cards(value: object, where: str) -> tuple[Card, ...]:
    if not isinstance(value, Sequence) or isinstance(value, str):
        raise InvalidPositionError(f"{where} must be a list of cards, not {type(value).__name__}")
    if len(value) > 52:
        raise InvalidPositionError(f"{where} holds {len(value)} items; there are 52 cards")
    cards = []
    for i, text in enumerate(value):
        try:
            cards.append(Card.parse(text))
        except PatienceError as exc:
            raise InvalidPositionError(f"{where}, card {i + 1}: {exc}") from None
    return tuple(cards)


def _read_tableau(value: object, columns: int | None) -> tuple[Column, ...]:
    if not isinstance(value, Sequence) or isinstance(value, str) or not 1 <= len(value) <= 9:
        raise InvalidPositionError("tableau must be a list of 1 to 9 columns")
    if columns is not None and len(value) != columns:
        raise InvalidPositionError(f"tableau has {len(value)} columns; the rules have {columns}")
    result = []
    for i, col in enumerate(value, 1):
        if not isinstance(col, Mapping) or unknown_fields(col, ("down", "up")):
            raise InvalidPositionError(f"column t{i} must be an object with 'down' and 'up' lists")
        down = _read_cards(col.get("down", []), f"column t{i} (down)")
        up = _read_cards(col.get("up", []), f"column t{i} (up)")
        result.append(Column(down, up))
    return tuple(result)


def _read_foundations(value: object) -> dict[Suit, int]:
    if not isinstance(value, Mapping):
        raise InvalidPositionError("foundations must be an object such as {'C': 0, 'D': 3, 'H': 0, 'S': 1}")
    result = dict.fromkeys(Suit, 0)
    for key, count in value.items():
        try:
            suit = Suit.parse(key)
        except PatienceError:
            raise InvalidPositionError(f"foundations: {quote(key)} is not a suit") from None
        result[suit] = check_whole(count, f"foundation {suit.value}", low=0, high=13, error=InvalidPositionError)
    return result


def parse_deal(text: str) -> tuple[Card, ...]:
    """Read a deal: the 52 cards in dealing order as one string of 104 characters."""
    if not isinstance(text, str):
        raise InvalidPositionError(f"a deal must be a string of 104 characters, not {type(text).__name__}")
    check_length(text, MAX_DEAL_TEXT, "a deal", InvalidPositionError)
    text = text.strip()
    if len(text) != 104:
        raise InvalidPositionError(f"a deal has 104 characters (52 cards of two), not {len(text)}")
    cards = []
    for i in range(0, 104, 2):
        try:
            cards.append(Card.parse(text[i : i + 2]))
        except PatienceError as exc:
            raise InvalidPositionError(f"deal, card {i // 2 + 1}: {exc}") from None
    return check_deal(cards)


def check_deal(cards: Sequence[Card]) -> tuple[Card, ...]:
    """``cards`` as a tuple if they are the 52 cards, each once; else :class:`InvalidPositionError` says why."""
    if not isinstance(cards, Sequence) or isinstance(cards, str):
        raise ArgumentTypeError(f"a deal is a sequence of 52 cards, not {type(cards).__name__}")
    cards = tuple(cards)
    if len(cards) != 52 or not all(isinstance(c, Card) for c in cards):
        raise InvalidPositionError(f"a deal is 52 cards, not {len(cards)} items")
    repeated = [] if len(set(cards)) == 52 else sorted({c.symbol for c in cards if cards.count(c) > 1})
    if repeated:
        raise InvalidPositionError(f"deal repeats {' '.join(repeated)}")
    return cards


def check_source(source: object, rules: object = None) -> None:
    """Raise an :class:`~patiencelab.core.errors.ArgumentTypeError` unless ``source`` is a :class:`Position` or a
    game (anything with ``rules`` and ``snapshot()``) and ``rules`` a :class:`Rules` or ``None``: what the
    solver is given, checked before the compiled search sees it.
    """
    if rules is not None:
        check_instance(rules, "rules", Rules)
    if isinstance(source, Position):
        return
    if not (callable(getattr(source, "snapshot", None)) and isinstance(getattr(source, "rules", None), Rules)):
        raise ArgumentTypeError(f"the solver needs a Position or a game, not {type(source).__name__}")


def seeded_deal(seed: int) -> tuple[Card, ...]:
    """The ordered deck shuffled by ``random.Random(seed).shuffle()``, in dealing order."""
    seed = check_seed(seed)
    cards = list(full_deck())
    random.Random(seed).shuffle(cards)
    return tuple(cards)


def deal_piles(cards: Sequence[Card], face_down: Sequence[int]) -> tuple[list[list[Card]], list[Card]]:
    """Deal ``cards`` (dealing order) row by row: each column takes cards until it has its ``face_down`` count
    plus one. Returns the columns (bottom first; the last card of each is its face-up card) and the stock.
    """
    cards = check_deal(cards)
    if not isinstance(face_down, Sequence) or not all(isinstance(n, int) and n >= 0 for n in face_down):
        raise ArgumentTypeError(f"face_down must be counts of face-down cards, not {quote(face_down)}")
    if not face_down or sum(face_down) + len(face_down) > 52:
        raise InvalidPositionError(f"face_down {quote(face_down)} deals no column or more than 52 cards")
    need = [n + 1 for n in face_down]
    piles: list[list[Card]] = [[] for _ in need]
    it = iter(cards)
    for row in range(max(need)):
        for col, n in enumerate(need):
            if row < n:
                piles[col].append(next(it))
    return piles, list(it)


def deal_position(cards: Sequence[Card], rules: Rules) -> Position:
    """Deal ``cards`` (dealing order) under ``rules``; the cards after the tableau form the stock."""
    piles, stock = deal_piles(cards, check_instance(rules, "rules", Rules).face_down)
    tableau = tuple(Column(tuple(p[:-1]), (p[-1],)) for p in piles)
    return Position(tableau, tuple(stock), (), dict.fromkeys(Suit, 0), 0)
