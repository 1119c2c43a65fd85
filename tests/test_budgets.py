"""Search budgets (``max_states``, ``seconds``) are checked alike wherever they enter: the game's searches, the
solver, the lessons' judging, the indicator and the board's options. A bad one is a ``PatienceError`` (or the board's
``TraitError``) and changes nothing.
"""

from __future__ import annotations

from typing import Any

import pytest
import traitlets

from patiencelab import Klondike, PatienceError
from patiencelab.lessons import Lesson
from patiencelab.solver import solve
from patiencelab.widget.board import KlondikeWidget
from patiencelab.widget.indicator import Indicator

BAD_BUDGETS: list[dict[str, Any]] = [
    {"max_states": True},
    {"max_states": 0},
    {"max_states": 2.5},
    {"seconds": "10"},
    {"seconds": None},
    {"seconds": float("nan")},
    {"seconds": 0},
    {"seconds": False},
]


@pytest.mark.parametrize("budget", BAD_BUDGETS, ids=lambda b: repr(b))
def test_every_public_budget_is_checked_alike(budget: dict[str, Any]) -> None:
    """Fault 11: ``review()`` checked ``max_states`` but not ``seconds`` (a string escaped as ``TypeError``), and
    ``max_states=True`` was taken as 1. Every budget argument gives a ``PatienceError`` and changes nothing.
    """
    game = Klondike(seed=2)
    game.play(game.legal_moves()[0])
    before = game.record()
    with pytest.raises(PatienceError):
        game.review(**budget)
    with pytest.raises(PatienceError):
        game.solve(**budget)
    with pytest.raises(PatienceError):
        game.hint(**budget)
    with pytest.raises(PatienceError):
        game.is_winnable(**budget)
    with pytest.raises(PatienceError):
        solve(game, **budget)
    with pytest.raises(PatienceError):
        Indicator(lambda *a: None).follow(game, True, **budget)
    if "max_states" in budget:
        lesson = Lesson.builtin("quiz")
        with pytest.raises(PatienceError):
            lesson.judge(1, "d", max_states=budget["max_states"])
    assert game.record() == before


@pytest.mark.parametrize("name", ["hint_max_states", "quiz_max_states", "review_max_states", "indicator_max_states"])
def test_the_boards_budgets_refuse_a_bool(name: str) -> None:
    board = KlondikeWidget(seed=2, records=None)
    with pytest.raises((PatienceError, traitlets.TraitError)):
        setattr(board, name, True)
    with pytest.raises((PatienceError, traitlets.TraitError)):
        board.hint_seconds = -1.0
