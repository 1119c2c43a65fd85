"""Lessons: a start (deal or position), the rules, and steps (a move and an optional teacher's note) to step
through in the widget, forward and back; saved to and loaded from small JSON files.

The lessons that ship with PatienceLab live inside the package (``patiencelab/lessons/*.json``), so
``Lesson.builtin("traditional")`` loads the same lesson from any folder, in any host (JupyterLite included).
A step may carry marks (arrows and circles, :class:`~patiencelab.core.marks.Mark`) and may ask instead of show
(a :class:`Quiz`: the class plays a move, judged by :meth:`Lesson.judge`). Version 2 of the file format holds
these; every version-1 file reads as it did.
"""

from __future__ import annotations

import importlib.resources
import json
import math
import os
import pathlib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from patiencelab.core.errors import InvalidMoveError, InvalidRecordError, PatienceError, quote, unknown_fields
from patiencelab.core.game import Klondike
from patiencelab.core.i18n import LANGUAGES, message
from patiencelab.core.limits import MAX_JSON_TEXT, check_budget, check_text, load_json
from patiencelab.core.marks import MAX_MARKS, Mark, arrow_for
from patiencelab.core.moves import Move
from patiencelab.core.position import Position
from patiencelab.core.rules import Rules

if TYPE_CHECKING:
    from patiencelab.review import Review

__all__ = [
    "LESSON_FORMAT",
    "LESSON_VERSION",
    "MAX_STEPS",
    "MAX_TEXT",
    "Answer",
    "InvalidLessonError",
    "Lesson",
    "Quiz",
    "Step",
    "Text",
    "text_in",
]

#: The ``format`` field of a lesson file.
LESSON_FORMAT = "patiencelab-lesson"
#: The version this writes; it reads every version from 1 up to this one.
LESSON_VERSION = 2
#: The most wrong answers a quiz step may allow before it shows its move.
MAX_TRIES = 9
#: The most steps a lesson has: a lesson of that many steps, each with the longest notes in every language and
#: the most marks, still saves to a file that :meth:`Lesson.load` reads.
MAX_STEPS = 200
#: The longest title, intro or note of a lesson, in each language.
MAX_TEXT = 1_000

#: A teacher's text: one string, or one per language (``{"en": ..., "nl": ..., "sv": ...}``).
Text = str | Mapping[str, str]


