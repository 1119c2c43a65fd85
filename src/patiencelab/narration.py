"""Plain-language narration for teaching: what a move does and which rule allows it, and a rule set in words.

Every sentence comes from the message catalogues (:mod:`patiencelab.core.i18n`), so it exists in English, Dutch and
Swedish. Narration never names a face-down card before it is turned up.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from patiencelab.core.cards import Card
from patiencelab.core.i18n import check_language, message
from patiencelab.core.moves import Move

if TYPE_CHECKING:
    from patiencelab.core.game import Klondike
    from patiencelab.core.rules import Rules
    from patiencelab.hints import Hint

__all__ = ["describe_rules", "explain", "hint_text", "narrate_played"]


def _place(place: str, card: Card, lang: str) -> str:
    """``the waste``, ``column 2``, ``the hearts foundation``."""
    if place == "w":
        return message("place.w", lang)
    if place[0] == "t":
        return message("place.t", lang, column=place[1])
    return message("place.f", lang, suit=message(f"suit.{card.suit.value}", lang))


def _points(points: int, lang: str) -> str:
    return message("explain.points", lang, points=f"{points:+d}") if points else ""


def explain(game: Klondike, move: Move | str) -> str:
    """One or two sentences on what ``move`` does now and which rule allows it (or which rule forbids it)."""
    lang = game.lang
    move = Move.parse(move)
    error = game.check(move)
    if error is not None:
        return message("explain.illegal", lang, reason=error.reason)
    trial = game.copy()
    score_before = trial.score
    played = trial._play(move)
    points = trial.score - score_before
    if played.is_draw:
        count = len(trial.waste) - len(game.waste)
        text = message("explain.draw-one" if count == 1 else "explain.draw-many", lang, count=count)
    elif played.is_recycle:
        text = message("explain.recycle", lang)
        left = trial.passes_left
        if left is not None:
            text += " " + message("explain.passes-left", lang, left=left)
    else:
        text = _explain_card_move(game, played, lang)
        column = game.uncovers(played)
        if column is not None:
            text += " " + message("explain.turn-up", lang, column=column)
    sentences = [text, _points(points, lang)]
    if trial.is_won:
        sentences.append(message("explain.won", lang))
    return " ".join(s for s in sentences if s)


def _explain_card_move(game: Klondike, move: Move, lang: str) -> str:
    cards = game.moving_cards(move)
    card = cards[0]
    source, target = move.source, move.target
    assert source is not None and target is not None
    where = _place(source, card, lang)
    if target[0] == "f":
        if card.rank == 1:
            return message("explain.ace-to-foundation", lang, card=card.symbol, source=where)
        below = Card(card.rank - 1, card.suit).symbol
        suit = message(f"suit.{card.suit.value}", lang)
        return message("explain.to-foundation", lang, card=card.symbol, source=where, suit=suit, below=below)
    column = target[1]
    top = game.tableau[int(column) - 1].top
    if source[0] == "f":
        suit = message(f"suit.{card.suit.value}", lang)
        if top is None:
            return message("explain.from-foundation-empty", lang, card=card.symbol, suit=suit, column=column)
        return message("explain.from-foundation", lang, card=card.symbol, suit=suit, top=top.symbol, column=column)
    if top is None:
        key = "explain.king-to-empty" if game.rules.empty_column == "king" else "explain.any-to-empty"
        return message(key, lang, card=card.symbol, source=where, column=column)
    key = "explain.run-to-column" if len(cards) > 1 else "explain.to-column"
    color = message("color.red-noun" if card.is_red else "color.black-noun", lang)
    other = message("color.black-noun" if card.is_red else "color.red-noun", lang)
    return message(key, lang, card=card.symbol, source=where, top=top.symbol, column=column, color=color, other=other)


def narrate_played(before: Klondike, move: Move, after: Klondike) -> str:
    """The narration of ``move`` played from ``before`` to ``after``, naming the card it turned up."""
    text = explain(before, move)
    source = move.source
    if source and source[0] == "t":
        i = int(source[1]) - 1
        was, now = before.tableau[i], after.tableau[i]
        if len(now.down) < len(was.down) and now.up:
            turned = message("explain.turned", before.lang, card=now.up[0].symbol, column=source[1])
            text = text.replace(message("explain.turn-up", before.lang, column=source[1]), turned)
    return text


def hint_text(game: Klondike, hint: Hint) -> str:
    """A hint as one short sentence in the game's language: "Move the 5♦ onto the 6♠: it turns over a card in
    column 3."
    """
    lang, move = game.lang, hint.move
    if move.is_draw or move.is_recycle:
        what = message("hint.move.draw" if move.is_draw else "hint.move.recycle", lang)
    else:
        card = game.moving_cards(move)[0]
        target = move.target
        assert target is not None
        if target[0] == "f":
            what = message("hint.move.to-foundation", lang, card=card.symbol)
        else:
            top = game.tableau[int(target[1:]) - 1].top
            if top is None:
                what = message("hint.move.to-empty", lang, card=card.symbol, column=target[1:])
            else:
                what = message("hint.move.to-column", lang, card=card.symbol, top=top.symbol)
    params: dict[str, object] = {}
    if hint.reason == "turn-up":
        params["column"] = hint.column
    elif hint.reason == "foundation":
        params["suit"] = message(f"suit.{game.moving_cards(move)[0].suit.value}", lang)
    return message("hint.sentence", lang, move=what, why=message(f"hint.why.{hint.reason}", lang, **params))


def describe_rules(rules: Rules, lang: str = "en") -> str:
    """The rule set as a few short lines in ``lang``."""
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
