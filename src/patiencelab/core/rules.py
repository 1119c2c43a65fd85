"""Rule sets and scoring tables: frozen values with the three presets of docs/play.md."""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field, fields, replace
from typing import Any, Literal

from patiencelab.core.errors import PatienceError, quote, unknown_fields
from patiencelab.core.limits import check_choice, check_instance, check_switch, check_whole

__all__ = [
    "MAX_DRAW",
    "MAX_PASSES",
    "MAX_POINTS",
    "PRESETS",
    "SCORING_PRESETS",
    "EmptyColumn",
    "Rules",
    "Scoring",
    "rules_label",
]

#: What may fill an empty column: a King (or a run led by one), or any card.
EmptyColumn = Literal["king", "any"]

#: Names accepted by :meth:`Scoring.preset`.
SCORING_PRESETS = ("standard", "windows", "vegas", "none")
#: Names accepted by :meth:`Rules.preset`.
PRESETS = ("standard", "traditional", "six-column")
#: The largest number of points (either way) a scoring field may hold.
MAX_POINTS = 1_000_000_000
#: The most passes a rule set may allow short of unlimited.
MAX_PASSES = 1_000_000
#: The most cards a draw may turn.
MAX_DRAW = 24


@dataclass(frozen=True, slots=True)
class Scoring:
    """A table of points for the events of a game; the game keeps the running score.

    ``recycle_draw1`` / ``recycle_draw3`` are the points for a recycle when one card / more than one card is
    drawn at a time; the first ``free_recycles_draw1`` / ``free_recycles_draw3`` recycles cost nothing.
    ``floor`` is the lowest the running score may go (``None``: no floor). ``time_penalty`` points are taken
    for every 10 seconds played; a won game over ``bonus_after`` seconds earns ``time_bonus / seconds``.
    """

    name: str = "standard"
    start: int = 0
    waste_to_tableau: int = 5
    to_foundation: int = 10
    foundation_to_tableau: int = -15
    turn_up: int = 5
    recycle_draw1: int = 0
    free_recycles_draw1: int = 0
    recycle_draw3: int = -20
    free_recycles_draw3: int = 0
    floor: int | None = 0
    time_penalty: int = 0
    time_bonus: int = 0
    bonus_after: int = 30

    def __post_init__(self) -> None:
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name == "name":
                if not isinstance(value, str) or not 1 <= len(value) <= 40:
                    raise PatienceError(
                        f"a scoring table's name must be text of 1 to 40 characters, not {quote(value)}"
                    )
            elif f.name == "floor" and value is None:
                continue
            else:
                check_whole(value, f"scoring field {f.name!r}", low=-MAX_POINTS, high=MAX_POINTS)
        for name in ("free_recycles_draw1", "free_recycles_draw3", "bonus_after"):
            if getattr(self, name) < 0:
                raise PatienceError(f"scoring field {name!r} must not be negative")

    @classmethod
    def preset(cls, name: str) -> Scoring:
        """The named table: ``standard``, ``windows``, ``vegas`` or ``none``."""
        try:
            return _SCORING[name]
        except (KeyError, TypeError):
            raise PatienceError(f"unknown scoring {quote(name)}: choose one of {', '.join(SCORING_PRESETS)}") from None

    def recycle_points(self, draw: int, recycle_number: int) -> int:
        """Points for the ``recycle_number``-th recycle (counting from 1) with ``draw`` cards a draw."""
        check_whole(draw, "draw", low=1, high=MAX_DRAW)
        check_whole(recycle_number, "recycle_number", low=1)
        if draw == 1:
            return self.recycle_draw1 if recycle_number > self.free_recycles_draw1 else 0
        return self.recycle_draw3 if recycle_number > self.free_recycles_draw3 else 0

    def to_json(self) -> str | dict[str, Any]:
        """The preset name when this table is a preset, else every field."""
        if _SCORING.get(self.name) == self:
            return self.name
        return asdict(self)

    @classmethod
    def from_json(cls, data: object) -> Scoring:
        """Read what :meth:`to_json` wrote."""
        if isinstance(data, str):
            return cls.preset(data)
        if not isinstance(data, Mapping):
            raise PatienceError(f"scoring must be a preset name or an object, not {type(data).__name__}")
        unknown = unknown_fields(data, {f.name for f in fields(cls)})
        if unknown:
            raise PatienceError(f"unknown scoring field(s): {unknown}")
        return cls(**data)


_SCORING: dict[str, Scoring] = {
    "standard": Scoring(),
    "windows": Scoring(
        name="windows",
        recycle_draw1=-100,
        recycle_draw3=-20,
        free_recycles_draw3=3,
        time_penalty=2,
        time_bonus=700_000,
    ),
    "vegas": Scoring(
        name="vegas",
        start=-52,
        waste_to_tableau=0,
        to_foundation=5,
        foundation_to_tableau=-5,
        turn_up=0,
        recycle_draw3=0,
        floor=None,
    ),
    "none": Scoring(
        name="none",
        waste_to_tableau=0,
        to_foundation=0,
        foundation_to_tableau=0,
        turn_up=0,
        recycle_draw3=0,
    ),
}


