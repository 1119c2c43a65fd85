"""Hints, autocompletion, winnability and solvable seeds."""

from __future__ import annotations

import math
from typing import Any

from patiencelab import Klondike, Move, Rules
from patiencelab.hints import hint_move
from patiencelab.solver import solve
from patiencelab.solver.seeds import find_solvable_seed
from patiencelab.solver.verdicts import autocomplete_moves
from tests.solver.replay import replay_wins


def nearly_done() -> dict[str, Any]:
    """All cards face up; two spades still in the stock."""
    return {
        "tableau": [{"down": [], "up": ["KH", "QS"]}, {"down": [], "up": ["KD"]}] + [{"down": [], "up": []}] * 5,
        "stock": ["KS", "JS"],
        "waste": [],
        "foundations": {"C": 13, "D": 12, "H": 12, "S": 10},
    }


def test_hint_keeps_the_game_winnable() -> None:
    game = Klondike(seed=0)
    hint = hint_move(game, seconds=math.inf, max_states=100_000)
    assert hint is not None
    assert game.can_play(hint)
    game.play(hint)
    assert solve(game, seconds=math.inf, max_states=100_000).outcome == "solved"


def test_hint_on_a_won_or_stuck_game() -> None:
    won = {"tableau": [{"down": [], "up": []}] * 7, "stock": [], "waste": [], "foundations": dict.fromkeys("CDHS", 13)}
    assert hint_move(Klondike.from_position(won)) is None
    stuck = {
        "tableau": [{"down": ["AC"], "up": ["KC"]}],
        "stock": [],
        "waste": [],
        "foundations": {"C": 0, "D": 13, "H": 13, "S": 13},
    }
    stuck["waste"] = ["2C", "3C", "4C", "5C", "6C", "7C", "8C", "9C", "TC", "JC", "QC"]
    game = Klondike.from_position(stuck, rules=Rules(face_down=(0,), max_passes=1))
    assert hint_move(game, seconds=math.inf, max_states=1_000) is None


def test_hint_never_undoes_the_last_move() -> None:
    for seed in range(8):
        game = Klondike(seed=seed, rules=Rules(draw=3))
        for _ in range(12):
            hint = hint_move(game, seconds=math.inf, max_states=500)
            if hint is None:
                break
            last = game.history[-1] if game.history else None
            if last is not None and last.source and last.source[0] == "t" and last.target and last.target[0] == "t":
                assert (hint.source, hint.target) != (last.target, last.source)
            game.play(hint)


def test_autocomplete_finishes_with_draws() -> None:
    for rules in (Rules(), Rules(draw=3), Rules(draw=3, max_passes=1)):
        game = Klondike.from_position(nearly_done(), rules=rules)
        moves = autocomplete_moves(game)
        assert moves is not None
        assert Move.parse("d") in moves
        assert replay_wins(game, tuple(moves))


def test_autocomplete_refuses_face_down_cards() -> None:
    assert autocomplete_moves(Klondike(seed=1)) is None


def test_autocomplete_refuses_when_passes_run_out() -> None:
    position = nearly_done()
    position["stock"] = ["JS", "KS"]  # the KS would have to go to an empty column first
    game = Klondike.from_position(position, rules=Rules(draw=2, max_passes=1))
    assert autocomplete_moves(game) is None
    assert autocomplete_moves(Klondike.from_position(position)) is not None
    assert solve(game, seconds=math.inf, max_states=100_000).outcome == "solved"


def test_is_winnable() -> None:
    assert Klondike(seed=0).is_winnable(seconds=math.inf, max_states=100_000) is True
    assert Klondike(seed=24, rules=Rules(draw=3)).is_winnable(seconds=math.inf, max_states=100_000) is False
    assert Klondike(seed=3).is_winnable(seconds=math.inf, max_states=1_000) is None


def test_find_solvable_seed() -> None:
    rules = Rules(draw=3)
    seed = find_solvable_seed(24, rules, max_states_per_deal=100_000)
    assert seed >= 25
    assert solve(Klondike(seed=seed, rules=rules), seconds=math.inf, max_states=100_000).outcome == "solved"
