"""KlondikeWidget: the notebook board. Python stays authoritative; the front end only sends intents.

The protocol (synced ``state`` and ``labels``, intents and replies) is described in ``docs/widget-protocol.md``.
"""

from __future__ import annotations

import atexit
import pathlib
import warnings
import weakref
from collections.abc import Mapping
from dataclasses import asdict
from typing import Any

import anywidget
import traitlets

from patiencelab.cards import Card
from patiencelab.errors import IllegalMoveError, PatienceError
from patiencelab.game import Klondike
from patiencelab.i18n import labels
from patiencelab.moves import Move
from patiencelab.records import Records, RecordsError, Stats, rules_key
from patiencelab.rules import PRESETS, Rules

__all__ = ["INTENTS", "KlondikeWidget"]

_STATIC = pathlib.Path(__file__).parent / "static"
if not (_STATIC / "widget.js").is_file():  # pragma: no cover - only in a checkout where the front end is unbuilt
    raise ImportError(
        "the widget's front end is not built: run 'make setup' (or 'npm --prefix js ci && npm --prefix js run build')"
    )

#: Every intent type the front end may send.
INTENTS = ("move", "draw", "recycle", "undo", "redo", "hint", "new", "restart", "autocomplete")


class _RejectedError(Exception):
    """An intent that changes nothing; carries the reply's rule code and text."""

    def __init__(self, text: str, rule: str | None = None) -> None:
        super().__init__(text)
        self.text = text
        self.rule = rule


