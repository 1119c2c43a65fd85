"""The exceptions PatienceLab raises: one base class and one subclass per kind of bad input."""

from __future__ import annotations

import reprlib
from collections.abc import Collection, Iterable

__all__ = [
    "RULE_CODES",
    "ArgumentTypeError",
    "IllegalMoveError",
    "InvalidArgumentError",
    "InvalidMoveError",
    "InvalidPositionError",
    "InvalidRecordError",
    "PatienceError",
    "quote",
    "unknown_fields",
]

#: Every stable code an :class:`IllegalMoveError` may carry, in the order the checks run.
RULE_CODES: tuple[str, ...] = (
    "game-over",
    "stock-empty",
    "stock-not-empty",
    "no-passes-left",
    "empty-source",
    "face-down",
    "waste-top-only",
    "foundation-top-only",
    "foundation-return-off",
    "one-card-to-foundation",
    "foundation-suit",
    "foundation-order",
    "king-on-empty",
    "one-lower",
    "alternate-colors",
)


class PatienceError(ValueError):
    """Base class of every error PatienceLab raises on bad input or a forbidden action."""


class InvalidMoveError(PatienceError):
    """Text (or a value) that is not a move, or names a place that does not exist under the rules."""


class IllegalMoveError(PatienceError):
    """A well-formed move that the rules forbid in the current position.

    ``rule`` is a stable code from :data:`RULE_CODES`; ``reason`` is a sentence naming the cards and the rule,
    in the game's language.
    """

    def __init__(self, rule: str, reason: str) -> None:
        if rule not in RULE_CODES:
            raise ValueError(f"unknown rule code {rule!r}")
        super().__init__(reason)
        self.rule = rule
        self.reason = reason

    def __repr__(self) -> str:
        return f"IllegalMoveError({self.rule!r}, {self.reason!r})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, IllegalMoveError):
            return NotImplemented
        return (self.rule, self.reason) == (other.rule, other.reason)

    def __hash__(self) -> int:
        return hash((self.rule, self.reason))


class InvalidArgumentError(PatienceError):
    """An argument of a public function or method out of its range: a budget of 0, a negative count, a word
    that is not one of the choices. The checks are those of :mod:`patiencelab.core.limits`, made before any
    compiled code sees the value, so the compiled and the pure build raise the same error.
    """


class ArgumentTypeError(InvalidArgumentError, TypeError):
    """An argument of the wrong type (a float for a whole number, ``None`` for a seed, a string for a switch).

    Also a :class:`TypeError`, which Python raises for a wrong type, so code that catches that keeps working.
    """


class InvalidPositionError(PatienceError):
    """A position (or deal) that is not a valid arrangement of the 52 cards."""


class InvalidRecordError(PatienceError):
    """A game record that cannot be read or does not replay under its rules."""


class _ShortRepr(reprlib.Repr):
    """``reprlib`` with small limits that never fails: huge numbers, deep nesting and odd objects included."""

    def __init__(self) -> None:
        super().__init__()
        self.maxlevel = 3
        self.maxstring = 40
        self.maxother = 40
        self.maxlong = 30
        self.maxlist = self.maxtuple = self.maxdict = self.maxset = self.maxfrozenset = self.maxdeque = 4

    def repr_int(self, x: int, level: int) -> str:
        if x.bit_length() > 96:
            return f"<a whole number of about {int(x.bit_length() * 0.30103) + 1} digits>"
        return super().repr_int(x, level)

    def repr1(self, x: object, level: int) -> str:
        try:
            return super().repr1(x, level)
        except Exception:  # a repr that fails, or nesting too deep for the interpreter
            return f"<{type(x).__name__}>"


_SHORT = _ShortRepr()


def quote(value: object) -> str:
    """A short ``repr`` of ``value`` for an error message (about 40 characters at most): never the whole of a
    megabyte input, never a failure on a huge number or a deeply nested value.

    >>> quote("t2-t5")
    "'t2-t5'"
    >>> len(quote("x" * 1_000_000)) < 50
    True
    """
    try:
        return _SHORT.repr(value)
    except Exception:
        return f"<{type(value).__name__}>"


def unknown_fields(keys: Iterable[object], known: Collection[str]) -> str:
    """The keys that are not in ``known``, sorted and joined for an error message (``""`` when there are none):
    each one short, at most five named.

    >>> unknown_fields({"draw": 1, "colour": 2, 7: 3}, ("draw",))
    '7, colour'
    """
    if not isinstance(keys, Iterable) or not isinstance(known, Collection):
        raise ArgumentTypeError("unknown_fields takes the keys given and a collection of the known ones")
    odd = [key for key in keys if not (isinstance(key, str) and key in known)]
    names = sorted(
        {key if isinstance(key, str) and 0 < len(key) <= 40 and key.isprintable() else quote(key) for key in odd}
    )
    more = f" and {len(names) - 5} more" if len(names) > 5 else ""
    return ", ".join(names[:5]) + more
