"""Players: functions from what a player sees (a :class:`~patiencelab.core.view.PlayerView`) to a move.

- :class:`Random` plays a legal move at random.
- :class:`Greedy` plays the first move of the hint order of :mod:`patiencelab.hints` (a card turned up, then a
  card to a foundation, then the waste's card, then other card moves, then a draw), without a solver.
- :class:`NoPeek` is the fair strong player (determinized search): it deals the unseen cards at random into the
  unseen places a number of times, solves each sample once within a state budget, then judges each candidate move
  on its own: after it, how many of the same samples stay winnable, with the solver as the judge; the move that
  keeps the most is played, ties broken by the hint order. Along a game it follows the wins it found while no
  card turns up and most of them agree (solving nothing), plays a card that goes home safely at once, and does
  not go back to a position it has decided in when another move goes on.
- :class:`Oracle` is the solver's hint of old: it **peeks**, knowing every face-down card of the game it is
  bound to. Its win rate is an upper bound, not a fair player's.

:func:`chances` estimates the share of the deals consistent with a view that can still be won, and
:func:`play_out` lets a player play a game to its end. Randomness comes only from the seed and the view, so two
games whose hidden cards differ only in order get the same moves and the same chances.

:func:`evaluate` measures a player (any :class:`Player` or function of a view) on seeded deals: its win rate
with a 95% interval, mean score, moves per game and CPU time per decision, in this process, on a local process
pool or on a Dask cluster, with the same rows (timings apart) on each. :func:`compare` does it for several
players and gives a table and a plot of them side by side.
"""

from __future__ import annotations

import copy
import itertools
import json
import math
import pickle
import random
import time
from collections import Counter
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping
from concurrent.futures import Executor
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, Literal, Protocol, runtime_checkable

from patiencelab.core.cards import Card
from patiencelab.core.errors import ArgumentTypeError, PatienceError, quote
from patiencelab.core.game import Klondike, Status
from patiencelab.core.limits import (
    check_choice,
    check_instance,
    check_seconds,
    check_seed,
    check_states,
    check_switch,
    check_whole,
)
from patiencelab.core.moves import Move
from patiencelab.core.position import Position
from patiencelab.core.rules import Rules
from patiencelab.core.view import PlayerView
from patiencelab.hints import ranked_moves
from patiencelab.judge import TIEBREAKS, scouting_move
from patiencelab.solver.search import Solution, solve
from patiencelab.survey_io import Interval, rules_label, wilson
from patiencelab.workers import has_processes, process_pool, run_jobs, stop_pool

if TYPE_CHECKING:
    from matplotlib.figure import Figure

__all__ = [
    "Chances",
    "Comparison",
    "Decision",
    "Ended",
    "Evaluation",
    "GameRow",
    "Greedy",
    "NoPeek",
    "Oracle",
    "Player",
    "Random",
    "as_choose",
    "chances",
    "compare",
    "evaluate",
    "keeps_winnable",
    "legal_moves",
    "play_game",
    "play_out",
    "play_to_end",
    "plot",
    "stand_in",
    "tally",
]

#: Sampled deals per decision and positions the solver may search in each, unless told otherwise.
DEFAULT_SAMPLES = 16
DEFAULT_MAX_STATES = 2_000
#: Positions one decision of :class:`NoPeek` may search in all (every deal and every move judged), unless told
#: otherwise.
DEFAULT_DECISION_STATES = 400_000


@runtime_checkable
class Player(Protocol):
    """Anything that picks a legal move from a player's view."""

    def choose(self, view: PlayerView) -> Move:
        """The move to play in the position ``view`` shows (the game must not be over)."""
        ...


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


@dataclass(frozen=True, slots=True)
class Decision:
    """What :meth:`NoPeek.decide` chose, and why: ``move``, the number of sampled deals it keeps winnable
    (``kept``, a win found after it) out of ``samples``, and how the samples went before the move.
    """

    move: Move
    kept: int
    samples: int
    chances: Chances
    #: True when the move follows wins found at an earlier decision, still consistent with every card seen
    #: since (nothing was solved; ``samples`` counts those deals).
    followed: bool = False
    #: The solver calls the decision made.
    solves: int = field(default=0, compare=False)


def stand_in(view: PlayerView) -> Klondike:
    """A game with the view's visible cards, its unseen cards in the hidden places in deck order: for listing
    legal moves and ranking them, which never depends on the hidden cards.
    """
    return Klondike.from_position(view.fill(view.unseen_cards()), rules=view.rules)


def legal_moves(view: PlayerView) -> list[Move]:
    """The legal moves in the view's position."""
    return [] if view.is_won else stand_in(view).legal_moves()


def _deals(view: PlayerView, samples: int, seed: int) -> tuple[list[Position], bool]:
    """Deals consistent with ``view``: every order of the unseen cards when there are at most ``samples`` of
    them (then True), else ``samples`` random ones from a generator seeded by ``seed`` and the move number.
    """
    check_instance(view, "view", PlayerView)
    check_whole(samples, "samples", low=1)
    check_seed(seed)
    cards = view.unseen_cards()
    hidden = len(cards)
    if hidden <= 12 and math.factorial(hidden) <= samples:
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


