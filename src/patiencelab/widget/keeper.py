"""The widget's record keeper: stores each game played once (won, lost or abandoned), keeps the game in play on
every move (so that a board after a kernel restart or a page reload offers to continue it: which board is offered
which game is settled in :mod:`patiencelab.widget.offers`), tracks the personal bests of the rules and scoring
scheme in play, and never lets a broken database stop a game.

A board has one keeper for its whole life: given its database again (the same file, however it is named), the
keeper changes nothing; given another, it takes the game in play along (see :meth:`RecordKeeper.use`).
"""

from __future__ import annotations

import contextlib
import threading
import uuid
import warnings
from collections.abc import Callable
from dataclasses import asdict
from typing import Any, cast

from patiencelab.core.errors import PatienceError
from patiencelab.core.game import Klondike
from patiencelab.core.i18n import message
from patiencelab.core.rules import Rules
from patiencelab.records.rows import GameInPlay, Outcome, RecordsError, rules_key, scoring_key
from patiencelab.records.stats import Stats
from patiencelab.records.store import Records
from patiencelab.widget.offers import LiveBoards, claim, database_path, offer_state
from patiencelab.widget.processes import process_name
from patiencelab.widget.state import RecordsState

__all__ = ["RecordKeeper"]

# Every live keeper with a database, by the database's resolved path.
_LIVE: LiveBoards[RecordKeeper] = LiveBoards()


