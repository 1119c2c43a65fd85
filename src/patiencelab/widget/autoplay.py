"""A player at work on the board: :class:`Autoplay` lets a :class:`~patiencelab.players.Player` (or any function
from a view to a move) play the game shown, choosing in a worker thread from the player's view only, each move
played in the kernel's thread. It reads the game shown through a :class:`~patiencelab.widget.host.ShownBoard`, and
works with the board's collaborators it is built with: its work in worker threads, status line and record keeper.
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Literal

from patiencelab.core.errors import PatienceError, quote
from patiencelab.core.game import Klondike
from patiencelab.core.i18n import message
from patiencelab.widget.background import Background
from patiencelab.widget.caption import Caption
from patiencelab.widget.host import ShownBoard, later
from patiencelab.widget.keeper import RecordKeeper
from patiencelab.widget.runners import LoopRunner, Runner
from patiencelab.widget.state import AutoplayState

if TYPE_CHECKING:
    from patiencelab.players import Ended

__all__ = ["Autoplay"]


class Autoplay:
    """The automatic player of a board: ``running`` is its stop signal and its name, or ``None``. It stops by the
    rule of :func:`~patiencelab.players.play_to_end` (won, stuck, a position seen a third time, or its cap) and
    says which; a game it stopped on a repeated position is over: lost, and offered a review.
    """

    def __init__(
        self,
        board: ShownBoard,
        background: Background,
        caption: Caption,
        keeper: RecordKeeper,
        changes: Callable[[], tuple[int, int] | None],
    ) -> None:
        self._board, self._background, self._caption = board, background, caption
        #: Where a game the player stopped on a position seen a third time is stored, as lost.
        self._keeper = keeper
        #: What the board shows and how often that game changed (``None``: no game): any change but the player's
        #: own (a move by hand, another game, a lesson) stops the player.
        self._changes = changes
        self.running: tuple[threading.Event, str] | None = None
        #: The game the player last stopped on a position seen a third time, and its history then.
        self._repeated: tuple[Klondike, tuple[object, ...]] | None = None

    def synced_part(self) -> AutoplayState:
        """The automatic player's part of the synced state."""
        return {"running": self.running is not None, "player": self.running[1] if self.running else None}

    def start(self, player: Any, *, pace: Any = 0.8, max_moves: Any = 1_000) -> None:
        """Let ``player`` play (see :meth:`BoardSession.autoplay
        <patiencelab.widget.session.BoardSession.autoplay>`); returns at once.
        """
        from patiencelab.players import as_choose
        from patiencelab.players.playing import Referee

        board = self._board
        choose = as_choose(player, board.game)
        if isinstance(pace, bool) or not isinstance(pace, (int, float)) or not 0 <= pace <= 60:
            raise PatienceError(f"pace is the seconds between moves, from 0 to 60, not {quote(pace)}")
        if isinstance(max_moves, bool) or not isinstance(max_moves, int) or max_moves < 1:
            raise PatienceError(f"max_moves is a whole number of at least 1, not {quote(max_moves)}")
        if board.lesson is not None or board.recording:
            raise PatienceError(message("autoplay.not-now", board.lang))
        self.stop()
        stop, name = threading.Event(), player_name(player)
        referee, background, caption = Referee(board.game, max_moves), self._background, self._caption
        #: What the board showed, and its game's changes, when the player last played (any other is a hand's).
        seen = [self._changes()]
        #: What runs the player's looks: the board's runner, or the kernel's event loop where no thread starts.
        runner: list[Runner] = [background.runner]
        deliver = background.deliver

        def over() -> Ended | Literal["stopped"] | None:
            """Under the board's lock: why the player must stop rather than look or play (``stopped``: by Stop, a
            move by hand or another game), or ``None``.
            """
            now = self._changes()
            if stop.is_set() or now is None or now != seen[0]:
                return "stopped"
            return referee.ended(board.game)

        def look() -> None:
            """Off the kernel's thread: the player chooses a move from its view; the kernel's thread plays it."""
            try:
                with background.lock:
                    why = over()
                    view = None if why is not None else board.game.player_view()
                if view is None:
                    deliver(functools.partial(self._ended, stop, name, None, why, referee.moves))
                    return
                move = choose(view)  # outside the lock: the board plays on while the player thinks
            except Exception as err:  # a player that fails stops, never a traceback
                deliver(functools.partial(self._ended, stop, name, err))
                return
            deliver(functools.partial(turn, move))

        def turn(move: Any) -> None:
            """In the kernel's thread: play the move chosen unless the board changed since the player looked."""
            why = over()
            if why is not None:
                self._ended(stop, name, None, why, referee.moves)
                return
            try:
                board.game.play(move)
            except PatienceError as err:  # the player chose a move the rules refuse: it stops, with the reason
                caption.say("info", message("autoplay.refused", board.lang, player=name, reason=str(err)))
                self._ended(stop, name, None)
                return
            referee.played(board.game)
            seen[0] = self._changes()
            why = over()
            if why is not None:
                self._ended(stop, name, None, why, referee.moves)
                return
            try:
                runner[0].start("autoplay", look, delay=pace, wake=stop)
            except Exception as err:  # the next look cannot start: it stops, with the reason
                self._ended(stop, name, err)

        with background.lock:  # the player's first look at the board waits until the board says it plays
            caption.notice("autoplay.playing", by=stop, player=name)
            self.running = (stop, name)
            try:
                runner[0].start("autoplay", look)
            except Exception as err:  # no threads here (Pyodide): turns of the kernel's event loop, if it has one
                loop = later(background.host)
                runner[0] = LoopRunner(loop) if loop is not None else runner[0]
                try:
                    if loop is None:
                        raise
                    runner[0].start("autoplay", look)
                except Exception:
                    self.running = None
                    caption.unsay(stop)
                    raise PatienceError(message("autoplay.no-threads", board.lang, reason=str(err))) from None
            board.sync()

    def stop(self) -> None:
        """Stop the automatic player (the move it is choosing is not played); nothing happens when none plays."""
        if self.running is not None:
            self.running[0].set()

    def repeated(self, game: Klondike) -> bool:
        """Whether the player stopped ``game`` where it is now on a position seen a third time (it is lost)."""
        return self._repeated is not None and self._repeated[0] is game and self._repeated[1] == game.history

    def _ended(
        self,
        stop: threading.Event,
        name: str,
        error: BaseException | None,
        why: Ended | Literal["stopped"] | None = None,
        moves: int = 0,
    ) -> None:
        """In the kernel's thread: the player ``stop`` belongs to stopped (after ``error``, if any), and ``why``
        (the game's end by the players' rule, or ``stopped``) after playing ``moves`` moves.
        """
        stop.set()
        if self.running is None or self.running[0] is not stop:
            return  # another autoplay has started since
        self.running = None
        board = self._board
        if error is not None:
            reason = f"{type(error).__name__}: {error}" if str(error) else type(error).__name__
            self._caption.notice("autoplay.failed", player=name, reason=reason)
        elif why is not None and why != "stopped":
            if why == "repeated":
                self._repeated = (board.game, board.game.history)
                self._keeper.store(board.game, "lost")
            self._caption.notice(f"autoplay.{why.replace('_', '-')}", player=name, moves=moves)
        else:
            self._caption.unsay(stop)  # "... is playing", in whatever language it is now
        board.sync(bump=False)


def player_name(player: object) -> str:
    """A player's name for the board: its ``name``, its class's or its function's."""
    name = getattr(player, "name", None)
    if isinstance(name, str) and name:
        return name[:40]
    name = getattr(player, "__name__", None) or type(player).__name__
    return str(name)[:40]
