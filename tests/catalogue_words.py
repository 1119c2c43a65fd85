"""Whether a text the board shows is a sentence of a language's catalogue: each template of the catalogue as a
pattern whose placeholders take any text (templates of placeholders only, with no word of their own, are left
out, since they would take any text at all). Every form of a plural entry counts.
"""

from __future__ import annotations

import functools
import pathlib
import re
import string

import polib

from patiencelab.core.i18n import check_language

LOCALE = pathlib.Path(__file__).resolve().parents[1] / "src" / "patiencelab" / "locale"


def _pattern(template: str) -> re.Pattern[str] | None:
    parts, literal = [], ""
    for text, name, _, _ in string.Formatter().parse(template):
        parts.append(re.escape(text))
        literal += text
        if name is not None:
            parts.append(".*")
    if not re.search(r"[^\W\d_]{2}", literal):
        return None
    return re.compile("".join(parts), re.DOTALL)


@functools.cache
def _patterns(lang: str) -> tuple[re.Pattern[str], ...]:
    check_language(lang)
    templates: list[str] = []
    for entry in polib.pofile(str(LOCALE / f"{lang}.po")):
        if entry.obsolete:
            continue
        templates += [entry.msgstr] if entry.msgstr else list(entry.msgstr_plural.values())  # each plural form
    found = (_pattern(template) for template in templates if template)
    return tuple(pattern for pattern in found if pattern is not None)


def in_catalogue(text: str, lang: str) -> bool:
    """Whether ``text`` is one of ``lang``'s catalogue sentences (with any values filled in)."""
    return any(pattern.fullmatch(text) for pattern in _patterns(lang))
