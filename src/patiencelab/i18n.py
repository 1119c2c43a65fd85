"""Messages in the game's language. Every sentence the model writes comes from :func:`message`."""

from __future__ import annotations

__all__ = ["LANGUAGES", "labels", "message"]

#: Languages with a catalogue.
LANGUAGES = ("en",)

_EN: dict[str, str] = {
    "game-over": "The game is won; no more moves can be made.",
    "stock-empty": "The stock is empty; turn the waste over to draw again.",
    "stock-not-empty": "The waste can only be turned over when the stock is empty.",
    "empty-source.waste": "The waste is empty.",
    "empty-source.column": "Column {place} is empty.",
    "empty-source.foundation": "The {suit} foundation is empty.",
    "no-passes-left": "No passes through the stock are left ({passes} allowed).",
    "face-down": "The {card} is face down.",
    "waste-top-only": "Only the top card of the waste ({top}) can be played, not the {card}.",
    "foundation-top-only": "Only the top card of a foundation ({top}) can be taken, not the {card}.",
    "foundation-return-off": "Under these rules cards on a foundation stay there; the {card} cannot come back.",
    "one-card-to-foundation": "Only one card at a time goes to a foundation; the {card} has {count} on it.",
    "foundation-suit": "The {card} goes on the {suit} foundation, not on {target}.",
    "foundation-order": "The {foundation} foundation needs the {need} next, not the {card}.",
    "foundation-order.full": "The {foundation} foundation is complete; the {card} cannot go there.",
    "king-on-empty": "Only a King (or a run led by a King) may fill the empty column {place}; the {card} is no King.",
    "one-lower": "The {card} cannot go on the {top}: a card goes on one a rank higher ({need}).",
    "alternate-colors": "The {card} goes on a {other} {rank}; the {top} is {color}.",
    "color.red": "red",
    "color.black": "black",
    "suit.C": "clubs",
    "suit.D": "diamonds",
    "suit.H": "hearts",
    "suit.S": "spades",
}

_EN_LABELS: dict[str, str] = {
    "title": "Klondike solitaire",
    "new": "New",
    "restart": "Restart",
    "undo": "Undo",
    "redo": "Redo",
    "hint": "Hint",
    "autocomplete": "Autocomplete",
    "score": "Score",
    "moves": "Moves",
    "time": "Time",
    "passes": "Passes left",
    "stock": "Stock",
    "waste": "Waste",
    "foundation": "Foundation",
    "column": "Column",
    "draw1": "Draw 1",
    "draw3": "Draw 3",
    "preset.standard": "Standard",
    "preset.traditional": "Traditional",
    "preset.six-column": "Six columns",
    "won": "You won!",
    "stuck": "No moves left",
    "new-deal": "New deal",
    "new-game": "New game",
    "same-rules": "Same rules",
    "draw": "Draw",
    "picked-up": "Picked up {card}",
    "cannot-move": "The {card} cannot move now",
    "moved-to": "{card} to {place}",
    "no-hint": "No moves left.",
    "no-passes": "No passes left",
    "recycle": "Turn the waste over",
    "face-down": "face-down card",
    "rank.1": "Ace",
    "rank.11": "Jack",
    "rank.12": "Queen",
    "rank.13": "King",
    "of": "{rank} of {suit}",
    "suit.C": "clubs",
    "suit.D": "diamonds",
    "suit.H": "hearts",
    "suit.S": "spades",
}

_CATALOGUES = {"en": _EN}
_LABELS = {"en": _EN_LABELS}


def message(key: str, lang: str = "en", /, **params: object) -> str:
    """The sentence ``key`` in ``lang``, with ``params`` filled in."""
    catalogue = _CATALOGUES.get(lang, _EN)
    template = catalogue.get(key) or _EN[key]
    return template.format(**params)


def labels(lang: str = "en") -> dict[str, str]:
    """Every word the widget shows, in ``lang`` (English where a word is missing)."""
    if lang not in LANGUAGES:
        from patiencelab.errors import PatienceError

        raise PatienceError(f"unknown language {lang!r}: choose one of {', '.join(LANGUAGES)}")
    return {**_EN_LABELS, **_LABELS.get(lang, {})}
