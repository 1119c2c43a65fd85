"""Move generation for the search: pruned, ordered internal moves, safe foundation moves, public notation."""

from __future__ import annotations

import functools
from typing import Final

from patiencelab.core.cards import Card
from patiencelab.core.kernel import RANK, SUIT_LETTERS, TWINS, talon_route
from patiencelab.core.moves import DRAW, RECYCLE, Move
from patiencelab.solver.node import F2T, OBLIGATION, T2F, T2T, W2F, W2T, IMove, Node

__all__ = [
    "LAID",
    "OBLIGATION_KEY",
    "decode",
    "follow_up",
    "generate",
    "generate_codes",
    "must_cover",
    "safe_move",
    "safe_move_after",
    "to_public",
]

# Move-ordering scores (higher is tried first). Talon moves lose a point per action needed to reach the card.
# Moves that turn up a card score alike whatever the number of face-down cards left under it (preferring the
# deepest column searched more positions on seeds 0-199, with draw 1 and with draw 3).
_TO_FOUNDATION: Final = 1000
_FLIP: Final = 500
_EXPOSE_FOR_FOUNDATION: Final = 450
_TALON_TO_TABLEAU: Final = 400
_TALON_FIRST: Final = 600  # a talon card put out, in the second move order (Node.talon_first)
_EMPTY_COLUMN: Final = 200
_PARTIAL_TO_EMPTY: Final = 150
_FROM_FOUNDATION: Final = 100
_LAID_ANYWHERE: Final = 90  # a talon card laid elsewhere than on a duty's card (Node.laid): after every other move

#: ``_ONTO_LOW[c]``, ``_ONTO_HIGH[c]``: the two cards ``c`` may lie on in a column (one rank higher, the other
#: colour), 63 (no card) for a King. Bytes, not lists: a compiled read of a byte is an int at once, where a list's
#: item is a boxed int (some 40 instructions to read: bounds, reference count, unboxing).
_ONTO_LOW: Final = bytes(63 if RANK[c] == 13 else min(TWINS[c + 1]) for c in range(52))
_ONTO_HIGH: Final = bytes(63 if RANK[c] == 13 else max(TWINS[c + 1]) for c in range(52))

#: The cards of a suit, as bits (the lowest 13: the clubs), and those but its Ace; every card; the Kings.
_SUIT: Final = (1 << 13) - 1
_ABOVE_ACES: Final = _SUIT - 1
_CARDS: Final = (1 << 52) - 1
_KINGS: Final = sum(1 << (13 * s + 12) for s in range(4))
#: ``_UNDER[c]``: the two cards that may lie on ``c`` in a column, as bits (none for an Ace).
_UNDER: Final = [0 if RANK[c] == 1 else 1 << TWINS[c - 1][0] | 1 << TWINS[c - 1][1] for c in range(52)]
#: The cards but the Aces and Kings: where a foundation's top card may come back from onto a column's card.
_MIDDLE: Final = _CARDS ^ _KINGS ^ sum(1 << 13 * s for s in range(4))

