"""Bounds on what enters PatienceLab from outside, checked where it enters, and the one way JSON text is read.

Text longer than its limit is refused before any work is done on it, with a :class:`PatienceError` subclass
that names the limit; error messages quote inputs through :func:`patiencelab.core.errors.quote`, so a megabyte
input is never echoed back nor kept alive by an exception.
"""

from __future__ import annotations

import json
import math

from patiencelab.core.errors import PatienceError, quote

__all__ = [
    "MAX_CARD_TEXT",
    "MAX_DEAL_TEXT",
    "MAX_JSON_TEXT",
    "MAX_MOVE_TEXT",
    "check_budget",
    "check_length",
    "check_text",
    "load_json",
]

#: Characters in a card's text (``10♥`` with room for spaces around it).
MAX_CARD_TEXT = 16
#: Characters in a move's text (``10♥-f♥`` with room for spaces around it).
MAX_MOVE_TEXT = 40
#: Characters in a deal string of any format (a Solvitaire deal is JSON of about 500 characters).
MAX_DEAL_TEXT = 20_000
#: Characters in a JSON document: a lesson, a game record, a position.
MAX_JSON_TEXT = 1_000_000


def check_length(text: str | bytes, limit: int, what: str, error: type[PatienceError] = PatienceError) -> None:
    """Raise ``error`` when ``text`` is longer than ``limit`` characters; ``what`` names the text."""
    if len(text) > limit:
        raise error(f"{what} is at most {limit:,} characters long; this one has {len(text):,}")


def check_text(text: object, limit: int, what: str, error: type[PatienceError] = PatienceError) -> str:
    """``text`` when it is a string of at most ``limit`` characters that is valid Unicode (no lone surrogate,
    which a browser sends for a broken string and which could then be neither sent back nor saved); else
    ``error``, naming ``what``. The one rule for text from outside: notes, titles, lesson text, intents' fields.
    """
    if not isinstance(text, str):
        raise error(f"{what} must be text, not {type(text).__name__}")
    check_length(text, limit, what, error)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise error(f"{what} is not valid Unicode text (it holds a lone surrogate)") from None
    return text


def check_budget(max_states: object = None, seconds: object = math.inf) -> None:
    """Raise :class:`PatienceError` unless ``max_states`` is ``None`` or a whole number of at least 1 and
    ``seconds`` a number above 0 (``math.inf``: no limit). The one check of every budget a caller gives the
    solver, a hint, a review, chances, a quiz or the indicator; ``True`` is not taken for 1.
    """
    if max_states is not None and (not isinstance(max_states, int) or isinstance(max_states, bool) or max_states < 1):
        raise PatienceError(f"max_states must be a whole number of at least 1, or None, not {quote(max_states)}")
    if not isinstance(seconds, (int, float)) or isinstance(seconds, bool) or math.isnan(seconds) or seconds <= 0:
        raise PatienceError(f"seconds must be a number above 0 (math.inf for no limit), not {quote(seconds)}")


def _no_constant(name: str) -> object:
    raise ValueError(f"{name} is not a JSON number")


def _finite_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"the number {text[:20]} is too large")
    return value


def load_json(
    text: str | bytes, what: str, error: type[PatienceError] = PatienceError, *, limit: int = MAX_JSON_TEXT
) -> object:
    """Parse ``text`` as JSON, turning every way it can fail into ``error``: too long, not JSON, NaN or
    Infinity (or a float too large to hold), a number too long to read, nesting too deep for the interpreter.
    """
    if not isinstance(text, (str, bytes)):
        raise error(f"{what} must be JSON text, not {type(text).__name__}")
    check_length(text, limit, what, error)
    try:
        return json.loads(text, parse_constant=_no_constant, parse_float=_finite_float)
    except RecursionError:
        raise error(f"{what} is nested too deeply to be read") from None
    except ValueError as exc:  # JSONDecodeError, a number of too many digits, bytes that are not UTF-8
        raise error(f"{what} is not valid JSON: {_first_line(exc)}") from None


def _first_line(exc: Exception) -> str:
    text = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
    return text[:200]