@dataclass(frozen=True, slots=True)
class Rules:
    """One house rule set. ``Rules()`` is the ``standard`` preset with draw 1.

    - ``draw``: cards turned per draw;
    - ``max_passes``: passes through the stock (``None``: unlimited), so ``max_passes - 1`` recycles;
    - ``foundation_to_tableau``: whether a foundation's top card may go back to the tableau;
    - ``face_down``: face-down cards per column at the deal (each column also gets one face-up card);
    - ``empty_column``: ``"king"`` (a King or a King-led run may fill an empty column) or ``"any"``;
    - ``scoring``: the :class:`Scoring` table.

    >>> rules = Rules.preset("traditional", draw=3)
    >>> rules.draw, rules.max_passes, rules.foundation_to_tableau
    (3, 3, False)
    """

    draw: int = 1
    max_passes: int | None = None
    foundation_to_tableau: bool = True
    face_down: tuple[int, ...] = (0, 1, 2, 3, 4, 5, 6)
    empty_column: EmptyColumn = "king"
    scoring: Scoring = field(default_factory=Scoring)

    def __post_init__(self) -> None:
        check_whole(self.draw, "draw", low=1, high=MAX_DRAW)
        if self.max_passes is not None:
            check_whole(self.max_passes, "max_passes (None: unlimited)", low=1, high=MAX_PASSES)
        check_switch(self.foundation_to_tableau, "foundation_to_tableau")
        if isinstance(self.face_down, list):
            object.__setattr__(self, "face_down", tuple(self.face_down))
        down = self.face_down
        if (
            not isinstance(down, tuple)
            or not 1 <= len(down) <= 9
            or not all(isinstance(n, int) and not isinstance(n, bool) and n >= 0 for n in down)
        ):
            raise PatienceError(f"face_down must list 1 to 9 counts of face-down cards, not {quote(down)}")
        if sum(down) + len(down) > 52:
            raise PatienceError(f"face_down {quote(down)} deals more than 52 cards")
        check_choice(self.empty_column, "empty_column rule", ("king", "any"))
        check_instance(self.scoring, "scoring", Scoring)

    @classmethod
    def preset(
        cls,
        name: str = "standard",
        *,
        draw: int | None = None,
        scoring: str | Scoring | None = None,
    ) -> Rules:
        """The named house rules (``standard``, ``traditional`` or ``six-column``), optionally with another
        draw count or scoring (a preset name or a :class:`Scoring`).

        ``traditional`` allows one pass with draw 1 and three passes with draw 3.
        """
        check_choice(name, "rule preset", PRESETS)
        if draw is None:
            draw = 3 if name == "six-column" else 1
        check_whole(draw, "draw", low=1, high=MAX_DRAW)
        table = Scoring.preset(scoring) if isinstance(scoring, str) else scoring or Scoring()
        if name == "traditional":
            return cls(draw=draw, max_passes=1 if draw == 1 else 3, foundation_to_tableau=False, scoring=table)
        if name == "six-column":
            return cls(draw=draw, face_down=(1, 2, 3, 4, 5, 6), scoring=table)
        return cls(draw=draw, scoring=table)

    @property
    def columns(self) -> int:
        """The number of tableau columns."""
        return len(self.face_down)

    @property
    def preset_name(self) -> str | None:
        """The preset these rules are (whatever their draw count and scoring), or ``None`` for custom rules."""
        return _preset_name(self)

    def describe(self, lang: str = "en") -> str:
        """The rule set as a few short lines in ``lang`` (``en``, ``nl`` or ``sv``)."""
        from patiencelab.core.narration import describe_rules

        return describe_rules(self, lang)

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict of every field."""
        return {
            "draw": self.draw,
            "max_passes": self.max_passes,
            "foundation_to_tableau": self.foundation_to_tableau,
            "face_down": list(self.face_down),
            "empty_column": self.empty_column,
            "scoring": self.scoring.to_json(),
        }

    @classmethod
    def from_json(cls, data: object) -> Rules:
        """Read what :meth:`to_json` wrote; a missing field takes the standard default."""
        if not isinstance(data, Mapping):
            raise PatienceError(f"rules must be an object, not {type(data).__name__}")
        unknown = unknown_fields(data, {f.name for f in fields(cls)})
        if unknown:
            raise PatienceError(f"unknown rules field(s): {unknown}")
        values = dict(data)
        if "face_down" in values and isinstance(values["face_down"], list):
            values["face_down"] = tuple(values["face_down"])
        if "scoring" in values:
            values["scoring"] = Scoring.from_json(values["scoring"])
        return cls(**values)


@functools.lru_cache(maxsize=64)
def _preset_name(rules: Rules) -> str | None:
    for name in PRESETS:
        if replace(Rules.preset(name, draw=rules.draw), scoring=rules.scoring) == rules:
            return name
    return None


def rules_label(rules: Rules) -> str:
    """A short name for rules: the preset, draw count and passes."""
    name = check_instance(rules, "rules", Rules).preset_name or "custom"
    passes = (
        "unlimited passes"
        if rules.max_passes is None
        else f"{rules.max_passes} pass" + ("es" if rules.max_passes > 1 else "")
    )
    return f"{name}, draw {rules.draw}, {passes}"
