"""The winnability indicator on a board: :class:`Verdicts` shows the :class:`~patiencelab.widget.indicator.Indicator`'s
verdicts as they come in (handed to the kernel's thread, no new version), switches it off with a notice once when
its worker cannot start, and waits for a verdict in scripts. The board is reached through :class:`VerdictBoard`.
"""

from __future__ import annotations

import threading
from typing import Any, Protocol, cast

from patiencelab.core.game import Klondike
from patiencelab.lessons import Lesson
from patiencelab.widget.background import Background
from patiencelab.widget.indicator import Executor, Indicator
from patiencelab.widget.state import IndicatorState

__all__ = ["VerdictBoard", "Verdicts"]


class VerdictBoard(Protocol):
    """What the indicator's part needs of its board (a :class:`~patiencelab.widget.session.BoardSession`)."""

    options: dict[str, Any]
    state: dict[str, Any]
    _game: Klondike | None
    _lock: threading.RLock
    _jobs: Background

    @property
    def lesson(self) -> Lesson | None: ...
    def _notice(self, key: str, *, by: object = None, **params: Any) -> None: ...
    def sync(self, change: Any = None, *, fresh: bool = False, bump: bool = True) -> None: ...


class Verdicts:
    """A board's winnability indicator (``indicator``) and what the board shows of it."""

    def __init__(self, board: VerdictBoard, executor: Executor | None = None) -> None:
        self._board = board
        self.indicator = Indicator(self._arrived, **({"executor": executor} if executor is not None else {}))
        #: The indicator's error the board has said (it says each once).
        self._said: str | None = None

    def synced_part(self, game: Klondike) -> IndicatorState:
        """The indicator's part of the state (off while a lesson shows); when its worker cannot start, it is off
        with a notice, once.
        """
        option = self._board.options.__getitem__
        enabled = option("indicator") and self._board.lesson is None
        indicator = self.indicator
        state = indicator.synced_part(game, enabled, option("indicator_seconds"), option("indicator_max_states"))
        error = indicator.error
        if enabled and error is not None and self._said != error:
            self._said = error
            self._board._notice("notice.indicator-off", reason=error)
        return cast(IndicatorState, {**state, "error": error})

    def wait(self, timeout: float) -> str | None:
        """Block until the verdict for the current position is in and shown; returns it (``None`` when off)."""
        board = self._board
        self.indicator.wait(timeout)
        with board._lock:
            if board._game is not None:
                board.sync(bump=False)
        return board.state["indicator"]["verdict"] if board.options["indicator"] else None

    def _arrived(self) -> None:
        """A verdict arrived (in the pool's thread): the board shows it in the kernel's thread without a new
        version (no intent goes stale).
        """
        self._board._jobs.deliver(lambda: self._board.sync(bump=False))
