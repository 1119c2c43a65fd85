"""Random legal play (hypothesis) keeping the model's invariants: 52 distinct cards, legal moves all
playable, undo/redo restoring the exact position and score, records replaying to the same game, views hiding
face-down cards, and the score equal to a recomputation from the scoring table.
"""

from __future__ import annotations

import dataclasses
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from patiencelab import Card, Klondike, Move, Rules
from patiencelab.core.rules import PRESETS

from .model_helpers import FakeClock, all_cards, recompute_score

RULES = [
    ("standard", Rules()),
    ("standard", Rules.preset("standard", draw=3)),
    ("standard", Rules.preset("traditional", draw=1)),
    ("vegas", Rules.preset("traditional", draw=3, scoring="vegas")),
    ("windows", Rules.preset("standard", draw=1, scoring="windows")),
    ("windows", Rules.preset("standard", draw=3, scoring="windows")),
    ("standard", Rules.preset("six-column")),
    ("none", Rules.preset("six-column", draw=1, scoring="none")),
    ("standard", Rules(empty_column="any")),
]

SETTINGS = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def check_invariants(game: Klondike) -> None:
    cards = all_cards(game)
    assert len(cards) == 52
    assert len(set(cards)) == 52
    for move in game.legal_moves():
        if move.card is not None:  # part of a run to an empty column: only when any card may fill one
            assert game.rules.empty_column == "any" and move.target is not None
            assert not game.tableau[int(move.target[1]) - 1].up
        assert game.can_play(move), move
    view = game.view()
    text = json.dumps(view, ensure_ascii=False).split('"')
    for column in game.tableau:
        assert column.up or not column.down
        for card in column.down:
            assert str(card) not in text
    for card in game.stock:
        assert str(card) not in text
    assert game.is_stuck == (game.status == "stuck")


def assert_legal_moves_complete(game: Klondike) -> None:
    """legal_moves() lists exactly the place-form moves that can be played (with ``f`` for foundations)."""
    places = [f"t{i}" for i in range(1, game.rules.columns + 1)]
    candidates = ["d", "r", "w-f", *(f"w-{t}" for t in places)]
    candidates += [f"{a}-{b}" for a in places for b in [*places, "f"] if a != b]
    candidates += [f"f{s}-{t}" for s in "CDHS" for t in places]
    if game.rules.empty_column == "any":  # parts of runs to empty columns are named by their card
        empty = [t for i, t in enumerate(places) if not game.tableau[i].up]
        candidates += [f"{c}-{t}" for col in game.tableau for c in col.up[1:] for t in empty]
    playable = {m for m in candidates if game.can_play(m)}
    listed = [str(m) for m in game.legal_moves()]
    assert len(listed) == len(set(listed))
    assert set(listed) == playable


def play_randomly(game: Klondike, data: st.DataObject, steps: int) -> None:
    for _ in range(steps):
        moves = game.legal_moves()
        if not moves:
            assert game.is_won or game.is_stuck
            break
        action = data.draw(st.integers(0, 9))
        if action == 0 and game.can_undo:
            before = (game.position_json(), game.score, game.history)
            game.undo()
            game.redo()
            assert (game.position_json(), game.score, game.history) == before
            continue
        move = moves[data.draw(st.integers(0, len(moves) - 1))]
        played = game.play(move)
        assert played == move
        assert game.history[-1] == move
        check_invariants(game)


@SETTINGS
@given(st.integers(0, len(RULES) - 1), st.integers(0, 2**32), st.data())
def test_random_play_keeps_the_invariants(which: int, seed: int, data: st.DataObject) -> None:
    table, rules = RULES[which]
    game = Klondike(seed=seed, rules=rules, clock=FakeClock())
    check_invariants(game)
    play_randomly(game, data, data.draw(st.integers(1, 80)))
    assert game.moves == len(game.history)
    assert game.score == recompute_score(game, table)
    assert_legal_moves_complete(game)

    again = Klondike.from_record(json.loads(json.dumps(game.record())), clock=FakeClock())
    assert again.position_json() == game.position_json()
    assert again.history == game.history
    assert again.score == game.score

    final = (game.position_json(), game.score, game.history)
    path = [final]
    while game.can_undo:
        game.undo()
        path.append((game.position_json(), game.score, game.history))
    assert game.position_json() == Klondike(seed=seed, rules=rules).position_json()
    assert game.score == rules.scoring.start
    path.pop()
    while path:
        game.redo()
        assert (game.position_json(), game.score, game.history) == path.pop()
    assert not game.can_redo


