"""A relaxed search run beside the real one: a game that cannot be won even with easier rules cannot be won.

Drawing one card at a time with unlimited passes is such an easier game for any draw and pass limit: every
talon card can then be played at any time, so every win under the real rules, read as its plays (draws and
recycles left out), is a win there too. Its search is often far smaller (a draw-1 position's key ignores the
waste), so a deal that is impossible with draw 1 is proved impossible with draw 3 long before the draw-3 search
would exhaust its own space.
"""

from __future__ import annotations

from collections.abc import Generator
from dataclasses import replace
from typing import Literal, Protocol

from patiencelab.core.position import Position
from patiencelab.core.rules import Rules
from patiencelab.solver.state import Positioned, State

__all__ = ["RELAXED_SLICES", "Searcher", "interleave", "relaxed_start"]

#: Slices of the easier game's search after each slice of the real one. On seeds 0-199 with draw 3, 2 rather
#: than 1 decides as many deals within 50,000 and 300,000 positions (fewer positions for most deals proved
#: impossible, more where the easier game is won late) and brings deal 72 (impossible) from some 445,000
#: positions to 335,000.
RELAXED_SLICES = 2

Outcome = Literal["solved", "impossible", "unknown"]


class Searcher(Protocol):
    """A search with a position count and a generator of steps that returns its outcome."""

    states: int

    def steps(self) -> Generator[None, None, Outcome]:
        """Search, pausing now and then; return the outcome."""
        ...


def relaxed_start(source: Position | Positioned, rules: Rules | None = None) -> State | None:
    """The start of the easier game (draw 1, unlimited passes, the other rules kept) for the position and rules
    :func:`~patiencelab.solver.search.solve` was given, or ``None`` when the rules are already that game.
    """
    if isinstance(source, Position):
        pos, rules = source, rules if rules is not None else Rules()
    else:
        pos, rules = source.snapshot(), source.rules
    if rules.draw == 1 and rules.max_passes is None:
        return None
    return State.from_position(pos, replace(rules, draw=1, max_passes=None))


def interleave(main: Searcher, relaxed: Searcher | None, max_states: int | None) -> Generator[None, None, Outcome]:
    """The outcome of ``main``, searched a slice at a time with :data:`RELAXED_SLICES` slices of ``relaxed`` (the
    easier game) after each until that one is decided: ``"impossible"`` as soon as the easier game is proved
    impossible (a proof for the real game too, see the module's docstring); a win of the easier game proves
    nothing, and its search stops there. ``max_states`` bounds the positions of both searches together. It
    pauses (yields) after every slice of either search.
    """
    steps = main.steps()
    other = relaxed.steps() if relaxed is not None else None
    while True:
        try:
            next(steps)
        except StopIteration as done:
            return done.value  # type: ignore[no-any-return]
        yield
        for _ in range(RELAXED_SLICES):
            if other is None:
                break
            try:
                next(other)
            except StopIteration as done:
                other = None
                if done.value == "impossible":
                    return "impossible"
            else:
                yield
        if relaxed is not None and max_states is not None and main.states + relaxed.states >= max_states:
            return "unknown"
