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

Cheap where it can be: a deal lost before the move is lost after every move, and a deal won by a line that starts
with a move is won after that move; only the others are solved again, once a move, and a search left undecided is
made again with :data:`~patiencelab.review.chances.ESCALATE` times the positions, while the ``max_positions`` of
the whole judgement last (counted as searched); once they are spent each deal gets
:data:`~patiencelab.review.chances.DEFAULT_SAMPLE_STATES` at most.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal

from patiencelab.core.limits import check_instance, check_seed, check_states, check_whole
from patiencelab.core.marks import ReviewLabel
from patiencelab.core.moves import Move
from patiencelab.core.position import Position
from patiencelab.core.view import PlayerView
from patiencelab.players import legal_moves
from patiencelab.players.sampling import after, deals, solve_deal
from patiencelab.review.chances import DEFAULT_SAMPLE_STATES, ESCALATE, SIGNIFICANCE, THRESHOLDS
from patiencelab.solver.search import Solution
from patiencelab.stats import sign_test

__all__ = ["LossVerdict", "judge_loss"]

_EPS = 1e-9


@dataclass(frozen=True, slots=True)
class LossVerdict:
    """What the move that lost the game was: ``kind`` ``mistake`` (its ``label`` by the drop, as a marked move's),
    ``luck`` or ``unknown`` (the ``undecided`` verdicts left the question open); of the ``samples`` deals
    consistent with what the player saw before it, ``mine`` were won after it, ``kept`` after ``better`` (the other
    move that kept the most; ``None`` when it was the only legal move), and ``won`` before it. ``exact``: every
    order of the unseen cards was solved.
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
) -> LossVerdict:
    """The verdict on ``played`` from ``view`` (the player's view before it): see the module's documentation."""
    check_instance(view, "view", PlayerView)
    check_instance(played, "played", Move)
    check_whole(samples, "samples", low=1)
    check_states(max_states)
    check_seed(seed)
    check_states(max_positions, "max_positions")
    dealt, exact = deals(view, samples, seed)
    spent = 0

    def left() -> float:
        return math.inf if max_positions is None else max_positions - spent

    def search(position: Position, states: int | None) -> Solution:
        nonlocal spent
        found = solve_deal(position, view.rules, states, math.inf)
        spent += found.states
        return found

    def decide(position: Position) -> tuple[str, str | None]:
        """The deal's verdict (won, lost, unknown) and the first move of its win, a larger search where undecided."""
        floor = None if max_states is None else min(max_states, DEFAULT_SAMPLE_STATES)
        found = search(position, max_states if left() > 0 else floor)
        if found.outcome == "unknown" and max_states is not None and floor is not None:
            deeper = int(max(ESCALATE * floor, min(ESCALATE * max_states, left())))
            if deeper > found.states:
                found = search(position, deeper)
        verdict = "won" if found.outcome == "solved" else "lost" if found.outcome == "impossible" else "unknown"
        return verdict, str(found.moves[0]) if found.outcome == "solved" and found.moves else None

    moves = [m for m in legal_moves(view) if str(m) != str(played)]
    rules = view.rules
    n = len(dealt)
    # per deal: won / lost / unknown before the move, after the move played and after each other move
    before: list[str] = []
    mine: list[str] = []
    others: dict[str, list[str]] = {str(m): [] for m in moves}
    for deal in dealt:
        here, first = decide(deal)
        before.append(here)
        for move, verdicts in [(str(played), mine), *((str(m), others[str(m)]) for m in moves)]:
            if here == "lost":
                verdicts.append("lost")
            elif here == "won" and first == move:
                verdicts.append("won")
            else:
                verdicts.append(decide(after(deal, rules, (Move.parse(move),)))[0])
    won_before = sum(b == "won" for b in before)
    played_won = sum(a == "won" for a in mine)
    if not moves:
        return LossVerdict("luck", n, won_before, played_won, None, 0, exact=exact)
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
