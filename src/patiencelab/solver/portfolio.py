"""Searches run side by side for one verdict: the real game in two move orders, and an easier game whose
impossibility is a proof for the real one.

**Two move orders.** How long a search takes to find a win depends much on which moves it tries first; a deal
that one order wins late, another often wins early (seeds 0-199 with draw 3: deal 159 takes 346,877 positions
in the usual order and 12,728 with talon cards put out before cards are turned up). A second search of the same
game in that order (:func:`talon_first_start`) finds such wins; either search's verdict is the game's, as both are the
same exhaustive search. The two share one table of the positions seen: each skips a position the other has
seen, so a position is searched once, by the first to meet it. Neither search's end alone is a proof then (the
other may not have searched yet what lies beyond a position it has seen), but both ends together are: every
position either saw was searched on by the one that saw it, so the positions seen hold every position the
start leads to (up to the sound prunings, which hold in one table as they hold in two), and none was won. So
"impossible" comes when both have ended so, after about as many positions as one search alone (two tables
would search each position twice).

**An easier game.** Drawing one card at a time with unlimited passes is easier than any draw and pass limit:
every talon card can then be played at any time, so every win under the real rules, read as its plays (draws
and recycles left out), is a win there too. Its search is often far smaller (a draw-1 position's key ignores the
waste), so a deal that is impossible with draw 1 is proved impossible with draw 3 long before the draw-3 search
would exhaust its own space. A win of the easier game proves nothing, and its search stops there. An easier game
not won once the searches together have searched :data:`EASIER_GROWS_AFTER` positions takes
:data:`EASIER_GROWN_SLICES` slices a round from then on, the real game's searches one each: such a deal is most
often impossible, and the easier game most often proves it first. Once it has searched :data:`EASIER_GROWN_MOST`
positions of its own, its space is that of the hardest draw-1 deals, where the real game's own proof is often the
shorter, and it takes :data:`EASIER_LAST_SLICES` slice a round, as each search of the real game does.

**A harder game.** The real game with every card that may go home sent there at once and none brought back
(:func:`eager_start`) has fewer moves, so far fewer positions; each of its moves is a move of the real game, so a
win of it is a win of the real game (its moves replayed under the real rules), while its impossibility proves
nothing, and its search stops there. It joins the portfolio only once the others have searched
:data:`EAGER_AFTER` positions without a verdict (so the deals the searches decide soon are not touched), and
leaves it after :data:`EAGER_MOST` positions of its own.
"""

from __future__ import annotations

from collections.abc import Generator, Sequence
from dataclasses import dataclass, replace
from typing import Final, Literal, Protocol, TypeVar

from patiencelab.core.errors import PatienceError
from patiencelab.core.position import Position
from patiencelab.core.rules import Rules
from patiencelab.solver.node import Node, Positioned, position_and_rules

__all__ = [
    "EAGER_AFTER",
    "EAGER_MOST",
    "EASIER_GROWN_MOST",
    "EASIER_GROWN_SLICES",
    "EASIER_GROWS_AFTER",
    "EASIER_LAST_SLICES",
    "EASIER_SLICES",
    "Run",
    "Searcher",
    "eager_start",
    "easier_start",
    "finish",
    "interleave",
    "says",
    "talon_first_start",
]

#: Slices of the easier game's search in each round, beside one slice of each search of the real game: where a deal is
#: impossible, the easier game's proof is often the shortest.
EASIER_SLICES: Final = 2

#: Positions all the searches must have searched before the easier game's share grows to
#: :data:`EASIER_GROWN_SLICES`. An easier game still running then was not won within some hundreds of thousands of
#: its own positions: a deal that hard with draw 1 is most often impossible, and then the easier game's proof is
#: usually the shortest. Searches decided sooner, within every budget the players, hints, reviews and tests give a
#: call, never reach it.
EASIER_GROWS_AFTER: Final = 1_000_000

#: Slices of the easier game in each round once it has grown (the real game's searches keep one each).
EASIER_GROWN_SLICES: Final = 16

