"""The board's intent table: :func:`handle` checks one intent from the front end and applies it to a board, with
one handler per intent type of :data:`~patiencelab.widget.intents.VOCABULARY` (:data:`HANDLERS`), and answers
it (a reply, a ``rejected`` message, or nothing).

The board is reached through :class:`IntentBoard`, the public part of a
:class:`~patiencelab.widget.session.BoardSession` the handlers use: its methods (the ones the widget's Python
methods call too) and its :class:`~patiencelab.widget.parts.Parts`, the collaborators it is made of.
"""

from __future__ import annotations

import contextlib
import warnings
from collections.abc import Callable, Mapping
from typing import Any, Protocol

from patiencelab.core.errors import IllegalMoveError, PatienceError, quote
from patiencelab.core.game import Klondike
from patiencelab.core.i18n import message
from patiencelab.core.moves import DRAW, RECYCLE, Move
from patiencelab.core.rules import Rules
from patiencelab.lessons.format import Lesson
from patiencelab.lessons.judge import Answer
from patiencelab.widget.host import Host
from patiencelab.widget.intents import (
    VOCABULARY,
    RejectedIntentError,
    check_fields,
    intent_move,
    lesson_step,
    new_game_request,
    option_value,
    read_intent,
    record_request,
    rejected,
    review_action,
)
from patiencelab.widget.parts import Parts
from patiencelab.widget.protocol import hint_reply
from patiencelab.widget.teaching import LessonPlayer

__all__ = ["HANDLERS", "Handler", "IntentBoard", "handle"]


class IntentBoard(Protocol):
    """What the intent handlers need of their board (a :class:`~patiencelab.widget.session.BoardSession`)."""

    host: Host
    options: dict[str, Any]
    labels: dict[str, str]
    parts: Parts

    @property
    def game(self) -> Klondike: ...
    @property
    def lang(self) -> str: ...
    @lang.setter
    def lang(self, lang: str) -> None: ...
    @property
    def version(self) -> int: ...
    def set_option(self, name: str, value: Any) -> None: ...
    def new_game(self, *, seed: int | None = None, rules: Rules | None = None) -> Klondike: ...
    def resume(self) -> Klondike: ...
    def decline_resume(self) -> None: ...
    def step(self, action: str) -> None: ...
    def goto(self, step: int) -> None: ...
    def start_recording(self) -> None: ...
    def stop_recording(self) -> Lesson: ...
    def cancel_review(self) -> None: ...
    def stop_autoplay(self) -> None: ...
    def sync(self, change: Any = None, *, fresh: bool = False, bump: bool = True) -> None: ...


#: An intent's fields, and the reply to it (if any).
Fields = Mapping[str, Any]
Reply = dict[str, Any] | None
#: An intent's handler: it applies the intent ``kind`` with its ``fields`` to the board and returns the reply, if
#: any.
Handler = Callable[[IntentBoard, str, Fields, int | None], Reply]


def handle(board: IntentBoard, content: object) -> dict[str, Any] | None:
    """Check and apply one intent from the front end; returns the reply message, if any.

    A malformed, stale or illegal intent changes nothing and is answered with a ``rejected`` message.
    """
    intent_id = content.get("id") if isinstance(content, Mapping) else None
    if not isinstance(intent_id, int) or isinstance(intent_id, bool):
        intent_id = None
    try:
        with board.parts.lock:
            return _apply(board, content, intent_id)
    except RejectedIntentError as refused:
        return rejected(intent_id, refused.text, refused.rule, board.version)
    except Exception as err:  # a defect must still answer, never leave a traceback without a reply
        warnings.warn(f"intent failed: {type(err).__name__}: {err}", RuntimeWarning, stacklevel=3)
        return rejected(intent_id, f"internal error: {type(err).__name__}", None, board.version)


def _apply(board: IntentBoard, content: object, intent_id: int | None) -> dict[str, Any] | None:
    kind, fields = read_intent(content, board.version, board.lang)
    try:
        return HANDLERS[kind](board, kind, fields, intent_id)
    except RejectedIntentError:
        raise
    except IllegalMoveError as err:
        raise RejectedIntentError(err.reason, err.rule) from None
    except PatienceError as err:
        raise RejectedIntentError(str(err)) from None


#: The game's calls that an intent makes, with the property that says whether it can be made now and the sentence
#: that refuses it (draws and recycles are refused by the rules, with the reason in the game's language).
_CAN = {
    "undo": ("can_undo", "intent.no-undo"),
    "redo": ("can_redo", "intent.no-redo"),
    "autocomplete": ("can_autocomplete", "intent.no-autocomplete"),
}


