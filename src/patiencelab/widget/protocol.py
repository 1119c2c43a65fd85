"""The board's protocol, without any widget library: the state Python sends, the intents it accepts and the
replies it gives (see ``docs/widget-protocol.md``; the TypeScript types are in ``js/types.ts``).

Everything here is a pure function of a game and the board's options, so it is tested without anywidget and
without a built front end; :class:`~patiencelab.widget.session.BoardSession` calls it, and
:class:`~patiencelab.widget.board.KlondikeWidget` only wires the session to traitlets.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from patiencelab.core.cards import Card
from patiencelab.core.errors import PatienceError, quote, unknown_fields
from patiencelab.core.game import Change, Klondike, Played
from patiencelab.core.i18n import language_names, message
from patiencelab.core.limits import check_text
from patiencelab.core.marks import Mark, is_pile, move_piles, pile_of
from patiencelab.core.moves import DRAW, RECYCLE, Move
from patiencelab.core.rules import PRESETS, Rules

__all__ = [
    "INTENTS",
    "MAX_FIELD",
    "MAX_REPLY",
    "MAX_SEED",
    "MAX_SIZE",
    "MIN_SIZE",
    "SIMPLE",
    "RejectedIntentError",
    "board_state",
    "check_fields",
    "face_up_cards",
    "hint_reply",
    "intent_move",
    "last_move",
    "lesson_step",
    "look_option",
    "move_ends",
    "new_game_request",
    "option_value",
    "pile_of",
    "read_intent",
    "record_request",
    "rejected",
    "review_action",
    "synced_state",
]

#: Every intent type the front end may send.
INTENTS = (
    "move",
    "draw",
    "recycle",
    "undo",
    "redo",
    "hint",
    "new",
    "restart",
    "autocomplete",
    "lesson",
    "lang",
    "show_moves",
    "indicator",
    "stats",
    "review",
    "record",
    "resume",
    "autoplay",
)
#: Intents that are one call of the game's, with no fields.
SIMPLE = ("draw", "recycle", "undo", "redo", "autocomplete")
#: Intents that name cards and places of the board they were made on: only these must match its version. The
#: others (draw, undo, lesson steps, ...) are relative commands, applied in the order they arrive, so quick
#: clicks are never lost.
VERSIONED = ("move",)
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


# ------------------------------------------------------------------------------------------------ piles


def move_ends(move: Move, cards: list[str]) -> tuple[str, str]:
    """Where ``move`` takes its cards from and puts them, as piles (a draw goes from the stock to the waste)."""
    return move_piles(move, cards[0] if cards else None)


# ------------------------------------------------------------------------------------------------ state


def board_state(game: Klondike, *, reveal: bool, show_moves: bool, lang: str) -> dict[str, Any]:
    """The part of the synced state that follows from the game and the board's options: the view (face-down
    cards as ``null`` unless ``reveal``), what may be picked up and where it may go, the rules and the
    languages. One pass over the legal moves serves the targets, the status and the stock's buttons.
    """
    legal = game.legal_moves()
    view = game.view(reveal=reveal)
    rules = game.rules
    return {
        **view,
        "seconds": round(game.seconds, 3),
        "clock_running": view["status"] == "playing",
        "can_draw": DRAW in legal,
        "can_recycle": RECYCLE in legal,
        "can_autocomplete": game.can_autocomplete,
        "targets": _targets(game),
        "pickable": _pickable(game),
        "rules": {
            "preset": rules.preset_name,
            "draw": rules.draw,
            "max_passes": rules.max_passes,
            "foundation_to_tableau": rules.foundation_to_tableau,
            "scoring": rules.scoring.name,
        },
        "reveal": reveal,
        "show_moves": show_moves,
        "lang": lang,
        "languages": [list(pair) for pair in language_names()],
        "rules_text": rules.describe(lang),
    }


def synced_state(
    game: Klondike,
    *,
    reveal: bool,
    show_moves: bool,
    lang: str,
    last_move: Mapping[str, Any] | None,
    message: Mapping[str, Any] | None,
    lesson: Mapping[str, Any] | None,
    indicator: Mapping[str, Any],
    stats: Mapping[str, Any],
    recording: Mapping[str, Any] | None,
    review: Mapping[str, Any],
    autoplay: Mapping[str, Any],
    version: int,
) -> dict[str, Any]:
    """The whole synced state (``GameState`` of ``js/protocol.schema.json``): :func:`board_state` and the
    board's own parts, the last move, the caption's message, the lesson, the indicator, the statistics
    (``stats``), the lesson being recorded (``recording``), the review's button, the automatic player, and the
    version. The only place it is assembled.
    """
    return {
        **board_state(game, reveal=reveal, show_moves=show_moves, lang=lang),
        "last_move": last_move,
        "message": message,
        "lesson": lesson,
        "indicator": indicator,
        "stats": stats,
        "recording": recording,
        "review": review,
        "autoplay": autoplay,
        "version": version,
    }


def _targets(game: Klondike) -> dict[str, list[str]]:
    """Every card that can move now (the lead of what moves) and the piles it may go to: ``t3``, ``fH``."""
    targets: dict[str, list[str]] = {}
    for move, lead in game.legal_leads():
        card = str(lead)
        piles = targets.setdefault(card, [])
        pile = pile_of(move.target, card)
        if pile not in piles:
            piles.append(pile)  # type: ignore[arg-type] # a card move always has a target
    return targets


def _pickable(game: Klondike) -> list[str]:
    """The cards a player may pick up (a drop where one may not go is answered with the reason): every
    face-up card of a column, the top card of the waste and of each foundation; none once the game is won.
    """
    if game.is_won:
        return []
    cards = [card for column in game.tableau for card in column.up]
    cards += game.waste[-1:]
    cards += [Card(rank, suit) for suit, rank in game.foundations.items() if rank]
    return [str(card) for card in cards]


def last_move(change: Change, words: Mapping[str, str]) -> dict[str, Any] | None:
    """The single action of ``change`` (played, redone or taken back) as the board animates and reads it: the
    move, the cards, the piles it went from and to, and the sentence for the live region in the board's
    language (``words`` are the board's labels); ``None`` for a reset or several actions at once.
    """
    played = change.last
    if played is None:
        return None
    move, undo = played.move, change.kind == "undo"
    cards = [] if move.is_draw or move.is_recycle else [str(c) for c in played.cards]
    ends = list(move_ends(move, cards))
    if undo:
        ends.reverse()
    return {
        "move": str(move),
        "cards": cards,
        "from": ends[0],
        "to": ends[1],
        "undo": undo,
        "text": _move_text(change.game, played, undo, ends[1], words),
    }


def _move_text(game: Klondike, played: Played, undo: bool, to: str, words: Mapping[str, str]) -> str:
    """ "5 of Hearts to Column 3", "Draw: Ace of Clubs", "Undo: ..." in the board's words."""
    move = played.move

    def name(card: Card) -> str:
        rank = words.get(f"rank.{card.rank}", str(card.rank)) if card.rank in (1, 11, 12, 13) else str(card.rank)
        return words.get("of", "{rank} {suit}").format(rank=rank, suit=words.get(f"suit.{card.suit.value}", ""))

    def place(pile: str) -> str:
        if pile in ("stock", "w"):
            return words.get("stock" if pile == "stock" else "waste", pile)
        if pile[0] == "t":
            return f"{words.get('column', 'Column')} {pile[1:]}"
        return f"{words.get('foundation', 'Foundation')} {words.get(f'suit.{pile[1]}', pile[1])}"

    prefix = f"{words.get('undo', 'Undo')}: " if undo else ""
    if move.is_recycle or (move.is_draw and undo):
        return prefix + words.get("recycle" if move.is_recycle else "draw", str(move))
    if move.is_draw:
        return f"{words.get('draw', 'Draw')}: {name(game.waste[-1])}" if game.waste else words.get("draw", "d")
    return prefix + words.get("moved-to", "{card} to {place}").format(card=name(played.cards[0]), place=place(to))


def hint_reply(
    game: Klondike, intent_id: int | None, *, max_states: int | None, seconds: float, samples: int = 16
) -> dict[str, Any] | None:
    """The reply to a ``hint`` intent: the fair hint (from the player's view only, ``samples`` deals of the
    unseen cards each solved within ``max_states`` positions), the card and pile to highlight, and the reason in
    words; ``None`` when no move is legal.
    """
    from patiencelab.core.narration import hint_text
    from patiencelab.hints import find_fair_hint

    hint = find_fair_hint(game, samples=samples, max_states=max_states, seconds=seconds)
    if hint is None:
        return None
    move = hint.move
    cards = game.moving_cards(move)
    return {
        "type": "hint",
        "id": intent_id,
        "move": str(move),
        "card": str(cards[0]) if cards else None,
        "to": move_ends(move, [str(cards[0])])[1] if cards else "stock",
        "reason": hint.reason,
        "text": hint_text(game, hint),
    }


# ----------------------------------------------------------------------------------------------- intents


#: The card widths (pixels) that ``KlondikeWidget(size=...)`` takes.
MIN_SIZE, MAX_SIZE = 40, 240


def look_option(name: str, value: object) -> Any:
    """``value`` for the board's look option ``name``, checked: ``size`` is a card width from :data:`MIN_SIZE` to
    :data:`MAX_SIZE` pixels or ``None``; ``faces`` is ``"standard"`` or ``"local"``.
    """
    if name == "size":
        if value is not None and (type(value) is not int or not MIN_SIZE <= value <= MAX_SIZE):
            raise PatienceError(
                f"size is a card width from {MIN_SIZE} to {MAX_SIZE} pixels or None, not {quote(value)}"
            )
        return value
    if value not in ("standard", "local"):
        raise PatienceError(f"faces is 'standard' or 'local', not {quote(value)}")
    return str(value)


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
    check_fields(content, "move", ("card", "to"))
    card, to = content.get("card"), content.get("to")
    if not isinstance(card, str) or not isinstance(to, str):
        raise RejectedIntentError("a move intent needs 'card' (such as '5H') and 'to' (such as 't5' or 'f') as text")
    if "-" in card or "-" in to:
        raise RejectedIntentError(f"'card' and 'to' name one card and one place, not {quote(card)} and {quote(to)}")
    return Move.parse(f"{card}-{to}")


def new_game_request(content: Mapping[str, Any], current: Rules) -> tuple[int | None, Rules]:
    """The seed and rules a ``new`` intent asks for (the current rules' preset, draw and scoring by default)."""
    check_fields(content, "new", ("preset", "draw", "seed"))
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
    check_fields(content, kind, ("on",))
    on = content.get("on")
    if not isinstance(on, bool):
        raise RejectedIntentError(f"intent {kind!r} needs 'on': true or false, not {quote(on)}")
    return on


def review_action(content: Mapping[str, Any]) -> str:
    """The action of a ``review`` intent: ``start`` (also when it names none) or ``cancel``."""
    check_fields(content, "review", ("action",))
    action = content.get("action", "start")
    if action not in ("start", "cancel"):
        raise RejectedIntentError(f"intent 'review' takes the action 'start' or 'cancel', not {quote(action)}")
    return str(action)


def lesson_step(content: Mapping[str, Any], steps: int) -> int:
    """The step a lesson's ``goto`` intent asks for: a whole number from 0 to ``steps``."""
    step = content.get("step")
    if not isinstance(step, int) or isinstance(step, bool) or not 0 <= step <= steps:
        raise RejectedIntentError(f"'goto' needs a 'step' from 0 to {steps}, not {quote(step)}")
    return step


#: The actions of a ``record`` intent and the field each takes.
_RECORD_FIELDS = {
    "start": (),
    "stop": (),
    "clear": (),
    "note": ("text",),
    "title": ("text",),
    "mark": ("mark",),
    "quiz": ("quiz",),
}


def record_request(content: Mapping[str, Any], game: Klondike) -> tuple[str, Any]:
    """The action of a ``record`` intent and its value, checked: ``note`` and ``title`` take ``text`` (at most
    500 characters), ``mark`` takes ``mark`` (``{"arrow": [pile, pile]}`` or ``{"circle": pile or card}``, with an
    optional ``color``; piles that exist under the game's rules, a card only when it lies face up), ``quiz``
    takes ``quiz`` (``"move"``, ``"winnable"`` or ``null``).
    """
    action = content.get("action")
    if not isinstance(action, str) or action not in _RECORD_FIELDS:
        raise RejectedIntentError(f"unknown record action {quote(action)}: choose one of {', '.join(_RECORD_FIELDS)}")
    wanted = _RECORD_FIELDS[action]
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
