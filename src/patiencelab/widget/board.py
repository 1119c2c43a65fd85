"""KlondikeWidget: the notebook board, a thin anywidget shell over a
:class:`~patiencelab.widget.session.BoardSession`. Python stays authoritative; the front end only sends intents.

The shell holds the traits (the synced ``state`` and ``labels``, the board's options), the comm and the hand-off from
worker threads to the kernel's event loop; the rest is the session's. The protocol: ``docs/widget-protocol.md``.
"""

from __future__ import annotations

import asyncio
import atexit
import inspect
import pathlib
from collections.abc import Callable, Iterable, Mapping
from typing import Any

import anywidget
import traitlets

from patiencelab.core.game import Klondike
from patiencelab.core.i18n import message
from patiencelab.core.moves import Move
from patiencelab.core.rules import Rules
from patiencelab.lessons.format import Lesson
from patiencelab.records.store import Records
from patiencelab.review import Review
from patiencelab.widget.indicator import Executor
from patiencelab.widget.intents import INTENTS
from patiencelab.widget.options import TABLE, options_doc
from patiencelab.widget.session import EXITING, OPTIONS, BoardSession

__all__ = ["INTENTS", "KlondikeWidget", "OptionTrait"]

_STATIC = pathlib.Path(__file__).parent.parent / "static"
if not (_STATIC / "widget.js").is_file():  # pragma: no cover - only in a checkout where the front end is unbuilt
    raise ImportError("the widget's front end is not built: run 'make setup' (or 'npm ci' and 'npm run build' in js/)")

# A kernel restart ends the interpreter: the widget library closes every board then, and they must leave their
# games in play (see BoardSession.close). Registered after the widget library's own exit work, so it runs first.
atexit.register(EXITING.set)


class OptionTrait(traitlets.TraitType[Any, Any]):
    """A board option as a trait, made from its row of :data:`~patiencelab.widget.options.TABLE`: its default, its
    help, and its check (a value it does not take raises a :class:`~patiencelab.core.errors.PatienceError` that
    names it, and changes nothing). The options of the board's look are synced to the front end.
    """

    def __init__(self, name: str) -> None:
        self.option = TABLE[name]
        super().__init__(self.option.default, help=self.option.doc)
        self.__doc__, self.info_text = self.option.doc, self.option.kind.takes
        if self.option.look:
            self.tag(sync=True)

    def validate(self, obj: object, value: object) -> Any:
        """``value``, checked by the option's row."""
        return self.option.check(value)


