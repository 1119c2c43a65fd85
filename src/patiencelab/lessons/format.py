"""The lesson file format: a start (deal or position), the rules, and steps (a move and an optional teacher's note)
to step through in the widget, forward and back; the dataclasses, their checks, and their JSON files.

The lessons that ship with PatienceLab live inside the package (``patiencelab/lessons/*.json``), so
``Lesson.builtin("traditional")`` loads the same lesson from any folder, in any host (JupyterLite included).
A step may carry marks (arrows and circles, :class:`~patiencelab.core.marks.Mark`) and may ask instead of show
(a :class:`Quiz`: the class plays a move, judged by :meth:`Lesson.judge`, which asks
:mod:`~patiencelab.lessons.judge`). Version 2 of the file format holds
these; version 3 adds the chart of a game review (:class:`ReviewChart`: the player's chances through the game and
the marked moves, which the board draws); every older file reads as it did.
"""

from __future__ import annotations

import importlib.resources
import json
import os
import pathlib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from patiencelab.core.errors import (
    ArgumentTypeError,
    InvalidMoveError,
    InvalidRecordError,
    PatienceError,
    quote,
    unknown_fields,
)
from patiencelab.core.game import Klondike
from patiencelab.core.i18n import LANGUAGES
from patiencelab.core.limits import (
    MAX_JSON_TEXT,
    check_budget,
    check_choice,
    check_instance,
    check_path,
    check_switch,
    check_text,
    check_whole,
    load_json,
)
from patiencelab.core.marks import MAX_MARKS, REVIEW_LABELS, Mark
from patiencelab.core.moves import Move
from patiencelab.core.position import Position
from patiencelab.core.rules import Rules
from patiencelab.lessons.judge import Answer, judge_answer
from patiencelab.stats import WIDE

__all__ = [
    "LESSON_FORMAT",
    "LESSON_VERSION",
    "MAX_REVIEW_STEPS",
    "MAX_STEPS",
    "MAX_TEXT",
    "MAX_TRIES",
    "InvalidLessonError",
    "Lesson",
    "Quiz",
    "ReviewChart",
    "Step",
    "Text",
    "text_in",
]

#: The ``format`` field of a lesson file.
LESSON_FORMAT = "patiencelab-lesson"
#: The version this writes; it reads every version from 1 up to this one.
LESSON_VERSION = 3
#: The most wrong answers a quiz step may allow before it shows its move.
MAX_TRIES = 9
#: The most steps of a lesson with notes, marks or quizzes (and the most a recording holds): a lesson of that many
#: steps, each with the longest notes in every language and the most marks, still saves to a file that
#: :meth:`Lesson.load` reads.
MAX_STEPS = 200
#: The most steps of any lesson: a review's (one with a :class:`ReviewChart`) is the whole game as played, whose
#: steps carry the review's few sentences; a plain one may step through a solver's winning line, which can be
#: longer than :data:`MAX_STEPS`. At most :data:`MAX_STEPS` of them carry notes, marks or quizzes.
MAX_REVIEW_STEPS = 1_000
#: The longest title, intro or note of a lesson, in each language.
MAX_TEXT = 1_000

#: A teacher's text: one string, or one per language (``{"en": ..., "nl": ..., "sv": ...}``).
Text = str | Mapping[str, str]


def text_in(text: Text | None, lang: str, fallback: str = "en") -> str | None:
    """``text`` in ``lang`` (else in ``fallback``, else in any language it has)."""
    check_choice(lang, "language", LANGUAGES)
    check_choice(fallback, "language", LANGUAGES)
    if text is not None and not isinstance(text, (str, Mapping)):
        raise ArgumentTypeError(f"text must be text or a dict of texts by language, not {type(text).__name__}")
    if text is None or isinstance(text, str):
        return text
    return text.get(lang) or text.get(fallback) or next(iter(text.values()), None)


