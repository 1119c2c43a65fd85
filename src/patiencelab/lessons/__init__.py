"""Lessons: a start (deal or position), the rules, and steps (a move and an optional teacher's note) to step
through in the widget, forward and back; saved to and loaded from small JSON files, and the lessons that ship with
PatienceLab (``Lesson.builtin("traditional")``).

The file format and its checks are in :mod:`~patiencelab.lessons.format`; the judging of a quiz step's answer
(the rules, then the solver on what the class can see) in :mod:`~patiencelab.lessons.judge`.
"""

from __future__ import annotations

from patiencelab.lessons.format import (
    LESSON_FORMAT,
    LESSON_VERSION,
    MAX_REVIEW_STEPS,
    MAX_STEPS,
    MAX_TEXT,
    MAX_TRIES,
    InvalidLessonError,
    Lesson,
    Quiz,
    ReviewChart,
    Step,
    Text,
    text_in,
)
from patiencelab.lessons.judge import FAIR_SAMPLES, Answer

__all__ = [
    "FAIR_SAMPLES",
    "LESSON_FORMAT",
    "LESSON_VERSION",
    "MAX_REVIEW_STEPS",
    "MAX_STEPS",
    "MAX_TEXT",
    "MAX_TRIES",
    "Answer",
    "InvalidLessonError",
    "Lesson",
    "Quiz",
    "ReviewChart",
    "Step",
    "Text",
    "text_in",
]