def _on_move(board: IntentBoard, kind: str, fields: Fields, intent_id: int | None) -> Reply:
    move = intent_move(fields)
    if board.parts.lessons.quiz_waits():
        return _quiz_answer(board, move, intent_id)
    if board.parts.lessons.recorder is not None:
        _record_move(board, move)
    else:
        board.game.play(move)
    return None


def _on_talon(board: IntentBoard, kind: str, fields: Fields, intent_id: int | None) -> Reply:
    check_fields(fields, kind)
    if board.parts.lessons.quiz_waits():  # a click on the stock answers too: drawing may be the move
        return _quiz_answer(board, DRAW if kind == "draw" else RECYCLE, intent_id)
    getattr(board.game, kind)()
    return None


def _on_undo(board: IntentBoard, kind: str, fields: Fields, intent_id: int | None) -> Reply:
    check_fields(fields, "undo")
    if board.parts.lessons.recorder is not None and board.parts.lessons.recorder.drop_illegal():
        board.sync()
    else:
        _call_game(board, "undo")
    return None


def _call_game(board: IntentBoard, kind: str) -> None:
    """The game's call ``kind`` (``undo``, ``draw``, ...), refused in the board's language when it cannot be
    made now (a click that arrived after the board changed).
    """
    need = _CAN.get(kind)
    if need is not None and not getattr(board.game, need[0]):
        raise RejectedIntentError(message(need[1], board.lang))
    getattr(board.game, kind)()


def _on_restart(
    board: IntentBoard, kind: str, fields: Mapping[str, Any], intent_id: int | None
) -> dict[str, Any] | None:
    check_fields(fields, "restart")
    if board.parts.lessons.own is None:
        board.parts.keeper.store_unfinished(board.parts.lessons.own_game())
    board.game.reset()
    return None


def _on_new(board: IntentBoard, kind: str, fields: Fields, intent_id: int | None) -> Reply:
    seed, rules = new_game_request(fields, board.game.rules)
    board.new_game(seed=seed, rules=rules)
    return None


def _on_hint(board: IntentBoard, kind: str, fields: Fields, intent_id: int | None) -> Reply:
    check_fields(fields, "hint")
    option = board.options.__getitem__
    reply = hint_reply(
        board.game,
        intent_id,
        max_states=option("hint_max_states"),
        seconds=option("hint_seconds"),
        samples=board.options["hint_samples"],
    )
    if reply is None:
        raise RejectedIntentError(board.labels.get("no-hint", "No moves left."))
    return reply


def _on_stats(board: IntentBoard, kind: str, fields: Fields, intent_id: int | None) -> Reply:
    check_fields(fields, "stats")
    return {"type": "stats", "id": intent_id, "rows": board.parts.keeper.rows()}


def _on_review(
    board: IntentBoard, kind: str, fields: Mapping[str, Any], intent_id: int | None
) -> dict[str, Any] | None:
    if review_action(fields) == "cancel":
        board.cancel_review()
    else:
        board.parts.reviews.start()
    return None


def _on_resume(
    board: IntentBoard, kind: str, fields: Mapping[str, Any], intent_id: int | None
) -> dict[str, Any] | None:
    check_fields(fields, "resume", VOCABULARY["resume"].fields)
    board.resume() if fields.get("accept") is True else board.decline_resume()
    return None


def _on_lang(board: IntentBoard, kind: str, fields: Fields, intent_id: int | None) -> Reply:
    check_fields(fields, "lang", VOCABULARY["lang"].fields)
    board.lang = fields.get("lang")  # type: ignore[assignment]  # checked by the setter
    return None


def _on_lesson(
    board: IntentBoard, kind: str, fields: Mapping[str, Any], intent_id: int | None
) -> dict[str, Any] | None:
    check_fields(fields, "lesson", VOCABULARY["lesson"].fields)
    action = fields.get("action")
    if action == "goto":
        board.goto(lesson_step(fields, board.parts.lessons.player_or_refuse().steps))
    elif "step" in fields:
        raise RejectedIntentError("intent 'lesson' takes a 'step' only with the action 'goto'")
    elif action == "pace":
        if board.parts.lessons.player is None:
            raise PatienceError(message("lesson.none", board.lang))
        board.parts.lessons.player.set_pace(fields.get("pace"))
        board.sync()
    else:
        board.step(str(action) if isinstance(action, str) else repr(action))
    return None


