"""A player playing a game to its end: :func:`play_out` and :func:`play_to_end` (won, stuck, a position seen a
third time, or the cap on moves), and :func:`as_choose`, the one way any player becomes a function of a view.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Hashable, Iterator
from typing import TYPE_CHECKING, Literal

from patiencelab.core.errors import ArgumentTypeError, quote
from patiencelab.core.game import Klondike, Status
from patiencelab.core.limits import (
    check_instance,
    check_whole,
)
from patiencelab.core.moves import Move
from patiencelab.core.view import PlayerView
from patiencelab.players.strategies import Oracle, Player

if TYPE_CHECKING:
    pass

#: How a game of :func:`play_to_end` ended: won, stuck (no legal move), a position seen a third time (the
#: player goes round in circles) or ``max_moves`` moves played.
Ended = Literal["won", "stuck", "repeated", "max_moves"]


def play_out(
    game: Klondike,
    player: Player | Callable[[PlayerView], Move],
    *,
    max_moves: int = 1_000,
    on_move: Callable[[Move], None] | None = None,
) -> Status:
    """Let ``player`` (a :class:`Player` or any function of a view) play ``game`` from its current position
    until it is won, no move is legal, a position comes back a third time (the player goes round in circles:
    through the stock twice with nothing played, say) or ``max_moves`` moves were played; returns the game's
    status (``playing`` when it stopped on a repetition or the cap: :func:`play_to_end` says which).
    """
    play_to_end(game, player, max_moves=max_moves, on_move=on_move)
    return game.status


def play_to_end(
    game: Klondike,
    player: Player | Callable[[PlayerView], Move],
    *,
    max_moves: int = 1_000,
    on_move: Callable[[Move], None] | None = None,
) -> Ended:
    """Play as :func:`play_out` does and say how the game ended: ``won``, ``stuck`` (no legal move),
    ``repeated`` (a position came back a third time) or ``max_moves``.
    """
    check_instance(game, "game", Klondike)
    choose = as_choose(player, game)
    seen: Counter[Hashable] = Counter()
    for _ in _moves(max_moves):
        if game.is_won or not game.legal_moves():
            break
        key = _key(game)
        seen[key] += 1
        if seen[key] > 2:
            return "repeated"
        move = game.play(choose(game.player_view()))
        if on_move is not None:
            on_move(move)
    return "won" if game.is_won else "stuck" if not game.legal_moves() else "max_moves"


def _key(game: Klondike) -> Hashable:
    """The position, for spotting repetitions: the columns taken as a set (their order changes nothing of the
    game), the recycles counted only when passes are limited.
    """
    position = game.snapshot()
    columns = tuple(sorted(repr(column) for column in position.tableau))
    recycles = position.recycles if game.rules.max_passes is not None else 0
    return (columns, position.stock, position.waste, repr(position.foundations), recycles)


def _moves(max_moves: int) -> Iterator[int]:
    return iter(range(check_whole(max_moves, "max_moves", low=0)))


def as_choose(
    player: Player | Callable[[PlayerView], Move], game: Klondike | None = None
) -> Callable[[PlayerView], Move]:
    """The function from a view to a move that ``player`` is: its ``choose``, or the player itself when it is a
    function; a :class:`PatienceError` for anything else. An :class:`Oracle` is bound to ``game`` first (it
    peeks at the game it plays).
    """
    if game is not None:
        check_instance(game, "game", Klondike)
    if isinstance(player, Oracle) and game is not None:
        player = player.seeing(game)
    if isinstance(player, Player):
        return player.choose
    if callable(player):
        return player
    raise ArgumentTypeError(f"a player must have a choose(view) method or be a function of a view, not {quote(player)}")


__all__ = ["Ended", "as_choose", "play_out", "play_to_end"]
