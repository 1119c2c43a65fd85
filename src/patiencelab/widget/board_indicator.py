"""The winnability indicator on a board: :class:`BoardIndicator` shows the
:class:`~patiencelab.widget.indicator.Indicator`'s verdicts as they come in (handed to the kernel's thread, no new
version), switches it off with a notice once when its worker cannot start, and waits for a verdict in scripts. It
reads the board through a :class:`~patiencelab.widget.host.ShownBoard` and works with the board's work in worker
threads and status line, given when it is built.
"""

from __future__ import annotations

from typing import cast

from patiencelab.core.game import Klondike
from patiencelab.widget.background import Background
from patiencelab.widget.caption import Caption
from patiencelab.widget.host import ShownBoard
from patiencelab.widget.indicator import Executor, Indicator
from patiencelab.widget.state import IndicatorState

__all__ = ["BoardIndicator"]


class BoardIndicator:
    """A board's winnability indicator (``indicator``) and what the board shows of it."""

    def __init__(
        self, board: ShownBoard, background: Background, caption: Caption, executor: Executor | None = None
    ) -> None:
        self._board, self._background, self._caption = board, background, caption
        self.indicator = Indicator(self._arrived, **({"executor": executor} if executor is not None else {}))
        #: The indicator's error the board has said (it says each once).
        self._said: str | None = None

    def follow(self, game: Klondike) -> None:
        """The board shows ``game``: the indicator starts the solver when its position is new (off while a lesson
        shows); when its worker cannot start, it is off with a notice, once.
        """
        option = self._board.options.__getitem__
        enabled = option("indicator") and self._board.lesson is None
        self.indicator.follow(game, enabled, option("indicator_seconds"), option("indicator_max_states"))
        error = self.indicator.error
        if enabled and error is not None and self._said != error:
            self._said = error
            self._caption.notice("notice.indicator-off", reason=error)

    def synced_part(self, game: Klondike) -> IndicatorState:
        """The indicator's part of the state (off while a lesson shows); reads only (see :meth:`follow`)."""
        enabled = self._board.options["indicator"] and self._board.lesson is None
        state = self.indicator.synced_part(game, enabled)
        return cast(IndicatorState, {**state, "error": self.indicator.error})

    def wait(self, timeout: float) -> str | None:
        """Block until the verdict for the current position is in and shown; returns it (``None`` when off)."""
        board = self._board
        self.indicator.wait(timeout)
        with self._background.lock:
            if self._background.token() is not None:
                board.sync(bump=False)
        return board.state["indicator"]["verdict"] if board.options["indicator"] else None

    def _arrived(self) -> None:
        """A verdict arrived (in the pool's thread): the board shows it in the kernel's thread without a new
        version (no intent goes stale).
        """
        self._background.deliver(lambda: self._board.sync(bump=False))