def text_in(text: Text | None, lang: str, fallback: str = "en") -> str | None:
    """``text`` in ``lang`` (else in ``fallback``, else in any language it has)."""
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
        object.__setattr__(self, "accept", tuple(Move.parse(m) for m in self.accept))
        if not isinstance(self.winnable, bool):
            raise InvalidLessonError("a quiz's 'winnable' must be true or false")
        if not isinstance(self.tries, int) or isinstance(self.tries, bool) or not 1 <= self.tries <= MAX_TRIES:
            raise InvalidLessonError(f"a quiz's 'tries' must be a whole number from 1 to {MAX_TRIES}")

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
        steps = tuple(s if isinstance(s, Step) else Step(*s) if isinstance(s, tuple) else Step(s) for s in self.steps)
        if len(steps) > MAX_STEPS:
            raise InvalidLessonError(f"a lesson has at most {MAX_STEPS} steps; this one has {len(steps)}")
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
        if not isinstance(step, int) or not 0 <= step <= len(self.steps):
            raise PatienceError(f"step must be a whole number from 0 to {len(self.steps)}, not {quote(step)}")
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
        record = game.record()
        moves = game.history
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
    def from_review(cls, game: Klondike, review: Review, *, title: Text) -> Lesson:
        """The lesson of ``game`` as played, up to the move that lost it when one did (see
        :func:`patiencelab.review.review`). The step that reaches the position the review speaks of
        (``review.at``; the intro when that is the start) carries the review's words and, when there is one, an
        arrow along the move that keeps the deal winnable.
        """
        moves = game.history[: review.losing] if review.losing is not None else game.history
        steps = [Step(move) for move in moves]
        marks: tuple[Mark, ...] = ()
        if review.better is not None:
            position = game.copy()
            while position.moves > review.at:
                position.undo()
            cards = position.moving_cards(review.better)
            marks = (arrow_for(review.better, str(cards[0]) if cards else None),)
        intro = None
        if review.at:
            steps[review.at - 1] = Step(steps[review.at - 1].move, review.text, marks=marks)
        else:  # the start has no step to carry marks: the words go in the intro
            intro = review.text
        record = game.record()
        return cls(
            title=title,
            steps=tuple(steps),
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
        return data

    @classmethod
    def from_json(cls, data: object) -> Lesson:
        """Read what :meth:`to_json` wrote; :class:`InvalidLessonError` names what is wrong."""
        if not isinstance(data, Mapping) or data.get("format") != LESSON_FORMAT:
            raise InvalidLessonError(f"not a lesson: 'format' must be {LESSON_FORMAT!r}")
        version = data.get("version")
        if not isinstance(version, int) or isinstance(version, bool) or not 1 <= version <= LESSON_VERSION:
            raise InvalidLessonError(f"unsupported lesson version {quote(version)} (this reads 1 to {LESSON_VERSION})")
        known = ("format", "version", "title", "lang", "intro", "rules", "deal", "position", "steps")
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
        if not isinstance(step, int) or isinstance(step, bool) or not 1 <= step <= len(self.steps):
            raise PatienceError(f"step must be a whole number from 1 to {len(self.steps)}, not {quote(step)}")
        check_budget(max_states)
        quiz = self.steps[step - 1].quiz
        if quiz is None:
            raise PatienceError(f"step {step} is not a quiz step")
        game = self.game_at(step - 1)
        game.lang = lang = self.lang if lang is None else lang
        error = game.check(move)
        if error is not None:
            return Answer("illegal", message("quiz.illegal", lang, reason=error.reason))
        resolved = game.parse_move(move)
        right = {game.parse_move(m) for m in (self.steps[step - 1].move, *quiz.accept)}
        if resolved in right:
            return Answer("right", message("quiz.right", lang))
        if (quiz.winnable or max_states is not None) and not peek and game.player_view().hidden_places:
            return _judge_fairly(game, resolved, game.parse_move(self.steps[step - 1].move), quiz, max_states, lang)
        if quiz.winnable or max_states is not None:
            from patiencelab.solver import solve

            game.play(resolved)
            outcome = solve(game.snapshot(), game.rules, seconds=math.inf, max_states=max_states).outcome
            if outcome == "impossible":
                return Answer("loses", message("quiz.loses", lang))
            if outcome == "solved" and quiz.winnable:
                return Answer("right", message("quiz.right-winnable", lang))
        return Answer("other", message("quiz.other", lang))

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write the lesson to a JSON file."""
        pathlib.Path(path).write_text(json.dumps(self.to_json(), indent=1, ensure_ascii=False) + "\n", "utf-8")

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
        if not isinstance(path, (str, os.PathLike)):
            raise InvalidLessonError(f"a lesson's path must be text or a path, not {type(path).__name__}")
        name = quote(os.fspath(path))
        try:
            with pathlib.Path(path).open(encoding="utf-8") as handle:
                text = handle.read(MAX_JSON_TEXT + 1)
        except (OSError, ValueError, TypeError) as exc:  # no such file, a directory, not UTF-8, a NUL, bytes
            raise InvalidLessonError(f"cannot read the lesson {name}: {quote(str(exc))}") from None
        if len(text) > MAX_JSON_TEXT:
            raise InvalidLessonError(f"cannot read the lesson {name}: it is longer than {MAX_JSON_TEXT:,} characters")
        return cls.from_json(load_json(text, f"cannot read the lesson {name}: it", InvalidLessonError))


def _note(notes: Mapping[int, str] | Sequence[str | None] | None, number: int) -> Text | None:
    if notes is None:
        return None
    if isinstance(notes, Mapping):
        return notes.get(number)
    return notes[number - 1] if number <= len(notes) else None


#: Sampled deals of the unseen cards a fair quiz judgement solves (for the answer and for the step's move).
FAIR_SAMPLES = 16


def _judge_fairly(game: Klondike, answer: Move, asked: Move, quiz: Quiz, max_states: int | None, lang: str) -> Answer:
    """:meth:`Lesson.judge` from what the class can see: the answer against the step's move on the same deals."""
    from patiencelab.players import keeps_winnable

    budget = None if max_states is None else max(1, max_states // (2 * FAIR_SAMPLES))
    (mine, theirs), samples = keeps_winnable(
        game.player_view(), [answer, asked], samples=FAIR_SAMPLES, max_states=budget
    )
    if quiz.winnable and mine.won > 0 and mine.won >= theirs.won:
        return Answer("right", message("quiz.right-fair", lang, kept=mine.won, samples=samples))
    if mine.lost == samples:
        return Answer("loses", message("quiz.loses-fair", lang, samples=samples))
    return Answer("other", message("quiz.other", lang))
