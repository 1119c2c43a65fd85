"""Searches run side by side for one verdict: the real game in two move orders, and an easier game whose
impossibility is a proof for the real one.

**Two move orders.** How long a search takes to find a win depends much on which moves it tries first; a deal
that one order wins late, another often wins early (seeds 0-199 with draw 3: deal 159 takes 346,877 positions
in the usual order and 12,728 with talon cards put out before cards are turned up). A second search of the same
game in that order (:func:`talon_first_start`) finds such wins; either search's verdict is the game's, as both are the
same exhaustive search.

**An easier game.** Drawing one card at a time with unlimited passes is easier than any draw and pass limit:
every talon card can then be played at any time, so every win under the real rules, read as its plays (draws
and recycles left out), is a win there too. Its search is often far smaller (a draw-1 position's key ignores the
waste), so a deal that is impossible with draw 1 is proved impossible with draw 3 long before the draw-3 search
would exhaust its own space. A win of the easier game proves nothing, and its search stops there.
"""

from __future__ import annotations

from collections.abc import Generator, Sequence
from dataclasses import dataclass, replace
from typing import Final, Literal, Protocol

from patiencelab.core.position import Position
from patiencelab.core.rules import Rules
from patiencelab.solver.node import Node, Positioned, position_and_rules

__all__ = ["EASIER_SLICES", "Run", "Searcher", "easier_start", "interleave", "talon_first_start"]

#: Slices of the easier game's search in each round, beside one slice of each search of the real game. On seeds
#: 0-199 with draw 3, 2 rather than 1 decides as many deals within 50,000 and 300,000 positions (fewer positions
#: for most deals proved impossible, more where the easier game is won late) and brings deal 72 (impossible)
#: from some 445,000 positions to 335,000.
EASIER_SLICES: Final = 2

Outcome = Literal["solved", "impossible", "unknown"]


class Searcher(Protocol):
    """A search with a position count and a generator of steps that returns its outcome."""

    states: int

    def steps(self) -> Generator[None, None, Outcome]:
        """Search, pausing now and then; return the outcome."""
        ...


@dataclass(frozen=True, slots=True)
class Run:
    """One search of a portfolio: ``slices`` slices of it in each round; ``easier`` when it searches an easier
    game (only its "impossible" tells the real game's verdict); ``name``: what ``Solution.decided_by`` (see
    :class:`~patiencelab.solver.search.Solution`) says when it decides.
    """

    search: Searcher
    slices: int = 1
    easier: bool = False
    name: str = ""


def easier_start(source: Position | Positioned, rules: Rules | None = None) -> Node | None:
    """The start of the easier game (draw 1, unlimited passes, the other rules kept) for the position and rules
    :func:`~patiencelab.solver.search.solve` was given, or ``None`` when the rules are already that game.
    """
    pos, rules = position_and_rules(source, rules)
    if rules.draw == 1 and rules.max_passes is None:
        return None
    return Node.from_position(pos, replace(rules, draw=1, max_passes=None))


def talon_first_start(source: Position | Positioned, rules: Rules | None = None) -> Node | None:
    """The start of the search in the second move order (talon cards put out before cards are turned up), or
    ``None`` where it does not pay: with draw 1 and unlimited passes, where the talon is at hand all the time and
    a second search would only double the work of the deals proved impossible.
    """
    start = Node.of(source, rules)
    if start.draw == 1 and start.max_rec is None:
        return None
    start.talon_first = True
    return start


def interleave(runs: Sequence[Run], max_states: int | None) -> Generator[None, None, tuple[Outcome, Run | None]]:
    """The verdict of the searches ``runs`` (the first, of the real game, in the usual order) and the run that
    gave it, searched round by round, each run its :attr:`Run.slices` slices in each round: "solved" or
    "impossible" as soon as a search of the real game ends so, or "impossible" as soon as the easier game is
    proved impossible; an easier game won leaves the portfolio. "unknown" when a search runs out of time, or
    when the positions of all searches together reach ``max_states``. It pauses (yields) after every slice.
    """
    live = [(run, run.search.steps()) for run in runs]
    while True:
        for run, steps in list(live):
            for _ in range(run.slices):
                try:
                    next(steps)
                except StopIteration as done:
                    outcome: Outcome = done.value
                    if run.easier and outcome == "solved":
                        live.remove((run, steps))
                        break
                    return outcome, run
                yield
        if max_states is not None and sum(run.search.states for run in runs) >= max_states:
            return "unknown", None