def _check_text(text: object, what: str) -> None:
    """A lesson's text (a title, an intro, a note): valid Unicode of at most :data:`MAX_TEXT` characters, or
    an object of such texts by language.
    """
    if text is None:
        return
    if isinstance(text, str):
        check_text(text, MAX_TEXT, what, InvalidLessonError)
        return
    if not isinstance(text, Mapping) or not text:
        raise InvalidLessonError(f"{what} must be text, or an object of texts by language")
    for lang, value in text.items():
        if not isinstance(lang, str) or lang not in LANGUAGES or not isinstance(value, str):
            raise InvalidLessonError(f"{what}: {quote(lang)} must be one of {', '.join(LANGUAGES)} with a text")
        check_text(value, MAX_TEXT, f"{what} ({lang})", InvalidLessonError)


class InvalidLessonError(InvalidRecordError):
    """A lesson that cannot be read, or whose steps do not replay under its rules."""


@dataclass(frozen=True, slots=True)
class Quiz:
    """A step that asks "What would you play here?" instead of showing its move.

    The step's own move is always a right answer; ``accept`` lists other moves that are right too, and with
    ``winnable`` any move that keeps the deal winnable is right (the solver decides, with a state budget).
    After ``tries`` wrong answers the step's move is shown.
    """

    accept: tuple[Move, ...] = ()
    winnable: bool = False
    tries: int = 2

    def __post_init__(self) -> None:
        if not isinstance(self.accept, (tuple, list)):
            raise InvalidLessonError(f"a quiz's 'accept' must be a list of moves, not {type(self.accept).__name__}")
        object.__setattr__(self, "accept", tuple(Move.parse(m) for m in self.accept))
        check_switch(self.winnable, "a quiz's 'winnable'", InvalidLessonError)
        check_whole(self.tries, "a quiz's 'tries'", low=1, high=MAX_TRIES, error=InvalidLessonError)

    def to_json(self) -> dict[str, Any]:
        """The quiz as JSON (fields with their default values left out)."""
        data: dict[str, Any] = {}
        if self.accept:
            data["accept"] = [str(m) for m in self.accept]
        if self.winnable:
            data["winnable"] = True
        if self.tries != 2:
            data["tries"] = self.tries
        return data

    @classmethod
    def from_json(cls, data: object) -> Quiz:
        """Read what :meth:`to_json` wrote."""
        if not isinstance(data, Mapping):
            raise InvalidLessonError("a quiz must be an object such as {'accept': ['t1-t3'], 'tries': 2}")
        extra = unknown_fields(data, ("accept", "winnable", "tries"))
        if extra:
            raise InvalidLessonError(f"a quiz has unknown field(s): {extra}")
        accept = data.get("accept", [])
        if not isinstance(accept, list) or not all(isinstance(m, str) for m in accept) or len(accept) > 52:
            raise InvalidLessonError("a quiz's 'accept' must be a list of moves in notation")
        return cls(tuple(Move.parse(m) for m in accept), data.get("winnable", False), data.get("tries", 2))


