"""Judging the class's answer to a quiz step: the rules first (an illegal move says which rule it breaks), then the
step's own right answers, then the solver: fairly, on deals of the cards the class cannot see, or on the deal as it
lies. :meth:`~patiencelab.lessons.format.Lesson.judge` finds the step and its position and asks here.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

from patiencelab.core.game import Klondike
from patiencelab.core.i18n import message
from patiencelab.core.moves import Move

__all__ = ["FAIR_SAMPLES", "Answer", "judge_answer"]

#: Sampled deals of the unseen cards a fair quiz judgement solves (for the answer and for the step's move).
FAIR_SAMPLES = 16


@dataclass(frozen=True, slots=True)
class Answer:
    """How a quiz step judged a move: ``right``, ``illegal`` (with the rule's reason), ``loses`` (the deal can
    no longer be won after it), or ``other`` (legal, but not what the step asks); ``text`` says so in the
    lesson's language.
    """

    verdict: Literal["right", "illegal", "loses", "other"]
    text: str

    @property
    def is_right(self) -> bool:
        """True for a right answer."""
        return self.verdict == "right"


def judge_answer(
    game: Klondike,
    move: Move | str,
    asked: Move,
    accept: Iterable[Move],
    *,
    winnable: bool,
    max_states: int | None,
    peek: bool,
    lang: str,
) -> Answer:
    """Judge ``move`` as the answer to a quiz on ``game`` (the position before the step, played on if need be) whose
    step plays ``asked`` and which accepts ``accept`` too, and with ``winnable`` any move that keeps the deal
    winnable; in ``lang``. Fair while cards are face down, unless ``peek``: see
    :meth:`~patiencelab.lessons.format.Lesson.judge`, which checks the arguments.
    """
    error = game.check(move)
    if error is not None:
        return Answer("illegal", message("quiz.illegal", lang, reason=error.reason))
    resolved = game.parse_move(move)
    right = {game.parse_move(m) for m in (asked, *accept)}
    if resolved in right:
        return Answer("right", message("quiz.right", lang))
    if (winnable or max_states is not None) and not peek and game.player_view().hidden_places:
        return _judge_fairly(game, resolved, game.parse_move(asked), winnable, max_states, lang)
    if winnable or max_states is not None:
        from patiencelab.solver import solve

        game.play(resolved)
        outcome = solve(game.snapshot(), game.rules, seconds=math.inf, max_states=max_states).outcome
        if outcome == "impossible":
            return Answer("loses", message("quiz.loses", lang))
        if outcome == "solved" and winnable:
            return Answer("right", message("quiz.right-winnable", lang))
    return Answer("other", message("quiz.other", lang))


def _judge_fairly(
    game: Klondike, answer: Move, asked: Move, winnable: bool, max_states: int | None, lang: str
) -> Answer:
    """:func:`judge_answer` from what the class can see: the answer against the step's move on the same deals."""
    from patiencelab.players import keeps_winnable

    budget = None if max_states is None else max(1, max_states // (2 * FAIR_SAMPLES))
    (mine, theirs), samples = keeps_winnable(
        game.player_view(), [answer, asked], samples=FAIR_SAMPLES, max_states=budget
    )
    if winnable and mine.won > 0 and mine.won >= theirs.won:
        return Answer("right", message("quiz.right-fair", lang, kept=mine.won, samples=samples))
    if mine.lost == samples:
        return Answer("loses", message("quiz.loses-fair", lang, samples=samples))
    # how it compares, on the same deals: the answer is legal, so the class may weigh it against the move asked
    return Answer("other", message("quiz.other-fair", lang, mine=mine.won, kept=theirs.won, samples=samples))
