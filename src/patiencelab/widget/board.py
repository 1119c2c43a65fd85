"""KlondikeWidget: the notebook board. Python stays authoritative; the front end only sends intents.

The protocol (synced ``state`` and ``labels``, intents and replies) is described in ``docs/widget-protocol.md``.
"""

from __future__ import annotations

import asyncio
import atexit
import pathlib
import threading
import warnings
import weakref
from collections.abc import Iterable, Mapping
from typing import Any

import anywidget
import traitlets

from patiencelab.core.cards import Card
from patiencelab.core.errors import IllegalMoveError, PatienceError, quote, unknown_fields
from patiencelab.core.game import Klondike
from patiencelab.core.i18n import check_language, labels, language_names, message
from patiencelab.core.moves import Move
from patiencelab.core.rules import PRESETS, Rules
from patiencelab.lesson import Lesson
from patiencelab.narration import narrate_played
from patiencelab.records import Records
from patiencelab.widget.indicator import Executor, Indicator
from patiencelab.widget.keeper import RecordKeeper
from patiencelab.widget.teaching import ACTIONS, LessonPlayer, move_ends

__all__ = ["INTENTS", "KlondikeWidget"]

_STATIC = pathlib.Path(__file__).parent.parent / "static"
if not (_STATIC / "widget.js").is_file():  # pragma: no cover - only in a checkout where the front end is unbuilt
    raise ImportError(
        "the widget's front end is not built: run 'make setup' (or 'npm --prefix js ci && npm --prefix js run build')"
    )

#: Every intent type the front end may send.
INTENTS = (
    "move",
    "draw",
    "recycle",
    "undo",
    "redo",
    "hint",
    "new",
    "restart",
    "autocomplete",
    "lesson",
    "lang",
    "show_moves",
    "indicator",
    "stats",
)
_SIMPLE = ("draw", "recycle", "undo", "redo", "autocomplete")
#: Intents that name cards and places of the board they were made on: only these must match its version. The
#: others (draw, undo, lesson steps, ...) are relative commands, applied in the order they arrive, so quick
#: clicks are never lost.
_VERSIONED = ("move",)
#: The longest reply text sent back (an echo of outside input is cut to this).
_MAX_REPLY = 400
#: The longest text field an intent may carry (card, place, preset, action, language).
_MAX_FIELD = 32
#: Seeds a board accepts from the front end: what a 64-bit signed integer holds (SQLite, JSON in browsers).
_MAX_SEED = 2**63 - 1


class _RejectedError(Exception):
    """An intent that changes nothing; carries the reply's rule code and text."""

    def __init__(self, text: str, rule: str | None = None) -> None:
        super().__init__(text)
        self.text = text
        self.rule = rule


