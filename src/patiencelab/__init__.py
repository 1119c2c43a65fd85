"""PatienceLab: Klondike solitaire as a typed Python model, a notebook widget and a solver.

``import patiencelab`` loads the model only; :class:`KlondikeWidget` is imported on first use, so the model runs
without any widget library (in scripts, on clusters, in Pyodide). :data:`COMPILED` names the modules loaded
compiled (mypyc); ``PATIENCELAB_PURE=1`` loads them all from their Python source.
"""

from __future__ import annotations

import inspect
from typing import TYPE_CHECKING, Any

from patiencelab import _modules  # first: it chooses compiled or pure modules before any of them loads
from patiencelab._version import __version__ as __version__
from patiencelab.core.cards import Card, Color, Suit
from patiencelab.core.errors import (
    ArgumentTypeError,
    IllegalMoveError,
    InvalidArgumentError,
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
    "COMPILED",
    "ArgumentTypeError",
    "Card",
    "Color",
    "Column",
    "IllegalMoveError",
    "InvalidArgumentError",
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


#: The package's modules loaded compiled in this process (mypyc), sorted; empty when all run as pure Python.
COMPILED: tuple[str, ...] = _modules.loaded()


def _show_the_constructor() -> None:
    """``help(Klondike)``, ``Klondike?``, Shift+Tab and the API reference show the constructor's arguments (those
    of ``__init__``), not the ``*args, **kwargs`` of the ``__new__`` that checks them first, which ``inspect`` reads
    first. Compiled, the class carries ``__init__``'s signature already (and its docstrings: see hatch_build.py).
    """
    if inspect.isfunction(Klondike.__init__):
        init = inspect.signature(Klondike.__init__, eval_str=True)  # the types themselves, as for any method
        arguments = list(init.parameters.values())[1:]  # without self
        signature = init.replace(parameters=arguments, return_annotation=inspect.Signature.empty)
        setattr(Klondike, "__signature__", signature)  # noqa: B010


_show_the_constructor()


def __getattr__(name: str) -> Any:
    if name == "KlondikeWidget":
        from patiencelab.widget.board import KlondikeWidget

        return KlondikeWidget
    raise AttributeError(f"module 'patiencelab' has no attribute {name!r}")
