"""Dead ends the search need not explore: a card that can never leave its column, so never go home."""

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

    The cards that *may* leave are found from the others (talon and face-up cards off face-down cards are
    taken as free): add every card whose conditions hold given the cards already added, until none is left.
    In any win, take the cards in the order they first leave their places: each one's conditions name only
    cards that left before it, so by induction every card that ever leaves is added. A card never added thus
    never leaves, never goes home, and the game is lost. The test is weak on purpose (everything else is taken
    as possible), so it only proves, never guesses.
    """
    down, up, found = st.down, st.up, st.found
    # above[c]: the cards that must leave before c is turned up (None: c is not tracked, it is free or face up)
    pending: dict[int, tuple[int, ...]] = {}
    for i in range(st.n):
        d = down[i]
        if not d:
            continue
        u0 = up[i][0]
        pending[u0] = ()
        above: tuple[int, ...] = (u0,)
        for c in reversed(d):
            pending[c] = above
            above = (*above, c)
    if not pending:
        return False
    f2t, king_only = st.f2t, st.king_only
    freed: set[int] = set()
    changed = True
    while changed:
        changed = False
        for c, above in list(pending.items()):
            if not all(a in freed for a in above):
                continue
            if _can_leave(c, pending, freed, found, f2t, king_only):
                freed.add(c)
                del pending[c]
                changed = True
        if not pending:
            return False
    return True


def _can_leave(
    c: int, pending: dict[int, tuple[int, ...]], freed: set[int], found: list[int], f2t: bool, king_only: bool
) -> bool:
    """True when ``c`` (turned up) has somewhere to go given the cards known to be able to leave."""
    rank = RANK[c]
    if rank == 13 or not king_only:
        return True  # an empty column (taken as possible)
    suit = c // 13
    # Home: every lower card of its suit off the foundation must be able to leave its place.
    if all((y not in pending) for y in range(suit * 13 + found[suit], c)):
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
        if t not in pending or t in freed:
            return True
        if all(a in freed for a in pending[t]):
            return True  # it can be turned up first
    return False
