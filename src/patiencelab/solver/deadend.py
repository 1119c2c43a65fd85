"""Dead ends the search need not explore: a card that can never leave its place (a column, or the talon in the
last pass), so never go home. Sets of cards are bits of an int (bit c: card c).
"""

from __future__ import annotations

from patiencelab.core.kernel import RANK, RED
from patiencelab.solver.node import Node

__all__ = ["is_dead"]


def is_dead(st: Node) -> bool:
    """True when some card in a column can provably never leave its place (so the position cannot be won).

    Only the cards that cover face-down cards matter here: the face-down cards and each column's bottom face-up
    card over them. Such a card leaves its place only after every card above it has left (face down: to be
    turned up first), and then goes either home, after every lower card of its suit (each of which must have
    left its own place before), or onto a card of the next rank and other colour, which must be face up by then
    (if face down, every card above it must have left), or, if a King (or any card when any card may fill one),
    to an empty column. A card on a foundation counts as at hand only when cards may come back from there.

    In the last pass (no recycle left) the talon's cards are tracked too (see :func:`_add_talon`).

    The cards that *may* leave are found from the others (face-up cards off face-down cards, and the talon while
    a recycle is left, are taken as free): add every card whose conditions hold given the cards already added,
    until none is left.
    In any win, take the cards in the order they first leave their places: each one's conditions name only
    cards that left before it, so by induction every card that ever leaves is added. A card never added thus
    never leaves, never goes home, and the game is lost. The test is weak on purpose (everything else is taken
    as possible), so it only proves, never guesses.
    """
    down, up = st.down, st.up
    # above[c]: the cards that must leave before c is at hand; pending: the tracked cards not yet known to leave
    above = [0] * 52
    pending = 0
    for i in range(st.n):
        d = down[i]
        if not d:
            continue
        bits = 1 << up[i][0]
        pending |= bits
        for c in reversed(d):
            above[c] = bits
            bits |= 1 << c
        pending |= bits
    if not st.can_recycle():
        pending |= _add_talon(st, above)
    if not pending:
        return False
    found, f2t, king_only = st.found, st.f2t, st.king_only
    changed = True
    while changed:
        changed = False
        rest = pending
        while rest:
            low = rest & -rest
            rest ^= low
            c = low.bit_length() - 1
            if not above[c] & pending and _can_leave(c, pending, above, found, f2t, king_only):
                pending ^= low
                changed = True
        if not pending:
            return False
    return True


def _add_talon(st: Node, above: list[int]) -> int:
    """The talon's cards, tracked in the last pass (no recycle left), as bits; ``above`` filled for them. The
    waste is a pile whose top alone may be played, so a waste card is at hand only after every card above it has
    left; a draw lays its cards on the waste in order, so a stock card is at hand only after the cards its draw
    lays on it have left (draw 2 or more: the stock's cards are drawn in fixed groups of ``draw`` from the next
    card on). Every talon card is tracked, as a column's bottom face-up card is: it too must have somewhere to
    go. Cards drawn later may cover a card too; leaving that out only makes the test weaker.
    """
    talon, p, draw = st.talon, st.p, st.draw
    size = len(talon)
    tracked = 0
    bits = 0
    for i in range(p - 1, -1, -1):  # the waste, top first
        c = talon[i]
        above[c] = bits
        bits |= 1 << c
    tracked |= bits
    for g in range(p, size, draw):  # the stock, a draw's group at a time
        bits = 0
        for i in range(min(g + draw, size) - 1, g - 1, -1):
            c = talon[i]
            above[c] = bits
            bits |= 1 << c
        tracked |= bits
    return tracked


def _can_leave(c: int, pending: int, above: list[int], found: list[int], f2t: bool, king_only: bool) -> bool:
    """True when ``c`` (at hand) has somewhere to go given the cards not known to leave (``pending``)."""
    rank = RANK[c]
    if rank == 13 or not king_only:
        return True  # an empty column (taken as possible)
    suit = c // 13
    # Home: every lower card of its suit off the foundation must be able to leave its place.
    if not pending & ((1 << c) - (1 << (suit * 13 + found[suit]))):
        return True
    red = RED[c]
    for s in range(4):
        if (s in (1, 2)) == red:
            continue  # same colour
        t = s * 13 + rank  # the card of the next rank in suit s
        if found[s] > rank:
            if f2t:
                return True
            continue
        if not pending >> t & 1:
            return True
        if not above[t] & pending:
            return True  # it can be turned up first
    return False
