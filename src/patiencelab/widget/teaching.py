"""Stepping through a lesson in the widget: where the lesson stands, its caption and highlight, and whether the
teacher has taken over by hand. Recording a lesson by playing it (:class:`LessonRecorder`) is in
:mod:`patiencelab.widget.recording`; its names are here too.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from patiencelab.core.cards import Card, Suit
from patiencelab.core.errors import PatienceError, quote
from patiencelab.core.game import Klondike
from patiencelab.core.i18n import message
from patiencelab.core.marks import MAX_MARKS, arrow_for, is_pile, pile_of
from patiencelab.core.moves import Move
from patiencelab.core.narration import narrate_played
from patiencelab.lessons.format import Lesson, Quiz, Step, text_in
from patiencelab.lessons.judge import Answer
from patiencelab.widget.intents import LESSON_ACTIONS, RECORD_ACTIONS, face_up_cards
from patiencelab.widget.protocol import move_ends
from patiencelab.widget.recording import MAX_NOTE, MAX_TITLE, LessonRecorder
from patiencelab.widget.state import Highlight, LessonState

__all__ = ["ACTIONS", "MARK_ACTIONS", "MAX_NOTE", "MAX_TITLE", "RECORD_ACTIONS", "LessonPlayer", "LessonRecorder"]

#: The actions of a ``lesson`` intent (see :data:`~patiencelab.widget.intents.LESSON_ACTIONS`).
ACTIONS = LESSON_ACTIONS
#: The actions that move to a review's marked move.
MARK_ACTIONS = ("next-mark", "prev-mark")


class LessonPlayer:
    """A lesson being stepped through: ``step`` steps of it are shown (0 to ``len(lesson.steps)``)."""

    def __init__(self, lesson: Lesson) -> None:
        if not isinstance(lesson, Lesson):
            raise PatienceError(f"a lesson must be a Lesson, not {type(lesson).__name__}")
        self.lesson = lesson
        self.step = 0
        self.playing = False
        self.pace = 2.0
        game = lesson.start()
        # the steps in place form; None for an illegal step, which is shown but not played
        self.path: list[Move | None] = [None if s.illegal else game.play(s.move) for s in lesson.steps]
        self._captions: dict[tuple[int, str], tuple[str, Highlight]] = {}
        #: Quiz steps answered (right or shown after the last try), right answers, wrong tries at this step.
        self.asked = 0
        self.right = 0
        self.tries = 0
        #: The verdict on the last answer, said on the board.
        self.answer: Answer | None = None
        #: The quiz step whose move was shown after the last try went wrong (drawn with an arrow).
        self.shown: int | None = None
        chart = lesson.chart
        #: The steps of a game review's lesson that carry the review's words (they lead the caption box there):
        #: its marked moves', its second opinion's, and every other step with a note (the verdict on the losing
        #: move, the position from which the deal was lost).
        noted = (k for k, step in enumerate(lesson.steps, 1) if step.note is not None)
        self.review_steps: frozenset[int] = frozenset(
            () if chart is None else (*chart.mark_steps(), *(() if chart.opinion is None else (chart.opinion,)), *noted)
        )
        self._chart = chart.to_wire() if chart is not None else None
        self._has_quiz = any(s.quiz is not None for s in lesson.steps)

    @property
    def quiz(self) -> Quiz | None:
        """The quiz of the next step while the board waits for the class's answer to it, else ``None``."""
        if self.step >= self.steps:
            return None
        return self.lesson.steps[self.step].quiz

    def answer_quiz(self, move: Move, game: Klondike, max_states: int | None, lang: str) -> Answer:
        """Judge ``move`` as the class's answer to the quiz waiting on ``game`` (see :meth:`Lesson.judge`).

        A right answer, or the last try gone wrong, plays the step's own move on ``game`` (the lesson goes on
        along its line); a wrong one leaves the game as it is.
        """
        self.check_waiting(game)
        answer = self.lesson.judge(self.step + 1, move, max_states=max_states, lang=lang)
        return self.take_answer(self.word_answer(answer, game, lang), game)

    def is_waiting(self, game: Klondike) -> bool:
        """True when the next step is a quiz and ``game`` is still on the lesson's path: a move is an answer.
        Once the teacher takes the step over (an undo, a move by hand), moves are played as usual.
        """
        return self.quiz is not None and not self.is_taken_over(game)

    def check_waiting(self, game: Klondike) -> Quiz:
        """The quiz waiting for an answer on ``game``; :class:`PatienceError` when none is."""
        quiz = self.quiz
        if quiz is None or self.is_taken_over(game):
            raise PatienceError("the lesson is not waiting for an answer")
        return quiz

    def needs_solver(self, move: Move, game: Klondike, max_states: int | None) -> bool:
        """Whether judging ``move`` asks the solver (a legal move the step does not list), which may take long."""
        quiz = self.check_waiting(game)
        if game.check(move) is not None:
            return False
        step = self.lesson.steps[self.step]
        right = {game.parse_move(m) for m in (step.move, *quiz.accept)}
        return game.parse_move(move) not in right and (quiz.winnable or max_states is not None)

    def word_answer(self, answer: Answer, game: Klondike, lang: str) -> Answer:
        """``answer`` as the board says it, in ``lang``: a wrong one with tries left asks for another try; the
        last try gone wrong says that the board plays the step's own move.
        """
        quiz = self.check_waiting(game)
        if answer.is_right:
            return answer
        last = self.tries + 1 >= quiz.tries
        return replace(answer, text=message("quiz.shown" if last else "quiz.try-again", lang, answer=answer.text))

    def take_answer(self, answer: Answer, game: Klondike) -> Answer:
        """Count ``answer`` to the waiting quiz; a right one, or the last try gone wrong, plays the step's move."""
        quiz = self.check_waiting(game)
        self.tries += not answer.is_right
        done = answer.is_right or self.tries >= quiz.tries
        self.answer = answer
        if done:
            self.asked += 1
            self.right += answer.is_right
            self.tries = 0
            self.step += 1
            self.shown = None if answer.is_right else self.step
            played = self.path[self.step - 1]
            assert played is not None  # a quiz step is a legal move
            game.play(played)
        return answer

    @property
    def steps(self) -> int:
        """The number of steps."""
        return len(self.path)

    def game_at(self, step: int, lang: str) -> Klondike:
        """A fresh game showing ``step`` steps, in ``lang``."""
        game = self.lesson.game_at(step)
        game.lang = lang
        return game

    def played(self, step: int) -> list[Move]:
        """The moves played in the first ``step`` steps."""
        return [m for m in self.path[:step] if m is not None]

    def is_taken_over(self, game: Klondike) -> bool:
        """True when ``game`` left the lesson's path (the teacher played on by hand)."""
        return list(game.history) != self.played(self.step)

    def act(self, action: str, game: Klondike, lang: str) -> Klondike | bool:
        """Carry out a step control on ``game``, the lesson's game on the board.

        ``forward`` and ``back`` play the step's move on ``game`` or take it back (``True``: the game changed and
        told its listeners); while playing, ``forward`` waits at a quiz step until the class answered it;
        ``play``, ``pause`` and a step that is shown but not played change only the lesson's state (``False``);
        ``first``, ``last`` and ``resume`` return a fresh game to show, in ``lang``. ``close`` is the board's to
        carry out. Raises :class:`PatienceError` for an action that can't be taken now.
        """
        if action not in ACTIONS or action in ("pace", "close", "goto"):
            raise PatienceError(f"unknown lesson action {quote(action)}: choose one of {', '.join(ACTIONS[:-3])}")
        if action in MARK_ACTIONS:
            step = self.mark_step(action)
            return False if step is None else self.goto(step, lang)
        if action in ("play", "pause"):
            self.playing = action == "play" and self.step < self.steps
            return False
        if action != "resume" and self.is_taken_over(game):
            raise PatienceError(message("lesson.taken-over", lang))
        if action == "forward":
            if self.playing and self.quiz is not None:
                return False  # playing waits at a quiz until it is answered (or its move shown)
            if self.step >= self.steps:
                raise PatienceError(message("lesson.at-last", lang))
            self.step += 1
            self.playing = self.playing and self.step < self.steps
            move = self.path[self.step - 1]
            if move is None:  # an illegal step is shown, not played
                return False
            game.play(move)
            return True
        if action == "back":
            if self.step == 0:
                raise PatienceError(message("lesson.at-first", lang))
            self.step -= 1
            if self.path[self.step] is None:
                return False
            game.undo()
            return True
        self.step = {"first": 0, "last": self.steps}.get(action, self.step)
        self.playing = False
        return self.game_at(self.step, lang)

    def goto(self, step: object, lang: str) -> Klondike:
        """Show step ``step`` (0 to :attr:`steps`, whether or not the teacher took the lesson over): a fresh game
        showing it, in ``lang``.
        """
        if not isinstance(step, int) or isinstance(step, bool) or not 0 <= step <= self.steps:
            raise PatienceError(f"step must be a whole number from 0 to {self.steps}, not {quote(step)}")
        self.step = step
        self.playing = False
        return self.game_at(step, lang)

    def mark_step(self, action: str) -> int | None:
        """The step of the next marked move after the step shown (``next-mark``) or the previous one before it
        (``prev-mark``), or ``None`` when there is none; :class:`PatienceError` for a lesson with no chart.
        """
        chart = self.lesson.chart
        if chart is None:
            raise PatienceError("this lesson is no game review: it has no marked moves to step through")
        steps = chart.mark_steps()
        if action == "next-mark":
            return next((s for s in steps if s > self.step), None)
        return next((s for s in reversed(steps) if s < self.step), None)

    def set_pace(self, pace: object) -> None:
        """Seconds per step while playing, 0.5 to 10."""
        if not isinstance(pace, (int, float)) or isinstance(pace, bool) or not 0.5 <= pace <= 10:
            raise PatienceError(f"pace must be a number of seconds from 0.5 to 10, not {quote(pace)}")
        self.pace = float(pace)

    def caption(self, lang: str) -> tuple[str, Highlight]:
        """The narration of the step shown (or the intro) and the cards and pile to highlight."""
        key = (self.step, lang)
        if key not in self._captions:
            self._captions[key] = self._make_caption(lang)
        return self._captions[key]

    def _make_caption(self, lang: str) -> tuple[str, Highlight]:
        if self.step == 0:
            intro = text_in(self.lesson.intro, lang, self.lesson.lang)
            return intro or message("lesson.start", lang), {"cards": [], "to": None}
        step = self.lesson.steps[self.step - 1]
        if step.illegal:
            before = self.game_at(self.step - 1, lang)
            cards = _named_cards(before, step.move)
            to = pile_of(step.move.target, cards[0] if cards else None)
            return before.explain(step.move), {"cards": cards, "to": to}
        after = self.game_at(self.step, lang)
        played = after.last_played()
        assert played is not None
        move = played.move
        cards = [] if move.is_draw else [str(c) for c in played.cards]
        return narrate_played(after, played), {"cards": cards, "to": move_ends(move, cards)[1]}

    def synced_part(self, game: Klondike, lang: str) -> LessonState:
        """The ``lesson`` part of the widget's synced state."""
        taken_over = self.is_taken_over(game)
        caption, highlight = self.caption(lang)
        if taken_over:
            caption, highlight = message("lesson.taken-over", lang), {"cards": [], "to": None}
        note = text_in(self.lesson.steps[self.step - 1].note, lang, self.lesson.lang) if self.step else None
        quiz = None if taken_over else self.quiz
        if quiz is not None:
            left = quiz.tries - self.tries
            caption, highlight = message("lesson.quiz-question", lang, tries=left), {"cards": [], "to": None}
        shown = self.lesson.steps[self.step - 1] if self.step and not taken_over else None
        return {
            "title": text_in(self.lesson.title, lang, self.lesson.lang) or "",  # a title has some text
            "step": self.step,
            "steps": self.steps,
            "caption": caption,
            "note": None if taken_over else note,
            "playing": self.playing and not taken_over,
            "pace": self.pace,
            "taken_over": taken_over,
            "highlight": highlight,
            "marks": self._marks(shown, game),
            "review": self.step in self.review_steps and not taken_over,
            "chart": self._chart,
            "quiz": None
            if not self._has_quiz
            else {
                "waiting": quiz is not None,
                "tries_left": quiz.tries - self.tries if quiz is not None else 0,
                "right": self.right,
                "asked": self.asked,
                "score": message("lesson.quiz-score", lang, right=self.right, asked=self.asked),
            },
        }

    def _marks(self, shown: Step | None, game: Klondike) -> list[dict[str, Any]]:
        """The marks of the step shown, but a circle on a card that does not lie face up on ``game`` (nothing of
        a face-down card leaves the kernel); a quiz step whose move was shown after the last wrong try gets an
        arrow along that move.
        """
        if shown is None:
            return []
        seen = face_up_cards(game)
        marks = [m.to_json() for m in shown.marks if m.to is not None or is_pile(m.at) or m.at in seen]
        move = self.path[self.step - 1]
        if self.shown == self.step and move is not None:
            cards = self.lesson.game_at(self.step - 1).moving_cards(move)
            arrow = arrow_for(move, str(cards[0]) if cards else None).to_json()
            if arrow not in marks and len(marks) < MAX_MARKS:
                marks.append(arrow)
        return marks


def _named_cards(game: Klondike, move: Move) -> list[str]:
    """The card an illegal move tries to move, when it can be seen: the named card, or the top of its source."""
    if move.card is not None:
        return [str(move.card)]
    source = move.source
    if source == "w" and game.waste:
        return [str(game.waste[-1])]
    if source and source[0] == "t" and game.tableau[int(source[1]) - 1].top is not None:
        return [str(game.tableau[int(source[1]) - 1].top)]
    if source and source[0] == "f" and game.foundations[Suit(source[1])]:
        return [str(Card(game.foundations[Suit(source[1])], Suit(source[1])))]
    return []
