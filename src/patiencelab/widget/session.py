"""BoardSession: one board's life, with no widget library. It takes the front end's intents and answers them,
shows games, lessons, quizzes, reviews and recordings, runs background work and says the board's notices.

What it shows goes to a :class:`Host`: :class:`~patiencelab.widget.board.KlondikeWidget` is the host in a
notebook (its traits, its comm, the kernel's event loop); :class:`PlainHost` keeps everything in plain Python
attributes, for scripts and tests. The synced state itself is assembled by :func:`protocol.synced_state
<patiencelab.widget.protocol.synced_state>`, the only place that does so.

Threads: the winnability indicator's verdicts, the work of a review or a quiz answer and the automatic player's
choices come in on worker threads, started by the board's :class:`~patiencelab.widget.jobs.Runner` (a test gives
it one of its own and decides the order). Their results wait in a queue that the host empties in the kernel's
thread (:meth:`Host.schedule`), always under the session's lock, and are dropped when they went stale meanwhile:
the board moved on to another game, lesson or recording (a serial number, never an ``id()``, which may be
reused), a move was played by hand, or the work was cancelled or stopped.
"""

from __future__ import annotations

import asyncio
import atexit
import collections
import contextlib
import functools
import itertools
import threading
import warnings
from collections.abc import Callable, Iterable, Mapping
from typing import Any, Literal, Protocol

from patiencelab.core.errors import IllegalMoveError, PatienceError, quote
from patiencelab.core.game import Change, Klondike
from patiencelab.core.i18n import check_language, labels, message
from patiencelab.core.limits import check_budget
from patiencelab.core.moves import DRAW, RECYCLE, Move
from patiencelab.core.narration import move_phrase, narrate_played
from patiencelab.core.rules import Rules
from patiencelab.lessons import MAX_REVIEW_STEPS, Answer, Lesson
from patiencelab.records import Records
from patiencelab.review import Review, ReviewCancelledError, review
from patiencelab.widget import protocol
from patiencelab.widget.indicator import Executor, Indicator
from patiencelab.widget.jobs import LoopRunner, Runner, ThreadRunner
from patiencelab.widget.keeper import RecordKeeper
from patiencelab.widget.protocol import RejectedIntentError
from patiencelab.widget.teaching import MARK_ACTIONS, LessonPlayer, LessonRecorder

__all__ = ["EXITING", "OPTIONS", "BoardSession", "Host", "PlainHost"]

#: The board's options and their defaults: what the board shows (``reveal``: face-down cards face up, marked;
#: ``show_moves``: every card that can move highlighted; ``narrate``: every move told in the caption line;
#: ``indicator``: the winnability indicator) and the budgets of its helpers (the fair hint's sampled deals and
#: positions per deal; the indicator's cap of positions per job; a quiz answer's positions per solver call; a
#: review's sampled deals per position and positions per deal for the player's chances, and positions per call of
#: its second opinion; seconds on top of a state budget, by default no limit). The widget's traits take these
#: defaults.
OPTIONS: Mapping[str, Any] = {
    "reveal": False,
    "show_moves": False,
    "narrate": False,
    "indicator": False,
    "hint_samples": 16,
    "hint_max_states": 2_000,
    "hint_seconds": float("inf"),
    "indicator_max_states": None,
    "indicator_seconds": float("inf"),
    "quiz_max_states": 50_000,
    "review_max_states": 200_000,
    "review_samples": 16,
    "review_sample_max_states": 2_000,
}

#: The options that change what the board shows: setting one syncs the board.
_SHOWN = ("reveal", "show_moves", "narrate", "indicator")

#: Serial numbers of what boards show (see ``BoardSession._shown``).
_SERIALS = itertools.count(1)

#: Set when the interpreter ends (a kernel restart): boards closed then leave their games in play, to be offered to
#: the next board, instead of storing them as abandoned (the widget's module registers it once more, after the
#: widget library's own exit work, so that it runs before the library closes its boards).
EXITING = threading.Event()
atexit.register(EXITING.set)


#: The game's calls that an intent makes, with the property that says whether it can be made now and the sentence
#: that refuses it (draws and recycles are refused by the rules, with the reason in the game's language).
_CAN = {
    "undo": ("can_undo", "intent.no-undo"),
    "redo": ("can_redo", "intent.no-redo"),
    "autocomplete": ("can_autocomplete", "intent.no-autocomplete"),
}


class Host(Protocol):
    """Where a session shows what it has to show, and how worker threads reach the kernel's thread."""

    def option_changed(self, name: str, value: Any) -> None:
        """The session's option ``name`` is now ``value``, as the front end asked (``show_moves``, ``indicator``)."""

    def show(self, state: dict[str, Any]) -> None:
        """Show the synced state (a new one every time; never changed afterwards)."""

    def show_labels(self, labels: dict[str, str]) -> None:
        """Show the board's words in its language."""

    def send(self, reply: dict[str, Any]) -> None:
        """Send a reply that comes after its intent was answered (a quiz answer judged in a worker thread)."""

    def schedule(self, call: Callable[[], None]) -> bool:
        """Run ``call`` soon in the kernel's thread (called from a worker thread); ``False`` when there is no
        such thread to hand it to (a plain script): the worker then runs it itself.
        """


