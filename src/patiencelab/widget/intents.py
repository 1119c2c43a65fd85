"""The board's intents, in one place: :data:`VOCABULARY`, every intent type the front end may send with the
fields and actions it takes, and the checks that read an intent's fields (each raises
:class:`RejectedIntentError` with the reason, which the board sends back as a ``rejected`` reply).

The TypeScript ``IntentBody`` of ``js/types.ts``, the JSON Schema generated from it (``js/protocol.schema.json``)
and the board's dispatch (:mod:`patiencelab.widget.dispatch`) follow this table: ``tests/test_vocabulary.py``
fails when one of them names an intent, a field or an action the table does not, or misses one it does.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from patiencelab.core.cards import Card
from patiencelab.core.errors import PatienceError, quote, unknown_fields
from patiencelab.core.game import Klondike
from patiencelab.core.i18n import message
from patiencelab.core.limits import check_text
from patiencelab.core.marks import Mark, is_pile
from patiencelab.core.moves import Move
from patiencelab.core.rules import PRESETS, Rules

__all__ = [
    "INTENTS",
    "LESSON_ACTIONS",
    "LONG_FIELDS",
    "MAX_FIELD",
    "MAX_REPLY",
    "MAX_SEED",
    "RECORD_ACTIONS",
    "RECORD_FIELDS",
    "SIMPLE",
    "VERSIONED",
    "VOCABULARY",
    "IntentSpec",
    "RejectedIntentError",
    "check_fields",
    "face_up_cards",
    "intent_move",
    "lesson_step",
    "new_game_request",
    "option_value",
    "read_intent",
    "record_request",
    "rejected",
    "review_action",
]


@dataclass(frozen=True)
class IntentSpec:
    """One intent type: the fields it takes beside ``type``, ``version`` and ``id``, the values of its ``action``
    field when it has one, and whether it must match the board's version (see :data:`VERSIONED`).
    """

    fields: tuple[str, ...] = ()
    actions: tuple[str, ...] = ()
    versioned: bool = False


#: The actions of a ``lesson`` intent (``goto`` takes a ``step``, ``pace`` a ``pace``; ``next-mark`` and
#: ``prev-mark`` step through the marked moves of a review's lesson). The last three are not step controls.
LESSON_ACTIONS = (
    "first",
    "back",
    "forward",
    "last",
    "play",
    "pause",
    "resume",
    "next-mark",
    "prev-mark",
    "close",
    "goto",
    "pace",
)
#: The actions of a ``record`` intent and the field each takes.
RECORD_FIELDS: Mapping[str, tuple[str, ...]] = {
    "start": (),
    "stop": (),
    "clear": (),
    "note": ("text",),
    "title": ("text",),
    "mark": ("mark",),
    "quiz": ("quiz",),
}
#: The actions of a ``record`` intent.
RECORD_ACTIONS = tuple(RECORD_FIELDS)

#: Every intent type the front end may send, with its fields and actions: the one list of them.
VOCABULARY: Mapping[str, IntentSpec] = {
    "move": IntentSpec(("card", "to"), versioned=True),
    "draw": IntentSpec(),
    "recycle": IntentSpec(),
    "undo": IntentSpec(),
    "redo": IntentSpec(),
    "hint": IntentSpec(),
    "new": IntentSpec(("preset", "draw", "seed")),
    "restart": IntentSpec(),
    "autocomplete": IntentSpec(),
    "lesson": IntentSpec(("action", "pace", "step"), LESSON_ACTIONS),
    "lang": IntentSpec(("lang",)),
    "show_moves": IntentSpec(("on",)),
    "indicator": IntentSpec(("on",)),
    "stats": IntentSpec(),
    "review": IntentSpec(("action",), ("start", "cancel")),
    "record": IntentSpec(("action", "text", "mark", "quiz"), RECORD_ACTIONS),
    "resume": IntentSpec(("accept",)),
    "autoplay": IntentSpec(("action",), ("stop",)),
}
#: Every intent type the front end may send.
INTENTS = tuple(VOCABULARY)
#: Intents that are one call of the game's, with no fields.
SIMPLE = ("draw", "recycle", "undo", "redo", "autocomplete")
#: Intents that name cards and places of the board they were made on: only these must match its version. The
#: others (draw, undo, lesson steps, ...) are relative commands, applied in the order they arrive, so quick
#: clicks are never lost.
VERSIONED = tuple(kind for kind, spec in VOCABULARY.items() if spec.versioned)

#: The longest reply text sent back (an echo of outside input is cut to this).
MAX_REPLY = 400
#: The longest text field an intent may carry (card, place, preset, action, language).
MAX_FIELD = 32
#: Text fields that may be longer than :data:`MAX_FIELD`: a recorded step's note, by intent type and field.
LONG_FIELDS = {("record", "text"): 500}
#: Seeds a board accepts from the front end: what a 64-bit signed integer holds (SQLite, JSON in browsers).
MAX_SEED = 2**63 - 1


class RejectedIntentError(PatienceError):
    """An intent that changes nothing; carries the reply's rule code (``None`` when no rule is involved)."""

    def __init__(self, text: str, rule: str | None = None) -> None:
        super().__init__(text)
        self.text = text
        self.rule = rule


