"""The hint order, written once: the legal moves a hint or a player may give, most preferred first. The fair hint
(:func:`patiencelab.hints.find_fair_hint`) breaks its ties by it, :class:`~patiencelab.players.Greedy` plays its
first move and :class:`~patiencelab.players.NoPeek` judges the candidates in it.

Among the legal moves that neither take back the previous move nor only shuffle cards (a run moved off a face-up
card onto a card of the same rank and colour, or a column with no face-down cards moved whole to an empty column):

1. a move that turns over a face-down card (the column with the most face-down cards first);
2. a card to a foundation;
3. a card from the waste to the tableau;
4. any other move of cards (a foundation card back to the tableau last);
5. a draw or a recycle.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from patiencelab.core.moves import Move

if TYPE_CHECKING:
    from patiencelab.core.game import Klondike

__all__ = ["candidates", "rank", "ranked_moves", "shuffles"]


def _reverses(move: Move, last: Move | None) -> bool:
    """True when ``move`` takes straight back what ``last`` did (``t2-t5`` after ``t5-t2``)."""
    if last is None or last.source is None or last.target is None or move.source is None or move.target is None:
        return False
    ls, lt, ms, mt = last.source, last.target, move.source, move.target
    if lt[0] == "f":
        return ms[0] == "f" and mt == ls
    if ls[0] == "f":
        return ms == lt and mt[0] == "f"
    return ms == lt and mt == ls


def shuffles(game: Klondike, move: Move) -> bool:
    """True for a move that only shuffles cards: nothing turns up, nothing new can follow."""
    source, target = move.source, move.target
    if source is None or target is None or source[0] != "t" or target[0] != "t":
        return False
    column = game.tableau[int(source[1:]) - 1]
    moving = game.moving_cards(move)
    top = game.tableau[int(target[1:]) - 1].top
    if len(moving) == len(column.up):  # the whole face-up part moves
        return not column.down and top is None
    under = column.up[len(column.up) - len(moving) - 1]
    return top is not None and under.rank == top.rank and under.is_red == top.is_red


def rank(game: Klondike, move: Move) -> tuple[int, int]:
    """The move's place in the hint order, as a sort key: smaller is preferred."""
    if move.is_draw or move.is_recycle:
        return (5, 0)
    column = game.uncovers(move)
    if column is not None:
        return (1, -len(game.tableau[column - 1].down))
    assert move.source is not None and move.target is not None
    if move.target[0] == "f":
        return (2, 0)
    if move.source == "w":
        return (3, 0)
    return (4, 1 if move.source[0] == "f" else 0)


def candidates(game: Klondike) -> list[Move]:
    """The legal moves a hint may give, most preferred first (the order of this module)."""
    return ranked_moves(game, game.history[-1] if game.history else None)


def ranked_moves(game: Klondike, last: Move | None) -> list[Move]:
    """:func:`candidates` when the move played last was ``last`` (for a game that stands in for a view)."""
    moves = [m for m in game.legal_moves() if not _reverses(m, last) and not shuffles(game, m)]
    return sorted(moves, key=lambda m: rank(game, m))  # stable: ties keep the table's order
