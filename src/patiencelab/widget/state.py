"""The synced state in Python types: :class:`GameState` and its parts, the one source of their TypeScript
declarations. ``python tools/state_types.py`` writes them to ``js/state.generated.ts`` (``js/types.ts`` exports
them; the protocol's schema, ``js/protocol.schema.json``, is made from those), and ``tests/test_state_types.py``
fails when that file differs from what these types give.

A docstring under a key says what it holds (it becomes the key's comment in TypeScript). A type the TypeScript says
more precisely than Python (a card's code, a pile's name, a teacher's mark) is marked
``Annotated[..., TypeScript("CardId")]`` with its TypeScript; :class:`Schema` adds the schema's tags to a number.

The board's parts build their pieces with these types (``synced_part``), and
:func:`~patiencelab.widget.protocol.synced_state` puts them together; ``mypy --strict`` checks every key they
write. The session hands the whole state on as a plain ``dict`` (its ``state``, the host's ``show``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any, Literal, TypedDict

__all__ = [
    "AutoplayState",
    "BoardState",
    "CardId",
    "Column",
    "GameState",
    "Highlight",
    "IndicatorState",
    "LastMove",
    "LessonState",
    "Mark",
    "Message",
    "MessageKind",
    "PileId",
    "QuizState",
    "RecordState",
    "RecordsState",
    "ResumeOffer",
    "ReviewProgress",
    "ReviewState",
    "RulesView",
    "Schema",
    "TypeScript",
    "ViewState",
]


@dataclass(frozen=True)
class TypeScript:
    """The TypeScript of a Python type that says less (``Annotated[str, TypeScript("CardId")]``): a type
    ``js/types.ts`` declares, or a TypeScript type expression."""

    type: str


@dataclass(frozen=True)
class Schema:
    """Tags of the protocol's schema for a number (``Annotated[int, Schema("asType integer", "minimum 0")]``)."""

    tags: tuple[str, ...]

    def __init__(self, *tags: str) -> None:
        object.__setattr__(self, "tags", tags)


#: A card's code (``5H``, ``TD``).
CardId = Annotated[str, TypeScript("CardId")]
#: A pile's name (``stock``, ``w``, ``t1``, ``fH``).
PileId = Annotated[str, TypeScript("PileId")]
#: A teacher's mark: an arrow between two piles, or a circle on a pile or a card.
Mark = Annotated[dict[str, Any], TypeScript("Mark")]
#: The kinds of the status line's messages.
MessageKind = Literal["narration", "info"]


class Column(TypedDict):
    """A column: its face-down and face-up cards (a face-down card is ``None`` unless revealed)."""

    down: list[CardId | None]
    up: list[CardId | None]


#: The single action of a change (``from`` is a Python keyword, hence the call form).
LastMove = TypedDict(
    "LastMove", {"move": str, "cards": list[CardId], "from": PileId, "to": PileId, "undo": bool, "text": str}
)
LastMove.__doc__ = """The single action of a change (played, redone or taken back), as the board animates and reads it:
``move`` in notation (``t2-t5``, ``w-f``, ``d``, ``r``), and ``text``, the sentence the live region reads, in the
board's language ("5 of hearts to Column 2")."""


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
    kind: MessageKind
    text: str


class QuizState(TypedDict):
    """A lesson's quiz score, and whether the board waits for the class's answer."""

    waiting: bool
    tries_left: int
    right: int
    asked: int
    score: str
    """"Right answers: 2 of 3" in the board's language."""


class Highlight(TypedDict):
    """The cards a lesson's step moves, and where they go."""

    cards: list[CardId]
    to: PileId | None


class _LessonState(TypedDict):
    title: str
    step: int
    steps: int
    caption: str
    note: str | None
    playing: bool
    pace: float
    taken_over: bool
    highlight: Highlight | None
    marks: list[Mark]
    """The teacher's arrows and circles of the step shown."""
    quiz: QuizState | None
    """The lesson's quiz score, and whether the board waits for the class's answer; null in a lesson without quiz
    steps."""


class LessonState(_LessonState, total=False):
    """The lesson shown."""

    review: bool
    """The step of a game review that carries the review's words: ``note`` leads the caption box, ``caption``
    follows."""
    chart: Annotated[dict[str, Any], TypeScript("ReviewChart")] | None
    """A review lesson's chart of chances (the lesson's steps are then the whole game as played); null otherwise."""


