"""The fair player's decision over endpoints (issue 33): the irreversible moves reachable through reversible ones."""

from __future__ import annotations

import random
from typing import Any

import pytest

from patiencelab import Klondike, Move, Rules
from patiencelab.players import Greedy, NoPeek
from patiencelab.players.endpoints import judge, reach, reversible
from patiencelab.players.sampling import deals, stand_in
from patiencelab.solver import solve
from tests.model_helpers import table, twin

RULE_SETS = [Rules(), Rules(draw=3), Rules.preset("traditional", draw=3), Rules(foundation_to_tableau=False)]


def _greedy_positions() -> list[tuple[Rules, dict[str, Any]]]:
    """Deals of four rule sets played on by the greedy player for 0 to 60 moves, each with a move left."""
    found = []
    for rules in RULE_SETS:
        for seed in range(10):
            game = Klondike(seed=500 + seed, rules=rules)
            for _ in range(seed * 6):
                if game.is_won or not game.legal_moves():
                    break
                game.play(Greedy().choose(game.player_view()))
            if game.legal_moves() and not game.is_won:
                found.append((rules, game.position_json()))
    return found


POSITIONS = _greedy_positions()


def _undone_by_a_legal_move(game: Klondike, move: Move) -> bool:
    """Whether some legal move after ``move`` gives the very position back (the plain meaning of reversible)."""
    before = table(game)
    trial = game.copy()
    trial.play(move)
    if trial.last_played() is not None and trial.last_played().turned is not None:  # type: ignore[union-attr]
        return False
    for back in trial.legal_moves():
        again = trial.copy()
        again.play(back)
        if table(again) == before:
            return True
    return False


def test_a_reversible_move_is_one_a_single_legal_move_takes_back() -> None:
    checked = kinds = 0
    seen: set[str] = set()
    for rules, position in POSITIONS:
        game = Klondike.from_position(position, rules=rules)
        for move in game.legal_moves():
            if move.is_draw or move.is_recycle:
                continue  # a draw is undone by the rest of the pass, not by one move: checked below
            says = reversible(game, move, game.player_view().unseen_stock)
            assert says == _undone_by_a_legal_move(game, move), (rules, position, move)
            seen.add(f"{move.source and move.source[0]}{move.target and move.target[0]}{says}")
            checked += 1
    kinds = len(seen)
    assert checked >= 100 and kinds >= 7, (checked, seen)


def test_draws_are_reversible_only_through_a_known_stock_with_unlimited_passes() -> None:
    game = Klondike(seed=7, rules=Rules(draw=3))
    assert not reversible(game, Move.parse("d"), game.player_view().unseen_stock), "it shows unseen cards"
    for _ in range(8):  # the 24 stock cards, 3 at a time
        game.draw()
    game.recycle()
    assert game.player_view().unseen_stock == 0
    assert reversible(game, Move.parse("d"), 0)
    limited = Klondike(seed=7, rules=Rules(draw=3, max_passes=3))
    assert not reversible(limited, Move.parse("d"), 0), "with passes limited a draw spends part of one"


@pytest.mark.parametrize("n", range(0, len(POSITIONS), 3))
def test_every_endpoint_is_reached_by_reversible_moves_and_ends_in_an_irreversible_one(n: int) -> None:
    rules, position = POSITIONS[n]
    game = Klondike.from_position(position, rules=rules)
    view = game.player_view()
    found = reach(view, stand_in(view))
    unseen = view.unseen_stock
    if not found:  # then nothing can be committed to here: every legal move can be taken back
        assert all(reversible(game, move, unseen) for move in game.legal_moves())
    assert len({e.path for e in found}) == len(found)
    for endpoint in found:
        trial = game.copy()
        for move in endpoint.path[:-1]:
            assert reversible(trial, move, unseen), (endpoint, move)
            trial.play(move)
        assert trial.player_view().hidden_places == view.hidden_places, "nothing turned up on the way"
        last = endpoint.path[-1]
        assert endpoint.won or not reversible(trial, last, unseen), endpoint
        trial.play(last)


@pytest.mark.parametrize("n", range(1, len(POSITIONS), 4))
def test_twins_get_the_same_endpoints_and_the_same_judgement(n: int) -> None:
    rules, position = POSITIONS[n]
    one = Klondike.from_position(position, rules=rules).player_view()
    two = Klondike.from_position(twin(position, random.Random(n)), rules=rules).player_view()
    assert one == two
    first, second = reach(one, stand_in(one)), reach(two, stand_in(two))
    assert first == second
    if len(first) > 1:
        dealt = [deals(v, 6, n)[0] for v in (one, two)]
        judged = [
            judge(v, e, d, max_states=300, batch=3, budget=None) for v, e, d in zip((one, two), (first, second), dealt)
        ]
        assert judged[0] == judged[1]


def test_the_judge_picks_an_endpoint_within_the_spread_of_the_best_one_on_the_same_deals() -> None:
    judged_any = 0
    for rules, position in POSITIONS:
        view = Klondike.from_position(position, rules=rules).player_view()
        found = reach(view, stand_in(view))
        if len(found) < 3:
            continue
        dealt, _ = deals(view, 8, 1)
        result = judge(view, found, dealt, max_states=500, batch=4, budget=None)
        # a plain count over every deal: the chosen endpoint is the best one, or behind it by less than the spread
        # the judge drops endpoints at (it can fail: a judge that picked the worst would be far behind)
        counts = []
        for endpoint in found:
            won = 0
            for deal in dealt:
                trial = Klondike.from_position(deal, rules=rules)
                for move in endpoint.path:
                    trial.play(move)
                won += trial.is_won or solve(trial.snapshot(), rules, max_states=500).outcome == "solved"
            counts.append(won)
        assert counts[found.index(result.best)] >= max(counts) - (2 + 8**0.5), (counts, result)
        judged_any += 1
        if judged_any >= 4:
            break
    assert judged_any >= 4


def test_nopeek_follows_the_way_to_its_endpoint_and_twins_play_alike() -> None:
    followed = 0
    for n, (rules, position) in enumerate(POSITIONS[:20]):
        one = Klondike.from_position(position, rules=rules)
        two = Klondike.from_position(twin(position, random.Random(n)), rules=rules)
        players = [
            NoPeek(samples=3, max_states=400, seed=n, scout=False, reach=True, reach_samples=6, reach_states=300)
            for _ in range(2)
        ]
        for _ in range(8):
            if one.is_won or not one.legal_moves() or one.player_view() != two.player_view():
                break
            decisions = [p.decide(g.player_view()) for p, g in zip(players, (one, two))]
            assert decisions[0] == decisions[1]
            followed += decisions[0].followed
            for game, decision in zip((one, two), decisions):
                game.play(decision.move)
    assert followed >= 3