#: The easier game's own positions after which its grown share ends: from then on it takes
#: :data:`EASIER_LAST_SLICES` slices a round, as each search of the real game does. The easier game of a draw-3 deal
#: is that deal with draw 1, whose space can be far larger than the real game's; the limit bounds what such a deal
#: costs the real game's searches. It lies above the largest easier game of seeds 0-9,999 (some 10 million
#: positions), so it acts only on a deal whose draw-1 space is larger still.
EASIER_GROWN_MOST: Final = 12_000_000

#: Slices of the easier game in each round once it has searched :data:`EASIER_GROWN_MOST` positions.
EASIER_LAST_SLICES: Final = 1

#: Positions the portfolio searches before the harder game (see :func:`eager_start`) joins it.
EAGER_AFTER: Final = 5_000

#: Positions after which the harder game leaves the portfolio undecided, so that a deal the other searches must prove
#: impossible does not pay for the harder game's positions too. The harder game takes at most half the positions of a
#: search, so a search within 600,000 positions never reaches it.
EAGER_MOST: Final = 300_000

Outcome = Literal["solved", "impossible", "unknown"]

T = TypeVar("T")


def finish(steps: Generator[None, None, T]) -> T:
    """Run ``steps`` (a search, a portfolio, a solve in slices) to its end, without pausing; what it returns."""
    while True:
        try:
            next(steps)
        except StopIteration as done:
            return done.value  # type: ignore[no-any-return]


class Searcher(Protocol):
    """A search with a position count and a generator of steps that returns its outcome."""

    states: int

    def steps(self) -> Generator[None, None, Outcome]:
        """Search, pausing now and then; return the outcome."""
        ...


@dataclass(frozen=True, slots=True)
class Run:
    """One search of a portfolio: ``slices`` slices of it in each round; ``easier`` when it searches an easier
    game (only its "impossible" tells the real game's verdict), ``harder`` when a harder one (only its "solved"
    does); ``after``: the positions all runs must have searched before it starts; ``name``: what
    ``Solution.decided_by`` (see :class:`~patiencelab.solver.search.Solution`) says when it decides;
    ``most``: the positions after which it leaves the portfolio undecided (0: never); ``shares``: a search of the
    real game that shares its table of positions seen with the other runs that do
    (its "impossible" is a proof only once all of them have ended so, see :func:`interleave`); ``grown``: the
    slices it takes in each round instead of ``slices`` once the runs together have searched ``grow_after``
    positions (0: it keeps ``slices``).
    """

    search: Searcher
    slices: int = 1
    easier: bool = False
    name: str = ""
    harder: bool = False
    after: int = 0
    most: int = 0
    shares: bool = False
    grow_after: int = 0
    grown: int = 0
    grown_most: int = 0
    last: int = 1

    def slices_at(self, total: int) -> int:
        """The slices of this run in a round that starts when the runs together have searched ``total``."""
        if not self.grown or total < self.grow_after:
            return self.slices
        if self.grown_most and self.search.states >= self.grown_most:
            return self.last
        return self.grown


def _copy_rules(rules: Rules | None) -> Rules:
    """The rules a copy of a node is made under: a node does not keep its own."""
    if rules is None:
        raise PatienceError("give the rules with a node: a node does not keep them")
    return rules


def _start(source: Position | Positioned | Node, rules: Rules | None) -> Node:
    """A new node of ``source``: a copy of a node (under ``rules``, which it then needs), or :meth:`Node.of`."""
    if isinstance(source, Node):
        return source.copy(_copy_rules(rules))
    return Node.of(source, rules)


def easier_start(source: Position | Positioned | Node, rules: Rules | None = None) -> Node | None:
    """The start of the easier game (draw 1, unlimited passes, the other rules kept) for the position and rules
    :func:`~patiencelab.solver.search.solve` was given (or a node of them with its rules, copied), or ``None`` when
    the rules are already that game.
    """
    if isinstance(source, Node):
        rules = _copy_rules(rules)
    else:
        source, rules = position_and_rules(source, rules)
    if rules.draw == 1 and rules.max_passes is None:
        return None
    easier = replace(rules, draw=1, max_passes=None)
    return source.copy(easier) if isinstance(source, Node) else Node.from_position(source, easier)


