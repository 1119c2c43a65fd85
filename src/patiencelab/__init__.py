"""PatienceLab: Klondike solitaire as a typed Python model, a notebook widget and a solver.

``import patiencelab`` loads the model only; :class:`KlondikeWidget` is imported on first use, so the model runs
without any widget library (in scripts, on clusters, in Pyodide).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from patiencelab.core.cards import Card, Color, Suit
from patiencelab.core.errors import (
    IllegalMoveError,
    InvalidMoveError,
    InvalidPositionError,
    InvalidRecordError,
    PatienceError,
)
from patiencelab.core.game import Klondike
from patiencelab.core.moves import Move
from patiencelab.core.position import Column, Position
from patiencelab.core.rules import Rules, Scoring
from patiencelab.solver import Solution, solve
from patiencelab.survey import survey

if TYPE_CHECKING:
    from patiencelab.widget.board import KlondikeWidget

__all__ = [
    "Card",
    "Color",
    "Column",
    "IllegalMoveError",
    "InvalidMoveError",
    "InvalidPositionError",
    "InvalidRecordError",
    "Klondike",
    "KlondikeWidget",
    "Move",
    "PatienceError",
    "Position",
    "Rules",
    "Scoring",
    "Solution",
    "Suit",
    "solve",
    "survey",
]

__version__ = "0.1.0"


def __getattr__(name: str) -> Any:
    if name == "KlondikeWidget":
        from patiencelab.widget.board import KlondikeWidget

        return KlondikeWidget
    raise AttributeError(f"module 'patiencelab' has no attribute {name!r}")
