"""BoardSession: one board's life, with no widget library. It keeps the board's game, its options and its synced
state, and is made of parts: the intent table (``dispatch.py``, its vocabulary in ``intents.py``), the lessons
(``lessons.py``), work in worker threads (``background.py``), the review (``review_job.py``), the automatic player
(``autoplay.py``), the indicator (``verdicts.py``), the status line (``caption.py``), the record keeper
(``keeper.py``) and its options (``options.py``). What it shows goes to a :class:`~patiencelab.widget.host.Host`;
:func:`protocol.synced_state <patiencelab.widget.protocol.synced_state>` alone assembles the synced state.
"""

from __future__ import annotations

import atexit
import itertools
import threading
from collections.abc import Iterable, Mapping
from typing import Any, cast

from patiencelab.core.errors import PatienceError
from patiencelab.core.game import Change, Klondike
from patiencelab.core.i18n import check_language, labels, message
from patiencelab.core.limits import check_seconds
from patiencelab.core.moves import Move
from patiencelab.core.rules import Rules
from patiencelab.lessons.format import Lesson
from patiencelab.records.store import Records
from patiencelab.review import Review
from patiencelab.widget import dispatch, protocol
from patiencelab.widget.autoplay import Autoplay
from patiencelab.widget.background import Background
from patiencelab.widget.board_indicator import BoardIndicator
from patiencelab.widget.board_lessons import BoardLessons
from patiencelab.widget.caption import Caption, narration
from patiencelab.widget.host import Host, PlainHost
from patiencelab.widget.indicator import Executor
from patiencelab.widget.keeper import RecordKeeper
from patiencelab.widget.options import OPTIONS, board_options, change_option, check_arguments, check_option, check_parts
from patiencelab.widget.parts import Parts
from patiencelab.widget.review_job import ReviewJob
from patiencelab.widget.runners import Runner, ThreadRunner

__all__ = ["EXITING", "OPTIONS", "BoardSession", "Host", "PlainHost"]

#: Serial numbers of what boards show (see ``BoardSession._shown``).
_SERIALS = itertools.count(1)

#: Set when the interpreter ends (a kernel restart): boards closed then leave their games in play, to be offered to
#: the next board, instead of storing them as abandoned (the widget's module registers it once more, after the
#: widget library's own exit work, so that it runs before the library closes its boards).
EXITING = threading.Event()
atexit.register(EXITING.set)


