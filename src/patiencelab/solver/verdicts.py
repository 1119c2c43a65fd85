"""The solver's answers on plain data, for the board's background work and worker processes: a verdict on a
position given as JSON (:func:`verdict`, or :func:`verdict_in_slices` a slice at a time where there are no
processes), and the moves that finish a game whose cards are all face up (:func:`autocomplete_moves`). Like the
rest of the search, it works on a position and rules and never imports the game.
"""

from __future__ import annotations

from collections.abc import Generator
from typing import Any

from patiencelab.core.moves import Move
from patiencelab.core.position import Position, check_source
from patiencelab.core.rules import Rules
from patiencelab.solver import Outcome, solve, solve_in_slices
from patiencelab.solver.movegen import finishing_move, to_public
from patiencelab.solver.node import Node, Positioned

__all__ = ["autocomplete_moves", "verdict", "verdict_in_slices"]


def autocomplete_moves(source: Position | Positioned, rules: Rules | None = None) -> list[Move] | None:
    """The moves that finish ``source`` (a position under ``rules``, or a game under its own) when it is a
    trivially won game (every card face up; draws and recycles as needed, only foundation moves otherwise), or
    ``None`` when it is not that far. The board's Autocomplete is the game's own routine
    (:attr:`Klondike.can_autocomplete <patiencelab.core.engine.Engine.can_autocomplete>`), which never calls the solver.
    """
    check_source(source, rules)
    st = Node.of(source, rules)
    if st.ndown:
        return None
    moves: list[Move] = []
    m = finishing_move(st)
    while m is not None:
        moves.extend(to_public(st, m))
        st.apply(m)
        m = finishing_move(st)
    return moves if st.is_won() else None


def verdict(position: dict[str, Any], rules: dict[str, Any], seconds: float, max_states: int | None = None) -> Outcome:
    """The solver's outcome for a position given as JSON (for a worker process: plain data in and out)."""
    start = Position.from_json(position)
    return solve(start, Rules.from_json(rules), seconds=seconds, max_states=max_states).outcome


def verdict_in_slices(
    position: dict[str, Any], rules: dict[str, Any], seconds: float, max_states: int | None = None
) -> Generator[None, None, Outcome]:
    """:func:`verdict` a slice at a time (see :func:`~patiencelab.solver.search.solve_in_slices`): the same
    outcome, for a host with no processes, which runs it between its other work.
    """
    start = Position.from_json(position)
    solution = yield from solve_in_slices(start, Rules.from_json(rules), seconds=seconds, max_states=max_states)
    return solution.outcome