class KlondikeWidget(anywidget.AnyWidget):
    """Klondike in a notebook cell.

    ``widget.game`` is the live :class:`~patiencelab.game.Klondike`: scripting it (``widget.game.play("d")``)
    updates every view of the widget at once.
    """

    _esm = _STATIC / "widget.js"
    _css = _STATIC / "widget.css"

    state = traitlets.Dict().tag(sync=True)
    labels = traitlets.Dict().tag(sync=True)
    reveal = traitlets.Bool(False)

    def __init__(
        self,
        game: Klondike | None = None,
        *,
        seed: int | None = None,
        rules: Rules | None = None,
        lang: str = "en",
        records: Records | bool | None = True,
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        if game is not None and (seed is not None or rules is not None):
            raise PatienceError("give a game, or a seed and rules, not both")
        if game is not None and not isinstance(game, Klondike):
            raise PatienceError(f"game must be a Klondike, not {type(game).__name__}")
        self._version = 0
        self._unlisten: Any = None
        self._previous: dict[str, Any] | None = None
        self._history: tuple[Move, ...] = ()
        self._records: Records | None = None
        self._records_error: str | None = None
        self._stats: Stats | None = None
        self._new_records: list[str] = []
        self._stored = False
        self._game: Klondike | None = None
        self.labels = labels(lang)
        self.records = records
        self.game = game if game is not None else Klondike(seed=seed, rules=rules, lang=lang)
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
        self._store_unfinished()
        if self._unlisten is not None:
            self._unlisten()
        self._game = game
        self._stored = game.is_won
        self._new_records = []
        self._stats = None
        self._unlisten = game.on_change(lambda _game: self._sync())
        self._previous = None
        self._history = game.history
        self._sync(new_deal=True)

    def new_game(self, *, seed: int | None = None, rules: Rules | None = None) -> Klondike:
        """Deal a new game (same rules unless given) and show it."""
        game = Klondike(seed=seed, rules=rules if rules is not None else self.game.rules, lang=self.game.lang)
        self.game = game
        return game

    # ------------------------------------------------------------------------------------------- records

    @property
    def records(self) -> Records | None:
        """Where finished and abandoned games are stored (``None``: nowhere). Set ``None`` to stop storing,
        ``True`` for the default database, or a :class:`~patiencelab.records.Records`.
        """
        return self._records

    @records.setter
    def records(self, records: Records | bool | None) -> None:
        self._records_error = None
        if records is True:
            try:
                records = Records()
            except RecordsError as err:
                warnings.warn(f"{err}; games will not be stored", RuntimeWarning, stacklevel=2)
                self._records_error = str(err)
                records = None
        elif records is False:
            records = None
        if records is not None and not isinstance(records, Records):
            raise PatienceError(f"records must be a Records, True or None, not {type(records).__name__}")
        self._records = records
        self._stats = None
        if self._game is not None:
            self._sync()

    def _store(self, outcome: str | None = None) -> None:
        """Store the current game once (its outcome read from the game unless given)."""
        records, game = self._records, self._game
        if records is None or game is None or self._stored:
            return
        self._stored = True
        before = self._stats_now()
        try:
            records.add(game, outcome=outcome)  # type: ignore[arg-type]
        except RecordsError as err:
            warnings.warn(f"{err}; this game was not stored", RuntimeWarning, stacklevel=2)
            self._records_error = str(err)
            return
        self._stats = None
        after = self._stats_now()
        if before is not None and after is not None and game.is_won:
            self._new_records = _broken_records(before, after)

    def _store_unfinished(self) -> None:
        """Store the current game as abandoned (or lost) if it was played and not stored yet."""
        if self._game is not None and self._game.moves and not self._stored:
            self._store()

    def _stats_now(self) -> Stats | None:
        if self._records is None or self._game is None:
            return None
        if self._stats is None:
            try:
                self._stats = self._records.stats(rules=self._game.rules, draw=self._game.rules.draw)
            except RecordsError as err:
                self._records_error = str(err)
                return None
        return self._stats

    def _records_state(self) -> dict[str, Any]:
        stats = self._stats_now()
        game = self.game
        state: dict[str, Any] = {
            "enabled": self._records is not None,
            "error": self._records_error,
            "rules_key": rules_key(game.rules),
            "draw": game.rules.draw,
            "new": list(self._new_records),
        }
        if stats is not None:
            state.update(asdict(stats), win_rate=stats.win_rate)
        return state

    def close(self) -> None:
        """Store the game in play (as abandoned) and close the widget."""
        self._store_unfinished()
        super().close()

    @traitlets.observe("reveal")
    def _reveal_changed(self, change: Mapping[str, Any]) -> None:
        self._sync()

    # ------------------------------------------------------------------------------------------- syncing

    @property
    def version(self) -> int:
        """The version of the synced state: it grows with every change."""
        return self._version

    def _sync(self, *, new_deal: bool = False) -> None:
        game = self.game
        if game.is_won and not self._stored:
            self._store("won")
        elif self._stored and not game.moves and not game.can_redo and not game.is_won:
            self._stored, self._new_records = False, []  # reset to the start: a new attempt
        view = game.view(reveal=self.reveal)
        self._version += 1
        last = None if new_deal else self._last_move(view)
        self._previous = view
        self._history = game.history
        rules = game.rules
        self.state = {
            **view,
            "version": self._version,
            "seconds": round(game.seconds, 3),
            "clock_running": view["status"] == "playing",
            "can_draw": bool(view["stock"]) and view["status"] != "won",
            "can_recycle": game.can_play("r") if not view["stock"] else False,
            "can_autocomplete": game.can_autocomplete,
            "targets": self._targets(),
            "last_move": last,
            "rules": {
                "preset": rules.preset_name,
                "draw": rules.draw,
                "max_passes": rules.max_passes,
                "foundation_to_tableau": rules.foundation_to_tableau,
                "scoring": rules.scoring.name,
            },
            "reveal": self.reveal,
            "lang": game.lang,
            "records": self._records_state(),
        }

    def _targets(self) -> dict[str, list[str]]:
        targets: dict[str, list[str]] = {}
        for move in self.game.legal_moves():
            if move.is_draw or move.is_recycle:
                continue
            lead = str(self.game.moving_cards(move)[0])
            assert move.target is not None
            places = targets.setdefault(lead, [])
            if move.target not in places:
                places.append(move.target)
        return targets

    def _last_move(self, view: dict[str, Any]) -> dict[str, Any] | None:
        before, after = self._history, self.game.history
        if len(after) == len(before) + 1 and after[:-1] == before:
            move, undo = after[-1], False
        elif len(after) + 1 == len(before) and before[:-1] == after:
            move, undo = before[-1], True
        else:
            return None
        if move.is_draw or move.is_recycle:
            source, target = ("stock", "waste") if move.is_draw else ("waste", "stock")
            if undo:
                source, target = target, source
            return {"move": str(move), "cards": [], "from": source, "to": target, "undo": undo}
        assert move.source is not None and move.target is not None
        source, target = move.source, move.target
        if target == "f":
            target = "f" + self._moved_to_foundation(view, undo)
        if undo:
            source, target = target, source
        cards = self._arrived(self._previous or view, view, target)
        return {"move": str(move), "cards": cards, "from": source, "to": target, "undo": undo}

    def _moved_to_foundation(self, view: dict[str, Any], undo: bool) -> str:
        """The suit of the foundation whose count changed between the last view and this one."""
        before = (self._previous or view)["foundations"]
        for suit, count in view["foundations"].items():
            if count != before[suit]:
                return str(suit)
        return "C"  # pragma: no cover - a foundation move always changes a count

    @staticmethod
    def _pile(view: dict[str, Any], place: str) -> list[str]:
        if place == "w":
            return list(view["waste"])
        if place[0] == "t":
            return [c for c in view["tableau"][int(place[1]) - 1]["up"] if c is not None]
        suit = place[1]
        return [str(Card(rank, Card.parse("A" + suit).suit)) for rank in range(1, view["foundations"][suit] + 1)]

    def _arrived(self, before: dict[str, Any], after: dict[str, Any], place: str) -> list[str]:
        """The cards that are on ``place`` now and were not before (bottom first)."""
        old = set(self._pile(before, place))
        return [card for card in self._pile(after, place) if card not in old]

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
            return self._apply_intent(content, intent_id)
        except _RejectedError as rejected:
            return {
                "type": "rejected",
                "id": intent_id,
                "rule": rejected.rule,
                "text": rejected.text,
                "version": self._version,
            }

    def _apply_intent(self, content: object, intent_id: int | None) -> dict[str, Any] | None:
        if not isinstance(content, Mapping):
            raise _RejectedError(f"an intent must be an object, not {type(content).__name__}")
        kind = content.get("type")
        if kind not in INTENTS:
            raise _RejectedError(f"unknown intent type {kind!r}")
        version = content.get("version")
        if not isinstance(version, int) or isinstance(version, bool):
            raise _RejectedError(f"intent {kind!r} needs the integer version it was made on")
        if version != self._version:
            raise _RejectedError(f"stale intent: made on version {version}, the board is at {self._version}")
        game = self.game
        try:
            if kind == "move":
                game.play(self._intent_move(content))
            elif kind in ("draw", "recycle", "undo", "redo", "autocomplete"):
                self._no_fields(content, kind)
                getattr(game, kind)()
            elif kind == "restart":
                self._no_fields(content, kind)
                self._store_unfinished()
                game.reset()
            elif kind == "new":
                self._new_from_intent(content)
            else:
                return self._hint(content, intent_id)
        except IllegalMoveError as err:
            raise _RejectedError(err.reason, err.rule) from None
        except PatienceError as err:
            raise _RejectedError(str(err)) from None
        return None

    @staticmethod
    def _no_fields(content: Mapping[str, Any], kind: str, allowed: tuple[str, ...] = ()) -> None:
        extra = sorted(set(map(str, content)) - {"type", "version", "id", *allowed})
        if extra:
            raise _RejectedError(f"intent {kind!r} has unknown field(s): {', '.join(extra)}")

    def _intent_move(self, content: Mapping[str, Any]) -> Move:
        self._no_fields(content, "move", ("card", "to"))
        card, to = content.get("card"), content.get("to")
        if not isinstance(card, str) or not isinstance(to, str):
            raise _RejectedError("a move intent needs 'card' (such as '5H') and 'to' (such as 't5' or 'f') as text")
        if "-" in card or "-" in to:
            raise _RejectedError(f"'card' and 'to' name one card and one place, not {card!r} and {to!r}")
        try:
            return Move.parse(f"{card}-{to}")
        except PatienceError as err:
            raise _RejectedError(str(err)) from None

    def _new_from_intent(self, content: Mapping[str, Any]) -> None:
        self._no_fields(content, "new", ("preset", "draw", "seed"))
        current = self.game.rules
        preset = content.get("preset", current.preset_name or "standard")
        draw = content.get("draw", current.draw)
        seed = content.get("seed")
        if preset not in PRESETS:
            raise _RejectedError(f"unknown preset {preset!r}: choose one of {', '.join(PRESETS)}")
        if draw not in (1, 3) or isinstance(draw, bool):
            raise _RejectedError(f"draw must be 1 or 3, not {draw!r}")
        if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool) or seed < 0):
            raise _RejectedError(f"seed must be a whole number of at least 0, not {seed!r}")
        rules = Rules.preset(preset, draw=draw, scoring=current.scoring)
        self.new_game(seed=seed, rules=rules)

    def _hint(self, content: Mapping[str, Any], intent_id: int | None) -> dict[str, Any]:
        self._no_fields(content, "hint")
        move = self.game.hint()
        if move is None:
            raise _RejectedError(self.labels.get("no-hint", "No moves left."))
        cards = self.game.moving_cards(move)
        return {
            "type": "hint",
            "id": intent_id,
            "move": str(move),
            "card": str(cards[0]) if cards else None,
            "to": move.target if move.target is not None else "stock",
            "text": str(move),
        }


def _broken_records(before: Stats, after: Stats) -> list[str]:
    """Which personal bests a newly stored win set: ``best_score``, ``fewest_moves``, ``fastest_win``."""
    broken = []
    if after.best_score is not None and (before.best_score is None or after.best_score > before.best_score):
        broken.append("best_score")
    if after.fewest_moves is not None and (before.fewest_moves is None or after.fewest_moves < before.fewest_moves):
        broken.append("fewest_moves")
    if after.fastest_win is not None and (before.fastest_win is None or after.fastest_win < before.fastest_win):
        broken.append("fastest_win")
    return broken
