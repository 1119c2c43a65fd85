"""Services over the solver for the game and the widget: hints, autocompletion, winnability, solvable seeds."""

from __future__ import annotations

import math
from typing import Any

from patiencelab.errors import PatienceError
from patiencelab.game import Klondike
from patiencelab.moves import Move
from patiencelab.position import Position, deal_position, seeded_deal
from patiencelab.rules import Rules
from patiencelab.solver.movegen import finishing_move, generate, to_public
from patiencelab.solver.search import Outcome, solve
from patiencelab.solver.state import State

__all__ = ["autocomplete_moves", "find_solvable_seed", "hint_move", "is_winnable", "verdict"]


def _reverses(move: Move, last: Move | None) -> bool:
    """True when ``move`` takes straight back what ``last`` did (``t2-t5`` after ``t5-t2``)."""
    if last is None or last.source is None or last.target is None or move.source is None or move.target is None:
        return False
    ls, lt, ms, mt = last.source, last.target, move.source, move.target
    if lt[0] == "f":
        return ms[0] == "f" and mt == ls
    if ls[0] == "f":
        return ms == lt and mt[0] == "f"
    return ms == lt and mt == ls


def hint_move(game: Klondike, *, seconds: float = 1.0, max_states: int | None = None) -> Move | None:
    """A good next move: the first move of a solution found within ``seconds`` or ``max_states``; otherwise the
    most promising move by the solver's ordering that does not undo the last move; ``None`` when no move is legal.
    """
    if game.is_won:
        return None
    legal = game.legal_moves()
    if not legal:
        return None
    solution = solve(game, seconds=seconds, max_states=max_states)
    if solution.outcome == "solved" and solution.moves:
        return solution.moves[0]
    last = game.history[-1] if game.history else None
    st = State.of(game)
    for m in reversed(generate(st)):
        first = to_public(st, m)[0]
        if not _reverses(first, last):
            return first
    for move in legal:
        if move.is_draw or move.is_recycle:
            return move
    for move in legal:
        if not _reverses(move, last):
            return move
    return None


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
    a :class:`~patiencelab.errors.PatienceError`.
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
