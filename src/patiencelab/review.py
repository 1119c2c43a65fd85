"""Game review: the first move after which a deal could no longer be won, and a move that would have kept it
winnable, the way a chess engine marks the mistake.

Winnability along a game's history only goes from winnable to lost: a winning line from a later position is
one from the earlier position too (play the moves between first). So a binary search over the history finds
the losing move with about log2(moves) solver calls. Each call has a state budget, so every machine gives the
same review; a position the solver cannot decide within it is reported as unknown, never guessed.

The solver knows every face-down card, so a review is no player's judgement: a move it names as the one that
lost the deal may have been the best a player could see. Every sentence of a review that comes from the solver
(all but the one of a won game) ends by saying so: "(This is a second opinion from the solver, which knows the
face-down cards.)". The board shows a review only when the player asks for it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from patiencelab.core.errors import PatienceError
from patiencelab.core.game import Klondike
from patiencelab.core.i18n import check_language, message
from patiencelab.core.limits import check_budget
from patiencelab.core.moves import Move
from patiencelab.narration import move_phrase
from patiencelab.solver import solve

if TYPE_CHECKING:
    from patiencelab.solver import Outcome

__all__ = ["DEFAULT_MAX_STATES", "Review", "ReviewOutcome", "review"]

#: Positions each solver call of a review may search.
DEFAULT_MAX_STATES = 200_000

#: What a review found (see :class:`Review`).
ReviewOutcome = Literal["lost", "never-winnable", "winnable", "won", "unknown"]


@dataclass(frozen=True, slots=True)
class Review:
    """What :func:`review` found.

    ``outcome``: ``lost`` (``losing`` names the move after which the deal could no longer be won),
    ``never-winnable`` (lost from the start), ``winnable`` (it can still be won from the last position),
    ``won``, or ``unknown`` (a position the search needed was not decided within the budget).
    ``verdicts`` holds each position the solver decided or gave up on, by the number of moves played to reach
    it. ``better`` is a move that keeps the deal winnable from the position before the losing move, and
    ``line`` a whole winning line from there (it starts with ``better``).
    """

    outcome: ReviewOutcome
    moves: int
    verdicts: tuple[tuple[int, Outcome], ...]
    losing: int | None = None
    losing_move: Move | None = None
    better: Move | None = None
    line: tuple[Move, ...] = ()
    calls: int = 0
    #: The sentence of the review, in the language the game had when it was reviewed; labelled as the solver's
    #: second opinion, which knows the face-down cards (but for a won game).
    text: str = ""

    @property
    def at(self) -> int:
        """The number of moves played to the position the review speaks of: the one before the losing move, or
        the last one when no move lost the deal.
        """
        return self.losing - 1 if self.losing is not None else self.moves


def review(game: Klondike, *, max_states: int | None = DEFAULT_MAX_STATES, seconds: float = math.inf) -> Review:
    """Review ``game``'s history (see the module's docstring); the game is not changed.

    At most ``ceil(log2(moves)) + 2`` solver calls, each searching at most ``max_states`` positions.
    """
    if not isinstance(game, Klondike):
        raise PatienceError(f"review needs a Klondike game, not {type(game).__name__}")
    check_budget(max_states, seconds)
    history = game.history
    n = len(history)
    lang = check_language(game.lang)
    record = game.record()
    verdicts: dict[int, Outcome] = {}
    solutions: dict[int, tuple[Move, ...]] = {}

    def at(k: int) -> Klondike:
        replay = Klondike.from_record({**record, "moves": [str(m) for m in history[:k]]})
        replay.lang = lang
        return replay

    def decide(k: int) -> Outcome:
        position = at(k)
        solution = solve(position.snapshot(), position.rules, seconds=seconds, max_states=max_states)
        verdicts[k] = solution.outcome
        solutions[k] = solution.moves
        return solution.outcome

    def done(outcome: ReviewOutcome, key: str) -> Review:
        text = message(key, lang) if outcome == "won" else _peeking(message(key, lang), lang)
        return Review(outcome, n, tuple(sorted(verdicts.items())), calls=len(verdicts), text=text)

    if game.is_won:
        return done("won", "review.won")
    last = decide(n)
    if last == "solved":
        return done("winnable", "review.winnable")
    if last == "unknown":
        return done("unknown", "review.unknown")
    lo, hi = 0, n  # lost at hi; lo is winnable once decided (position 0 is asked last, when needed)
    while hi - lo > 1:
        mid = (lo + hi) // 2
        outcome = decide(mid)
        if outcome == "unknown":
            return done("unknown", "review.unknown")
        if outcome == "solved":
            lo = mid
        else:
            hi = mid
    if hi == 0:  # no moves, and the deal was lost from the start
        return done("never-winnable", "review.never")
    if lo not in verdicts:
        outcome = decide(lo)
        if outcome == "unknown":
            return done("unknown", "review.unknown")
        if outcome == "impossible":
            return done("never-winnable", "review.never")
    before = at(lo)
    losing_move = history[hi - 1]
    line = solutions[lo]
    better = line[0]
    text = _peeking(
        " ".join(
            (
                message("review.lost", lang, after=move_phrase(before, losing_move, "review.after"), number=hi),
                message("review.better", lang, move=move_phrase(before, better)),
            )
        ),
        lang,
    )
    return Review("lost", n, tuple(sorted(verdicts.items())), hi, losing_move, better, line, len(verdicts), text)


def _peeking(text: str, lang: str) -> str:
    """``text``, a verdict of the solver, labelled as one that knows the face-down cards."""
    return f"{text} {message('review.peeks', lang)}"