def read_intent(content: object, version: int, lang: str = "en") -> tuple[str, Mapping[str, Any]]:
    """Check an intent's shape, type, version and field sizes; returns its type and fields. Raises
    :class:`RejectedIntentError` with the reason when any of them is wrong: a move made on an older version of
    the board (a player's quick hands) in the board's language ``lang``, the rest (a front end that breaks the
    protocol) for its developer.
    """
    if not isinstance(content, Mapping):
        raise RejectedIntentError(f"an intent must be an object, not {type(content).__name__}")
    kind = content.get("type")
    if not isinstance(kind, str) or kind not in INTENTS:
        raise RejectedIntentError(f"unknown intent type {quote(kind)}")
    made_on = content.get("version")
    if not isinstance(made_on, int) or isinstance(made_on, bool):
        raise RejectedIntentError(f"intent {kind!r} needs the integer version it was made on")
    if kind in VERSIONED and made_on != version:
        raise RejectedIntentError(message("intent.stale", lang))
    for key, value in content.items():
        check_text(key, MAX_FIELD, f"intent {kind!r}: a field's name", RejectedIntentError)
        if isinstance(value, str):
            limit = LONG_FIELDS.get((kind, key), MAX_FIELD)
            check_text(value, limit, f"intent {kind!r}: {quote(key)}", RejectedIntentError)
    return kind, content


def check_fields(content: Mapping[str, Any], kind: str, allowed: tuple[str, ...] = ()) -> None:
    """Reject an intent with fields it does not take."""
    extra = unknown_fields(content, ("type", "version", "id", *allowed))
    if extra:
        raise RejectedIntentError(f"intent {kind!r} has unknown field(s): {extra}")


def intent_move(content: Mapping[str, Any]) -> Move:
    """The move a ``move`` intent asks for (``card`` onto ``to``), still to be checked by the game."""
    check_fields(content, "move", VOCABULARY["move"].fields)
    card, to = content.get("card"), content.get("to")
    if not isinstance(card, str) or not isinstance(to, str):
        raise RejectedIntentError("a move intent needs 'card' (such as '5H') and 'to' (such as 't5' or 'f') as text")
    if "-" in card or "-" in to:
        raise RejectedIntentError(f"'card' and 'to' name one card and one place, not {quote(card)} and {quote(to)}")
    return Move.parse(f"{card}-{to}")


def new_game_request(content: Mapping[str, Any], current: Rules) -> tuple[int | None, Rules]:
    """The seed and rules a ``new`` intent asks for (the current rules' preset, draw and scoring by default)."""
    check_fields(content, "new", VOCABULARY["new"].fields)
    preset = content.get("preset", current.preset_name or "standard")
    draw = content.get("draw", current.draw)
    seed = content.get("seed")
    if preset not in PRESETS:
        raise RejectedIntentError(f"unknown preset {quote(preset)}: choose one of {', '.join(PRESETS)}")
    if draw not in (1, 3) or isinstance(draw, bool):
        raise RejectedIntentError(f"draw must be 1 or 3, not {quote(draw)}")
    if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed <= MAX_SEED):
        raise RejectedIntentError(f"seed must be a whole number from 0 to {MAX_SEED}, not {quote(seed)}")
    return seed, Rules.preset(preset, draw=draw, scoring=current.scoring)


