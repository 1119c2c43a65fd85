"""A reviewed game as a lesson: the review's sentences on the steps they speak of, its chart beside them."""

from __future__ import annotations

from typing import TYPE_CHECKING

from patiencelab.core.game import Klondike
from patiencelab.core.limits import check_instance
from patiencelab.core.marks import Mark, arrow_for
from patiencelab.lessons import Lesson, Step

if TYPE_CHECKING:
    from patiencelab.lessons.format import Text
    from patiencelab.review import Review

__all__ = ["lesson_of"]


def lesson_of(game: Klondike, found: Review, *, title: Text) -> Lesson:
    """The lesson of ``game`` as played, the whole game, with the chart of ``found``, its review (see
    :func:`patiencelab.review.review`): each marked move's sentence on the step that shows it (the position
    before a move judged by its choice, with an arrow along the fair player's better move; the position
    after a move whose cards were bad luck), the sentence on the position from which the deal was lost for
    every order (or no deal tried was won) on that step, the solver's second opinion on the step it speaks of
    (``Review.at``, with an arrow along its move that keeps the deal winnable), the verdict on the losing move on
    the next step (the one that shows that move played; a caption holding both was too tall for a phone and a
    projector) and the summary in the intro (with whatever speaks of the start).
    """
    moves = check_instance(game, "game", Klondike).history
    notes: dict[int, list[str]] = {}
    arrows: dict[int, list[Mark]] = {}
    position = game.copy()
    positions: dict[int, Klondike] = {}

    def at(step: int) -> Klondike:
        if step not in positions:
            while position.moves > step:
                position.undo()
            positions[step] = position.copy()
        return positions[step]

    said = [(m.step, m.text, m.better) for m in found.marks]
    if found.loss and found.loss_at is not None:
        said.append((found.loss_at, found.loss, None))
    if found.second_opinion:
        said.append((found.at, found.second_opinion, found.better))
    if found.verdict_text:  # on the step that shows the move judged, so that no caption holds both
        said.append((min(found.at + 1, len(moves)), found.verdict_text, None))
    for step, text, _ in said:
        notes.setdefault(step, []).append(text)
    for step, _, better in sorted(said, key=lambda x: -x[0]):  # from the end: the copy only goes back
        if better is not None and step:  # the start has no step to carry an arrow
            cards = at(step).moving_cards(better)
            arrows.setdefault(step, []).append(arrow_for(better, str(cards[0]) if cards else None))
    steps = [
        Step(move, " ".join(notes[i]) if i in notes else None, marks=tuple(dict.fromkeys(arrows.get(i, ()))))
        for i, move in enumerate(moves, 1)
    ]
    intro = " ".join([found.summary, *notes.get(0, [])]).strip() or None
    record = game.record()
    return Lesson(
        title=title,
        steps=tuple(steps),
        rules=game.rules,
        deal=record.get("deal"),
        position=record.get("position"),
        intro=intro,
        lang=game.lang,
        chart=found.chart(),
    )
