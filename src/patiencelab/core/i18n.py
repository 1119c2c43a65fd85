"""Messages in the game's language, from the gettext catalogues in ``patiencelab/locale/`` (English, Dutch,
Swedish).

Each catalogue is a standard PO file whose ``msgid`` is a stable key and whose ``msgstr`` is the text, with
``str.format`` placeholders (``{card}``). Python reads them with polib; the front end gets its words through
the widget's ``labels`` (the entries whose key starts with ``label.``), so one set of catalogues serves both.

A sentence with a count in it ("1 try left", "3 tries left") is a plural entry: ``msgid_plural`` and one
``msgstr[i]`` per form of the language (its ``Plural-Forms`` header says which form a count takes, read by
Python's :mod:`gettext`), and an extracted comment ``#. count: name`` naming the placeholder that holds the count.
:func:`ntext` picks the form for a count; :func:`message` does it for a plural entry from that placeholder. The
front end gets each form of a plural label as ``key|one`` and ``key|other`` (:func:`labels`).

Cards are named the way the class names them: a :class:`~patiencelab.core.cards.Card` given to :func:`message`
is written with the language's rank letters (``label.face.*``: English J, Q, K, A; Dutch B, V, K, A for boer,
vrouw, koning, aas; Swedish Kn, D, K, E for knekt, dam, kung, ess) and its suit symbol: "de V♥", "Kn♣".
"""

from __future__ import annotations

import functools
import gettext
import io
import pathlib

import polib

from patiencelab.core.cards import Card
from patiencelab.core.errors import ArgumentTypeError, InvalidArgumentError, PatienceError, quote
from patiencelab.core.limits import check_choice, check_instance, check_text, check_whole

__all__ = [
    "LANGUAGES",
    "card_name",
    "catalogue",
    "check_language",
    "labels",
    "language_names",
    "message",
    "ntext",
    "plural_counts",
    "rank_name",
]

#: Languages with a catalogue: English, Dutch, Swedish.
LANGUAGES = ("en", "nl", "sv")

_LOCALE = pathlib.Path(__file__).parent.parent / "locale"
_LABEL = "label."
_COUNT = "count:"
#: A count of each plural category the front end tells apart (``Intl.PluralRules``) in these languages: English,
#: Dutch and Swedish have two forms, one for 1 and one for every other count.
PLURAL_SAMPLES = {"one": 1, "other": 2}


def check_language(lang: object) -> str:
    """``lang`` if it is one of :data:`LANGUAGES`, else a :class:`PatienceError` naming the choices."""
    return str(check_choice(lang, "language", LANGUAGES))


@functools.cache
def catalogue(lang: str) -> dict[str, str]:
    """Every key of ``lang``'s catalogue with its text."""
    check_language(lang)
    entries = polib.pofile(str(_LOCALE / f"{lang}.po"))
    return {entry.msgid: entry.msgstr for entry in entries if entry.msgstr and not entry.obsolete}


@functools.cache
def _translations(lang: str) -> gettext.GNUTranslations:
    """``lang``'s catalogue as :mod:`gettext` reads it, for its plural forms."""
    entries = polib.pofile(str(_LOCALE / f"{check_language(lang)}.po"))
    return gettext.GNUTranslations(io.BytesIO(entries.to_binary()))


@functools.cache
def plural_counts() -> dict[str, str]:
    """Every plural entry's key with the placeholder that holds its count (its ``#. count: name`` comment)."""
    entries = polib.pofile(str(_LOCALE / "en.po"))
    counts = {}
    for entry in entries:
        if entry.msgid_plural and not entry.obsolete:
            comment = entry.comment.strip()
            if not comment.startswith(_COUNT):
                raise PatienceError(f"the plural entry {entry.msgid} does not say which placeholder is its count")
            counts[entry.msgid] = comment[len(_COUNT) :].strip()
    return counts


def ntext(key: str, n: int, lang: str = "en", /, **params: object) -> str:
    """The plural entry ``key`` in ``lang`` in the form for the count ``n`` (gettext's ``ngettext``), with
    ``params`` filled in as in :func:`message` (English where ``lang`` lacks it).
    """
    check_whole(n, "n")
    template = _translations(lang).ngettext(_key(key), key, n)
    if template == key:
        template = _translations("en").ngettext(key, key, n)
    if template == key:
        raise InvalidArgumentError(f"no plural sentence has the key {quote(key)}")
    return _fill(template, lang, params)


def message(key: str, lang: str = "en", /, **params: object) -> str:
    """The sentence ``key`` in ``lang``, with ``params`` filled in (English where ``lang`` lacks it); a
    :class:`~patiencelab.core.cards.Card` is named as ``lang`` names it (:func:`card_name`). A plural entry
    takes the form for the count in its count placeholder (:func:`ntext`).
    """
    count = plural_counts().get(_key(key))
    if count is not None:
        return ntext(key, int(str(params[count])), lang, **params)
    template = catalogue(lang).get(key) or catalogue("en").get(key)
    if template is None:
        raise InvalidArgumentError(f"no sentence has the key {quote(key)}")
    return _fill(template, lang, params)


def _key(key: object) -> str:
    return check_text(key, 200, "a sentence's key", ArgumentTypeError)


def _fill(template: str, lang: str, params: dict[str, object]) -> str:
    """``template`` with ``params`` filled in, cards named as ``lang`` names them."""
    named = {name: card_name(value, lang) if isinstance(value, Card) else value for name, value in params.items()}
    return template.format(**named)


def rank_name(rank: int, lang: str = "en") -> str:
    """The rank as the cards of ``lang`` show it: ``2`` to ``10``, and the letters of the Ace and the court
    cards (Dutch ``B`` for boer, Swedish ``Kn`` for knekt).
    """
    return _ranks(check_language(lang))[check_whole(rank, "rank", low=1, high=13) - 1]


def card_name(card: Card, lang: str = "en") -> str:
    """The card as a sentence in ``lang`` names it: its rank letter and suit symbol (``V♥``, ``Kn♣``, ``10♠``)."""
    return rank_name(check_instance(card, "card", Card).rank, lang) + card.suit.symbol


def labels(lang: str = "en") -> dict[str, str]:
    """Every word the widget shows, in ``lang``, keyed without the ``label.`` prefix; a plural label comes as
    one entry per plural category (``key|one``, ``key|other``: the forms for the counts of
    :data:`PLURAL_SAMPLES`), for the front end to pick with the language's plural rules.
    """
    merged = {**catalogue("en"), **catalogue(lang)}
    words = {key[len(_LABEL) :]: text for key, text in merged.items() if key.startswith(_LABEL)}
    for key in plural_counts():
        if key.startswith(_LABEL):
            for category, n in PLURAL_SAMPLES.items():
                template = _translations(lang).ngettext(key, key, n)
                words[f"{key[len(_LABEL) :]}|{category}"] = (
                    template if template != key else _translations("en").ngettext(key, key, n)
                )
    return words


def language_names() -> list[tuple[str, str]]:
    """(code, name in that language) for every language, for a language menu."""
    return [(lang, catalogue(lang)[f"language.{lang}"]) for lang in LANGUAGES]


@functools.cache
def _ranks(lang: str) -> tuple[str, ...]:
    """The 13 rank names of ``lang``, Ace first, from its ``label.face.*`` entries."""
    words = {**catalogue("en"), **catalogue(lang)}
    return tuple(words.get(f"label.face.{rank}", str(rank)) for rank in range(1, 14))