class PlainHost:
    """A host of plain attributes: ``state``, ``labels`` and ``replies``. Worker threads run their results
    themselves.
    """

    def __init__(self) -> None:
        self.state: dict[str, Any] = {}
        self.labels: dict[str, str] = {}
        self.replies: list[dict[str, Any]] = []

    def option_changed(self, name: str, value: Any) -> None:
        """Nothing to follow: the session's ``options`` hold it."""

    def show(self, state: dict[str, Any]) -> None:
        """Keep the state as ``state``."""
        self.state = state

    def show_labels(self, labels: dict[str, str]) -> None:
        """Keep the words as ``labels``."""
        self.labels = labels

    def send(self, reply: dict[str, Any]) -> None:
        """Keep the reply in ``replies``."""
        self.replies.append(reply)

    def schedule(self, call: Callable[[], None]) -> bool:
        """No kernel thread to hand work to: the worker runs it."""
        return False


class BoardSession:
    """One board: its game (``game``), lesson, quiz, review and recording, its records and its indicator.

    Everything it shows goes to ``host`` (see :class:`Host`; by default a :class:`PlainHost`); its public
    methods are those of :class:`~patiencelab.widget.board.KlondikeWidget`, which calls them. ``options`` sets
    some of :data:`OPTIONS` (see :meth:`set_option`); ``executor`` runs the indicator's solver (see
    :class:`~patiencelab.widget.indicator.Indicator`); ``runner`` starts the rest of its background work (see
    :class:`~patiencelab.widget.jobs.Runner`; by default a thread for each piece).
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
        self.host: Host = host if host is not None else PlainHost()
        #: The board's options (see :data:`OPTIONS`); change them with :meth:`set_option`.
        self.options: dict[str, Any] = dict(OPTIONS)
        for name, value in (options or {}).items():
            self.options[name] = self.check_option(name, value)
        self._lang = check_language(lang)
        self.labels = labels(self._lang)
        #: The last synced state (the host shows the same).
        self.state: dict[str, Any] = {}
        self._version = 0
        self._game: Klondike | None = None
        self._unlisten: Any = None
        self._player: LessonPlayer | None = None
        self._recorder: LessonRecorder | None = None
        #: The player's own game, put aside while a lesson or a review shows (or a recording made from one); it
        #: comes back when the lesson closes. ``None`` when the game shown is the player's own.
        self._own: Klondike | None = None
        #: A serial number of what the board shows (its game, lesson and recording), new whenever one of them is
        #: replaced: work started for one is never taken for another (an ``id()`` may be reused).
        self._shown = next(_SERIALS)
        #: Work in a worker thread (a review, a quiz answer being judged): its kind, or None.
        self._busy: Literal["review", "quiz"] | None = None
        self._runner: Runner = runner if runner is not None else ThreadRunner()
        #: Changes of the shown game so far (moves, undos, resets): a player who chose before the last one
        #: chose for a position that is gone.
        self._changes = 0
        #: Calls from worker threads waiting for the kernel's thread (see :meth:`_deliver`).
        self._pending: collections.deque[Callable[[], None]] = collections.deque()
        #: Why the review switched itself off, or None.
        self._review_error: str | None = None
        #: The running review's progress (positions done, of how many) and its stop signal, or None.
        self._review_progress: tuple[int, int] | None = None
        self._review_cancel: threading.Event | None = None
        #: The automatic player at work (see :meth:`autoplay`): its stop signal and its name, or None.
        self._autoplay: tuple[threading.Event, str] | None = None
        self._message: dict[str, Any] | None = None
        #: How to say the message shown in another language (``None``: it goes when the language changes), and
        #: whose message it is (the work that clears it when done, see :meth:`_unsay`).
        self._again: Callable[[str], str | None] | None = None
        self._said_by: object = None
        self._message_id = 0
        self._lock = threading.RLock()
        self._indicator = Indicator(self._on_verdict, **({"executor": executor} if executor is not None else {}))
        self._indicator_notice: str | None = None
        self._records_notice: str | None = None
        self._keeper = RecordKeeper(records, on_change=self._records_changed)
        if game is None and seed is None and rules is None and lesson is None:
            self._keeper.offer()  # a game left in play (a kernel restarted, a page reloaded): offered to continue
        self.host.show_labels(self.labels)
        self.game = game if game is not None else Klondike(seed=seed, rules=rules, lang=self._lang)
        if lesson is not None:
            self.lesson = lesson

    @staticmethod
    def check_arguments(game: object, seed: object, rules: object, lang: object) -> None:
        """Raise :class:`PatienceError` for arguments a board cannot start from (a game and a seed, a game that
        is no :class:`Klondike`, a language it does not speak).
        """
        if game is not None and (seed is not None or rules is not None):
            raise PatienceError("give a game, or a seed and rules, not both")
        if game is not None and not isinstance(game, Klondike):
            raise PatienceError(f"game must be a Klondike, not {type(game).__name__}")
        check_language(lang)

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
        self._store_unfinished()  # the player's game it replaces, also one put aside for a lesson
        self._recorder = None
        self._player = None
        self._own = None
        self._keeper.new_game(game)
        self._show(game)

    def _show(self, game: Klondike) -> None:
        """Show ``game`` from now on: the player's own, or a lesson's (see ``_own``; the record keeper follows
        only the player's own games).
        """
        if self._unlisten is not None:
            self._unlisten()
        game.lang = self._lang
        self._game = game
        self._shown = next(_SERIALS)
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
        self._say_again()
        self.sync()

    @property
    def records(self) -> Records | None:
        """Where finished and abandoned games are stored (``None``: nowhere)."""
        return self._keeper.records

    @records.setter
    def records(self, records: Records | bool | None) -> None:
        self._keeper = RecordKeeper(records, on_change=self._records_changed)
        self._keeper.new_game(self._own_game())
        self.sync()

    def _own_game(self) -> Klondike:
        """The player's own game: the one shown, or the one put aside while a lesson shows."""
        return self._own if self._own is not None else self.game

    def _store_unfinished(self) -> None:
        if self._game is not None:
            self._keeper.store_unfinished(self._own_game())

    def close(self) -> None:
        """Store the game in play (as abandoned; when the interpreter ends, it stays in play to be offered to the
        next board), stop the indicator's solver and follow no other board's records.
        """
        self.stop_autoplay()
        if not EXITING.is_set():
            self._store_unfinished()
            self._keeper.withdraw()
        self._keeper.on_change = None
        self._indicator.close()

    def set_option(self, name: str, value: Any) -> None:
        """Set the board's option ``name`` (one of :data:`OPTIONS`, checked by :meth:`check_option`); the board
        shows a change of what it shows at once.
        """
        self.check_option(name, value)
        if self.options[name] == value and type(self.options[name]) is type(value):
            return
        self.options[name] = value
        if name in _SHOWN:
            self.sync()

    @staticmethod
    def check_option(name: str, value: Any) -> Any:
        """``value``, if option ``name`` takes it; else :class:`PatienceError`: a switch is a bool, a ``*_samples``
        a whole number of at least 1, a ``*_max_states`` and a ``*_seconds`` a budget (see
        :func:`~patiencelab.core.limits.check_budget`).
        """
        if name not in OPTIONS:
            raise PatienceError(f"no such board option: {name!r}; the options are {', '.join(OPTIONS)}")
        if name.endswith(("_max_states", "_seconds")):
            check_budget(**{"seconds" if name.endswith("_seconds") else "max_states": value})
        elif name.endswith("_samples"):
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise PatienceError(f"{name} is a whole number of at least 1, not {quote(value)}")
        elif not isinstance(value, bool):
            raise PatienceError(f"{name} is True or False, not {quote(value)}")
        return value

    # ------------------------------------------------------------------------------------------- lessons

    @property
    def lesson(self) -> Lesson | None:
        """The lesson being stepped through, or ``None``. Setting one shows its start with step controls."""
        return self._player.lesson if self._player else None

    @lesson.setter
    def lesson(self, lesson: Lesson | None) -> None:
        if lesson is None:
            self._player = None
            own = self._own if self._recorder is None else None
            if own is not None:  # the player's own game comes back, as it was
                self._own = None
                self._show(own)
                return
            self._shown = next(_SERIALS)
            self.sync()
            return
        self._start_lesson(lesson, 0)

    def _start_lesson(self, lesson: Lesson, step: int) -> None:
        player = LessonPlayer(lesson)
        if self._own is None:  # the player's game waits, neither stored nor followed, until the lesson closes
            self._own = self.game
        self._recorder = None
        self._player = player
        player.step = step
        self._show(player.game_at(step, self._lang))

    @property
    def recording(self) -> bool:
        """Whether a lesson is being recorded."""
        return self._recorder is not None

    def start_recording(self) -> None:
        """Record a lesson from the position on the board (a lesson shown is closed first)."""
        self._player = None
        self._recorder = LessonRecorder(self.game, message("record.title", self._lang))
        self._shown = next(_SERIALS)
        self.sync()

    def stop_recording(self) -> Lesson:
        """End the recording and show the recorded lesson from its start; returns it."""
        recorder = self._recorder
        if recorder is None:
            raise PatienceError("no lesson is being recorded: start_recording() first")
        recorder.follow(self.game)
        lesson = recorder.lesson()
        self._start_lesson(lesson, 0)
        return lesson

    def step_through(
        self, moves: Iterable[Move | str], *, title: str = "", notes: list[str | None] | None = None
    ) -> Lesson:
        """Make a lesson of ``moves`` from the current position and show it; returns the lesson."""
        lesson = Lesson.from_moves(self.game, moves, title or self.labels.get("lesson", "Lesson"), notes=notes)
        self.lesson = lesson
        return lesson

    def step(self, action: str) -> None:
        """Step the lesson: ``first``, ``back``, ``forward``, ``last``, ``play``, ``pause``, ``resume``, ``close``;
        in a review's lesson ``next-mark`` and ``prev-mark`` go to the next or previous marked move (none left:
        the lesson stays where it is).
        """
        player = self._lesson_player()
        if action == "close":
            self.lesson = None
            return
        shown = player.act(action, self.game, self._lang)
        if isinstance(shown, Klondike):
            self._show(shown)
        elif not shown and action not in MARK_ACTIONS:  # only the lesson's state changed (a played step synced)
            self.sync()

    def goto(self, step: int) -> None:
        """Show step ``step`` of the lesson (0 for its start, up to its number of steps)."""
        self._show(self._lesson_player().goto(step, self._lang))

    def _lesson_player(self) -> LessonPlayer:
        if self._player is None:
            raise PatienceError(message("lesson.none", self._lang))
        return self._player

    def review(self) -> Review:
        """Review the game and show it as a lesson of the whole game with the review's chart, at its first marked
        move (else at the position the second opinion speaks of); returns the review (see
        :meth:`KlondikeWidget.review <patiencelab.KlondikeWidget.review>`).
        """
        game = self.game
        self._check_reviewable(game)
        found = self._review_job(game)()
        self._show_review(game, found)
        return found

    def _check_reviewable(self, game: Klondike) -> None:
        if game.moves > MAX_REVIEW_STEPS:
            raise PatienceError(message("review.too-long", self._lang, most=MAX_REVIEW_STEPS))

    def _review_job(
        self,
        game: Klondike,
        progress: Callable[[int, int], None] | None = None,
        cancel: threading.Event | None = None,
    ) -> Callable[[], Review]:
        """The review of ``game`` with the board's budgets, to run now or in a worker thread."""
        option = dict(self.options)

        def job() -> Review:
            return review(
                game,
                max_states=option["review_max_states"],
                samples=option["review_samples"],
                sample_states=option["review_sample_max_states"],
                progress=progress or False,
                cancel=cancel,
            )

        return job

    def _show_review(self, game: Klondike, found: Review) -> None:
        lesson = Lesson.from_review(game, found, title=message("review.title", self._lang))
        marks = lesson.chart.mark_steps() if lesson.chart is not None else ()
        self._start_lesson(lesson, marks[0] if marks else found.at)

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
        """Gather every part first, then give the state its version: a build that fails changes nothing."""
        game, option = self.game, self.options.__getitem__
        if self._own is None:  # never a lesson's game, nor one recorded from a lesson's position
            self._keeper.follow(game)
        if change is not None:
            self._changes += 1
            last = protocol.last_move(change, self.labels)
            if last is not None and option("narrate") and self._player is None:
                self._say("narration", self._narration(change))
        else:
            last = None if fresh else self.state.get("last_move")
        indicator = self._indicator_state(game)
        records = self._keeper.synced_part(game)
        if records["notice"] is not None and records["error"] != self._records_notice:
            self._records_notice = records["error"]
            self._say("info", records["notice"], self._keeper.notice)  # once; the status line keeps a mark
        state = protocol.synced_state(
            game,
            reveal=option("reveal"),
            show_moves=option("show_moves"),
            lang=self._lang,
            last_move=last,
            message=self._message,
            lesson=self._player.synced_part(game, self._lang) if self._player else None,
            indicator=indicator,
            stats=records,
            recording=self._record_state(game),
            review=self._review_state(game, indicator),
            autoplay={"running": self._autoplay is not None, "player": self._autoplay[1] if self._autoplay else None},
            version=self._version + bump,
        )
        self._version += bump
        self.state = state
        self.host.show(state)

    def _record_state(self, game: Klondike) -> dict[str, Any] | None:
        """The recording's part of the state; a recording whose game went back before its start ends."""
        recorder = self._recorder
        if recorder is None:
            return None
        if not recorder.follow(game):
            self._recorder = None
            self._shown = next(_SERIALS)
            self._notice("record.lost")
            return None
        return recorder.synced_part(self._lang)

    def _review_state(self, game: Klondike, indicator: Mapping[str, Any]) -> dict[str, Any]:
        """The review's part of the state: offered, busy, and while it runs how far it got."""
        busy = self._busy == "review"
        progress = self._review_progress if busy else None
        return {
            "offered": self._review_offered(game, indicator),
            "busy": busy,
            "progress": None if progress is None else {"done": progress[0], "total": progress[1]},
        }

    def _review_offered(self, game: Klondike, indicator: Mapping[str, Any]) -> bool:
        """The board offers a review once the game is over or stuck, or the indicator says it is lost."""
        if self._review_error is not None or self._player is not None or self._recorder is not None:
            return False
        lost = indicator.get("enabled") and indicator.get("verdict") == "lost"
        return game.status != "playing" or bool(lost)

    def _indicator_state(self, game: Klondike) -> dict[str, Any]:
        """The indicator's part of the state; when its worker cannot start, it is off with a notice, once."""
        option = self.options.__getitem__
        enabled = option("indicator") and self._player is None
        state = self._indicator.synced_part(game, enabled, option("indicator_seconds"), option("indicator_max_states"))
        error = self._indicator.error
        if enabled and error is not None and self._indicator_notice != error:
            self._indicator_notice = error
            self._notice("notice.indicator-off", reason=error)
        return {**state, "error": error}

    def wait_for_verdict(self, timeout: float = 60.0) -> str | None:
        """Block until the indicator's verdict for the current position is in and shown; returns it."""
        self._indicator.wait(timeout)
        if self._game is not None:
            self._show_verdict()
        return self.state["indicator"]["verdict"] if self.options["indicator"] else None

    def _records_changed(self) -> None:
        """Another board of the same records stored a game: show the new bests without a new version. Called
        from inside that board's store, so never wait for this board's lock (two boards storing at once in two
        threads would wait for each other); when it is busy, the next sync shows them anyway.
        """
        if self._lock.acquire(blocking=False):
            try:
                if self._game is not None:
                    self.sync(bump=False)
            finally:
                self._lock.release()

    def _on_verdict(self) -> None:
        """A verdict arrived (in the pool's thread): the board shows it in the kernel's thread without a new
        version (no intent goes stale); see :meth:`_deliver`.
        """
        self._deliver(lambda: self.sync(bump=False))

    def _show_verdict(self) -> None:
        with self._lock:
            if self._game is not None:
                self.sync(bump=False)

    def _say(
        self, kind: str, text: str, again: Callable[[str], str | None] | None = None, *, by: object = None
    ) -> None:
        """Show ``text`` on the status line. ``again`` says it in another language, for a change of the board's
        language (without it, the message goes then: it would stay in the old language); ``by`` is whose it is
        (see :meth:`_unsay`).
        """
        self._message_id += 1
        self._message = {"id": self._message_id, "kind": kind, "text": text}
        self._again, self._said_by = again, by

    def _notice(self, key: str, *, by: object = None, **params: Any) -> None:
        """Show the catalogue's sentence ``key`` as an info message, said again in a new language."""
        self._say("info", message(key, self._lang, **params), lambda lang: message(key, lang, **params), by=by)

    def _unsay(self, by: object) -> None:
        """Clear the message that ``by`` said, if it is still shown (in whatever language it is now)."""
        if self._message is not None and self._said_by is by:
            self._message, self._again, self._said_by = None, None, None

    def _say_again(self) -> None:
        """The board's language changed: the message is said in it (a new id, so the board reads it out), or
        goes.
        """
        if self._message is None:
            return
        again = self._again
        text = again(self._lang) if again is not None else None
        if text is None:
            self._message, self._again, self._said_by = None, None, None
        else:
            self._say(self._message["kind"], text, again, by=self._said_by)

    def _narration(self, change: Change) -> str:
        played = change.last
        assert played is not None
        if change.kind == "undo":  # the game is back where the move was made: the move is told from there
            return message("narrate.undo", self._lang, move=move_phrase(change.game, played.move))
        return narrate_played(change.game, played)

    # ------------------------------------------------------------------------------------------- intents

    def handle_intent(self, content: object) -> dict[str, Any] | None:
        """Check and apply one intent from the front end; returns the reply message, if any.

        A malformed, stale or illegal intent changes nothing and is answered with a ``rejected`` message.
        """
        intent_id = content.get("id") if isinstance(content, Mapping) else None
        if not isinstance(intent_id, int) or isinstance(intent_id, bool):
            intent_id = None
        try:
            with self._lock:
                return self._apply_intent(content, intent_id)
        except RejectedIntentError as rejected:
            return protocol.rejected(intent_id, rejected.text, rejected.rule, self._version)
        except Exception as err:  # a defect must still answer, never leave a traceback without a reply
            warnings.warn(f"intent failed: {type(err).__name__}: {err}", RuntimeWarning, stacklevel=2)
            return protocol.rejected(intent_id, f"internal error: {type(err).__name__}", None, self._version)

    def _apply_intent(self, content: object, intent_id: int | None) -> dict[str, Any] | None:
        kind, fields = protocol.read_intent(content, self._version, self._lang)
        try:
            handler = self._HANDLERS.get(kind)
            if handler is not None:
                return handler(self, kind, fields, intent_id)
            if kind in protocol.SIMPLE:
                protocol.check_fields(fields, kind)
                self._call_game(kind)
            else:  # a switch the front end may set: show_moves, indicator
                value = protocol.option_value(fields, kind)
                self.set_option(kind, value)
                self.host.option_changed(kind, value)
        except RejectedIntentError:
            raise
        except IllegalMoveError as err:
            raise RejectedIntentError(err.reason, err.rule) from None
        except PatienceError as err:
            raise RejectedIntentError(str(err)) from None
        return None

    def _quiz_waits(self) -> bool:
        return self._player is not None and self._player.is_waiting(self.game)

    def _on_move(self, kind: str, fields: Mapping[str, Any], intent_id: int | None) -> dict[str, Any] | None:
        move = protocol.intent_move(fields)
        if self._quiz_waits():
            return self._quiz_answer(move, intent_id)
        if self._recorder is not None:
            self._record_move(move)
        else:
            self.game.play(move)
        return None

    def _on_talon(self, kind: str, fields: Mapping[str, Any], intent_id: int | None) -> dict[str, Any] | None:
        protocol.check_fields(fields, kind)
        if self._quiz_waits():  # a click on the stock answers too: drawing may be the move
            return self._quiz_answer(DRAW if kind == "draw" else RECYCLE, intent_id)
        getattr(self.game, kind)()
        return None

    def _on_undo(self, kind: str, fields: Mapping[str, Any], intent_id: int | None) -> dict[str, Any] | None:
        protocol.check_fields(fields, "undo")
        if self._recorder is not None and self._recorder.drop_illegal():
            self.sync()
        else:
            self._call_game("undo")
        return None

    def _call_game(self, kind: str) -> None:
        """The game's call ``kind`` (``undo``, ``draw``, ...), refused in the board's language when it cannot be
        made now (a click that arrived after the board changed).
        """
        need = _CAN.get(kind)
        if need is not None and not getattr(self.game, need[0]):
            raise RejectedIntentError(message(need[1], self._lang))
        getattr(self.game, kind)()

    def _on_restart(self, kind: str, fields: Mapping[str, Any], intent_id: int | None) -> dict[str, Any] | None:
        protocol.check_fields(fields, "restart")
        if self._own is None:
            self._store_unfinished()
        self.game.reset()
        return None

    def _on_new(self, kind: str, fields: Mapping[str, Any], intent_id: int | None) -> dict[str, Any] | None:
        seed, rules = protocol.new_game_request(fields, self.game.rules)
        self.new_game(seed=seed, rules=rules)
        return None

    def _on_hint(self, kind: str, fields: Mapping[str, Any], intent_id: int | None) -> dict[str, Any] | None:
        protocol.check_fields(fields, "hint")
        option = self.options.__getitem__
        reply = protocol.hint_reply(
            self.game,
            intent_id,
            max_states=option("hint_max_states"),
            seconds=option("hint_seconds"),
            samples=self.options["hint_samples"],
        )
        if reply is None:
            raise RejectedIntentError(self.labels.get("no-hint", "No moves left."))
        return reply

    def _on_stats(self, kind: str, fields: Mapping[str, Any], intent_id: int | None) -> dict[str, Any] | None:
        protocol.check_fields(fields, "stats")
        return {"type": "stats", "id": intent_id, "rows": self._keeper.rows()}

    def _on_review(self, kind: str, fields: Mapping[str, Any], intent_id: int | None) -> dict[str, Any] | None:
        if protocol.review_action(fields) == "cancel":
            self.cancel_review()
        else:
            self._start_review()
        return None

    def _on_resume(self, kind: str, fields: Mapping[str, Any], intent_id: int | None) -> dict[str, Any] | None:
        protocol.check_fields(fields, "resume", ("accept",))
        self.resume() if fields.get("accept") is True else self.decline_resume()
        return None

    def _on_lang(self, kind: str, fields: Mapping[str, Any], intent_id: int | None) -> dict[str, Any] | None:
        protocol.check_fields(fields, "lang", ("lang",))
        self.lang = fields.get("lang")  # type: ignore[assignment]  # checked by the setter
        return None

    def _on_lesson(self, kind: str, fields: Mapping[str, Any], intent_id: int | None) -> dict[str, Any] | None:
        protocol.check_fields(fields, "lesson", ("action", "pace", "step"))
        action = fields.get("action")
        if action == "goto":
            self.goto(protocol.lesson_step(fields, self._lesson_player().steps))
        elif "step" in fields:
            raise RejectedIntentError("intent 'lesson' takes a 'step' only with the action 'goto'")
        elif action == "pace":
            if self._player is None:
                raise PatienceError(message("lesson.none", self._lang))
            self._player.set_pace(fields.get("pace"))
            self.sync()
        else:
            self.step(str(action) if isinstance(action, str) else repr(action))
        return None

    def _on_record(self, kind: str, fields: Mapping[str, Any], intent_id: int | None) -> dict[str, Any] | None:
        action, value = protocol.record_request(fields, self.game)
        if action == "start":
            self.start_recording()
            return None
        recorder = self._recorder
        if recorder is None:
            raise PatienceError(message("record.not-recording", self._lang))
        recorder.follow(self.game)
        if action == "stop":
            self.stop_recording()
            return None
        if action == "note":
            recorder.set_note(value, self._lang)
        elif action == "title":
            recorder.set_title(value, self._lang)
        elif action == "mark":
            recorder.toggle_mark(value, self._lang)
        elif action == "clear":
            recorder.clear_marks(self._lang)
        else:
            recorder.set_quiz(value, self._lang)
        self.sync()
        return None

    def _on_autoplay(self, kind: str, fields: Mapping[str, Any], intent_id: int | None) -> dict[str, Any] | None:
        protocol.check_fields(fields, "autoplay", ("action",))
        if fields.get("action") != "stop":
            raise RejectedIntentError(f"intent 'autoplay' takes the action 'stop', not {quote(fields.get('action'))}")
        self.stop_autoplay()
        return None

    #: The handler of each intent type but the game's plain calls (``SIMPLE``) and the front end's switches.
    _HANDLERS: Mapping[str, Callable[[BoardSession, str, Mapping[str, Any], int | None], dict[str, Any] | None]] = {
        "move": _on_move,
        "draw": _on_talon,
        "recycle": _on_talon,
        "undo": _on_undo,
        "restart": _on_restart,
        "new": _on_new,
        "hint": _on_hint,
        "stats": _on_stats,
        "review": _on_review,
        "resume": _on_resume,
        "lang": _on_lang,
        "lesson": _on_lesson,
        "record": _on_record,
        "autoplay": _on_autoplay,
    }

    def _quiz_answer(self, move: Move, intent_id: int | None) -> dict[str, Any] | None:
        """The class's answer to a quiz step: judged, said on the board, and the step played when it is over.

        An answer the solver must judge (a legal move the step does not list) is judged in a worker thread; the
        ``answer`` reply then follows when it is in (``None`` now).
        """
        player = self._player
        assert player is not None
        game = self.game
        budget = self.options["quiz_max_states"]
        if self._busy == "quiz":
            raise PatienceError(message("quiz.judging", self._lang))
        if not player.needs_solver(move, game, budget):
            answer = player.lesson.judge(player.step + 1, move, max_states=None, lang=self._lang)
            return self._take_answer(player, answer, intent_id)
        step, lang = player.step + 1, self._lang
        lesson, peek = player.lesson, self.options["reveal"]  # fair while the face-down cards are hidden

        def judge() -> Any:
            try:
                return lesson.judge(step, move, max_states=budget, lang=lang, peek=peek)
            except Exception:  # the solver failed: the move is judged as one the step does not ask for
                return Answer("other", message("quiz.other", lang))

        def done(answer: Any) -> None:
            if self._player is player:
                reply = self._take_answer(player, answer, intent_id)
                with contextlib.suppress(Exception):  # no front end to answer (a script)
                    self.host.send(reply)

        self._background("quiz", judge, done, "quiz.judging")
        return None

    def _take_answer(self, player: LessonPlayer, answer: Answer, intent_id: int | None) -> dict[str, Any]:
        game = self.game
        moves = game.moves
        answer = player.word_answer(answer, game, self._lang)
        self._say("info", answer.text)  # before the step's move is played: its sync carries the words
        player.take_answer(answer, game)
        if game.moves == moves:  # a wrong answer with tries left: nothing was played
            self.sync()
        return {"type": "answer", "id": intent_id, "verdict": answer.verdict, "text": answer.text}

    # ------------------------------------------------------------------------------- work in a worker thread

    def _token(self) -> tuple[Any, ...]:
        """What the board shows: work started for it is dropped when it changed by the time the work is done."""
        player, game = self._player, self.game
        return (self._shown, game.history, player.step if player else None)

    def _background(
        self,
        kind: Literal["review", "quiz"],
        job: Callable[[], Any],
        done: Callable[[Any], None],
        say: str,
        cancel: threading.Event | None = None,
    ) -> None:
        """Run ``job`` off the kernel's thread (the board's runner) and hand its result to ``done`` in the kernel's
        thread (see :meth:`_deliver`), unless it went stale meanwhile: the board changed, or ``cancel`` was set
        (even after the job was done: the board then stays as it was and says so). A job that fails, or work
        that cannot start, switches the review off with a notice; the board plays on. ``say`` is the catalogue's
        sentence shown while the job runs.
        """
        token = self._token()
        mine = object()  # whose "busy" message it is

        def finish(result: Any, error: BaseException | None) -> None:
            self._busy = None
            self._review_progress = self._review_cancel = None
            self._unsay(mine)
            if cancel is not None and cancel.is_set() and not isinstance(error, ReviewCancelledError):
                error = ReviewCancelledError("the review was cancelled")  # cancelled after the job's last look
            if error is None and self._token() == token:
                try:
                    done(result)
                    return
                except Exception as err:  # showing it failed: off, as when the job fails
                    error = err
            if isinstance(error, ReviewCancelledError):  # stopped on purpose: the board stays as it was
                self._notice("review.cancelled")
            elif error is not None:
                reason = f"{type(error).__name__}: {error}" if str(error) else type(error).__name__
                self._review_error = reason
                self._notice("notice.review-off", reason=reason)
            self.sync(bump=False)

        def run() -> None:
            try:
                result, error = job(), None
            except Exception as err:  # a failure switches the feature off, never a traceback
                result, error = None, err
            self._deliver(lambda: finish(result, error))

        self._busy = kind
        self._notice(say, by=mine)
        try:
            self._runner.start(kind, run)
        except Exception as err:  # no threads here (Pyodide): off, with a notice
            finish(None, err)
            return
        self.sync()

    def _deliver(self, call: Callable[[], None]) -> None:
        """Run ``call`` (from a worker thread) in the kernel's thread, under the board's lock: it waits in a queue
        that the host empties there (:meth:`Host.schedule`), or a cell waiting for it
        (:meth:`wait_for_background`, whose cell keeps the kernel busy). With no such thread (a plain script)
        the worker's thread runs it.
        """
        self._pending.append(call)
        if not self.host.schedule(self.run_pending):
            self.run_pending()

    def run_pending(self) -> None:
        """Run the calls handed over by worker threads, each once, in the order they came."""
        while True:
            try:
                call = self._pending.popleft()
            except IndexError:
                return
            with self._lock:
                if self._game is not None:
                    call()

    def wait_for_background(self, timeout: float = 60.0) -> None:
        """Block until the work in worker threads (a review, a quiz answer) is done and shown."""
        self._runner.join(timeout, ("review", "quiz"))
        self.run_pending()

    def _start_review(self) -> None:
        """The "Review game" button: review the game in a worker thread and show it as :meth:`review` does."""
        if self._review_error is not None:
            raise PatienceError(message("notice.review-off", self._lang, reason=self._review_error))
        if self._busy is not None:
            return
        if not self._review_offered(self.game, self.state.get("indicator", {})):
            raise PatienceError(message("review.not-yet", self._lang))
        self._check_reviewable(self.game)
        game = self.game.copy()
        cancel = threading.Event()

        def progress(done: int, total: int) -> None:  # in the worker thread: shown in the kernel's
            self._deliver(functools.partial(self._review_progressed, cancel, done, total))

        job = self._review_job(game, progress, cancel)
        self._review_cancel, self._review_progress = cancel, (0, game.moves + 2)
        self._background("review", job, lambda f: self._show_review(self.game, f), "review.busy", cancel)

    def _review_progressed(self, cancel: threading.Event, done: int, total: int) -> None:
        """The running review got ``done`` of ``total`` positions done: the board shows it (no new version)."""
        if self._busy == "review" and self._review_cancel is cancel and not cancel.is_set():
            self._review_progress = (min(done, total), total)
            self.sync(bump=False)

    def cancel_review(self) -> None:
        """Stop the review running in a worker thread: it stops at its next position (a result already in is
        not shown), the board says so and stays as it was. Nothing happens when no review runs.
        """
        if self._review_cancel is not None:
            self._review_cancel.set()

    # ------------------------------------------------------------------------------------------- autoplay

    def autoplay(self, player: Any, *, pace: Any = 0.8, max_moves: Any = 1_000) -> None:
        """Let ``player`` play the game on the board: a :class:`~patiencelab.players.Player` or any function from a
        :class:`~patiencelab.core.view.PlayerView` to a move. It chooses in a worker thread, from the player's view
        only; each move is played in the kernel's thread (see :meth:`_deliver`), so the board animates it as any
        other, ``pace`` seconds apart. It stops when the game is won or no move is left, after ``max_moves``
        moves, on :meth:`stop_autoplay` or the board's Stop button, when the board shows another game, lesson or
        recording, or when the game changed other than by the player's own moves (a move, an undo or a restart
        by hand, also while it waits between moves); a player that fails or answers with a move the rules refuse
        stops with a notice. Returns at once.
        """
        from patiencelab.players import as_choose

        choose = as_choose(player, self.game)
        if isinstance(pace, bool) or not isinstance(pace, (int, float)) or not 0 <= pace <= 60:
            raise PatienceError(f"pace is the seconds between moves, from 0 to 60, not {quote(pace)}")
        if isinstance(max_moves, bool) or not isinstance(max_moves, int) or max_moves < 1:
            raise PatienceError(f"max_moves is a whole number of at least 1, not {quote(max_moves)}")
        if self._player is not None or self._recorder is not None:
            raise PatienceError(message("autoplay.not-now", self._lang))
        self.stop_autoplay()
        stop, name = threading.Event(), _player_name(player)
        shown = self._shown
        #: The moves played so far, and the game's changes when the player last played (any other is a hand's).
        played, seen = [0], [self._changes]
        #: What runs the player's looks: the board's runner, or the kernel's event loop where no thread starts.
        runner: list[Runner] = [self._runner]

        def over() -> bool:
            """Under the board's lock: whether the player must stop rather than look or play."""
            game = self._game
            return (
                stop.is_set()
                or game is None
                or self._shown != shown
                or self._changes != seen[0]
                or played[0] >= max_moves
                or not game.legal_moves()
            )

        def look() -> None:
            """Off the kernel's thread: the player chooses a move from its view; the kernel's thread plays it."""
            try:
                with self._lock:
                    view = None if over() else self.game.player_view()
                if view is None:
                    self._deliver(functools.partial(self._autoplay_ended, stop, name, None))
                    return
                move = choose(view)  # outside the lock: the board plays on while the player thinks
            except Exception as err:  # a player that fails stops, never a traceback
                self._deliver(functools.partial(self._autoplay_ended, stop, name, err))
                return
            self._deliver(functools.partial(turn, move))

        def turn(move: Any) -> None:
            """In the kernel's thread: play the move chosen unless the board changed since the player looked."""
            if over():
                self._autoplay_ended(stop, name, None)
                return
            try:
                self.game.play(move)
            except PatienceError as err:  # the player chose a move the rules refuse: it stops, with the reason
                self._say("info", message("autoplay.refused", self._lang, player=name, reason=str(err)))
                self._autoplay_ended(stop, name, None)
                return
            played[0], seen[0] = played[0] + 1, self._changes
            if over():
                self._autoplay_ended(stop, name, None)
                return
            try:
                runner[0].start("autoplay", look, delay=pace, wake=stop)
            except Exception as err:  # the next look cannot start: it stops, with the reason
                self._autoplay_ended(stop, name, err)

        with self._lock:  # the player's first look at the board waits until the board says it plays
            self._notice("autoplay.playing", by=stop, player=name)
            self._autoplay = (stop, name)
            try:
                runner[0].start("autoplay", look)
            except Exception as err:  # no threads here (Pyodide): turns of the kernel's event loop, if it has one
                later = _later(self.host)
                runner[0] = LoopRunner(later) if later is not None else runner[0]
                try:
                    if later is None:
                        raise
                    runner[0].start("autoplay", look)
                except Exception:
                    self._autoplay = None
                    self._unsay(stop)
                    raise PatienceError(message("autoplay.no-threads", self._lang, reason=str(err))) from None
            self.sync()

    def stop_autoplay(self) -> None:
        """Stop the automatic player (the move it is choosing is not played); nothing happens when none plays."""
        if self._autoplay is not None:
            self._autoplay[0].set()

    def _autoplay_ended(self, stop: threading.Event, name: str, error: BaseException | None) -> None:
        """In the kernel's thread: the player ``stop`` belongs to stopped (after ``error``, if any)."""
        stop.set()
        if self._autoplay is None or self._autoplay[0] is not stop:
            return  # another autoplay has started since
        self._autoplay = None
        if error is not None:
            reason = f"{type(error).__name__}: {error}" if str(error) else type(error).__name__
            self._notice("autoplay.failed", player=name, reason=reason)
        else:
            self._unsay(stop)  # "... is playing", in whatever language it is now
        self.sync(bump=False)

    # ------------------------------------------------------------------------------------------- recording

    def _record_move(self, move: Move) -> None:
        """A move while recording: played (the recorder reads it from the history), or, when the rules reject
        it, recorded as an illegal step.
        """
        recorder = self._recorder
        assert recorder is not None
        game = self.game
        error = game.check(move)
        if error is None:
            game.play(move)
            return
        if error.rule == "game-over":
            raise error
        recorder.illegal(game, move)
        self.sync()


def _later(host: Host) -> Callable[[float, Callable[[], None]], bool] | None:
    """How to run a call in the kernel's thread some seconds from now (called in that thread): the host's own
    ``later(delay, call)`` if it has one, else the event loop running in this thread (a kernel's, in a browser's
    Python too), else ``None``.
    """
    own = getattr(host, "later", None)
    if callable(own):
        return own  # type: ignore[no-any-return]
    try:
        loop = asyncio.get_running_loop()
    except RuntimeError:
        return None

    def later(delay: float, call: Callable[[], None]) -> bool:
        loop.call_later(delay, call)
        return True

    return later


def _player_name(player: object) -> str:
    """A player's name for the board: its ``name``, its class's or its function's."""
    name = getattr(player, "name", None)
    if isinstance(name, str) and name:
        return name[:40]
    name = getattr(player, "__name__", None) or type(player).__name__
    return str(name)[:40]
