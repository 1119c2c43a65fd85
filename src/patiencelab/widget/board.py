"""KlondikeWidget: the notebook board. Python stays authoritative; the front end only sends intents.

The protocol (synced ``state`` and ``labels``, intents and replies) is described in ``docs/widget-protocol.md``.
"""

from __future__ import annotations

import asyncio
import atexit
import collections
import contextlib
import itertools
import pathlib
import threading
import warnings
from collections.abc import Callable, Iterable, Mapping
from typing import Any, Literal

import anywidget
import traitlets

from patiencelab.core.errors import IllegalMoveError, PatienceError, quote
from patiencelab.core.game import Change, Klondike
from patiencelab.core.i18n import check_language, labels, message
from patiencelab.core.limits import check_budget
from patiencelab.core.moves import DRAW, RECYCLE, Move
from patiencelab.core.rules import Rules
from patiencelab.lesson import Answer, Lesson
from patiencelab.narration import narrate_played
from patiencelab.records import Records
from patiencelab.review import Review, review
from patiencelab.widget import protocol
from patiencelab.widget.indicator import Executor, Indicator
from patiencelab.widget.keeper import RecordKeeper
from patiencelab.widget.protocol import INTENTS, RejectedIntentError
from patiencelab.widget.teaching import LessonPlayer, LessonRecorder

__all__ = ["INTENTS", "KlondikeWidget"]

_STATIC = pathlib.Path(__file__).parent.parent / "static"
#: Serial numbers of what boards show (see ``KlondikeWidget._shown``).
_SERIALS = itertools.count(1)
if not (_STATIC / "widget.js").is_file():  # pragma: no cover - only in a checkout where the front end is unbuilt
    raise ImportError(
        "the widget's front end is not built: run 'make setup' (or 'npm --prefix js ci && npm --prefix js run build')"
    )


_EXITING = threading.Event()
# Set when the interpreter ends (a kernel restart): boards closed then leave their games in play, to be offered to
# the next board, instead of storing them as abandoned. Registered after the widget library's own exit work, so
# it runs before it.
atexit.register(_EXITING.set)

#: The card widths (pixels) that ``KlondikeWidget(size=...)`` takes.
MIN_SIZE, MAX_SIZE = 40, 240