@SETTINGS
@given(st.integers(0, 2**32), st.data())
def test_undo_then_new_move_matches_a_fresh_game(seed: int, data: st.DataObject) -> None:
    game = Klondike(seed=seed, clock=FakeClock())
    play_randomly(game, data, 30)
    k = data.draw(st.integers(0, game.moves))
    for _ in range(k):
        game.undo()
    fresh = Klondike(seed=seed, clock=FakeClock())
    for move in game.history:
        fresh.play(move)
    assert fresh.position_json() == game.position_json()
    assert fresh.score == game.score
    moves = game.legal_moves()
    if moves:
        move = moves[data.draw(st.integers(0, len(moves) - 1))]
        game.play(move)
        fresh.play(move)
        assert not game.can_redo
        assert fresh.position_json() == game.position_json()
        assert fresh.score == game.score


@SETTINGS
@given(st.integers(0, 2**32), st.data())
def test_positions_read_back_mid_game(seed: int, data: st.DataObject) -> None:
    rules = Rules.preset("standard", draw=3)
    game = Klondike(seed=seed, rules=rules, clock=FakeClock())
    play_randomly(game, data, data.draw(st.integers(0, 50)))
    again = Klondike.from_position(json.loads(json.dumps(game.position_json())), rules=rules)
    assert again == game
    assert {str(m) for m in again.legal_moves()} == {str(m) for m in game.legal_moves()}
    assert again.is_stuck == game.is_stuck
    assert_legal_moves_complete(again)


# Every preset with both draw counts and both options for an empty column.
ALL_RULES = {
    f"{name}-draw{draw}-{empty}": dataclasses.replace(Rules.preset(name, draw=draw), empty_column=empty)
    for name in PRESETS
    for draw in (1, 3)
    for empty in ("king", "any")
}


def assert_object_and_text_agree(game: Klondike, move: Move) -> None:
    """Playing ``move`` as a ``Move`` and as its text ``str(move)`` gives the same position and returned move."""
    as_object, as_text = game.copy(), game.copy()
    played_object = as_object.play(move)
    played_text = as_text.play(str(move))
    assert played_object == played_text == move, (str(move), str(played_object), str(played_text))
    assert str(played_object) == str(move)
    assert as_object.position_json() == as_text.position_json(), str(move)
    assert game.moving_cards(move) == game.moving_cards(str(move)), str(move)


def test_a_listed_move_plays_what_it_names() -> None:
    """With any card allowed on an empty column, ``3H-t1`` from ``legal_moves()`` moves the 3H alone, as its
    text does (it used to move the whole run 4S 3H of its column and return ``t5-t1``).
    """
    game = Klondike(seed=0, rules=Rules(empty_column="any"))
    game.play("t1-t5")
    move = next(m for m in game.legal_moves() if str(m) == "3H-t1")
    assert move.source == "t5"
    assert game.moving_cards(move) == game.moving_cards("3H-t1") == (Card.parse("3H"),)
    assert_object_and_text_agree(game, move)


@pytest.mark.parametrize("rules", ALL_RULES.values(), ids=ALL_RULES.keys())
@settings(SETTINGS, max_examples=20)
@given(st.integers(0, 2**32), st.data())
def test_every_listed_move_plays_the_same_as_object_and_as_text(rules: Rules, seed: int, data: st.DataObject) -> None:
    game = Klondike(seed=seed, rules=rules, clock=FakeClock())
    for _ in range(data.draw(st.integers(1, 60), label="steps")):
        moves = game.legal_moves()
        if not moves:
            break
        for move in moves:
            assert_object_and_text_agree(game, move)
        game.play(moves[data.draw(st.integers(0, len(moves) - 1), label="move")])
