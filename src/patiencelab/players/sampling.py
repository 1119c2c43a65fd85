"""Chances from what a player sees: the deals consistent with a view (every order of the unseen cards, or a
seeded sample of them), each decided by the solver, and the one formula that turns their outcomes into a share
with its 95% interval (:func:`tally`). The players, the hints, the review and the quizzes all count here.
"""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING

from patiencelab.core.errors import ArgumentTypeError, PatienceError, quote
from patiencelab.core.game import Klondike
from patiencelab.core.limits import (
    check_instance,
    check_seconds,
    check_seed,
    check_states,
    check_whole,
)
from patiencelab.core.moves import Move
from patiencelab.core.position import Position
from patiencelab.core.rules import Rules
from patiencelab.core.view import PlayerView
from patiencelab.solver.search import Solution, solve
from patiencelab.stats import share_text, wilson

if TYPE_CHECKING:
    pass

#: Sampled deals per decision, unless told otherwise.
DEFAULT_SAMPLES = 16
#: Positions the solver may search in each sampled deal, unless told otherwise.
DEFAULT_MAX_STATES = 2_000


@dataclass(frozen=True, slots=True)
class Chances:
    """The share of sampled deals that can still be won: ``estimate`` (won / samples; ``None`` when no deal was
    decided within the budget: then nothing was measured and no number may be shown), a 95% Wilson interval from
    ``low`` (every undecided sample lost) to ``high`` (every undecided sample won), and the counts.
    ``exact`` is True when every order of the unseen cards was solved rather than a sample of them.
    """

    estimate: float | None
    low: float
    high: float
    won: int
    lost: int
    unknown: int
    exact: bool = False

    @property
    def samples(self) -> int:
        """The number of deals solved."""
        return self.won + self.lost + self.unknown

    def text(self, lang: str = "en") -> str:
        """The chance in the words of ``lang``: its percentage, with its 95% interval where that is wider than
        :data:`~patiencelab.stats.WIDE` (20 points), or "not known" where no deal was decided.
        """
        return share_text(self.estimate, self.low, self.high, lang=lang, digits=0, always=False)


def stand_in(view: PlayerView) -> Klondike:
    """A game with the view's visible cards, its unseen cards in the hidden places in deck order: for listing
    legal moves and ranking them, which never depends on the hidden cards.
    """
    check_instance(view, "view", PlayerView)
    return Klondike.from_position(view.fill(view.unseen_cards()), rules=view.rules)


def legal_moves(view: PlayerView) -> list[Move]:
    """The legal moves in the view's position."""
    check_instance(view, "view", PlayerView)
    return [] if view.is_won else stand_in(view).legal_moves()


def moves_to_choose(view: PlayerView) -> list[Move]:
    """The legal moves a player chooses from in the view's position; a :class:`PatienceError` when none is (the
    game is over)."""
    moves = legal_moves(view)
    if not moves:
        raise PatienceError("no move is legal: the game is over")
    return moves


def exhaustive(view: PlayerView, samples: int) -> bool:
    """Whether :func:`deals` gives every order of the view's unseen cards for ``samples`` (at most 12 unseen
    cards, and no more orders than ``samples``): then the chances are exact, not sampled.
    """
    hidden = len(view.unseen_cards())
    return hidden <= 12 and math.factorial(hidden) <= samples


def deals(view: PlayerView, samples: int, seed: int) -> tuple[list[Position], bool]:
    """Deals consistent with ``view``: every order of the unseen cards when there are at most ``samples`` of
    them (then True), else ``samples`` random ones from a generator seeded by ``seed`` and the move number.
    """
    check_instance(view, "view", PlayerView)
    check_whole(samples, "samples", low=1)
    check_seed(seed)
    cards = view.unseen_cards()
    if exhaustive(view, samples):
        return [view.fill(order) for order in itertools.permutations(cards)], True
    rng = random.Random(f"patiencelab:{seed}:{view.moves}")
    return [view.sample(rng) for _ in range(samples)], False


def tally(won: int, lost: int, unknown: int, exact: bool) -> Chances:
    """The chances of some deals (the one formula of the package, for the players, the hints and the review):
    the share won of those decided aside, a 95% Wilson interval from every undecided deal lost to every one won,
    or, when every order of the unseen cards was solved (``exact``), the bounds themselves.
    """
    n = won + lost + unknown
    if won + lost == 0:  # nothing decided: no estimate, only the bounds
        return Chances(None, 0.0, 1.0, 0, 0, unknown, exact)
    if exact:
        return Chances(won / n, won / n, (won + unknown) / n, won, lost, unknown, True)
    return Chances(won / n, wilson(won, n).low, wilson(won + unknown, n).high, won, lost, unknown, False)


def after(deal: Position, rules: Rules, moves: tuple[Move, ...] | list[Move]) -> Position:
    """The position of ``deal`` (a position with every card known) after ``moves`` under ``rules``."""
    trial = Klondike.from_position(deal, rules=rules)
    for move in moves:
        trial.play(move)
    return trial.snapshot()


def solve_deal(position: Position, rules: Rules, max_states: int | None, seconds: float) -> Solution:
    """The solver's answer for one deal (a position with every card known) within the budgets."""
    return solve(position, rules, seconds=seconds, max_states=max_states)


def chances(
    view: PlayerView,
    *,
    samples: int = 32,
    max_states: int | None = 10_000,
    seed: int = 0,
    seconds: float = math.inf,
) -> Chances:
    """The share of the deals consistent with ``view`` that can still be won, from ``samples`` deals of the
    unseen cards (every order when there are no more than that), each decided within ``max_states`` positions.
    Deals the budget cannot decide are counted apart; when none is decided the estimate is ``None`` (see
    :func:`tally`).
    """
    check_states(max_states)
    check_seconds(seconds)
    dealt, exact = deals(view, samples, seed)
    outcomes = Counter(solve_deal(deal, view.rules, max_states, seconds).outcome for deal in dealt)
    return tally(outcomes["solved"], outcomes["impossible"], outcomes["unknown"], exact)


def keeps_winnable(
    view: PlayerView,
    moves: list[Move],
    *,
    samples: int = DEFAULT_SAMPLES,
    max_states: int | None = DEFAULT_MAX_STATES,
    seed: int = 0,
) -> tuple[list[Chances], int]:
    """For each of ``moves`` (legal in the view's position), how the same ``samples`` deals consistent with
    ``view`` go after it: won (a win found within ``max_states``), lost (proved) or unknown; and the number of
    deals. Fair: it reads only the view.
    """
    check_states(max_states)
    if not isinstance(moves, (list, tuple)) or not all(isinstance(move, Move) for move in moves):
        raise ArgumentTypeError(f"moves must be a list of moves, not {quote(moves)}")
    dealt, exact = deals(view, samples, seed)
    result = []
    for move in moves:
        outcomes: Counter[str] = Counter()
        for deal in dealt:
            outcomes[solve_deal(after(deal, view.rules, (move,)), view.rules, max_states, math.inf).outcome] += 1
        result.append(tally(outcomes["solved"], outcomes["impossible"], outcomes["unknown"], exact))
    return result, len(dealt)


__all__ = [
    "DEFAULT_MAX_STATES",
    "DEFAULT_SAMPLES",
    "Chances",
    "after",
    "chances",
    "deals",
    "exhaustive",
    "keeps_winnable",
    "legal_moves",
    "moves_to_choose",
    "solve_deal",
    "stand_in",
    "tally",
]
