"""The fair half of a game review: the player's chances at every position of a game, each from what the player
could see there, and the moves that lowered them told from the cards that did (see :mod:`patiencelab.review`).

**What a chance is.** At position k (k moves played) the chance is the share of the deals consistent with the
player's view there (:class:`~patiencelab.core.view.PlayerView`: the unseen cards dealt in any order into the
unseen places) that can still be won, estimated as :func:`patiencelab.players.sampling` does: ``samples`` such
deals, each decided by the solver within ``max_states`` positions, a 95% Wilson interval from ``low`` (every
undecided deal lost) to ``high`` (every undecided deal won); every order of the unseen cards when there are no more
orders than samples, and then the share is exact.

**Reusing samples along the game.** A fixed deal's winnability only goes from won to lost along a game (a win
from a later position is one from an earlier position too, the moves between played first). The review keeps
``samples`` deals and follows each along the game as long as it stays consistent with what the player sees:

- a move that turns up no card the player had not seen leaves every deal as it is: the same deal at the next
  position, with no new information, is a sample of the same kind there;
- a move that turns up a card ``c`` in a place ``s`` (a face-down card in a column, a stock card seen for the
  first time) keeps a deal that had ``c`` at ``s``; in any other deal ``c`` and the card at ``s`` change places.
  Both are functions of what the player saw. A deal uniform over the orders consistent with the view before the
  move is then uniform over those consistent with the view after it (each deal after the swap comes from exactly
  as many deals before it as there are unseen cards), so the chance at every position is an honest sample.

A deal followed unchanged over positions a..b is one *track*: it is solved at b; if won there, it is won at every
position of the track (one solver call for the whole stretch); if not, it is solved at a, and the position where
it turns from won to lost is found by bisection (about log2(b - a) calls). A position whose verdict is implied by
another one on the same track is never solved. Carrying "won" verdicts back from deals sampled at later
positions alone, as a shortcut, would be no honest chance: such deals already know the cards turned up later.

When every deal consistent with the view is proved lost (every order solved, or no unseen card left, or the
game is stuck, which the player can see: :attr:`~patiencelab.core.engine.Engine.is_stuck`), the game is lost
from that position for every order of the face-down cards (``lost_from``), and no later position is solved.

**Mistakes and luck.** A move is judged on the deals of the position before it: ``before`` (the chance there),
``after`` (the share of the same deals won after the move played, before the player sees what it turns up) and,
when the fair player (:class:`~patiencelab.players.NoPeek`, with the same samples and budget, asked afresh) would
have played another move, ``kept`` (the share won after that move, again on the same deals). The drop
``kept - after`` labels the move (:data:`THRESHOLDS`: an inaccuracy from 10 points of 100, a mistake from 20, a
blunder from 30, as Lichess labels a drop of the winning chances), counting a deal that is undecided after the
played move as won and one undecided after the better move as lost. Noise is not a mistake: the drop must also
pass a one-sided sign test at 5% on the paired deals (won after one move and not after the other); with 16
samples that takes a drop of about 30 points, so a move whose drop reaches 10 points on the first deals is
checked on ``CONFIRM - 1`` times as many fresh deals before it is labelled. With every order solved there is no
noise and the drop is exact. The fair player is the yardstick: a move it would have played itself is never
labelled, even where the chance falls. A move is looked at closely only when it may be marked: when the deals won
before it and not known to be won after it (each deal after a move is won at most where it was won before) reach
10 points, or the cards it turned up may have cost :data:`LUCK`; then the deals left undecided after it are
searched again with :data:`ESCALATE` times the positions, so a mark rests on decided deals, not on the budget.

Luck is what the move turned up: ``after`` (the chance after the move, over every card it might have turned up)
against the chance at the next position (with the card that came). When it fell by :data:`LUCK` (20 points) or
more, passing the same sign test, or when it fell from some chance to a proved loss, the move is marked ``luck``:
bad luck, not a mistake. A move gets one mark, the larger of the two drops.

**Budget.** Each deal is searched within ``max_states`` positions, by default chosen by the rules
(:func:`sample_states_for`, from :data:`SAMPLE_STATES`: a million with a single pass through the stock, 200,000
otherwise), while the ``max_positions`` of the whole game last (by default :data:`POSITIONS_PER_SAMPLE` ×
``samples``, counted as the solver reports them: a deal that decides early costs little); once they are spent,
within :data:`DEFAULT_SAMPLE_STATES`. At most ``max_calls`` solver calls in all (by default
:data:`CALLS_PER_SAMPLE` × ``samples``), one call reserved for the end of every track, so every position gets its
chance (a game has at most one track per sample and move that turns up a card: 46 × ``samples`` with draw 1); the
bisections and the checks of mistakes take what is left, in order of the game (a deeper search counts as
:data:`ESCALATE` calls), and a move that cannot be checked within it is not labelled. The fair player that names
the better move solves as many deals as its decision takes, counted once it has decided: where that goes past the
budget, the reserved calls are made all the same. State budgets only, so every machine gives the same review.
``progress(done, total)`` is told after each position and ``cancel`` is looked at before each.
"""

