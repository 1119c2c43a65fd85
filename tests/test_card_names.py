"""Cards are named the way the class names them: every Dutch and Swedish sentence that names an Ace or a court
card uses that language's letters (Dutch B, V, K, A: boer, vrouw, koning, aas; Swedish Kn, D, K, E: knekt, dam,
kung, ess), checked over sentences generated for every card and every kind of message.
"""

from __future__ import annotations

import random
import re
import string
from collections.abc import Iterator

import pytest

from patiencelab import Klondike, Rules
from patiencelab.core import i18n
from patiencelab.core.cards import Card, Suit
from patiencelab.core.narration import describe_rules, hint_text, move_phrase, narrate_played
from patiencelab.hints import Hint
from patiencelab.lessons import Lesson, text_in

#: The rank letters a class uses, Ace, Jack, Queen, King.
LETTERS = {"en": ("A", "J", "Q", "K"), "nl": ("A", "B", "V", "K"), "sv": ("E", "Kn", "D", "K")}
#: A rank written right before a suit symbol: a card named in a sentence.
NAMED = re.compile(r"(?<![\w])(10|[2-9]|[A-Za-z]{1,2})([♣♦♥♠])")
#: English rank words that must not appear in a Dutch or Swedish sentence.
ENGLISH = re.compile(r"\b(Jack|Queen|King|Ace)s?\b")
PLACES = ["w", *(f"t{n}" for n in range(1, 8)), *(f"f{s.value}" for s in Suit)]
TARGETS = [*(f"t{n}" for n in range(1, 8)), "f", *(f"f{s.value}" for s in Suit)]
#: Keys with a card in them that no reachable position produces (a full foundation holds every card of its suit,
#: so no card of that suit can be moved onto it).
UNREACHABLE = {"foundation-order.full"}
#: Rules under which any card may fill an empty column (and so come back to it from a foundation).
ANY_TO_EMPTY = Rules(empty_column="any")


def local_ranks(lang: str) -> list[str]:
    """The 13 rank names of ``lang``, Ace first."""
    ace, jack, queen, king = LETTERS[lang]
    return [ace, *map(str, range(2, 11)), jack, queen, king]


class Recording(dict[str, str]):
    """A catalogue that notes every key looked up in it."""

    def __init__(self, entries: dict[str, str], used: set[str]) -> None:
        super().__init__(entries)
        self.used = used

    def get(self, key: str, default: str | None = None) -> str | None:  # type: ignore[override]
        self.used.add(key)
        return super().get(key, default)


def positions(lang: str, seed: int, rules: Rules, steps: int) -> Iterator[Klondike]:
    """The positions of a random game (biased to card moves), each as a game in ``lang``."""
    game = Klondike(seed=seed, rules=rules, lang=lang)
    rng = random.Random(seed)
    for _ in range(steps):
        yield game
        moves = game.legal_moves()
        if not moves:
            return
        cards = [m for m in moves if not (m.is_draw or m.is_recycle)]
        game.play(rng.choice(cards if cards and rng.random() < 0.7 else moves))


def sentences(game: Klondike) -> Iterator[str]:
    """Every sentence the game can say now: each legal move explained, narrated, hinted and reviewed (and the card
    it turns up, as a review's bad luck), and every
    move between any two places (and from every face-down card) refused with its reason.
    """
    for move in game.legal_moves():
        yield game.explain(move)
        yield move_phrase(game, move)
        yield move_phrase(game, move, "review.after")
        yield move_phrase(game, move, "review.move")
        yield hint_text(game, Hint(move, "turn-up", column=1))
        trial = game.copy()
        trial.play(move)
        played = trial.last_played()
        assert played is not None
        yield narrate_played(trial, played)
        if played.turned is not None:  # a review's sentence of bad luck names the card
            words = {"number": 1, "column": 1, "before": "50%", "after": "0%"}
            yield i18n.message("review.mark.luck-turned", game.lang, card=played.turned, **words)
    for source in PLACES:
        for target in TARGETS:
            if source != target:
                yield from refusal(game, f"{source}-{target}")
    position = game.position_json()
    hidden = [card for column in position["tableau"] for card in column["down"]] + position["stock"]
    for card in hidden[:3]:
        yield from refusal(game, f"{card}-f")
    for card in position["waste"][:-1]:
        yield from refusal(game, f"{card}-t1")
    for column in position["tableau"]:
        for card in column["up"][:-1]:
            yield from refusal(game, f"{card}-f")
    for suit, height in position["foundations"].items():
        for rank in range(1, height):
            yield from refusal(game, f"{Card(rank, Suit(suit))}-t1")


