"""The status "stuck" is fair: it is decided from what the player can see, and it still catches a stuck game once
the player has seen every card that could help.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from patiencelab import Klondike, Move, Rules
from patiencelab.core.kernel import talon_reach
from patiencelab.widget import protocol
from tests.model_helpers import col, game_from

RULE_SETS = [
    Rules(),
    Rules(draw=3),
    Rules.preset("traditional", draw=3),
    Rules.preset("six-column"),
    Rules(max_passes=2),
]


def peeking_stuck(game: Klondike) -> bool:
    """The old rule, which reads the stock's unseen cards: no move but the talon's, and no talon card that draws
    would bring up fits anywhere. For showing that the twin test can fail.
    """
    if game.is_won or any(not (m.is_draw or m.is_recycle) for m in game.legal_moves()):
        return False
    talon = game._waste + game._stock[::-1]
    reach = talon_reach(len(talon), len(game._waste), game.rules.draw, game.passes_left != 0)
    return not any(game._card_fits_anywhere(talon[i]) for i, _ in reach)


def arranged(game: Klondike, helpful_in_stock: bool, rng: random.Random) -> Klondike:
    """A twin of ``game`` (the same visible cards; before any recycle the stock counts as unseen): its hidden
    cards in another order, those that would fit somewhere put first into the stock (``helpful_in_stock``) or
    first into the face-down places, the rest shuffled.
    """
    position: dict[str, Any] = json.loads(json.dumps(game.position_json()))
    unseen_stock = position["recycles"] == 0
    hidden = [c for column in position["tableau"] for c in column["down"]]
    if unseen_stock:
        hidden += position["stock"]
    rng.shuffle(hidden)
    probe = game.copy()
    helps = {str(card) for card in _cards(probe) if probe._card_fits_anywhere(card.index)}
    helpful = [c for c in hidden if c in helps]
    others = [c for c in hidden if c not in helps]
    if helpful_in_stock and unseen_stock:
        stock_size = len(position["stock"])
        pool = helpful + others
        order = pool[stock_size:] + pool[:stock_size]  # the stock comes last, the helpful cards first in it
    else:
        order = helpful + others
    it = iter(order)
    for column in position["tableau"]:
        column["down"] = [next(it) for _ in column["down"]]
    if unseen_stock:
        position["stock"] = list(it)
    return Klondike.from_position(position, rules=game.rules)


def _cards(game: Klondike) -> list[Any]:
    return [card for column in game.tableau for card in column.down] + list(game.stock)


def wire(game: Klondike) -> str:
    """The board's synced state of ``game`` with ``reveal`` off, as the bytes that go to the browser."""
    state = protocol.board_state(game, reveal=False, show_moves=True, lang="en")
    state.pop("seconds")
    return json.dumps(state, sort_keys=True)


def talon_only_positions() -> list[Klondike]:
    """Positions where only draws and recycles are legal (where the talon decides "stuck"), from random play on
    seeded deals under five rule sets: the last of each game and two others, some with the stock still unseen
    and some past a recycle.
    """
    found: list[Klondike] = []
    for rules in RULE_SETS:
        for seed in range(12):
            rng = random.Random(seed)
            game = Klondike(seed=200 + seed, rules=rules)
            candidates: list[Klondike] = []
            for _ in range(250):
                legal = game.legal_moves()
                if not legal:
                    break
                if all(m.is_draw or m.is_recycle for m in legal):
                    candidates.append(Klondike.from_position(game.position_json(), rules=rules))
                game.play(rng.choice(legal))
            # the last (often stuck) and two more from along the game
            found += candidates[-1:] + rng.sample(candidates[:-1], max(0, min(2, len(candidates) - 1)))
    return found


POSITIONS = talon_only_positions()


def test_the_positions_are_many_of_several_rule_sets_with_unseen_stocks_and_known_ones() -> None:
    assert len(POSITIONS) >= 60
    assert len({game.rules for game in POSITIONS}) == len(RULE_SETS)
    assert sum(game.recycles == 0 and bool(game.stock) for game in POSITIONS) >= 20
    assert any(game.recycles > 0 and game.stock for game in POSITIONS)
    assert any(game.is_stuck for game in POSITIONS) and any(not game.is_stuck for game in POSITIONS)


@pytest.mark.parametrize("n", range(len(POSITIONS)))
def test_twins_get_the_same_status_on_the_wire(n: int) -> None:
    game = POSITIONS[n]
    rng = random.Random(n)
    twins = [arranged(game, True, rng), arranged(game, False, rng)]
    for twin in twins:
        assert twin.player_view() == game.player_view()
        assert twin.is_stuck == game.is_stuck
        assert twin.status == game.status
        assert wire(twin) == wire(game)
    if game.is_stuck:  # fair says stuck only when the game is stuck whatever the hidden cards
        assert all(peeking_stuck(twin) for twin in [game, *twins])


def test_the_twin_test_can_fail_the_old_rule_tells_twins_apart() -> None:
    rng = random.Random(1)
    differ = 0
    for game in POSITIONS:
        hidden_helps, drawn_helps = arranged(game, False, rng), arranged(game, True, rng)
        differ += peeking_stuck(hidden_helps) != peeking_stuck(drawn_helps)
    assert differ >= 10


SPADE_TOPS = ["KS", "QS", "JS", "TS", "9S", "8S", "7S"]
SPADES = [col("", top) for top in SPADE_TOPS]


@pytest.mark.parametrize("rules", [Rules(), Rules(draw=3), Rules(draw=3, max_passes=3), Rules(max_passes=1)])
def test_a_stuck_game_is_stuck_once_the_stock_is_seen(rules: Rules) -> None:
    # The stock holds 5H 3H 4H 2H, which fit nowhere; the unseen cards include the AH, which would go home, so
    # while the stock is unseen the player cannot tell.
    game = game_from(SPADES, stock="5H 3H 4H 2H", rest="t2", found={"C": 13, "D": 13}, rules=rules)
    assert peeking_stuck(game) and not game.is_stuck and game.status == "playing"
    assert game.legal_moves() == [Move.parse("d")]
    while game.stock:
        game.draw()
    assert game.is_stuck and game.status == "stuck"
    assert json.loads(wire(game))["status"] == "stuck"
    if game.legal_moves():  # a recycle is left: the stock, known now, still never helps
        game.recycle()
        assert game.is_stuck


def test_a_stock_that_would_help_keeps_the_game_playing_once_seen() -> None:
    game = game_from(SPADES, stock="5H 6H", rest="t2", found={"C": 13, "D": 13})
    game.draw()
    game.draw()
    assert not game.is_stuck  # the 6H goes on the 7S after a recycle
    game.recycle()
    assert not game.is_stuck and game.status == "playing"


def test_stuck_before_the_stock_is_seen_when_no_unseen_card_could_help() -> None:
    # Black cards are home, every top is red (red never takes red) and the next diamond and heart lie in the
    # waste under its top, out of reach with one pass: no unseen card fits anywhere, whatever lies where.
    tops = ["KH", "QD", "JH", "TD", "9H", "8D", "7H"]
    game = game_from(
        [col("", top) for top in tops],
        stock="5D 6D",
        waste="AD AH 5H",
        rest="t1",
        found={"C": 13, "S": 13},
        rules=Rules(max_passes=1),
    )
    assert game.stock and game.recycles == 0
    assert game.legal_moves() == [Move.parse("d")]
    assert game.is_stuck and game.status == "stuck"
