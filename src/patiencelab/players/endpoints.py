"""The fair player's decision over where a move leads, not over single moves.

A move that only rearranges what the player sees (a run moved onto another face-up card, a card brought back from
a foundation, a draw through a stock whose every card is known when passes are unlimited) can be taken back: it
commits to nothing, so judging it on sampled deals says little (every deal won before it is still won after it).
What commits is an *irreversible* move: a card turned face up, a card played from the waste, a draw that shows an
unseen stock card, a card sent home that cannot come back, a recycle that spends a pass. So the player lists every
position it can reach through reversible moves (:func:`reach`, a breadth-first walk over the visible cards only,
each position once), and each irreversible move legal there is a candidate, an *endpoint*: the moves that lead to
it and the move itself. Each endpoint is then judged on the same sampled deals (:func:`judge`): in how many of them
the solver finds a win after it within a small budget (deals whose win takes more search count as not won, as in
the public lonelybot's decision); the hint order's first endpoint is kept unless another one wins clearly more.

It is what :class:`~patiencelab.players.NoPeek` does with ``reach=True``, an experiment off by default: on the
tuning deals it did not win significantly more than the move-by-move judge, at about five times the CPU, and
choosing outright the endpoint that wins the most sampled deals won half as many games (a judge that knows every
card of a sampled deal prefers the moves that keep its options open over the card a player needs turned up; see
docs/players.md).

The walk and the judge read the player's view only (the walk plays on a stand-in game whose hidden places hold
the unseen cards in deck order; it never plays a move that would turn one of them up), so two games whose hidden
cards differ only in order get the same endpoints, the same deals and the same decision.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Hashable
from dataclasses import dataclass

from patiencelab.core.game import Klondike
from patiencelab.core.moves import Move
from patiencelab.core.position import Position
from patiencelab.core.view import PlayerView
from patiencelab.players.ranking import rank, shuffles
from patiencelab.players.sampling import Chances, solve_deal, tally

__all__ = ["Endpoint", "Judged", "judge", "reach", "reversible"]


@dataclass(frozen=True, slots=True)
class Endpoint:
    """A candidate of the decision: ``path``, the reversible moves that lead to a position and, last, the
    irreversible move made there; ``order``, its place in the hint order of the path's first and last moves
    (smaller is preferred); ``won`` when the path wins the game outright (every card home by reversible moves).
    """

    path: tuple[Move, ...]
    order: tuple[int, ...]
    won: bool = False


@dataclass(frozen=True, slots=True)
class Judged:
    """What :func:`judge` found: the ``best`` endpoint, the deals it was judged on (``samples``), how many of them
    were won after it (``wins``), the positions searched in all (``states``) in ``solves`` solver calls, and the
    ``chances`` of the position judged (those deals before any move).
    """

    best: Endpoint
    wins: int
    samples: int
    states: int
    solves: int
    chances: Chances


def reversible(game: Klondike, move: Move, unseen_stock: int) -> bool:
    """True when ``move``, legal in ``game`` (a stand-in whose stock holds ``unseen_stock`` cards the player has
    not seen, at its end), can be taken back by a legal move, so it turns up nothing and spends nothing.
    """
    rules = game.rules
    source, target = move.source, move.target
    if move.is_draw:
        return not unseen_stock and rules.max_passes is None
    if move.is_recycle:
        return rules.max_passes is None
    if source is None or target is None or source == "w":
        return False
    if source[0] == "f":
        return True  # the card is the column's top: it may go home again
    if game.uncovers(move) is not None:
        return False
    column = game.tableau[int(source[1:]) - 1]
    moving = game.moving_cards(move)
    if target[0] == "f" and not rules.foundation_to_tableau:
        return False
    if len(moving) < len(column.up):
        return True  # the card under the run stays face up and takes it back
    return rules.empty_column == "any" or moving[0].rank == 13


def _key(game: Klondike) -> Hashable:
    """The columns of a stand-in (its hidden cards never move along a walk) taken as a set, and the foundations.
    A card is the deck's own object wherever it lies, so its identity names it (a card that was not would only
    make two equal positions count twice).
    """
    columns = tuple(sorted((len(col.down), tuple(map(id, col.up))) for col in game.tableau))
    return (columns, tuple(game.foundations.values()))


def _stock_turns(game: Klondike, unseen: int) -> list[tuple[tuple[Move, ...], Klondike]]:
    """The positions the stock can be turned to from ``game`` by draws and recycles that show no unseen card and
    spend no pass, each with the draws that get there (the fewest): every waste card within reach, in turn.
    """
    turns: list[tuple[tuple[Move, ...], Klondike]] = [((), game)]
    if unseen or game.rules.max_passes is not None:
        return turns
    seen = {len(game.waste)}
    trial = game
    path: tuple[Move, ...] = ()
    while True:
        step = next((m for m in trial.legal_moves() if m.is_draw or m.is_recycle), None)
        if step is None:
            return turns
        trial = trial.copy()
        trial.play(step)
        path = (*path, step)
        if step.is_draw:
            if len(trial.waste) in seen:
                return turns
            seen.add(len(trial.waste))
        if trial.waste:
            turns.append((path, trial))


def reach(view: PlayerView, game: Klondike, *, max_nodes: int = 60) -> list[Endpoint]:
    """The endpoints of the decision in ``view`` (whose stand-in game is ``game``): every irreversible move legal
    in a position reachable through reversible moves of the columns (cards from a foundation back to a column and
    moves that only shuffle left out), each position visited once (at most ``max_nodes`` of them, nearest first);
    and from each, every card the stock can be turned to without showing an unseen card or spending a pass,
    played where it may go. Each endpoint counts once (the same card turned up, or the same waste card played to
    the same place, after the same column moves: the first found, with the fewest moves). A won position reached
    by reversible moves alone is the only endpoint.
    """
    unseen = view.unseen_stock
    start = game.copy()
    seen = {_key(start)}
    kept: set[Hashable] = set()
    queue: list[tuple[Klondike, tuple[Move, ...], tuple[int, int]]] = [(start, (), (0, 0))]
    found: list[Endpoint] = []
    head = 0
    while head < len(queue):
        node, path, first = queue[head]
        head += 1
        for move in node.legal_moves():
            if move.is_draw or move.is_recycle or move.source == "w" or move.source is None:
                continue
            if move.source[0] == "f" or shuffles(node, move):
                continue
            order = rank(node, move)
            lead = first if path else order
            trial = node.copy()
            trial.play(move)
            if reversible(node, move, unseen):
                if trial.is_won:
                    return [Endpoint((*path, move), (*lead, 0), won=True)]
                key = _key(trial)
                if key not in seen and len(seen) < max_nodes:
                    seen.add(key)
                    queue.append((trial, (*path, move), lead))
                continue
            turned_up = ("t", _key(trial))
            if turned_up not in kept:
                kept.add(turned_up)
                found.append(Endpoint((*path, move), (*lead, *order, len(path))))
        for draws, turned in _stock_turns(node, unseen):
            for move in turned.legal_moves():
                turn = draws == () and (move.is_draw or move.is_recycle) and not reversible(turned, move, unseen)
                if move.source != "w" and not turn:
                    continue  # a draw that shows an unseen card, or a recycle that spends a pass, is an endpoint
                order = rank(turned, move)
                lead = first if path else rank(node, draws[0]) if draws else order
                trial = turned.copy()
                trial.play(move)
                after: Hashable = ("w", _key(trial), str(move.target))
                if move.is_draw or move.is_recycle:
                    after = ("d", str(move))  # drawing now or after moves of the columns: the same knowledge
                if after not in kept:
                    kept.add(after)
                    found.append(Endpoint((*path, *draws, move), (*lead, *order, len(path) + len(draws))))
    found.sort(key=lambda e: e.order)
    return found


def judge(
    view: PlayerView,
    endpoints: list[Endpoint],
    deals: list[Position],
    *,
    max_states: int | None,
    batch: int,
    budget: int | None,
    margin: float = 0.0,
    exact: bool = False,
) -> Judged:
    """The endpoint of ``endpoints`` (in the hint order) to choose, judged on the same ``deals``: after how many
    of them a win is found within ``max_states`` positions. The deals are judged ``batch`` at a time; after each
    batch the endpoints too far behind the leader to catch up, likely, are dropped (behind by more than the spread
    of chance over the deals so far: :func:`_spread`). A deal the solver proves lost before any move is lost after
    every endpoint and is not solved again. The choice is the first endpoint in the hint order among those behind
    the leader by no more than ``margin`` times the spread (0: the leader, ties by the hint order). At most
    ``budget`` positions are searched in all (then the choice among the deals judged so far). The chances say how
    the deals judged went before any move (``exact`` when ``deals`` are every order of the unseen cards).
    """
    rules = view.rules
    states = solves = 0
    wins = dict.fromkeys(endpoints, 0)
    before: Counter[str] = Counter()
    alive = list(endpoints)
    done = 0

    def outcome(position: Position) -> str:
        nonlocal states, solves
        found = solve_deal(position, rules, max_states, math.inf)
        states += found.states
        solves += 1
        return found.outcome

    def won_after(deal: Position, endpoint: Endpoint) -> bool:
        trial = Klondike.from_position(deal, rules=rules)
        for move in endpoint.path:
            trial.play(move)
        return trial.is_won or outcome(trial.snapshot()) == "solved"

    while done < len(deals) and len(alive) > 1:
        for deal in deals[done : done + batch]:
            if _over(budget, states):
                break
            done += 1
            here = outcome(deal)
            before[here] += 1
            if here == "impossible":
                continue  # lost before any move: lost after every endpoint
            for endpoint in alive:
                if won_after(deal, endpoint):
                    wins[endpoint] += 1
        if _over(budget, states):
            break
        leader = max(wins[e] for e in alive)
        alive = [e for e in alive if leader - wins[e] <= _spread(done)]
    leader = max(wins[e] for e in alive)
    best = min((e for e in alive if leader - wins[e] <= margin * _spread(done)), key=lambda e: e.order)
    chances = tally(before["solved"], before["impossible"], before["unknown"], exact)
    return Judged(best, wins[best], done, states, solves, chances)


def _spread(deals: int) -> float:
    """How far behind the leader, in deals won of ``deals``, an endpoint may be by chance alone (about two
    standard deviations of a fair coin's count, and a deal or two more)."""
    return 2.0 + math.sqrt(deals)


def _over(budget: int | None, states: int) -> bool:
    return budget is not None and states >= budget
