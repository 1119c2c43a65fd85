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
from patiencelab.core.i18n import LANGUAGES, catalogue, check_language, labels, language_names, message

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
            values["points"] = "+5"
        assert message(key, lang, **values)


def test_labels_strip_the_prefix_and_languages_name_themselves() -> None:
    assert labels("nl")["undo"] == "Ongedaan maken"
    assert labels("sv")["stock"] == "Draghög"
    assert labels("en")["step-of"] == "Step {step} of {steps}"
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
    for source in JS.glob("*.ts"):
        used |= set(re.findall(r"""(?:word|phrase)\(\s*[\w.]+,\s*["']([\w.-]+)["']""", source.read_text()))
    assert used, "the scan found the front end's label look-ups"
    missing = sorted(used - set(labels("en")))
    assert not missing, missing
