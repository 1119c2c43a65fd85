"""Services over the solver for the game and the widget: hints, autocompletion, winnability, solvable seeds."""

from __future__ import annotations

import math
from collections.abc import Generator
from typing import Any

from patiencelab.core.errors import PatienceError
from patiencelab.core.game import Klondike
from patiencelab.core.moves import Move
from patiencelab.core.position import Position, deal_position, seeded_deal
from patiencelab.core.rules import Rules
from patiencelab.hints import DEFAULT_MAX_STATES, find_hint
from patiencelab.solver.movegen import finishing_move, to_public
from patiencelab.solver.search import Outcome, solve, solve_in_slices
from patiencelab.solver.state import State

__all__ = ["autocomplete_moves", "find_solvable_seed", "hint_move", "is_winnable", "verdict", "verdict_in_slices"]


def hint_move(game: Klondike, *, seconds: float = math.inf, max_states: int | None = DEFAULT_MAX_STATES) -> Move | None:
    """The move of :func:`patiencelab.hints.find_hint`: one that keeps the game winnable when the solver knows
    one, in the documented order; ``None`` when no move is legal.
    """
    hint = find_hint(game, max_states=max_states, seconds=seconds)
    return hint.move if hint is not None else None


def autocomplete_moves(game: Klondike) -> list[Move] | None:
    """The moves that finish a trivially won game (every card face up; draws and recycles as needed, only
    foundation moves otherwise), or ``None`` when the game is not that far.
    """
    st = State.of(game)
    if st.ndown:
        return None
    moves: list[Move] = []
    m = finishing_move(st)
    while m is not None:
        moves.extend(to_public(st, m))
        st.apply(m)
        m = finishing_move(st)
    return moves if st.is_won() else None


def is_winnable(game: Klondike, *, seconds: float = 10.0, max_states: int | None = None) -> bool | None:
    """True or False when the solver decides the game's current position within ``seconds`` (or ``max_states``
    positions), else ``None``.
    """
    outcome = solve(game, seconds=seconds, max_states=max_states).outcome
    return None if outcome == "unknown" else outcome == "solved"


def find_solvable_seed(start: int, rules: Rules, *, max_states_per_deal: int = 100_000, max_tries: int = 1_000) -> int:
    """The first seed from ``start`` on whose deal the solver wins under ``rules`` within ``max_states_per_deal``
    positions (a state budget, so every machine picks the same seed); after ``max_tries`` seeds it gives up with
    a :class:`~patiencelab.core.errors.PatienceError`.
    """
    if not isinstance(max_tries, int) or isinstance(max_tries, bool) or max_tries < 1:
        raise PatienceError(f"max_tries must be a whole number of at least 1, not {max_tries!r}")
    for seed in range(start, start + max_tries):
        deal = deal_position(seeded_deal(seed), rules)
        if solve(deal, rules, seconds=math.inf, max_states=max_states_per_deal).outcome == "solved":
            return seed
    raise PatienceError(
        f"no deal from seed {start} to {start + max_tries - 1} was won within {max_states_per_deal:,} positions each"
    )


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
