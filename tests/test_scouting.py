"""The fair player's first look at the stock (issue 33): a pass that only looks, when it costs nothing."""

from __future__ import annotations

import random
from typing import Any

import pytest

from patiencelab import Klondike, Rules
from patiencelab.players import NoPeek, legal_moves
from patiencelab.players.nopeek import _from_foundation, _moves_to_sight, _place
from patiencelab.players.ranking import ranked_moves
from patiencelab.players.scouting import TIEBREAKS, scouting_move
from patiencelab.solver import solve
from tests.model_helpers import table
from tests.review_games import twin_game

SMALL: dict[str, Any] = {"samples": 4, "max_states": 500}


def _scout(game: Klondike, player: NoPeek, moves: int) -> list[str]:
    played = []
    for _ in range(moves):
        played.append(str(game.play(player.choose(game.player_view()))))
    return played


@pytest.mark.parametrize("draw", [1, 3])
def test_the_player_goes_once_through_the_stock_and_is_back_at_the_start_knowing_it(draw: int) -> None:
    game = Klondike(seed=7, rules=Rules(draw=draw))
    start = table(game)
    stock = game.player_view().stock_size
    passes = -(-stock // draw)  # the draws of one pass
    player = NoPeek(**SMALL, scout=True)
    played = _scout(game, player, passes + 1)
    assert played == ["d"] * passes + ["r"]
    assert player.last_decision is None, "a move of the look was decided by nothing"
    view = game.player_view()
    assert view.unseen_stock == 0 and len(view.stock) == stock, "every stock card seen, in order"
    assert table(game) == start, "the very position it started from"
    assert scouting_move(view, legal_moves(view)) is None, "once is enough"
    game.play(player.choose(view))
    assert player.last_decision is not None and game.history[-1] == player.last_decision.move


def test_no_look_when_a_pass_costs_something_or_the_player_is_told_not_to() -> None:
    limited = Klondike(seed=7, rules=Rules(draw=3, max_passes=3))
    view = limited.player_view()
    assert scouting_move(view, legal_moves(view)) is None
    game = Klondike(seed=7, rules=Rules(draw=3))
    assert "r" not in _scout(game, NoPeek(**SMALL, scout=False), 9), "no pass that only looks"
    assert repr(NoPeek(scout=False)).endswith("scout=False)")
    # by default only with draw 3, where it was measured to help (with draw 1 it lost more deals than it won)
    one = Klondike(seed=7, rules=Rules(draw=1))
    assert "r" not in _scout(one, NoPeek(**SMALL), 25)
    assert NoPeek(**SMALL).scout is None and repr(NoPeek()).endswith("seed=0)")


def test_no_look_once_anything_but_a_draw_was_played_or_the_position_knew_some_stock() -> None:
    game = Klondike(seed=7, rules=Rules(draw=1))
    game.play("d")
    moves = [m for m in game.legal_moves() if not m.is_draw]
    assert moves, "this deal has a move other than a draw after one draw"
    game.play(moves[0])
    view = game.player_view()
    assert scouting_move(view, legal_moves(view)) is None
    # a game started from a position whose waste holds cards: a pass would not come back to where it was
    later = Klondike(seed=7, rules=Rules(draw=1))
    later.play("d")
    again = Klondike.from_position(later.snapshot(), rules=later.rules)
    view = again.player_view()
    assert view.waste and scouting_move(view, legal_moves(view)) is None


def test_the_hint_and_the_review_judge_moves_they_do_not_scout() -> None:
    # decide() (the hint, the review's reference player) judges the position as it is: no draw for looking's sake
    game = Klondike(seed=7, rules=Rules(draw=3))
    view = game.player_view()
    player = NoPeek(**SMALL)
    assert player.choose(view).is_draw
    assert player.decide(view) == NoPeek(**SMALL, scout=False).decide(view)


def test_twins_look_through_the_stock_alike() -> None:
    game = Klondike(seed=11, rules=Rules(draw=3))
    other = twin_game(game, random.Random(3))
    assert other.snapshot().stock != game.snapshot().stock, "the stock in another order"
    first = _scout(game, NoPeek(**SMALL), 9)  # the look: after it, the twins' stocks are seen, and differ
    second = _scout(other, NoPeek(**SMALL), 9)
    assert first == second == ["d"] * 8 + ["r"]


def test_after_its_look_the_player_goes_round_only_where_every_move_leads_back() -> None:
    # With the whole stock known, a move to the same cards with the stock turned any way round leads back (drawing
    # alone gets there again); the player goes round only when every legal move does, or when every other move
    # takes a card off its foundation and every deal it drew is lost (it keeps the card there), and then the deal
    # is lost.
    kept_home = 0
    for draw, seed in ((1, 1), (3, 4), (3, 5)):
        game = Klondike(seed=seed, rules=Rules(draw=draw))
        player = NoPeek(samples=4, max_states=300, seed=seed)
        visited: set[object] = set()
        needless = 0
        for _ in range(120):
            if game.is_won or not game.legal_moves():
                break
            view = game.player_view()
            visited |= {_place(view), _place(view, cycle=True)}
            back = set()
            for move in game.legal_moves():
                trial = game.copy()
                trial.play(move)
                played = trial.last_played()
                if (move.is_draw and view.unseen_stock) or (played is not None and played.turned is not None):
                    continue
                if _place(trial.player_view(), cycle=not (move.is_draw or move.is_recycle)) in visited:
                    back.add(move)
            move = player.choose(view)
            others = [m for m in game.legal_moves() if m not in back]
            hinted = [m for m in ranked_moves(game, view.last_move) if m not in back]  # no shuffle is a candidate
            decision = player.last_decision
            home = decision is not None and decision.chances.won == decision.chances.unknown == 0 < decision.samples
            if move in back and hinted and home and all(map(_from_foundation, hinted)):
                kept_home += 1
                assert solve(game.snapshot(), game.rules, max_states=200_000).outcome == "impossible"
            elif move in back and others:
                needless += 1
            elif move in back and view.unseen_stock == 0:
                assert solve(game.snapshot(), game.rules, max_states=200_000).outcome == "impossible"
            game.play(move)
        assert needless == 0, (draw, seed)
    assert kept_home  # draw 3, deal 5 comes to such a position


@pytest.mark.parametrize("tiebreak", TIEBREAKS)
def test_every_tiebreak_decides_from_the_view_alone(tiebreak: str) -> None:
    # twins (face-down cards in another order) get the same decision, whatever tells tied moves apart
    game = Klondike(seed=12, rules=Rules(draw=3))
    for _ in range(9):
        game.play(NoPeek(**SMALL).choose(game.player_view()))  # the look at the stock: then only columns hide cards
    decision = NoPeek(**SMALL, tiebreak=tiebreak).decide(game.player_view(), confirm=True)
    assert decision.move in game.legal_moves() and decision.solves > 0
    for k in range(3):
        other = twin_game(game, random.Random(k))
        assert other.snapshot().tableau != game.snapshot().tableau
        assert NoPeek(**SMALL, tiebreak=tiebreak).decide(other.player_view(), confirm=True) == decision


def test_sight_counts_the_moves_before_a_card_is_turned_up() -> None:
    # the sight tie-break's measure: how many moves of a win come before the first that turns a card face up
    game = Klondike(seed=0, rules=Rules(draw=3))
    deal = game.snapshot()
    turns = [m for m in game.legal_moves() if game.uncovers(m) is not None]
    draw = next(m for m in game.legal_moves() if m.is_draw)
    assert turns  # deal 0 opens with a card that may move off a face-down one
    assert _moves_to_sight(deal, game.rules, (turns[0],)) == 0
    assert _moves_to_sight(deal, game.rules, (draw, turns[0])) == 1
    assert _moves_to_sight(deal, game.rules, (draw, draw, draw)) == 3  # none turned up: every move counts
    assert NoPeek().tiebreak_for(Rules(draw=3)) == "order" and NoPeek().tiebreak_for(Rules(draw=1)) == "effort"
