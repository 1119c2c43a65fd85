"""The message catalogues: every language has every key with the same placeholders, and every word the
front end asks for is in them.
"""

from __future__ import annotations

import pathlib
import re
import string

import polib
import pytest

from patiencelab import PatienceError
from patiencelab.core.i18n import (
    LANGUAGES,
    catalogue,
    check_language,
    labels,
    language_names,
    message,
    ntext,
    plural_counts,
)

LOCALE = pathlib.Path(__file__).parent.parent / "src" / "patiencelab" / "locale"
JS = pathlib.Path(__file__).parent.parent / "js"


def placeholders(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def test_every_language_has_a_catalogue_file() -> None:
    assert sorted(p.stem for p in LOCALE.glob("*.po")) == sorted(LANGUAGES)
    for lang in LANGUAGES:
        po = polib.pofile(str(LOCALE / f"{lang}.po"))
        assert po.metadata["Language"] == lang
        assert po.percent_translated() == 100


@pytest.mark.parametrize("lang", [lang for lang in LANGUAGES if lang != "en"])
def test_catalogues_have_the_same_keys_and_placeholders(lang: str) -> None:
    english, other = catalogue("en"), catalogue(lang)
    assert set(other) == set(english), {"missing": set(english) - set(other), "extra": set(other) - set(english)}
    for key, text in english.items():
        assert placeholders(other[key]) == placeholders(text), key


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_message_formats(lang: str) -> None:
    for key, text in catalogue(lang).items():
        values = dict.fromkeys(placeholders(text), "x")
        if key == "explain.points":
            values["change"] = "+5"
        assert message(key, lang, **values)


def test_labels_strip_the_prefix_and_languages_name_themselves() -> None:
    assert labels("nl")["undo"] == "Ongedaan maken"
    assert labels("sv")["stock"] == "Draghög"
    assert labels("en")["step-of|other"] == "Step {step} of {steps}"
    assert (labels("nl")["recording|one"], labels("nl")["recording|other"]) == (
        "Opname · {steps} stap",
        "Opname · {steps} stappen",
    )
    assert language_names() == [("en", "English"), ("nl", "Nederlands"), ("sv", "Svenska")]


def test_the_source_texts_words_are_used() -> None:
    nl, sv = catalogue("nl"), catalogue("sv")
    assert "fundering" in nl["explain.to-foundation"] and "trekstapel" in nl["explain.draw-one"]
    assert "aflegstapel" in nl["explain.draw-one"]
    assert "grunden" in sv["explain.to-foundation"] and "draghögen" in sv["explain.draw-one"]
    assert "tablå" in sv["rules.tableau"]


def test_unknown_language_is_refused() -> None:
    with pytest.raises(PatienceError, match="unknown language 'de'"):
        check_language("de")
    with pytest.raises(PatienceError):
        labels("de")


def test_every_label_the_front_end_uses_is_in_the_catalogue() -> None:
    used: set[str] = set()
    counted: set[str] = set()
    for source in JS.glob("*.ts"):
        text = source.read_text()
        used |= set(re.findall(r"""\b(?:word|phrase)\(\s*[\w.]+,\s*["']([\w.-]+)["']""", text))
        counted |= set(re.findall(r"""\bcountPhrase\(\s*[\w.]+,\s*["']([\w.-]+)["']""", text))
    assert used and counted, "the scan found the front end's label look-ups"
    for lang in LANGUAGES:
        missing = sorted(used - set(labels(lang)))
        assert not missing, missing
        forms = sorted(f"{key}|{form}" for key in counted for form in ("one", "other"))
        missing = [key for key in forms if key not in labels(lang)]
        assert not missing, (lang, missing)
    plural = {key[len("label.") :] for key in plural_counts() if key.startswith("label.")}
    assert not used & plural, f"a label with a count is looked up with countPhrase: {sorted(used & plural)}"


# ------------------------------------------------------------------------------------------- counts in messages

#: The placeholders that hold a count of things in the catalogues' sentences.
COUNTS = {"count", "draw", "left", "most", "moves", "passes", "points", "samples", "steps", "stock", "tries"}

#: Nouns a count goes with, singular and plural, by language (Swedish "försök", "drag" and "kort" are both).
NOUNS = {
    "en": {
        "card": "cards",
        "deal": "deals",
        "mark": "marks",
        "move": "moves",
        "pass": "passes",
        "point": "points",
        "position": "positions",
        "step": "steps",
        "try": "tries",
    },
    "nl": {
        "kaart": "kaarten",
        "deling": "delingen",
        "markering": "markeringen",
        "zet": "zetten",
        "stap": "stappen",
        "poging": "pogingen",
        "procentpunt": "procentpunten",
        "stand": "standen",
    },
    "sv": {
        "giv": "givar",
        "given": "givar",
        "markering": "markeringar",
        "gång": "gånger",
        "ställning": "ställningar",
        "procentenhet": "procentenheter",
    },
}


def entries(lang: str) -> list[polib.POEntry]:
    return [e for e in polib.pofile(str(LOCALE / f"{lang}.po")) if e.msgid and not e.obsolete]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_count_in_a_message_has_its_plural_forms(lang: str) -> None:
    po = polib.pofile(str(LOCALE / f"{lang}.po"))
    assert po.metadata["Plural-Forms"] == "nplurals=2; plural=(n != 1);"
    counted = plural_counts()
    for entry in entries(lang):
        texts = list(entry.msgstr_plural.values()) if entry.msgid_plural else [entry.msgstr]
        names = set().union(*(placeholders(t) for t in texts))
        if names & COUNTS:
            assert entry.msgid_plural, f"{lang} {entry.msgid}: a count ({sorted(names & COUNTS)}) needs plural forms"
        if not entry.msgid_plural:
            continue
        assert entry.msgid in counted and counted[entry.msgid] in names, entry.msgid
        assert sorted(entry.msgstr_plural) == [0, 1] and all(texts), f"{lang} {entry.msgid}: both forms"
        assert all(placeholders(t) == names for t in texts), f"{lang} {entry.msgid}: the same placeholders"
    assert set(counted) == {e.msgid for e in entries(lang) if e.msgid_plural}, "the same plural entries"


def words_after(text: str, number: int) -> list[str]:
    """The (up to three) words after each place ``number`` stands alone in ``text``."""
    found = []
    for match in re.finditer(rf"(?<![\d.,]){number}(?![\d%])", text):
        found += re.findall(r"[^\W\d_]+", text[match.end() :])[:3]
    return found


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_count_of_one_takes_the_singular_and_more_the_plural(lang: str) -> None:
    singular = set(NOUNS[lang])
    plural = set(NOUNS[lang].values()) - singular
    for key, count in plural_counts().items():
        template = polib.pofile(str(LOCALE / f"{lang}.po")).find(key).msgstr_plural[1]
        params = dict.fromkeys(placeholders(template), 7)
        one = ntext(key, 1, lang, **{**params, count: 1})
        many = ntext(key, 5, lang, **{**params, count: 5})
        assert "1" in one and "5" in many, (key, one, many)
        assert not set(words_after(one, 1)) & plural, f"{lang} {key}, 1: {one}"
        assert not set(words_after(many, 5)) & (singular - plural), f"{lang} {key}, 5: {many}"
        assert message(key, lang, **{**params, count: 1}) == one, "message picks the form by the count"


@pytest.mark.parametrize(
    ("lang", "one", "two"),
    [
        ("en", "(1 try left)", "(2 tries left)"),
        ("nl", "(nog 1 poging)", "(nog 2 pogingen)"),
        ("sv", "(1 försök kvar)", "(2 försök kvar)"),
    ],
)
def test_the_quiz_counts_its_tries(lang: str, one: str, two: str) -> None:
    assert one in ntext("lesson.quiz-question", 1, lang, tries=1)
    assert two in ntext("lesson.quiz-question", 2, lang, tries=2)
    assert two in message("lesson.quiz-question", lang, tries=2)
