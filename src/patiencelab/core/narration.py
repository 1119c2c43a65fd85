"""Plain-language narration for teaching: what a move does and which rule allows it, and a rule set in words.

Every sentence comes from the message catalogues (:mod:`patiencelab.core.i18n`), so it exists in English, Dutch and
Swedish. Narration never names a face-down card before it is turned up.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from patiencelab.core.cards import Card
from patiencelab.core.errors import ArgumentTypeError
from patiencelab.core.i18n import check_language, message
from patiencelab.core.limits import check_instance, check_text
from patiencelab.core.moves import Move

if TYPE_CHECKING:
    from patiencelab.core.game import Klondike, Played
    from patiencelab.core.rules import Rules
    from patiencelab.hints import Hint

__all__ = ["describe_rules", "explain", "hint_text", "move_phrase", "narrate_played"]


def _place(place: str, card: Card, lang: str) -> str:
    """``the waste``, ``column 2``, ``the hearts foundation``."""
    if place == "w":
        return message("place.w", lang)
    if place[0] == "t":
        return message("place.t", lang, column=place[1])
    return message("place.f", lang, suit=message(f"suit.{card.suit.value}", lang))


def _points(points: int, lang: str) -> str:
    return message("explain.points", lang, change=f"{points:+d}") if points else ""


def _game(game: object) -> Klondike:
    """``game`` when it is a game (by what narration reads of it: the module is below the game's layer)."""
    if not (isinstance(getattr(game, "lang", None), str) and callable(getattr(game, "moving_cards", None))):
        raise ArgumentTypeError(f"game must be a Klondike game, not {type(game).__name__}")
    return cast("Klondike", game)


def _with_move(value: object, name: str, kind: str) -> None:
    """Raise unless ``value`` carries a ``move`` (a played action, a hint: types of layers above this one)."""
    if not isinstance(getattr(value, "move", None), Move):
        raise ArgumentTypeError(f"{name} must be a {kind}, not {type(value).__name__}")


def explain(game: Klondike, move: Move | str) -> str:
    """One or two sentences on what ``move`` does now and which rule allows it (or which rule forbids it). A
    face-down card it would turn up is not named.
    """
    error = _game(game).check(move)
    if error is not None:
        return message("explain.illegal", game.lang, reason=error.reason)
    trial = game.copy()
    trial.play(move)
    played = trial.last_played()
    assert played is not None
    return _sentences(trial, played, name_turned=False)


def narrate_played(game: Klondike, played: Played) -> str:
    """The narration of ``played``, the action just played in ``game`` (see
    :meth:`~patiencelab.core.engine.Engine.last_played` and :class:`~patiencelab.core.game.Change`), naming the card it
    turned up.
    """
    _with_move(played, "played", "Played")
    return _sentences(_game(game), played, name_turned=True)


def _sentences(game: Klondike, played: Played, *, name_turned: bool) -> str:
    """What ``played`` did, read from ``game`` right after it: the move and its rule, the card turned up, the
    points, and the win.
    """
    lang, move = game.lang, played.move
    if move.is_draw:
        count = len(played.cards)
        text = message("explain.draw-one" if count == 1 else "explain.draw-many", lang, count=count)
    elif move.is_recycle:
        text = message("explain.recycle", lang)
        left = game.passes_left
        if left is not None:
            text += " " + message("explain.passes-left", lang, left=left)
    else:
        text = _explain_card_move(game, played, lang)
        if played.turned is not None:
            column = (move.source or "")[1:]
            if name_turned:
                text += " " + message("explain.turned", lang, card=played.turned, column=column)
            else:
                text += " " + message("explain.turn-up", lang, column=column)
    sentences = [text, _points(played.points, lang)]
    if game.is_won:
        sentences.append(message("explain.won", lang))
    return " ".join(s for s in sentences if s)


def _explain_card_move(game: Klondike, played: Played, lang: str) -> str:
    """The sentence for a card move, read from ``game`` right after it."""
    move, cards = played.move, played.cards
    card = cards[0]
    source, target = move.source, move.target
    assert source is not None and target is not None
    where = _place(source, card, lang)
    if target[0] == "f":
        if card.rank == 1:
            return message("explain.ace-to-foundation", lang, card=card, source=where)
        below = Card(card.rank - 1, card.suit)
        suit = message(f"suit.{card.suit.value}", lang)
        return message("explain.to-foundation", lang, card=card, source=where, suit=suit, below=below)
    column = target[1]
    up = game.tableau[int(column) - 1].up
    top = up[-len(cards) - 1] if len(up) > len(cards) else None  # the card the move went onto
    if source[0] == "f":
        suit = message(f"suit.{card.suit.value}", lang)
        if top is None:
            return message("explain.from-foundation-empty", lang, card=card, suit=suit, column=column)
        return message("explain.from-foundation", lang, card=card, suit=suit, top=top, column=column)
    if top is None:
        key = "explain.king-to-empty" if game.rules.empty_column == "king" else "explain.any-to-empty"
        return message(key, lang, card=card, source=where, column=column)
    key = "explain.run-to-column" if len(cards) > 1 else "explain.to-column"
    color = message("color.red-noun" if card.is_red else "color.black-noun", lang)
    other = message("color.black-noun" if card.is_red else "color.red-noun", lang)
    return message(key, lang, card=card, source=where, top=top, column=column, color=color, other=other)


def move_phrase(game: Klondike, move: Move, phrases: str = "hint.move") -> str:
    """A legal move of ``game`` in words, from the catalogue's ``phrases`` (``hint.move``: "Move the 5♦ onto the
    6♠", "Draw from the stock"; ``review.after``: "After the 5♦ went onto the 6♠"): one key for each of
    ``draw``, ``recycle``, ``to-foundation``, ``to-empty`` and ``to-column``.
    """
    lang = _game(game).lang
    check_instance(move, "move", Move)
    check_text(phrases, 100, "phrases", ArgumentTypeError)  # a catalogue's prefix: message() knows its keys
    if move.is_draw or move.is_recycle:
        return message(f"{phrases}.draw" if move.is_draw else f"{phrases}.recycle", lang)
    card = game.moving_cards(move)[0]
    target = move.target
    assert target is not None
    if target[0] == "f":
        return message(f"{phrases}.to-foundation", lang, card=card)
    top = game.tableau[int(target[1:]) - 1].top
    if top is None:
        return message(f"{phrases}.to-empty", lang, card=card, column=target[1:])
    return message(f"{phrases}.to-column", lang, card=card, top=top)


def hint_text(game: Klondike, hint: Hint) -> str:
    """A hint as one short sentence in the game's language: "Move the 5♦ onto the 6♠: it turns over a card in
    column 3."
    """
    _with_move(hint, "hint", "Hint")
    lang, move = _game(game).lang, hint.move
    what = move_phrase(game, move)
    params: dict[str, object] = {}
    if hint.reason == "turn-up":
        params["column"] = hint.column
    elif hint.reason == "chances":
        params.update(kept=hint.kept, samples=hint.samples)
    elif hint.reason == "foundation":
        params["suit"] = message(f"suit.{game.moving_cards(move)[0].suit.value}", lang)
    return message("hint.sentence", lang, move=what, why=message(f"hint.why.{hint.reason}", lang, **params))


def describe_rules(rules: Rules, lang: str = "en") -> str:
    """The rule set as a few short lines in ``lang``."""
    if not isinstance(getattr(rules, "face_down", None), tuple):
        raise ArgumentTypeError(f"rules must be a Rules, not {type(rules).__name__}")
    check_language(lang)
    columns = rules.columns
    sizes = [n + 1 for n in rules.face_down]
    lines = [
        message(f"rules.title.{rules.preset_name or 'custom'}", lang),
        message("rules.deal", lang, columns=columns, low=min(sizes), high=max(sizes), stock=52 - sum(sizes)),
        message("rules.draw-one", lang) if rules.draw == 1 else message("rules.draw-many", lang, draw=rules.draw),
    ]
    passes = rules.max_passes
    if passes is None:
        lines.append(message("rules.passes-unlimited", lang))
    elif passes == 1:
        lines.append(message("rules.passes-one", lang))
    else:
        lines.append(message("rules.passes-many", lang, passes=passes))
    lines.append(message("rules.tableau", lang))
    lines.append(message("rules.empty-king" if rules.empty_column == "king" else "rules.empty-any", lang))
    lines.append(message("rules.foundations", lang))
    lines.append(message("rules.return-on" if rules.foundation_to_tableau else "rules.return-off", lang))
    scoring = rules.scoring.name if rules.scoring.to_json() == rules.scoring.name else "custom"
    lines.append(message("rules.scoring", lang, name=message(f"scoring.{scoring}", lang)))
    return "\n".join(lines)
