"""The widget's record keeper: stores each game played once (won, lost or abandoned), tracks the personal bests
of the rules in play, and never lets a broken database stop a game.
"""

from __future__ import annotations

import warnings
from dataclasses import asdict
from typing import Any

from patiencelab.errors import PatienceError
from patiencelab.game import Klondike
from patiencelab.records import Outcome, Records, RecordsError, Stats, rules_key

__all__ = ["RecordKeeper"]


class RecordKeeper:
    """Stores the games of one widget in a :class:`~patiencelab.records.Records` (or nowhere)."""

    def __init__(self, records: Records | bool | None) -> None:
        self.error: str | None = None
        self.records = self._open(records)
        self._stats: Stats | None = None
        self._stats_key: tuple[str, int] | None = None
        self.stored = False
        self.new: list[str] = []

    def _open(self, records: Records | bool | None) -> Records | None:
        if records is True:
            try:
                return Records()
            except RecordsError as err:
                warnings.warn(f"{err}; games will not be stored", RuntimeWarning, stacklevel=4)
                self.error = str(err)
                return None
        if records is False or records is None:
            return None
        if not isinstance(records, Records):
            raise PatienceError(f"records must be a Records, True or None, not {type(records).__name__}")
        return records

    def new_game(self, game: Klondike) -> None:
        """A new game is shown: nothing of it is stored yet (a game shown already won never is)."""
        self.stored = game.is_won
        self.new = []

    def store(self, game: Klondike, outcome: Outcome | None = None) -> None:
        """Store ``game`` once; after a win, :attr:`new` names the personal bests it set."""
        if self.records is None or self.stored:
            return
        self.stored = True
        before = self.stats(game)
        try:
            self.records.add(game, outcome=outcome)
        except RecordsError as err:
            warnings.warn(f"{err}; this game was not stored", RuntimeWarning, stacklevel=3)
            self.error = str(err)
            return
        self._stats = None
        after = self.stats(game)
        if before is not None and after is not None and game.is_won:
            self.new = _broken_records(before, after)

    def store_unfinished(self, game: Klondike | None) -> None:
        """Store ``game`` as abandoned (or lost) if it was played and is not stored yet."""
        if game is not None and game.moves and not self.stored:
            self.store(game)

    def follow(self, game: Klondike) -> None:
        """Call after every change: stores a win, and starts a new attempt after a reset to the deal."""
        if game.is_won and not self.stored:
            self.store(game, "won")
        elif self.stored and not game.moves and not game.can_redo and not game.is_won:
            self.stored, self.new = False, []

    def stats(self, game: Klondike) -> Stats | None:
        """The stats of ``game``'s rules and draw count (cached until the next store)."""
        if self.records is None:
            return None
        key = (rules_key(game.rules), game.rules.draw)
        if self._stats is None or self._stats_key != key:
            try:
                self._stats = self.records.stats(rules=game.rules, draw=game.rules.draw)
                self._stats_key = key
            except RecordsError as err:
                self.error = str(err)
                return None
        return self._stats

    def state(self, game: Klondike) -> dict[str, Any]:
        """The ``records`` part of the widget's synced state."""
        stats = self.stats(game)
        state: dict[str, Any] = {
            "enabled": self.records is not None,
            "error": self.error,
            "rules_key": rules_key(game.rules),
            "draw": game.rules.draw,
            "new": list(self.new),
        }
        if stats is not None:
            state.update(asdict(stats), win_rate=stats.win_rate)
        return state

    def rows(self) -> list[dict[str, Any]]:
        """Stats for every rule set and draw count played, for the statistics panel."""
        if self.records is None:
            return []
        try:
            groups = self.records.by_rules()
        except RecordsError as err:
            self.error = str(err)
            return []
        return [
            {"rules_key": key, "draw": draw, **asdict(stats), "win_rate": stats.win_rate}
            for (key, draw), stats in groups.items()
        ]


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