def _solve(position: Position, rules: Rules, max_states: int | None, seconds: float) -> Solution:
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
    deals, exact = _deals(view, samples, seed)
    outcomes = Counter(_solve(deal, view.rules, max_states, seconds).outcome for deal in deals)
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
    deals, exact = _deals(view, samples, seed)
    result = []
    for move in moves:
        outcomes: Counter[str] = Counter()
        for deal in deals:
            trial = Klondike.from_position(deal, rules=view.rules)
            trial.play(move)
            outcomes[_solve(trial.snapshot(), view.rules, max_states, math.inf).outcome] += 1
        result.append(tally(outcomes["solved"], outcomes["impossible"], outcomes["unknown"], exact))
    return result, len(deals)


class Random:
    """Plays a legal move chosen at random by its own ``random.Random(seed)``."""

    def __init__(self, seed: int = 0) -> None:
        self._rng = random.Random(check_seed(seed))

    def choose(self, view: PlayerView) -> Move:
        """A legal move at random."""
        return self._rng.choice(_legal_or_fail(view))

    def __repr__(self) -> str:
        return "Random()"


class Greedy:
    """Plays the first move of the hint order (:mod:`patiencelab.hints`): a face-down card turned up, a card to
    a foundation, the waste's card, another card move, then a draw; never the move just played taken back.
    """

    def choose(self, view: PlayerView) -> Move:
        """The most preferred move of the hint order."""
        game = stand_in(view)
        ordered = ranked_moves(game, view.last_move)
        return ordered[0] if ordered else _legal_or_fail(view)[0]

    def __repr__(self) -> str:
        return "Greedy()"


