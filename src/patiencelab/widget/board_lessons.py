"""What a board teaches: :class:`BoardLessons`, the lesson shown (its
:class:`~patiencelab.widget.teaching.LessonPlayer`) or the lesson being recorded (its
:class:`~patiencelab.widget.recording.LessonRecorder`), and the player's own game put aside meanwhile. It reads the
board through a :class:`~patiencelab.widget.host.ShownBoard` and is given, when built, the board's status line and
its calls that show a game and make work started for what it showed stale.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from patiencelab.core.errors import PatienceError
from patiencelab.core.game import Klondike
from patiencelab.core.i18n import message
from patiencelab.core.moves import Move
from patiencelab.lessons.format import Lesson
from patiencelab.widget.caption import Caption
from patiencelab.widget.host import ShownBoard
from patiencelab.widget.recording import LessonRecorder
from patiencelab.widget.state import RecordState
from patiencelab.widget.teaching import MARK_ACTIONS, LessonPlayer

__all__ = ["BoardLessons"]


class BoardLessons:
    """A board's lesson (``player``), recording (``recorder``) and the player's own game put aside (``own``)."""

    def __init__(
        self,
        board: ShownBoard,
        caption: Caption,
        show: Callable[[Klondike], None],
        renew: Callable[[], None],
    ) -> None:
        self._board, self._caption = board, caption
        #: The board's calls that show a game from now on, and that make work started for what it shows stale.
        self._show, self._renew = show, renew
        self.player: LessonPlayer | None = None
        self.recorder: LessonRecorder | None = None
        #: The player's own game, put aside while a lesson or a review shows (or a recording made from one); it
        #: comes back when the lesson closes. ``None`` when the game shown is the player's own.
        self.own: Klondike | None = None

    def own_game(self) -> Klondike:
        """The player's own game: the one shown, or the one put aside while a lesson shows."""
        return self.own if self.own is not None else self._board.game

    def forget(self) -> None:
        """The board shows another game of the player's: no lesson, no recording, nothing put aside."""
        self.player = self.recorder = self.own = None

    @property
    def lesson(self) -> Lesson | None:
        """The lesson being stepped through, or ``None``."""
        return self.player.lesson if self.player else None

    def show(self, lesson: Lesson | None) -> None:
        """Show ``lesson`` from its start with step controls; ``None`` closes the lesson shown (the player's own
        game comes back, as it was).
        """
        board = self._board
        if lesson is not None:
            self.start(lesson, 0)
            return
        self.player = None
        own = self.own if self.recorder is None else None
        if own is not None:
            self.own = None
            self._show(own)
            return
        self._renew()
        board.sync()

    def start(self, lesson: Lesson, step: int) -> None:
        """Show ``lesson`` at ``step``; the player's game waits, neither stored nor followed, until it closes."""
        board = self._board
        player = LessonPlayer(lesson)
        if self.own is None:
            self.own = board.game
        self.recorder = None
        self.player = player
        player.step = step
        self._show(player.game_at(step, board.lang))

    def start_recording(self) -> None:
        """Record a lesson from the position on the board (a lesson shown is closed first)."""
        board = self._board
        self.player = None
        self.recorder = LessonRecorder(board.game, message("record.title", board.lang))
        self._renew()
        board.sync()

    def stop_recording(self) -> Lesson:
        """End the recording and show the recorded lesson from its start; returns it."""
        recorder = self.recorder
        if recorder is None:
            raise PatienceError("no lesson is being recorded: start_recording() first")
        recorder.follow(self._board.game)
        lesson = recorder.lesson()
        self.start(lesson, 0)
        return lesson

    def step_through(self, moves: Iterable[Move | str], title: str, notes: list[str | None] | None) -> Lesson:
        """Make a lesson of ``moves`` from the current position and show it; returns the lesson."""
        board = self._board
        lesson = Lesson.from_moves(board.game, moves, title or board.labels.get("lesson", "Lesson"), notes=notes)
        self.show(lesson)
        return lesson

    def step(self, action: str) -> None:
        """Step the lesson (see :meth:`BoardSession.step <patiencelab.widget.session.BoardSession.step>`)."""
        board = self._board
        player = self.player_or_refuse()
        if action == "close":
            self.show(None)
            return
        shown = player.act(action, board.game, board.lang)
        if isinstance(shown, Klondike):
            self._show(shown)
        elif not shown and action not in MARK_ACTIONS:  # only the lesson's state changed (a played step synced)
            board.sync()

    def goto(self, step: int) -> None:
        """Show step ``step`` of the lesson (0 for its start, up to its number of steps)."""
        self._show(self.player_or_refuse().goto(step, self._board.lang))

    def player_or_refuse(self) -> LessonPlayer:
        """The lesson's player; :class:`PatienceError` in the board's language when no lesson shows."""
        if self.player is None:
            raise PatienceError(message("lesson.none", self._board.lang))
        return self.player

    def quiz_waits(self) -> bool:
        """Whether a quiz step waits for the class's answer."""
        return self.player is not None and self.player.is_waiting(self._board.game)

    def follow(self, game: Klondike) -> None:
        """The board's game changed: the recording follows it; one whose game went back before its start ends,
        with a notice.
        """
        recorder = self.recorder
        if recorder is not None and not recorder.follow(game):
            self.recorder = None
            self._renew()
            self._caption.notice("record.lost")

    def recording_part(self, game: Klondike) -> RecordState | None:
        """The recording's part of the state (reads only: see :meth:`follow`)."""
        return None if self.recorder is None else self.recorder.synced_part(self._board.lang)