class RecordKeeper:
    """Stores the games of one widget in a :class:`~patiencelab.records.Records` (or nowhere).

    A broken records store never raises out of a keeper: when the database cannot be opened, read or written
    (any :class:`~patiencelab.records.RecordsError`), the keeper switches records off (:attr:`records` becomes
    ``None``), warns once, and keeps why in :attr:`error` (English, with the path) and :attr:`error_code` (one of
    :data:`~patiencelab.records.RECORDS_ERROR_CODES`). :meth:`notice` gives the sentence to show the player, in
    their language; :meth:`synced_part` carries it as ``"notice"``, in the language of the game it is given.

    ``on_change`` is called, with no arguments, whenever *another* live keeper of the same database file (the
    same resolved path, in this process) has stored a game, so that a second board in the same kernel does not
    leave this one's bests stale. It runs in the thread that stored the game, from inside the other keeper's
    :meth:`store` (so inside whatever lock the storing board holds while it follows its game), after this
    keeper's cached stats were dropped (the next :meth:`synced_part` reads the database again); the keepers hold no
    lock while calling it. It must therefore not wait for a lock another board may hold: take its own board's
    lock without blocking and re-sync, or leave the refresh to the board's next sync. An exception in it is
    turned into a warning. Keepers are held weakly: a keeper that is gone is never called.
    """

    def __init__(self, records: Records | bool | None, *, on_change: Callable[[], None] | None = None) -> None:
        self.error: str | None = None
        self.error_code: str | None = None
        self._error_path: str | None = None
        self.on_change = on_change
        self._path: str | None = None
        self._stats: Stats | None = None
        self._stats_key: tuple[str, int, str] | None = None
        self.stored = False
        self.new: list[str] = []
        #: This board's name in the records' games in play.
        self.board = uuid.uuid4().hex[:16]
        #: A game another board left in play, offered to be continued (see :meth:`offer`).
        self.offered: GameInPlay | None = None
        self._kept: tuple[int, tuple[object, ...]] | None = None
        #: False once another board took the game shown here (see :meth:`resume`): it is not this board's to
        #: keep or store any more, until a new game is shown.
        self._owner = True
        #: Held while this board writes its game in play, and while another board takes that game.
        self._own_lock = threading.Lock()
        self.records: Records | None = None
        self.use(records)

    def use(self, records: Records | bool | None) -> None:
        """Keep this board's games in ``records`` from now on (``True``: the default database; ``None``: nowhere).

        The database in use already (the same file, however it is named) changes nothing. Another one takes over
        the game in play: the database left forgets it (its offer to another board is withdrawn) and the new one
        keeps it from the next change and stores it, once, when the board is done with it; a game offered to this
        board from the database left is offered to it no more.
        """
        try:
            opened = _opened(records)
        except RecordsError as err:
            self._leave()
            self._fail(err, "games will not be stored")
            return
        path = database_path(opened) if opened is not None else None
        if self.records is not None and path == self._path:
            return
        self._leave()
        self.records, self._path = opened, path
        self.error = self.error_code = self._error_path = None
        if path is not None:
            _LIVE.add(path, self)

    def _leave(self) -> None:
        """Leave the database in use: it forgets this board's game in play and its offer to this board."""
        records, offered = self.records, self.offered
        if records is None:
            return
        self.records, self.offered, self._stats, self.new = None, None, None, []
        try:
            if offered is not None:
                records.withdraw(self.board)
            if self._kept is not None:
                with self._own_lock:
                    records.drop(self.board)
        except RecordsError:  # the database being left is not written again: what it keeps does not matter now
            pass
        if self._kept is not None:
            self._kept = None
            self._withdraw_offers()
        _LIVE.discard(self._path, self)
        self._path = None

    def _fail(self, err: RecordsError, consequence: str) -> None:
        """Switch records off after ``err``, warning the first time only."""
        if self.error is None:
            warnings.warn(f"{err}; {consequence}", RuntimeWarning, stacklevel=4)
        self.error, self.error_code = str(err), err.code
        self._error_path = str(err.path) if err.path is not None else self._path
        self.records, self.offered = None, None  # nothing to continue from records that are off
        self._stats = None
        _LIVE.discard(self._path, self)

    def notice(self, lang: str = "en") -> str | None:
        """The sentence to show the player when records are off because they cannot be used, in ``lang``
        (``en``, ``nl`` or ``sv``): "Your statistics can't be saved: " and the reason; ``None`` otherwise.
        """
        if self.error_code is None:
            return None
        path = self._error_path or ""
        reason = message(f"records.reason.{self.error_code}", lang, path=path)
        return message("records.notice", lang, reason=reason)

    def new_game(self, game: Klondike) -> None:
        """A new game is shown: nothing of it is stored yet (a game shown already won never is)."""
        self.stored = game.is_won
        self.new = []
        self._owner = True

    def store(self, game: Klondike, outcome: Outcome | None = None) -> None:
        """Store ``game`` once; after a win, :attr:`new` names the personal bests it set."""
        if self.records is None or self.stored or not self._owner:
            return
        self.stored = True
        before = self.stats(game)
        if self.records is None:
            return
        try:
            with self._own_lock:
                if not self._owner:  # another board took it meanwhile: it is that board's to store
                    return
                self.records.add(game, outcome=outcome, board=self.board)  # and no longer in play, at once
        except RecordsError as err:
            self._fail(err, "this game was not stored, and games will not be stored")
            return
        self._stats = None
        self._forget()
        after = self.stats(game)
        if before is not None and after is not None and game.is_won:
            self.new = _broken_records(before, after)
        self._tell_others(self.board)

    def _others(self) -> list[RecordKeeper]:
        """The other live keepers of this database in this process."""
        return [keeper for keeper in _LIVE.of(self._path) if keeper is not self]

    def _tell_others(self, stored: str) -> None:
        """A game was stored, the game in play of the board named ``stored``: every other live keeper of this
        database drops its cached stats and withdraws its offer of that game, and its ``on_change`` is called.
        """
        for keeper in self._others():
            keeper._stats = None
            if keeper.offered is not None and keeper.offered.board == stored:
                keeper.offered = None
            keeper._changed()

    def _withdraw_offers(self) -> None:
        """This board's game is no longer in play here: every other live keeper of this database that offers it
        withdraws the offer (and its ``on_change`` is called).
        """
        for keeper in self._others():
            keeper._withdrawn(self.board)

    def _changed(self) -> None:
        """Call ``on_change``, turning an exception into a warning."""
        if self.on_change is not None:
            try:
                self.on_change()
            except Exception as exc:  # another board's trouble must not stop this one
                warnings.warn(f"a records listener failed: {exc!r}", RuntimeWarning, stacklevel=5)

    def store_unfinished(self, game: Klondike | None) -> None:
        """Store ``game`` as abandoned (or lost) if it was played and is not stored yet (and is this board's)."""
        if game is not None and game.moves and not self.stored and self._owner:
            self.store(game)

    def follow(self, game: Klondike) -> None:
        """Call after every change: stores a win, starts a new attempt after a reset to the deal, and keeps the
        game in play (a move in a new deal while another game is offered declines the offer).
        """
        if not self._owner:
            return
        if game.is_won and not self.stored:
            self.store(game, "won")
        elif self.stored and not game.moves and not game.can_redo and not game.is_won:
            self.stored, self.new = False, []
        if self.offered is not None and game.moves:
            self.decline()
        self._keep(game)

    def _keep(self, game: Klondike) -> None:
        """Keep ``game`` as this board's game in play when it changed (forget it when it is stored or undone
        back to the deal).
        """
        key = (id(game), game.history)
        if self.records is None or key == self._kept:
            return
        dropped = False
        try:
            with self._own_lock:
                if not self._owner:
                    return
                if game.moves and not self.stored:
                    self.records.keep(self.board, game, process=process_name())
                elif self._kept is not None:
                    self.records.drop(self.board)
                    dropped = True
        except RecordsError as err:
            self._fail(err, "the game in play is not kept, and games will not be stored")
            return
        self._kept = key
        if dropped:
            self._withdraw_offers()

    def _forget(self) -> None:
        """This board has no game in play any more (it was stored, and dropped from the games in play with it)."""
        self._kept = None

    def _live(self) -> dict[str, RecordKeeper]:
        """The live keepers of this database in this process, by their board's name."""
        return {keeper.board: keeper for keeper in _LIVE.of(self._path)}

    def offer(self, *, deal: str | None = None, rules: Rules | None = None) -> GameInPlay | None:
        """Claim a game in play for this board to offer (see the module's docstring): it is :attr:`offered` until
        :meth:`resume` or :meth:`decline`, or until the next new board of this kernel claims it. A board that asks
        for a deal or rules is offered only a game of that ``deal`` (a deal string) and those ``rules``. On the
        way, a game declined while its board played it, whose kernel is gone, is stored as abandoned.
        """
        if self.records is None:
            return None
        live = self._live()
        try:
            found = claim(self.records, self.board, live=live, deal=deal, rules=rules)
        except RecordsError as err:
            self._fail(err, "games will not be stored")
            return None
        self.offered = found
        before = live.get(found.offered_to or "") if found is not None else None
        if before is not None and before is not self and found is not None:
            before._withdrawn(found.board)
        return found

    def _withdrawn(self, board: str) -> None:
        """The game of ``board`` this board offered is offered to a newer board of this kernel now, or is no longer
        in play.
        """
        if self.offered is not None and self.offered.board == board:
            self.offered = None
            self._changed()

    def resume(self, lang: str = "en") -> Klondike | None:
        """The game offered, to be shown on this board (which keeps it from now on), or ``None`` (none is offered
        to this board any more). The board of this kernel that played it is not its keeper any more.
        """
        offered, self.offered = self.offered, None
        if offered is None or self.records is None:
            return None
        owner = self._live().get(offered.board) if offered.process == process_name() else None
        try:
            with owner._own_lock if owner is not None else contextlib.nullcontext():
                taken = self.records.take(offered.board, self.board, process_name())
                if taken is not None and owner is not None:
                    owner._owner = False
        except RecordsError as err:
            self._fail(err, "games will not be stored")
            return None
        return taken.game(lang) if taken is not None else None

    def decline(self) -> None:
        """The game offered is not continued: it is stored as abandoned (lost when no move was left), or, while a
        board of this kernel still plays it, offered to no board again and stored when that board is done.
        """
        offered, self.offered = self.offered, None
        if offered is None or self.records is None:
            return
        plays = offered.process == process_name() and offered.board in self._live()
        try:
            found = self.records.decline(offered.board, self.board, store=not plays)
        except RecordsError as err:
            self._fail(err, "games will not be stored")
            return
        if found is not None and not plays:
            self._stats = None
            self._tell_others(offered.board)

    def withdraw(self) -> None:
        """This board is closed: a game offered to it may be offered to the next board."""
        offered, self.offered = self.offered, None
        if offered is None or self.records is None:
            return
        try:
            self.records.withdraw(self.board)
        except RecordsError as err:
            self._fail(err, "games will not be stored")

    def stats(self, game: Klondike) -> Stats | None:
        """The stats of ``game``'s rules, draw count and scoring scheme (cached until a game is stored)."""
        if self.records is None:
            return None
        key = (rules_key(game.rules), game.rules.draw, scoring_key(game.rules))
        stats = self._stats
        if stats is None or self._stats_key != key:
            try:
                stats = self.records.stats(rules=game.rules, draw=game.rules.draw)
            except RecordsError as err:
                self._fail(err, "games will not be stored")
                return None
            self._stats, self._stats_key = stats, key
        return stats

    def synced_part(self, game: Klondike) -> RecordsState:
        """The ``stats`` part of the widget's synced state (``notice`` in the language of ``game``)."""
        stats = self.stats(game)
        state: dict[str, Any] = {
            "enabled": self.records is not None,
            "error": self.error,
            "notice": self.notice(game.lang),
            "rules_key": rules_key(game.rules),
            "draw": game.rules.draw,
            "scoring": scoring_key(game.rules),
            "new": list(self.new),
            "resume": offer_state(self.offered, game.lang),
        }
        if stats is not None:
            state.update(asdict(stats), win_rate=stats.win_rate)
        return cast(RecordsState, state)

    def rows(self) -> list[dict[str, Any]]:
        """Stats for every rule set, draw count and scoring scheme played, for the statistics panel."""
        if self.records is None:
            return []
        try:
            groups = self.records.by_rules_and_scoring()
        except RecordsError as err:
            self._fail(err, "games will not be stored")
            return []
        return [
            {"rules_key": key, "draw": draw, "scoring": scoring, **asdict(stats), "win_rate": stats.win_rate}
            for (key, draw, scoring), stats in groups.items()
        ]


def _opened(records: Records | bool | None) -> Records | None:
    """The database ``records`` names (``True``: the default one, opened here; ``None`` or ``False``: none)."""
    if records is True:
        return Records()
    if records is False or records is None:
        return None
    if not isinstance(records, Records):
        raise PatienceError(f"records must be a Records, True or None, not {type(records).__name__}")
    return records


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
