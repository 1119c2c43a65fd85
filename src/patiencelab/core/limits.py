"""Bounds on what enters PatienceLab from outside, checked where it enters: the one checker of arguments, and the
one way JSON text is read.

Text longer than its limit is refused before any work is done on it, with a :class:`PatienceError` subclass
that names the limit; error messages quote inputs through :func:`patiencelab.core.errors.quote`, so a megabyte
input is never echoed back nor kept alive by an exception.

Every public function and method checks the values it is given with the checkers here (:func:`check_whole`,
:func:`check_seed`, :func:`check_states`, :func:`check_budget`, :func:`check_switch`, :func:`check_choice`,
:func:`check_instance`, :func:`check_path`), before any compiled code sees them: one message style (``samples
must be a whole number of at least 1, not 2.0``, ``unknown language 'de': choose one of en, nl, sv``), and always a
:class:`PatienceError`: an :class:`~patiencelab.core.errors.ArgumentTypeError` (also a ``TypeError``) for a
value of the wrong type, an :class:`~patiencelab.core.errors.InvalidArgumentError` for one out of range, or the
``error`` a caller names (a position's field is an ``InvalidPositionError``). This module is never compiled, nor
are the public classes that check a user's arguments (:class:`~patiencelab.core.game.Klondike`), and the few
compiled functions that take a user's values type them ``object`` (or ``Any``), so the compiled and the pure build
refuse a bad value with the same error and message.
"""

from __future__ import annotations

import json
import math
import os
import pathlib
from collections.abc import Callable, Collection
from typing import TypeVar

from patiencelab.core.errors import ArgumentTypeError, InvalidArgumentError, PatienceError, quote

__all__ = [
    "MAX_CARD_TEXT",
    "MAX_DEAL_TEXT",
    "MAX_JSON_TEXT",
    "MAX_MOVE_TEXT",
    "check_budget",
    "check_choice",
    "check_instance",
    "check_length",
    "check_number",
    "check_path",
    "check_seconds",
    "check_seed",
    "check_states",
    "check_switch",
    "check_text",
    "check_whole",
    "load_json",
]

T = TypeVar("T")

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


def _span(low: int | None, high: int | None) -> str:
    if low is not None and high is not None:
        return f" from {low:,} to {high:,}"
    if low is not None:
        return f" of at least {low:,}"
    return "" if high is None else f" of at most {high:,}"


def check_whole(
    value: object,
    name: str,
    *,
    low: int | None = None,
    high: int | None = None,
    error: type[PatienceError] | None = None,
) -> int:
    """``value`` when it is a whole number (an ``int``; ``True`` is not taken for 1) from ``low`` to ``high``
    (either bound left out: none that side); else a :class:`PatienceError` that names ``name`` and the range:
    ``error`` when given, else :class:`ArgumentTypeError` for another type, :class:`InvalidArgumentError` for a
    whole number out of range.

    >>> check_whole(3, "samples", low=1)
    3
    >>> check_whole(2.0, "samples", low=1)
    Traceback (most recent call last):
    ...
    patiencelab.core.errors.ArgumentTypeError: samples must be a whole number of at least 1, not 2.0
    """
    if not isinstance(value, int) or isinstance(value, bool):
        raise (error or ArgumentTypeError)(f"{name} must be a whole number{_span(low, high)}, not {quote(value)}")
    if (low is not None and value < low) or (high is not None and value > high):
        raise (error or InvalidArgumentError)(f"{name} must be a whole number{_span(low, high)}, not {quote(value)}")
    return value


def check_seed(value: object, name: str = "seed", error: type[PatienceError] | None = None) -> int:
    """``value`` when it is a whole number (any, negative and huge ones too: ``random.Random`` takes them), else
    a :class:`PatienceError` as :func:`check_whole` gives.
    """
    return check_whole(value, name, error=error)


def check_states(value: object, name: str = "max_states", error: type[PatienceError] | None = None) -> int | None:
    """``value`` when it is ``None`` (no limit) or a whole number of at least 1: a budget of positions searched."""
    if value is None:
        return None
    wrong = not isinstance(value, int) or isinstance(value, bool)
    if wrong or value < 1:  # type: ignore[operator]
        kind = ArgumentTypeError if wrong else InvalidArgumentError
        raise (error or kind)(f"{name} must be a whole number of at least 1, or None, not {quote(value)}")
    return value  # type: ignore[return-value]


