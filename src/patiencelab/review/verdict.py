"""The verdict on the move that lost a game: a mistake or bad luck, judged from what the player could see.

The second opinion (the solver, which knows the face-down cards) names the move after which the deal could no
longer be won. Whether that move was a mistake is a question about the player, so it is answered from the
player's view before it, as the chances are (:mod:`patiencelab.review.chances`): ``samples`` deals consistent
with that view, each solved after every legal move, on the same deals. The move was a mistake when another move
kept clearly more of them winnable: by at least :data:`~patiencelab.review.chances.THRESHOLDS`' inaccuracy (10
points), counting a deal left undecided after the move played as won and one undecided after the other move as
lost, and passing the same one-sided sign test on the paired deals as a marked move (with every order of the
unseen cards solved, the drop is exact). It was bad luck only where no move could have kept 10 points more, even
counting every deal left undecided after it as won; between the two, the verdict is ``unknown``: the budget could
not tell, and the review says how many deals stayed undecided.

Cheap where it can be: a deal lost before the move is lost after every move, a deal won by a line that starts
with a move is won after that move, and a deal won after the move played is won before it; only the others are
solved again, once a move. The deals are judged before the move and after the move played first, in rounds
(:data:`ROUND` times the positions each round, from
:data:`~patiencelab.review.chances.DEFAULT_SAMPLE_STATES` a deal up to
:data:`~patiencelab.review.chances.ESCALATE` times ``max_states``), only the deals still open in each: where the
move played kept all but an inaccuracy's worth of the deals not lost before it, no other move can have kept
clearly more, and the verdict is bad luck with no other move solved (``bounded``). These rounds may take
:data:`FIRST` of ``max_positions``; the other moves share the rest, an even part a move: an even part of half of it
a deal first, then the rest over those left undecided, at most ``ESCALATE`` times ``max_states`` each.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from patiencelab.core.errors import ArgumentTypeError
from patiencelab.core.limits import check_instance, check_seed, check_states, check_whole
from patiencelab.core.marks import ReviewLabel
from patiencelab.core.moves import Move
from patiencelab.core.position import Position
from patiencelab.core.view import PlayerView
from patiencelab.players import legal_moves
from patiencelab.players.sampling import after, deals, solve_deal
from patiencelab.review.chances import (
    DEFAULT_SAMPLE_STATES,
    ESCALATE,
    SIGNIFICANCE,
    THRESHOLDS,
    check_cancel,
    verdict_of,
)
from patiencelab.solver.search import Solution
from patiencelab.stats import sign_test

__all__ = ["FIRST", "POSITIONS_PER_SAMPLE", "ROUND", "LossVerdict", "judge_loss"]

_EPS = 1e-9
#: Positions the verdict may search, per sample (this times ``samples``: with a review's 32 deals, 16,384,000), in
#: a review (:func:`~patiencelab.review.review`): the deals of a single pass through the stock at the start of a game
#: can take a million positions and more to prove lost.
POSITIONS_PER_SAMPLE = 512_000
#: Each round of the verdicts before and after the move played searches the deals left open with this many times
#: the positions of the round before (see :func:`_before_and_played`).
ROUND = 4
#: The part of the verdict's positions the deals before and after the move played may take; the other moves get
#: the rest.
FIRST = 0.75


@dataclass(frozen=True, slots=True)
class LossVerdict:
    """What the move that lost the game was: ``kind`` ``mistake`` (its ``label`` by the drop, as a marked move's),
    ``luck`` or ``unknown`` (the ``undecided`` verdicts left the question open); of the ``samples`` deals
    consistent with what the player saw before it, ``mine`` were won after it, ``kept`` after ``better`` (the other
    move that kept the most; ``None`` when it was the only legal move), and ``won`` before it. ``exact``: every
    order of the unseen cards was solved. ``bounded``: bad luck told from the move played alone, which kept all
    but a few of the ``kept`` deals not lost before it (no other move can keep more; ``better`` is ``None``;
    ``undecided``: how many of those were neither won nor lost before it within the budget).
    """

    kind: Literal["mistake", "luck", "unknown"]
    samples: int
    won: int
    mine: int
    better: Move | None
    kept: int
    label: ReviewLabel | None = None
    exact: bool = False
    undecided: int = 0
    bounded: bool = False

    @property
    def drop(self) -> float:
        """The share of deals ``better`` kept winnable beyond the move played's (0 when it kept fewer)."""
        return max(0.0, (self.kept - self.mine) / self.samples) if self.samples else 0.0


def judge_loss(
    view: PlayerView,
    played: Move,
    *,
    samples: int,
    max_states: int | None,
    seed: int,
    max_positions: int | None = None,
    cancel: threading.Event | None = None,
) -> LossVerdict:
    """The verdict on ``played`` from ``view`` (the player's view before it): see the module's documentation.
    ``cancel`` set stops it before its next solver call, with
    :class:`~patiencelab.review.chances.ReviewCancelledError`.
    """
    check_instance(view, "view", PlayerView)
    check_instance(played, "played", Move)
    check_whole(samples, "samples", low=1)
    check_states(max_states)
    check_seed(seed)
    check_states(max_positions, "max_positions")
    if cancel is not None and not isinstance(cancel, threading.Event):
        raise ArgumentTypeError(f"cancel must be a threading.Event or None, not {type(cancel).__name__}")
    dealt, exact = deals(view, samples, seed)
    spent = 0

    def left() -> float:
        return math.inf if max_positions is None else max_positions - spent

    def search(position: Position, states: int | None) -> Solution:
        nonlocal spent
        check_cancel(cancel)
        found = solve_deal(position, view.rules, states, math.inf)
        spent += found.states
        return found

    def decide(positions: list[Position], share: float) -> list[tuple[str, str | None]]:
        """The verdicts of ``positions`` within ``share`` positions: an even part of half of it each first, then
        the rest spread over those left undecided (at most ``ESCALATE`` times ``max_states`` each).
        """
        if not positions:
            return []
        if max_states is None:
            return [_verdict(search(p, None)) for p in positions]
        floor = min(max_states, DEFAULT_SAMPLE_STATES)
        first = max(floor, int(min(max_states, share / (2 * len(positions)))))
        start = spent
        found = [search(p, first) for p in positions]
        undecided = [i for i, f in enumerate(found) if f.outcome == "unknown"]
        if undecided:
            per = int(min(ESCALATE * max_states, (share - (spent - start)) / len(undecided)))
            for i in undecided:
                if per > found[i].states:
                    found[i] = search(positions[i], per)
        return [_verdict(f) for f in found]

    moves = [m for m in legal_moves(view) if str(m) != str(played)]
    rules = view.rules
    n = len(dealt)
    moved = [after(d, rules, (played,)) for d in dealt]
    reserve = 0.0 if max_positions is None else max_positions * (1 - FIRST)
    before, mine = _before_and_played(dealt, moved, str(played), max_states, search, lambda: left() - reserve)
    won_before = sum(b == "won" for b, _ in before)
    played_won = sum(a == "won" for a in mine)
    if not moves:
        return LossVerdict("luck", n, won_before, played_won, None, 0, exact=exact)
    # No move keeps a deal lost before it: the deals not lost before bound what any other move could keep.
    bound = sum(b != "lost" for b, _ in before)
    if (bound - played_won) / n < THRESHOLDS["inaccuracy"] - _EPS:
        open_before = bound - won_before  # neither won nor lost within the budget: counted as winnable
        return LossVerdict(
            "luck", n, won_before, played_won, None, bound, exact=exact, undecided=open_before, bounded=True
        )

    def verdicts_after(move: str, share: float) -> list[str]:
        out = ["lost" if here == "lost" else "won" for here, _ in before]  # lost before: lost after every move
        todo = [i for i, (here, first) in enumerate(before) if here != "lost" and not (here == "won" and first == move)]
        found = decide([after(dealt[i], rules, (Move.parse(move),)) for i in todo], share)
        for i, (v, _) in zip(todo, found, strict=True):
            out[i] = v
        return out

    others = {str(move): verdicts_after(str(move), left() / (len(moves) - k)) for k, move in enumerate(moves)}
    best = max(moves, key=lambda m: sum(v == "won" for v in others[str(m)]))
    kept = others[str(best)]
    kept_won = sum(c == "won" for c in kept)
    # conservative: a deal undecided after the move played counts as won, one undecided after the other as lost
    drop = (kept_won - sum(a != "lost" for a in mine)) / n if n else 0.0
    label = next((lab for lab in ("blunder", "mistake", "inaccuracy") if drop >= THRESHOLDS[lab] - _EPS), None)
    better = sum(c == "won" and a == "lost" for a, c in zip(mine, kept))
    worse = sum(a != "lost" and c != "won" for a, c in zip(mine, kept))
    significant = exact or (better > worse and sign_test(better, worse) <= SIGNIFICANCE)
    if label is not None and significant:
        return LossVerdict("mistake", n, won_before, played_won, best, kept_won, label, exact)  # type: ignore[arg-type]
    # bad luck only when no move could have kept an inaccuracy's worth more, every undecided deal counted for it
    could = max(sum(v != "lost" for v in others[str(m)]) for m in moves) - played_won
    undecided = sum(v == "unknown" for v in (*mine, *(v for m in moves for v in others[str(m)])))
    kind: Literal["luck", "unknown"] = "luck" if could / n < THRESHOLDS["inaccuracy"] - _EPS else "unknown"
    return LossVerdict(kind, n, won_before, played_won, best, kept_won, exact=exact, undecided=undecided)


def _verdict(found: Solution) -> tuple[str, str | None]:
    """A deal's verdict (won, lost, unknown) and the first move of its win."""
    return verdict_of(found.outcome), str(found.moves[0]) if found.outcome == "solved" and found.moves else None


def _before_and_played(
    dealt: list[Position],
    moved: list[Position],
    played: str,
    max_states: int | None,
    search: Callable[[Position, int | None], Solution],
    left: Callable[[], float],
) -> tuple[list[tuple[str, str | None]], list[str]]:
    """Each deal's verdict before the move (with the first move of its win) and after the move played, as far as
    the bound on what another move could keep needs them: a deal lost before it, or won after it, is settled (lost
    after it, won before it). The rest are searched in rounds, each with :data:`ROUND` times the positions of the
    one before (from :data:`~patiencelab.review.chances.DEFAULT_SAMPLE_STATES` up to ``ESCALATE`` times
    ``max_states``), until the deals left open are too few to keep an inaccuracy's worth more (bad luck, told from
    the move played alone), or the positions ``left()`` are spent.
    """
    n = len(dealt)
    before: list[tuple[str, str | None]] = [("unknown", None)] * n
    mine = ["unknown"] * n

    def open_deals() -> int:
        return sum(b != "lost" and a != "won" for (b, _), a in zip(before, mine, strict=True))

    def settled() -> bool:
        return open_deals() / n < THRESHOLDS["inaccuracy"] - _EPS or left() <= 0

    states = None if max_states is None else min(max_states, DEFAULT_SAMPLE_STATES)
    cap = None if max_states is None else ESCALATE * max_states
    while True:
        for i in range(n):
            if before[i][0] == "lost" or mine[i] == "won":
                continue
            budget = None if states is None else int(min(states, max(DEFAULT_SAMPLE_STATES, left())))
            if before[i][0] == "unknown":
                before[i] = _verdict(search(dealt[i], budget))
                if before[i][0] == "lost":
                    mine[i] = "lost"  # lost before it: lost after every move
                elif before[i] == ("won", played):
                    mine[i] = "won"  # its win starts with the move played
            if mine[i] == "unknown" and before[i][0] != "lost":
                mine[i] = _verdict(search(moved[i], budget))[0]
                if mine[i] == "won":
                    before[i] = ("won", played)  # a win after the move is one before it
            if settled():
                return before, mine
        moved_away = sum(b == "won" and a == "lost" for (b, _), a in zip(before, mine, strict=True))
        if states is None or cap is None or states >= cap or moved_away / n >= THRESHOLDS["inaccuracy"] - _EPS:
            return before, mine  # the move played lost an inaccuracy's worth: the other moves must tell
        states = min(cap, ROUND * states)
