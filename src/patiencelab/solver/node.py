"""The solver's compact position: small int lists changed in place, move generation, apply and undo.

Cards are ints ``suit * 13 + rank - 1`` (the model's own numbering). The stock and the waste form one list, the
*talon*, in cycle order (waste bottom first, then the stock in draw order); ``p`` cards of it are in the waste.
A talon move ("draw until card ``i`` is on top, recycling if needed, then play it") is one move of the search.
"""

from __future__ import annotations

import functools
from typing import Final, Protocol

from patiencelab.core.errors import PatienceError
from patiencelab.core.kernel import (
    lift_top,
    move_run,
    talon_needs_recycle,
    talon_reach,
    unlift_top,
    unmove_run,
)
from patiencelab.core.position import Position
from patiencelab.core.rules import Rules

__all__ = [
    "F2T",
    "OBLIGATION",
    "T2F",
    "T2T",
    "TALON_FIELD",
    "W2F",
    "W2T",
    "WASTE_FIELD",
    "IMove",
    "Node",
    "Positioned",
    "position_and_rules",
]

# Move kinds. An internal move is a tuple (kind, a, b, c):
T2F: Final = 0  #: (T2F, column, 0, 0): a column's top card to its foundation
T2T: Final = 1  #: (T2T, source column, target column, index in the source's face-up run)
W2F: Final = 2  #: (W2F, talon index, 0, 0): a talon card to its foundation
W2T: Final = 3  #: (W2T, talon index, target column, 0)
F2T: Final = 4  #: (F2T, suit, target column, 0): a foundation's top card back to a column

#: An internal move: a tuple (kind, a, b, c), its kind one of the move kinds above.
IMove = tuple[int, int, int, int]


class Positioned(Protocol):
    """Anything with a current position and rules (a game): the solver reads these two and nothing else."""

    @property
    def rules(self) -> Rules:
        """The rules in play."""
        ...

    def snapshot(self) -> Position:
        """The current position."""
        ...


def position_and_rules(source: Position | Positioned, rules: Rules | None = None) -> tuple[Position, Rules]:
    """A :class:`Position` with ``rules`` (the standard rules by default), or a game's current position with its
    own rules.
    """
    if isinstance(source, Position):
        return source, rules if rules is not None else Rules()
    if rules is not None:
        raise PatienceError("give rules with a position, not with a game (it has its own)")
    return source.snapshot(), source.rules


_SEP: Final = 200

# The fields of an int key (see Node.key), low bits first: the foundations (4 bits a suit), the talon (the waste's
# size and the passes made where they matter, which cards are left: one bit a card of the talon the node started
# with), a card to cover (see movegen.OBLIGATION_KEY), the bottom cards of the columns with no face-down cards, and
# each other column's face-down count (6 bits a column), and last a mix of the columns' part (see _MIX), which
# tells no two positions apart that the rest does not but spreads the keys' hashes, as does the talon's fold into
# the foundations' field (see _FOLD). Of a standard deal's talon (24 cards) and foundations, the key's part is
# under 2**62, an int mypyc keeps unboxed: only the columns' part (with its mix) is a big int.
#: The lowest bit of a node's key that holds the waste's size where it matters (6 bits; see Node.stronger_keys).
WASTE_FIELD: Final = 16
_PASSES: Final = WASTE_FIELD + 6
#: The lowest bit of a node's key that holds which talon cards are left (52 bits, one a card of the talon).
TALON_FIELD: Final = _PASSES + 8
_MASK52: Final = (1 << 52) - 1
#: The foundations' field, into which a key folds (xors) the first 16 bits of its talon field: the hash's low bits,
#: which pick a key's first slot in the table of positions seen, then tell apart positions that differ in their
#: talon only. A bijection of the key's part below the columns (the talon field is left as it is), so two keys are
#: equal exactly when they were before; no code reads the foundations' counts from a key.
_FOLD: Final = (1 << 16) - 1
#: The lowest bit of a node's key that holds the card to cover (6 bits; see movegen.OBLIGATION_KEY).
OBLIGATION: Final = TALON_FIELD + 52
_BOTTOMS: Final = OBLIGATION + 6
_COLUMNS: Final = _BOTTOMS + 52


