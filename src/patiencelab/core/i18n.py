"""Messages in the game's language, from the gettext catalogues in ``patiencelab/locale/`` (English, Dutch,
Swedish).

Each catalogue is a standard PO file whose ``msgid`` is a stable key and whose ``msgstr`` is the text, with
``str.format`` placeholders (``{card}``). Python reads them with polib; the front end gets its words through
the widget's ``labels`` (the entries whose key starts with ``label.``), so one set of catalogues serves both.

Cards are named the way the class names them: a :class:`~patiencelab.core.cards.Card` given to :func:`message`
is written with the language's rank letters (``label.face.*``: English J, Q, K, A; Dutch B, V, K, A for boer,
vrouw, koning, aas; Swedish Kn, D, K, E for knekt, dam, kung, ess) and its suit symbol: "de V♥", "Kn♣".
"""

from __future__ import annotations

import functools
import pathlib

import polib

from patiencelab.core.cards import Card
from patiencelab.core.limits import check_choice

__all__ = [
    "LANGUAGES",
    "card_name",
    "catalogue",
    "check_language",
    "labels",
    "language_names",
    "message",
    "rank_name",
]

#: Languages with a catalogue: English, Dutch, Swedish.
LANGUAGES = ("en", "nl", "sv")

_LOCALE = pathlib.Path(__file__).parent.parent / "locale"
_LABEL = "label."


def check_language(lang: object) -> str:
    """``lang`` if it is one of :data:`LANGUAGES`, else a :class:`PatienceError` naming the choices."""
    return str(check_choice(lang, "language", LANGUAGES))


@functools.cache
def catalogue(lang: str) -> dict[str, str]:
    """Every key of ``lang``'s catalogue with its text."""
    check_language(lang)
    entries = polib.pofile(str(_LOCALE / f"{lang}.po"))
    return {entry.msgid: entry.msgstr for entry in entries if entry.msgstr and not entry.obsolete}


def message(key: str, lang: str = "en", /, **params: object) -> str:
    """The sentence ``key`` in ``lang``, with ``params`` filled in (English where ``lang`` lacks it); a
    :class:`~patiencelab.core.cards.Card` is named as ``lang`` names it (:func:`card_name`).
    """
    template = catalogue(lang).get(key) or catalogue("en")[key]
    named = {name: card_name(value, lang) if isinstance(value, Card) else value for name, value in params.items()}
    return template.format(**named)


def rank_name(rank: int, lang: str = "en") -> str:
    """The rank as the cards of ``lang`` show it: ``2`` to ``10``, and the letters of the Ace and the court
    cards (Dutch ``B`` for boer, Swedish ``Kn`` for knekt).
    """
    return _ranks(check_language(lang))[rank - 1]


def card_name(card: Card, lang: str = "en") -> str:
    """The card as a sentence in ``lang`` names it: its rank letter and suit symbol (``V♥``, ``Kn♣``, ``10♠``)."""
    return rank_name(card.rank, lang) + card.suit.symbol


def labels(lang: str = "en") -> dict[str, str]:
    """Every word the widget shows, in ``lang``, keyed without the ``label.`` prefix."""
    merged = {**catalogue("en"), **catalogue(lang)}
    return {key[len(_LABEL) :]: text for key, text in merged.items() if key.startswith(_LABEL)}


def language_names() -> list[tuple[str, str]]:
    """(code, name in that language) for every language, for a language menu."""
    return [(lang, catalogue(lang)[f"language.{lang}"]) for lang in LANGUAGES]


@functools.cache
def _ranks(lang: str) -> tuple[str, ...]:
    """The 13 rank names of ``lang``, Ace first, from its ``label.face.*`` entries."""
    words = {**catalogue("en"), **catalogue(lang)}
    return tuple(words.get(f"label.face.{rank}", str(rank)) for rank in range(1, 14))