from __future__ import annotations

import math
import random
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Literal

from patiencelab.core.cards import Card
from patiencelab.core.errors import ArgumentTypeError, PatienceError, quote
from patiencelab.core.game import Klondike
from patiencelab.core.limits import check_instance, check_seed, check_states, check_whole
from patiencelab.core.marks import ReviewLabel
from patiencelab.core.moves import Move
from patiencelab.core.position import Column, Position
from patiencelab.core.rules import Rules
from patiencelab.core.view import PlayerView
from patiencelab.players import Chances, NoPeek, legal_moves, stand_in
from patiencelab.players.sampling import after as position_after
from patiencelab.players.sampling import deals, exhaustive, tally
from patiencelab.solver.search import Outcome, Solution, solve
from patiencelab.stats import sign_test, wilson

__all__ = [
    "CALLS_PER_SAMPLE",
    "CONFIRM",
    "DEFAULT_SAMPLE_STATES",
    "ESCALATE",
    "LUCK",
    "POSITIONS_PER_SAMPLE",
    "REVIEW_SAMPLES",
    "SAMPLE_STATES",
    "SHARE",
    "SIGNIFICANCE",
    "THRESHOLDS",
    "Along",
    "MarkedMove",
    "ReviewCancelledError",
    "chances_along",
    "sample_states_for",
    "verdict_of",
]

#: The drop in chance (as a share: 0.10 is 10 points of 100) from which a move is labelled by its choice.
THRESHOLDS: dict[ReviewLabel, float] = {"inaccuracy": 0.10, "mistake": 0.20, "blunder": 0.30}
#: The fall in chance through the cards a move turned up from which it is marked as luck.
LUCK = 0.20
#: The one-sided level of the sign test a drop must pass (sampled deals only).
SIGNIFICANCE = 0.05
#: A move that may be a mistake is checked on up to this many times ``samples`` deals.
CONFIRM = 4
#: Deals per position of a review (:func:`chances_along`, :func:`~patiencelab.review.review` and the board's),
#: unless told otherwise: twice the fair hint's (:data:`patiencelab.players.DEFAULT_SAMPLES`). A move is looked at
#: closely only when its first deals show a drop of 10 points, so more deals find more of the moves that lowered
#: the chances (the 60 lost games of ``tests/review_games.py``: 11 marks with 32 deals, 3 with 16;
#: docs/players.md), within the CPU a review may take (30 s for a game of 100 moves).
REVIEW_SAMPLES = 32
#: Positions a deal's search may take once a review's positions are spent (the fair hint's budget a deal).
DEFAULT_SAMPLE_STATES = 2_000
#: Positions each deal of the chances may search, chosen by the rules (:func:`sample_states_for`): at the start of
#: lost games (6 Greedy games a rule set), 200,000 decide 92-96% of the deals under standard draw 3, six columns and
#: traditional draw 3 (50,000 decided 86-91%, for 7-10% less CPU); with a single pass through the stock (traditional
#: draw 1) 50,000 decide 70% and a million all those measured, and the searches that decide mostly decide early
#: (docs/performance.md).
SAMPLE_STATES: dict[str, int] = {"single pass": 1_000_000, "more passes": 200_000}
#: Positions the chances of a whole game may search with the rules' budget a deal, per sample (this times
#: ``samples``: with a review's 32 deals, 2,048,000, whatever the game's length).
POSITIONS_PER_SAMPLE = 64_000
#: No deal's search takes more than this part of the positions a review has left (1 / SHARE), so the first hard
#: deals do not spend what the others need.
SHARE = 8
#: Solver calls per sample for the whole game (the total budget is this times ``samples``).
CALLS_PER_SAMPLE = 64
#: A deal left undecided where a move may be marked is searched again with this many times the positions (and
#: counted as this many calls).
ESCALATE = 8

_EPS = 1e-9

Verdict = Literal["won", "lost", "unknown"]
#: A place the player cannot see: a column's face-down slot (column, index from the bottom) or a stock index.
Place = tuple[str, int, int]


