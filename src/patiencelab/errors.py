"""The exceptions PatienceLab raises: one base class and one subclass per kind of bad input."""

from __future__ import annotations

__all__ = [
    "RULE_CODES",
    "IllegalMoveError",
    "InvalidMoveError",
    "InvalidPositionError",
    "InvalidRecordError",
    "PatienceError",
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


class InvalidPositionError(PatienceError):
    """A position (or deal) that is not a valid arrangement of the 52 cards."""


class InvalidRecordError(PatienceError):
    """A game record that cannot be read or does not replay under its rules."""