def option_value(content: Mapping[str, Any], kind: str) -> bool:
    """The ``on`` of an option intent (``show_moves``, ``indicator``)."""
    check_fields(content, kind, VOCABULARY[kind].fields)
    on = content.get("on")
    if not isinstance(on, bool):
        raise RejectedIntentError(f"intent {kind!r} needs 'on': true or false, not {quote(on)}")
    return on


def review_action(content: Mapping[str, Any]) -> str:
    """The action of a ``review`` intent: ``start`` (also when it names none) or ``cancel``."""
    check_fields(content, "review", VOCABULARY["review"].fields)
    action = content.get("action", "start")
    if action not in VOCABULARY["review"].actions:
        raise RejectedIntentError(f"intent 'review' takes the action 'start' or 'cancel', not {quote(action)}")
    return str(action)


def lesson_step(content: Mapping[str, Any], steps: int) -> int:
    """The step a lesson's ``goto`` intent asks for: a whole number from 0 to ``steps``."""
    step = content.get("step")
    if not isinstance(step, int) or isinstance(step, bool) or not 0 <= step <= steps:
        raise RejectedIntentError(f"'goto' needs a 'step' from 0 to {steps}, not {quote(step)}")
    return step


def record_request(content: Mapping[str, Any], game: Klondike) -> tuple[str, Any]:
    """The action of a ``record`` intent and its value, checked: ``note`` and ``title`` take ``text`` (at most
    500 characters), ``mark`` takes ``mark`` (``{"arrow": [pile, pile]}`` or ``{"circle": pile or card}``, with an
    optional ``color``; piles that exist under the game's rules, a card only when it lies face up), ``quiz``
    takes ``quiz`` (``"move"``, ``"winnable"`` or ``null``).
    """
    action = content.get("action")
    if not isinstance(action, str) or action not in RECORD_FIELDS:
        raise RejectedIntentError(f"unknown record action {quote(action)}: choose one of {', '.join(RECORD_FIELDS)}")
    wanted = RECORD_FIELDS[action]
    check_fields(content, "record", ("action", *wanted))
    for name in wanted:
        if name not in content:
            raise RejectedIntentError(f"record action {action!r} needs {name!r}")
    if action in ("note", "title"):
        text = content["text"]
        if not isinstance(text, str):
            raise RejectedIntentError(f"a {action} is text, not {quote(text)}")
        return action, text
    if action == "quiz":
        kind = content["quiz"]
        if kind not in ("move", "winnable", None):
            raise RejectedIntentError(f"quiz is 'move', 'winnable' or null, not {quote(kind)}")
        return action, kind
    if action == "mark":
        return action, _mark(content["mark"], game)
    return action, None


def _mark(value: object, game: Klondike) -> Mark:
    """A mark from the front end, on piles of this board and cards that can be seen."""
    if not isinstance(value, Mapping) or len(value) > 3:
        raise RejectedIntentError('a mark is {"arrow": [from, to]} or {"circle": pile or card}')
    try:
        mark = Mark.from_json(value)
    except PatienceError as err:
        raise RejectedIntentError(str(err)) from None
    columns = len(game.tableau)
    for place in (mark.at, mark.to):
        if place is None:
            continue
        if is_pile(place):
            if place[0] == "t" and int(place[1:]) > columns:
                raise RejectedIntentError(f"this board has no {place}")
            continue
        if place not in face_up_cards(game):
            raise RejectedIntentError(f"a circle goes on a card that can be seen, not {quote(place)}")
    return mark


def face_up_cards(game: Klondike) -> set[str]:
    """The cards that lie face up (columns, the waste, the foundations' top cards)."""
    cards = {str(card) for column in game.tableau for card in column.up}
    cards |= {str(card) for card in game.waste}
    cards |= {str(Card(rank, suit)) for suit, rank in game.foundations.items() if rank}
    return cards


def rejected(intent_id: int | None, text: str, rule: str | None, version: int) -> dict[str, Any]:
    """The ``rejected`` reply, its text cut to :data:`MAX_REPLY` characters."""
    if len(text) > MAX_REPLY:
        text = text[: MAX_REPLY - 1] + "…"
    return {"type": "rejected", "id": intent_id, "rule": rule, "text": text, "version": version}
