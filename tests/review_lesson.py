"""The shipped review lesson (``src/patiencelab/lessons/review.json``), made again from its game: the deal of seed
17 as played in the lesson, reviewed with the board's budgets (:func:`patiencelab.review.review`'s defaults) and
told in English, Dutch and Swedish (:meth:`~patiencelab.review.Review.lesson` in each language, the notes
of the three put together). ``tests/test_lesson.py`` checks that the shipped file is what this makes; when the
review changes, write it again::

    python -m tests.review_lesson
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from patiencelab import Klondike
from patiencelab.lessons import Lesson, Step
from patiencelab.review import Review, review

#: Where the lesson is shipped.
PATH = Path(__file__).resolve().parents[1] / "src" / "patiencelab" / "lessons" / "review.json"
#: The lesson's title and the words before the review's summary, in each language.
TITLE = {"en": "Review: a lost game", "nl": "Terugblik: een verloren spel", "sv": "Genomgång: ett förlorat parti"}
OPENING = {
    "en": "A lost game, reviewed.",
    "nl": "Een verloren spel, nagekeken.",
    "sv": "Ett förlorat parti, genomgånget.",
}
LANGS = tuple(TITLE)


def lesson_game(lesson: Lesson | None = None) -> Klondike:
    """The game of the shipped lesson, played to its end (in English)."""
    shipped = lesson if lesson is not None else Lesson.builtin("review")
    return shipped.game_at(len(shipped.steps))


def review_lesson(game: Klondike, found: Review | None = None) -> Lesson:
    """The review lesson of ``game``: its review (``found``, else made with the default budgets) in three languages."""
    found = review(game) if found is None else found
    made = {lang: found.retold(game, lang).lesson(game, title=TITLE[lang]) for lang in LANGS}
    first = made[LANGS[0]]
    steps = []
    for number, step in enumerate(first.steps):
        notes = {lang: made[lang].steps[number].note for lang in LANGS}
        text = {lang: str(note) for lang, note in notes.items()} if step.note else None
        steps.append(Step(step.move, text, marks=step.marks))
    intro = {lang: " ".join(str(t) for t in (OPENING[lang], made[lang].intro) if t) for lang in LANGS}
    return Lesson(
        title=TITLE,
        steps=tuple(steps),
        rules=game.rules,
        deal=first.deal,
        intro=intro,
        lang=LANGS[0],
        chart=first.chart,
    )


def main() -> int:
    """Write the shipped review lesson again."""
    lesson = review_lesson(lesson_game())
    PATH.write_text(json.dumps(lesson.to_json(), ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {PATH.name}: {len(lesson.steps)} steps")
    return 0


if __name__ == "__main__":
    sys.exit(main())
