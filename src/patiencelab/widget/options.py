"""A board's options, declared once: :data:`TABLE`, one :class:`Option` a row (its name, what it takes, its default
and a line of English about it). From it come the session's :data:`OPTIONS` and :func:`check_option`, the traits of
:class:`~patiencelab.widget.board.KlondikeWidget` (each made by ``widget/board.py`` from its row, and checked by it)
and the options listed in the widget's docstring (:func:`options_doc`); and :func:`check_arguments`, what a board
starts from.

The session's options live in a plain dict on the :class:`~patiencelab.widget.session.BoardSession`
(``session.options``); the two options of the board's look (``size``, ``faces``) are traits the front end reads.
"""

from __future__ import annotations

import math
import textwrap
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from patiencelab.core.errors import ArgumentTypeError, InvalidArgumentError, PatienceError, quote
from patiencelab.core.game import Klondike
from patiencelab.core.i18n import check_language
from patiencelab.core.limits import check_instance, check_seed
from patiencelab.core.rules import Rules
from patiencelab.review import DEFAULT_MAX_STATES, REVIEW_SAMPLES

__all__ = [
    "OPTIONS",
    "SHOWN",
    "TABLE",
    "Kind",
    "Option",
    "board_options",
    "change_option",
    "check_arguments",
    "check_option",
    "check_parts",
    "options_doc",
]


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _number(value: object) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _anything(_value: object) -> bool:
    return True


def _above_zero(value: float) -> bool:
    try:
        return float(value) > 0  # NaN is not; a whole number too large for a float neither
    except OverflowError:
        return False


@dataclass(frozen=True)
class Kind:
    """What an option takes: ``takes`` says it in words (the docs and the errors say it so), ``typed`` tests a
    value's type and ``fits`` the range of a value of that type."""

    takes: str
    typed: Callable[[object], bool]
    fits: Callable[[Any], bool] = _anything


#: True or False.
SWITCH = Kind("True or False", lambda v: isinstance(v, bool))
#: A count of sampled deals.
COUNT = Kind("a whole number of at least 1", _whole, lambda v: v >= 1)
#: A state budget: positions the solver may search (``None``: no limit).
STATES = Kind("a whole number of at least 1, or None", lambda v: v is None or _whole(v), lambda v: v is None or v >= 1)
#: Seconds on top of a state budget.
SECONDS = Kind("a number above 0 (math.inf for no limit)", _number, _above_zero)
#: A state budget, or as many positions as the rules need.
RULES_STATES = Kind(
    "'rules', a whole number of at least 1, or None",
    lambda v: v is None or _whole(v) or isinstance(v, str),
    lambda v: v == "rules" or v is None or (_whole(v) and v >= 1),
)
#: A card width in pixels, or ``None``: as large as the output allows.
WIDTH = Kind(
    "a card width from 40 to 240 pixels, or None",
    lambda v: v is None or _whole(v),
    lambda v: v is None or 40 <= v <= 240,
)
#: The letters on the card faces.
FACES = Kind("'standard' or 'local'", lambda v: isinstance(v, str), lambda v: v in ("standard", "local"))


@dataclass(frozen=True)
class Option:
    """One board option: a row of :data:`TABLE`."""

    name: str
    kind: Kind
    default: Any
    #: One line about it, in English: the trait's help, its entry in the widget's docstring.
    doc: str
    #: It changes what the board shows: setting it syncs the board.
    shown: bool = False
    #: It changes only the board's look: a trait the front end reads (synced), not an option of the session.
    look: bool = False

    def check(self, value: object) -> Any:
        """``value``, if this option takes it; else an :class:`~patiencelab.core.errors.ArgumentTypeError` (a value
        of the wrong type) or :class:`~patiencelab.core.errors.InvalidArgumentError` that names the option.
        """
        kind = self.kind
        if not kind.typed(value):
            raise ArgumentTypeError(f"{self.name} is {kind.takes}, not {quote(value)}")
        if not kind.fits(value):
            raise InvalidArgumentError(f"{self.name} is {kind.takes}, not {quote(value)}")
        return value