class NoPeek:
    """The fair strong player. At a decision it deals the unseen cards at random into the unseen places
    (``samples`` deals, more where the decision is close, up to ``max_samples``), solves each deal once within
    ``max_states`` positions, then judges each candidate move on its own: after it, how many of the same deals
    stay winnable (a win found), with the solver as the judge. A deal lost before the move is lost after any move;
    deals the budget cannot decide are counted apart, not as losses. A candidate that can no longer catch up with
    the leader on these deals is dropped early; ties go to the hint order. A decision searches at most
    ``decision_states`` positions in all. Seeded by ``seed``: the answer depends on the seed, the view and the
    state budgets only, never on the clock.

    It spends nothing where the decision is easy: one legal move (or one that neither shuffles nor goes back), a
    card that goes home safely (nothing can ever need it on the tableau: the other colour's foundations within 2
    ranks of it and the same colour's other suit within 3, or the other colour within 1 when foundation cards may
    not come back), or a plan still followed (the wins found after the move played go on, their deals agree with
    every card seen since, and most of them agree on the next move). ``judge=False`` gives the older player,
    which voted for the first moves of the wins found in each deal (it rewards moves that only work when a deal
    guessed the hidden cards right: strategy fusion); it is kept for comparison.

    With ``scout`` (by default with draw 3 only) and unlimited passes, :meth:`choose` first goes once through the
    stock and turns the waste over (:func:`patiencelab.judge.scouting_move`): the game is back at its start, and
    the player knows every stock card in order, so its sampled deals differ only in the columns' face-down cards.
    :meth:`decide` (the hint, the review) judges the position as it is and never scouts.

    It never goes round in circles: it remembers the positions it decided in along the game it plays (what it saw
    there, the columns taken as a set), and a move that turns up nothing new and leads back to one of them is
    played only when every legal move does. So the same view gets the same move when it is reached the same way;
    two games whose hidden cards differ only in order get the same moves.
    """

    def __init__(
        self,
        *,
        samples: int = DEFAULT_SAMPLES,
        max_states: int | None = DEFAULT_MAX_STATES,
        seed: int = 0,
        judge: bool = True,
        max_samples: int | None = None,
        decision_states: int | None = DEFAULT_DECISION_STATES,
        close: int = 2,
        scout: bool | None = None,
        tiebreak: str = "order",
        follow: bool = True,
    ) -> None:
        self.samples = check_whole(samples, "samples", low=1)
        self.max_states = check_states(max_states)
        self.seed = check_seed(seed)
        self.judge = check_switch(judge, "judge")
        #: The most deals a close decision may draw (by default 3 times ``samples``).
        self.max_samples = max(
            self.samples, 3 * self.samples if max_samples is None else check_whole(max_samples, "max_samples", low=1)
        )
        self.decision_states = check_states(decision_states)
        #: A lead (in deals kept winnable) below which a decision draws more deals, while it may.
        self.close = check_whole(close, "close", low=0)
        #: True to go once through the stock at the start of a deal, when passes are unlimited (it costs nothing
        #: and shows every stock card: see :mod:`patiencelab.judge`); None (the default) with draw 3 only, where it
        #: was measured to help (with draw 1 it lost more deals than it won: docs/players.md); False never.
        self.scout = None if scout is None else check_switch(scout, "scout")
        #: How moves that keep as many deals winnable are told apart (see :data:`patiencelab.judge.TIEBREAKS`).
        self.tiebreak = check_choice(tiebreak, "tiebreak", TIEBREAKS)
        self.effort = self.tiebreak == "effort"
        #: True to follow the wins found at an earlier decision while they hold (False: judge every decision).
        self.follow = check_switch(follow, "follow")
        self.seconds = math.inf
        #: The positions decided in so far, each with the moves that led to it (see :func:`_place`).
        self._path: list[tuple[tuple[Move, ...], Hashable]] = []
        #: The sampled deals won after the move just played: the moves played to the next decision, the deal
        #: after them and the rest of its winning line.
        self._plans: list[tuple[tuple[Move, ...], Position, tuple[Move, ...]]] = []

    def choose(self, view: PlayerView) -> Move:
        """The move of :meth:`decide`, after a first pass through the stock that only looks (with ``scout``)."""
        looks = self.scout if self.scout is not None else view.rules.draw > 1
        scout = scouting_move(view, _legal_or_fail(view)) if looks else None
        return scout if scout is not None else self.decide(view).move

    def decide(self, view: PlayerView, *, confirm: bool = False) -> Decision:
        """The move to play and the samples' verdicts. With ``confirm`` (for a hint that says how many deals its
        move keeps winnable) no shortcut is taken and ``kept`` counts every sampled deal won after the move;
        without, a move chosen without solving has ``samples == 0`` (or counts the plans it follows).
        """
        game = stand_in(view)
        legal = _legal_or_fail(view)
        visited = self._visit(view)
        plans = [] if confirm else self._plans_for(view)
        self._plans = []
        if len(legal) == 1 and not confirm:  # nothing to choose: no need to solve
            self._keep_plans(view, legal[0], [(d, line) for d, line in plans if line], game)
            return Decision(legal[0], 0, 0, tally(0, 0, 0, False))
        if not self.judge:
            return self._vote(view, game, legal, visited, plans, confirm)
        back = self._returns(view, game, legal, visited)
        if not confirm:
            home = _safe_home(view, game, legal)
            if home is not None and home not in back:
                self._keep_plans(view, home, [(d, ln) for d, ln in plans if _parse_first(game, ln) == home], game)
                return Decision(home, 0, 0, tally(0, 0, 0, False))
            followed = self._follow(view, game, plans, back) if self.follow else None
            if followed is not None:
                return followed
        ordered = ranked_moves(game, view.last_move) or list(legal)
        candidates = (
            [m for m in ordered if m not in back]
            or [m for m in legal if m not in back]
            or [m for m in legal if m.is_draw or m.is_recycle]  # round in circles: at least one play_out spots
            or ordered
        )
        if len(candidates) == 1 and not confirm:
            return Decision(candidates[0], 0, 0, tally(0, 0, 0, False))
        return self._judge(view, game, candidates, back, confirm)

    def _judge(
        self, view: PlayerView, game: Klondike, candidates: list[Move], back: set[Move], confirm: bool
    ) -> Decision:
        """Judge each of ``candidates`` on the same sampled deals (see the class's documentation)."""
        rules, max_states, budget = view.rules, self.max_states, self.decision_states
        deals, exact = _deals(view, self.samples, self.seed)
        rng = random.Random(f"patiencelab:more:{self.seed}:{view.moves}")
        spent = solves = 0
        roots: list[Solution] = []
        firsts: list[Move | None] = []
        won: Counter[Move] = Counter()
        #: the tie-break's score of each move, the lower the better (see :data:`patiencelab.judge.TIEBREAKS`)
        work: Counter[Move] = Counter()
        lines: dict[Move, list[tuple[int, tuple[Move, ...], Position | None]]] = {}
        alive = list(candidates)

        def rank(move: Move) -> tuple[int, int, bool, int]:
            # a card brought back from a foundation with no win found after it goes round in circles
            return (-won[move], work[move], not won[move] and _from_foundation(move), candidates.index(move))

        def afford() -> bool:
            return budget is None or max_states is None or spent + max_states <= budget

        def solve_after(deal: Position, move: Move) -> tuple[Position, Solution]:
            nonlocal spent, solves
            trial = Klondike.from_position(deal, rules=rules)
            trial.play(move)
            position = trial.snapshot()
            found = _solve(position, rules, max_states, self.seconds)
            spent += found.states
            solves += 1
            return position, found

        judged = 0
        while True:
            while len(roots) < len(deals) and afford():
                root = _solve(deals[len(roots)], rules, max_states, self.seconds)
                spent += root.states
                solves += 1
                first = _parse_first(game, tuple(root.moves)) if root.outcome == "solved" else None
                if first is not None and first not in candidates and first not in back:
                    candidates.append(first)  # a win's first move counts whatever the hint filters say
                    alive.append(first)
                roots.append(root)
                firsts.append(first)
                if first is not None and self.tiebreak == "votes":
                    work[first] -= 1
            order = [j for j in range(judged, len(roots)) if roots[j].outcome == "solved"]
            judged = len(roots)
            for pos, j in enumerate(order):
                for move in alive:
                    if move == firsts[j] and not self.effort:
                        won[move] += 1
                        lines.setdefault(move, []).append((j, tuple(roots[j].moves[1:]), None))
                    elif afford():
                        position, found = solve_after(deals[j], move)
                        if found.outcome == "solved":
                            won[move] += 1
                            lines.setdefault(move, []).append((j, tuple(found.moves), position))
                        if self.effort:
                            work[move] += found.states if found.outcome == "solved" else max_states or found.states
                leader = min(alive, key=rank)
                left = len(order) - pos - 1
                alive = [
                    m
                    for m in alive
                    if m == leader
                    or won[m] + left > won[leader]
                    or (won[m] + left == won[leader] and (self.effort or rank(m)[1:] < rank(leader)[1:]))
                ]
            leader = min(alive, key=rank)
            second = max((won[m] for m in alive if m != leader), default=None)
            if exact or second is None or won[leader] - second >= self.close:
                break
            if len(deals) >= self.max_samples or not afford():
                break
            deals += [view.sample(rng) for _ in range(min(self.samples, self.max_samples - len(deals)))]
        best = min(alive, key=rank)
        kept = won[best]
        if confirm:  # the deals undecided before the move may be won after it
            for j, root in enumerate(roots):
                if root.outcome == "unknown":
                    kept += solve_after(deals[j], best)[1].outcome == "solved"
        else:
            after = (*view.history, best)
            for j, line, reached in lines.get(best, []):
                if reached is None:
                    trial = Klondike.from_position(deals[j], rules=rules)
                    trial.play(best)
                    reached = trial.snapshot()
                self._plans.append((after, reached, line))
        outcomes = Counter(r.outcome for r in roots)
        verdicts = tally(outcomes["solved"], outcomes["impossible"], outcomes["unknown"], exact)
        return Decision(best, kept, len(roots), verdicts, solves=solves)

    def _follow(
        self, view: PlayerView, game: Klondike, plans: list[tuple[Position, tuple[Move, ...]]], back: set[Move]
    ) -> Decision | None:
        """The next move of the plans still followed, when enough of them agree on it (else None)."""
        if not plans:
            return None
        firsts = [_parse_first(game, line) for _, line in plans]
        votes = Counter(f for f in firsts if f is not None and f not in back)
        if not votes:
            return None
        move = max(votes, key=lambda m: (votes[m], -firsts.index(m)))
        count = votes[move]
        if count < max(2, self.samples // 4) or 4 * count < 3 * len(plans):
            return None
        self._keep_plans(view, move, [(d, line) for (d, line), f in zip(plans, firsts) if f == move], game)
        return Decision(move, count, len(plans), tally(len(plans), 0, 0, False), followed=True)

    def _vote(
        self,
        view: PlayerView,
        game: Klondike,
        legal: list[Move],
        visited: set[Hashable],
        plans: list[tuple[Position, tuple[Move, ...]]],
        confirm: bool,
    ) -> Decision:
        """The older decision (``judge=False``): the move that starts the most wins found in the deals."""
        ordered = ranked_moves(game, view.last_move) or legal
        if plans:  # the wins found before still hold: follow them, solving nothing
            deals = [deal for deal, _ in plans]
            lines = [line for _, line in plans]
            exact = False
            solutions: list[Solution] = []
        else:
            deals, exact = _deals(view, self.samples, self.seed)
            solutions = [_solve(deal, view.rules, self.max_states, self.seconds) for deal in deals]
            lines = [tuple(s.moves) if s.outcome == "solved" else () for s in solutions]
        firsts: list[Move | None] = [_parse_first(game, line) for line in lines]
        votes = Counter(m for m in firsts if m is not None)
        for move in votes:
            if move not in ordered:
                ordered.append(move)  # a win's first move counts whatever the hint filters say
        back = self._returns(view, game, ordered, visited)
        if back and all(m in back for m in ordered):  # then any move the hint order leaves out that goes on
            ordered += [m for m in legal if m not in ordered]
            back = self._returns(view, game, ordered, visited)
        best = max(ordered, key=lambda m: (m not in back, votes[m], -ordered.index(m)))
        kept = votes[best]
        if not confirm:
            self._keep_plans(view, best, [(d, line) for d, line, f in zip(deals, lines, firsts) if f == best], game)
        if plans:
            return Decision(best, kept, len(plans), tally(len(plans), 0, 0, False), followed=True)
        if confirm:
            for deal, solution, first in zip(deals, solutions, firsts):
                if solution.outcome != "impossible" and first != best and _wins_after(deal, view.rules, best, self):
                    kept += 1
        outcomes = Counter(s.outcome for s in solutions)
        verdicts = tally(outcomes["solved"], outcomes["impossible"], outcomes["unknown"], exact)
        return Decision(best, kept, len(deals), verdicts, solves=len(solutions))

    def _plans_for(self, view: PlayerView) -> list[tuple[Position, tuple[Move, ...]]]:
        """The sampled deals whose win found earlier began with the moves played since and that agree with every
        card seen since, each with the rest of its winning line: still deals consistent with ``view``.
        """
        place = replace(view, history=())
        plans = []
        for history, deal, line in self._plans:
            if history == view.history and replace(_sample_view(deal, view), history=()) == place:
                plans.append((deal, line))
        return plans

    def _keep_plans(
        self, view: PlayerView, move: Move, plans: list[tuple[Position, tuple[Move, ...]]], game: Klondike
    ) -> None:
        """Remember, for the next decision, the deals of ``plans`` (each with a winning line that starts with
        ``move``) after ``move``, with the rest of their lines.
        """
        after = (*view.history, move)
        for deal, line in plans:
            trial = Klondike.from_position(deal, rules=view.rules)
            trial.play(move)
            self._plans.append((after, trial.snapshot(), line[1:]))

    def _visit(self, view: PlayerView) -> set[Hashable]:
        """The positions decided in before along the game that led to ``view`` (each under both keys of
        :func:`_place`); ``view``'s is remembered from now on (and those of other games forgotten).
        """
        history = view.history
        self._path = [(h, p) for h, p in self._path if history[: len(h)] == h and len(h) < len(history)]
        visited = {p for _, p in self._path}
        self._path += [(history, _place(view)), (history, _place(view, cycle=True))]
        return visited

    @staticmethod
    def _returns(view: PlayerView, game: Klondike, moves: list[Move], visited: set[Hashable]) -> set[Move]:
        """The moves of ``moves`` that turn up no card and lead back to a position of ``visited``: a draw or a
        recycle to the very position, another move to the same cards with the known stock turned any way round
        (drawing alone gets there again, so the move made no progress).
        """
        if not visited:
            return set()
        back = set()
        for move in moves:
            if move.is_draw and view.unseen_stock:
                continue  # draws an unseen card
            trial = game.copy()
            trial.play(move)
            played = trial.last_played()
            if played is not None and played.turned is not None:
                continue
            if _place(trial.player_view(), cycle=not (move.is_draw or move.is_recycle)) in visited:
                back.add(move)
        return back

    def __repr__(self) -> str:
        extra = ("" if self.judge else ", judge=False") + ("" if self.scout is None else f", scout={self.scout}")
        return f"NoPeek(samples={self.samples}, max_states={self.max_states}, seed={self.seed}{extra})"


def _place(view: PlayerView, *, cycle: bool = False) -> Hashable:
    """The position a view shows, for spotting a return to it: what the view shows with the columns taken as a
    set (their order changes nothing of the game), without its moves (and its recycles, when passes are
    unlimited and so change nothing). With ``cycle``, when passes are unlimited and the whole stock is known,
    the waste and the stock count as one cycle of cards (draws and recycles alone turn it round).
    """
    recycles = view.recycles if view.rules.max_passes is not None else min(view.recycles, 1)
    columns = tuple(sorted((col.down, tuple(card.index for card in col.up)) for col in view.tableau))
    if cycle and view.rules.max_passes is None and not view.unseen_stock:
        return (columns, "cycle", view.waste + view.stock, view.foundations)
    return (columns, view.stock_size, view.stock, view.waste, view.foundations, recycles)


def _from_foundation(move: Move) -> bool:
    """True for a move that takes a card off a foundation."""
    return move.source is not None and move.source[0] == "f"


def _goes_home_safely(card: Card, foundations: tuple[int, int, int, int], returns: bool) -> bool:
    """True when ``card`` going to its foundation can never hurt (the solver's sound dominance): no card that
    could ever need it on the tableau is still out of the foundations.
    """
    rank, suit = card.rank, card.suit.index
    if rank <= 2:
        return True
    other = (1, 2) if suit in (0, 3) else (0, 3)
    if returns:  # Blake & Gent: the other colour within 2 ranks, the same colour's other suit within 3
        return all(foundations[o] >= rank - 2 for o in other) and foundations[suit ^ 3] >= rank - 3
    return all(foundations[o] >= rank - 1 for o in other)


def _safe_home(view: PlayerView, game: Klondike, legal: list[Move]) -> Move | None:
    """A legal move that puts a card home safely: a column's top card, or the waste's with draw 1 (with draw 3
    taking a waste card changes which stock cards can be reached), or None.
    """
    for move in legal:
        source, target = move.source, move.target
        if source is None or target is None or target[0] != "f":
            continue
        if source[0] != "t" and not (source == "w" and view.rules.draw == 1):
            continue
        card = game.moving_cards(move)[0]
        if _goes_home_safely(card, view.foundations, view.rules.foundation_to_tableau):
            return move
    return None


class Oracle:
    """The solver playing with every card known. It PEEKS: it reads the face-down cards of the game it is bound
    to (:meth:`seeing`; :func:`play_out` binds it), so it is no fair player; its win rate is what knowing every
    card is worth.

    It solves the bound game's position within ``max_states`` positions and plays the winning line found, move by
    move, solving nothing more while the game follows it (the deal is known, so a winning line goes on winning).
    Where no line is known it plays :class:`Greedy`'s move: once a search proved the deal lost (it stays lost), and
    after a search that did not decide, until the next card is turned up (then it searches again, on a smaller
    problem).
    """

    def __init__(self, game: Klondike | None = None, *, max_states: int | None = 200_000) -> None:
        self.game = None if game is None else check_instance(game, "game", Klondike)
        self.max_states = check_states(max_states)
        #: The line being followed: the position it goes on from (``repr`` of its snapshot) and its moves.
        self._line: tuple[str, tuple[Move, ...]] = ("", ())
        #: The unseen cards when a search last failed to find a line (-1: proved lost), or None.
        self._failed_at: int | None = None

    def seeing(self, game: Klondike) -> Oracle:
        """A fresh oracle, with the same budget, bound to ``game``."""
        return Oracle(game, max_states=self.max_states)

    def choose(self, view: PlayerView) -> Move:
        """The next move of the winning line in the bound game (whose view must be ``view``)."""
        game = self.game
        if game is None or game.player_view() != view:
            raise PatienceError("an Oracle peeks at a game: bind it with oracle.seeing(game) first")
        here, unseen = repr(game.snapshot()), view.hidden_places + view.unseen_stock
        start, line = self._line
        if (start != here or not line) and self._failed_at not in (-1, unseen):
            found = solve(game.snapshot(), game.rules, seconds=math.inf, max_states=self.max_states)
            start, line = here, found.moves if found.outcome == "solved" else ()
            self._failed_at = None if line else -1 if found.outcome == "impossible" else unseen
        if start != here or not line or not game.can_play(line[0]):
            self._line = ("", ())
            return Greedy().choose(view)
        trial = game.copy()
        move = trial.play(line[0])
        self._line = (repr(trial.snapshot()), line[1:])
        return move

    def __repr__(self) -> str:
        return f"Oracle(max_states={self.max_states})"


#: How a game of :func:`play_to_end` ended: won, stuck (no legal move), a position seen a third time (the
#: player goes round in circles) or ``max_moves`` moves played.
Ended = Literal["won", "stuck", "repeated", "max_moves"]


def play_out(
    game: Klondike,
    player: Player | Callable[[PlayerView], Move],
    *,
    max_moves: int = 1_000,
    on_move: Callable[[Move], None] | None = None,
) -> Status:
    """Let ``player`` (a :class:`Player` or any function of a view) play ``game`` from its current position
    until it is won, no move is legal, a position comes back a third time (the player goes round in circles:
    through the stock twice with nothing played, say) or ``max_moves`` moves were played; returns the game's
    status (``playing`` when it stopped on a repetition or the cap: :func:`play_to_end` says which).
    """
    play_to_end(game, player, max_moves=max_moves, on_move=on_move)
    return game.status


def play_to_end(
    game: Klondike,
    player: Player | Callable[[PlayerView], Move],
    *,
    max_moves: int = 1_000,
    on_move: Callable[[Move], None] | None = None,
) -> Ended:
    """Play as :func:`play_out` does and say how the game ended: ``won``, ``stuck`` (no legal move),
    ``repeated`` (a position came back a third time) or ``max_moves``.
    """
    check_instance(game, "game", Klondike)
    choose = as_choose(player, game)
    seen: Counter[Hashable] = Counter()
    for _ in _moves(max_moves):
        if game.is_won or not game.legal_moves():
            break
        key = _key(game)
        seen[key] += 1
        if seen[key] > 2:
            return "repeated"
        move = game.play(choose(game.player_view()))
        if on_move is not None:
            on_move(move)
    return "won" if game.is_won else "stuck" if not game.legal_moves() else "max_moves"


def _key(game: Klondike) -> Hashable:
    """The position, for spotting repetitions: the columns taken as a set (their order changes nothing of the
    game), the recycles counted only when passes are limited.
    """
    position = game.snapshot()
    columns = tuple(sorted(repr(column) for column in position.tableau))
    recycles = position.recycles if game.rules.max_passes is not None else 0
    return (columns, position.stock, position.waste, repr(position.foundations), recycles)


def _moves(max_moves: int) -> Iterator[int]:
    return iter(range(check_whole(max_moves, "max_moves", low=0)))


def _legal_or_fail(view: PlayerView) -> list[Move]:
    moves = legal_moves(view)
    if not moves:
        raise PatienceError("no move is legal: the game is over")
    return moves


def _sample_view(deal: Position, view: PlayerView) -> PlayerView:
    """What a player would see in the sampled ``deal`` under the rules of ``view``."""
    return Klondike.from_position(deal, rules=view.rules).player_view()


def _parse_first(game: Klondike, line: tuple[Move, ...]) -> Move | None:
    """The first move of a winning line, in the form the stand-in's legal moves use, or ``None``."""
    if not line:
        return None
    try:
        return game.parse_move(line[0])
    except PatienceError:  # pragma: no cover - a solver's move is legal where it was found
        return None


def _wins_after(deal: Position, rules: Rules, move: Move, player: NoPeek) -> bool:
    trial = Klondike.from_position(deal, rules=rules)
    trial.play(move)
    return _solve(trial.snapshot(), rules, player.max_states, player.seconds).outcome == "solved"


# ------------------------------------------------------------------------------------------------ measuring


@dataclass(frozen=True, slots=True)
class GameRow:
    """One game of an evaluation: the deal's ``seed``, whether it was ``won``, the game's ``status`` at the end
    (won, stuck, or playing when :func:`play_out` stopped it), the final ``score``, the ``moves`` played, the CPU
    seconds the player took to choose them (``cpu_seconds``, left out of comparisons: it differs run to run),
    and how the game ended (``ended``: ``won``, ``stuck``, ``repeated`` for a position seen a third time, or
    ``max_moves``; see :func:`play_to_end`).
    """

    seed: int
    won: bool
    status: str
    score: int
    moves: int
    cpu_seconds: float = field(compare=False)
    ended: Ended

    def to_json(self) -> dict[str, Any]:
        """The row as a JSON-ready dict."""
        return {
            "seed": self.seed,
            "won": self.won,
            "status": self.status,
            "score": self.score,
            "moves": self.moves,
            "cpu_seconds": self.cpu_seconds,
            "ended": self.ended,
        }


def as_choose(
    player: Player | Callable[[PlayerView], Move], game: Klondike | None = None
) -> Callable[[PlayerView], Move]:
    """The function from a view to a move that ``player`` is: its ``choose``, or the player itself when it is a
    function; a :class:`PatienceError` for anything else. An :class:`Oracle` is bound to ``game`` first (it
    peeks at the game it plays).
    """
    if isinstance(player, Oracle) and game is not None:
        player = player.seeing(game)
    if isinstance(player, Player):
        return player.choose
    if callable(player):
        return player
    raise ArgumentTypeError(f"a player must have a choose(view) method or be a function of a view, not {quote(player)}")


def play_game(
    player: Player | Callable[[PlayerView], Move], seed: int, rules_json: str, max_moves: int = 1_000
) -> GameRow:
    """Let a fresh copy of ``player`` play the deal of ``seed`` under the rules in ``rules_json`` with
    :func:`play_out` (the job that executors run for :func:`evaluate`). The player's CPU time is measured per
    thread, so games that share a process in threads do not count each other's time.
    """
    rules = Rules.from_json(json.loads(check_instance(rules_json, "rules_json", str)))
    game = Klondike(seed=seed, rules=rules)
    choose = as_choose(copy.deepcopy(player), game)
    spent = 0.0
    # a browser's Python (Pyodide) has no thread clock, and one thread: there the process's clock is the same
    clock = getattr(time, "thread_time", time.process_time)

    def timed(view: PlayerView) -> Move:
        nonlocal spent
        start = clock()
        try:
            return choose(view)
        finally:
            spent += clock() - start

    ended = play_to_end(game, timed, max_moves=max_moves)
    return GameRow(seed, game.is_won, game.status, game.score, game.moves, spent, ended)


def _name(player: object) -> str:
    if isinstance(player, Player):
        return repr(player)
    return getattr(player, "__name__", None) or repr(player)


@dataclass(frozen=True, slots=True)
class Evaluation:
    """How a player did: its ``name``, the ``rules``, one :class:`GameRow` per deal (by seed), and the summary
    properties (:attr:`win_rate` with its 95% Wilson interval, :attr:`mean_score`, :attr:`moves_per_game`,
    :attr:`cpu_per_decision`).
    """

    name: str
    rules: Rules
    rows: tuple[GameRow, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "rows", tuple(sorted(self.rows, key=lambda r: r.seed)))

    @property
    def games(self) -> int:
        """The number of games played."""
        return len(self.rows)

    @property
    def won(self) -> int:
        """The number of games won."""
        return sum(r.won for r in self.rows)

    @property
    def win_rate(self) -> Interval:
        """The share of games won, with its 95% Wilson interval."""
        return wilson(self.won, self.games)

    @property
    def mean_score(self) -> float:
        """The mean final score (0 for no games)."""
        return sum(r.score for r in self.rows) / self.games if self.rows else 0.0

    @property
    def moves_per_game(self) -> float:
        """The mean number of moves played in a game (0 for no games)."""
        return sum(r.moves for r in self.rows) / self.games if self.rows else 0.0

    @property
    def cpu_per_decision(self) -> float:
        """The player's CPU seconds per move chosen, over every game (0 when it chose none)."""
        decisions = sum(r.moves for r in self.rows)
        return math.fsum(r.cpu_seconds for r in self.rows) / decisions if decisions else 0.0

    def to_markdown(self) -> str:
        """The evaluation as a one-line markdown table (see :meth:`Comparison.to_markdown`)."""
        return Comparison((self,)).to_markdown()

    def __str__(self) -> str:
        return self.to_markdown()


_HEADER = (
    "| player | rules | games | won | win rate (95%) | mean score | moves per game | CPU per decision |",
    "|---|---|---:|---:|---|---:|---:|---:|",
)


def _percent(x: float) -> str:
    return f"{100 * x:.1f}%"


@dataclass(frozen=True, slots=True)
class Comparison:
    """Several evaluations, side by side: a markdown table (:meth:`to_markdown`, also ``str()``) and a plot."""

    evaluations: tuple[Evaluation, ...]

    def __getitem__(self, name: str) -> Evaluation:
        """The evaluation of the player named ``name``."""
        for evaluation in self.evaluations:
            if evaluation.name == name:
                return evaluation
        raise KeyError(name)

    def rows(self) -> list[dict[str, Any]]:
        """One plain dict per player: name, rules, games, won, win rate and its interval, mean score, moves per
        game and CPU seconds per decision.
        """
        out = []
        for e in self.evaluations:
            rate = e.win_rate
            out.append(
                {
                    "player": e.name,
                    "rules": rules_label(e.rules),
                    "games": e.games,
                    "won": e.won,
                    "win_rate": rate.share,
                    "low": rate.low,
                    "high": rate.high,
                    "mean_score": e.mean_score,
                    "moves_per_game": e.moves_per_game,
                    "cpu_per_decision": e.cpu_per_decision,
                }
            )
        return out

    def to_markdown(self) -> str:
        """A markdown table with a line per player."""
        lines = list(_HEADER)
        for row in self.rows():
            lines.append(
                f"| {row['player']} | {row['rules']} | {row['games']} | {row['won']} "
                f"| {_percent(row['win_rate'])} ({_percent(row['low'])}-{_percent(row['high'])}) "
                f"| {row['mean_score']:.1f} | {row['moves_per_game']:.1f} | {1000 * row['cpu_per_decision']:.2f} ms |"
            )
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.to_markdown()

    def plot(self) -> Figure:
        """The players side by side (see :func:`plot`)."""
        return plot(self.evaluations)


def plot(evaluations: Iterable[Evaluation]) -> Figure:
    """A figure of several players side by side: win rates with their 95% intervals, and mean scores.
    Needs matplotlib (the ``plot`` extra).
    """
    from matplotlib.figure import Figure

    shown = list(evaluations)
    names = [e.name for e in shown]
    rates = [e.win_rate for e in shown]
    fig = Figure(figsize=(max(6.0, 1.6 * len(shown) + 3), 3.5), layout="constrained")
    wins, scores = fig.subplots(1, 2)
    heights = [100 * r.share for r in rates]
    errors = [[100 * (r.share - r.low) for r in rates], [100 * (r.high - r.share) for r in rates]]
    wins.bar(names, heights, yerr=errors, capsize=4, color="tab:green")
    wins.set_ylabel("games won (%, 95% interval)")
    wins.set_ylim(0, 100)
    wins.set_title(", ".join(sorted({rules_label(e.rules) for e in shown})) or "no players")
    scores.bar(names, [e.mean_score for e in shown], color="tab:blue")
    scores.set_ylabel("mean score")
    scores.set_title(f"{max((e.games for e in shown), default=0)} deals")
    for axes in (wins, scores):
        axes.tick_params(axis="x", labelrotation=20)
    return fig


def _seed_list(deals: int | Iterable[int]) -> list[int]:
    if isinstance(deals, int) and not isinstance(deals, bool):
        return list(range(check_whole(deals, "deals", low=0)))
    if not isinstance(deals, Iterable) or isinstance(deals, (str, bytes)):
        raise ArgumentTypeError(f"deals must be a number of deals or an iterable of seeds, not {quote(deals)}")
    return [check_seed(seed) for seed in dict.fromkeys(deals)]


def _executor_of(executor: object) -> Executor | None:
    """An executor as it is, a Dask ``Client`` turned into its executor, ``None`` as it is."""
    if executor is None or isinstance(executor, Executor):
        return executor
    get = getattr(executor, "get_executor", None)
    if callable(get):
        made = get()
        if isinstance(made, Executor):
            return made
    raise PatienceError(f"executor must be a concurrent.futures.Executor or a Dask Client, not {executor!r}")


def evaluate(
    player: Player | Callable[[PlayerView], Move],
    deals: int | Iterable[int] = 100,
    rules: Rules | None = None,
    executor: Executor | Any = None,
    *,
    workers: int = 1,
    max_moves: int = 1_000,
    name: str | None = None,
    progress: bool = True,
) -> Evaluation:
    """Let ``player`` (a :class:`Player` or any function of a view) play seeded deals and measure it.

    - ``deals``: seeds, or a number N for seeds 0 to N-1 (a repeated seed is played once);
    - ``rules``: the :class:`Rules` (default: standard, draw 1);
    - ``executor``: any :class:`concurrent.futures.Executor` or a Dask ``Client``; without one, the games are
      played in this process (``workers=1``, the default) or on a local pool of ``workers`` processes;
    - ``max_moves``: the moves after which a game is given up (see :func:`play_out`), ``name`` the player's name
      in tables (default: its ``repr`` or function name), ``progress`` a progress bar (tqdm).

    Each game gets a fresh copy of the player as it was given, so the rows do not depend on which games a
    worker played before: they are the same (timings apart) in this process, on a pool and on Dask. A player
    sent to a process pool must be picklable (a class or a function of a module, not a lambda); Dask pickles
    lambdas too.
    """
    rules = check_instance(Rules() if rules is None else rules, "rules", Rules)
    as_choose(player)  # says what is wrong with one that is not a player
    check_whole(workers, "workers", low=1)
    _moves(max_moves)
    pool_of = _executor_of(executor)
    if pool_of is not None and workers != 1:
        raise PatienceError("give an executor or a number of workers, not both")
    if not has_processes():
        workers = 1
    seeds = _seed_list(deals)
    label = name if name is not None else _name(player)
    rules_json = json.dumps(rules.to_json(), sort_keys=True)
    from tqdm.auto import tqdm  # type: ignore[import-untyped, unused-ignore]

    rows: list[GameRow] = []
    bar = tqdm(total=len(seeds), disable=not progress, unit="game", desc=label[:30], smoothing=0.05)

    def keep(row: GameRow) -> None:
        rows.append(row)
        bar.update(1)

    try:
        if pool_of is None and workers == 1:
            for seed in seeds:
                keep(play_game(player, seed, rules_json, max_moves))
        elif pool_of is None:
            try:
                pickle.dumps(player)
            except Exception:
                raise PatienceError(
                    f"{label} cannot be sent to worker processes (it does not pickle): use a class or a function "
                    "defined in a module, or workers=1"
                ) from None
            pool = process_pool(workers)
            try:
                run_jobs(pool, play_game, ((player, s, rules_json, max_moves) for s in seeds), keep, 2 * workers)
            except BaseException:
                stop_pool(pool)
                raise
            pool.shutdown()
        else:
            run_jobs(pool_of, play_game, ((player, s, rules_json, max_moves) for s in seeds), keep)
    finally:
        bar.close()
    return Evaluation(label, rules, tuple(rows))


def compare(
    players: Mapping[str, Player | Callable[[PlayerView], Move]],
    deals: int | Iterable[int] = 100,
    rules: Rules | None = None,
    executor: Executor | Any = None,
    *,
    workers: int = 1,
    max_moves: int = 1_000,
    progress: bool = True,
) -> Comparison:
    """:func:`evaluate` each of ``players`` (by name) on the same deals; the :class:`Comparison` of them."""
    if not isinstance(players, Mapping):
        raise PatienceError("players must be a dict of names to players")
    seeds = _seed_list(deals)
    return Comparison(
        tuple(
            evaluate(
                player,
                seeds,
                rules,
                executor,
                workers=workers,
                max_moves=max_moves,
                name=str(label),
                progress=progress,
            )
            for label, player in players.items()
        )
    )