def _mix_values(count: int) -> list[int]:
    """``count`` fixed pseudo-random 20-bit ints (the high bits of a xorshift64 sequence), the same in every
    process. Shifts and xors only: no product of big ints in compiled code (see Node._shape_key).
    """
    out: list[int] = []
    x = 0x9E3779B97F4A7C15
    for _ in range(count):
        x ^= (x << 13) & 0xFFFFFFFFFFFFFFFF
        x ^= x >> 7
        x ^= (x << 17) & 0xFFFFFFFFFFFFFFFF
        out.append(x >> 44)
    return out


#: The pseudo-random parts of the key's mix field, its last: one for a face-down card of each column (at most 9),
#: then one for each card as a column's bottom card; the field holds their sum over the columns' part of the key
#: (a count of face-down cards times its column's), kept by the same additions as that part. A function of the
#: fields below it, so it tells no two positions apart that they do not, and those fields' values stay below the
#: field's lowest bit: two keys are equal exactly when their positions are. It is there for the hash: Python hashes
#: an int as its value modulo 2**61 - 1, and the field, at a multiple of 61 bits, lands whole in the hash's low bits,
#: which pick a key's first slot in the table of positions seen; without it they come from the foundations and a
#: column's count, and keys crowd a few slots. 20 bits a value: a table of a few million
#: keys picks a slot by the hash's low 22 bits or so, and the field of a standard deal (at most 49 of them added, under
#: 2**26) then ends below bit 210, so a key stays an int of seven 30-bit digits (56 bytes), as it was without it.
_MIX: Final[list[int]] = _mix_values(9 + 52)


