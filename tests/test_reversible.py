"""Which moves can be taken back (:func:`~patiencelab.players.nopeek.reversible`): the fair player follows the wins it
found earlier only through those."""

from __future__ import annotations

from typing import Any

from patiencelab import Klondike, Move, Rules
from patiencelab.players import Greedy
from patiencelab.players.nopeek import reversible
from tests.model_helpers import table

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