def refusal(game: Klondike, move: str) -> Iterator[str]:
    """The reason ``move`` is refused, if it is a move of these rules that is refused."""
    try:
        error = game.check(move)
    except Exception:  # a move these rules cannot even name (t7 in a six-column game)
        return
    if error is not None:
        yield error.reason


def lesson_sentences(lang: str) -> Iterator[str]:
    """The words of every shipped lesson in ``lang``."""
    for name in Lesson.builtin_names():
        lesson = Lesson.builtin(name)
        texts = [lesson.title, lesson.intro, *(step.note for step in lesson.steps)]
        yield from (text for text in (text_in(t, lang) for t in texts) if text)


@pytest.fixture(scope="module")
def spoken() -> dict[str, tuple[list[str], set[str]]]:
    """For each language: every sentence generated, and the catalogue keys they came from."""
    said: dict[str, tuple[list[str], set[str]]] = {}
    real = i18n.catalogue
    for lang in i18n.LANGUAGES:
        used: set[str] = set()
        recording = {code: Recording(real(code), used if code == lang else set()) for code in i18n.LANGUAGES}
        i18n.catalogue = recording.__getitem__  # type: ignore[assignment]
        try:
            texts: list[str] = []
            rule_sets = [Rules.preset(p) for p in ("standard", "traditional", "six-column")] + [ANY_TO_EMPTY]
            for seed, rules in enumerate(rule_sets * 2):
                for game in positions(lang, seed, rules, 60):
                    texts.extend(sentences(game))
            texts.extend(describe_rules(Rules.preset(p), lang) for p in ("standard", "traditional", "six-column"))
        finally:
            i18n.catalogue = real
        texts.extend(lesson_sentences(lang))
        said[lang] = (texts, used)
    return said


def card_keys() -> set[str]:
    """The keys of every sentence (not the front end's labels) that names a card or a rank."""
    names = {"card", "top", "below", "need", "rank"}
    keys = set()
    for key, template in i18n.catalogue("en").items():
        fields = {field for _, field, _, _ in string.Formatter().parse(template) if field}
        if fields & names and not key.startswith("label."):
            keys.add(key)
    return keys


@pytest.mark.parametrize("lang", ["nl", "sv"])
def test_every_sentence_that_names_a_card_uses_the_languages_letters(
    spoken: dict[str, tuple[list[str], set[str]]], lang: str
) -> None:
    texts, used = spoken[lang]
    missing = card_keys() - UNREACHABLE - used
    assert not missing, f"no sentence of these kinds was generated: {sorted(missing)}"
    allowed = set(local_ranks(lang))
    named: set[str] = set()
    for text in texts:
        assert not ENGLISH.search(text), text
        for rank, suit in NAMED.findall(text):
            assert rank in allowed, f"{rank}{suit} in {text!r}"
            named.add(rank + suit)
    every = {rank + suit.symbol for rank in local_ranks(lang) for suit in Suit}
    assert every - named == set(), "every card is named in some sentence"


def test_english_keeps_j_q_k_and_a(spoken: dict[str, tuple[list[str], set[str]]]) -> None:
    texts, _ = spoken["en"]
    named = {rank for text in texts for rank, _ in NAMED.findall(text)}
    assert named == set(local_ranks("en"))


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_card_and_rank_names(lang: str) -> None:
    ranks = [i18n.rank_name(rank, lang) for rank in range(1, 14)]
    assert ranks == local_ranks(lang)
    assert i18n.card_name(Card.parse("QH"), lang) == LETTERS[lang][2] + "♥"
    assert i18n.message("face-down", lang, card=Card.parse("JC")).count(LETTERS[lang][1] + "♣") == 1
    assert i18n.labels(lang)["face.11"] == LETTERS[lang][1]


def test_a_dutch_and_a_swedish_sentence_read_as_a_teacher_says_them() -> None:
    sv = i18n.message("one-lower", "sv", card=Card.parse("JH"), top=Card.parse("KS"), need=i18n.rank_name(12, "sv"))
    assert sv == "Kn♥ kan inte läggas på K♠; det ska läggas på en D."
    nl = i18n.message("explain.ace-to-foundation", "nl", card=Card.parse("AS"), source="kolom 2")
    assert nl == "Leg de A♠ van kolom 2 op de fundering: een Aas begint een fundering."
    game = Klondike(seed=7, lang="sv")
    assert "10" not in i18n.rank_name(1, "sv") and game.explain("t1-t3").startswith("Flytta 5♦")