def eager_start(source: Position | Positioned | Node, rules: Rules | None = None) -> Node:
    """The start of the harder game: the real game where every card that may go home goes there at once (a move
    the search plays by itself, where it looks for safe moves: a column's top, and with draw 1 the talon's cards
    as :func:`~patiencelab.solver.movegen.safe_move` takes them) and no card comes back from a foundation. Its
    moves are moves of the real game. ``source`` may be a node of the real game, with its rules (copied).
    """
    start = _start(source, rules)
    start.eager = True
    start.f2t = False
    return start


def talon_first_start(source: Position | Positioned | Node, rules: Rules | None = None) -> Node | None:
    """The start of the search in the second move order (talon cards put out before cards are turned up), or
    ``None`` where it does not pay: with draw 1 and unlimited passes, where the talon is at hand all the time and
    a second search would only double the work of the deals proved impossible. ``source`` may be a node of the
    real game, with its rules (copied).
    """
    start = source if isinstance(source, Node) else Node.of(source, rules)
    if start.open_talon:
        return None  # told before a node is copied
    if start is source:
        start = start.copy(_copy_rules(rules))
    start.talon_first = True
    return start


def says(run: Run, outcome: Outcome) -> Outcome | None:
    """What the ``outcome`` of ``run``'s search says of the real game: the outcome itself for a search of the
    real game (and for "unknown", out of time), ``None`` for a win of the easier game or the impossibility of
    the harder one (they prove nothing: the run leaves the portfolio).
    """
    if (run.easier and outcome == "solved") or (run.harder and outcome == "impossible"):
        return None
    return outcome


def _sharer_left(
    run: Run, steps: Generator[None, None, Outcome], live: list[tuple[Run, Generator[None, None, Outcome]]]
) -> bool:
    """True when ``run`` shares its table and another live run that shares it has not ended yet."""
    return run.shares and any(other.shares and other_steps is not steps for other, other_steps in live)


def interleave(runs: Sequence[Run], max_states: int | None) -> Generator[None, None, tuple[Outcome, Run | None]]:
    """The verdict of the searches ``runs`` (the first, of the real game, in the usual order) and the run that
    gave it, searched round by round, each run its :attr:`Run.slices` slices in each round (:attr:`Run.grown` once
    the runs together have searched its :attr:`Run.grow_after`), once the runs together have searched its
    :attr:`Run.after` positions: "solved" as soon as a search of the real game ends
    so, "impossible" as soon as one ends so and every other run that shares its table (:attr:`Run.shares`) has
    ended so before, "impossible" as soon as the easier game is proved impossible, "solved" as soon as the
    harder game is won; an easier game won or a harder one proved impossible leaves the portfolio, as does a
    run that has searched its :attr:`Run.most` positions. "unknown"
    when a search runs out of time, when every search has left, or when the positions of all searches together
    reach ``max_states``. It pauses (yields) after every slice.
    """
    live = [(run, run.search.steps()) for run in runs]
    while live:
        total = sum(run.search.states for run in runs)
        ready = [entry for entry in live if entry[0].after <= total] or list(live)
        for run, steps in ready:
            if run.most and run.search.states >= run.most:
                live.remove((run, steps))
                continue
            for _ in range(run.slices_at(total)):
                try:
                    next(steps)
                except StopIteration as done:
                    outcome = says(run, done.value)
                    if outcome is None or (outcome == "impossible" and _sharer_left(run, steps, live)):
                        live.remove((run, steps))
                        break
                    return outcome, run
                yield
        if max_states is not None and sum(run.search.states for run in runs) >= max_states:
            return "unknown", None
    return "unknown", None