class ReviewCancelledError(PatienceError):
    """A review stopped by its ``cancel`` event before it was done."""


def check_cancel(cancel: threading.Event | None) -> None:
    """Raise :class:`ReviewCancelledError` once ``cancel`` is set (the review's chances, second opinion and verdict
    look before each position or solver call)."""
    if cancel is not None and cancel.is_set():
        raise ReviewCancelledError("the review was cancelled")


def sample_states_for(rules: Rules) -> int:
    """Positions a deal of the chances may search under ``rules`` (:data:`SAMPLE_STATES`)."""
    check_instance(rules, "rules", Rules)
    return SAMPLE_STATES["single pass" if rules.max_passes == 1 else "more passes"]


@dataclass(frozen=True, slots=True)
class MarkedMove:
    """A move the review marks: its number ``move`` (from 1), the ``label``, the move ``played``, the chance
    ``before`` it and ``after`` it (for luck: after the move, before and after seeing the cards it turned up),
    and for a choice the fair player's ``better`` move with the chance it ``kept``. ``turned`` lists the cards the
    move turned up and ``column`` the column a face-down card turned in (``None``: drawn from the stock).
    ``samples`` counts the deals the judgement rests on. ``text`` says it in the review's language.
    """

    move: int
    label: ReviewLabel
    played: Move
    before: float
    after: float
    better: Move | None = None
    kept: float | None = None
    turned: tuple[Card, ...] = ()
    column: int | None = None
    samples: int = 0
    text: str = ""

    @property
    def step(self) -> int:
        """The lesson step that shows it: the position before a choice, the position a lucky move reached."""
        return self.move if self.label == "luck" else self.move - 1

    @property
    def drop(self) -> float:
        """How much the chance fell: ``kept - after`` for a choice, ``before - after`` for luck."""
        if self.label == "luck" or self.kept is None:
            return self.before - self.after
        return self.kept - self.after


@dataclass(frozen=True, slots=True)
class Along:
    """The fair chances along a game: one :class:`~patiencelab.players.Chances` per position (``moves + 1``),
    the marked moves in order, the first position from which every order of the face-down cards is proved lost
    (``lost_from``, or ``None``), and the solver ``calls`` spent.
    """

    chances: tuple[Chances, ...]
    marks: tuple[MarkedMove, ...]
    lost_from: int | None
    calls: int
    samples: int


def chances_along(
    views: Sequence[PlayerView],
    *,
    samples: int = REVIEW_SAMPLES,
    max_states: int | Literal["rules"] | None = "rules",
    seed: int = 0,
    max_calls: int | None = None,
    max_positions: int | None = None,
    progress: Callable[[int, int], None] | None = None,
    cancel: threading.Event | None = None,
) -> Along:
    """The chances at each of ``views`` (the player's views of one game, from its start, one per position) and the
    marked moves (see the module's documentation): ``max_states`` positions a deal (``"rules"``:
    :func:`sample_states_for`), ``max_positions`` in all (by default :data:`POSITIONS_PER_SAMPLE` × ``samples``),
    and at most ``max_calls`` solver calls (by default :data:`CALLS_PER_SAMPLE` × ``samples``).
    ``progress(done, total)`` is told after each position; ``cancel`` set stops it at the next position with
    :class:`ReviewCancelledError`.
    """
    if not isinstance(views, Sequence) or not all(isinstance(view, PlayerView) for view in views):
        raise ArgumentTypeError(f"views must be a list of player's views, not {quote(views)}")
    if not views:
        raise PatienceError("a review needs the views of at least one position")
    if progress is not None and not callable(progress):
        raise ArgumentTypeError(f"progress must be a function of (done, total) or None, not {quote(progress)}")
    if cancel is not None and not isinstance(cancel, threading.Event):
        raise ArgumentTypeError(f"cancel must be a threading.Event or None, not {type(cancel).__name__}")
    check_whole(samples, "samples", low=1)
    states = sample_states_for(views[0].rules) if max_states == "rules" else check_states(max_states)
    check_seed(seed)
    calls = CALLS_PER_SAMPLE * samples if max_calls is None else check_whole(max_calls, "max_calls", low=1)
    if max_positions is None:
        max_positions = POSITIONS_PER_SAMPLE * samples
    check_whole(max_positions, "max_positions", low=1)
    return _Walk(views, samples, states, seed, calls, max_positions, progress, cancel).run()


# ------------------------------------------------------------------------------------------------ tracks