@dataclass(frozen=True, slots=True)
class Step:
    """One step of a lesson: a move, an optional teacher's note, and the marks drawn on the board with it.

    An ``illegal`` step shows a tempting move that the rules forbid: it is not played, and the caption says
    which rule forbids it. A step with a ``quiz`` asks for a move before it shows its own.
    """

    move: Move
    note: Text | None = None
    illegal: bool = False
    marks: tuple[Mark, ...] = ()
    quiz: Quiz | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.move, Move):
            object.__setattr__(self, "move", Move.parse(self.move))
        _check_text(self.note, "a step's note")
        if not isinstance(self.illegal, bool):
            raise InvalidLessonError("a step's 'illegal' must be true or false")
        marks = tuple(self.marks)
        if len(marks) > MAX_MARKS or not all(isinstance(m, Mark) for m in marks):
            raise InvalidLessonError(f"a step's marks must be at most {MAX_MARKS} Mark values")
        object.__setattr__(self, "marks", marks)
        if self.quiz is not None and (not isinstance(self.quiz, Quiz) or self.illegal):
            raise InvalidLessonError("a quiz step must be a legal move with a Quiz")

    def to_json(self) -> dict[str, Any]:
        """The step as JSON (fields with their default values left out)."""
        data: dict[str, Any] = {"move": str(self.move)}
        if self.note:
            data["note"] = self.note
        if self.illegal:
            data["illegal"] = True
        if self.marks:
            data["marks"] = [m.to_json() for m in self.marks]
        if self.quiz is not None:
            data["quiz"] = self.quiz.to_json()
        return data

    @classmethod
    def from_json(cls, item: object, number: int, version: int) -> Step:
        """Read a step of a version-``version`` lesson file."""
        if not isinstance(item, Mapping) or not isinstance(item.get("move"), str):
            raise InvalidLessonError(f"step {number} must be an object with a 'move' in notation")
        extra = unknown_fields(item, ("move", "note", "illegal", *(("marks", "quiz") if version >= 2 else ())))
        if extra:
            raise InvalidLessonError(f"step {number} has unknown field(s): {extra}")
        marks = item.get("marks", [])
        if not isinstance(marks, list) or len(marks) > MAX_MARKS:
            raise InvalidLessonError(f"step {number}: 'marks' must be a list of at most {MAX_MARKS} marks")
        try:
            quiz = Quiz.from_json(item["quiz"]) if "quiz" in item else None
            return cls(
                Move.parse(item["move"]),
                item.get("note"),
                item.get("illegal", False),
                tuple(Mark.from_json(m) for m in marks),
                quiz,
            )
        except PatienceError as exc:
            raise InvalidLessonError(f"step {number}: {exc}") from None


