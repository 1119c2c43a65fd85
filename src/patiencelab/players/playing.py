"""A player playing a game to its end: :func:`play_out` and :func:`play_to_end` (won, stuck, a position seen a
third time, or the cap on moves: the one rule of ``Referee``, which the board's automatic player keeps too),
and :func:`as_choose`, the one way any player becomes a function of a view.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Hashable
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
    referee = Referee(game, max_moves)
    while (ended := referee.ended(game)) is None:
        move = game.play(choose(game.player_view()))
        referee.played(game)
        if on_move is not None:
            on_move(move)
    return ended


class Referee:
    """The one rule that ends a player's game, for :func:`play_to_end` and the board's automatic player alike:
    :meth:`ended` says ``won``, ``stuck`` (no legal move), ``repeated`` (a position came back a third time: the
    player goes round in circles) or ``max_moves`` (that many moves were played), else ``None``. Tell it of each
    move played with :meth:`played`.
    """

    def __init__(self, game: Klondike, max_moves: int) -> None:
        self.max_moves = check_whole(max_moves, "max_moves", low=0)
        #: The moves played so far.
        self.moves = 0
        self._seen: Counter[Hashable] = Counter((_key(game),))

    def played(self, game: Klondike) -> None:
        """A move was played: ``game`` is in the position it led to."""
        self.moves += 1
        self._seen[_key(game)] += 1

    def ended(self, game: Klondike) -> Ended | None:
        """Why the player must stop at ``game``'s position (the one of the last move told), or ``None``."""
        if game.is_won:
            return "won"
        if not game.legal_moves():
            return "stuck"
        if self._seen[_key(game)] > 2:
            return "repeated"
        return "max_moves" if self.moves >= self.max_moves else None


def _key(game: Klondike) -> Hashable:
    """The position, for spotting repetitions: the columns taken as a set (their order changes nothing of the
    game), the recycles counted only when passes are limited.
    """
    position = game.snapshot()
    columns = tuple(sorted(repr(column) for column in position.tableau))
    recycles = position.recycles if game.rules.max_passes is not None else 0
    return (columns, position.stock, position.waste, repr(position.foundations), recycles)


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
