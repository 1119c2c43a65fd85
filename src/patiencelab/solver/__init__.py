"""A Klondike solver: depth-first search over a compact position with a transposition table.

``solve(game)`` decides a position knowing every face-down card; ``solve_in_slices`` does the same a slice at a
time. The search works on a position and rules and never imports the game: the game's own methods
(``Klondike.solve``, ``is_winnable``, ``hint(peek=True)``) are built on it, :mod:`patiencelab.solver.seeds` finds
solvable seeds and :mod:`patiencelab.solver.verdicts` answers on plain JSON for worker processes.

The two functions here are the public doors, interpreted so that their signatures are precise and a wrong
argument is a :class:`~patiencelab.core.errors.PatienceError`; they check the arguments once and hand them to the
compiled search (:mod:`patiencelab.solver.search`), which takes them as checked.
"""

from __future__ import annotations

from collections.abc import Generator

from patiencelab.core.limits import check_budget
from patiencelab.core.position import Position, check_source
from patiencelab.core.rules import Rules
from patiencelab.solver import search
from patiencelab.solver.node import Positioned
from patiencelab.solver.search import Outcome, Solution

__all__ = ["Outcome", "Solution", "solve", "solve_in_slices"]


def solve(
    source: Position | Positioned,
    rules: Rules | None = None,
    *,
    seconds: float = 10.0,
    max_states: int | None = None,
) -> Solution:
    """Decide whether a position can be won (knowing every face-down card): a :class:`Position` under
    ``rules`` (the standard rules by default), or a game's current position under its rules.

    Stops at ``seconds`` or ``max_states`` positions, whichever comes first (see
    :func:`patiencelab.solver.search.solve`). ``"impossible"`` is a proof.

    >>> from patiencelab import Klondike
    >>> solve(Klondike(seed=2), max_states=50_000).outcome
    'solved'
    """
    check_budget(max_states, seconds)
    check_source(source, rules)
    return search.solve(source, rules, seconds=seconds, max_states=max_states)


def solve_in_slices(
    source: Position | Positioned,
    rules: Rules | None = None,
    *,
    seconds: float = 10.0,
    max_states: int | None = None,
) -> Generator[None, None, Solution]:
    """:func:`solve`, pausing after every :data:`~patiencelab.solver.search.SLICE` positions (a generator that
    returns the :class:`Solution`): for a host with no threads or processes (Pyodide), which runs it a slice at a
    time between other work. The same positions are searched, so the outcome is the one :func:`solve` gives.
    """
    check_budget(max_states, seconds)
    check_source(source, rules)
    return search.solve_in_slices(source, rules, seconds=seconds, max_states=max_states)