class BoardSession:
    """One board: its game (``game``), lesson, quiz, review and recording, its records and its indicator.

    Everything it shows goes to ``host`` (see :class:`Host`; by default a :class:`PlainHost`); its public
    methods are those of :class:`~patiencelab.widget.board.KlondikeWidget`, which calls them. ``options`` sets
    some of :data:`OPTIONS` (see :meth:`set_option`); ``executor`` runs the indicator's solver (see
    :class:`~patiencelab.widget.indicator.Indicator`); ``runner`` starts the rest of its background work (see
    :class:`~patiencelab.widget.runners.Runner`; by default a thread for each piece).
    """

    def __init__(
        self,
        game: Klondike | None = None,
        *,
        host: Host | None = None,
        options: Mapping[str, Any] | None = None,
        seed: int | None = None,
        rules: Rules | None = None,
        lang: str = "en",
        records: Records | bool | None = True,
        executor: Executor | None = None,
        lesson: Lesson | None = None,
        runner: Runner | None = None,
    ) -> None:
        self.check_arguments(game, seed, rules, lang)
        check_parts(host, runner, executor)
        self.host: Host = host if host is not None else PlainHost()
        #: The board's options (see :data:`OPTIONS`); change them with :meth:`set_option`.
        self.options = board_options(options)
        self._lang = check_language(lang)
        self.labels = labels(self._lang)
        #: The last synced state (the host shows the same).
        self.state: dict[str, Any] = {}
        self._version = 0
        self._game: Klondike | None = None
        self._unlisten: Any = None
        self._lock = threading.RLock()
        self._caption = Caption(self._lang)
        #: The lesson shown or recorded, and the player's own game put aside meanwhile.
        self._lessons = BoardLessons(self, self._caption, show=self._show, renew=self._renew)
        #: A serial number of what the board shows (its game, lesson and recording), new whenever one of them is
        #: replaced: work started for one is never taken for another (an ``id()`` may be reused).
        self._shown = next(_SERIALS)
        self._runner: Runner = runner if runner is not None else ThreadRunner()
        #: Changes of the shown game so far (moves, undos, resets): a player who chose before the last one
        #: chose for a position that is gone.
        self._changes = 0
        #: The work in worker threads, the records, the game's reviews and the automatic player (see :meth:`autoplay`).
        self._background = Background(
            self.host,
            self._lock,
            self._runner,
            self._caption,
            token=self._shows,
            sync=self.sync,
            failed=lambda why: self._reviews.failed(why),
        )
        self._keeper = RecordKeeper(records, on_change=self._background.sync_unless_busy)
        self._autoplay = Autoplay(self, self._background, self._caption, self._keeper, self._changed)
        self._reviews = ReviewJob(self, self._background, self._lessons, self._caption, self._autoplay.repeated)
        self._board_indicator = BoardIndicator(self, self._background, self._caption, executor)
        self._records_notice: str | None = None
        #: What the intent table works with (see :mod:`~patiencelab.widget.dispatch`).
        parts = self._lock, self._caption, self._lessons, self._keeper, self._background, self._reviews
        self.parts = Parts(*parts, self._board_indicator)
        dealt = Klondike(seed=seed, rules=rules, lang=self._lang) if game is None else game
        if game is None and lesson is None:
            # a game left in play (a kernel restarted, a page reloaded), of the deal and rules asked for, if any
            asked = rules is not None or seed is not None
            self._keeper.offer(deal=dealt.deal if seed is not None else None, rules=dealt.rules if asked else None)
        self.host.show_labels(self.labels)
        self.game = dealt
        if lesson is not None:
            self.lesson = lesson

    #: What a board's arguments and options take (see :mod:`patiencelab.widget.options`).
    check_arguments = staticmethod(check_arguments)
    check_option = staticmethod(check_option)

    # ------------------------------------------------------------------------------------------- the game

    @property
    def game(self) -> Klondike:
        """The live game this board shows."""
        assert self._game is not None
        return self._game

    @game.setter
    def game(self, game: Klondike) -> None:
        if not isinstance(game, Klondike):
            raise PatienceError(f"game must be a Klondike, not {type(game).__name__}")
        own = self._game is not None and game is self._lessons.own_game()
        if own and self._lessons.own is None:
            return  # the player's game, shown already: nothing changes
        if not own:
            self._store_unfinished()  # the player's game it replaces, also one put aside for a lesson
            self._keeper.new_game(game)
        self._lessons.forget()
        self._show(game)

    def _renew(self) -> None:
        """What the board shows was replaced (a lesson, a recording): work started for it goes stale."""
        self._shown = next(_SERIALS)

    def _show(self, game: Klondike) -> None:
        """Show ``game`` from now on: the player's own, or a lesson's (the record keeper follows only the player's
        own games, see :class:`~patiencelab.widget.board_lessons.BoardLessons`).
        """
        if self._unlisten is not None:
            self._unlisten()
        game.lang = self._lang
        self._game = game
        self._renew()
        self._unlisten = game.on_change(self.sync)
        self.sync(fresh=True)

    def resume(self) -> Klondike:
        """Continue the game a board left in play, which the board offers; returns it."""
        game = self._keeper.resume(self._lang)
        if game is None:
            raise PatienceError(message("resume.none", self._lang))
        self.game = game
        return game

    def decline_resume(self) -> None:
        """Do not continue the game offered: it is stored as abandoned."""
        self._keeper.decline()
        self.sync()

    def new_game(self, *, seed: int | None = None, rules: Rules | None = None) -> Klondike:
        """Deal a new game (same rules unless given) and show it."""
        game = Klondike(seed=seed, rules=rules if rules is not None else self.game.rules, lang=self._lang)
        self.game = game
        return game

    @property
    def lang(self) -> str:
        """The language of every word on the board: ``en``, ``nl`` or ``sv``."""
        return self._lang

    @lang.setter
    def lang(self, lang: str) -> None:
        self._lang = check_language(lang)
        self.labels = labels(lang)
        self.host.show_labels(self.labels)
        self.game.lang = lang
        self._caption.say_again(lang)
        self.sync()

    @property
    def records(self) -> Records | None:
        """Where finished and abandoned games are stored (``None``: nowhere)."""
        return self._keeper.records

    @records.setter
    def records(self, records: Records | bool | None) -> None:
        before = self._keeper.records
        self._keeper.use(records)  # the same database changes nothing; another takes the game in play along
        if self._keeper.records is not before or self._keeper.error is not None:
            self.sync()

    def _store_unfinished(self) -> None:
        if self._game is not None:
            self._keeper.store_unfinished(self._lessons.own_game())

    def close(self) -> None:
        """Store the game in play (as abandoned; when the interpreter ends, it stays in play to be offered to the
        next board), stop the indicator's solver and follow no other board's records.
        """
        self.stop_autoplay()
        if not EXITING.is_set():
            self._store_unfinished()
            self._keeper.withdraw()
        self._keeper.on_change = None
        self._board_indicator.indicator.close()

    def set_option(self, name: str, value: Any) -> None:
        """Set the board's option ``name`` (one of :data:`OPTIONS`, see
        :func:`~patiencelab.widget.options.check_option`); the board shows a change of what it shows at once.
        """
        if change_option(self.options, name, value):
            self.sync()

    # ------------------------------------------------------------------------------------------- lessons

    @property
    def lesson(self) -> Lesson | None:
        """The lesson being stepped through, or ``None``. Setting one shows its start with step controls."""
        return self._lessons.lesson

    @lesson.setter
    def lesson(self, lesson: Lesson | None) -> None:
        self._lessons.show(lesson)

    @property
    def recording(self) -> bool:
        """Whether a lesson is being recorded."""
        return self._lessons.recorder is not None

    def start_recording(self) -> None:
        """Record a lesson from the position on the board (a lesson shown is closed first)."""
        self._lessons.start_recording()

    def stop_recording(self) -> Lesson:
        """End the recording and show the recorded lesson from its start; returns it."""
        return self._lessons.stop_recording()

    def step_through(
        self, moves: Iterable[Move | str], *, title: str = "", notes: list[str | None] | None = None
    ) -> Lesson:
        """Make a lesson of ``moves`` from the current position and show it; returns the lesson."""
        return self._lessons.step_through(moves, title, notes)

    def step(self, action: str) -> None:
        """Step the lesson: ``first``, ``back``, ``forward``, ``last``, ``play``, ``pause``, ``resume``, ``close``;
        in a review's lesson ``next-mark`` and ``prev-mark`` go to the next or previous marked move (none left:
        the lesson stays where it is).
        """
        self._lessons.step(action)

    def goto(self, step: int) -> None:
        """Show step ``step`` of the lesson (0 for its start, up to its number of steps)."""
        self._lessons.goto(step)

    def review(self) -> Review:
        """Review the game and show it as a lesson of the whole game with the review's chart, at its first marked
        move (else at the position the second opinion speaks of); returns the review (see
        :meth:`KlondikeWidget.review <patiencelab.KlondikeWidget.review>`).
        """
        return self._reviews.run_now()

    # ------------------------------------------------------------------------------------------- syncing

    @property
    def version(self) -> int:
        """The version of the synced state: it grows with every change."""
        return self._version

    def sync(self, change: Change | None = None, *, fresh: bool = False, bump: bool = True) -> None:
        """Send the state: after ``change`` (from the game's listener), for a game just shown (``fresh``), or
        for a change of the board's own (options, lesson, verdicts; the last move stays as it was).
        """
        with self._lock:
            self._sync_locked(change, fresh, bump)

    def _sync_locked(self, change: Change | None, fresh: bool, bump: bool) -> None:
        """Set going the work the change asks for (:meth:`_follow`), then build the state from the game and the parts,
        which only read, and give it its version last: a build that fails changes nothing.
        """
        game, option = self.game, self.options.__getitem__
        if change is not None:
            self._changes += 1
            last = protocol.last_move(change, self.labels)
        else:
            last = None if fresh else self.state.get("last_move")
        self._follow(game, change if last is not None else None)
        indicator = self._board_indicator.synced_part(game)
        records = self._keeper.synced_part(game)
        state = protocol.synced_state(
            game,
            reveal=option("reveal"),
            show_moves=option("show_moves"),
            lang=self._lang,
            last_move=last,
            message=self._caption.message,
            lesson=self._lessons.player.synced_part(game, self._lang) if self._lessons.player else None,
            indicator=indicator,
            stats=records,
            recording=self._lessons.recording_part(game),
            review=self._reviews.synced_part(game, indicator),
            autoplay=self._autoplay.synced_part(),
            version=self._version + bump,
        )
        self._version += bump
        self.state = cast(dict[str, Any], state)  # handed on untyped (see widget/state.py)
        self.host.show(self.state)

    def _follow(self, game: Klondike, told: Change | None) -> None:
        """What a change sets going before the state is built: the records and the recording follow the game, the
        status line tells the move ``told``, the indicator starts on a new position; a records failure is said once."""
        if self._lessons.own is None:  # never a lesson's game, nor one recorded from a lesson's position
            self._keeper.follow(game)
        if told is not None and self.options["narrate"] and self._lessons.player is None:
            self._caption.say("narration", narration(told, self._lang))
        self._board_indicator.follow(game)
        self._keeper.stats(game)  # read (and kept) now: a database that fails is said in this sync
        notice = self._keeper.notice(game.lang)
        if notice is not None and self._keeper.error != self._records_notice:
            self._records_notice = self._keeper.error
            self._caption.say("info", notice, self._keeper.notice)
        self._lessons.follow(game)

    def wait_for_verdict(self, timeout: float = 60.0) -> str | None:
        """Block until the indicator's verdict for the current position is in and shown; returns it."""
        return self._board_indicator.wait(check_seconds(timeout, "timeout"))

    # ------------------------------------------------------------------------------------------- intents

    def handle_intent(self, content: object) -> dict[str, Any] | None:
        """Check and apply one intent from the front end; returns the reply message, if any.

        A malformed, stale or illegal intent changes nothing and is answered with a ``rejected`` message.
        """
        return dispatch.handle(self, content)

    def _token(self) -> tuple[Any, ...]:
        """What the board shows: work started for it is dropped when it changed by the time the work is done."""
        player, game = self._lessons.player, self.game
        return (self._shown, game.history, player.step if player else None)

    def _shows(self) -> tuple[Any, ...] | None:
        """What the board shows (see :meth:`_token`), ``None`` before its first game."""
        return None if self._game is None else self._token()

    def _changed(self) -> tuple[int, int] | None:
        """What the board shows and how often its game changed (``None`` before its first game)."""
        return None if self._game is None else (self._shown, self._changes)

    def run_pending(self) -> None:
        """Run the calls handed over by worker threads, each once, in the order they came."""
        self._background.run_pending()

    def wait_for_background(self, timeout: float = 60.0) -> None:
        """Block until the work in worker threads (a review, a quiz answer) is done and shown."""
        self._background.wait(check_seconds(timeout, "timeout"))

    def cancel_review(self) -> None:
        """Stop the review running in a worker thread: it stops at its next position (a result already in is
        not shown), the board says so and stays as it was. Nothing happens when no review runs.
        """
        self._reviews.cancel()

    # ------------------------------------------------------------------------------------------- autoplay

    def autoplay(self, player: Any, *, pace: Any = 0.8, max_moves: Any = 1_000) -> None:
        """Let ``player`` (a :class:`~patiencelab.players.Player` or any function of a view) play the game on the
        board, choosing from its view in a worker thread, a move every ``pace`` seconds in the kernel's thread. It stops
        by the rule of :func:`~patiencelab.players.play_to_end` and says which (a position seen a third time: lost, a
        review offered); also on Stop, a change by hand, another game, lesson or recording, a failure or a bad move."""
        self._autoplay.start(player, pace=pace, max_moves=max_moves)

    def stop_autoplay(self) -> None:
        """Stop the automatic player (the move it is choosing is not played); nothing happens when none plays."""
        self._autoplay.stop()
