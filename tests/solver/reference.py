"""A reference search for the soundness tests: plain depth-first search over the game's own legal moves.

Written for clarity, not speed, and independent of the solver: it plays every legal action of the public model
(draws and recycles one at a time, pointless moves included), prunes nothing, plays no move by itself, and keys a
position by all of it (every column in its place, face-down cards in order, the stock, the waste, the
foundations, and the passes left when they are limited). With unlimited passes the count of recycles made is left
out of the key: it changes no rule then. Its verdicts are what the solver's must agree with.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from patiencelab import Klondike, Move

__all__ = ["Verdict", "reference_solve"]

Verdict = Literal["solved", "impossible", "unknown"]


@dataclass(frozen=True)
class Reference:
    """The reference search's verdict and the positions it searched."""

    outcome: Verdict
    states: int


def _key(game: Klondike) -> tuple[object, ...]:
    """The whole position, read from the game's own card lists: nothing merged, nothing left out that a rule
    reads.
    """
    return (
        tuple(map(tuple, game._down)),
        tuple(map(tuple, game._up)),
        tuple(game._stock),
        tuple(game._waste),
        tuple(game._found),
        game.passes_left,
    )


def reference_solve(game: Klondike, *, max_states: int) -> Reference:
    """Whether ``game`` can be won from its current position: ``"solved"``, ``"impossible"`` (every position
    reachable from it was searched) or ``"unknown"`` (more than ``max_states`` positions). The game is left as it
    was.
    """
    probe = game.copy()
    seen = {_key(probe)}
    if probe.is_won:
        return Reference("solved", 1)
    # One frame a position: the legal moves still to try from it, the last first.
    stack = [_ordered(probe)]
    while stack:
        moves = stack[-1]
        if not moves:
            stack.pop()
            if stack:
                probe.undo()
            continue
        probe.play(moves.pop())
        if probe.is_won:
            return Reference("solved", len(seen))
        key = _key(probe)
        if key in seen:
            probe.undo()
            continue
        if len(seen) >= max_states:
            return Reference("unknown", len(seen))
        seen.add(key)
        stack.append(_ordered(probe))
    return Reference("impossible", len(seen))


def _ordered(game: Klondike) -> list[Move]:
    """Every legal action, cards to the foundations last (they are popped first). An order only: every action
    is tried.
    """
    return sorted(game.legal_moves(), key=lambda m: m.target is not None and m.target[0] == "f")