@dataclass(eq=False)
class _Track:
    """One deal followed unchanged from position ``first``: its positions and what the solver found there."""

    first: int
    positions: list[Position]
    outcomes: dict[int, Outcome] = field(default_factory=dict)
    lines: dict[int, tuple[Move, ...]] = field(default_factory=dict)
    settled: bool = False

    @property
    def last(self) -> int:
        return self.first + len(self.positions) - 1

    def at(self, k: int) -> Position:
        return self.positions[k - self.first]

    def verdict(self, k: int) -> Verdict:
        """Won when won here or later on this deal, lost when lost here or earlier, else unknown."""
        if any(o == "solved" and j >= k for j, o in self.outcomes.items()):
            return "won"
        if any(o == "impossible" and j <= k for j, o in self.outcomes.items()):
            return "lost"
        return "unknown"


def _public(view: PlayerView) -> PlayerView:
    return replace(view, history=())


def _reveals(before: PlayerView, after: PlayerView) -> list[tuple[Place, Card]]:
    """The places of the position before a move whose cards the move showed the player, with those cards."""
    found: list[tuple[Place, Card]] = []
    for c, (was, now) in enumerate(zip(before.tableau, after.tableau)):
        if now.down < was.down:  # the top face-down card turned up: it is now the column's only face-up card
            found.append((("t", c, now.down), now.up[0]))
    drawn = before.stock_size - after.stock_size
    if before.unseen_stock and drawn > 0:  # a draw: the next stock cards went to the waste, in order
        cards = after.waste[len(after.waste) - drawn :]
        found += [(("s", 0, i), cards[i]) for i in range(len(before.stock), drawn)]
    return found


def _card_at(position: Position, place: Place) -> Card:
    kind, c, i = place
    return position.tableau[c].down[i] if kind == "t" else position.stock[i]


def _swap_in(position: Position, reveals: list[tuple[Place, Card]], seen_stock: int) -> Position:
    """``position`` with each revealed card swapped into its place from the hidden place where it lay."""
    downs = [list(col.down) for col in position.tableau]
    stock = list(position.stock)
    for (kind, c, i), card in reveals:
        holder, index = (downs[c], i) if kind == "t" else (stock, i)
        if holder[index] == card:
            continue
        if card in stock[seen_stock:]:
            other, j = stock, stock.index(card, seen_stock)
        else:
            col = next(d for d in downs if card in d)
            other, j = col, col.index(card)
        holder[index], other[j] = other[j], holder[index]
    tableau = tuple(Column(tuple(d), col.up) for d, col in zip(downs, position.tableau))
    return Position(tableau, tuple(stock), position.waste, position.foundations, position.recycles, seen_stock)


def _label(drop: float) -> ReviewLabel | None:
    labels: tuple[ReviewLabel, ...] = ("blunder", "mistake", "inaccuracy")
    return next((label for label in labels if drop >= THRESHOLDS[label] - _EPS), None)


def verdict_of(outcome: Outcome) -> Verdict:
    """A deal's verdict from the solver's outcome: ``solved`` is won, ``impossible`` lost, else unknown."""
    return "won" if outcome == "solved" else "lost" if outcome == "impossible" else "unknown"


# ------------------------------------------------------------------------------------------------ the walk


