"""The fair strong player, :class:`NoPeek`: sampled deals of the unseen cards, each solved, every candidate move
judged on the same deals, and the steps it takes where a decision needs no judging (:func:`shortcut`, which
:class:`~patiencelab.players.ismcts.TreeSearch` shares).
"""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter
from collections.abc import Hashable
from dataclasses import dataclass, field, replace

from patiencelab.core.cards import Card
from patiencelab.core.errors import PatienceError
from patiencelab.core.game import Klondike
from patiencelab.core.limits import check_choice, check_instance, check_seed, check_states, check_switch, check_whole
from patiencelab.core.moves import Move
from patiencelab.core.position import Position
from patiencelab.core.rules import Rules
from patiencelab.core.view import PlayerView
from patiencelab.players.ranking import ranked_moves
from patiencelab.players.sampling import (
    DEFAULT_MAX_STATES,
    DEFAULT_SAMPLES,
    Chances,
    after,
    moves_to_choose,
    stand_in,
    tally,
)
from patiencelab.players.sampling import deals as _deals
from patiencelab.players.sampling import solve_deal as _solve
from patiencelab.players.scouting import TIEBREAKS, scouting_move
from patiencelab.solver.search import SLICE, Solution

__all__ = ["DEFAULT_DECISION_STATES", "Decision", "NoPeek"]

#: Positions one decision of :class:`NoPeek` may search in all (every deal and every move judged), unless told
#: otherwise.
DEFAULT_DECISION_STATES = 400_000
#: A lead, in deals kept winnable, below which a decision draws more deals while it may.
CLOSE = 2
#: A close decision draws up to this many times ``samples`` deals in all.
MORE_SAMPLES = 3
#: True to follow the wins found at an earlier decision while they hold (False: judge every decision).
FOLLOW = True
#: True to follow those wins also through moves that commit (a card turned up, a waste card played, an unseen card
#: drawn). They knew their deals' hidden cards (strategy fusion), so such a move is judged anew.
FOLLOW_TURNS = False
#: True to play, where every order of the few unseen cards is won, a winning line up to the next card shown;
#: False judges such positions move by move, where the ties can go round in circles.
FEW_LINES = True


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


