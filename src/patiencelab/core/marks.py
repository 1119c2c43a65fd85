"""A teacher's marks on the board: arrows between piles and circles on piles or cards, as on a chess study board.

Piles use the board's vocabulary (``stock``, ``w``, ``t1``..``t9``, ``fC``..``fS``); a circle may also name a
card (``5H``), which is circled wherever it lies face up. Marks are values: a lesson step stores them, the board
and :func:`patiencelab.svg.render` draw them.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from patiencelab.core.cards import Card
from patiencelab.core.errors import InvalidArgumentError, InvalidRecordError, PatienceError, quote, unknown_fields
from patiencelab.core.limits import check_instance
from patiencelab.core.moves import Move

__all__ = [
    "COLORS",
    "MARK_COLORS",
    "MAX_MARKS",
    "PILE_PATTERN",
    "REVIEW_LABELS",
    "Mark",
    "ReviewLabel",
    "arrow_for",
    "is_pile",
    "move_piles",
    "pile_of",
]

#: What a game's review calls a move it marks on its chart (the drop in winning chances that makes each is
#: ``patiencelab.review.chances.THRESHOLDS``; ``luck`` is a card turned up that lowered them).
ReviewLabel = Literal["inaccuracy", "mistake", "blunder", "luck"]
#: Every :data:`ReviewLabel`, the lightest first: the review's marks, a lesson's chart and the board's all use these.
REVIEW_LABELS: tuple[ReviewLabel, ...] = ("inaccuracy", "mistake", "blunder", "luck")

#: The colours a mark may have, by name, as the board and the pictures draw them (the first is the default). The
#: front end's copy, ``js/vocabulary.ts``, is generated from this (``js/vocabulary.py``; a test keeps them equal).
MARK_COLORS = {"green": "#16a34a", "red": "#dc2626", "blue": "#2563eb", "yellow": "#eab308"}
#: The names of :data:`MARK_COLORS`.
COLORS = tuple(MARK_COLORS)
#: The most marks one step may carry.
MAX_MARKS = 24

#: A pile's name in the board's vocabulary (the whole name): the stock, the waste, a column, a foundation by suit.
#: The front end (``js/vocabulary.ts``) and the protocol's schema hold the same pattern (a test keeps them equal).
PILE_PATTERN = r"stock|w|t[1-9]|f[CDHS]"
_PILE = re.compile(PILE_PATTERN)


def is_pile(place: str) -> bool:
    """True when a mark's ``place`` names a pile (stock, w, t1..t9, fC..fS) rather than a card."""
    return isinstance(place, str) and _PILE.fullmatch(place) is not None


def _check_place(place: object, *, cards: bool) -> str:
    if not isinstance(place, str) or len(place) > 8:
        raise InvalidRecordError(f"a mark needs a pile such as t3 or fH, not {quote(place)}")
    if is_pile(place):
        return place
    if cards:
        try:
            return str(Card.parse(place))
        except PatienceError:
            pass
    what = "a pile (stock, w, t1..t9, fC..fS) or a card" if cards else "a pile (stock, w, t1..t9, fC..fS)"
    raise InvalidRecordError(f"{quote(place)} is not {what}")


@dataclass(frozen=True, slots=True)
class Mark:
    """An arrow from pile ``at`` to pile ``to``, or a circle on pile or card ``at`` (``to`` is ``None``)."""

    at: str
    to: str | None = None
    color: str = COLORS[0]

    def __post_init__(self) -> None:
        object.__setattr__(self, "at", _check_place(self.at, cards=self.to is None))
        if self.to is not None:
            object.__setattr__(self, "to", _check_place(self.to, cards=False))
            if self.to == self.at:
                raise InvalidRecordError(f"an arrow needs two different piles, not {self.at} to {self.to}")
        if self.color not in COLORS:
            raise InvalidRecordError(f"unknown mark colour {quote(self.color)}: choose one of {', '.join(COLORS)}")

    @property
    def kind(self) -> Literal["arrow", "circle"]:
        """``arrow`` or ``circle``."""
        return "circle" if self.to is None else "arrow"

    def to_json(self) -> dict[str, Any]:
        """``{"arrow": ["t1", "t3"]}`` or ``{"circle": "5H"}``, with ``color`` when it is not the default."""
        data: dict[str, Any] = {"arrow": [self.at, self.to]} if self.to is not None else {"circle": self.at}
        if self.color != COLORS[0]:
            data["color"] = self.color
        return data

    @classmethod
    def from_json(cls, data: object) -> Mark:
        """Read what :meth:`to_json` wrote; :class:`InvalidRecordError` says what is wrong."""
        if not isinstance(data, Mapping) or ("arrow" in data) == ("circle" in data):
            raise InvalidRecordError('a mark is {"arrow": [from, to]} or {"circle": pile or card}')
        extra = unknown_fields(data, ("arrow", "circle", "color"))
        if extra:
            raise InvalidRecordError(f"a mark has unknown field(s): {extra}")
        color = data.get("color", COLORS[0])
        if "circle" in data:
            return cls(data["circle"], None, color)
        ends = data["arrow"]
        if not isinstance(ends, list) or len(ends) != 2:
            raise InvalidRecordError(f"an arrow is a list of two piles, not {quote(ends)}")
        if ends[1] is None:
            raise InvalidRecordError("an arrow needs a pile to point to")
        return cls(ends[0], ends[1], color)


def _check_lead(lead: object) -> None:
    if lead is not None and not (isinstance(lead, str) and lead):
        raise InvalidArgumentError(f"lead must be a card such as 5H, or None, not {quote(lead)}")


def pile_of(place: str | None, lead: str | None = None) -> str | None:
    """The pile that ``place`` names in the board's vocabulary (``stock``, ``w``, ``t1``..``t9``,
    ``fC``..``fS``): the notation's ``f`` becomes the foundation of ``lead``'s suit (``None`` without a lead).
    """
    if place is not None and not (isinstance(place, str) and (place == "f" or is_pile(place))):
        raise InvalidArgumentError(f"place must be a pile (stock, w, t1..t9, f, fC..fS) or None, not {quote(place)}")
    _check_lead(lead)
    if place == "f":
        return f"f{lead[-1].upper()}" if lead else None
    return place


def move_piles(move: Move, lead: str | None) -> tuple[str, str]:
    """The piles ``move`` takes its cards from and puts them on, in the board's vocabulary: a draw goes from the
    ``stock`` to the waste ``w``, a recycle back; the notation's ``f`` is the foundation of ``lead``'s suit
    (``lead`` is the moving card, such as ``5H``).
    """
    check_instance(move, "move", Move)
    _check_lead(lead)
    if move.is_draw:
        return "stock", "w"
    if move.is_recycle:
        return "w", "stock"
    source, target = move.source, pile_of(move.target, lead)
    if source is None or target is None:
        raise PatienceError(f"the piles of {move} need the move resolved and its card")
    return source, target


def arrow_for(move: Move, lead: str | None, color: str = COLORS[0]) -> Mark:
    """An arrow along ``move`` (see :func:`move_piles`)."""
    return Mark(*move_piles(move, lead), color)
