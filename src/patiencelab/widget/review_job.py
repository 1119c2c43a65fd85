"""A board's game review: :class:`ReviewJob`, the "Review game" button's work (in a worker thread, with its
progress and a way to cancel it), the review run at once from Python, and the review's part of the synced state.

A review shows as a lesson of the whole game with the review's chart. The board is read through a
:class:`~patiencelab.widget.host.ShownBoard`; the review works with the collaborators it is built with: the board's
work in worker threads, its lessons, its status line, and the automatic player's word on a position seen a third
time.
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable, Mapping
from typing import Any

from patiencelab.core.errors import PatienceError
from patiencelab.core.game import Klondike
from patiencelab.core.i18n import message
from patiencelab.lessons.format import MAX_REVIEW_STEPS
from patiencelab.review import Review, review
from patiencelab.widget.background import Background
from patiencelab.widget.board_lessons import BoardLessons
from patiencelab.widget.caption import Caption
from patiencelab.widget.host import ShownBoard
from patiencelab.widget.state import ReviewState

__all__ = ["ReviewJob"]


class ReviewJob:
    """A board's reviews: ``error``, why the review switched itself off (or ``None``), and the running one."""

    def __init__(
        self,
        board: ShownBoard,
        background: Background,
        lessons: BoardLessons,
        caption: Caption,
        repeated: Callable[[Klondike], bool],
    ) -> None:
        self._board, self._background, self._lessons, self._caption = board, background, lessons, caption
        #: Whether the automatic player stopped a game where it is on a position seen a third time (it is lost).
        self._repeated = repeated
        #: Why the review switched itself off, or None.
        self.error: str | None = None
        #: The running review's progress (positions done, of how many) and its stop signal, or None.
        self._progress: tuple[int, int] | None = None
        self._cancel: threading.Event | None = None

    def run_now(self) -> Review:
        """Review the game shown and show it as a lesson of the whole game with the review's chart, at its first
        marked move (else at the position the second opinion speaks of); returns the review.
        """
        board = self._board
        game = board.game
        self.check(game)
        found = self.job(game)()
        self.show(game, found)
        return found

    def start(self) -> None:
        """The "Review game" button: review the game in a worker thread and show it as :meth:`run_now` does."""
        board = self._board
        if self.error is not None:
            raise PatienceError(message("notice.review-off", board.lang, reason=self.error))
        if self._background.busy is not None:
            return
        if not self.offered(board.game, board.state.get("indicator", {})):
            raise PatienceError(message("review.not-yet", board.lang))
        self.check(board.game)
        game = board.game.copy()
        cancel = threading.Event()

        def progress(done: int, total: int) -> None:  # in the worker thread: shown in the kernel's
            self._background.deliver(functools.partial(self._progressed, cancel, done, total))

        job = self.job(game, progress, cancel)
        self._cancel, self._progress = cancel, (0, game.moves + 2)

        def show(found: Review) -> None:
            self.show(board.game, found)

        self._background.run("review", job, show, "review.busy", cancel, ended=self._ended)

    def _ended(self) -> None:
        self._progress = self._cancel = None

    def _progressed(self, cancel: threading.Event, done: int, total: int) -> None:
        """The running review got ``done`` of ``total`` positions done: the board shows it (no new version)."""
        if self._background.busy == "review" and self._cancel is cancel and not cancel.is_set():
            self._progress = (min(done, total), total)
            self._board.sync(bump=False)

    def cancel(self) -> None:
        """Stop the review running in a worker thread (see :meth:`BoardSession.cancel_review
        <patiencelab.widget.session.BoardSession.cancel_review>`); nothing happens when no review runs.
        """
        if self._cancel is not None:
            self._cancel.set()

    def failed(self, reason: str) -> None:
        """The review's work failed: it is off from now on, with a notice."""
        self.error = reason
        self._caption.notice("notice.review-off", reason=reason)

    def check(self, game: Klondike) -> None:
        """Raise :class:`PatienceError` when ``game`` is too long to review."""
        if game.moves > MAX_REVIEW_STEPS:
            raise PatienceError(message("review.too-long", self._board.lang, most=MAX_REVIEW_STEPS))

    def job(
        self,
        game: Klondike,
        progress: Callable[[int, int], None] | None = None,
        cancel: threading.Event | None = None,
    ) -> Callable[[], Review]:
        """The review of ``game`` with the board's budgets, to run now or in a worker thread."""
        option = dict(self._board.options)

        def work() -> Review:
            return review(
                game,
                max_states=option["review_max_states"],
                samples=option["review_samples"],
                sample_states=option["review_sample_max_states"],
                progress=progress or False,
                cancel=cancel,
            )

        return work

    def show(self, game: Klondike, found: Review) -> None:
        """Show the review ``found`` of ``game`` as a lesson, at its first marked move (else where the second
        opinion speaks of).
        """
        lesson = found.lesson(game, title=message("review.title", self._board.lang))
        marks = lesson.chart.mark_steps() if lesson.chart is not None else ()
        self._lessons.start(lesson, marks[0] if marks else found.at)

    def synced_part(self, game: Klondike, indicator: Mapping[str, Any]) -> ReviewState:
        """The review's part of the state: offered, busy, and while it runs how far it got."""
        busy = self._background.busy == "review"
        progress = self._progress if busy else None
        return {
            "offered": self.offered(game, indicator),
            "busy": busy,
            "progress": None if progress is None else {"done": progress[0], "total": progress[1]},
        }

    def offered(self, game: Klondike, indicator: Mapping[str, Any]) -> bool:
        """The board offers a review once the game is over or stuck (or the automatic player stopped it on a
        position seen a third time), or the indicator says it is lost (never while a lesson shows or one is
        recorded, nor once the review is off).
        """
        board = self._board
        if self.error is not None or board.lesson is not None or board.recording:
            return False
        lost = indicator.get("enabled") and indicator.get("verdict") == "lost"
        return game.status != "playing" or bool(lost) or self._repeated(game)
