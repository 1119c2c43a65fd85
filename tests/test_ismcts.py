"""The information-set search player (:class:`~patiencelab.players.TreeSearch`): fair (twins play alike), the
same game on every run, and its arguments checked."""

from __future__ import annotations

import random
from typing import Any

import pytest

from patiencelab import Klondike, PatienceError, Rules
from patiencelab.players import Greedy, TreeSearch, play_to_end
from tests.fair_positions import FROM_RECYCLED, POSITIONS, RULE_SETS, pair
from tests.review_games import twin_game

# Small budgets keep the suite fast; the twins must agree whatever the budget.
SMALL: dict[str, Any] = {"iterations": 12, "leaf_states": 100}


def _twin_decisions(one: Klondike, two: Klondike, n: int) -> tuple[object, object]:
    """What two fresh players seeded alike decide for ``one`` and ``two`` (with the root's visits)."""
    first, second = TreeSearch(**SMALL, seed=n), TreeSearch(**SMALL, seed=n)
    first.choose(one.player_view())
    second.choose(two.player_view())
    a, b = first.last_decision, second.last_decision
    return (a, a and a.visits), (b, b and b.visits)


@pytest.mark.parametrize("n", range(0, len(POSITIONS), 3))
def test_twins_get_the_same_tree_and_the_same_move(n: int) -> None:
    rules, position = POSITIONS[n]
    one, two = pair(rules, position, n)
    assert one.position_json() != two.position_json(), "the twins differ in their hidden cards"
    assert one.player_view() == two.player_view()
    mine, theirs = _twin_decisions(one, two, n)
    assert mine == theirs


@pytest.mark.parametrize("n", range(0, len(FROM_RECYCLED), 2))
def test_twins_with_an_unseen_stock_get_the_same_move(n: int) -> None:
    rules, position = FROM_RECYCLED[n]
    stock = position["stock"]
    one = Klondike.from_position(position, rules=rules)
    two = Klondike.from_position({**position, "stock": stock[1:] + stock[:1]}, rules=rules)
    mine, theirs = _twin_decisions(one, two, n)
    assert mine == theirs


def test_the_twin_tests_are_not_vacuous_the_tree_searches_and_leaves_the_hint_order() -> None:
    searched = differs = 0
    for n, (rules, position) in enumerate(POSITIONS[::3]):
        game = Klondike.from_position(position, rules=rules)
        player = TreeSearch(**SMALL, seed=n, scout=False)
        move = player.choose(game.player_view())
        decision = player.last_decision
        assert decision is not None and game.can_play(move)
        if decision.searched:
            searched += 1
            assert decision.iterations == SMALL["iterations"]
            assert sum(v for _, v, _ in decision.visits) == SMALL["iterations"]
        differs += move != Greedy().choose(game.player_view())
    assert searched >= 8 and differs >= 2


def test_twin_games_get_the_same_moves_until_a_differing_card_shows() -> None:
    checked = 0
    for rules in RULE_SETS[:2]:
        game = Klondike(seed=300, rules=rules)
        player = TreeSearch(**SMALL, seed=300)
        for _ in range(25):
            if game.is_won or not game.legal_moves():
                break
            game.play(player.choose(game.player_view()))
        other = twin_game(game, random.Random(1))
        assert other.position_json() != game.position_json()
        replay = Klondike.from_record({**other.record(), "moves": []})
        fresh = TreeSearch(**SMALL, seed=300)
        for move in game.history:  # a fresh player replaying the twin from its start chooses the very same moves
            assert fresh.choose(replay.player_view()) == move
            replay.play(move)
            checked += 1
    assert checked >= 40


def test_a_held_out_deal_is_played_to_its_end_the_same_way_twice() -> None:
    """Draw 3 seed 7 (the held-out seeds are 0-999) with a fixed small budget: the same game on every run."""
    games = []
    for _ in range(2):
        game = Klondike(seed=7, rules=Rules(draw=3))
        ended = play_to_end(game, TreeSearch(iterations=8, leaf_states=100, seed=7), max_moves=300)
        games.append((ended, game.history))
    assert games[0] == games[1]
    assert len(games[0][1]) > 30


@pytest.mark.parametrize("n", range(1, len(POSITIONS), 6))
def test_fixed_deals_judge_every_root_move_on_the_same_deals_and_twins_agree(n: int) -> None:
    rules, position = POSITIONS[n]
    one, two = pair(rules, position, n)
    decisions = []
    for game in (one, two):
        player = TreeSearch(iterations=12, leaf_states=100, deals=2, seed=n, scout=False)
        player.choose(game.player_view())
        decisions.append(player.last_decision)
    mine, theirs = decisions
    assert mine is not None and theirs is not None
    assert mine == theirs and mine.visits == theirs.visits
    if mine.searched:
        assert len({v for _, v, _ in mine.visits}) == 1, "every root move is tried once a round, on the round's deal"
        assert mine.iterations == sum(v for _, v, _ in mine.visits) <= 12


@pytest.mark.parametrize("n", range(2, len(POSITIONS), 6))
def test_twins_agree_when_near_ties_go_to_the_least_search(n: int) -> None:
    rules, position = POSITIONS[n]
    one, two = pair(rules, position, n)
    moves = [TreeSearch(**SMALL, tiebreak="effort", seed=n).choose(game.player_view()) for game in (one, two)]
    assert moves[0] == moves[1]


def test_near_ties_go_to_the_hint_order_or_to_the_least_search() -> None:
    first, second = Klondike(seed=11, rules=Rules(draw=1)).legal_moves()[:2]
    visits = ((first, 10, 0.9), (second, 10, 0.88))
    work = {first: 300.0, second: 50.0}
    assert TreeSearch()._pick(visits) == first
    assert TreeSearch()._pick(visits, work) == second
    assert TreeSearch(margin=0.01)._pick(visits, work) == first


def test_a_rollout_leaf_plays_legal_moves_alike() -> None:
    view = Klondike(seed=11, rules=Rules(draw=1)).player_view()
    moves = {TreeSearch(iterations=6, leaf="rollout", seed=3).choose(view) for _ in range(2)}
    assert len(moves) == 1


@pytest.mark.parametrize(
    ("kwargs", "name"),
    [
        ({"iterations": 0}, "iterations"),
        ({"leaf": "peek"}, "leaf"),
        ({"leaf_states": -1}, "leaf_states"),
        ({"deals": -1}, "deals"),
        ({"tiebreak": "votes"}, "tiebreak"),
    ],
)
def test_bad_arguments_are_refused_by_name(kwargs: dict[str, object], name: str) -> None:
    with pytest.raises(PatienceError, match=name):
        TreeSearch(**kwargs)  # type: ignore[arg-type]
