"""A board's options: :data:`OPTIONS`, their defaults, and :func:`check_option`, what each one takes (and
:func:`check_arguments`, what a board starts from).

The options live in a plain dict on the :class:`~patiencelab.widget.session.BoardSession` (``session.options``);
the widget's traits take these defaults.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from patiencelab.core.errors import ArgumentTypeError, PatienceError, quote
from patiencelab.core.game import Klondike
from patiencelab.core.i18n import check_language
from patiencelab.core.limits import check_budget, check_instance, check_seed
from patiencelab.core.rules import Rules
from patiencelab.review import DEFAULT_MAX_STATES, REVIEW_SAMPLES

__all__ = ["OPTIONS", "SHOWN", "board_options", "change_option", "check_arguments", "check_option", "check_parts"]

#: The board's options and their defaults: what the board shows (``reveal``: face-down cards face up, marked;
#: ``show_moves``: every card that can move highlighted; ``narrate``: every move told in the caption line;
#: ``indicator``: the winnability indicator) and the budgets of its helpers (the fair hint's sampled deals and
#: positions per deal; the indicator's cap of positions per job; a quiz answer's positions per solver call; a
#: review's sampled deals per position and positions per deal for the player's chances (``"rules"``: as many as
#: the rules need), and positions per call of its second opinion; seconds on top of a state budget, by default no
#: limit). The widget's traits take these defaults.
OPTIONS: Mapping[str, Any] = {
    "reveal": False,
    "show_moves": False,
    "narrate": False,
    "indicator": False,
    "hint_samples": 16,
    "hint_max_states": 2_000,
    "hint_seconds": float("inf"),
    "indicator_max_states": None,
    "indicator_seconds": float("inf"),
    "quiz_max_states": 50_000,
    "review_max_states": DEFAULT_MAX_STATES,
    "review_samples": REVIEW_SAMPLES,
    "review_sample_max_states": "rules",
}

#: The options that change what the board shows: setting one syncs the board.
SHOWN = ("reveal", "show_moves", "narrate", "indicator")


def check_option(name: str, value: Any) -> Any:
    """``value``, if option ``name`` takes it; else :class:`PatienceError`: a switch is a bool, a ``*_samples``
    a whole number of at least 1, a ``*_max_states`` and a ``*_seconds`` a budget (see
    :func:`~patiencelab.core.limits.check_budget`).
    """
    if name not in OPTIONS:
        raise PatienceError(f"no such board option: {name!r}; the options are {', '.join(OPTIONS)}")
    if name == "review_sample_max_states" and isinstance(value, str):
        if value != "rules":
            raise PatienceError(f"{name} is 'rules', a whole number of at least 1 or None, not {quote(value)}")
        return value
    if name.endswith(("_max_states", "_seconds")):
        check_budget(**{"seconds" if name.endswith("_seconds") else "max_states": value})
    elif name.endswith("_samples"):
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise PatienceError(f"{name} is a whole number of at least 1, not {quote(value)}")
    elif not isinstance(value, bool):
        raise PatienceError(f"{name} is True or False, not {quote(value)}")
    return value


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