@dataclass(frozen=True, slots=True)
class ReviewChart:
    """The chart of a game review's lesson: the player's chance at every position of the game (``points``: the
    estimate and its 95% interval, to four decimals, by the number of moves played, which is the lesson's step;
    the estimate is ``None`` where no sampled deal was decided, and the board draws no number there),
    the marked moves
    (``marks``: the step to show, the move's number from 1, the label), the first step from which no order of
    the face-down cards could be won (``lost_from``), and the step the solver's second opinion speaks of
    (``opinion``, kept in the file for the board's layout, not drawn). Made from the player's views only (see
    :mod:`patiencelab.review`); checked like every other part of a lesson.
    """

    points: tuple[tuple[float | None, float, float], ...]
    marks: tuple[tuple[int, int, str], ...] = ()
    lost_from: int | None = None
    opinion: int | None = None

    def __post_init__(self) -> None:
        points = tuple(self.points) if isinstance(self.points, (list, tuple)) else None
        if not points or len(points) > MAX_REVIEW_STEPS + 1:
            raise InvalidLessonError(f"a chart has from 1 to {MAX_REVIEW_STEPS + 1} points")
        checked: list[tuple[float | None, float, float]] = []
        for point in points:
            if not isinstance(point, (list, tuple)) or len(point) != 3 or not all(_is_share(x) for x in point[1:]):
                raise InvalidLessonError("a chart's point is an estimate, a low and a high, each from 0 to 1")
            if point[0] is None:  # nothing decided there: no number, only the band (issue 33)
                low, high = (round(float(x), 4) for x in point[1:])
                if not low <= high:
                    raise InvalidLessonError("a chart's point with no estimate needs low <= high")
                checked.append((None, low, high))
                continue
            if not _is_share(point[0]):
                raise InvalidLessonError("a chart's point is an estimate, a low and a high, each from 0 to 1")
            estimate, low, high = (round(float(x), 4) for x in point if x is not None)  # what the board and a file need
            if not low <= estimate <= high:
                raise InvalidLessonError("a chart's point needs low <= estimate <= high")
            checked.append((estimate, low, high))
        object.__setattr__(self, "points", tuple(checked))
        last = len(checked) - 1
        marks = tuple(self.marks) if isinstance(self.marks, (list, tuple)) else None
        if marks is None or len(marks) > last:
            raise InvalidLessonError("a chart marks at most one move of each")
        moves = []
        for mark in marks:
            if not isinstance(mark, (list, tuple)) or len(mark) != 3:
                raise InvalidLessonError("a chart's mark is a step, a move and a label")
            step, move, label = mark
            if label not in REVIEW_LABELS or not _is_count(move, 1, last) or not _is_count(step, 0, last):
                raise InvalidLessonError(f"a chart's mark needs a move from 1 to {last} and a label of {REVIEW_LABELS}")
            if step != (move if label == "luck" else move - 1):
                raise InvalidLessonError("a chart's mark shows the position before its move (after it, for luck)")
            moves.append(move)
        if moves != sorted(set(moves)):
            raise InvalidLessonError("a chart's marks are in the order of their moves, one a move")
        object.__setattr__(self, "marks", tuple((s, m, str(lab)) for s, m, lab in marks))
        for name in ("lost_from", "opinion"):
            value = getattr(self, name)
            if value is not None and not _is_count(value, 0, last):
                raise InvalidLessonError(f"a chart's {name!r} is a step from 0 to {last}, or null")

    def to_wire(self) -> dict[str, Any]:
        """The chart as the board's synced state sends it (``ReviewChart`` of ``js/types.ts``)."""
        return {
            # "wide": an interval over WIDE (20 points): the board draws the point hollow, off the line, and says
            # its interval with it
            "points": [
                {"step": k, "estimate": e, "low": lo, "high": hi, "wide": hi - lo > WIDE + 1e-9}
                for k, (e, lo, hi) in enumerate(self.points)
            ],
            "marks": [{"step": s, "move": m, "label": label} for s, m, label in self.marks],
            "lost_from": self.lost_from,
        }

    def to_json(self) -> dict[str, Any]:
        """The chart as a lesson file holds it: what the board is sent, and the second opinion's step."""
        return {**self.to_wire(), "opinion": self.opinion}

    @classmethod
    def from_json(cls, data: object) -> ReviewChart:
        """Read what :meth:`to_json` (or :meth:`to_wire`) wrote; :class:`InvalidLessonError` names what is wrong."""
        if not isinstance(data, Mapping):
            raise InvalidLessonError("a chart must be an object with 'points', 'marks' and 'lost_from'")
        extra = unknown_fields(data, ("points", "marks", "lost_from", "opinion"))
        if extra:
            raise InvalidLessonError(f"a chart has unknown field(s): {extra}")
        points, marks = data.get("points"), data.get("marks", [])
        if not isinstance(points, list) or not isinstance(marks, list) or len(points) > MAX_REVIEW_STEPS + 1:
            raise InvalidLessonError("a chart's 'points' and 'marks' must be lists")
        if len(marks) > len(points):
            raise InvalidLessonError("a chart marks at most one move of each")
        read_points = []
        for k, point in enumerate(points):
            if not isinstance(point, Mapping) or unknown_fields(point, ("step", "estimate", "low", "high", "wide")):
                raise InvalidLessonError("a chart's point is {'step', 'estimate', 'low', 'high'}")
            if point.get("step") != k:
                raise InvalidLessonError(f"a chart's points are by step: point {k} says {quote(point.get('step'))}")
            read_points.append((point.get("estimate"), point.get("low"), point.get("high")))
        read_marks = []
        for mark in marks:
            if not isinstance(mark, Mapping) or unknown_fields(mark, ("step", "move", "label")):
                raise InvalidLessonError("a chart's mark is {'step', 'move', 'label'}")
            read_marks.append((mark.get("step"), mark.get("move"), mark.get("label")))
        return cls(tuple(read_points), tuple(read_marks), data.get("lost_from"), data.get("opinion"))  # type: ignore[arg-type]

    def mark_steps(self) -> tuple[int, ...]:
        """The steps the marks show, in order, each once."""
        return tuple(sorted({s for s, _, _ in self.marks}))


def _is_share(x: object) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool) and 0 <= x <= 1


def _is_count(x: object, low: int, high: int) -> bool:
    return isinstance(x, int) and not isinstance(x, bool) and low <= x <= high