#: Every option of a board, by name: what it takes, its default, what it does.
TABLE: Mapping[str, Option] = {
    option.name: option
    for option in (
        Option("reveal", SWITCH, False, "Show face-down cards face up, marked (for teaching).", shown=True),
        Option(
            "show_moves",
            SWITCH,
            False,
            "Highlight every card that can move, and where a picked-up card may go.",
            shown=True,
        ),
        Option("narrate", SWITCH, False, "Narrate every move in the caption line (as lessons do).", shown=True),
        Option("indicator", SWITCH, False, "Show the winnability indicator.", shown=True),
        Option("hint_samples", COUNT, 16, "The fair hint solves this many deals of the cards the player cannot see."),
        Option(
            "hint_max_states",
            STATES,
            2_000,
            "Positions the solver may search in each of the hint's deals (the same hint on every machine).",
        ),
        Option(
            "hint_seconds", SECONDS, math.inf, "Seconds each solver call of a hint may think, on top of its positions."
        ),
        Option(
            "indicator_max_states",
            STATES,
            None,
            "The most positions one of the indicator's jobs may search (None: the indicator's own cap).",
        ),
        Option(
            "indicator_seconds",
            SECONDS,
            math.inf,
            "Seconds one of the indicator's jobs may think, on top of its positions.",
        ),
        Option(
            "quiz_max_states",
            STATES,
            50_000,
            "Positions the solver may search to judge a quiz answer the step does not list.",
        ),
        Option(
            "review_max_states",
            STATES,
            DEFAULT_MAX_STATES,
            "Positions each solver call of a review's second opinion may search.",
        ),
        Option(
            "review_samples",
            COUNT,
            REVIEW_SAMPLES,
            "A review solves this many deals of the unseen cards at each position.",
        ),
        Option(
            "review_sample_max_states",
            RULES_STATES,
            "rules",
            "Positions the solver may search in each of a review's deals ('rules': as many as the rules need).",
        ),
        Option(
            "size",
            WIDTH,
            None,
            "The cards' width in pixels, for a projector or a small screen (None: as large as the output allows).",
            look=True,
        ),
        Option(
            "faces",
            FACES,
            "local",
            "The letters on the card faces: the language's ('local': Dutch B, V, K, A) or 'standard' A, J, Q, K.",
            look=True,
        ),
    )
}

#: The session's options and their defaults (the board's look aside).
OPTIONS: Mapping[str, Any] = {name: option.default for name, option in TABLE.items() if not option.look}

#: The options that change what the board shows: setting one syncs the board.
SHOWN = tuple(name for name, option in TABLE.items() if option.shown)


def options_doc() -> str:
    """The options of :data:`TABLE` as a list for a docstring: each one's name, what it does, what it takes and its
    default."""
    rows = []
    for option in TABLE.values():
        default = "math.inf" if option.default == math.inf else repr(option.default)
        row = f"- ``{option.name}``: {option.doc} It takes {option.kind.takes}; by default ``{default}``."
        rows.append(textwrap.fill(row, width=112, subsequent_indent="  ", break_on_hyphens=False))
    intro = "The board's options, each a trait (``KlondikeWidget(reveal=True)``, ``widget.reveal = True``):"
    return "\n".join([intro, "", *rows])


def check_option(name: str, value: Any) -> Any:
    """``value``, if the session's option ``name`` takes it (see :data:`TABLE`); else a :class:`PatienceError`
    that names the option.
    """
    if name not in OPTIONS:
        raise PatienceError(f"no such board option: {name!r}; the options are {', '.join(OPTIONS)}")
    return TABLE[name].check(value)


def board_options(given: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """A board's options: the defaults of :data:`OPTIONS`, with those ``given`` (each checked)."""
    options = dict(OPTIONS)
    if given is not None and not isinstance(given, Mapping):
        raise ArgumentTypeError(f"options must be a dict of board options, not {type(given).__name__}")
    for name, value in (given or {}).items():
        options[name] = check_option(name, value)
    return options


def change_option(options: dict[str, Any], name: str, value: Any) -> bool:
    """Set option ``name`` of a board's ``options`` to ``value``, checked (see :func:`check_option`); returns whether
    the board must show it again (a change of what it shows, :data:`SHOWN`).
    """
    check_option(name, value)
    if options[name] == value and type(options[name]) is type(value):
        return False
    options[name] = value
    return name in SHOWN


def check_arguments(game: object, seed: object, rules: object, lang: object) -> None:
    """Raise :class:`PatienceError` for arguments a board cannot start from (a game and a seed, a game that is no
    :class:`~patiencelab.core.game.Klondike`, a language it does not speak).
    """
    if game is not None and (seed is not None or rules is not None):
        raise PatienceError("give a game, or a seed and rules, not both")
    if game is not None and not isinstance(game, Klondike):
        raise PatienceError(f"game must be a Klondike, not {type(game).__name__}")
    if seed is not None:
        check_seed(seed)
    if rules is not None:
        check_instance(rules, "rules", Rules)
    check_language(lang)


def check_parts(host: object, runner: object, executor: object) -> None:
    """Raise :class:`ArgumentTypeError` unless each part given to a board is ``None`` or has what it is used for: a
    ``host`` the methods of :class:`~patiencelab.widget.host.Host`, a ``runner`` those of
    :class:`~patiencelab.widget.runners.Runner` (protocols: checked by their methods' names), and an ``executor`` is a
    function that makes the indicator's executor.
    """
    for part, name, methods in (
        (host, "host", ("option_changed", "show", "show_labels", "send", "schedule")),
        (runner, "runner", ("start", "join")),
    ):
        if part is not None and not all(callable(getattr(part, method, None)) for method in methods):
            raise ArgumentTypeError(f"{name} must have the methods {', '.join(methods)}, not be {type(part).__name__}")
    if executor is not None and not callable(executor):
        raise ArgumentTypeError(f"executor must make an executor (a function of no arguments), not {quote(executor)}")
