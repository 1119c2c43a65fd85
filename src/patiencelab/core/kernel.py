"""The rules kernel: Klondike's rules written once, on cards as small ints, for the table and the solver.

A card is the int ``suit * 13 + rank - 1`` (suits in the order ``C D H S``, so 0-12 are the clubs Ace to King).
Everything here reads or changes plain lists of such ints and imports nothing of the package, so that both the
game's :class:`~patiencelab.core.table.Table` and the solver's search nodes use the same tables and the same
steps:

* the card encoding: :data:`RANK`, :data:`RED`, :data:`SUIT`, :data:`TWINS`, :func:`card_id`;
* the fit checks: :func:`fits` (a card on a column's top), :func:`fits_empty`, :func:`run_split` (which card of a
  face-up run would go on a top), :func:`goes_home` (onto its foundation);
* the stock cycle, on the *talon* (the waste bottom first, then the stock in draw order, ``p`` cards of it in
  the waste): :func:`passes_left`, :func:`talon_reach`, :func:`talon_route`;
* apply and undo of the card movements every move is made of: :func:`move_run` / :func:`unmove_run` (a column's
  face-up cards onto another column) and :func:`lift_top` / :func:`unlift_top` (its top card away), both
  turning up the card they uncover; :func:`draw_cards` / :func:`undraw_cards` and :func:`recycle_waste` /
  :func:`unrecycle_waste`.

The lookup tables are module-level lists so that hot loops may index them directly (one list index is cheaper
than a call in CPython); the functions are the one statement of each rule.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Final

__all__ = [
    "KING",
    "RANK",
    "RED",
    "SUIT",
    "SUIT_LETTERS",
    "TWINS",
    "WON",
    "card_id",
    "draw_cards",
    "fits",
    "fits_empty",
    "goes_home",
    "lift_top",
    "move_run",
    "passes_left",
    "recycle_waste",
    "run_split",
    "talon_needs_recycle",
    "talon_reach",
    "talon_route",
    "undraw_cards",
    "unlift_top",
    "unmove_run",
    "unrecycle_waste",
]

#: The suits' letters in card-id order.
SUIT_LETTERS: Final = "CDHS"
#: The rank of a King, the only card an empty column takes under the ``king`` rule.
KING: Final = 13
#: ``RANK[c]``: the rank of card ``c``, 1 (Ace) to 13 (King).
RANK: Final[list[int]] = [c % 13 + 1 for c in range(52)]
#: ``RED[c]``: True for Diamonds and Hearts.
RED: Final[list[bool]] = [c // 13 in (1, 2) for c in range(52)]
#: ``SUIT[c]``: the suit's index, 0-3 (``C D H S``), also its foundation's index.
SUIT: Final[list[int]] = [c // 13 for c in range(52)]
#: ``TWINS[c]``: the two cards of the other colour with the same rank as ``c``, the ones that may take what ``c``
#: takes and go where ``c`` goes. ``TWINS[c - 1]`` are the cards that may be built on ``c`` (not for an Ace).
TWINS: Final[list[tuple[int, int]]] = [
    (s * 13 + c % 13, t * 13 + c % 13) for c in range(52) for s, t in [((1, 2) if c // 13 in (0, 3) else (0, 3))]
]
#: The foundations of a won game (13 cards of each suit).
WON: Final = [13, 13, 13, 13]


def card_id(suit: int, rank: int) -> int:
    """The card of suit index ``suit`` (0-3) and ``rank`` (1-13)."""
    return suit * 13 + rank - 1


# ------------------------------------------------------------------------------------------------ fit checks


def fits(card: int, top: int) -> bool:
    """True when ``card`` may lie on ``top`` in a column: one rank lower, the other colour."""
    return RANK[top] == RANK[card] + 1 and RED[top] != RED[card]


def fits_empty(card: int, king_only: bool) -> bool:
    """True when ``card`` (leading a run) may go to an empty column: any card, or only a King under the
    ``king`` rule.
    """
    return not king_only or RANK[card] == KING


def run_split(up: list[int], top: int) -> int:
    """The index in the face-up run ``up`` (bottom first, in sequence) of the card that may go on ``top``, or
    -1: a run holds at most one card of each rank, so only the card one rank below ``top`` can lead the move.
    """
    k = RANK[up[0]] - RANK[top] + 1
    return k if 0 <= k < len(up) and RED[up[k]] != RED[top] else -1


def goes_home(card: int, found: list[int]) -> bool:
    """True when ``card`` is the next card of its foundation (``found[s]`` counts the cards of suit ``s``)."""
    return found[card // 13] == RANK[card] - 1


# ------------------------------------------------------------------------------------------------ stock cycle


def passes_left(max_passes: int | None, recycles: int) -> int | None:
    """Passes through the stock still allowed after the current one (``None``: unlimited)."""
    return None if max_passes is None else max(0, max_passes - 1 - recycles)


@lru_cache(maxsize=8192)
def talon_reach(size: int, p: int, draw: int, may_recycle: bool) -> tuple[tuple[int, int], ...]:
    """The talon indices that some draws (and at most one recycle, when ``may_recycle``) would put on top of the
    waste, each once with the number of actions (draws and the recycle) it takes, fewest first in each pass.

    The talon has ``size`` cards, ``p`` of them in the waste; a draw moves ``draw`` cards (fewer at the end).
    The waste's own top (index ``p - 1``) takes no action. Remembered (the solver asks often, and there are few
    different questions).
    """
    if not size:
        return ()
    out: list[tuple[int, int]] = []
    if p:
        out.append((p - 1, 0))
    q, k = p, 0
    while q < size:
        q = q + draw if q + draw < size else size
        k += 1
        out.append((q - 1, k))
    if p and may_recycle:
        seen = {i for i, _ in out}
        q, k2 = 0, k + 1
        while q < size:
            q = q + draw if q + draw < size else size
            k2 += 1
            if q - 1 not in seen:
                out.append((q - 1, k2))
    return tuple(out)


def talon_needs_recycle(size: int, p: int, draw: int, idx: int) -> bool:
    """True when talon card ``idx`` can only be brought to the top of the waste after turning the waste over."""
    if idx >= p:
        return (idx - p + 1) % draw != 0 and idx != size - 1
    return idx < p - 1


def talon_route(size: int, p: int, draw: int, idx: int) -> tuple[int, int]:
    """How to bring talon card ``idx`` to the top of the waste: ``(draws, draws_after)`` where ``draws`` are made
    first and ``draws_after`` (-1: none, no recycle) after turning the waste over. ``idx`` must be reachable.
    """
    if idx == p - 1:
        return 0, -1
    q, before = p, 0
    while q < size and q - 1 != idx:
        q = q + draw if q + draw < size else size
        before += 1
    if q - 1 == idx:
        return before, -1
    q, after = 0, 0
    while q - 1 != idx:
        q = q + draw if q + draw < size else size
        after += 1
    return before, after


# ----------------------------------------------------------------------------------------------- apply / undo


def move_run(down: list[int], up: list[int], dest: list[int], count: int) -> bool:
    """Move the top ``count`` face-up cards of a column (``down``, ``up``) onto ``dest``, in order; when that
    empties the face-up run, turn up the next face-down card. Returns True when a card was turned up.
    """
    if count == 1:
        dest.append(up.pop())  # most moves move one card: no slice made
    else:
        cut = len(up) - count
        dest.extend(up[cut:])
        del up[cut:]
    if not up and down:
        up.append(down.pop())
        return True
    return False


def unmove_run(down: list[int], up: list[int], dest: list[int], count: int, flipped: bool) -> None:
    """Undo :func:`move_run` (the same arguments and what it returned)."""
    if flipped:
        down.append(up.pop())
    if count == 1:
        up.append(dest.pop())
    else:
        cut = len(dest) - count
        up.extend(dest[cut:])
        del dest[cut:]


def lift_top(down: list[int], up: list[int]) -> int:
    """Take the top face-up card off a column (``down``, ``up``), turning up the next face-down card when the run
    empties. Returns ``card * 2 + 1`` when a card was turned up, else ``card * 2`` (the token of
    :func:`unlift_top`).
    """
    card = up.pop()
    if not up and down:
        up.append(down.pop())
        return card * 2 + 1
    return card * 2


def unlift_top(down: list[int], up: list[int], token: int) -> None:
    """Undo :func:`lift_top` given its token."""
    if token & 1:
        down.append(up.pop())
    up.append(token >> 1)


def draw_cards(stock: list[int], waste: list[int], count: int) -> None:
    """Turn ``count`` cards from the stock (next card last) onto the waste (top last)."""
    for _ in range(count):
        waste.append(stock.pop())


def undraw_cards(stock: list[int], waste: list[int], count: int) -> None:
    """Undo :func:`draw_cards`."""
    for _ in range(count):
        stock.append(waste.pop())


def recycle_waste(stock: list[int], waste: list[int]) -> None:
    """Turn the waste over, unshuffled, into the (empty) stock."""
    stock[:] = waste[::-1]
    waste.clear()


def unrecycle_waste(stock: list[int], waste: list[int]) -> None:
    """Undo :func:`recycle_waste`."""
    waste[:] = stock[::-1]
    stock.clear()