class _Walk:
    """One review's chances: the tracks of its deals, the solver calls and their budget."""

    def __init__(
        self,
        views: Sequence[PlayerView],
        samples: int,
        max_states: int | None,
        seed: int,
        max_calls: int,
        max_positions: int,
        progress: Callable[[int, int], None] | None,
        cancel: threading.Event | None,
    ) -> None:
        self.views = list(views)
        self.n = len(views) - 1
        self.history = views[-1].history
        self.rules = views[0].rules
        self.samples = samples
        self.max_states = max_states
        self.seed = seed
        self.max_calls = max_calls
        self.max_positions = max_positions
        self.positions = 0  # searched so far, as the solver reports them
        self.floor = None if max_states is None else min(max_states, DEFAULT_SAMPLE_STATES)
        self.progress = progress
        self.cancel = cancel
        self.calls = 0
        self.unsettled = 0  # tracks whose last position is still to be solved: one call kept for each
        self.at: list[list[_Track]] = []  # the deals at each position (sampled: in sample order)
        self.exact: list[bool] = []
        #: For each position, the deals there that do not go on to the next one (by their index at the position),
        #: each after the move played: for the chance after the move, before what it turned up was seen.
        self.what_if: list[dict[int, Position]] = []
        self.reveals: list[list[tuple[Place, Card]]] = []
        #: The positions whose chance rests on more deals than their own (a move there was checked on more).
        self.confirmed: set[int] = set()

    # ------------------------------------------------------------------------------------ following deals

    def build(self, end: int) -> None:
        """The deals of positions 0..``end``, followed along the moves played (no solver call)."""
        first = self.views[0]
        exact = exhaustive(first, self.samples)
        tracks = [_Track(0, [deal]) for deal in deals(first, self.samples, self.seed)[0]]
        live = [Klondike.from_position(t.positions[0], rules=self.rules) for t in tracks]
        self.at.append(tracks)
        self.exact.append(exact)
        for k in range(end):
            move, view, nxt = self.history[k], self.views[k], self.views[k + 1]
            reveals = _reveals(view, nxt)
            self.reveals.append(reveals)
            what: dict[int, Position] = {}
            goes_on, games = [], []
            exact_next = exhaustive(nxt, self.samples)
            for i, (track, game) in enumerate(zip(tracks, live)):
                here = track.positions[-1]
                same = not reveals or all(_card_at(here, place) == card for place, card in reveals)
                game.play(move)
                if exact and not same:
                    what[i] = game.snapshot()  # every order: the ones the card contradicts drop out
                elif exact or (same and not exact_next):
                    track.positions.append(game.snapshot())
                    goes_on.append(track)
                    games.append(game)
                else:
                    what[i] = game.snapshot()
                    if not exact_next:  # the card swapped in: a deal consistent with what was seen
                        game = Klondike.from_position(_swap_in(here, reveals, len(view.stock)), rules=self.rules)
                        game.play(move)
                        if _public(game.player_view()) != _public(nxt):  # pragma: no cover - a defect
                            raise AssertionError(f"a swapped deal does not match the view after move {k + 1}")
                        goes_on.append(_Track(k + 1, [game.snapshot()]))
                        games.append(game)
            if exact_next and not exact:  # from here on every order of the unseen cards
                goes_on = [_Track(k + 1, [deal]) for deal in deals(nxt, self.samples, self.seed)[0]]
                games = [Klondike.from_position(t.positions[0], rules=self.rules) for t in goes_on]
            tracks, live, exact = goes_on, games, exact_next
            self.what_if.append(what)
            self.at.append(tracks)
            self.exact.append(exact)
        self.unsettled = len({id(t) for ts in self.at for t in ts})

    # ------------------------------------------------------------------------------------ solving

    def spare(self, calls: int = 1) -> bool:
        """Whether ``calls`` more solver calls fit beside the ones kept for the tracks' last positions."""
        return self.calls + self.unsettled + calls <= self.max_calls

    def remaining(self) -> int:
        """The positions the review may still search."""
        return max(0, self.max_positions - self.positions)

    def cap(self, states: int | None, escalate: int = 1) -> int | None:
        """At most ``states`` positions for the next search, at most 1/:data:`SHARE` of the review's left (never fewer
        than :data:`DEFAULT_SAMPLE_STATES` × ``escalate``, the budget a deal once they are).
        """
        if states is None or self.floor is None:
            return states
        return max(escalate * self.floor, min(states, self.remaining() // SHARE))

    def search(self, position: Position, states: int | None, escalate: int = 1) -> Solution:
        """One solver call within :meth:`cap` of ``states`` positions, the positions it searched counted."""
        found = solve(position, self.rules, seconds=math.inf, max_states=self.cap(states, escalate))
        self.positions += found.states
        return found

    def solve(self, position: Position, *, kept: bool = False) -> Solution | None:
        """The solver's verdict on ``position`` within the budget (``kept``: a call kept for a track), or None."""
        if kept:
            self.unsettled -= 1  # kept for it: made even where the fair player's solves went past the budget
        elif not self.spare():
            return None
        self.calls += 1
        return self.search(position, self.max_states)

    def decide(self, track: _Track, k: int, *, kept: bool = False) -> Outcome | None:
        if k in track.outcomes:
            if kept:
                self.unsettled -= 1
            return track.outcomes[k]
        found = self.solve(track.at(k), kept=kept)
        if found is None:
            return None
        track.outcomes[k] = found.outcome
        if found.outcome == "solved":
            track.lines[k] = found.moves
        return found.outcome

    def settle(self, track: _Track) -> None:
        """Solve ``track`` where needed: its last position, and when that is not won, its first and a bisection."""
        if track.settled:
            return
        track.settled = True
        if self.decide(track, track.last, kept=True) == "solved" or track.first == track.last:
            return
        limit = 2 + math.ceil(math.log2(track.last - track.first + 1))
        bisect(track.outcomes, track.first, track.last, lambda j: self.decide(track, j), limit, start=track.first)

    def first_move(self, track: _Track, k: int) -> str | None:
        """The first move of a win found from position ``k`` of ``track``'s deal, or None."""
        if track.outcomes.get(k) == "solved":
            line = track.lines.get(k, ())
            return str(line[0]) if line else None
        return str(self.history[k]) if k < self.n and track.verdict(k) == "won" else None

    def after_move(self, position: Position, move: Move, verdict: Verdict, first: str | None) -> Verdict:
        """Whether a deal is won after ``move`` from ``position``: implied by its verdict there when it can be."""
        if verdict == "lost":
            return "lost"
        if verdict == "won" and first == str(move):
            return "won"
        found = self.solve(position_after(position, self.rules, (move,)))
        return "unknown" if found is None else verdict_of(found.outcome)

    # ------------------------------------------------------------------------------------ the game

    def run(self) -> Along:
        n = self.n
        stuck = next((k for k, v in enumerate(self.views) if not v.is_won and stand_in(v).is_stuck), None)
        self.build(n if stuck is None else stuck)
        if stuck is not None:
            for track in self.at[stuck]:
                track.outcomes[stuck] = "impossible"  # the player can see it is stuck: lost for every order
        lost_from: int | None = None
        chances: list[Chances] = []
        marks: list[MarkedMove] = []
        for k in range(n + 1):
            check_cancel(self.cancel)
            if lost_from is not None and k > lost_from:
                chances.append(tally(0, 1, 0, True))
            else:
                for track in self.at[k]:
                    self.settle(track)
                chance = self.chance(k)
                if k == stuck or (self.exact[k] and chance.lost == chance.samples):
                    lost_from = k
                    chance = tally(0, 1, 0, True)
                chances.append(chance)
                if k:
                    mark = self.judge(k, chances, lost_from)
                    if mark is not None:
                        marks.append(mark)
                if lost_from == k:  # nothing later needs solving: lost for every order
                    for track in {id(t): t for ts in self.at[k:] for t in ts}.values():
                        if not track.settled:
                            track.settled = True
                            self.unsettled -= 1
            if self.progress is not None:
                self.progress(k + 1, n + 1)
        # a second, larger pass where nothing was decided: the start and the positions around each mark
        for k in sorted({0} | {j for mark in marks for j in (mark.move - 1, mark.move)}):
            if k <= n and (lost_from is None or k < lost_from) and chances[k].estimate is None:
                for track in self.at[k]:
                    if track.verdict(k) == "unknown":
                        self.deepen(track.at(k), track, k)
        for k in range(len(chances) if lost_from is None else lost_from):  # later verdicts may tell more now
            if k not in self.confirmed:
                chances[k] = self.chance(k)
        return Along(tuple(chances), tuple(marks), lost_from, self.calls, self.samples)

    def judge(self, m: int, chances: list[Chances], lost_from: int | None) -> MarkedMove | None:
        """The mark of move ``m`` (from position ``m - 1`` to ``m``), or None."""
        k = m - 1
        move, tracks = self.history[k], self.at[k]
        before = [t.verdict(k) for t in tracks]
        firsts = [self.first_move(t, k) for t in tracks]
        after: list[Verdict | None] = []  # None: to be solved, when the move is worth judging
        for i, track in enumerate(tracks):
            if i not in self.what_if[k]:
                after.append(track.verdict(m))
            elif before[i] == "lost" or (before[i] == "won" and firsts[i] == str(move)):
                after.append(before[i])  # lost before it, or won along it
            else:
                after.append(None)
        n = len(tracks)
        now = chances[m]
        # At most this many deals lost by the move, and at most this fall by its cards (each deal after the move
        # is won at most where it was won before it): when neither can reach a mark, nothing more is solved.
        lowered = sum(b == "won" and a != "won" for b, a in zip(before, after))
        fell = bool(self.reveals[k]) and before.count("won") / n - now.won / max(now.samples, 1) >= LUCK - _EPS
        decided = lost_from == m and "won" in before  # lost for every order from here on: what took the chance?
        if lowered / n < THRESHOLDS["inaccuracy"] - _EPS and not fell and not decided:
            return None
        for i, track in enumerate(tracks):
            if after[i] is None:
                after[i] = self.after_move(track.at(k), move, before[i], firsts[i])
        fell = bool(self.reveals[k]) and after.count("won") / n - now.won / max(now.samples, 1) >= LUCK - _EPS
        lowered = sum(b == "won" and a != "won" for b, a in zip(before, after))
        if lowered / n >= THRESHOLDS["inaccuracy"] - _EPS or fell:  # worth a closer look: undecided deals again
            for i, track in enumerate(tracks):
                if after[i] == "unknown" and before[i] != "lost":
                    after[i] = self.deepen(self.what_if[k][i] if i in self.what_if[k] else track.at(m), track, m)
            if fell and not self.exact[m]:
                for track in self.at[m]:
                    if track.verdict(m) == "unknown":
                        self.deepen(track.at(m), track, m)
                chances[m] = self.chance(m)
        judged = [a or "unknown" for a in after]
        for i, track in enumerate(tracks):
            if judged[i] == "won" and before[i] != "won":  # won after the move: so it was won before it
                before[i] = self.won_along(track, k, move)
        luck = self.luck(m, judged, chances, lost_from)
        choice = self.choice(m, before, firsts, judged, chances)
        if luck is not None and (choice is None or luck.drop > choice.drop + _EPS):
            return luck
        return choice

    def deepen(self, position: Position, track: _Track | None = None, k: int = 0) -> Verdict:
        """A search :data:`ESCALATE` times as large of a deal left undecided (counted as that many calls); its
        verdict is kept on ``track`` at position ``k`` when the position is the track's.
        """
        if not self.spare(ESCALATE):
            return "unknown"
        self.calls += ESCALATE
        found = self.search(position, None if self.max_states is None else ESCALATE * self.max_states, ESCALATE)
        on_track = track is not None and track.first <= k <= track.last and track.at(k) is position
        if on_track and track is not None and found.outcome != "unknown":
            track.outcomes[k] = found.outcome
            if found.outcome == "solved":
                track.lines[k] = found.moves
        return verdict_of(found.outcome)

    @staticmethod
    def won_along(track: _Track, k: int, move: Move) -> Verdict:
        """Note on ``track`` that its deal is won at position ``k`` by a win that starts with ``move``."""
        track.outcomes[k] = "solved"
        track.lines[k] = (move,)
        return "won"

    def chance(self, k: int) -> Chances:
        """The chance at position ``k`` from the verdicts of its deals as they stand."""
        verdicts = [t.verdict(k) for t in self.at[k]]
        won, lost = verdicts.count("won"), verdicts.count("lost")
        return tally(won, lost, len(verdicts) - won - lost, self.exact[k])

    def luck(self, m: int, after: list[Verdict], chances: list[Chances], lost_from: int | None) -> MarkedMove | None:
        """A luck mark for move ``m`` when the cards it turned up took the chance down."""
        k = m - 1
        reveals = self.reveals[k]
        if not reveals:
            return None
        n = len(after)
        won = after.count("won")
        now = chances[m]
        if n == 0:
            return None
        fell = won / n - (now.won + now.unknown) / max(now.samples, 1)
        if self.exact[k]:
            significant = True
        elif self.exact[m]:
            significant = wilson(won, n).low > now.high
        else:
            nxt = [t.verdict(m) for t in self.at[m]]
            down = sum(a == "won" and b == "lost" for a, b in zip(after, nxt))
            up = sum(a != "won" and b != "lost" for a, b in zip(after, nxt))
            significant = down > up and sign_test(down, up) <= SIGNIFICANCE
        decided = lost_from == m and won > 0
        if not decided and not (fell >= LUCK - _EPS and significant):
            return None
        column = next((c + 1 for (kind, c, _), _card in reveals if kind == "t"), None)
        return MarkedMove(
            m,
            "luck",
            self.history[k],
            won / n,
            now.estimate if now.estimate is not None else now.low,
            turned=tuple(card for _, card in reveals),
            column=column,
            samples=n,
        )

    def choice(
        self, m: int, before: list[Verdict], firsts: list[str | None], after: list[Verdict], chances: list[Chances]
    ) -> MarkedMove | None:
        """A mark for move ``m`` when the fair player's move kept clearly more deals winnable than it."""
        k = m - 1
        n = len(before)
        if n == 0:
            return None
        lowered = sum(b == "won" and a != "won" for b, a in zip(before, after))
        if lowered / n < THRESHOLDS["inaccuracy"] - _EPS:
            return None
        view, move = self.views[k], self.history[k]
        if len(legal_moves(view)) < 2 or not self.spare(min(self.samples, n) + n):
            return None
        states = self.cap(self.max_states)
        states = states if states is None else max(self.floor or 1, min(states, self.remaining() // self.samples))
        player = NoPeek(samples=self.samples, max_states=states, seed=self.seed)
        decision = player.decide(view)
        self.calls += decision.solves  # the fair player solves its own deals: counted at their budget
        self.positions += decision.solves * (states or 0)
        better = decision.move
        if str(better) == str(move):
            return None
        tracks = self.at[k]
        kept: list[Verdict] = []
        for i, (track, here, first) in enumerate(zip(tracks, before, firsts)):
            verdict = self.after_move(track.at(k), better, here, first)
            kept.append(
                self.deepen(position_after(track.at(k), self.rules, (better,))) if verdict == "unknown" else verdict
            )
            if kept[-1] == "won" and here != "won":
                before[i] = self.won_along(track, k, better)
        pairs = list(zip(before, after, kept))
        exact = self.exact[k]
        if not exact and not self.significant(pairs) and self.conservative_drop(pairs) >= THRESHOLDS["inaccuracy"]:
            pairs += self.confirm(k, move, better)
        drop = self.conservative_drop(pairs)
        label = _label(drop)
        if label is None or (not exact and not self.significant(pairs)):
            return None
        total = len(pairs)
        won_before = sum(b == "won" for b, _, _ in pairs)
        if total > n:  # more deals were solved here: the chart shows the chance on all of them
            unknown = sum(b == "unknown" for b, _, _ in pairs)
            chances[k] = tally(won_before, total - won_before - unknown, unknown, False)
            self.confirmed.add(k)
        reveals = self.reveals[k]
        return MarkedMove(
            m,
            label,
            move,
            won_before / total,
            sum(a == "won" for _, a, _ in pairs) / total,
            better,
            sum(c == "won" for _, _, c in pairs) / total,
            turned=tuple(card for _, card in reveals),
            column=next((c + 1 for (kind, c, _), _card in reveals if kind == "t"), None),
            samples=total,
        )

    @staticmethod
    def conservative_drop(pairs: list[tuple[Verdict, Verdict, Verdict]]) -> float:
        """The share of deals won after the better move less the share not proved lost after the played one."""
        kept = sum(c == "won" for _, _, c in pairs)
        played = sum(a != "lost" for _, a, _ in pairs)
        return (kept - played) / len(pairs) if pairs else 0.0

    @staticmethod
    def significant(pairs: list[tuple[Verdict, Verdict, Verdict]]) -> bool:
        """The sign test on the deals won after one move and not after the other (undecided: against the drop)."""
        better = sum(c == "won" and a == "lost" for _, a, c in pairs)
        worse = sum(a != "lost" and c != "won" for _, a, c in pairs)
        return better > worse and sign_test(better, worse) <= SIGNIFICANCE

    def confirm(self, k: int, move: Move, better: Move) -> list[tuple[Verdict, Verdict, Verdict]]:
        """Fresh deals of position ``k``, each judged before the move, after it and after the better move."""
        count = (CONFIRM - 1) * self.samples
        if not self.spare(3 * count):
            return []
        rng = random.Random(f"patiencelab-review:{self.seed}:{k}")
        view = self.views[k]
        pairs: list[tuple[Verdict, Verdict, Verdict]] = []
        for _ in range(count):
            deal = view.sample(rng)
            found = self.solve(deal)
            if found is None:
                break
            here = verdict_of(found.outcome)
            first = str(found.moves[0]) if found.outcome == "solved" and found.moves else None
            pairs.append((here, self.after_move(deal, move, here, first), self.after_move(deal, better, here, first)))
        return pairs


def bisect(
    outcomes: dict[int, Outcome],
    lo: int,
    hi: int,
    decide: Callable[[int], Outcome | None],
    limit: int,
    *,
    start: int | None = None,
) -> None:
    """Decide positions ``lo``..``hi`` of one deal along a game with at most ``limit`` calls of ``decide`` (which
    records its verdict in ``outcomes``, or returns None when the budget is spent), using that a win at a position
    is one at every earlier position and a loss one at every later position: ``start`` first, then the middle of
    the longest stretch of positions still open between the last known win and the first known loss (undecided
    positions are left out, so the search goes on around them).
    """
    probes = 0
    if start is not None and start not in outcomes:
        probes += 1
        if decide(start) is None:
            return
    while probes < limit:
        won = max((j for j, o in outcomes.items() if o == "solved" and lo <= j <= hi), default=lo - 1)
        lost = min((j for j, o in outcomes.items() if o == "impossible" and lo <= j <= hi), default=hi + 1)
        runs: list[list[int]] = []
        for j in range(won + 1, lost):
            if j in outcomes:
                continue  # undecided within the budget: the search goes on around it
            if runs and runs[-1][-1] == j - 1:
                runs[-1].append(j)
            else:
                runs.append([j])
        if not runs:
            return
        run = max(runs, key=len)
        probes += 1
        if decide(run[len(run) // 2]) is None:
            return
