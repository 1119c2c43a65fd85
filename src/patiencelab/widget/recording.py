"""Recording a lesson by playing it: :class:`LessonRecorder` follows a board's game from a position on, and
each move played becomes a step that takes a note, marks and a quiz (pure Python, no widget library).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from patiencelab.core.errors import PatienceError
from patiencelab.core.game import Klondike
from patiencelab.core.i18n import message
from patiencelab.core.limits import check_text
from patiencelab.core.marks import MAX_MARKS, Mark
from patiencelab.core.moves import Move
from patiencelab.lessons.format import MAX_STEPS, Lesson, Quiz, Step, text_in
from patiencelab.widget.state import RecordState

__all__ = ["MAX_NOTE", "MAX_TITLE", "LessonRecorder"]

#: The longest note a recorded step may carry (characters).
MAX_NOTE = 500
#: The longest title a recorded lesson may carry (characters).
MAX_TITLE = 120


@dataclass
class _Draft:
    """A recorded step, still to be edited: ``before`` counts the moves played before it."""

    move: Move
    before: int
    illegal: bool = False
    note: dict[str, str] = field(default_factory=dict)
    marks: list[Mark] = field(default_factory=list)
    quiz: Quiz | None = None

    def step(self) -> Step:
        return Step(self.move, dict(self.note) or None, self.illegal, tuple(self.marks), self.quiz)


class LessonRecorder:
    """A lesson recorded by playing it: it starts at ``game``'s position, and each move played on ``game`` from
    then on becomes a step (:meth:`follow` reads them from the game's history, so moves scripted from Python
    count too, and an undo takes its step back). A move the rules reject becomes an illegal step
    (:meth:`illegal`, with the rule's reason as its note). The last step takes a note, marks and a quiz;
    :meth:`lesson` makes the :class:`~patiencelab.lessons.Lesson`.
    """

    def __init__(self, game: Klondike, title: str) -> None:
        if not isinstance(game, Klondike):
            raise PatienceError(f"a recording needs a Klondike game, not {type(game).__name__}")
        self.title: str | dict[str, str] = title
        #: Whether the teacher typed the title (else it is the default, "Recorded lesson").
        self.titled = False
        self.rules = game.rules
        self.lang = game.lang
        self.position = game.position_json()
        self.base = game.history
        self.steps: list[_Draft] = []

    @property
    def moves(self) -> int:
        """The moves played since the recording started."""
        return sum(not s.illegal for s in self.steps)

    def follow(self, game: Klondike) -> bool:
        """Take ``game``'s history as the recorded moves: a move undone drops its step (and the illegal steps
        recorded after it), a new move adds one. ``False`` when the game went back before the recording's start
        (a restart) and can no longer be followed.
        """
        history = game.history
        if history[: len(self.base)] != self.base:
            return False
        moves = history[len(self.base) :]
        legal = [s.move for s in self.steps if not s.illegal]
        common = 0
        while common < min(len(legal), len(moves)) and legal[common] == moves[common]:
            common += 1
        if common == len(legal) == len(moves):
            return True
        kept: list[_Draft] = []
        count = 0
        for draft in self.steps:
            if draft.illegal:
                if draft.before <= common:
                    kept.append(draft)
            elif count < common:
                kept.append(draft)
                count += 1
        kept += [_Draft(move, common + i) for i, move in enumerate(moves[common:])]
        self.steps = kept[:MAX_STEPS]  # moves past a full recording are played, not recorded (see is_full)
        return True

    @property
    def is_full(self) -> bool:
        """True when the recording holds :data:`~patiencelab.lessons.MAX_STEPS` steps: it takes no more."""
        return len(self.steps) >= MAX_STEPS

    def illegal(self, game: Klondike, move: Move) -> None:
        """Record ``move``, which the rules reject on ``game``, as an illegal step noted with the rule's reason
        in ``game``'s language.
        """
        self.follow(game)
        error = game.check(move)
        if error is None:
            raise PatienceError(f"{move} is allowed here: play it to record it")
        if len(self.steps) >= MAX_STEPS:
            raise PatienceError(message("record.full", game.lang, most=MAX_STEPS))
        self.steps.append(_Draft(move, self.moves, illegal=True, note={game.lang: error.reason}))

    def drop_illegal(self) -> bool:
        """Drop the last step when it is an illegal one (an undo while recording); ``True`` when one was."""
        if self.steps and self.steps[-1].illegal:
            self.steps.pop()
            return True
        return False

    def _last(self, lang: str) -> _Draft:
        if not self.steps:
            raise PatienceError(message("record.no-step", lang))
        return self.steps[-1]

    def set_title(self, text: object, lang: str) -> None:
        """The lesson's title in ``lang``, as the teacher typed it (at most :data:`MAX_TITLE` characters; empty
        text gives back the default title, "Recorded lesson").
        """
        if not isinstance(text, str) or len(text) > MAX_TITLE:
            raise PatienceError(f"a title is text of at most {MAX_TITLE} characters")
        text = " ".join(text.split())
        self.title = {lang: text} if text else message("record.title", lang)
        self.titled = bool(text)

    def set_note(self, text: object, lang: str) -> None:
        """The last step's note in ``lang`` (at most :data:`MAX_NOTE` characters; empty text removes it)."""
        text = check_text(text, MAX_NOTE, "a note")
        draft = self._last(lang)
        text = text.strip()
        if text:
            draft.note[lang] = text
        else:
            draft.note.pop(lang, None)

    def toggle_mark(self, mark: Mark, lang: str = "en") -> None:
        """Add ``mark`` to the last step, or take it away when the step has it already (as on Lichess)."""
        draft = self._last(lang)
        same = [m for m in draft.marks if (m.at, m.to) == (mark.at, mark.to)]
        for old in same:
            draft.marks.remove(old)
        if same and same[0].color == mark.color:
            return
        if len(draft.marks) >= MAX_MARKS:
            raise PatienceError(message("record.too-many-marks", lang, most=MAX_MARKS))
        draft.marks.append(mark)

    def clear_marks(self, lang: str = "en") -> None:
        """Take every mark off the last step."""
        self._last(lang).marks.clear()

    def set_quiz(self, kind: Literal["move", "winnable"] | None, lang: str = "en") -> None:
        """Make the last step a quiz that accepts its move (``move``) or any move that keeps the deal winnable
        (``winnable``), or a plain step again (``None``).
        """
        draft = self._last(lang)
        if kind is not None and draft.illegal:
            raise PatienceError(message("record.quiz-illegal", lang))
        draft.quiz = None if kind is None else Quiz(winnable=kind == "winnable")

    def lesson(self) -> Lesson:
        """The recorded lesson."""
        return Lesson(
            title=self.title,
            steps=tuple(d.step() for d in self.steps),
            rules=self.rules,
            position=self.position,
            lang=self.lang,
        )

    def synced_part(self, lang: str) -> RecordState:
        """The ``recording`` part of the widget's synced state."""
        last = self.steps[-1] if self.steps else None
        quiz: Literal["move", "winnable"] | None = None
        if last is not None and last.quiz is not None:
            quiz = "winnable" if last.quiz.winnable else "move"
        return {
            "steps": len(self.steps),
            "title": (text_in(self.title, lang, self.lang) or "") if self.titled else "",
            "note": (text_in(last.note, lang, self.lang) or "") if last else "",
            "note_lang": lang,
            "illegal": bool(last and last.illegal),
            "quiz": quiz,
            "can_quiz": bool(last and not last.illegal),
            "marks": [m.to_json() for m in last.marks] if last else [],
        }