@dataclass(frozen=True, slots=True)
class Lesson:
    """A game to step through: ``deal`` (104 characters) or ``position`` (JSON), the ``rules``, and ``steps``.

    Every step is checked when the lesson is made: a lesson whose moves do not replay raises
    :class:`InvalidLessonError` naming the step.
    """

    title: Text
    steps: tuple[Step, ...]
    rules: Rules = field(default_factory=Rules)
    deal: str | None = None
    position: Mapping[str, Any] | None = None
    intro: Text | None = None
    lang: str = "en"
    #: The chart of a game review's lesson (one point per step and one for the start), or ``None``.
    chart: ReviewChart | None = None

    def __post_init__(self) -> None:
        if not self.title or (isinstance(self.title, str) and not self.title.strip()):
            raise InvalidLessonError("a lesson needs a title")
        _check_text(self.title, "the title")
        _check_text(self.intro, "the intro")
        if not isinstance(self.lang, str) or self.lang not in LANGUAGES:
            raise InvalidLessonError(
                f"unknown lesson language {quote(self.lang)}: choose one of {', '.join(LANGUAGES)}"
            )
        if not isinstance(self.rules, Rules):
            raise InvalidLessonError(f"a lesson's rules must be Rules, not {type(self.rules).__name__}")
        if not isinstance(self.steps, (tuple, list)):
            raise InvalidLessonError(f"a lesson's steps must be a list of steps, not {type(self.steps).__name__}")
        steps = tuple(s if isinstance(s, Step) else Step(*s) if isinstance(s, tuple) else Step(s) for s in self.steps)
        if self.chart is not None and not isinstance(self.chart, ReviewChart):
            raise InvalidLessonError(f"a lesson's chart must be a ReviewChart, not {type(self.chart).__name__}")
        if len(steps) > MAX_REVIEW_STEPS:
            raise InvalidLessonError(f"a lesson has at most {MAX_REVIEW_STEPS} steps; this one has {len(steps)}")
        if sum(s.note is not None or bool(s.marks) or s.quiz is not None for s in steps) > MAX_STEPS:
            raise InvalidLessonError(f"a lesson has at most {MAX_STEPS} steps with notes, marks or quizzes")
        if self.chart is not None and len(self.chart.points) != len(steps) + 1:
            raise InvalidLessonError(
                f"a review's chart has a point for the start and each step: {len(steps) + 1}, "
                f"not {len(self.chart.points)}"
            )
        object.__setattr__(self, "steps", steps)
        if (self.deal is None) == (self.position is None):
            raise InvalidLessonError("a lesson starts from a deal or from a position (one of the two)")
        if self.position is not None and isinstance(self.position, Position):
            object.__setattr__(self, "position", self.position.to_json())
        game = self.start()
        for number, step in enumerate(steps, 1):
            try:
                error = game.check(step.move)
                for other in step.quiz.accept if step.quiz else ():
                    wrong = game.check(other)
                    if wrong is not None:
                        raise InvalidLessonError(f"step {number}: the quiz accepts {other}, which is not legal there")
            except InvalidMoveError as exc:  # a place these rules lack, a card moved onto its own column
                raise InvalidLessonError(f"step {number} ({step.move}): {exc}") from None
            if step.illegal:
                if error is None:
                    raise InvalidLessonError(f"step {number} ({step.move}) is marked illegal but is allowed")
                continue
            if error is not None:
                raise InvalidLessonError(f"step {number} ({step.move}) cannot be played: {error.reason}")
            game.play(step.move)

    # ----------------------------------------------------------------------------------------------- games

    def start(self) -> Klondike:
        """A fresh game at the lesson's start."""
        try:
            if self.deal is not None:
                return Klondike(deal=self.deal, rules=self.rules, lang=self.lang)
            assert self.position is not None
            return Klondike.from_position(self.position, rules=self.rules, lang=self.lang)
        except InvalidLessonError:
            raise
        except PatienceError as exc:
            raise InvalidLessonError(f"the lesson's start is not valid: {exc}") from None

    def game_at(self, step: int) -> Klondike:
        """A game with the first ``step`` steps played (0 to ``len(steps)``)."""
        check_whole(step, "step", low=0, high=len(self.steps))
        game = self.start()
        for s in self.steps[:step]:
            if not s.illegal:
                game.play(s.move)
        return game

    @classmethod
    def from_game(
        cls,
        game: Klondike,
        title: str,
        *,
        notes: Mapping[int, str] | Sequence[str | None] | None = None,
        intro: str | None = None,
    ) -> Lesson:
        """The lesson of ``game`` as played so far: its start, rules and history; ``notes`` by step number
        (from 1) or as a list beside the moves.
        """
        record = check_instance(game, "game", Klondike).record()
        moves = game.history
        _check_notes(notes)
        return cls(
            title=title,
            steps=tuple(Step(move, _note(notes, i)) for i, move in enumerate(moves, 1)),
            rules=game.rules,
            deal=record.get("deal"),
            position=record.get("position"),
            intro=intro,
            lang=game.lang,
        )

    @classmethod
    def from_moves(
        cls,
        game: Klondike,
        moves: Iterable[Move | str],
        title: str,
        *,
        notes: Mapping[int, str] | Sequence[str | None] | None = None,
        intro: str | None = None,
    ) -> Lesson:
        """A lesson that starts at ``game``'s current position and plays ``moves``."""
        check_instance(game, "game", Klondike)
        _check_notes(notes)
        if not isinstance(moves, Iterable) or isinstance(moves, (str, bytes)):
            raise ArgumentTypeError(f"moves must be a list of moves, not {type(moves).__name__}")
        steps = tuple(Step(Move.parse(m), _note(notes, i)) for i, m in enumerate(moves, 1))
        return cls(
            title=title, steps=steps, rules=game.rules, position=game.position_json(), intro=intro, lang=game.lang
        )

    # ------------------------------------------------------------------------------------------------ JSON

    def to_json(self) -> dict[str, Any]:
        """The lesson as JSON: format, version, title, lang, intro, rules, deal or position, steps."""
        data: dict[str, Any] = {
            "format": LESSON_FORMAT,
            "version": LESSON_VERSION,
            "title": self.title,
            "lang": self.lang,
        }
        if self.intro:
            data["intro"] = self.intro
        data["rules"] = self.rules.to_json()
        if self.deal is not None:
            data["deal"] = self.deal
        else:
            data["position"] = dict(self.position or {})
        data["steps"] = [s.to_json() for s in self.steps]
        if self.chart is not None:
            data["chart"] = self.chart.to_json()
        return data

    @classmethod
    def from_json(cls, data: object) -> Lesson:
        """Read what :meth:`to_json` wrote; :class:`InvalidLessonError` names what is wrong."""
        if not isinstance(data, Mapping) or data.get("format") != LESSON_FORMAT:
            raise InvalidLessonError(f"not a lesson: 'format' must be {LESSON_FORMAT!r}")
        version = data.get("version")
        if not isinstance(version, int) or isinstance(version, bool) or not 1 <= version <= LESSON_VERSION:
            raise InvalidLessonError(f"unsupported lesson version {quote(version)} (this reads 1 to {LESSON_VERSION})")
        known: tuple[str, ...] = ("format", "version", "title", "lang", "intro", "rules", "deal", "position", "steps")
        known += ("chart",) if version >= 3 else ()
        unknown = unknown_fields(data, known)
        if unknown:
            raise InvalidLessonError(f"unknown lesson field(s): {unknown}")
        raw_steps = data.get("steps")
        if not isinstance(raw_steps, list):
            raise InvalidLessonError("'steps' must be a list of {'move': ..., 'note': ...}")
        steps = [Step.from_json(item, number, version) for number, item in enumerate(raw_steps, 1)]
        try:
            rules = Rules.from_json(data.get("rules", {}))
        except PatienceError as exc:
            raise InvalidLessonError(f"lesson rules: {exc}") from None
        return cls(
            title=data.get("title", ""),
            steps=tuple(steps),
            rules=rules,
            deal=data.get("deal"),
            position=data.get("position"),
            intro=data.get("intro"),
            lang=data.get("lang", "en"),
            chart=ReviewChart.from_json(data["chart"]) if "chart" in data else None,
        )

    def judge(
        self,
        step: int,
        move: Move | str,
        *,
        max_states: int | None = 50_000,
        lang: str | None = None,
        peek: bool = False,
    ) -> Answer:
        """Judge ``move`` as the class's answer to quiz step ``step`` (from 1), in the position before it.

        Right: the step's move, a move its quiz accepts, or (with ``winnable``) a move that keeps the deal
        winnable. The answer is in ``lang`` (the lesson's language by default). Wrong answers say why: the rule an
        illegal move breaks, or that a move loses the deal, or that it is not the move asked for.

        Fair by default: while cards are face down, "keeps the deal winnable" and "loses" are judged on what the
        class can see (:func:`patiencelab.players.keeps_winnable`): 16 deals of the unseen cards, the same for the
        answer and the step's move, ``max_states`` shared among their solver calls. Right when the answer keeps as
        many of them winnable as the step's move; it loses when every one of them is proved lost after it. With
        ``peek`` the solver judges the deal as it lies, ``max_states`` positions for the one call.
        """
        check_whole(step, "step", low=1, high=len(self.steps))
        check_budget(max_states)
        quiz = self.steps[step - 1].quiz
        if quiz is None:
            raise PatienceError(f"step {step} is not a quiz step")
        game = self.game_at(step - 1)
        game.lang = lang = self.lang if lang is None else lang
        asked = self.steps[step - 1].move
        return judge_answer(
            game, move, asked, quiz.accept, winnable=quiz.winnable, max_states=max_states, peek=peek, lang=lang
        )

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write the lesson to a JSON file."""
        check_path(path).write_text(json.dumps(self.to_json(), indent=1, ensure_ascii=False) + "\n", "utf-8")

    @classmethod
    def loads(cls, text: str | bytes) -> Lesson:
        """Read a lesson from JSON text (at most :data:`~patiencelab.core.limits.MAX_JSON_TEXT` characters)."""
        return cls.from_json(load_json(text, "a lesson", InvalidLessonError))

    @classmethod
    def builtin_names(cls) -> tuple[str, ...]:
        """The names of the lessons that ship inside the package, for :meth:`builtin`."""
        folder = importlib.resources.files("patiencelab") / "lessons"
        return tuple(sorted(f.name[: -len(".json")] for f in folder.iterdir() if f.name.endswith(".json")))

    @classmethod
    def builtin(cls, name: str) -> Lesson:
        """A lesson that ships inside the package (``Lesson.builtin("traditional")``), whatever the folder."""
        names = cls.builtin_names()
        if not isinstance(name, str) or name not in names:
            raise InvalidLessonError(f"no built-in lesson {quote(name)}: choose one of {', '.join(names)}")
        resource = importlib.resources.files("patiencelab") / "lessons" / f"{name}.json"
        return cls.loads(resource.read_text(encoding="utf-8"))

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> Lesson:
        """Read a lesson from a JSON file (at most :data:`~patiencelab.core.limits.MAX_JSON_TEXT` characters)."""
        name = quote(os.fspath(check_path(path, "a lesson's path", InvalidLessonError)))
        try:
            with pathlib.Path(path).open(encoding="utf-8") as handle:
                text = handle.read(MAX_JSON_TEXT + 1)
        except (OSError, ValueError, TypeError) as exc:  # no such file, a directory, not UTF-8, a NUL, bytes
            raise InvalidLessonError(f"cannot read the lesson {name}: {quote(str(exc))}") from None
        if len(text) > MAX_JSON_TEXT:
            raise InvalidLessonError(f"cannot read the lesson {name}: it is longer than {MAX_JSON_TEXT:,} characters")
        return cls.from_json(load_json(text, f"cannot read the lesson {name}: it", InvalidLessonError))


def _check_notes(notes: object) -> None:
    if notes is not None and (not isinstance(notes, (Mapping, Sequence)) or isinstance(notes, (str, bytes))):
        raise ArgumentTypeError(f"notes must be a list of notes or a dict of them by step, not {type(notes).__name__}")


def _note(notes: Mapping[int, str] | Sequence[str | None] | None, number: int) -> Text | None:
    if notes is None:
        return None
    if isinstance(notes, Mapping):
        return notes.get(number)
    return notes[number - 1] if number <= len(notes) else None