class _IndicatorState(TypedDict):
    enabled: bool
    verdict: Literal["winnable", "lost", "unknown", "pending"] | None
    error: str | None
    """Why the indicator switched itself off, or null."""


class IndicatorState(_IndicatorState, total=False):
    """The winnability indicator."""

    searched: int
    """Positions searched so far without a verdict: the indicator shows it is working while it thinks."""


class ResumeOffer(TypedDict):
    """The offer to continue a game left in play."""

    text: str
    """"Continue your game from 12:04?" in the board's language."""
    when: str
    """When it was last played, as the text shows it."""
    moves: int


class _RecordsState(TypedDict):
    enabled: bool
    error: str | None
    notice: str | None
    """"Your statistics can't be saved: …" in the board's language when records are off because they can't be
    used."""
    rules_key: str
    draw: int
    scoring: str
    """The scoring scheme (``standard``, ``windows``, ``vegas``, ``none``, or ``custom-<digest>``): bests are kept
    per scheme."""
    new: list[Literal["best_score", "fewest_moves", "fastest_win"]]


class RecordsState(_RecordsState, total=False):
    """The records and the bests of the rules in play (the bests are missing when no games can be stored)."""

    resume: ResumeOffer | None
    """A game a board left in play (before a kernel restart or a page reload), offered to be continued."""
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
    """Steps recorded so far."""
    title: str
    """The lesson's title as the teacher typed it ("" until then: the recorder asks for one)."""
    note: str
    """The last step's note in the board's language ("" when it has none)."""
    note_lang: str
    illegal: bool
    """Whether the last step is an illegal move shown, not played."""
    quiz: Literal["move", "winnable"] | None
    """The last step's quiz: it asks for its own move, or any move that keeps the deal winnable; or none."""
    can_quiz: bool
    marks: list[Mark]
    """The last step's marks."""


class ReviewProgress(TypedDict):
    """How far a running review is."""

    done: Annotated[int, Schema("asType integer", "minimum 0")]
    total: Annotated[int, Schema("asType integer", "minimum 1")]


class _ReviewState(TypedDict):
    offered: bool
    busy: bool


class ReviewState(_ReviewState, total=False):
    """Whether the board offers "Review game" (the game is over, stuck or lost), and whether one is running."""

    progress: ReviewProgress | None
    """How far a running review is (positions judged of the game's), or null when none runs."""


class AutoplayState(TypedDict):
    """The automatic player at work on the board (``board.autoplay(player)`` in Python), which Stop ends."""

    running: bool
    player: str | None
    """The player's name, as Python gives it ("Greedy", a function's name), or null when none plays."""


class ViewState(TypedDict):
    """The game's public view (:meth:`patiencelab.Klondike.view`)."""

    columns: int
    tableau: list[Column]
    stock: list[CardId | None]
    waste: list[CardId | None]
    foundations: dict[Annotated[str, TypeScript("Suit")], int]
    draw: int
    recycles: int
    passes_left: int | None
    score: int
    moves: int
    status: Literal["playing", "won", "stuck"]
    can_undo: bool
    can_redo: bool


class BoardState(ViewState):
    """The part of the synced state that follows from the game and the board's options."""

    seconds: float
    clock_running: bool
    can_draw: bool
    can_recycle: bool
    can_autocomplete: bool
    targets: dict[CardId, list[PileId]]
    """Every card that can move now and the piles it may legally go to."""
    pickable: list[CardId]
    """The cards a player may pick up (a drop where one may not go is answered with the reason)."""
    rules: RulesView
    reveal: bool
    show_moves: bool
    lang: str
    languages: list[Annotated[list[str], TypeScript("[string, string]")]]
    rules_text: str


class GameState(BoardState):
    """The whole synced state."""

    last_move: LastMove | None
    message: Message | None
    lesson: LessonState | None
    indicator: IndicatorState
    stats: RecordsState
    recording: RecordState | None
    """The lesson being recorded (its last step, which takes a note, marks and a quiz), or null."""
    review: ReviewState
    autoplay: AutoplayState
    version: int