@functools.cache
def _key_parts(n: int) -> tuple[list[int], list[int]]:
    """``(bottom, colunit)`` of the nodes of ``n`` columns (see Node.__init__), built once a process: they depend on
    nothing else, and no node changes them.
    """
    mix_bit = 61 * ((_COLUMNS + 6 * n) // 61 + 1)  # the key's mix field (see _MIX): the first multiple of 61 above
    bottom = [(1 << (_BOTTOMS + c)) + (_MIX[9 + c] << mix_bit) for c in range(52)]
    colunit = [(1 << (_COLUMNS + 6 * i)) + (_MIX[i] << mix_bit) for i in range(n)]
    return bottom, colunit


@functools.cache
def _reach_table(draw: int) -> list[list[int] | None]:
    """The ``packed`` table of the nodes of ``draw``, shared by them all (see Node.reach_codes): what it holds depends
    on the draw and its index alone, so every search of a process fills one table and builds each entry once.
    """
    return [None] * (1 << 13)


class Node:
    """A search node: a position for the search, changed in place by :meth:`apply` and restored by :meth:`undo`."""

    __slots__ = (
        "bottom",
        "colkeys",
        "colshape",
        "colsum",
        "colunit",
        "down",
        "downcards",
        "draw",
        "eager",
        "f2t",
        "fkey",
        "found",
        "home",
        "king_only",
        "known_key",
        "kwaste",
        "laid",
        "lays_checked",
        "max_rec",
        "n",
        "ndown",
        "open_talon",
        "p",
        "packed",
        "packed_sig",
        "reach",
        "reach_packed",
        "reach_sig",
        "recycles",
        "talon",
        "talon_first",
        "talon_key",
        "talon_waste",
        "tcards",
        "tidx",
        "tmask",
        "up",
        "wastes",
        "where",
    )

    def __init__(
        self,
        down: list[list[int]],
        up: list[list[int]],
        waste: list[int],
        stock: list[int],
        found: list[int],
        recycles: int,
        rules: Rules,
    ) -> None:
        self.n = len(up)
        self.down = down
        self.up = up
        self.talon = waste + stock
        self.tidx = list(range(len(self.talon)))
        self.tmask = (1 << len(self.talon)) - 1
        self.tcards = sum(1 << c for c in self.talon)  # the talon's cards, as bits (bit c: card c)
        self.p = len(waste)
        self.found = found
        #: The cards that may go on their foundation now, as bits (bit c: card c): one test a card instead of two
        #: list reads and a division; kept by apply and undo (see _homed).
        self.home = sum(1 << (13 * s + f) for s, f in enumerate(found) if f < 13)
        self.fkey = self._found_key()  # the foundations' part of the key, kept by apply and undo
        self.recycles = recycles
        self.draw = rules.draw
        self.max_rec = None if rules.max_passes is None else rules.max_passes - 1
        self.f2t = rules.foundation_to_tableau
        self.king_only = rules.empty_column == "king"
        #: Every talon card is reachable whatever is played (draw 1, unlimited passes): the waste does not matter.
        self.open_talon = self.draw == 1 and self.max_rec is None
        #: Some wastes are stronger than others (draw 2 or more, unlimited passes; see stronger_keys): the waste's size
        #: is a field of the key of its own (see _waste_field).
        self.wastes = self.draw > 1 and self.max_rec is None
        self.talon_first = False  # the move order (see solver.portfolio): talon cards before turning cards up
        #: Duties of cards laid from the talon kept apart from those of cards brought back from a foundation, with the
        #: moves each lets follow (see movegen.must_cover): the rule with draw 1 and unlimited passes, the only rules
        #: where talon cards have duties. Off, the one duty of before, which lost some wins (a benchmark's "before").
        self.laid = self.open_talon
        #: A talon card is laid on a column's card only where a move may follow it (movegen._lay_followed): set by the
        #: search once it has searched :data:`~patiencelab.solver.search.LAYS_CHECKED_AFTER` positions, with
        #: :attr:`open_talon` (the only rules where talon cards have duties).
        self.lays_checked = False
        #: Every card that may go home goes at once (a restricted game, see solver.portfolio.eager_start).
        self.eager = False
        #: The face-down cards, as bits (bit c: card c): under 2**62, an int mypyc keeps unboxed, where a list of
        #: flags cost a boxed read a card; kept by apply and undo.
        self.downcards = sum(1 << c for col in down for c in col)
        self.ndown = sum(len(col) for col in down)
        parts = _key_parts(self.n)
        #: ``bottom[c]``: card ``c`` as a column's bottom card in the key, with its mix (built once: a shift makes a new
        #: big int). Shared by the nodes of as many columns: read only.
        self.bottom = parts[0]
        #: One face-down card of each column, with its mix (shared alike).
        self.colunit = parts[1]
        #: ``colkeys[i][k]``: ``k`` face-down cards in column ``i`` (sums, not products: see _shape_key).
        self.colkeys: list[list[int]] = []
        for i in range(self.n):
            row = [0]
            for _ in range(max(len(down[i]), 1)):
                row.append(row[-1] + self.colunit[i])
            self.colkeys.append(row)
        self.colshape = [self._column_shape(i) for i in range(self.n)]
        self.colsum = sum(self._shape_key(shape, i) for i, shape in enumerate(self.colshape))  # the columns' part
        self.talon_key = 0
        #: The waste field of the key (see stronger_keys), kept out of :attr:`talon_key` and of :meth:`base`: where
        #: some wastes are stronger than others, a search keeps it apart from the rest of the key.
        self.talon_waste = 0
        self._update_talon_key()
        #: The position's :meth:`base` once asked, -1 until then: apply and undo clear it.
        self.known_key = -1
        #: The waste field of the key :meth:`base` or :meth:`base_after` returned last (0 but where some wastes are
        #: stronger than others): the key is that base plus ``kwaste << WASTE_FIELD``.
        self.kwaste = 0
        self.reach_sig = -1  # what reach was computed for (see reachable)
        self.reach: tuple[tuple[int, int], ...] = ()
        self.reach_packed: list[int] = []
        self.packed_sig = -1  # what reach_packed was computed for
        #: reach_codes by what they were computed for (the sig of reach_codes, under 2**13): a list, read by index,
        #: not a dict, whose lookup (a hash, a probe, a boxed key) cost some 280 instructions a talon move. One list
        #: for the nodes of a draw (see _reach_table), not 8,192 slots filled for each node a solve starts.
        self.packed: list[list[int] | None] = _reach_table(self.draw)
        #: ``where[t]``: the column whose top card is ``t``, for the top cards of the position movegen.generate_codes
        #: was last called on (kept here, not built there: the other cards' entries are left as they were).
        self.where = [0] * 52

    @classmethod
    def from_position(cls, pos: Position, rules: Rules) -> Node:
        """``pos`` under ``rules``."""
        return cls(
            [[c.index for c in col.down] for col in pos.tableau],
            [[c.index for c in col.up] for col in pos.tableau],
            [c.index for c in pos.waste],
            [c.index for c in pos.stock],
            [pos.foundations.get(s, 0) for s in sorted(pos.foundations, key=lambda s: s.index)],
            pos.recycles,
            rules,
        )

    def copy(self, rules: Rules) -> Node:
        """A new node of this node's position under ``rules`` (the start of another search: nothing the two change
        is shared), without reading a :class:`Position` again.
        """
        talon = self.talon
        return Node(
            [list(col) for col in self.down],
            [list(col) for col in self.up],
            talon[: self.p],
            talon[self.p :],
            list(self.found),
            self.recycles,
            rules,
        )

    @classmethod
    def of(cls, source: Position | Positioned, rules: Rules | None = None) -> Node:
        """The node of a :class:`Position` under ``rules`` (the standard rules by default), or of anything with
        a ``snapshot()`` and ``rules`` (a game) under its own rules.
        """
        pos, rules = position_and_rules(source, rules)
        return cls.from_position(pos, rules)  # not *position_and_rules(...): mypyc passed the tuple as one argument

    # ------------------------------------------------------------------------------------------------ keys

    def _set_column_key(self, i: int) -> None:
        """Bring column ``i``'s part of the key up to date. Most moves change neither its face-down count nor
        its bottom card: a small int that names both (:meth:`_column_shape`) tells, and the key's big-int sum is
        only touched when it changed.
        """
        shape = self._column_shape(i)
        old = self.colshape[i]
        if shape == old:
            return
        self.colshape[i] = shape
        # Each big-int operation makes a new int (an allocation, some hundreds of instructions): a card turned up
        # or back down is one addition of a prebuilt int; only a column's bottom card taking or leaving its place
        # costs two.
        if old > 0 and shape > 0 and abs(shape - old) == 1:
            if shape < old:
                self.colsum -= self.colunit[i]
            else:
                self.colsum += self.colunit[i]
            return
        if old:
            self.colsum -= self._shape_key(old, i)
        if shape:
            self.colsum += self._shape_key(shape, i)

    def _shape_key(self, shape: int, i: int) -> int:
        """Column ``i``'s part of :meth:`key` when its :meth:`_column_shape` is ``shape``, up to what lies on its
        bottom face-up card: its face-down count (which, in one search, also fixes the bottom card: the one turned
        up last) or, with none face down, its bottom card; 0 for an empty column. A prebuilt int but for two
        face-down cards or more.
        """
        if shape < 0:
            return self.bottom[-1 - shape]
        # a prebuilt sum, not shape * colunit[i]: CPython checks for Ctrl-C inside a multiplication of big ints, and
        # the compiled code takes the NULL it then returns for "out of memory" and aborts (tests/test_cli.py)
        return self.colkeys[i][shape]

    def _column_shape(self, i: int) -> int:
        """What column ``i``'s part of the key depends on, as a small int: its face-down count, or with none, its
        bottom card (negative), 0 when empty.
        """
        nd = len(self.down[i])
        if nd:
            return nd
        u = self.up[i]
        return -1 - u[0] if u else 0

    def _update_talon_key(self) -> None:
        size = len(self.talon)
        self.talon_key = self._talon_key(self.tmask, self.p, size, self.recycles)
        self.talon_waste = self._waste_field(self.p, size)

    def _waste_field(self, p: int, size: int) -> int:
        """The waste field of the key (see :meth:`stronger_keys`) with ``p`` of the talon's ``size`` cards in the
        waste: with unlimited passes and draw 2 or more, ``p`` unless the waste reaches no more than a fresh stock
        (see :meth:`_talon_key`), 0 under other rules (where the waste is in :attr:`talon_key`, if it matters).
        """
        if not self.wastes:
            return 0
        return p if p < size and p % self.draw else 0

    def _talon_key(self, tmask: int, p: int, size: int, recycles: int) -> int:
        """The talon's part of :meth:`key`: which cards are left (``tmask``), and what of the waste (``p`` of the
        ``size`` cards) and the passes matters under the rules.
        """
        mask = tmask << TALON_FIELD
        if self.max_rec is None:
            # With draw 1 (open_talon) every talon card is reachable whatever the waste holds. With a larger draw
            # (wastes), two wastes from which the same talon places can be reached win alike: a
            # talon move leads to the position the place and the cards left give, whatever the waste was. A
            # fresh stock (p == 0) reaches every draw-th place and the last; so does an empty stock (p == size),
            # and a waste of a multiple of draw cards: its top and the places a draw or more above it are among
            # those, and the recycle brings the rest. Any other waste also reaches its top, which is none of
            # those, and that tells every two such wastes apart. That field (see _waste_field) is kept apart.
            return mask
        # With a pass limit, the recycles left, counted up to the talon's size: each talon move (the only moves
        # that recycle) takes one card and at most one recycle, so from a talon of ``size`` cards with ``size``
        # recycles left or more, a recycle is allowed at every move, as with no limit. The count fits its field
        # (a talon holds at most 52 cards), so no two counts that matter share a key.
        return mask | p << WASTE_FIELD | min(max(self.max_rec - recycles, 0), size) << _PASSES

    def key(self) -> int:
        """A canonical key of the position up to *twin swaps*, an int: the foundations, each column's face-down
        count (or bottom card, column order left out: a set of bottom cards), and the talon (and a mix of the
        columns' part for the hash's sake, see ``_MIX``).

        The face-up cards above the columns' bottom cards are left out: they are the cards in none of the other
        places, and each lies on one of the two cards of the next rank and other colour, so their layout is
        fixed up to swapping what lies on two *twins* (the two cards of one rank and colour) in the columns.
        Such positions win alike: a move that names cards is played alike in both (onto a twin: onto the one
        that is free), and where one needs a twin itself free (to go home), the other first moves what lies on
        that twin onto the free one, the move :func:`~patiencelab.solver.movegen.generate` makes for that.
        """
        key = self.base()
        return key + (self.kwaste << WASTE_FIELD) if self.kwaste else key

    def base(self) -> int:
        """:meth:`key` without its waste field where some wastes are stronger than others (the field then in
        :attr:`kwaste`; elsewhere the key itself, :attr:`kwaste` 0).
        """
        self.kwaste = self.talon_waste
        key = self.known_key
        if key < 0:
            key = self._key_with(self.talon_key + self.fkey)
            self.known_key = key
        return key

    def _key_with(self, low: int) -> int:
        """The key of the node's columns with ``low`` as the talon's and foundations' part (the talon folded into
        the foundations' field, see ``_FOLD``): one big-int addition.
        """
        return self.colsum + (low ^ (low >> TALON_FIELD & _FOLD))

    def _found_key(self) -> int:
        f = self.found
        return f[0] | f[1] << 4 | f[2] << 8 | f[3] << 12

    def key_after(self, m: IMove) -> int | None:
        """The :meth:`key` of the position ``m`` leads to (see :meth:`base_after`)."""
        key = self.base_after(m)
        return key + (self.kwaste << WASTE_FIELD) if key is not None and self.kwaste else key

    def base_after(self, m: IMove) -> int | None:
        """The :meth:`base` of the position ``m`` leads to (its waste field in :attr:`kwaste`), or ``None`` when
        ``m`` may set off a safe move or a follow-up (see :func:`~patiencelab.solver.movegen.follow_up`) or moves a
        card to a foundation: the search looks a move's key up before playing it, so that a move to a position it
        has seen costs no apply and undo.

        Only the card a move leaves on top (or turns up), the card it puts out and a foundation's top change, so
        only those can set off a safe move (the search plays them all before it generates moves).
        """
        kind = m[0]
        if kind == T2T:
            # Each big-int operation makes a new int: the key's parts are added to it and taken from it one by one
            # (no sum of parts made first, no negated part).
            i, j, k = m[1], m[2], m[3]
            u = self.up[i]
            if k:
                if self.up[j]:
                    return None  # a follow-up comes with it
                c = u[k - 1]
                if self.goes_home_safely(c):
                    return None
                key = self.base()
            else:
                d = self.down[i]
                if d:
                    c = d[-1]
                    if self.goes_home_safely(c):
                        return None
                    key = self.base() - self.colunit[i]
                    if len(d) == 1:
                        key += self.bottom[c]
                else:
                    key = self.base() - self.bottom[u[0]]  # its part of the key: no card face down, its bottom card
            return key if self.up[j] else key + self.bottom[u[k]]
        if kind == W2T:
            idx, j = m[1], m[2]
            talon = self.talon
            c = talon[idx]
            if self.goes_home_safely(c):
                return None
            if self.draw == 1 and self.max_rec is not None and idx:
                w = talon[idx - 1]  # the waste's new top
                if self.goes_home_safely(w):
                    return None
            size = len(talon)
            recycles = self.recycles  # the key counts the recycles only under a pass limit
            if self.max_rec is not None:
                recycles += talon_needs_recycle(size, self.p, self.draw, idx)
            talon_key = self._talon_key(self.tmask ^ (1 << self.tidx[idx]), idx, size - 1, recycles)
            self.kwaste = self._waste_field(idx, size - 1)
            key = self._key_with(talon_key + self.fkey)
            return key if self.up[j] else key + self.bottom[c]
        if kind == F2T:
            # The card brought back is not safe (else it would not be brought back), and nothing else can go home
            # now that could not before.
            s, j = m[1], m[2]
            self.kwaste = self.talon_waste
            key = self._key_with(self.talon_key + self.fkey - (1 << (4 * s)))
            return key if self.up[j] else key + self.bottom[s * 13 + self.found[s] - 1]
        return None

    def stronger_keys(self, key: int) -> list[int]:
        """The keys of the positions that differ from the one of ``key`` only in the waste and win whenever it
        wins (with unlimited passes and draw 2 or more; none otherwise): those from which more talon places can
        be reached. A fresh stock reaches the fewest (every draw-th place and the last, see :meth:`_talon_key`);
        a waste of ``p`` cards reaches those and its top and every draw-th place above it, so a smaller waste
        of the same size modulo ``draw`` reaches more. A talon move leads to the same position from either.
        """
        if not self.wastes:
            return []
        p = key >> WASTE_FIELD & 63
        base = key & ~(63 << WASTE_FIELD)
        if p:
            return [base | q << WASTE_FIELD for q in range(p % self.draw, p, self.draw)]
        size = (key >> TALON_FIELD & _MASK52).bit_count()
        return [base | q << WASTE_FIELD for q in range(1, size) if q % self.draw]

    def exact_key(self) -> int:
        """A key that tells apart every two positions (columns in any order); for tests of :meth:`key`."""
        cols = sorted(bytes((_SEP, len(d), *d, _SEP, *u)) for d, u in zip(self.down, self.up, strict=True))
        talon = self.tmask << TALON_FIELD | self.p << WASTE_FIELD
        whole = int.from_bytes(b"".join(cols), "big") << 64 | self.recycles  # every recycle count apart
        return whole << _COLUMNS | talon | self._found_key()

    # ------------------------------------------------------------------------------------------- queries

    def is_trivially_won(self) -> bool:
        """True when no card is face down and the talon is empty (or fully reachable at will)."""
        if self.ndown:
            return False
        return not self.talon or self.open_talon

    def is_won(self) -> bool:
        """True when all 52 cards are on the foundations."""
        f = self.found
        return f[0] + f[1] + f[2] + f[3] == 52

    def can_recycle(self) -> bool:
        """True when another recycle is allowed."""
        return self.max_rec is None or self.recycles < self.max_rec

    def reachable(self) -> tuple[tuple[int, int], ...]:
        """Talon indices some draws (and at most one recycle) would put on top, with their action counts (kept
        until the talon's size, the waste's or the recycle allowed changes: the search asks at every position).
        """
        may = self.can_recycle()
        sig = len(self.talon) | self.p << 6 | (1 << 12 if may else 0)
        if sig != self.reach_sig:
            self.reach = talon_reach(len(self.talon), self.p, self.draw, may)
            self.reach_sig = sig
        return self.reach

    def reach_codes(self) -> list[int]:
        """:meth:`reachable` as small ints ``index << 8 | actions`` (a list of ints is cheaper to walk than one of
        pairs), kept as :meth:`reachable` keeps its tuple.
        """
        may = self.can_recycle()
        sig = len(self.talon) | self.p << 6 | (1 << 12 if may else 0)
        if sig != self.packed_sig:
            packed = self.packed[sig]
            if packed is None:
                packed = [idx << 8 | cost for idx, cost in talon_reach(len(self.talon), self.p, self.draw, may)]
                self.packed[sig] = packed
            self.reach_packed = packed
            self.packed_sig = sig
        return self.reach_packed

    def needs_recycle(self, idx: int) -> bool:
        """True when talon card ``idx`` can only be reached after turning the waste over."""
        return talon_needs_recycle(len(self.talon), self.p, self.draw, idx)

    def goes_home_safely(self, c: int) -> bool:
        """True when ``c`` may go on its foundation now and that can never hurt (see :meth:`is_safe`)."""
        return self.home >> c & 1 != 0 and self.is_safe(c)

    def is_safe(self, c: int) -> bool:
        """True when putting ``c`` on its foundation can never hurt (a sound dominance), or always in the
        restricted game of :attr:`eager` (where every card that may go home goes at once).
        """
        if self.eager:
            return True
        r = c % 13 + 1  # its rank
        if r <= 2:
            return True
        # The foundations' counts read from their key part (4 bits a suit), an unboxed int, not from the list. The
        # suits of the other colour are s ^ 1 and s ^ 2 (clubs, diamonds, hearts, spades), the same colour's s ^ 3.
        f = self.fkey
        s = c // 13
        other1 = f >> 4 * (s ^ 1) & 15
        other2 = f >> 4 * (s ^ 2) & 15
        if self.f2t:
            # Blake & Gent: other colour within 2 ranks, the same colour's other suit within 3.
            if other1 < r - 2 or other2 < r - 2:
                return False
            return f >> 4 * (s ^ 3) & 15 >= r - 3
        # Without returns: nothing that could ever lie on c is still outside the foundations.
        return other1 >= r - 1 and other2 >= r - 1

    # ------------------------------------------------------------------------------------------- changes

    def _went_home(self, c: int) -> None:
        """Book-keeping when card ``c`` goes on its foundation: its count, its key field, and the cards that may go
        home (see :meth:`_homed`).
        """
        s = c // 13
        self.found[s] += 1
        self.fkey += 1 << 4 * s
        self._homed(c)

    def _came_back(self, c: int) -> None:
        """Book-keeping when card ``c`` comes back from its foundation (the other way round)."""
        s = c // 13
        self.found[s] -= 1
        self.fkey -= 1 << 4 * s
        self._homed(c)

    def _homed(self, c: int) -> None:
        """``c`` went on its foundation or came back from it: then ``c`` may go home (again) or may not, and so the
        card above it (none above a King).
        """
        self.home ^= 1 << c if c % 13 == 12 else 3 << c

    def _turned_up(self, i: int) -> None:
        """Book-keeping after column ``i`` turned up its face-down card."""
        self.downcards ^= 1 << self.up[i][0]
        self.ndown -= 1

    def _turning_down(self, i: int) -> None:
        """Book-keeping before column ``i`` turns its face-up card back down."""
        self.downcards |= 1 << self.up[i][0]
        self.ndown += 1

    def apply(self, m: IMove) -> int:
        """Play an internal move; returns the token :meth:`undo` needs.

        A column's part of the key changes only with its bottom face-up card or its face-down count (see
        :meth:`_set_column_key`): only when a move takes a whole run away, or puts cards on an empty column.
        """
        self.known_key = -1
        kind = m[0]
        if kind == T2T:
            i, j, k = m[1], m[2], m[3]
            dest = self.up[j]
            onto_empty = not dest
            count = len(self.up[i]) - k
            if move_run(self.down[i], self.up[i], dest, count):
                self._turned_up(i)
                count = -count
            if not k:
                self._set_column_key(i)
            if onto_empty:
                self._set_column_key(j)
            return count
        if kind == T2F:
            i = m[1]
            token = lift_top(self.down[i], self.up[i])
            self._went_home(token >> 1)
            if token & 1:
                self._turned_up(i)
                self._set_column_key(i)
            elif not self.up[i]:
                self._set_column_key(i)
            return token
        if kind == F2T:
            s, j = m[1], m[2]
            c = s * 13 + self.found[s] - 1
            self._came_back(c)
            dest = self.up[j]
            dest.append(c)
            if len(dest) == 1:
                self._set_column_key(j)
            return 0
        idx = m[1]
        token = self.p | (self.tidx[idx] << 8) | (self.talon[idx] << 16) | (self.recycles << 24)
        if talon_needs_recycle(len(self.talon), self.p, self.draw, idx):
            self.recycles += 1
        c = self.talon.pop(idx)
        self.tmask ^= 1 << self.tidx.pop(idx)
        self.tcards ^= 1 << c
        self.p = idx
        if kind == W2F:
            self._went_home(c)
        else:
            dest = self.up[m[2]]
            dest.append(c)
            if len(dest) == 1:
                self._set_column_key(m[2])
        self._update_talon_key()
        return token

    def undo(self, m: IMove, token: int) -> None:
        """Take back ``m``, given the token :meth:`apply` returned (a column's key part as :meth:`apply` keeps it)."""
        self.known_key = -1
        kind = m[0]
        if kind == T2T:
            i, j = m[1], m[2]
            if token < 0:
                self._turning_down(i)
            dest = self.up[j]
            unmove_run(self.down[i], self.up[i], dest, abs(token), token < 0)
            if not m[3]:
                self._set_column_key(i)
            if not dest:
                self._set_column_key(j)
        elif kind == T2F:
            i = m[1]
            if token & 1:
                self._turning_down(i)
            unlift_top(self.down[i], self.up[i], token)
            self._came_back(token >> 1)
            if token & 1 or len(self.up[i]) == 1:
                self._set_column_key(i)
        elif kind == F2T:
            dest = self.up[m[2]]
            self._went_home(dest.pop())
            if not dest:
                self._set_column_key(m[2])
        else:
            c = (token >> 16) & 0xFF
            if kind == W2F:
                self._came_back(c)
            else:
                dest = self.up[m[2]]
                dest.pop()
                if not dest:
                    self._set_column_key(m[2])
            tid = (token >> 8) & 0xFF
            idx = m[1]
            self.talon.insert(idx, c)
            self.tidx.insert(idx, tid)
            self.tmask |= 1 << tid
            self.tcards |= 1 << c
            self.p = token & 0xFF
            self.recycles = token >> 24
            self._update_talon_key()