def _on_record(
    board: IntentBoard, kind: str, fields: Mapping[str, Any], intent_id: int | None
) -> dict[str, Any] | None:
    action, value = record_request(fields, board.game)
    if action == "start":
        board.start_recording()
        return None
    recorder = board.parts.lessons.recorder
    if recorder is None:
        raise PatienceError(message("record.not-recording", board.lang))
    recorder.follow(board.game)
    if action == "stop":
        board.stop_recording()
        return None
    if action == "note":
        recorder.set_note(value, board.lang)
    elif action == "title":
        recorder.set_title(value, board.lang)
    elif action == "mark":
        recorder.toggle_mark(value, board.lang)
    elif action == "clear":
        recorder.clear_marks(board.lang)
    else:
        recorder.set_quiz(value, board.lang)
    board.sync()
    return None


def _on_autoplay(
    board: IntentBoard, kind: str, fields: Mapping[str, Any], intent_id: int | None
) -> dict[str, Any] | None:
    check_fields(fields, "autoplay", VOCABULARY["autoplay"].fields)
    if fields.get("action") not in VOCABULARY["autoplay"].actions:
        raise RejectedIntentError(f"intent 'autoplay' takes the action 'stop', not {quote(fields.get('action'))}")
    board.stop_autoplay()
    return None


def _on_simple(
    board: IntentBoard, kind: str, fields: Mapping[str, Any], intent_id: int | None
) -> dict[str, Any] | None:
    """One of the game's plain calls with no fields (``redo``, ``autocomplete``)."""
    check_fields(fields, kind)
    _call_game(board, kind)
    return None


def _on_switch(
    board: IntentBoard, kind: str, fields: Mapping[str, Any], intent_id: int | None
) -> dict[str, Any] | None:
    """A switch the front end may set: ``show_moves``, ``indicator``."""
    value = option_value(fields, kind)
    board.set_option(kind, value)
    board.host.option_changed(kind, value)
    return None


def _quiz_answer(board: IntentBoard, move: Move, intent_id: int | None) -> dict[str, Any] | None:
    """The class's answer to a quiz step: judged, said on the board, and the step played when it is over.

    An answer the solver must judge (a legal move the step does not list) is judged in a worker thread; the
    ``answer`` reply then follows when it is in (``None`` now).
    """
    player = board.parts.lessons.player
    assert player is not None
    game = board.game
    budget = board.options["quiz_max_states"]
    if board.parts.background.busy == "quiz":
        raise PatienceError(message("quiz.judging", board.lang))
    if not player.needs_solver(move, game, budget):
        answer = player.lesson.judge(player.step + 1, move, max_states=None, lang=board.lang)
        return _take_answer(board, player, answer, intent_id)
    step, lang = player.step + 1, board.lang
    lesson, peek = player.lesson, board.options["reveal"]  # fair while the face-down cards are hidden

    def judge() -> Any:
        try:
            return lesson.judge(step, move, max_states=budget, lang=lang, peek=peek)
        except Exception:  # the solver failed: the move is judged as one the step does not ask for
            return Answer("other", message("quiz.other", lang))

    def done(answer: Any) -> None:
        if board.parts.lessons.player is player:
            reply = _take_answer(board, player, answer, intent_id)
            with contextlib.suppress(Exception):  # no front end to answer (a script)
                board.host.send(reply)

    board.parts.background.run("quiz", judge, done, "quiz.judging")
    return None


def _take_answer(board: IntentBoard, player: LessonPlayer, answer: Answer, intent_id: int | None) -> dict[str, Any]:
    game = board.game
    moves = game.moves
    answer = player.word_answer(answer, game, board.lang)
    board.parts.caption.say("info", answer.text)  # before the step's move is played: its sync carries the words
    player.take_answer(answer, game)
    if game.moves == moves:  # a wrong answer with tries left: nothing was played
        board.sync()
    return {"type": "answer", "id": intent_id, "verdict": answer.verdict, "text": answer.text}


def _record_move(board: IntentBoard, move: Move) -> None:
    """A move while recording: played (the recorder reads it from the history), or, when the rules reject
    it, recorded as an illegal step.
    """
    recorder = board.parts.lessons.recorder
    assert recorder is not None
    game = board.game
    error = game.check(move)
    if error is None:
        game.play(move)
        return
    if error.rule == "game-over":
        raise error
    recorder.illegal(game, move)
    board.sync()


#: The handler of each intent type (:data:`~patiencelab.widget.intents.INTENTS`, no more, no less).
HANDLERS: Mapping[str, Handler] = {
    "move": _on_move,
    "draw": _on_talon,
    "recycle": _on_talon,
    "undo": _on_undo,
    "redo": _on_simple,
    "hint": _on_hint,
    "new": _on_new,
    "restart": _on_restart,
    "autocomplete": _on_simple,
    "lesson": _on_lesson,
    "lang": _on_lang,
    "show_moves": _on_switch,
    "indicator": _on_switch,
    "stats": _on_stats,
    "review": _on_review,
    "record": _on_record,
    "resume": _on_resume,
    "autoplay": _on_autoplay,
}
