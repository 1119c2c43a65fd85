"""What the stored games say: games played and won, bests and winning streaks (:class:`Stats`), by rule set, draw
count and scoring scheme, and a plot of score and win rate over time. Everything here reads the rows
:meth:`~patiencelab.records.store.Records.history` gives.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from patiencelab.records.rows import GameRow, RecordsError

__all__ = ["Stats", "by_rules", "by_rules_and_scoring", "plot", "stats_of", "streaks"]


@dataclass(frozen=True, slots=True)
class Stats:
    """What the records say about one rule set, draw count and scoring scheme (or about all games)."""

    played: int
    won: int
    best_score: int | None
    fewest_moves: int | None
    fastest_win: float | None
    current_streak: int
    longest_streak: int

    @property
    def win_rate(self) -> float | None:
        """Games won / games played, or ``None`` before the first game."""
        return self.won / self.played if self.played else None


def streaks(outcomes: Iterable[str]) -> tuple[int, int]:
    """(current, longest) run of wins in ``outcomes`` (oldest first); anything but a win ends a run."""
    current = longest = 0
    for outcome in outcomes:
        current = current + 1 if outcome == "won" else 0
        longest = max(longest, current)
    return current, longest


def stats_of(rows: Sequence[GameRow]) -> Stats:
    """The :class:`Stats` of ``rows`` (oldest first)."""
    wins = [row for row in rows if row.outcome == "won"]
    current, longest = streaks(row.outcome for row in rows)
    return Stats(
        played=len(rows),
        won=len(wins),
        best_score=max((row.score for row in rows), default=None),
        fewest_moves=min((row.moves for row in wins), default=None),
        fastest_win=min((row.seconds for row in wins), default=None),
        current_streak=current,
        longest_streak=longest,
    )


def by_rules(rows: Iterable[GameRow]) -> dict[tuple[str, int], Stats]:
    """:class:`Stats` of ``rows`` (oldest first) for every rule set and draw count, every scoring scheme together."""
    groups: dict[tuple[str, int], list[GameRow]] = {}
    for row in rows:
        groups.setdefault((row.rules_key, row.draw), []).append(row)
    return {key: stats_of(group) for key, group in sorted(groups.items())}


def by_rules_and_scoring(rows: Iterable[GameRow]) -> dict[tuple[str, int, str], Stats]:
    """:class:`Stats` of ``rows`` (oldest first) for every rule set, draw count and scoring scheme."""
    groups: dict[tuple[str, int, str], list[GameRow]] = {}
    for row in rows:
        groups.setdefault((row.rules_key, row.draw, row.scoring), []).append(row)
    return {key: stats_of(group) for key, group in sorted(groups.items())}


def plot(rows: Sequence[GameRow]) -> Any:
    """Score and win rate of ``rows`` (oldest first), game by game: a matplotlib figure (needs matplotlib:
    ``pip install patiencelab[plot]``)."""
    try:
        import matplotlib.pyplot as plt
    except ImportError:
        raise RecordsError("records.plot() needs matplotlib: pip install 'patiencelab[plot]'") from None
    figure, (scores, rates) = plt.subplots(2, 1, sharex=True, figsize=(8, 5))
    numbers = list(range(1, len(rows) + 1))
    scores.plot(numbers, [r.score for r in rows], marker="o", linestyle="-", color="#1f6f43")
    scores.set_ylabel("score")
    won = 0
    running = []
    for i, row in enumerate(rows, 1):
        won += row.outcome == "won"
        running.append(won / i)
    rates.plot(numbers, running, color="#b3261e")
    rates.set_ylim(0, 1)
    rates.set_ylabel("win rate")
    rates.set_xlabel("game")
    figure.suptitle("PatienceLab records")
    figure.tight_layout()
    return figure
