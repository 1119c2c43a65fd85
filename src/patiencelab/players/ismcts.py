"""The fair player that searches what it knows: :class:`TreeSearch`, information-set Monte Carlo tree search
(Cowling, Powley and Whitehouse 2012).

At a decision it grows one tree over the player's information sets: each iteration deals the unseen cards at
random into the unseen places (a *determinization*, consistent with the view:
:meth:`~patiencelab.core.view.PlayerView.sample`), walks down the tree following only the moves legal in that deal,
chosen by UCB over the moves' *availability* counts (how often a move was legal when its node was visited, rather
than the node's visits), adds one node, and scores the deal there: by the solver within a small state budget
(``leaf="solve"``: won 1, lost 0, undecided ``unknown``) or by a fast fair rollout (``leaf="rollout"``: the hint
order played out, scored by the cards sent home). A move that shows a card (a face-down card turned up, an unseen
stock card drawn) leads to one node for each card it may show, so every node is one thing the player may see and
the tree's upper levels judge a move by what a fair player does after it, not by what a solver that knows the
deal's hidden cards does.

With ``deals=K`` the decision draws K deals once and plays rounds on them (round i on deal i mod K), each round
trying every root move once, so the root's moves are judged on the same deals, and the tree below them by UCB.

The move played is, among the moves whose mean score is within ``margin`` of the best (of those visited often
enough; a smaller lead is the deals' noise), the first of the hint order, or with draw 1 the one whose leaves the
solver won with the least search (``tiebreak``). Everything is counted in iterations and solver
positions, never in seconds, and the random deals come from a generator seeded by ``seed`` and the view's move
number: the same view gets the same move on every machine, and two games whose hidden cards differ only in order
get the same moves until a card that differs shows.

Where the decision needs no search it plays as :class:`~patiencelab.players.nopeek.NoPeek` does (the same
steps, through a NoPeek it keeps): the look through the stock with draw 3, a winning line where every card is
known or every order of the few unseen cards is won, one legal move, a card that goes home safely, and no move
back to a position it decided in while another goes on.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from patiencelab.core.game import Klondike
from patiencelab.core.limits import (
    check_choice,
    check_instance,
    check_number,
    check_seed,
    check_states,
    check_switch,
    check_whole,
)
from patiencelab.core.moves import Move
from patiencelab.core.view import PlayerView
from patiencelab.players.nopeek import NoPeek, shortcut
from patiencelab.players.ranking import candidates
from patiencelab.players.sampling import legal_moves
from patiencelab.players.scouting import scouting_move
from patiencelab.solver.search import solve

if TYPE_CHECKING:
    pass

__all__ = ["DEFAULT_ITERATIONS", "DEFAULT_LEAF_STATES", "LEAVES", "TreeDecision", "TreeSearch"]

#: Iterations of one decision's search (each a deal and a leaf scored), unless told otherwise.
DEFAULT_ITERATIONS = 96
#: Positions the solver may search at a leaf, unless told otherwise.
DEFAULT_LEAF_STATES = 500
#: How a leaf is scored: by the solver on the iteration's deal, or by a rollout of the hint order.
LEAVES = ("solve", "rollout")
#: How root moves within ``margin`` of the best are told apart: the hint order, or the least search at the leaves.
_TIEBREAKS = ("order", "effort")
#: The most moves a rollout plays.
_ROLLOUT_MOVES = 200


@dataclass(frozen=True, slots=True)
class TreeDecision:
    """What :meth:`TreeSearch.choose` chose and why: ``move``; when the tree decided, the iterations run, the
    solver positions searched at the leaves, and each root move's visits and mean score (hint order); when
    a shortcut decided (``searched=False``), none.
    """

    move: Move
    searched: bool = False
    iterations: int = 0
    states: int = 0
    visits: tuple[tuple[Move, int, float], ...] = field(default=(), compare=False)


class _Edge:
    """A move out of a node: its visits, total score and availability, and the node after it for each thing it
    may show."""

    __slots__ = ("available", "children", "score", "visits", "work")

    def __init__(self) -> None:
        self.visits = 0
        self.score = 0.0
        self.work = 0.0
        self.available = 0
        self.children: dict[object, _Node] = {}


class _Node:
    """An information set: the moves the player may make there (hint order), each with its edge."""

    __slots__ = ("edges",)

    def __init__(self, moves: list[Move]) -> None:
        self.edges: dict[Move, _Edge] = {move: _Edge() for move in moves}


def _moves_in(game: Klondike) -> list[Move]:
    """The moves the tree follows in ``game``: the hint order's (no move straight back, no shuffle), or every legal
    move where it has none."""
    return candidates(game) or game.legal_moves()


def _shown(game: Klondike) -> object:
    """What the move just played in ``game`` showed: the card turned up, the cards drawn, or None."""
    played = game.last_played()
    if played is None:
        return None
    if played.turned is not None:
        return played.turned.index
    if played.move.is_draw:
        return tuple(card.index for card in played.cards)
    return None


class TreeSearch:
    """The information-set search player (see the module): ``iterations`` deals a decision, each scored at its leaf
    by the solver within ``leaf_states`` positions (``leaf="solve"``; a deal undecided there scores ``unknown``) or
    by a rollout (``leaf="rollout"``), moves chosen by UCB with exploration ``c``, at most ``decision_states``
    solver positions a decision; the move played is, within ``margin`` of the best mean, the hint order's first or
    the least searched (``tiebreak``).
    With ``deals`` (0 by default) a decision draws that many deals once and goes round them, every root move tried
    in turn on each round's deal, so the root's moves are compared on the same deals (common random numbers).
    ``scout`` and ``known_states`` are :class:`~patiencelab.players.nopeek.NoPeek`'s (the look through the
    stock, by default with draw 3; the line played where every card is known). Seeded by ``seed``: the answer
    depends on the seed, the view and the budgets only, never on the clock.
    """

    def __init__(
        self,
        *,
        iterations: int = DEFAULT_ITERATIONS,
        leaf_states: int | None = DEFAULT_LEAF_STATES,
        leaf: str = "solve",
        c: float = 0.7,
        unknown: float = 0.5,
        margin: float = 0.05,
        decision_states: int | None = None,
        deals: int = 0,
        tiebreak: str | None = None,
        seed: int = 0,
        scout: bool | None = None,
        known_states: int | None = 400_000,
    ) -> None:
        self.iterations = check_whole(iterations, "iterations", low=1)
        self.leaf_states = check_states(leaf_states, "leaf_states")
        self.leaf = check_choice(leaf, "leaf", LEAVES)
        self.c = check_number(c, "c")
        self.unknown = check_number(unknown, "unknown")
        self.margin = check_number(margin, "margin")
        self.decision_states = check_states(decision_states, "decision_states")
        #: Deals a decision draws once and reuses (0: a new deal every iteration, the root's moves chosen by UCB);
        #: with some, the root's moves are tried in turn on each deal, so they are compared on the same deals.
        self.deals = check_whole(deals, "deals", low=0)
        #: How root moves within ``margin`` of the best mean are told apart: ``order``, the hint order's first;
        #: ``effort``, the one whose leaves the solver won with the least search (a deal not won counts the whole
        #: ``leaf_states``), as ``NoPeek`` breaks its ties with draw 1; None (the default): ``effort`` with draw 1,
        #: where it won more tuning deals, ``order`` otherwise.
        self.tiebreak = None if tiebreak is None else check_choice(tiebreak, "tiebreak", _TIEBREAKS)
        self.seed = check_seed(seed)
        self.scout = None if scout is None else check_switch(scout, "scout")
        #: The NoPeek whose shortcuts this player takes (its known lines, its memory of where it decided).
        self._steps = NoPeek(seed=self.seed, scout=self.scout, known_states=known_states)
        #: The decision behind the move :meth:`choose` gave last (None after a move of the look through the stock).
        self.last_decision: TreeDecision | None = None

    def choose(self, view: PlayerView) -> Move:
        """The move to play in the position ``view`` shows."""
        check_instance(view, "view", PlayerView)
        self.last_decision = self._choose(view)
        if self.last_decision is None:
            return self._scout_move(view)
        return self.last_decision.move

    def _scout_move(self, view: PlayerView) -> Move:
        move = scouting_move(view, legal_moves(view))
        assert move is not None
        return move

    def _choose(self, view: PlayerView) -> TreeDecision | None:
        looks = self.scout if self.scout is not None else view.rules.draw > 1
        if looks and scouting_move(view, legal_moves(view)) is not None:
            return None
        move, moves = shortcut(self._steps, view)
        return TreeDecision(move) if move is not None else self._search(view, moves)

    def _search(self, view: PlayerView, moves: list[Move]) -> TreeDecision:
        """The tree's choice among ``moves`` (legal in the view, hint order first)."""
        rng = random.Random(f"patiencelab-ismcts:{self.seed}:{view.moves}")
        root = _Node(moves)
        unseen = view.unseen_cards()
        drawn: list[Klondike] = []

        def deal(i: int) -> Klondike:
            """Iteration (or round) ``i``'s deal: a new one, or with ``deals`` the one drawn for ``i mod deals``."""
            if self.deals and i >= self.deals:
                return drawn[i % self.deals].copy()
            cards = list(unseen)  # view.sample's deal, the unseen cards listed once a decision
            rng.shuffle(cards)
            game = Klondike.from_position(view.fill(cards), rules=view.rules)
            if self.deals:
                drawn.append(game)
                return game.copy()
            return game

        states = done = 0
        if self.deals:  # rounds: every root move once on the round's deal
            for i in range(max(1, self.iterations // len(moves))):
                game = deal(i)
                for move in moves:
                    states += self._iterate(root, game.copy(), move)
                    done += 1
                if self.decision_states is not None and states >= self.decision_states:
                    break
        else:
            for i in range(self.iterations):
                states += self._iterate(root, deal(i))
                done += 1
                if self.decision_states is not None and states >= self.decision_states:
                    break
        visits = tuple((m, root.edges[m].visits, root.edges[m].score / max(1, root.edges[m].visits)) for m in moves)
        work = {m: root.edges[m].work / max(1, root.edges[m].visits) for m in moves}
        effort = (self.tiebreak or ("effort" if view.rules.draw == 1 else "order")) == "effort"
        return TreeDecision(self._pick(visits, work if effort else None), True, done, states, visits)

    def _pick(self, visits: tuple[tuple[Move, int, float], ...], work: dict[Move, float] | None = None) -> Move:
        """The move played: the first in the hint order whose mean score is within ``margin`` of the best mean
        among the moves visited at least a quarter as often as the most visited (a lead smaller than the noise of
        the deals is no reason to leave the hint order: after a move that changes nothing for good, every deal
        scores as before, and the most visited move wanders); given each move's mean search at its leaves
        (``work``, the ``effort`` tie-break), of those the one whose leaves took the least (the first in the hint
        order among equals)."""
        most = max(n for _, n, _ in visits)
        best = max(mean for _, n, mean in visits if 4 * n >= most)
        near = [m for m, n, mean in visits if 4 * n >= most and mean >= best - self.margin]
        return near[0] if work is None else min(near, key=work.__getitem__)

    def _iterate(self, root: _Node, game: Klondike, first: Move | None = None) -> int:
        """One iteration on the deal ``game`` (from the root by ``first`` when given, a move legal in every deal
        of the view): down the tree, one node added, the leaf scored, the scores added along the way; the solver
        positions it searched."""
        path: list[_Edge] = []
        node = root
        while True:
            if game.is_won:
                value, states, work = 1.0, 0, 0.0
                break
            edge, move = self._select(node, game) if first is None else (root.edges[first], first)
            if first is not None and edge is not None:
                edge.available += 1
                first = None
            if edge is None or move is None:  # no move the tree follows is legal: the deal is stuck
                value, states, work = 0.0, 0, float(self.leaf_states or 0)
                break
            game.play(move)
            path.append(edge)
            fresh = edge.visits == 0
            shown = _shown(game)
            child = edge.children.get(shown)
            if child is None:
                child = edge.children[shown] = _Node(_moves_in(game) if not game.is_won else [])
                fresh = True
            if fresh:
                value, states = self._score(game)
                work = float(states if value >= 1 or self.leaf_states is None else self.leaf_states)
                break
            node = child
        for edge in path:
            edge.visits += 1
            edge.score += value
            edge.work += work
        return states

    def _select(self, node: _Node, game: Klondike) -> tuple[_Edge | None, Move | None]:
        """The move to follow at ``node`` in the deal ``game``: an untried legal one first (hint order), else the
        best by UCB over availability; each legal move's availability counted."""
        legal = set(game.legal_moves())
        best: tuple[_Edge | None, Move | None] = (None, None)
        best_value = -math.inf
        for move, edge in node.edges.items():
            if move not in legal:
                continue
            edge.available += 1
            if edge.visits == 0:
                if best_value < math.inf:
                    best, best_value = (edge, move), math.inf
                continue
            value = edge.score / edge.visits + self.c * math.sqrt(math.log(edge.available) / edge.visits)
            if value > best_value:
                best, best_value = (edge, move), value
        return best

    def _score(self, game: Klondike) -> tuple[float, int]:
        """The leaf's score in the deal ``game`` and the solver positions it took."""
        if game.is_won:
            return 1.0, 0
        if self.leaf == "rollout":
            return _rollout(game), 0
        found = solve(game.snapshot(), game.rules, seconds=math.inf, max_states=self.leaf_states)
        value = 1.0 if found.outcome == "solved" else 0.0 if found.outcome == "impossible" else self.unknown
        return value, found.states

    def __repr__(self) -> str:
        return (
            f"TreeSearch(iterations={self.iterations}, leaf_states={self.leaf_states}, leaf={self.leaf!r}, "
            f"seed={self.seed})"
        )


def _rollout(game: Klondike) -> float:
    """The hint order played out on the deal (each move its first, never back to a position met in the rollout):
    1 for a win, else the share of the cards sent home, halved."""
    seen: set[str] = set()
    for _ in range(_ROLLOUT_MOVES):
        if game.is_won:
            return 1.0
        moves = _moves_in(game)
        move = next((m for m in moves if not (m.is_draw or m.is_recycle)), None)
        key = repr(game.snapshot())
        if move is None or key in seen:
            move = next((m for m in moves if m.is_draw or m.is_recycle), None)
        if move is None:
            break
        seen.add(key)
        game.play(move)
    return 1.0 if game.is_won else sum(game.snapshot().foundations.values()) / 104
