"""The games the review is tested and measured on (``tests/test_review.py``, ``benchmarks/bench_review.py``),
and their twins: the same moves with the face-down cards in another order; and :func:`random_game`, random play
for the lessons, the recorder and the layout tests.

Deterministic: for each of four rule sets (standard and traditional, draw 1 and draw 3), seeds 0, 1, 2, ... are
played by :class:`~patiencelab.players.RandomMoves` (even seeds) and by :class:`DrawFirst` (odd seeds), each game
until it is won, stuck, goes round in circles or reaches 200 moves; the first ``per_rules`` games that are not
won are kept.
"""

from __future__ import annotations

import functools
import json
import random
from collections import Counter
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

from patiencelab import Klondike, Move, Rules
from patiencelab.core.view import PlayerView
from patiencelab.players import Greedy, RandomMoves, legal_moves, play_out
from patiencelab.review import Review, review
from tests.model_helpers import twin

#: The rule sets of the review's games: (preset, draw).
RULE_SETS = (("standard", 1), ("standard", 3), ("traditional", 1), ("traditional", 3))


class DrawFirst:
    """Draws through the whole stock before anything else, then plays the hint order (:class:`Greedy`): the way of
    playing that lost the Traditional deal of issue 25.
    """

    def __init__(self) -> None:
        self._greedy = Greedy()

    def choose(self, view: PlayerView) -> Move:
        if view.recycles == 0 and view.stock_size:
            draw = next((m for m in legal_moves(view) if m.is_draw), None)
            if draw is not None:
                return draw
        return self._greedy.choose(view)


class Sloppy:
    """Plays the hint order (:class:`Greedy`), but a random legal move three times in ten (seeded)."""

    def __init__(self, seed: int) -> None:
        self._greedy, self._random, self._rng = Greedy(), RandomMoves(seed), random.Random(seed)

    def choose(self, view: PlayerView) -> Move:
        return self._random.choose(view) if self._rng.random() < 0.3 else self._greedy.choose(view)


def random_game(seed: int, moves: int = 400) -> Klondike:
    """A game of random play: half the time a random card move when there is one, else any legal move."""
    rng = random.Random(seed)
    game = Klondike(seed=seed)
    for _ in range(moves):
        legal = game.legal_moves()
        if not legal or game.status != "playing":
            break
        cards = [m for m in legal if not (m.is_draw or m.is_recycle)]
        game.play(rng.choice(cards) if cards and rng.random() < 0.5 else rng.choice(legal))
    return game


def sloppy_game(seed: int, moves: int = 70) -> Klondike:
    """A standard draw-1 game of ``moves`` moves at most played by :class:`Sloppy`."""
    game = Klondike(seed=seed)
    play_out(game, Sloppy(seed), max_moves=moves)
    return game


@functools.cache
def reviewed_sloppy_game(seed: int = 16) -> tuple[Klondike, Review]:
    """:func:`sloppy_game` of ``seed`` and its review with the board's budgets (seed 16: a blunder at move 50, the
    3♥ onto the 4♣, that the solver finds did not lose this deal). Shared: do not change the game.
    """
    game = sloppy_game(seed)
    return game, review(game)


def lost_games(per_rules: int = 15) -> Iterator[tuple[str, Klondike]]:
    """``per_rules`` lost games under each of :data:`RULE_SETS`, each with a name (rules, seed, player)."""
    for preset, draw in RULE_SETS:
        rules = Rules.preset(preset, draw=draw)
        kept = 0
        seed = 0
        while kept < per_rules:
            player = RandomMoves(seed) if seed % 2 == 0 else DrawFirst()
            game = Klondike(seed=seed, rules=rules)
            _play_as_in_issue_25(game, player, 200)
            if not game.is_won:
                kept += 1
                yield f"{preset}-draw{draw}-seed{seed}-{type(player).__name__}", game
            seed += 1


def _play_as_in_issue_25(game: Klondike, player: RandomMoves | DrawFirst, max_moves: int) -> None:
    """Play as ``play_out`` did when these games were chosen (a repetition was then the very position, columns in
    order), so the set of lost games stays the one the reviews were measured on.
    """
    seen: Counter[str] = Counter()
    for _ in range(max_moves):
        if game.is_won or not game.legal_moves():
            return
        position = game.snapshot()
        key = repr(position if game.rules.max_passes is not None else replace(position, recycles=0))
        seen[key] += 1
        if seen[key] > 2:
            return
        game.play(player.choose(game.player_view()))


def _hidden(position: dict[str, Any]) -> list[str]:
    """The cards of a position the player has never seen: face down, and the stock before any recycle."""
    cards = [card for column in position["tableau"] for card in column["down"]]
    return cards + (position["stock"] if position["recycles"] == 0 else [])


def twin_game(game: Klondike, rng: random.Random) -> Klondike:
    """The game with the same moves whose cards never seen (at its end) lie in another order."""
    end = game.position_json()
    other = twin(end, rng)
    swap = dict(zip(_hidden(end), _hidden(other)))
    start = Klondike.from_record({**game.record(), "moves": []}).position_json()
    text = json.dumps(start)
    for old, new in swap.items():
        text = text.replace(f'"{old}"', f'"@{new}"')
    twin_start = json.loads(text.replace('"@', '"'))
    made = Klondike.from_position(twin_start, rules=game.rules)
    for move in game.history:
        made.play(move)
    made.lang = game.lang
    return made