class KlondikeWidget(anywidget.AnyWidget):
    """Klondike in a notebook cell.

    ``widget.game`` is the live :class:`~patiencelab.core.game.Klondike`: scripting it (``widget.game.play("d")``)
    updates every view of the widget at once. ``lang`` is ``en``, ``nl`` or ``sv``; ``records`` is where
    finished games are stored (``True``: the default database; ``None``: nowhere), and the game in play, kept on
    every move: ``KlondikeWidget()`` with no game, seed, rules or lesson offers to continue the game a board left
    in play (:meth:`resume`, :meth:`decline_resume`); ``lesson`` shows a
    :class:`~patiencelab.lesson.Lesson` from its start (``KlondikeWidget(lesson=Lesson.load(path))``).
    """

    _esm = _STATIC / "widget.js"
    _css = _STATIC / "widget.css"

    state = traitlets.Dict().tag(sync=True)
    labels = traitlets.Dict().tag(sync=True)
    #: Show face-down cards face up, marked (for teaching); never switched on by the widget itself.
    reveal = traitlets.Bool(False)
    #: Highlight every card that can move, and every place a picked-up card may go.
    show_moves = traitlets.Bool(False)
    #: Narrate every move in the caption line (as lessons do).
    narrate = traitlets.Bool(False)
    #: Show the winnability indicator.
    indicator = traitlets.Bool(False)
    #: The hint is fair (it reads only what the player sees): it solves this many deals of the unseen cards.
    hint_samples = traitlets.Int(16)
    #: Positions the solver may search in each of those deals: a state budget gives the same hint on every machine.
    hint_max_states = traitlets.Int(2_000, allow_none=True)
    #: Seconds each solver call may think for a hint, on top of ``hint_max_states`` (by default no limit).
    hint_seconds = traitlets.Float(float("inf"))
    #: The most positions one of the indicator's jobs may search (it starts small and keeps thinking with
    #: larger budgets up to this cap; ``None``: the indicator's default cap).
    indicator_max_states = traitlets.Int(None, allow_none=True)
    #: Seconds one of the indicator's jobs may think, on top of its state budget (by default no limit).
    indicator_seconds = traitlets.Float(float("inf"))
    #: Positions the solver may search to judge a quiz answer that is not one the step lists (in a worker
    #: thread: the kernel stays free meanwhile).
    quiz_max_states = traitlets.Int(50_000, allow_none=True)
    #: Positions each solver call of a review may search (the "Review game" button runs it in a worker thread).
    review_max_states = traitlets.Int(200_000, allow_none=True)
    #: The cards' width in pixels (40 to 240), for a projector or a small screen; ``None`` (the default): as large
    #: as the output's width and the window's height allow.
    size = traitlets.Any(None).tag(sync=True)
    #: The letters on the card faces: ``"standard"`` (A, J, Q, K) or ``"local"``: the letters of the board's
    #: language (Dutch B, V, K, A; Swedish Kn, D, K, E), as the sentences always name them.
    faces = traitlets.Any("standard").tag(sync=True)

    @traitlets.validate("hint_max_states", "indicator_max_states", "quiz_max_states", "review_max_states")
    def _check_states(self, proposal: dict[str, Any]) -> int | None:
        value: int | None = proposal["value"]
        check_budget(max_states=value)  # a bool is no budget: True is not taken for 1
        return value

    @traitlets.validate("hint_seconds", "indicator_seconds")
    def _check_seconds(self, proposal: dict[str, Any]) -> float:
        value: float = proposal["value"]
        check_budget(seconds=value)
        return value

    @traitlets.validate("size")
    def _check_size(self, proposal: dict[str, Any]) -> int | None:
        value: int | None = proposal["value"]
        if value is not None and (type(value) is not int or not MIN_SIZE <= value <= MAX_SIZE):
            limits = f"{MIN_SIZE} to {MAX_SIZE} pixels"
            raise PatienceError(f"size is a card width from {limits} or None, not {quote(value)}")
        return value

    @traitlets.validate("faces")
    def _check_faces(self, proposal: dict[str, Any]) -> str:
        value = proposal["value"]
        if value not in ("standard", "local"):
            raise PatienceError(f"faces is 'standard' or 'local', not {quote(value)}")
        return str(value)

    def __init__(
        self,
        game: Klondike | None = None,
        *,
        seed: int | None = None,
        rules: Rules | None = None,
        lang: str = "en",
        records: Records | bool | None = True,
        executor: Executor | None = None,
        lesson: Lesson | None = None,
        **kwargs: Any,
    ) -> None:
        if game is not None and (seed is not None or rules is not None):
            raise PatienceError("give a game, or a seed and rules, not both")
        if game is not None and not isinstance(game, Klondike):
            raise PatienceError(f"game must be a Klondike, not {type(game).__name__}")
        self._lang = check_language(lang)
        self._version = 0
        self._game: Klondike | None = None
        self._unlisten: Any = None
        self._player: LessonPlayer | None = None
        self._recorder: LessonRecorder | None = None
        #: A serial number of what the board shows (its game, lesson and recording), new whenever one of them is
        #: replaced: work started for one is never taken for another (an ``id()`` may be reused).
        self._shown = next(_SERIALS)
        #: Work in a worker thread (a review, a quiz answer being judged): its kind, or None.
        self._busy: Literal["review", "quiz"] | None = None
        self._threads: list[threading.Thread] = []
        #: Calls from worker threads waiting for the kernel's thread (see :meth:`_deliver`).
        self._pending: collections.deque[Callable[[], None]] = collections.deque()
        #: Why the review switched itself off, or None.
        self._review_error: str | None = None
        self._message: dict[str, Any] | None = None
        self._message_id = 0
        self._lock = threading.RLock()
        self._loop = _running_loop()  # the kernel's event loop: verdicts from the pool's thread go through it
        self._indicator = Indicator(self._on_verdict, **({"executor": executor} if executor is not None else {}))
        self._indicator_notice: str | None = None
        self._records_notice: str | None = None
        self._keeper = RecordKeeper(records, on_change=self._records_changed)
        if game is None and seed is None and rules is None and lesson is None:
            self._keeper.offer()  # a game left in play by a board that is gone: the board offers to continue it
        super().__init__(**kwargs)
        self.labels = labels(self._lang)
        self.game = game if game is not None else Klondike(seed=seed, rules=rules, lang=self._lang)
        if lesson is not None:
            self.lesson = lesson
        self.on_msg(self._on_custom_message)

    # ------------------------------------------------------------------------------------------- the game

    @property
    def game(self) -> Klondike:
        """The live game this widget shows."""
        assert self._game is not None
        return self._game

    @game.setter
    def game(self, game: Klondike) -> None:
        if not isinstance(game, Klondike):
            raise PatienceError(f"game must be a Klondike, not {type(game).__name__}")
        self._recorder = None
        self._show(game)
        self._player = None

    def _show(self, game: Klondike) -> None:
        """Follow ``game`` from now on (a lesson's games are never stored in the records)."""
        self._store_unfinished()
        if self._unlisten is not None:
            self._unlisten()
        game.lang = self._lang
        self._game = game
        self._shown = next(_SERIALS)
        self._keeper.new_game(game)
        self._unlisten = game.on_change(self._sync)
        self._sync(fresh=True)

    def resume(self) -> Klondike:
        """Continue the game a board left in play (before a kernel restart or a page reload), which the board
        offers ("Continue your game from 12:04?"); returns it.
        """
        game = self._keeper.resume(self._lang)
        if game is None:
            raise PatienceError(message("resume.none", self._lang))
        self.game = game
        return game

    def decline_resume(self) -> None:
        """Do not continue the game offered: it is stored as abandoned. A move in the new deal does the same."""
        self._keeper.decline()
        self._sync()

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
        self.game.lang = lang
        self._sync()

    @property
    def records(self) -> Records | None:
        """Where finished and abandoned games are stored (``None``: nowhere). Set ``None`` to stop storing,
        ``True`` for the default database, or a :class:`~patiencelab.records.Records`.
        """
        return self._keeper.records

    @records.setter
    def records(self, records: Records | bool | None) -> None:
        self._keeper = RecordKeeper(records, on_change=self._records_changed)
        self._keeper.new_game(self.game)
        self._sync()

    def _repr_mimebundle_(self, **kwargs: Any) -> tuple[dict[Any, Any], dict[Any, Any]] | None:
        """The widget view, plus a picture of the board for viewers without a kernel (static notebook sites,
        HTML exports), drawn when the widget is displayed and captioned as such, with its number of moves.
        """
        from patiencelab.svg import render

        bundle = super()._repr_mimebundle_(**kwargs)
        if bundle is not None:
            caption = message("svg.snapshot", self._lang, moves=self.game.moves)
            bundle[0]["image/svg+xml"] = render(self.game, reveal=self.reveal, width=720, caption=caption)
        return bundle

    def _store_unfinished(self) -> None:
        keeper = getattr(self, "_keeper", None)  # None when __init__ stopped early (bad arguments)
        if keeper is not None and self._player is None:
            keeper.store_unfinished(self._game)

    def close(self) -> None:
        """Store the game in play (as abandoned; when the interpreter ends, it stays in play to be offered to the
        next board), stop the indicator's solver and close the widget.
        """
        if not _EXITING.is_set():
            self._store_unfinished()
        keeper = getattr(self, "_keeper", None)
        if keeper is not None:
            keeper.on_change = None  # a closed board no longer follows the other boards' games
        indicator = getattr(self, "_indicator", None)
        if indicator is not None:
            indicator.close()
        super().close()

    @traitlets.observe("reveal", "show_moves", "narrate", "indicator")
    def _option_changed(self, change: Mapping[str, Any]) -> None:
        if self._game is not None:
            self._sync()

    # ------------------------------------------------------------------------------------------- lessons

    @property
    def lesson(self) -> Lesson | None:
        """The lesson being stepped through, or ``None``. Setting one shows its start with step controls."""
        return self._player.lesson if self._player else None

    @lesson.setter
    def lesson(self, lesson: Lesson | None) -> None:
        if lesson is None:
            self._player = None
            self._shown = next(_SERIALS)
            self._sync()
            return
        self._start_lesson(lesson, 0)

    def _start_lesson(self, lesson: Lesson, step: int, *, review: bool = False) -> None:
        player = LessonPlayer(lesson)
        player.review_at = step if review else None
        self._store_unfinished()
        self._recorder = None
        self._player = player
        player.step = step
        self._show(player.game_at(step, self._lang))

    @property
    def recording(self) -> bool:
        """Whether a lesson is being recorded (see :meth:`start_recording`)."""
        return self._recorder is not None

    def start_recording(self) -> None:
        """Record a lesson from the position on the board: each move played becomes a step, a move the rules
        reject an illegal step; the last step takes a note, marks and a quiz. A lesson shown is closed first.
        """
        self._player = None
        self._recorder = LessonRecorder(self.game, message("record.title", self._lang))
        self._shown = next(_SERIALS)
        self._sync()

    def stop_recording(self) -> Lesson:
        """End the recording and show the recorded lesson from its start; ``widget.lesson`` is that lesson (save
        it with ``widget.lesson.save(path)``).
        """
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
        """Step the lesson: ``first``, ``back``, ``forward``, ``last``, ``play``, ``pause``, ``resume``, ``close``."""
        player = self._player
        if player is None:
            raise PatienceError("there is no lesson to step through: set widget.lesson first")
        if action == "close":
            self.lesson = None
            return
        shown = player.act(action, self.game, self._lang)
        if isinstance(shown, Klondike):
            self._show(shown)
        elif not shown:  # only the lesson's state changed; a played step synced through the game
            self._sync()

    # ------------------------------------------------------------------------------------------- syncing

    @property
    def version(self) -> int:
        """The version of the synced state: it grows with every change."""
        return self._version

    def _sync(self, change: Change | None = None, *, fresh: bool = False, bump: bool = True) -> None:
        """Send the state: after ``change`` (from the game's listener), for a game just shown (``fresh``), or
        for a change of the board's own (options, lesson, verdicts; the last move stays as it was).
        """
        with self._lock:
            self._sync_locked(change, fresh, bump)

    def _sync_locked(self, change: Change | None, fresh: bool, bump: bool) -> None:
        """Build the whole state first, then give it its version: a build that fails changes nothing."""
        game = self.game
        if self._player is None:
            self._keeper.follow(game)
        if change is not None:
            last = protocol.last_move(change, self.labels)
            if last is not None and self.narrate and self._player is None:
                self._say("narration", self._narration(change))
        else:
            last = None if fresh else self.state.get("last_move")
        indicator = self._indicator_state(game)
        records = self._keeper.state(game)
        if records["notice"] is not None and records["error"] != self._records_notice:
            self._records_notice = records["error"]
            self._say("info", records["notice"])  # said once; the status line keeps a mark with the reason
        state = {
            **protocol.board_state(game, reveal=self.reveal, show_moves=self.show_moves, lang=self._lang),
            "last_move": last,
            "message": self._message,
            "lesson": self._player.state(game, self._lang) if self._player else None,
            "indicator": indicator,
            "records": records,
            "record": self._record_state(game),
            "review": {"offered": self._review_offered(game, indicator), "busy": self._busy == "review"},
        }
        self._version += bump
        self.state = {**state, "version": self._version}

    def _record_state(self, game: Klondike) -> dict[str, Any] | None:
        """The recording's part of the state; a recording whose game went back before its start ends."""
        recorder = self._recorder
        if recorder is None:
            return None
        if not recorder.follow(game):
            self._recorder = None
            self._shown = next(_SERIALS)
            self._say("info", message("record.lost", self._lang))
            return None
        return recorder.state(self._lang)

    def _review_offered(self, game: Klondike, indicator: Mapping[str, Any]) -> bool:
        """The board offers a review once the game is over or stuck, or the indicator says it is lost."""
        if self._review_error is not None or self._player is not None or self._recorder is not None:
            return False
        lost = indicator.get("enabled") and indicator.get("verdict") == "lost"
        return game.status != "playing" or bool(lost)

    def _indicator_state(self, game: Klondike) -> dict[str, Any]:
        """The indicator's part of the state; when its worker cannot start, it is off with a notice, once."""
        enabled = self.indicator and self._player is None
        state = self._indicator.state(game, enabled, self.indicator_seconds, self.indicator_max_states)
        error = self._indicator.error
        if enabled and error is not None and self._indicator_notice != error:
            self._indicator_notice = error
            self._say("info", message("notice.indicator-off", self._lang, reason=error))
        return {**state, "error": error}

    def wait_for_verdict(self, timeout: float = 60.0) -> str | None:
        """Block until the indicator's verdict for the current position is in (for scripts and tests).

        Called in a kernel's cell, the kernel's event loop is busy with the cell, so the verdict is shown here
        rather than through the loop.
        """
        self._indicator.wait(timeout)
        if self._game is not None:
            self._show_verdict()
        return self.state["indicator"]["verdict"] if self.indicator else None

    def _records_changed(self) -> None:
        """Another board of the same records stored a game: show the new bests without a new version. Called
        from inside that board's store, so never wait for this board's lock (two boards storing at once in two
        threads would wait for each other); when it is busy, the next sync shows them anyway.
        """
        if self._lock.acquire(blocking=False):
            try:
                if self._game is not None:
                    self._sync(bump=False)
            finally:
                self._lock.release()

    def _on_verdict(self) -> None:
        """A verdict arrived (in the pool's thread): the board shows it in the kernel's thread without a new
        version (no intent goes stale); see :meth:`_deliver`.
        """
        self._deliver(lambda: self._sync(bump=False))

    def _show_verdict(self) -> None:
        with self._lock:
            if self._game is not None:
                self._sync(bump=False)

    def _say(self, kind: str, text: str) -> None:
        self._message_id += 1
        self._message = {"id": self._message_id, "kind": kind, "text": text}

    def _narration(self, change: Change) -> str:
        played = change.last
        assert played is not None
        if change.kind == "undo":
            return f"{self.labels.get('undo', 'Undo')}: {played.move}"
        return narrate_played(change.game, played)

    # ------------------------------------------------------------------------------------------- intents

    def _on_custom_message(self, _widget: object, content: object, _buffers: object) -> None:
        reply = self.handle_intent(content)
        if reply is not None:
            self.send(reply)

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
        kind, fields = protocol.read_intent(content, self._version)
        game = self.game
        try:
            if kind in ("move", "draw", "recycle") and self._player is not None and self._player.is_waiting(game):
                if kind == "move":
                    return self._quiz_answer(protocol.intent_move(fields), intent_id)
                protocol.check_fields(fields, kind)  # a click on the stock answers too: drawing may be the move
                return self._quiz_answer(DRAW if kind == "draw" else RECYCLE, intent_id)
            if kind == "move" and self._recorder is not None:
                self._record_move(protocol.intent_move(fields))
            elif kind == "move":
                game.play(protocol.intent_move(fields))
            elif kind == "undo" and self._recorder is not None and self._recorder.drop_illegal():
                protocol.check_fields(fields, kind)
                self._sync()
            elif kind in protocol.SIMPLE:
                protocol.check_fields(fields, kind)
                getattr(game, kind)()
            elif kind == "restart":
                protocol.check_fields(fields, kind)
                self._store_unfinished()
                game.reset()
            elif kind == "new":
                seed, rules = protocol.new_game_request(fields, game.rules)
                self.new_game(seed=seed, rules=rules)
            elif kind == "hint":
                protocol.check_fields(fields, kind)
                reply = protocol.hint_reply(
                    game,
                    intent_id,
                    max_states=self.hint_max_states,
                    seconds=self.hint_seconds,
                    samples=self.hint_samples,
                )
                if reply is None:
                    raise RejectedIntentError(self.labels.get("no-hint", "No moves left."))
                return reply
            elif kind == "stats":
                protocol.check_fields(fields, kind)
                return {"type": "stats", "id": intent_id, "rows": self._keeper.rows()}
            elif kind == "lesson":
                self._lesson_intent(fields)
            elif kind == "record":
                self._record_intent(fields)
            elif kind == "review":
                protocol.check_fields(fields, kind)
                self._start_review()
            elif kind == "resume":
                protocol.check_fields(fields, kind, ("accept",))
                self.resume() if fields.get("accept") is True else self.decline_resume()
            elif kind == "lang":
                protocol.check_fields(fields, kind, ("lang",))
                self.lang = fields.get("lang")  # type: ignore[assignment]
            else:
                setattr(self, kind, protocol.option_value(fields, kind))
        except RejectedIntentError:
            raise
        except IllegalMoveError as err:
            raise RejectedIntentError(err.reason, err.rule) from None
        except PatienceError as err:
            raise RejectedIntentError(str(err)) from None
        return None

    def _quiz_answer(self, move: Move, intent_id: int | None) -> dict[str, Any] | None:
        """The class's answer to a quiz step: judged, said on the board, and the step played when it is over.

        An answer the solver must judge (a legal move the step does not list) is judged in a worker thread; the
        ``answer`` reply then follows when it is in (``None`` now).
        """
        player = self._player
        assert player is not None
        game = self.game
        if self._busy == "quiz":
            raise PatienceError(message("quiz.judging", self._lang))
        if not player.needs_solver(move, game, self.quiz_max_states):
            answer = player.lesson.judge(player.step + 1, move, max_states=None, lang=self._lang)
            return self._take_answer(player, answer, intent_id)
        step, lang, budget = player.step + 1, self._lang, self.quiz_max_states
        lesson, peek = player.lesson, self.reveal  # fair while the face-down cards are hidden

        def judge() -> Any:
            try:
                return lesson.judge(step, move, max_states=budget, lang=lang, peek=peek)
            except Exception:  # the solver failed: the move is judged as one the step does not ask for
                return Answer("other", message("quiz.other", lang))

        def done(answer: Any) -> None:
            if self._player is player:
                reply = self._take_answer(player, answer, intent_id)
                with contextlib.suppress(Exception):  # no front end to answer (a script)
                    self.send(reply)

        self._background("quiz", judge, done, message("quiz.judging", self._lang))
        return None

    def _take_answer(self, player: LessonPlayer, answer: Answer, intent_id: int | None) -> dict[str, Any]:
        game = self.game
        moves = game.moves
        self._say("info", answer.text)  # before the step's move is played: its sync carries the words
        player.take_answer(answer, game)
        if game.moves == moves:  # a wrong answer with tries left: nothing was played
            self._sync()
        return {"type": "answer", "id": intent_id, "verdict": answer.verdict, "text": answer.text}

    # ------------------------------------------------------------------------------- work in a worker thread

    def _token(self) -> tuple[Any, ...]:
        """What the board shows: work started for it is dropped when it changed by the time the work is done."""
        player, game = self._player, self.game
        return (self._shown, game.history, player.step if player else None)

    def _background(
        self, kind: Literal["review", "quiz"], job: Callable[[], Any], done: Callable[[Any], None], say: str
    ) -> None:
        """Run ``job`` in a worker thread and hand its result to ``done`` in the kernel's thread, through its
        event loop (as the indicator's verdicts), unless the board changed meanwhile. A job that fails, or a
        thread that cannot start, switches the review off with a notice; the board plays on.
        """
        token = self._token()

        def finish(result: Any, error: BaseException | None) -> None:
            self._busy = None
            if self._message is not None and self._message["text"] == say:
                self._message = None
            if error is None and self._token() == token:
                try:
                    done(result)
                    return
                except Exception as err:  # showing it failed: off, as when the job fails
                    error = err
            if error is not None:
                reason = f"{type(error).__name__}: {error}" if str(error) else type(error).__name__
                self._review_error = reason
                self._say("info", message("notice.review-off", self._lang, reason=reason))
            self._sync(bump=False)

        def run() -> None:
            try:
                result, error = job(), None
            except Exception as err:  # a failure switches the feature off, never a traceback
                result, error = None, err
            self._deliver(lambda: finish(result, error))

        self._busy = kind
        self._say("info", say)
        try:
            thread = threading.Thread(target=run, name=f"patiencelab-{kind}", daemon=True)
            thread.start()
        except Exception as err:  # no threads here (Pyodide): off, with a notice
            finish(None, err)
            return
        self._threads = [t for t in self._threads if t.is_alive()] + [thread]
        self._sync()

    def _deliver(self, call: Callable[[], None]) -> None:
        """Run ``call`` (from a worker thread) in the kernel's thread, under the board's lock: it waits in a queue
        that the kernel's event loop empties, or a cell waiting for it (:meth:`wait_for_background`, whose cell
        keeps the loop busy). With no event loop (a plain script) the worker's thread runs it.
        """
        self._pending.append(call)
        loop = self._loop
        if loop is not None and not loop.is_closed():
            try:
                loop.call_soon_threadsafe(self._run_pending)
                return
            except RuntimeError:  # the loop closed in between
                pass
        self._run_pending()

    def _run_pending(self) -> None:
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
        """Block until the work in worker threads (a review, a quiz answer) is done and shown (for scripts,
        tests and a cell that waits).
        """
        for thread in list(self._threads):
            thread.join(timeout)
        self._run_pending()

    def _start_review(self) -> None:
        """The "Review game" button: review the game in a worker thread and show it as :meth:`review` does."""
        if self._review_error is not None:
            raise PatienceError(message("notice.review-off", self._lang, reason=self._review_error))
        if self._busy is not None:
            return
        if not self._review_offered(self.game, self.state.get("indicator", {})):
            raise PatienceError(message("review.not-yet", self._lang))
        game, budget = self.game.copy(), self.review_max_states

        def done(found: Any) -> None:
            lesson = Lesson.from_review(self.game, found, title=message("review.title", self._lang))
            self._start_lesson(lesson, found.at, review=True)

        self._background("review", lambda: review(game, max_states=budget), done, message("review.busy", self._lang))

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
        self._sync()

    def _record_intent(self, fields: Mapping[str, Any]) -> None:
        action, value = protocol.record_request(fields, self.game)
        if action == "start":
            self.start_recording()
            return
        recorder = self._recorder
        if recorder is None:
            raise PatienceError(message("record.not-recording", self._lang))
        recorder.follow(self.game)
        if action == "stop":
            self.stop_recording()
            return
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
        self._sync()

    def review(self) -> Review:
        """Review the game on the board (see :meth:`Klondike.review`) and show it as a lesson of the game so far,
        at the position the review speaks of (before the move that lost the deal, or where the game is when no
        move did), with the review's words as the note and an arrow for the move that keeps the deal winnable.
        Returns the review.
        """
        game = self.game
        found = review(game, max_states=self.review_max_states)
        lesson = Lesson.from_review(game, found, title=message("review.title", self._lang))
        self._start_lesson(lesson, found.at, review=True)
        return found

    def _lesson_intent(self, fields: Mapping[str, Any]) -> None:
        protocol.check_fields(fields, "lesson", ("action", "pace"))
        action = fields.get("action")
        if action == "pace":
            if self._player is None:
                raise PatienceError("there is no lesson to set the pace of")
            self._player.set_pace(fields.get("pace"))
            self._sync()
        else:
            self.step(str(action) if isinstance(action, str) else repr(action))


def _running_loop() -> asyncio.AbstractEventLoop | None:
    """The event loop running in this thread (a kernel's), or ``None``."""
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        return None