class NoPeek:
    """The fair strong player: it sees what a player sees, never a face-down card.

    At a decision it deals the unseen cards at random into the unseen places, solves each deal once, and plays the
    candidate move after which the most of the same deals stay winnable (the solver judges each; a close decision
    draws more deals). It solves nothing where the decision is easy: one legal move, a card that goes home safely,
    the wins found at the decision before still followed. Where every card is known, or every order of a few
    unseen cards is won, it plays a winning line. It never goes back to a position it decided in while another
    move goes on. The move depends on the view, the seed and the budgets only, never on the clock, so two games
    whose face-down cards differ only in order get the same moves.

    ===================  ===========  ==========================================================================
    knob                 default      what it does
    ===================  ===========  ==========================================================================
    ``samples``          16           deals drawn a decision (every order of the unseen cards when no more)
    ``max_states``       2,000        positions the solver may search in each deal (None: no limit)
    ``seed``             0            seeds the deals
    ``decision_states``  400,000      positions one decision may search in all (None: no limit)
    ``known_states``     400,000      positions for a winning line where every card, or every order, is known
    ``tiebreak``         None         how moves that keep as many deals are told apart: ``"order"`` (hint order),
                                      ``"effort"`` (least search after it), ``"votes"`` (most wins begin with
                                      it), ``"sight"`` (a card turned up soonest); None: ``"effort"`` with
                                      draw 1, ``"order"`` with draw 3
    ``scout``            None         True: :meth:`choose` first goes once through the stock when passes are
                                      unlimited (:mod:`~patiencelab.players.scouting`); None: with draw 3 only;
                                      False: never
    ===================  ===========  ==========================================================================
    """

    def __init__(
        self,
        *,
        samples: int = DEFAULT_SAMPLES,
        max_states: int | None = DEFAULT_MAX_STATES,
        seed: int = 0,
        decision_states: int | None = DEFAULT_DECISION_STATES,
        known_states: int | None = DEFAULT_DECISION_STATES,
        tiebreak: str | None = None,
        scout: bool | None = None,
    ) -> None:
        self.samples = check_whole(samples, "samples", low=1)
        self.max_states = check_states(max_states)
        self.seed = check_seed(seed)
        self.decision_states = check_states(decision_states, "decision_states")
        self.known_states = check_states(known_states, "known_states")
        self.tiebreak = None if tiebreak is None else check_choice(tiebreak, "tiebreak", TIEBREAKS)
        self.scout = None if scout is None else check_switch(scout, "scout")
        #: The most deals a close decision may draw.
        self.max_samples = MORE_SAMPLES * self.samples
        self.seconds = math.inf
        #: The decision behind the move :meth:`choose` or :meth:`decide` gave last (None after a move of the look
        #: through the stock, or before any).
        self.last_decision: Decision | None = None
        #: The winning line found where every card is known: the moves played when it was found, then the rest.
        self._known: Line = ((), ())
        #: The moves up to the next card shown that win every order of the few unseen cards (see _few_line).
        self._few: Line = ((), ())
        #: Where a search with every card known last failed: the moves played then and the cards home (-1: the
        #: position was proved lost), or None.
        self._known_failed: tuple[tuple[Move, ...], int] | None = None
        #: Where the orders of the unseen cards were last judged and one was not won: the moves played then, the
        #: unseen cards and the cards home (-1: an order was proved lost), or None.
        self._few_failed: tuple[tuple[Move, ...], int, int] | None = None
        #: The positions decided in so far, each with the moves that led to it (see :func:`_place`).
        self._path: list[tuple[tuple[Move, ...], Hashable]] = []
        #: The sampled deals won after the move just played: the moves played to the next decision, the deal
        #: after them and the rest of its winning line.
        self._plans: list[tuple[tuple[Move, ...], Position, tuple[Move, ...]]] = []

    def tiebreak_for(self, rules: Rules) -> str:
        """The tie-break :meth:`decide` uses under ``rules``: ``tiebreak``, or by default ``effort`` with draw 1 and
        ``order`` otherwise."""
        check_instance(rules, "rules", Rules)
        if self.tiebreak is not None:
            return self.tiebreak
        return "effort" if rules.draw == 1 else "order"

    def choose(self, view: PlayerView) -> Move:
        """The move of :meth:`decide`, after a first pass through the stock that only looks (with ``scout``)."""
        check_instance(view, "view", PlayerView)
        looks = self.scout if self.scout is not None else view.rules.draw > 1
        scout = scouting_move(view, moves_to_choose(view)) if looks else None
        if scout is not None:
            self.last_decision = None
            return scout
        return self.decide(view).move

    def decide(self, view: PlayerView, *, confirm: bool = False) -> Decision:
        """The move to play and the samples' verdicts. With ``confirm`` (for a hint that says how many deals its
        move keeps winnable) no shortcut is taken and ``kept`` counts every sampled deal won after the move;
        without, a move chosen without solving has ``samples == 0`` (or counts the plans it follows).
        """
        check_instance(view, "view", PlayerView)
        check_switch(confirm, "confirm")
        self.last_decision = self._decide(view, confirm)
        return self.last_decision

    def _decide(self, view: PlayerView, confirm: bool) -> Decision:
        game = stand_in(view)
        legal = moves_to_choose(view)
        visited = self._visit(view)
        plans = [] if confirm else self._plans_for(view)
        self._plans = []
        if not confirm:
            known = self._known_line(view, legal)
            if known is None:
                known = self._few_line(view, legal)
            if known is not None:
                return known
        if len(legal) == 1 and not confirm:  # nothing to choose: no need to solve
            self._keep_plans(view, legal[0], [(d, line) for d, line in plans if line], game)
            return Decision(legal[0], 0, 0, tally(0, 0, 0, False))
        back = self._returns(view, game, legal, visited)
        if not confirm:
            home = _safe_home(view, game, legal)
            if home is not None and home not in back:
                self._keep_plans(view, home, [(d, ln) for d, ln in plans if _parse_first(game, ln) == home], game)
                return Decision(home, 0, 0, tally(0, 0, 0, False))
            followed = self._follow(view, game, plans, back) if FOLLOW else None
            if followed is not None:
                return followed
        ordered = ranked_moves(game, view.last_move) or list(legal)
        candidates = (
            [m for m in ordered if m not in back]
            or [m for m in legal if m not in back]
            or [m for m in legal if m.is_draw or m.is_recycle]  # round in circles: at least one play_out spots
            or ordered
        )
        if len(candidates) == 1 and not confirm and not (_from_foundation(candidates[0]) and _stay(legal, back)):
            return Decision(candidates[0], 0, 0, tally(0, 0, 0, False))
        return self._judge(view, game, candidates, back, confirm)

    def _known_line(self, view: PlayerView, legal: list[Move]) -> Decision | None:
        """Where every card is known (no unseen card, or one, whose place is then known too), the next move of a
        winning line found within ``known_states`` positions (solved once, then followed); None where cards are
        unseen or no win was found (a position proved lost is not solved again, nor one left undecided until a
        card has gone home since).
        """
        game = stand_in(view)
        move, self._known = _next_on(self._known, view, game, legal)
        if move is not None:
            return Decision(move, 1, 1, tally(1, 0, 0, True), followed=True)
        if len(view.unseen_cards()) > 1:
            return None
        home, failed = sum(view.foundations), self._known_failed
        if failed is not None and view.history[: len(failed[0])] == failed[0] and failed[1] in (-1, home):
            return None
        found = _solve(view.fill(view.unseen_cards()), view.rules, self.known_states, self.seconds)
        move = _parse_first(game, tuple(found.moves)) if found.outcome == "solved" else None
        if move is None or move not in legal:
            self._known_failed = (view.history, -1 if found.outcome == "impossible" else home)
            return None
        self._known_failed = None
        self._known = ((*view.history, move), tuple(found.moves[1:]))
        return Decision(move, 1, 1, tally(1, 0, 0, True), solves=1)

    def _few_line(self, view: PlayerView, legal: list[Move]) -> Decision | None:
        """Where every order of the unseen cards can be judged and each is won: the moves of a winning line found
        for one order up to the first that shows an unseen card, where every order is still won after them (each
        solved again), played to their end; None where an order is not won within its share of ``known_states``
        positions, or where no such line is found.

        Until a card is shown the orders look alike, so these moves are the same in each, and the player plays
        them knowing only what it sees; the card shown then leaves fewer orders (judged move by move instead, every
        move keeps every order won, and the ties can go round in circles). Each order is solved
        within ``known_states`` / (2 x orders) positions, never less than one slice of the solver's
        (:data:`~patiencelab.solver.search.SLICE`), at the start and after each line tried; at most three lines
        are tried, and no search starts that could take the decision past twice ``known_states`` positions. So it
        covers any number of unseen cards whose orders all fit that budget, a slice each four times over (five
        cards, 120 orders, at the default budget), and searches at most twice ``known_states`` positions a
        decision, most often far fewer (such positions are won within some tens of positions). Where an order
        was proved lost it is not tried again until a card is shown, and where one was left undecided, until a
        card has gone home or been shown.
        """
        if not FEW_LINES:
            return None
        game = stand_in(view)
        move, self._few = _next_on(self._few, view, game, legal)
        if move is not None:
            return Decision(move, 0, 0, tally(0, 0, 0, False), followed=True)
        known = self.known_states
        cards = view.unseen_cards()
        if known is None or len(cards) < 2 or math.factorial(len(cards)) * 4 * SLICE > 2 * known:
            return None
        home, failed = sum(view.foundations), self._few_failed
        unchanged = ((len(cards), -1), (len(cards), home))  # no card shown since a loss, nor gone home since
        if failed is not None and view.history[: len(failed[0])] == failed[0] and failed[1:] in unchanged:
            return None
        deals = [view.fill(order) for order in itertools.permutations(cards)]
        budget = _Budget(2 * known, max(SLICE, known // (2 * len(deals))))
        rules = view.rules
        roots = []
        for deal in deals:
            root = budget.solve(deal, rules, self.seconds)
            if root is None or root.outcome != "solved":
                lost = root is not None and root.outcome == "impossible"
                self._few_failed = (view.history, len(cards), -1 if lost else home)
                return None
            roots.append(root)
        self._few_failed = None
        tried = 0
        for root in roots:
            shown = _until_shown(view, tuple(root.moves))
            move = _parse_first(game, shown)
            if move is None or move not in legal:
                continue
            if tried == 3:
                break
            tried += 1
            for deal in deals:
                found = budget.solve(after(deal, rules, shown), rules, self.seconds)
                if found is None:
                    return None
                if found.outcome != "solved":
                    break
            else:  # every order is still won after these moves
                self._few = ((*view.history, move), shown[1:])
                n = len(deals)
                return Decision(move, n, n, tally(n, 0, 0, True), solves=budget.solves)
        return None

    def _judge(
        self, view: PlayerView, game: Klondike, candidates: list[Move], back: set[Move], confirm: bool
    ) -> Decision:
        """Judge each of ``candidates`` on the same sampled deals (see the class's documentation)."""
        rules, max_states, budget = view.rules, self.max_states, self.decision_states
        tiebreak = self.tiebreak_for(rules)
        effort = tiebreak == "effort"
        sight = tiebreak == "sight"
        # a score that grows as the deals are judged, so a move tied on deals kept stays in the running to the end
        growing = effort or sight
        deals, exact = _deals(view, self.samples, self.seed)
        if exact and max_states is not None and self.known_states is not None:  # few deals: search each deeper
            max_states = max(max_states, self.known_states // (len(deals) * (len(candidates) + 1)))
        rng = random.Random(f"patiencelab:more:{self.seed}:{view.moves}")
        spent = solves = 0
        roots: list[Solution] = []
        firsts: list[Move | None] = []
        won: Counter[Move] = Counter()
        #: the tie-break's score of each move, the lower the better (:data:`~patiencelab.players.scouting.TIEBREAKS`)
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
            position = after(deal, rules, (move,))
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
                if first is not None and tiebreak == "votes":
                    work[first] -= 1
            order = [j for j in range(judged, len(roots)) if roots[j].outcome == "solved"]
            judged = len(roots)
            for pos, j in enumerate(order):
                for move in alive:
                    if move == firsts[j] and not effort:
                        won[move] += 1
                        lines.setdefault(move, []).append((j, tuple(roots[j].moves[1:]), None))
                        if sight:
                            work[move] += _moves_to_sight(deals[j], rules, roots[j].moves)
                    elif afford():
                        position, found = solve_after(deals[j], move)
                        if found.outcome == "solved":
                            won[move] += 1
                            lines.setdefault(move, []).append((j, tuple(found.moves), position))
                            if sight:
                                work[move] += _moves_to_sight(deals[j], rules, (move, *found.moves))
                        if effort:
                            work[move] += found.states if found.outcome == "solved" else max_states or found.states
                leader = min(alive, key=rank)
                left = len(order) - pos - 1
                alive = [
                    m
                    for m in alive
                    if m == leader
                    or won[m] + left > won[leader]
                    or (won[m] + left == won[leader] and (growing or rank(m)[1:] < rank(leader)[1:]))
                ]
            leader = min(alive, key=rank)
            second = max((won[m] for m in alive if m != leader), default=None)
            if exact or second is None or won[leader] - second >= CLOSE:
                break
            if len(deals) >= self.max_samples or not afford():
                break
            deals += [view.sample(rng) for _ in range(min(self.samples, self.max_samples - len(deals)))]
        best = min(alive, key=rank)
        kept = won[best]
        outcomes = Counter(r.outcome for r in roots)
        verdicts = tally(outcomes["solved"], outcomes["impossible"], outcomes["unknown"], exact)
        lost = not outcomes["solved"] and not outcomes["unknown"]
        stay = _stay(moves_to_choose(view), back) if lost and _from_foundation(best) else None
        if stay is not None:
            # every deal drawn is lost whatever is played: keep the card on its foundation and go back instead,
            # which ends a lost game's rounds rather than lengthening them
            return Decision(stay, 0, len(roots), verdicts, solves=solves)
        if confirm:  # the deals undecided before the move may be won after it
            for j, root in enumerate(roots):
                if root.outcome == "unknown":
                    kept += solve_after(deals[j], best)[1].outcome == "solved"
        else:
            played = (*view.history, best)
            for j, line, reached in lines.get(best, []):
                if reached is None:
                    reached = after(deals[j], rules, (best,))
                self._plans.append((played, reached, line))
        return Decision(best, kept, len(roots), verdicts, solves=solves)

    def _follow(
        self, view: PlayerView, game: Klondike, plans: list[tuple[Position, tuple[Move, ...]]], back: set[Move]
    ) -> Decision | None:
        """The next move of the plans still followed, when enough of them agree on it (else None)."""
        if not plans:
            return None
        firsts = [_parse_first(game, line) for _, line in plans]
        votes = Counter(
            f
            for f in firsts
            if f is not None and f not in back and (FOLLOW_TURNS or reversible(game, f, view.unseen_stock))
        )
        if not votes:
            return None
        move = max(votes, key=lambda m: (votes[m], -firsts.index(m)))
        count = votes[move]
        if count < max(2, self.samples // 4) or 4 * count < 3 * len(plans):
            return None
        self._keep_plans(view, move, [(d, line) for (d, line), f in zip(plans, firsts) if f == move], game)
        return Decision(move, count, len(plans), tally(len(plans), 0, 0, False), followed=True)

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
        played = (*view.history, move)
        for deal, line in plans:
            self._plans.append((played, after(deal, view.rules, (move,)), line[1:]))

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
        extra = "" if self.scout is None else f", scout={self.scout}"
        extra += "" if self.tiebreak is None else f", tiebreak={self.tiebreak!r}"
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


def _stay(legal: list[Move], back: set[Move]) -> Move | None:
    """A move of ``legal`` that goes back to a position decided in before without taking a card off a
    foundation (a draw or the recycle first), or None."""
    ways = [m for m in legal if m in back and not _from_foundation(m)]
    return next((m for m in ways if m.is_draw or m.is_recycle), ways[0] if ways else None)


#: The most moves of a winning line :func:`_moves_to_sight` plays.
_SIGHT_MOST = 64


def _moves_to_sight(deal: Position, rules: Rules, line: tuple[Move, ...]) -> int:
    """The moves of ``line``, a winning line of ``deal``, played before the first that turns up a face-down card
    (all of them, up to :data:`_SIGHT_MOST`, when none does): how soon the win found shows the player a card.
    """
    game = Klondike.from_position(deal, rules=rules)
    for i, move in enumerate(line[:_SIGHT_MOST]):
        game.play(move)
        played = game.last_played()
        if played is not None and played.turned is not None:
            return i
    return min(len(line), _SIGHT_MOST)


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


#: A line of moves being played out: the moves played when its next move was taken, then the moves still to play.
Line = tuple[tuple[Move, ...], tuple[Move, ...]]


def _next_on(line: Line, view: PlayerView, game: Klondike, legal: list[Move]) -> tuple[Move | None, Line]:
    """The next move of ``line`` where the game has followed it so far (``view``'s moves are those it was left at)
    and that move is legal in ``game`` (the view's stand-in), with the line after it; else None and no line."""
    history, rest = line
    move = _parse_first(game, rest) if rest and history == view.history else None
    if move is None or move not in legal:
        return None, ((), ())
    return move, ((*history, move), rest[1:])


def _until_shown(view: PlayerView, line: tuple[Move, ...]) -> tuple[Move, ...]:
    """The moves of ``line`` (a winning line of a deal of ``view``) up to and with the first that shows a card the
    player has not seen (a face-down card turned up, an unseen stock card drawn); empty when none does. Played on
    the view's stand-in, whose hidden places hold some order of the unseen cards: which card shows does not matter
    here, only that one does.
    """
    trial = stand_in(view)
    hidden = trial.player_view().hidden_places
    for i, move in enumerate(line):
        trial.play(move)
        now = trial.player_view().hidden_places
        if now < hidden:
            return line[: i + 1]
    return ()


class _Budget:
    """Positions a decision may still search: ``each`` a search, none started that could pass ``most`` in all (the
    positions each search reports counted; the solver checks its own budget at the ends of its slices).
    """

    def __init__(self, most: int, each: int) -> None:
        self.most, self.each = most, each
        self.spent = self.solves = 0

    def solve(self, deal: Position, rules: Rules, seconds: float) -> Solution | None:
        """The solver's answer for ``deal`` within ``each`` positions, or None when the budget has no room left."""
        if self.spent + self.each > self.most:
            return None
        found = _solve(deal, rules, self.each, seconds)
        self.spent += found.states
        self.solves += 1
        return found


def shortcut(player: NoPeek, view: PlayerView) -> tuple[Move | None, list[Move]]:
    """What ``player`` plays at ``view`` without judging moves, as :meth:`NoPeek.decide` does (for another judge
    that shares its steps, :class:`~patiencelab.players.ismcts.TreeSearch`): the next move of a winning line where
    every card is known or every order of the few unseen cards is won, the one legal move, a card that goes home
    safely, or the one move that does not go back to a position decided in; else None and the moves to judge (hint
    order, those that go back left out while another goes on). The view is remembered as decided in.
    """
    legal = moves_to_choose(view)
    visited = player._visit(view)
    known = player._known_line(view, legal) or player._few_line(view, legal)
    if known is not None:
        return known.move, []
    if len(legal) == 1:
        return legal[0], []
    game = stand_in(view)
    back = player._returns(view, game, legal, visited)
    home = _safe_home(view, game, legal)
    if home is not None and home not in back:
        return home, []
    ordered = ranked_moves(game, view.last_move) or list(legal)
    moves = [m for m in ordered if m not in back] or [m for m in legal if m not in back] or ordered
    return (moves[0], []) if len(moves) == 1 else (None, moves)