class KlondikeWidget(anywidget.AnyWidget):
    """Klondike in a notebook cell.

    ``widget.game`` is the live :class:`~patiencelab.core.game.Klondike`: scripting it (``widget.game.play("d")``)
    updates every view of the widget at once. ``lang`` is ``en``, ``nl`` or ``sv``; ``records`` is where
    finished games are stored (``True``: the default database; ``None``: nowhere).
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
    #: Positions each solver call may search for a hint: a state budget gives the same hint on every machine.
    hint_max_states = traitlets.Int(10_000, allow_none=True)
    #: Seconds each solver call may think for a hint, on top of ``hint_max_states`` (by default no limit).
    hint_seconds = traitlets.Float(float("inf"))
    #: The most positions one of the indicator's jobs may search (it starts small and keeps thinking with
    #: larger budgets up to this cap; ``None``: the indicator's default cap).
    indicator_max_states = traitlets.Int(None, allow_none=True)
    #: Seconds one of the indicator's jobs may think, on top of its state budget (by default no limit).
    indicator_seconds = traitlets.Float(float("inf"))

    def __init__(
        self,
        game: Klondike | None = None,
        *,
        seed: int | None = None,
        rules: Rules | None = None,
        lang: str = "en",
        records: Records | bool | None = True,
        executor: Executor | None = None,
        **kwargs: Any,
    ) -> None:
        if game is not None and (seed is not None or rules is not None):
            raise PatienceError("give a game, or a seed and rules, not both")
        if game is not None and not isinstance(game, Klondike):
            raise PatienceError(f"game must be a Klondike, not {type(game).__name__}")
        self._lang = check_language(lang)
        self._version = 0
        self._game: Klondike | None = None
        self._before: Klondike | None = None
        self._unlisten: Any = None
        self._player: LessonPlayer | None = None
        self._message: dict[str, Any] | None = None
        self._message_id = 0
        self._lock = threading.RLock()
        self._loop = _running_loop()  # the kernel's event loop: verdicts from the pool's thread go through it
        self._indicator = Indicator(self._on_verdict, **({"executor": executor} if executor is not None else {}))
        self._indicator_notice: str | None = None
        self._records_notice: str | None = None
        self._keeper = RecordKeeper(records, on_change=self._records_changed)
        super().__init__(**kwargs)
        self.labels = labels(self._lang)
        self.game = game if game is not None else Klondike(seed=seed, rules=rules, lang=self._lang)
        self.on_msg(self._on_custom_message)
        finalizer = weakref.WeakMethod(self._store_unfinished)
        atexit.register(lambda: (method := finalizer()) is not None and method())

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
        self._show(game)
        self._player = None

    def _show(self, game: Klondike) -> None:
        """Follow ``game`` from now on (a lesson's games are never stored in the records)."""
        self._store_unfinished()
        if self._unlisten is not None:
            self._unlisten()
        game.lang = self._lang
        self._game = game
        self._keeper.new_game(game)
        self._unlisten = game.on_change(lambda _game: self._sync())
        self._before = None
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
        self._sync(moved=False)

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
        self._sync(moved=False)

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
        """Store the game in play (as abandoned), stop the indicator's solver and close the widget."""
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
            self._sync(moved=False)

    # ------------------------------------------------------------------------------------------- lessons

    @property
    def lesson(self) -> Lesson | None:
        """The lesson being stepped through, or ``None``. Setting one shows its start with step controls."""
        return self._player.lesson if self._player else None

    @lesson.setter
    def lesson(self, lesson: Lesson | None) -> None:
        if lesson is None:
            self._player = None
            self._sync(moved=False)
            return
        player = LessonPlayer(lesson)
        self._store_unfinished()
        self._player = player
        self._show(player.game_at(0, self._lang))

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
        if action not in ACTIONS or action == "pace":
            raise PatienceError(f"unknown lesson action {quote(action)}: choose one of {', '.join(ACTIONS[:-1])}")
        if action == "close":
            self.lesson = None
            return
        if action in ("play", "pause"):
            player.playing = action == "play" and player.step < player.steps
            self._sync(moved=False)
            return
        if action != "resume" and player.is_taken_over(self.game):
            raise PatienceError("the lesson was left to play on by hand: resume it first")
        target = {"first": 0, "last": player.steps, "resume": player.step}.get(action)
        if action == "forward":
            if player.step >= player.steps:
                raise PatienceError("the lesson is at its last step")
            player.step += 1
            player.playing = player.playing and player.step < player.steps
            move = player.path[player.step - 1]
            if move is None:  # an illegal step is shown, not played
                self._sync(moved=False)
            else:
                self.game.play(move)
        elif action == "back":
            if player.step == 0:
                raise PatienceError("the lesson is at its first step")
            player.step -= 1
            if player.path[player.step] is None:
                self._sync(moved=False)
            else:
                self.game.undo()
        else:
            assert target is not None
            player.step = target
            player.playing = False
            self._show(player.game_at(target, self._lang))

    # ------------------------------------------------------------------------------------------- syncing

    @property
    def version(self) -> int:
        """The version of the synced state: it grows with every change."""
        return self._version

    def _sync(self, *, moved: bool = True, bump: bool = True) -> None:
        with self._lock:
            self._sync_locked(moved=moved, bump=bump)

    def _sync_locked(self, *, moved: bool, bump: bool) -> None:
        """Build the whole state first, then give it its version: a build that fails changes nothing."""
        game = self.game
        if self._player is None:
            self._keeper.follow(game)
        last = self._last_move() if moved else self.state.get("last_move")
        if moved and last is not None and self.narrate and self._player is None:
            self._say("narration", self._narration(last))
        indicator = self._indicator_state(game)
        records = self._keeper.state(game)
        if records["notice"] is not None and records["error"] != self._records_notice:
            self._records_notice = records["error"]
            self._say("info", records["notice"])  # said once; the status line keeps a mark with the reason
        view = game.view(reveal=self.reveal)
        rules = game.rules
        state = {
            **view,
            "seconds": round(game.seconds, 3),
            "clock_running": view["status"] == "playing",
            "can_draw": bool(view["stock"]) and view["status"] != "won",
            "can_recycle": not view["stock"] and game.can_play("r"),
            "can_autocomplete": game.can_autocomplete,
            "targets": self._targets(),
            "pickable": self._pickable(),
            "last_move": last,
            "rules": {
                "preset": rules.preset_name,
                "draw": rules.draw,
                "max_passes": rules.max_passes,
                "foundation_to_tableau": rules.foundation_to_tableau,
                "scoring": rules.scoring.name,
            },
            "reveal": self.reveal,
            "show_moves": self.show_moves,
            "lang": self._lang,
            "languages": [list(pair) for pair in language_names()],
            "rules_text": rules.describe(self._lang),
            "message": self._message,
            "lesson": self._player.state(game, self._lang) if self._player else None,
            "indicator": indicator,
            "records": records,
        }
        self._before = game.copy()
        self._version += bump
        self.state = {**state, "version": self._version}

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
                    self._sync(moved=False, bump=False)
            finally:
                self._lock.release()

    def _on_verdict(self) -> None:
        """A verdict arrived (in the pool's thread): hand it to the kernel's thread through its event loop, where
        the board shows it without a new version (no intent goes stale). With no event loop (a plain script) the
        pool's thread shows it, under the board's lock.
        """
        loop = self._loop
        if loop is not None and not loop.is_closed():
            try:
                loop.call_soon_threadsafe(self._show_verdict)
                return
            except RuntimeError:  # the loop closed in between
                pass
        self._show_verdict()

    def _show_verdict(self) -> None:
        with self._lock:
            if self._game is not None:
                self._sync(moved=False, bump=False)

    def _say(self, kind: str, text: str) -> None:
        self._message_id += 1
        self._message = {"id": self._message_id, "kind": kind, "text": text}

    def _targets(self) -> dict[str, list[str]]:
        """Every card that can move now (the lead of what moves) and the piles it may go to: ``t3``, ``fH``."""
        targets: dict[str, list[str]] = {}
        for move in self.game.legal_moves():
            if move.is_draw or move.is_recycle:
                continue
            lead = str(self.game.moving_cards(move)[0])
            piles = targets.setdefault(lead, [])
            pile = move_ends(move, [lead])[1]
            if pile not in piles:
                piles.append(pile)
        return targets

    def _pickable(self) -> list[str]:
        """The cards a player may pick up (a drop where one may not go is answered with the reason): every
        face-up card of a column, the top card of the waste and of each foundation; none once the game is won.
        """
        game = self.game
        if game.is_won:
            return []
        cards = [card for column in game.tableau for card in column.up]
        cards += game.waste[-1:]
        cards += [Card(rank, suit) for suit, rank in game.foundations.items() if rank]
        return [str(card) for card in cards]

    def _last_move(self) -> dict[str, Any] | None:
        """The action between the last synced game and this one (a move played, or one undone), with the
        sentence the live region reads, in the board's language.
        """
        before, game = self._before, self.game
        if before is None:
            return None
        was, now = before.history, game.history
        if len(now) == len(was) + 1 and now[:-1] == was:
            move, undo, origin = now[-1], False, before
        elif len(now) + 1 == len(was) and was[:-1] == now:
            move, undo, origin = was[-1], True, game
        else:
            return None
        cards = [] if move.is_draw or move.is_recycle else [str(c) for c in origin.moving_cards(move)]
        ends = list(move_ends(move, cards))
        if undo:
            ends.reverse()
        words: dict[str, str] = self.labels

        def name(card: str) -> str:
            rank = "A23456789TJQK".index(card[0]) + 1
            rank_word = words.get(f"rank.{rank}", str(rank)) if rank in (1, 11, 12, 13) else str(rank)
            return words.get("of", "{rank} {suit}").format(rank=rank_word, suit=words.get(f"suit.{card[-1]}", card[-1]))

        def place(pile: str) -> str:
            if pile in ("stock", "w"):
                return words.get("stock" if pile == "stock" else "waste", pile)
            if pile[0] == "t":
                return f"{words.get('column', 'Column')} {pile[1:]}"
            return f"{words.get('foundation', 'Foundation')} {words.get(f'suit.{pile[1]}', pile[1])}"

        prefix = f"{words.get('undo', 'Undo')}: " if undo else ""
        if move.is_recycle or (move.is_draw and undo):
            text = prefix + words.get("recycle" if move.is_recycle else "draw", str(move))
        elif move.is_draw:
            text = f"{words.get('draw', 'Draw')}: {name(str(game.waste[-1]))}" if game.waste else words.get("draw", "d")
        else:
            text = prefix + words.get("moved-to", "{card} to {place}").format(card=name(cards[0]), place=place(ends[1]))
        return {"move": str(move), "cards": cards, "from": ends[0], "to": ends[1], "undo": undo, "text": text}

    def _narration(self, last: dict[str, Any]) -> str:
        assert self._before is not None
        if last["undo"]:
            return f"{self.labels.get('undo', 'Undo')}: {last['move']}"
        return narrate_played(self._before, Move.parse(last["move"]), self.game)

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
        except _RejectedError as rejected:
            return self._rejected(intent_id, rejected.text, rejected.rule)
        except Exception as err:  # a defect must still answer, never leave a traceback without a reply
            warnings.warn(f"intent failed: {type(err).__name__}: {err}", RuntimeWarning, stacklevel=2)
            return self._rejected(intent_id, f"internal error: {type(err).__name__}", None)

    def _rejected(self, intent_id: int | None, text: str, rule: str | None) -> dict[str, Any]:
        if len(text) > _MAX_REPLY:
            text = text[: _MAX_REPLY - 1] + "…"
        return {"type": "rejected", "id": intent_id, "rule": rule, "text": text, "version": self._version}

    def _apply_intent(self, content: object, intent_id: int | None) -> dict[str, Any] | None:
        if not isinstance(content, Mapping):
            raise _RejectedError(f"an intent must be an object, not {type(content).__name__}")
        kind = content.get("type")
        if not isinstance(kind, str) or kind not in INTENTS:
            raise _RejectedError(f"unknown intent type {quote(kind)}")
        version = content.get("version")
        if not isinstance(version, int) or isinstance(version, bool):
            raise _RejectedError(f"intent {kind!r} needs the integer version it was made on")
        if kind in _VERSIONED and version != self._version:
            raise _RejectedError(f"stale intent: made on version {quote(version)}, the board is at {self._version}")
        for key, value in content.items():
            if isinstance(value, str) and len(value) > _MAX_FIELD:
                raise _RejectedError(f"intent {kind!r}: {quote(key)} is longer than {_MAX_FIELD} characters")
        game = self.game
        try:
            if kind == "move":
                game.play(self._intent_move(content))
            elif kind in _SIMPLE:
                _fields(content, kind)
                getattr(game, kind)()
            elif kind == "restart":
                _fields(content, kind)
                self._store_unfinished()
                game.reset()
            elif kind == "new":
                self._new_from_intent(content)
            elif kind == "hint":
                return self._hint(content, intent_id)
            elif kind == "stats":
                _fields(content, kind)
                return {"type": "stats", "id": intent_id, "rows": self._keeper.rows()}
            else:
                self._option_intent(kind, content)
        except IllegalMoveError as err:
            raise _RejectedError(err.reason, err.rule) from None
        except PatienceError as err:
            raise _RejectedError(str(err)) from None
        return None

    def _option_intent(self, kind: str, content: Mapping[str, Any]) -> None:
        if kind == "lesson":
            _fields(content, kind, ("action", "pace"))
            action = content.get("action")
            if action == "pace":
                if self._player is None:
                    raise PatienceError("there is no lesson to set the pace of")
                self._player.set_pace(content.get("pace"))
                self._sync(moved=False)
            else:
                self.step(str(action) if isinstance(action, str) else repr(action))
        elif kind == "lang":
            _fields(content, kind, ("lang",))
            self.lang = content.get("lang")  # type: ignore[assignment]
        else:
            _fields(content, kind, ("on",))
            on = content.get("on")
            if not isinstance(on, bool):
                raise PatienceError(f"intent {kind!r} needs 'on': true or false, not {quote(on)}")
            setattr(self, kind, on)

    def _intent_move(self, content: Mapping[str, Any]) -> Move:
        _fields(content, "move", ("card", "to"))
        card, to = content.get("card"), content.get("to")
        if not isinstance(card, str) or not isinstance(to, str):
            raise _RejectedError("a move intent needs 'card' (such as '5H') and 'to' (such as 't5' or 'f') as text")
        if "-" in card or "-" in to:
            raise _RejectedError(f"'card' and 'to' name one card and one place, not {quote(card)} and {quote(to)}")
        return Move.parse(f"{card}-{to}")

    def _new_from_intent(self, content: Mapping[str, Any]) -> None:
        _fields(content, "new", ("preset", "draw", "seed"))
        current = self.game.rules
        preset = content.get("preset", current.preset_name or "standard")
        draw = content.get("draw", current.draw)
        seed = content.get("seed")
        if preset not in PRESETS:
            raise _RejectedError(f"unknown preset {quote(preset)}: choose one of {', '.join(PRESETS)}")
        if draw not in (1, 3) or isinstance(draw, bool):
            raise _RejectedError(f"draw must be 1 or 3, not {quote(draw)}")
        if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed <= _MAX_SEED):
            raise _RejectedError(f"seed must be a whole number from 0 to {_MAX_SEED}, not {quote(seed)}")
        self.new_game(seed=seed, rules=Rules.preset(preset, draw=draw, scoring=current.scoring))

    def _hint(self, content: Mapping[str, Any], intent_id: int | None) -> dict[str, Any]:
        from patiencelab.hints import find_hint
        from patiencelab.narration import hint_text

        _fields(content, "hint")
        hint = find_hint(self.game, max_states=self.hint_max_states, seconds=self.hint_seconds)
        if hint is None:
            raise _RejectedError(self.labels.get("no-hint", "No moves left."))
        move = hint.move
        cards = self.game.moving_cards(move)
        return {
            "type": "hint",
            "id": intent_id,
            "move": str(move),
            "card": str(cards[0]) if cards else None,
            "to": move_ends(move, [str(cards[0])])[1] if cards else "stock",
            "reason": hint.reason,
            "text": hint_text(self.game, hint),
        }


def _fields(content: Mapping[str, Any], kind: str, allowed: tuple[str, ...] = ()) -> None:
    """Reject an intent with fields it does not take."""
    extra = unknown_fields(content, ("type", "version", "id", *allowed))
    if extra:
        raise _RejectedError(f"intent {kind!r} has unknown field(s): {extra}")


def _running_loop() -> asyncio.AbstractEventLoop | None:
    """The event loop running in this thread (a kernel's), or ``None``."""
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        return None
