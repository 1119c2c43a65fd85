"""Shared helper of the solver tests: does a line of moves win the game (checked through the public model)?"""

from __future__ import annotations

from patiencelab import Klondike, Move


def replay_wins(game: Klondike, moves: tuple[Move, ...]) -> bool:
    """Play ``moves`` on a copy of ``game`` through the public model and say whether it ends won."""
    copy = game.copy()
    for move in moves:
        copy.play(move)
    return copy.is_won
