"""The synced state in Python types: :class:`GameState` and its parts, as ``js/types.ts`` says them (the TypedDicts
carry the TypeScript names; ``tests/test_vocabulary.py`` fails when their keys, which of them are required, or the
parts they nest drift from ``js/protocol.schema.json``).

The board's parts build their pieces with these types (``synced_part``), and
:func:`~patiencelab.widget.protocol.synced_state` puts them together; ``mypy --strict`` checks every key they
write. The session hands the whole state on as a plain ``dict`` (its ``state``, the host's ``show``).
"""

from __future__ import annotations

from typing import Any, TypedDict

__all__ = [
    "AutoplayState",
    "BoardState",
    "Column",
    "GameState",
    "IndicatorState",
    "LastMove",
    "LessonState",
    "Message",
    "QuizState",
    "RecordState",
    "RecordsState",
    "ResumeOffer",
    "ReviewProgress",
    "ReviewState",
    "RulesView",
    "ViewState",
]


class Column(TypedDict):
    """A column: its face-down and face-up cards (a face-down card is ``None`` unless revealed)."""

    down: list[str | None]
    up: list[str | None]


#: The single action of a change (``from`` is a Python keyword, hence the call form).
LastMove = TypedDict("LastMove", {"move": str, "cards": list[str], "from": str, "to": str, "undo": bool, "text": str})
LastMove.__doc__ = "The single action of a change (played, redone or taken back), as the board animates and reads it."


class RulesView(TypedDict):
    """The rules in play."""

    preset: str | None
    draw: int
    max_passes: int | None
    foundation_to_tableau: bool
    scoring: str


class Message(TypedDict):
    """The status line's message."""

    id: int
    kind: str
    text: str


class QuizState(TypedDict):
    """A lesson's quiz score, and whether the board waits for the class's answer."""

    waiting: bool
    tries_left: int
    right: int
    asked: int
    score: str


class _LessonState(TypedDict):
    title: str
    step: int
    steps: int
    caption: str
    note: str | None
    playing: bool
    pace: float
    taken_over: bool
    highlight: dict[str, Any] | None
    marks: list[dict[str, Any]]
    quiz: QuizState | None


class LessonState(_LessonState, total=False):
    """The lesson shown (``Lesson`` in ``js/types.ts``)."""

    review: bool
    chart: dict[str, Any] | None


class _IndicatorState(TypedDict):
    enabled: bool
    verdict: str | None
    error: str | None


class IndicatorState(_IndicatorState, total=False):
    """The winnability indicator (``Indicator``)."""

    searched: int


class ResumeOffer(TypedDict):
    """The offer to continue a game left in play."""

    text: str
    when: str
    moves: int


class _RecordsState(TypedDict):
    enabled: bool
    error: str | None
    notice: str | None
    rules_key: str
    draw: int
    scoring: str
    new: list[str]


class RecordsState(_RecordsState, total=False):
    """The records and the bests of the rules in play (``Records``; the bests are missing without records)."""

    resume: ResumeOffer | None
    played: int
    won: int
    win_rate: float | None
    best_score: int | None
    fewest_moves: int | None
    fastest_win: float | None
    current_streak: int
    longest_streak: int


class RecordState(TypedDict):
    """The lesson being recorded: its last step, which takes a note, marks and a quiz."""

    steps: int
    title: str
    note: str
    note_lang: str
    illegal: bool
    quiz: str | None
    can_quiz: bool
    marks: list[dict[str, Any]]


class ReviewProgress(TypedDict):
    """How far a running review is."""

    done: int
    total: int


class _ReviewState(TypedDict):
    offered: bool
    busy: bool


class ReviewState(_ReviewState, total=False):
    """Whether the board offers "Review game", and whether one is running."""

    progress: ReviewProgress | None


class AutoplayState(TypedDict):
    """The automatic player at work on the board."""

    running: bool
    player: str | None


class ViewState(TypedDict):
    """The game's public view (:meth:`patiencelab.Klondike.view`)."""

    columns: int
    tableau: list[Column]
    stock: list[str | None]
    waste: list[str | None]
    foundations: dict[str, int]
    draw: int
    recycles: int
    passes_left: int | None
    score: int
    moves: int
    status: str
    can_undo: bool
    can_redo: bool


class BoardState(ViewState):
    """The part of the synced state that follows from the game and the board's options."""

    seconds: float
    clock_running: bool
    can_draw: bool
    can_recycle: bool
    can_autocomplete: bool
    targets: dict[str, list[str]]
    pickable: list[str]
    rules: RulesView
    reveal: bool
    show_moves: bool
    lang: str
    languages: list[list[str]]
    rules_text: str


class GameState(BoardState):
    """The whole synced state (``GameState``)."""

    last_move: LastMove | None
    message: Message | None
    lesson: LessonState | None
    indicator: IndicatorState
    stats: RecordsState
    recording: RecordState | None
    review: ReviewState
    autoplay: AutoplayState
    version: int
