"""Stepping through a lesson in the widget: where the lesson stands, its caption and highlight, and whether the
teacher has taken over by hand.
"""

from __future__ import annotations

from typing import Any

from patiencelab.core.cards import Card, Suit
from patiencelab.core.errors import PatienceError, quote
from patiencelab.core.game import Klondike
from patiencelab.core.i18n import message
from patiencelab.core.moves import Move
from patiencelab.lesson import Lesson, text_in
from patiencelab.narration import narrate_played
from patiencelab.widget.protocol import move_ends, pile_of

__all__ = ["ACTIONS", "LessonPlayer"]

#: The actions of a ``lesson`` intent.
ACTIONS = ("first", "back", "forward", "last", "play", "pause", "resume", "close", "pace")


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
        self._captions: dict[tuple[int, str], tuple[str, dict[str, Any]]] = {}

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
        told its listeners); ``play``, ``pause`` and a step that is shown but not played change only the
        lesson's state (``False``); ``first``, ``last`` and ``resume`` return a fresh game to show, in ``lang``.
        ``close`` is the board's to carry out. Raises :class:`PatienceError` for an action that can't be taken now.
        """
        if action not in ACTIONS or action in ("pace", "close"):
            raise PatienceError(f"unknown lesson action {quote(action)}: choose one of {', '.join(ACTIONS[:-1])}")
        if action in ("play", "pause"):
            self.playing = action == "play" and self.step < self.steps
            return False
        if action != "resume" and self.is_taken_over(game):
            raise PatienceError("the lesson was left to play on by hand: resume it first")
        if action == "forward":
            if self.step >= self.steps:
                raise PatienceError("the lesson is at its last step")
            self.step += 1
            self.playing = self.playing and self.step < self.steps
            move = self.path[self.step - 1]
            if move is None:  # an illegal step is shown, not played
                return False
            game.play(move)
            return True
        if action == "back":
            if self.step == 0:
                raise PatienceError("the lesson is at its first step")
            self.step -= 1
            if self.path[self.step] is None:
                return False
            game.undo()
            return True
        self.step = {"first": 0, "last": self.steps}.get(action, self.step)
        self.playing = False
        return self.game_at(self.step, lang)

    def set_pace(self, pace: object) -> None:
        """Seconds per step while playing, 0.5 to 10."""
        if not isinstance(pace, (int, float)) or isinstance(pace, bool) or not 0.5 <= pace <= 10:
            raise PatienceError(f"pace must be a number of seconds from 0.5 to 10, not {quote(pace)}")
        self.pace = float(pace)

    def caption(self, lang: str) -> tuple[str, dict[str, Any]]:
        """The narration of the step shown (or the intro) and the cards and pile to highlight."""
        key = (self.step, lang)
        if key not in self._captions:
            self._captions[key] = self._make_caption(lang)
        return self._captions[key]

    def _make_caption(self, lang: str) -> tuple[str, dict[str, Any]]:
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

    def state(self, game: Klondike, lang: str) -> dict[str, Any]:
        """The ``lesson`` part of the widget's synced state."""
        taken_over = self.is_taken_over(game)
        caption, highlight = self.caption(lang)
        if taken_over:
            caption, highlight = message("lesson.taken-over", lang), {"cards": [], "to": None}
        note = text_in(self.lesson.steps[self.step - 1].note, lang, self.lesson.lang) if self.step else None
        return {
            "title": text_in(self.lesson.title, lang, self.lesson.lang),
            "step": self.step,
            "steps": self.steps,
            "caption": caption,
            "note": None if taken_over else note,
            "playing": self.playing and not taken_over,
            "pace": self.pace,
            "taken_over": taken_over,
            "highlight": highlight,
        }


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