def check_seconds(value: object, name: str = "seconds", error: type[PatienceError] | None = None) -> float:
    """``value`` when it is a number above 0 (``math.inf``: no limit) that a float holds: a budget of time."""
    _check_number(value, name, error, lambda x: x > 0, "a number above 0 (math.inf for no limit)")
    return value  # type: ignore[return-value]


def check_number(value: object, name: str, error: type[PatienceError] | None = None) -> float:
    """``value`` as a float when it is a finite number from 0 (a weight or a margin)."""
    _check_number(value, name, error, lambda x: 0 <= x < math.inf, "a number from 0")
    return float(value)  # type: ignore[arg-type]


def _check_number(
    value: object, name: str, error: type[PatienceError] | None, fits: Callable[[float], bool], wanted: str
) -> None:
    """Raise unless ``value`` is an int or float (not a bool) that converts to a float ``fits`` accepts (NaN
    fails every comparison; a whole number too large for a float fails too): :class:`ArgumentTypeError` for the
    wrong type, :class:`InvalidArgumentError` (or ``error``) for a value out of range.
    """
    wrong = not isinstance(value, (int, float)) or isinstance(value, bool)
    if not wrong:
        try:
            if fits(float(value)):  # type: ignore[arg-type]
                return
        except OverflowError:
            pass
    kind = ArgumentTypeError if wrong else InvalidArgumentError
    raise (error or kind)(f"{name} must be {wanted}, not {quote(value)}")


def check_budget(max_states: object = None, seconds: object = math.inf) -> None:
    """Raise :class:`PatienceError` unless ``max_states`` is ``None`` or a whole number of at least 1 and
    ``seconds`` a number above 0 (``math.inf``: no limit). The one check of every budget a caller gives the
    solver, a hint, a review, chances, a quiz or the indicator; ``True`` is not taken for 1.
    """
    check_states(max_states)
    check_seconds(seconds)


def check_switch(value: object, name: str, error: type[PatienceError] | None = None) -> bool:
    """``value`` when it is ``True`` or ``False`` (not 1, 0 or ``None``: a switch says yes or no)."""
    if not isinstance(value, bool):
        raise (error or ArgumentTypeError)(f"{name} must be True or False, not {quote(value)}")
    return value


def check_choice(value: object, what: str, choices: Collection[str], error: type[PatienceError] | None = None) -> str:
    """``value`` when it is one of the strings ``choices``; else a :class:`PatienceError` that names ``what`` the
    value was for and lists the choices.

    >>> check_choice("de", "language", ("en", "nl", "sv"))
    Traceback (most recent call last):
    ...
    patiencelab.core.errors.InvalidArgumentError: unknown language 'de': choose one of en, nl, sv
    """
    if isinstance(value, str) and value in choices:
        return value
    kind = InvalidArgumentError if isinstance(value, str) else ArgumentTypeError
    raise (error or kind)(f"unknown {what} {quote(value)}: choose one of {', '.join(choices)}")


def check_path(value: object, name: str = "path", error: type[PatienceError] | None = None) -> pathlib.Path:
    """``value`` as a :class:`pathlib.Path` when it is text or a path (``os.PathLike``); else an
    :class:`ArgumentTypeError` (or ``error``) that names ``name``.
    """
    if isinstance(value, (str, os.PathLike)):
        try:
            return pathlib.Path(value)
        except TypeError:  # a PathLike whose __fspath__ gives neither text nor bytes
            pass
    raise (error or ArgumentTypeError)(f"{name} must be text or a path, not {type(value).__name__}")


def check_instance(value: object, name: str, kind: type[T], error: type[PatienceError] | None = None) -> T:
    """``value`` when it is a ``kind`` (a :class:`~patiencelab.core.rules.Rules`, a game, a view); else an
    :class:`ArgumentTypeError` (or ``error``) that names ``name`` and both types.
    """
    if not isinstance(value, kind):
        raise (error or ArgumentTypeError)(f"{name} must be a {kind.__name__}, not {type(value).__name__}")
    return value


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