class KlondikeWidget(anywidget.AnyWidget):
    """Klondike in a notebook cell.

    ``widget.game`` is the live :class:`~patiencelab.core.game.Klondike`: scripting it (``widget.game.play("d")``)
    updates every view at once. ``lang`` is ``en``, ``nl`` or ``sv``; ``records`` stores finished games and the
    game in play (``True``: the default database; ``None``: nowhere), so that a board with no game or lesson offers
    to continue a game left in play (:meth:`resume`) of the deal and rules it asks for, if any; ``lesson`` shows a
    :class:`~patiencelab.lessons.Lesson` from its start.
    """

    _esm = _STATIC / "widget.js"
    _css = _STATIC / "widget.css"

    state = traitlets.Dict().tag(sync=True)
    labels = traitlets.Dict().tag(sync=True)
    # The options, each made from its row of widget/options.py (see OptionTrait).
    reveal = OptionTrait("reveal")
    show_moves = OptionTrait("show_moves")
    narrate = OptionTrait("narrate")
    indicator = OptionTrait("indicator")
    hint_samples = OptionTrait("hint_samples")
    hint_max_states = OptionTrait("hint_max_states")
    hint_seconds = OptionTrait("hint_seconds")
    indicator_max_states = OptionTrait("indicator_max_states")
    indicator_seconds = OptionTrait("indicator_seconds")
    quiz_max_states = OptionTrait("quiz_max_states")
    review_max_states = OptionTrait("review_max_states")
    review_samples = OptionTrait("review_samples")
    review_sample_max_states = OptionTrait("review_sample_max_states")
    size = OptionTrait("size")
    faces = OptionTrait("faces")

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
        BoardSession.check_arguments(game, seed, rules, lang)  # before the comm opens
        self._session: BoardSession | None = None
        super().__init__(**kwargs)
        try:  # the kernel's event loop: the results of worker threads go through it
            self._loop: asyncio.AbstractEventLoop | None = asyncio.get_running_loop()
        except RuntimeError:  # none in this thread (a script)
            self._loop = None
        start: dict[str, Any] = {"seed": seed, "rules": rules, "lang": lang, "records": records, "lesson": lesson}
        options = {name: getattr(self, name) for name in OPTIONS}
        self._session = BoardSession(game, host=self, options=options, executor=executor, **start)
        self.on_msg(self._on_custom_message)

    # ------------------------------------------------------------------------ the session's host (see Host)

    def show(self, state: dict[str, Any]) -> None:
        """Sync the state the session built."""
        self.state = state

    def show_labels(self, labels: dict[str, str]) -> None:
        """Sync the board's words."""
        self.labels = labels

    def option_changed(self, name: str, value: Any) -> None:
        """The front end switched an option: the trait follows."""
        setattr(self, name, value)

    def schedule(self, call: Callable[[], None]) -> bool:
        """Hand ``call`` to the kernel's event loop (from a worker thread); ``False`` with no loop to hand it to."""
        loop = self._loop
        if loop is None or loop.is_closed():
            return False
        try:
            loop.call_soon_threadsafe(call)
        except RuntimeError:  # the loop closed in between
            return False
        return True

    @traitlets.observe(*OPTIONS)
    def _option_set(self, change: Mapping[str, Any]) -> None:
        if self._session is not None:
            self._session.set_option(change["name"], change["new"])

    def _on_custom_message(self, _widget: object, content: object, _buffers: object) -> None:
        reply = self.handle_intent(content)
        if reply is not None:
            self.send(reply)

    # ------------------------------------------------------------------------ the board, from Python

    @property
    def session(self) -> BoardSession:
        """The board without the widget: the :class:`~patiencelab.widget.session.BoardSession` it shows."""
        assert self._session is not None
        return self._session

    @property
    def game(self) -> Klondike:
        """The live game this widget shows (set another to show it; the same one again changes nothing)."""
        return self.session.game

    @game.setter
    def game(self, game: Klondike) -> None:
        self.session.game = game

    @property
    def lang(self) -> str:
        """The language of every word on the board: ``en``, ``nl`` or ``sv``."""
        return self.session.lang

    @lang.setter
    def lang(self, lang: str) -> None:
        self.session.lang = lang

    @property
    def records(self) -> Records | None:
        """Where finished and abandoned games are stored: ``None`` (nowhere), ``True`` (the default database) or a
        :class:`~patiencelab.records.Records`; set another to move the game in play there (the same: no change)."""
        return self.session.records

    @records.setter
    def records(self, records: Records | bool | None) -> None:
        self.session.records = records

    @property
    def lesson(self) -> Lesson | None:
        """The lesson being stepped through, or ``None``. Setting one shows its start with step controls."""
        return self.session.lesson

    @lesson.setter
    def lesson(self, lesson: Lesson | None) -> None:
        self.session.lesson = lesson

    @property
    def recording(self) -> bool:
        """Whether a lesson is being recorded (see :meth:`start_recording`)."""
        return self.session.recording

    @property
    def version(self) -> int:
        """The version of the synced state: it grows with every change."""
        return self.session.version

    def resume(self) -> Klondike:
        """Continue the game a board left in play (a kernel restart, a page reload), which it offers; returns it."""
        return self.session.resume()

    def decline_resume(self) -> None:
        """Do not continue the game offered: it is stored as abandoned. A move in the new deal does the same."""
        self.session.decline_resume()

    def new_game(self, *, seed: int | None = None, rules: Rules | None = None) -> Klondike:
        """Deal a new game (same rules unless given) and show it."""
        return self.session.new_game(seed=seed, rules=rules)

    def start_recording(self) -> None:
        """Record a lesson from the position on the board: each move a step, a move the rules reject an illegal
        step; the last step takes a note, marks and a quiz. A lesson shown is closed first.
        """
        self.session.start_recording()

    def stop_recording(self) -> Lesson:
        """End the recording and show the lesson from its start (``widget.lesson``; ``.save(path)`` saves it)."""
        return self.session.stop_recording()

    def step_through(
        self, moves: Iterable[Move | str], *, title: str = "", notes: list[str | None] | None = None
    ) -> Lesson:
        """Make a lesson of ``moves`` from the current position and show it; returns the lesson."""
        return self.session.step_through(moves, title=title, notes=notes)

    def step(self, action: str) -> None:
        """Step the lesson: ``first``, ``back``, ``forward``, ``last``, ``play``, ``pause``, ``resume``, ``close``."""
        self.session.step(action)

    def autoplay(self, player: Any, *, pace: float = 0.8, max_moves: int = 1_000) -> None:
        """Let ``player`` (a :mod:`~patiencelab.players` player or a function of a view) play the game on the board,
        a move every ``pace`` seconds, until it ends or Stop (on the board, or :meth:`stop_autoplay`); returns at
        once (see :meth:`.BoardSession.autoplay`).
        """
        self.session.autoplay(player, pace=pace, max_moves=max_moves)

    def stop_autoplay(self) -> None:
        """Stop the player that :meth:`autoplay` started (the move it is choosing is not played)."""
        self.session.stop_autoplay()

    def review(self) -> Review:
        """Review the game on the board (see :meth:`Klondike.review`) and show it as a lesson of the whole game with
        the chart of the player's chances, at its first marked move: each marked move's sentence on its step, with
        an arrow for the better move, and the solver's second opinion on the step it speaks of. Returns the review.
        """
        return self.session.review()

    def cancel_review(self) -> None:
        """Stop the review that "Review game" runs in a worker thread (the board says so and stays as it was)."""
        self.session.cancel_review()

    def goto(self, step: int) -> None:
        """Show step ``step`` of the lesson on the board (0 for its start)."""
        self.session.goto(step)

    def handle_intent(self, content: object) -> dict[str, Any] | None:
        """Check and apply one intent from the front end; returns the reply, if any (a malformed, stale or illegal
        intent changes nothing and is answered with a ``rejected`` message)."""
        return self.session.handle_intent(content)

    def wait_for_verdict(self, timeout: float = 60.0) -> str | None:
        """Block until the indicator's verdict for the current position is in and shown, and return it (for
        scripts and tests: in a kernel's cell, the event loop is busy with the cell, so it is shown from here).
        """
        return self.session.wait_for_verdict(timeout)

    def wait_for_background(self, timeout: float = 60.0) -> None:
        """Block until the work in worker threads (a review, a quiz answer) is done and shown."""
        self.session.wait_for_background(timeout)

    def _repr_mimebundle_(self, **kwargs: Any) -> tuple[dict[Any, Any], dict[Any, Any]] | None:
        """The widget view, and a picture of the board, captioned with its moves, for viewers without a kernel."""
        from patiencelab.svg import render

        bundle = super()._repr_mimebundle_(**kwargs)
        if bundle is not None:
            caption = message("svg.snapshot", self.lang, moves=self.game.moves)
            bundle[0]["image/svg+xml"] = render(self.game, reveal=self.reveal, width=720, caption=caption)
        return bundle

    def close(self) -> None:
        """Store the game in play (see :meth:`.BoardSession.close`), stop the indicator's solver, close the widget."""
        session = getattr(self, "_session", None)  # None when __init__ stopped early (bad arguments)
        if session is not None:
            session.close()
        super().close()


KlondikeWidget.__doc__ = f"{inspect.cleandoc(KlondikeWidget.__doc__ or '')}\n\n{options_doc()}"
