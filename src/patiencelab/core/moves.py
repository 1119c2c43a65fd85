"""Moves and their notation: ``d``, ``r``, ``w-t3``, ``t6-f``, ``t2-t5``, ``fH-t4``, ``5H-t5``."""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from patiencelab.core.cards import Card, Suit
from patiencelab.core.errors import InvalidMoveError, PatienceError, quote
from patiencelab.core.limits import MAX_MOVE_TEXT, check_length

__all__ = ["DRAW", "RECYCLE", "Move", "is_foundation", "is_tableau"]

# Used with fullmatch only: ``$`` would also match before a final newline.
_PLACE = re.compile(r"w|t[1-9]|f[cdhs♣♦♥♠]?", re.IGNORECASE)


def _normal_place(text: str) -> str:
    """``T3`` -> ``t3``, ``f♥`` -> ``fH``."""
    low = text.lower()
    if low[0] == "f" and len(text) == 2:
        return "f" + Suit.parse(text[1]).value
    return low


def is_tableau(place: str | None) -> bool:
    """True for ``t1`` .. ``t9``."""
    return isinstance(place, str) and place[:1] == "t"


def is_foundation(place: str | None) -> bool:
    """True for ``f`` and ``fC`` .. ``fS``."""
    return isinstance(place, str) and place[:1] == "f"


@dataclass(frozen=True, slots=True)
class Move:
    """One action of a game.

    ``source`` is ``"d"`` (draw), ``"r"`` (recycle), ``"w"``, ``"t1"``..``"t9"`` or ``"fC"``..``"fS"``;
    ``target`` is ``None`` for draw and recycle, else ``"t1"``..``"t9"``, ``"f"`` (the foundation of the moving
    card's suit) or ``"fC"``..``"fS"``. A card-form move (``5H-t5``) names the moving ``card`` and has
    ``source=None`` until a game resolves it. A move that names both a source and a card prints in card form:
    a game plays one only where the place form would be ambiguous (part of a run moved to an empty column
    when any card may fill one).

    >>> move = Move.parse("t2-f")
    >>> move.source, move.target, str(move)
    ('t2', 'f', 't2-f')
    >>> Move.parse("5H-t5").card
    Card(5, Suit.HEARTS)
    """

    source: str | None
    target: str | None = None
    card: Card | None = None

    def __post_init__(self) -> None:
        source, target, card = self.source, self.target, self.card
        if card is not None and not isinstance(card, Card):
            raise InvalidMoveError(f"a move's card must be a Card, not {quote(card)}")
        if source in ("d", "r"):
            if target is not None or card is not None:
                raise InvalidMoveError(f"{quote(source)} takes no target or card")
            return
        if source is None and card is None:
            raise InvalidMoveError("a move needs a source place or a card")
        for name, place in (("source", source), ("target", target)):
            if place is None and name == "source":
                continue
            if not isinstance(place, str) or not _PLACE.fullmatch(place) or place != _normal_place(place):
                raise InvalidMoveError(f"{quote(place)} is not a {name} place: use w, t1..t9, f, fC, fD, fH, fS")
        if source is not None and (source == "f" or not (source == "w" or source[0] in "tf")):
            raise InvalidMoveError(f"{quote(source)} cannot be a source: name the foundation's suit (fH)")
        if target == "w":
            raise InvalidMoveError("nothing may be moved onto the waste")
        if source == target:
            raise InvalidMoveError(f"a move needs two different places, not {source}-{target}")
        if is_foundation(source) and is_foundation(target):
            raise InvalidMoveError("a card cannot move from one foundation to another")

    def __repr__(self) -> str:
        return f"Move.parse({str(self)!r})"

    def __str__(self) -> str:
        if self.source in ("d", "r"):
            return self.source
        head = str(self.card) if self.card is not None else self.source
        return f"{head}-{self.target}"

    @property
    def is_draw(self) -> bool:
        """True for a draw from the stock."""
        return self.source == "d"

    @property
    def is_recycle(self) -> bool:
        """True for turning the waste over into the stock."""
        return self.source == "r"

    @classmethod
    def parse(cls, text: str | Move) -> Move:
        """Read a move from its notation; a :class:`Move` is returned as it is."""
        if isinstance(text, Move):
            return text
        if not isinstance(text, str):
            raise InvalidMoveError(f"a move must be text such as 't2-t5', not {type(text).__name__}")
        check_length(text, MAX_MOVE_TEXT, "a move", InvalidMoveError)
        return _parse(text)

    @classmethod
    def _parse(cls, text: str) -> Move:
        body = text.strip()
        low = body.lower()
        if low in ("d", "r"):
            return DRAW if low == "d" else RECYCLE
        head, sep, tail = body.partition("-")
        if not sep or not head.strip() or not tail or head != head.strip():
            raise InvalidMoveError(
                f"{quote(text)} is not a move: write d, r, or source-target such as w-t3, t6-f, t2-t5, 5H-t5"
            )
        if not _PLACE.fullmatch(tail):
            raise InvalidMoveError(f"{quote(text)}: {quote(tail)} is not a target place (t1..t9, f, fC, fD, fH, fS)")
        target = _normal_place(tail)
        if _PLACE.fullmatch(head):
            return cls(_normal_place(head), target)
        try:
            card = Card.parse(head)
        except PatienceError:
            raise InvalidMoveError(
                f"{quote(text)}: {quote(head)} is neither a place (w, t1..t9, fH) nor a card"
            ) from None
        return cls(None, target, card)


@functools.lru_cache(maxsize=4096)
def _parse(text: str) -> Move:
    """:meth:`Move._parse` with a cache of the last 4096 texts read; only texts of at most ``MAX_MOVE_TEXT``
    characters reach it and only moves are kept (a text that is not a move raises, and is not cached).
    """
    return Move._parse(text)


#: Draw from the stock.
DRAW = Move("d")
#: Turn the waste over into a new stock.
RECYCLE = Move("r")