#: ``_CLASS[c]``: the lower of card ``c`` and its twin (the other card of its rank and colour), 0 to 25: what a duty
#: to cover ``c`` keeps of it (see OBLIGATION_KEY).
_CLASS: Final = bytes(min(c, (3 - c // 13) * 13 + c % 13) for c in range(52))

#: Added to :func:`must_cover`'s card, with :attr:`Node.laid` (draw 1, unlimited passes), when it was laid from the
#: talon, not brought back from its foundation: the two duties let different moves follow there (see
#: :func:`generate_codes`).
LAID: Final = 64

#: A move with its score, packed in one int by :func:`_code`: sorted as the pairs (score, move) would be, and a list
#: of small ints sorts much faster than one of tuples (CPython compares ints under 2**30 directly).
Scored = int

# The bits of a scored move (see _code): the run index (a column holds at most 52 cards), the target column (at most
# 9 columns), the source (a talon index, a column or a suit), the kind, then the score (0 to 1,100).
_B: Final = 6
_A: Final = 10
_KIND: Final = 16
_SCORE: Final = 19


def _code(score: int, kind: int, a: int, b: int, c: int) -> int:
    """The move ``(kind, a, b, c)`` with its score, as one int that orders as ``(score, kind, a, b, c)`` does."""
    return score << _SCORE | kind << _KIND | a << _A | b << _B | c


def decode(code: int) -> IMove:
    """The move of a scored move (see :func:`generate_codes`)."""
    return (code >> _KIND & 7, code >> _A & 63, code >> _B & 15, code & 63)


def generate(st: Node, onto: int = -1) -> list[IMove]:
    """The moves of :func:`generate_codes`, decoded, in its order."""
    return [decode(code) for code in generate_codes(st, onto)]


def generate_codes(st: Node, onto: int = -1) -> list[Scored]:
    """Every move worth trying here, scored (see :func:`decode`) and sorted so that the most promising comes
    *last* (for ``list.pop``); with ``onto`` (a card, see :func:`must_cover`), only the moves that put a card on
    it or bring one back from the foundations.

    Pruned (soundly): a whole column without face-down cards moved to an empty column; a part of a run moved
    onto a card that looks like the one it leaves (same rank and colour) unless that card can then go home;
    every empty column but the first as a target; a foundation card brought down when no card could go on it
    or on a card below it on its foundation, or when it is safe (it would go straight back); with
    :attr:`Node.lays_checked` (large searches with draw 1 and unlimited passes), a talon card laid on a column's card
    where no move could follow it (:func:`_lay_followed`).
    """
    up, down, n = st.up, st.down, st.n
    king_only = st.king_only
    # tops: the columns' top cards (bits), each column's in where (see _columns). With a duty (see must_cover), only
    # the moves that may follow it: onto ``onto`` (``allow``: the column it tops), and cards brought back from the
    # foundations (any card, not only of ``onto``'s suit: the key does not tell ``onto`` from its twin, so what
    # follows a duty must not depend on which of the two it names).
    where = st.where
    from_talon = onto >= LAID  # a duty of a card laid from the talon (only in a search of Node.laid)
    if from_talon:
        onto -= LAID
    tops = 0
    empty = -1
    for j in range(n):
        u = up[j]
        if u:
            t = u[-1]
            tops |= 1 << t
            where[t] = j
        elif empty < 0:
            empty = j
    free = onto < 0
    home = st.home
    # the ranks of the cards that may go home (bits, rank - 1): a run holds none of them below its top card for most
    # runs, told without reading its cards
    home_ranks = (home | home >> 13 | home >> 26 | home >> 39) & _SUIT
    # takers: the cards that could go on a top (bits): a red card of rank r on a black top of rank r + 1 and the
    # other way round; one test a card, before looking where (see _columns)
    black = ((tops | tops >> 39) & _ABOVE_ACES) >> 1
    red = ((tops >> 13 | tops >> 26) & _ABOVE_ACES) >> 1
    takers = black << 13 | black << 26 | red | red << 39
    every = (1 << n) - 1
    allow = every if free else (1 << where[onto] if tops >> onto & 1 else 0)
    to_empty = empty if free else -1
    king_waiting: bool | None = None
    scored: list[Scored] = []
    # movers: the cards that may be put on a column's card here (bits): under a duty, only those that may lie on
    # ``onto`` (the others go on no card of ``allow``)
    movers = takers if free else takers & _UNDER[onto]
    # with Node.laid, after a card brought back from its foundation a talon card may be laid on another column
    # (see must_cover)
    anywhere = st.laid and not free and not from_talon and _merge_may_follow(st, onto)
    for i in range(n if free or _column_cards(st, movers) else 0):
        u = up[i]
        if not u:
            continue
        top = u[-1]
        nd = len(down[i])
        if free and home >> top & 1:
            scored.append(_code(_TO_FOUNDATION + (50 if len(u) == 1 and nd else 0), T2F, i, 0, 0))
        bottom = u[0]
        length = len(u)
        targets = _columns(bottom, tops, where) & allow if movers >> bottom & 1 else 0
        if targets:  # the whole run
            for j in range(n):
                if not targets >> j & 1:
                    continue
                if nd:
                    scored.append(_code(_FLIP, T2T, i, j, 0))
                else:
                    if king_waiting is None:
                        king_waiting = not king_only or _king_waiting(st)
                    if king_waiting:
                        scored.append(_code(_EMPTY_COLUMN, T2T, i, j, 0))
        # a part of the run, when the card it leaves can go home (one of the ranks above the top's, to the bottom's)
        below_top = (2 << bottom % 13) - (2 << top % 13)
        for k in range(1, length if home_ranks & below_top else 1):
            below = u[k - 1]
            if home >> below & 1:
                card = u[k]
                targets = _columns(card, tops, where) & allow if movers >> card & 1 else 0
                if targets:
                    for j in range(n):
                        if targets >> j & 1:
                            scored.append(_code(_EXPOSE_FOR_FOUNDATION, T2T, i, j, k))
        if to_empty >= 0:
            if king_only:
                if bottom % 13 == 12 and nd:  # a King
                    scored.append(_code(_FLIP, T2T, i, to_empty, 0))
            else:
                if nd:
                    scored.append(_code(_FLIP + nd * 8 - 20, T2T, i, to_empty, 0))
                for k in range(1, length):
                    scored.append(_code(_PARTIAL_TO_EMPTY + (60 if RANK[u[k]] == 13 else 0), T2T, i, to_empty, k))
    talon = st.talon
    # the talon cards worth a look (bits): those that may go home, on a top, or to an empty column
    want = takers if anywhere else movers | (home if free else 0)
    if to_empty >= 0:
        want |= _KINGS if king_only else _CARDS
    if st.tcards & want:
        stays = st.open_talon
        bottoms = -1  # the columns' bottom face-up cards (bits), for _lay_followed: found at the first lay it tests
        cols = every if anywhere else allow
        out = _TALON_FIRST if st.talon_first else _TALON_TO_TABLEAU
        for place in st.reach_codes():
            idx = place >> 8
            cost = place & 255
            c = talon[idx]
            if not want >> c & 1:
                continue
            if free and home >> c & 1:
                scored.append(_code(_TO_FOUNDATION - 100 - cost, W2F, idx, 0, 0))
            targets = _columns(c, tops, where) & cols if takers >> c & 1 else 0
            into_empty = to_empty >= 0 and (not king_only or c % 13 == 12)  # a King under the King rule
            if not targets and not into_empty:
                continue
            if stays:
                if not _wanted(st, c):
                    continue  # the card stays reachable: put it out only when something can go on it
                if targets and st.lays_checked:
                    if bottoms < 0:
                        bottoms = _bottoms(st)
                    if not _lay_followed(st, c, bottoms):
                        targets = 0  # on a column's card no move could follow it: only an empty column is left
                        if not into_empty:
                            continue
            if targets:
                for j in range(n):
                    if targets >> j & 1:
                        if allow >> j & 1:
                            scored.append(_code(out - cost, W2T, idx, j, 0))
                        elif c % 13 >= onto % 13:  # elsewhere (see must_cover): tried after the moves serving the duty
                            scored.append(_code(max(_LAID_ANYWHERE - cost, 0), W2T, idx, j, 0))
            if into_empty:
                scored.append(_code(out - 50 - cost, W2T, idx, to_empty, 0))
    if st.f2t:
        # after a card laid from the talon (Node.laid), only a card that may cover it comes back (see must_cover)
        _foundation_moves(st, tops, takers, empty, scored, onto % 13 - 1 if from_talon else -1)
    if len(scored) > 1:
        scored.sort()
    return scored


def _bottoms(st: Node) -> int:
    """The columns' bottom face-up cards, as bits: each the bottom card of a run that may move whole."""
    out = 0
    for u in st.up:
        if u:
            out |= 1 << u[0]
    return out


def _lay_followed(st: Node, c: int, bottoms: int) -> bool:
    """True when some move may follow talon card ``c`` laid on a column's card (:attr:`Node.lays_checked`; draw 1,
    unlimited passes; ``bottoms``: see :func:`_bottoms`). The duty of such a lay (see :func:`must_cover`) lets through
    only a card that may lie on ``c`` put there: from a column (a run's bottom card, or a card off a card that may
    then go home), from the talon (where a card could go on it in turn, :func:`_wanted`) or back from its foundation.
    A lay after which none of them is possible leads to a position with no move, which the search need not play:
    False then. Taken as possible without a closer look (a lay is never left out that a move could follow): a
    foundation's top card of the rank below ``c``, of either colour, that may come back; a column's card whose
    card below it is not known, when either card it may lie on may go home.
    """
    rank = c % 13 - 1  # the rank (less one) of the cards that may lie on c (c is no Ace: nothing goes on one)
    found, home = st.found, st.home
    if st.f2t and rank > 0:
        for s in range(4):
            if found[s] == rank + 1 and _comes_back(st, s * 13 + rank):
                return True
    cover = _UNDER[c] & ~st.downcards  # the two cards that may lie on c, but face down
    while cover:
        low = cover & -cover
        cover ^= low
        x = low.bit_length() - 1
        if found[x // 13] > rank:
            continue  # on its foundation, under its top (a top is above)
        if st.tcards & low:
            if _wanted(st, x):
                return True
        elif bottoms & low or home >> _ONTO_LOW[x] & 1 or home >> _ONTO_HIGH[x] & 1:
            return True  # a run's bottom card, or on a card that may go home once x is off it
    return False


def _column_cards(st: Node, cards: int) -> int:
    """Of ``cards`` (bits), those face up in a column: neither face down, in the talon nor on a foundation."""
    cards &= ~(st.downcards | st.tcards)
    out = 0
    while cards:
        low = cards & -cards
        cards ^= low
        c = low.bit_length() - 1
        if st.found[c // 13] <= c % 13:
            out |= low
    return out


def _merge_may_follow(st: Node, y: int) -> bool:
    """True when a card of ``y``'s rank and the other colour is in the talon or on a foundation (``y``: a card just
    brought back from its foundation): the card under ``y`` on its foundation could come back onto it once it is laid
    (see :func:`must_cover`).
    """
    r, s = y % 13, y // 13
    talon = st.tcards >> (s ^ 1) * 13 + r | st.tcards >> (s ^ 2) * 13 + r
    return talon & 1 == 1 or st.found[s ^ 1] > r or st.found[s ^ 2] > r


def _columns(c: int, tops: int, where: list[int]) -> int:
    """The columns (bits: column ``j`` is ``1 << j``) whose top card ``c`` may go on, given the top cards ``tops``
    (bits) and ``where`` each of them lies (``Node.where``, filled by :func:`generate_codes`).
    """
    columns = 0
    t = _ONTO_LOW[c]
    if tops >> t & 1:
        columns = 1 << where[t]
    t = _ONTO_HIGH[c]
    if tops >> t & 1:
        columns |= 1 << where[t]
    return columns


def must_cover(st: Node, m: IMove) -> int:
    """The card that the move after ``m`` must cover, or -1 (call it before ``m`` is applied).

    A card put on a column's card from where it stays available is only worth putting there right before a card
    goes on it: playing it earlier only takes options away (the card it covers can no longer move alone or go
    home), and it can still be put there later (its place stays a column's top, or a twin of it takes that
    place and whatever goes on the card). Any win can be reordered that way, so the search follows such a move
    only with a move onto that card (a sound pruning). This holds for a foundation's top card brought back,
    and for a talon card with draw 1 and unlimited passes (every talon card stays reachable whatever is
    played). A card put on an empty column is not constrained (the column could be taken meanwhile).

    Two kinds of move may need such a move played first: a move onto its card, and, for a foundation's card,
    bringing back the card below it (the 7 of hearts comes back only after the 8). Reorder a win so that each
    such move comes as late as it can: right before the first move that needs it, or before another such move
    put off in the same way (the 8 of hearts brought back before a talon card that the 7 will cover). So the
    move after it must put a card on it, bring back the next card of its foundation, or be such a move itself.

    With draw 1 and unlimited passes (:attr:`Node.laid`) the duty of a talon card says so (its card plus
    :data:`LAID`), and the moves a duty lets through depend on it: after a talon card, a card brought back from a
    foundation only where it may cover it (one rank lower); after a foundation's card ``y``, also a talon card laid
    on any column, of ``y``'s rank or higher, while a card of ``y``'s rank and the other colour is in the talon or
    on a foundation. The argument, in outline: within a run of such moves, each move needs the one it lies on and,
    for a card brought back, the card above it on its foundation; order the run so that each move comes right
    after what it needs, the foundation's card first where it needs two. Then a talon card follows a move it does
    not lie on only where it begins what a card ``z`` brought back next will lie on, ``z`` coming from under the
    card ``y`` just brought back: the talon card is of ``y``'s rank or higher, and ``z`` needs a card of ``y``'s rank
    and the other colour not yet on a column. The one duty of before (a talon card after a duty only on the duty's
    card) lost wins that need two such runs (``tests/solver/test_pruning.py``: the QC laid, the JH back onto it, the
    QD and JC laid, the 10H back onto the JC). It is measured sound against the plain search
    (``tests/solver/test_soundness.py``), not proved in full.
    """
    kind = m[0]
    if kind == F2T:
        if st.up[m[2]]:
            return m[1] * 13 + st.found[m[1]] - 1
    elif kind == W2T and st.open_talon and st.up[m[2]]:
        return st.talon[m[1]] + (LAID if st.laid else 0)
    return -1


def follow_up(st: Node, m: IMove) -> IMove | None:
    """The move that must come with ``m`` (call it before ``m`` is applied), or ``None``.

    Part of a column's run moved onto the twin of the card it leaves (the two cards of one rank and colour;
    :func:`generate` makes that move only when the card left may go home) takes that card home with it. The
    move alone only swaps what lies on two twins, and positions equal up to such swaps share a key
    (:meth:`Node.key`): the search would find the position it came from and go no further, though from there
    the card left could go home. With its card home, the pair is one move to a new position; played alone,
    it would lead to a position of the same worth as the one before it.
    """
    if m[0] == T2T and m[3] and st.up[m[2]]:
        return (T2F, m[1], 0, 0)
    return None


#: ``OBLIGATION_KEY[c]``: what :func:`must_cover`'s card ``c`` adds to a node's key (positions that must go on
#: with a move onto ``c`` are searched apart from the same positions free of that constraint): the card plus one
#: in the key's obligation field, which is 0 in a plain key. Like :meth:`Node.key`, it does not tell ``c`` from
#: its twin (same rank and colour): covering the free one of the two leads to positions equal up to a twin swap
#: (see there), whichever of them the duty names. ``OBLIGATION_KEY[c + LAID]``: the duty of talon card ``c`` with
#: :attr:`Node.laid`, apart from the duty of the same card brought back from its foundation.
OBLIGATION_KEY: Final = [
    (_CLASS[i & 63] + (27 if i & LAID else 1)) << OBLIGATION if i & 63 < 52 else 0 for i in range(2 * LAID)
]


def _foundation_moves(st: Node, tops: int, takers: int, empty: int, scored: list[Scored], rank: int) -> None:
    """Foundation cards back to the tableau (``tops``, ``takers``: see :func:`generate_codes`), added to ``scored``,
    only where a card could be put on them, or on a card below them on their foundation, soon after (see
    :func:`_return_wanted`); with ``rank`` 0 or more, only a card of that rank (``card % 13``: under a duty to
    cover a talon card, see :func:`must_cover`).
    """
    # The foundations' top cards that could go on a column's top (bits): the card below each one that may go home,
    # but Aces (nothing goes on them) and Kings (a suit's King is below no card that may go home; a King on top of a
    # whole suit goes only to an empty column)
    if empty < 0 and not st.home >> 1 & _MIDDLE & takers:
        return
    found = st.found
    for s in range(4):
        count = found[s]
        if count <= 1 or (rank >= 0 and count - 1 != rank):
            continue  # nothing ever goes on an Ace; and only the cards of ``rank`` (less one) when given
        c = s * 13 + count - 1
        targets = _columns(c, tops, st.where) if takers >> c & 1 else 0
        to_empty = empty >= 0 and (count == 13 or not st.king_only)
        if not targets and not to_empty:
            continue
        if not _comes_back(st, c):
            continue
        if targets:
            for j in range(st.n):
                if targets >> j & 1:
                    scored.append(_code(_FROM_FOUNDATION, F2T, s, j, 0))
        if to_empty:
            scored.append(_code(_FROM_FOUNDATION, F2T, s, empty, 0))


def _comes_back(st: Node, c: int) -> bool:
    """True when foundation card ``c`` is worth bringing back: it is not safe (it would go straight home again)
    and a card could go on it, or on a card below it, soon after (:func:`_return_wanted`).
    """
    return not st.is_safe(c) and _return_wanted(st, c)


def _wanted(st: Node, c: int) -> bool:
    """True when a card that could go on ``c`` is at hand: not face down, and off the foundations unless cards
    may come back from there (then at any depth: the cards above it come back first).

    What may come between ``c``'s being put out and a card's going on it (the moves :func:`must_cover` lets
    through) turns no card up, so a card face down now cannot be the one.
    """
    if c % 13 == 0:
        return False  # an Ace
    if st.f2t:
        return not _both_down(st, c // 13) >> (c % 13 - 1) & 1  # the two cards one rank below, not both face down
    down, found = st.downcards, st.found
    x, y = TWINS[c - 1]
    return (not down >> x & 1 and found[x // 13] < RANK[x]) or (not down >> y & 1 and found[y // 13] < RANK[y])


def _both_down(st: Node, s: int) -> int:
    """The ranks (bits, rank - 1) at which both cards of the other colour than suit ``s`` (suits ``s ^ 1`` and
    ``s ^ 2``) are face down: the cards that could lie on a card of suit ``s`` one rank higher.
    """
    down = st.downcards
    return down >> 13 * (s ^ 1) & down >> 13 * (s ^ 2) & _SUIT


def _return_wanted(st: Node, c: int) -> bool:
    """True when bringing foundation card ``c`` back can serve: a card could go on it, or on a card below it
    on its foundation (``c`` must come back before that one can, see :func:`must_cover`).
    """
    # Only asked with returns allowed (st.f2t): then a card below is wanted when the two that could go on it (one
    # rank lower, the other colour) are not both face down. Over the ranks below c's at once, as bits: what
    # any(_wanted(st, d) for d in range(c, c - RANK[c] + 1, -1)) says, both face down at every rank from the Ace
    # to c's rank less one, or not.
    ranks = (1 << c % 13) - 1
    return _both_down(st, c // 13) & ranks != ranks


def _king_waiting(st: Node) -> bool:
    """True when some King could still use an empty column (face down, in the talon, over face-down cards,
    or on a foundation's top with returns allowed).
    """
    found, down = st.found, st.downcards
    for s in range(4):
        king = s * 13 + 12
        if down >> king & 1:
            return True
        if found[s] == 13:
            if st.f2t:
                return True
            continue
        if st.tcards >> king & 1:
            return True
        for i in range(st.n):
            u = st.up[i]
            if u and u[0] == king and st.down[i]:
                return True
    return False


def safe_move(st: Node) -> IMove | None:
    """A move to a foundation that can never hurt, or ``None``.

    Column tops always; talon cards only with draw 1 (removing a card then changes no other card's reach):
    any talon card with unlimited passes, the waste's top card otherwise.
    """
    home = st.home
    up = st.up
    for i in range(st.n):
        u = up[i]
        if u:
            c = u[-1]
            if home >> c & 1 and st.is_safe(c):
                return (T2F, i, 0, 0)
    if st.draw == 1 and st.tcards & home:  # a talon card may go home: only then are the talon's cards read
        talon = st.talon
        if st.max_rec is None:
            cards = st.tcards & home  # those of them that are safe, by their bits (a few), then the first in the talon
            safe = 0
            while cards:
                low = cards & -cards
                cards ^= low
                if st.is_safe(low.bit_length() - 1):
                    safe |= low
            if safe:
                for idx in range(len(talon)):
                    if safe >> talon[idx] & 1:
                        return (W2F, idx, 0, 0)
        elif st.p:
            c = talon[st.p - 1]
            if home >> c & 1 and st.is_safe(c):
                return (W2F, st.p - 1, 0, 0)
    return None


def safe_move_after(st: Node, m: IMove) -> IMove | None:
    """:func:`safe_move` right after ``m`` was played from a position with none: only a card ``m`` put out or left
    on top can have become safe, unless ``m`` changed a foundation (then any card may have).
    """
    kind = m[0]
    if kind in (T2F, W2F) or (kind == W2T and st.draw == 1 and not st.open_talon):
        return safe_move(st)
    if kind == T2T:
        u = st.up[m[1]]
        if u:
            c = u[-1]
            if st.goes_home_safely(c):
                return (T2F, m[1], 0, 0)
    elif kind == W2T and st.draw > 1:
        # (With draw 1 and unlimited passes the card put out was reachable in the talon and not safe there, as none
        # was, and no other card's reach changed.)
        c = st.up[m[2]][-1]
        if st.goes_home_safely(c):
            return (T2F, m[2], 0, 0)
    return None  # F2T: the card brought back is not safe, and no other card is nearer home


def finishing_move(st: Node) -> IMove | None:
    """A move to a foundation in a trivially won position (columns first, then any reachable talon card)."""
    found = st.found
    for i in range(st.n):
        u = st.up[i]
        if u and found[u[-1] // 13] == RANK[u[-1]] - 1:
            return (T2F, i, 0, 0)
    talon = st.talon
    for idx, _ in st.reachable():
        c = talon[idx]
        if found[c // 13] == RANK[c] - 1:
            return (W2F, idx, 0, 0)
    return None


def _col(i: int) -> str:
    return f"t{i + 1}"


@functools.cache
def _public(kind: int, a: int, b: int, card: int) -> Move:
    """The public move of a column's top card home (``a``: the column), a run from column ``a`` to ``b`` (naming
    ``card``, its first card, unless it is -1), a foundation's card of suit ``a`` back to column ``b``, the waste's
    card home or to column ``b``. Made once a process (a move is immutable and checks its places as it is made, some
    15,000 instructions, more than a winning line's search in small solves).
    """
    if kind == T2F:
        return Move(_col(a), "f")
    if kind == T2T:
        return Move(_col(a), _col(b), Card.from_index(card)) if card >= 0 else Move(_col(a), _col(b))
    if kind == F2T:
        return Move("f" + SUIT_LETTERS[a], _col(b))
    return Move("w", "f" if kind == W2F else _col(b))


def to_public(st: Node, m: IMove) -> list[Move]:
    """The public moves (draws and recycles included) that play ``m`` from ``st`` (before it is applied)."""
    kind = m[0]
    if kind == T2F:
        return [_public(T2F, m[1], 0, -1)]
    if kind == T2T:
        i, j, k = m[1], m[2], m[3]
        if k and not st.up[j]:
            # The place form cannot say which part of the run moves: name its card too, as the game's legal
            # moves do.
            return [_public(T2T, i, j, st.up[i][k])]
        return [_public(T2T, i, j, -1)]
    if kind == F2T:
        return [_public(F2T, m[1], m[2], -1)]
    idx = m[1]
    before, after = talon_route(len(st.talon), st.p, st.draw, idx)
    out = [DRAW] * before
    if after >= 0:
        out += [RECYCLE, *[DRAW] * after]
    out.append(_public(kind, 0, 0 if kind == W2F else m[2], -1))
    return out
