"""Whether a text the board shows is a sentence of a language's catalogue: each template of the catalogue as a
pattern whose placeholders take any text. A template of placeholders only, with no word of its own (``"{move}:
{why}"``), takes only texts whose parts are catalogue sentences themselves. Every form of a plural entry counts.
"""

from __future__ import annotations

import functools
import pathlib
import re
import string

import polib

from patiencelab.core.i18n import check_language

LOCALE = pathlib.Path(__file__).resolve().parents[1] / "src" / "patiencelab" / "locale"


def _pattern(template: str) -> tuple[re.Pattern[str], bool]:
    """The template as a pattern, and whether it has words of its own."""
    parts, literal = [], ""
    for text, name, _, _ in string.Formatter().parse(template):
        parts.append(re.escape(text))
        literal += text
        if name is not None:
            parts.append("(.+?)")
    return re.compile("".join(parts), re.DOTALL), bool(re.search(r"[^\W\d_]{2}", literal))


@functools.cache
def _patterns(lang: str) -> tuple[tuple[re.Pattern[str], bool], ...]:
    check_language(lang)
    templates: set[str] = set()
    for entry in polib.pofile(str(LOCALE / f"{lang}.po")):
        if not entry.obsolete:
            templates |= {entry.msgstr} if entry.msgstr else set(entry.msgstr_plural.values())
    return tuple(_pattern(template) for template in sorted(templates) if template)


def in_catalogue(text: str, lang: str, depth: int = 2) -> bool:
    """Whether ``text`` is one of ``lang``'s catalogue sentences (with any values filled in)."""
    for pattern, worded in _patterns(lang):
        found = pattern.fullmatch(text)
        if found is None:
            continue
        if worded:
            return True
        if depth > 0 and found.groups() and all(in_catalogue(part, lang, depth - 1) for part in found.groups()):
            return True
    return False
