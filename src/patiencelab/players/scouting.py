"""What the fair player does before it judges moves: learn the stock when that costs nothing.

With unlimited passes, going once through the stock at the start of a deal and turning the waste over brings the
game back to the very position it started from (the same columns, the same stock in the same order, an empty
waste), with one thing changed: the player has now seen every stock card, in order, and remembers them (see
:mod:`patiencelab.core.view`). A good player does it, and it is worth much to a player that judges moves on
sampled deals: its samples then differ only in the face-down cards of the columns, not in the stock, whose
invented order a sampled deal's win would otherwise rely on (the weakness of sampling with draw 3, where most
stock cards are reachable only in some orders). :func:`scouting_move` is that move: a draw, or the recycle at the
end of the pass, while the game is still in that pass; else ``None``.

It reads the player's view only, so it is as fair as the view, and it depends on nothing but the view.
"""

from __future__ import annotations

from patiencelab.core.moves import Move
from patiencelab.core.view import PlayerView

__all__ = ["TIEBREAKS", "scouting_move"]

#: How the fair player tells apart candidate moves that keep as many sampled deals winnable: ``order``, the hint
#: order (a card turned up first, a draw last); ``effort``, the fewest positions the solver searched to win the
#: deals after the move (a move after which the deals are won with less search); ``votes``, the move that the most
#: wins found before the move begin with, then the hint order; ``sight``, the fewest moves the wins found after the
#: move play before they turn up a face-down card (a move after which the player sees a card soonest).
TIEBREAKS = ("order", "effort", "votes", "sight")


def scouting_move(view: PlayerView, legal: list[Move]) -> Move | None:
    """The next move of a first pass through the stock that only looks (a draw, or the recycle that ends it), or
    ``None`` when the game is not in such a pass: passes limited (a pass costs one), some stock card already
    known, or a move other than a draw played since the start, or a waste that was not empty at the start.
    ``legal`` are the legal moves of ``view``'s position.
    """
    if view.rules.max_passes is not None or view.recycles or any(not m.is_draw for m in view.history):
        return None
    if view.stock_size and view.unseen_stock != view.stock_size:
        return None  # the starting position said some stock cards were seen: it was not a fresh deal
    total = view.stock_size + len(view.waste)
    drawn = min(total, len(view.history) * view.rules.draw)
    if len(view.waste) != drawn or total == 0:
        return None  # the waste held cards before the first draw: a pass would not come back to the start
    wanted = [m for m in legal if (m.is_draw if view.stock_size else m.is_recycle)]
    return wanted[0] if wanted else None
