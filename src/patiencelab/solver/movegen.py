"""Move generation for the search: pruned, ordered internal moves, safe foundation moves, public notation."""

from __future__ import annotations

from collections.abc import Callable

from patiencelab.core.cards import Card
from patiencelab.core.moves import DRAW, RECYCLE, Move
from patiencelab.solver.state import F2T, OPP, RANK, RED, SUIT_LETTER, T2F, T2T, W2F, W2T, IMove, State

__all__ = ["generate", "safe_move", "to_public"]

# Move-ordering scores (higher is tried first). Talon moves lose a point per action needed to reach the card.
_TO_FOUNDATION = 1000
_FLIP = 500
_EXPOSE_FOR_FOUNDATION = 450
_TALON_TO_TABLEAU = 400
_EMPTY_COLUMN = 200
_PARTIAL_TO_EMPTY = 150
_FROM_FOUNDATION = 100


def generate(st: State) -> list[IMove]:
    """Every move worth trying here, ordered so that the most promising comes *last* (for ``list.pop``).

    Pruned (soundly): a whole column without face-down cards moved to an empty column; a part of a run moved
    onto a card that looks like the one it leaves (same rank and colour) unless that card can then go home;
    every empty column but the first as a target; a foundation card brought down when no card could go on it
    next, or when it is safe (it would go straight back).
    """
    up, down, found, n = st.up, st.down, st.found, st.n
    king_only = st.king_only
    tops = [u[-1] if u else -1 for u in up]
    empty = -1
    for j in range(n):
        if not up[j]:
            empty = j
            break
    scored: list[tuple[int, IMove]] = []
    add = scored.append
    for i in range(n):
        u = up[i]
        if not u:
            continue
        top = u[-1]
        nd = len(down[i])
        if found[top // 13] == RANK[top] - 1:
            add((_TO_FOUNDATION + (50 if len(u) == 1 and nd else 0), (T2F, i, 0, 0)))
        r0 = RANK[u[0]]
        length = len(u)
        for j in range(n):
            t = tops[j]
            if t < 0 or j == i:
                continue
            k = r0 - RANK[t] + 1
            if 0 <= k < length and RED[u[k]] != RED[t]:
                if k == 0:
                    if nd:
                        add((_FLIP + nd * 8, (T2T, i, j, 0)))
                    elif not king_only or _king_waiting(st):
                        add((_EMPTY_COLUMN, (T2T, i, j, 0)))
                else:
                    below = u[k - 1]
                    if found[below // 13] == RANK[below] - 1:
                        add((_EXPOSE_FOR_FOUNDATION, (T2T, i, j, k)))
        if empty >= 0:
            if king_only:
                if r0 == 13 and nd:
                    add((_FLIP + nd * 8, (T2T, i, empty, 0)))
            else:
                if nd:
                    add((_FLIP + nd * 8 - 20, (T2T, i, empty, 0)))
                for k in range(1, length):
                    add((_PARTIAL_TO_EMPTY + (60 if RANK[u[k]] == 13 else 0), (T2T, i, empty, k)))
    talon = st.talon
    if talon:
        free = st.draw == 1 and st.max_rec is None
        for idx, cost in st.reachable():
            c = talon[idx]
            rank = RANK[c]
            if found[c // 13] == rank - 1:
                add((_TO_FOUNDATION - 100 - cost, (W2F, idx, 0, 0)))
            if free and not _wanted(st, c):
                continue  # the card stays reachable: put it out only when something can go on it
            red = RED[c]
            for j in range(n):
                t = tops[j]
                if t >= 0 and RANK[t] == rank + 1 and RED[t] != red:
                    add((_TALON_TO_TABLEAU - cost, (W2T, idx, j, 0)))
            if empty >= 0 and (rank == 13 or not king_only):
                add((_TALON_TO_TABLEAU - 50 - cost, (W2T, idx, empty, 0)))
    if st.f2t:
        _foundation_moves(st, tops, empty, add)
    scored.sort()
    return [m for _, m in scored]


def _foundation_moves(st: State, tops: list[int], empty: int, add: Callable[[tuple[int, IMove]], None]) -> None:
    """Foundation cards back to the tableau, only where a card could be put on them right after."""
    found = st.found
    for s in range(4):
        count = found[s]
        if count <= 1:
            continue  # nothing ever goes on an Ace
        c = s * 13 + count - 1
        if st.is_safe(c):
            continue
        if not _wanted(st, c):
            continue
        red = RED[c]
        for j in range(st.n):
            t = tops[j]
            if t >= 0 and RANK[t] == count + 1 and RED[t] != red:
                add((_FROM_FOUNDATION, (F2T, s, j, 0)))
        if empty >= 0 and (count == 13 or not st.king_only):
            add((_FROM_FOUNDATION, (F2T, s, empty, 0)))


def _wanted(st: State, c: int) -> bool:
    """True when a card that could go on ``c`` is at hand: face up, in the talon, or a foundation's top."""
    if RANK[c] == 1:
        return False
    found, downflag = st.found, st.downflag
    x, y = OPP[c - 1]
    return (not downflag[x] and found[x // 13] <= RANK[x]) or (not downflag[y] and found[y // 13] <= RANK[y])


def _king_waiting(st: State) -> bool:
    """True when some King could still use an empty column (face down, in the talon, over face-down cards,
    or on a foundation's top with returns allowed).
    """
    found, downflag = st.found, st.downflag
    for s in range(4):
        king = s * 13 + 12
        if downflag[king]:
            return True
        if found[s] == 13:
            if st.f2t:
                return True
            continue
        if king in st.talon:
            return True
        for i in range(st.n):
            u = st.up[i]
            if u and u[0] == king and st.down[i]:
                return True
    return False


def safe_move(st: State) -> IMove | None:
    """A move to a foundation that can never hurt, or ``None``.

    Column tops always; talon cards only with draw 1 (removing a card then changes no other card's reach):
    any talon card with unlimited passes, the waste's top card otherwise.
    """
    found = st.found
    up = st.up
    for i in range(st.n):
        u = up[i]
        if u:
            c = u[-1]
            if found[c // 13] == RANK[c] - 1 and st.is_safe(c):
                return (T2F, i, 0, 0)
    if st.draw == 1 and st.talon:
        talon = st.talon
        if st.max_rec is None:
            for idx in range(len(talon)):
                c = talon[idx]
                if found[c // 13] == RANK[c] - 1 and st.is_safe(c):
                    return (W2F, idx, 0, 0)
        elif st.p:
            c = talon[st.p - 1]
            if found[c // 13] == RANK[c] - 1 and st.is_safe(c):
                return (W2F, st.p - 1, 0, 0)
    return None


def finishing_move(st: State) -> IMove | None:
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


def to_public(st: State, m: IMove) -> list[Move]:
    """The public moves (draws and recycles included) that play ``m`` from ``st`` (before it is applied)."""
    kind = m[0]
    if kind == T2F:
        return [Move(_col(m[1]), "f")]
    if kind == T2T:
        i, j, k = m[1], m[2], m[3]
        if k and not st.up[j]:
            return [Move(None, _col(j), Card.from_index(st.up[i][k]))]  # place form cannot say which run
        return [Move(_col(i), _col(j))]
    if kind == F2T:
        return [Move("f" + SUIT_LETTER[m[1]], _col(m[2]))]
    idx = m[1]
    out: list[Move] = []
    talon_len, d, p = len(st.talon), st.draw, st.p
    if idx != p - 1:
        q = p
        while q < talon_len and q - 1 != idx:
            q = min(q + d, talon_len)
            out.append(DRAW)
        if q - 1 != idx:  # not reachable in this pass: turn the waste over
            out.append(RECYCLE)
            q = 0
            while q - 1 != idx:
                q = min(q + d, talon_len)
                out.append(DRAW)
    out.append(Move("w", "f" if kind == W2F else _col(m[2])))
    return out
