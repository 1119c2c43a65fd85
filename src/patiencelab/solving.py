"""Services over the solver for the game and the board: winnability, the oracle's hint move, autocompletion of
a game whose cards are all face up, solvable seeds, and verdicts on plain data for worker processes.

They know every face-down card (the solver does): the fair counterparts, which read only what a player sees, are
in :mod:`patiencelab.players`. The search itself is :mod:`patiencelab.solver`, which never imports the game.
"""

from __future__ import annotations

import math
from collections.abc import Generator
from typing import Any

from patiencelab.core.game import Klondike
from patiencelab.core.moves import Move
from patiencelab.core.position import Position
from patiencelab.core.rules import Rules
from patiencelab.hints import DEFAULT_MAX_STATES, find_hint
from patiencelab.solver.movegen import finishing_move, to_public
from patiencelab.solver.node import Node
from patiencelab.solver.search import Outcome, solve, solve_in_slices
from patiencelab.solver.seeds import find_solvable_seed

__all__ = ["autocomplete_moves", "find_solvable_seed", "hint_move", "is_winnable", "verdict", "verdict_in_slices"]


def hint_move(game: Klondike, *, seconds: float = math.inf, max_states: int | None = DEFAULT_MAX_STATES) -> Move | None:
    """The oracle's hint move (:func:`patiencelab.hints.find_hint`, as ``game.hint(peek=True)``): one that keeps
    the game winnable when the solver knows one, in the documented order; ``None`` when no move is legal.
    """
    hint = find_hint(game, max_states=max_states, seconds=seconds)
    return hint.move if hint is not None else None


def autocomplete_moves(game: Klondike) -> list[Move] | None:
    """The moves that finish a trivially won game (every card face up; draws and recycles as needed, only
    foundation moves otherwise), or ``None`` when the game is not that far. The board's Autocomplete is the
    game's own routine (:attr:`Klondike.can_autocomplete <patiencelab.Klondike.can_autocomplete>`),
    which never calls the solver.
    """
    st = Node.of(game)
    if st.ndown:
        return None
    moves: list[Move] = []
    m = finishing_move(st)
    while m is not None:
        moves.extend(to_public(st, m))
        st.apply(m)
        m = finishing_move(st)
    return moves if st.is_won() else None


def is_winnable(game: Klondike, *, seconds: Any = 10.0, max_states: Any = None) -> bool | None:
    """True or False when the solver decides the game's current position within ``seconds`` (or ``max_states``
    positions), else ``None`` (see :meth:`Klondike.is_winnable <patiencelab.Klondike.is_winnable>`).
    """
    return game.is_winnable(seconds=seconds, max_states=max_states)


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
