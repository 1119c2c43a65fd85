"""Depth-first search with a transposition table: :func:`solve` and its :class:`Solution`."""

from __future__ import annotations

import functools
import gc
import time
from collections.abc import Generator
from dataclasses import dataclass
from typing import Final, Literal

from patiencelab.core.moves import Move
from patiencelab.core.position import Position
from patiencelab.core.rules import Rules
from patiencelab.solver.deadend import is_dead
from patiencelab.solver.movegen import (
    OBLIGATION_KEY,
    decode,
    finishing_move,
    follow_up,
    generate_codes,
    must_cover,
    safe_move,
    safe_move_after,
    to_public,
)
from patiencelab.solver.node import W2F, W2T, WASTE_FIELD, IMove, Node, Positioned, position_and_rules
from patiencelab.solver.portfolio import (
    EAGER_AFTER,
    EAGER_MOST,
    EASIER_GROWN_MOST,
    EASIER_GROWN_SLICES,
    EASIER_GROWS_AFTER,
    EASIER_LAST_SLICES,
    EASIER_SLICES,
    Run,
    eager_start,
    easier_start,
    finish,
    interleave,
    talon_first_start,
)

__all__ = ["LAYS_CHECKED_AFTER", "SLICE", "Outcome", "Solution", "solve", "solve_in_slices"]

#: A solver's verdict: ``solved`` (with a winning line), ``impossible`` (a proof), or ``unknown`` (out of budget).
Outcome = Literal["solved", "impossible", "unknown"]

#: Positions searched between two pauses of :func:`solve_in_slices` (a few milliseconds).
SLICE: Final = 512

#: Positions a search searches before it lays a talon card on a column's card only where a move may follow it
#: (:attr:`Node.lays_checked`, draw 1 with unlimited passes): the test costs more than the positions it saves in a
#: small search, whose table is in the processor's caches, and less in a large one, where a position's lookup waits
#: on memory. Above every budget the players and reviews give a call, so their searches are not changed by it.
LAYS_CHECKED_AFTER: Final = 1_000_000

#: A key's waste field (see Node.stronger_keys), as bits.
_WASTE_BITS: Final = 63 << WASTE_FIELD


@dataclass(frozen=True, slots=True)
class Solution:
    """What :func:`solve` found: ``outcome``, the winning ``moves`` (place form, draws and recycles included,
    empty unless solved), the number of positions searched, the seconds it took, and which search decided
    (``decided_by``, empty when undecided): ``"usual order"`` (the depth-first search of the real game),
    ``"talon first"`` (the same search in the second move order; the two share their table of positions seen,
    so an "impossible" names the one that ended last), ``"easier game"`` (its impossibility, a proof for the real
    game, see :mod:`~patiencelab.solver.portfolio`), ``"cards home first"`` (a win of the harder game where every
    card that may go home goes at once, which is a win of the real game), ``"dead end"`` (a card that can never
    leave its column, see :func:`~patiencelab.solver.deadend.is_dead`) or ``"start"`` (the position was already
    won); and ``searched``: each search the portfolio ran, by the same names, with the positions it searched (they
    sum to ``states``; empty when no search ran).
    """

    outcome: Outcome
    moves: tuple[Move, ...] = ()
    states: int = 0
    seconds: float = 0.0
    decided_by: str = ""
    searched: tuple[tuple[str, int], ...] = ()

    @property
    def is_decided(self) -> bool:
        """True when the deal was solved or proved impossible."""
        return self.outcome != "unknown"


class _Search:
    """One search over a :class:`Node`; the path is a list of moves played, beside their undo tokens (two lists,
    no pair built a move), with frame starts.
    """

    __slots__ = (
        "base",
        "bits",
        "deadline",
        "lays_after",
        "max_states",
        "path",
        "pause",
        "seen",
        "st",
        "states",
        "stronger",
        "table",
        "tokens",
        "waste",
        "wastes",
    )

    def __init__(
        self,
        st: Node,
        deadline: float,
        max_states: int | None,
        partner: _Search | None = None,
        pause: int = SLICE,
        lays_after: int = LAYS_CHECKED_AFTER,
    ) -> None:
        self.st = st
        #: The positions after which the search checks its talon cards' lays (:data:`LAYS_CHECKED_AFTER` but in tests).
        self.lays_after = lays_after
        #: One less than the positions between two pauses (a power of two; :data:`SLICE` but in tests).
        self.pause = pause - 1
        self.deadline = deadline
        self.max_states = max_states
        self.path: list[IMove] = []
        self.tokens: list[int] = []  # the undo token of each move of path
        #: True when some wastes are stronger than others (draw 2 or more, unlimited passes; Node.stronger_keys).
        self.wastes = st.wastes
        #: The keys seen where no waste is stronger than another; shared with ``partner``, a search of the same
        #: game in another order (see portfolio.Run.shares): each skips what either has seen.
        self.seen: set[int] = partner.seen if partner is not None else set()
        #: The keys seen where some wastes are stronger: each key with its waste field cleared, and the field's
        #: values seen with it as bits (bit q: the field q; bit 0 for a fresh stock, an empty one or a multiple of
        #: ``draw`` cards). One lookup tells whether a key was seen and whether a stronger one was (see
        #: _stronger_seen); shared alike.
        self.table: dict[int, int] = partner.table if partner is not None else {}
        #: What :meth:`_unseen` found for the key it was asked last, for :meth:`_seen_one` (nothing changes the
        #: table between the two): the key's entry in :attr:`table` (``base``), its waste field and the entry's bits.
        self.base = 0
        self.waste = 0
        self.bits = 0
        #: ``stronger[p]``: the waste sizes stronger than a waste of ``p`` cards not a multiple of the draw, as bits:
        #: the smaller ones of the same size modulo the draw (see Node.stronger_keys).
        self.stronger = _stronger_sizes(st.draw)
        self.states = 0

    def _play(self, m: IMove) -> None:
        st, path, tokens = self.st, self.path, self.tokens
        then = follow_up(st, m)
        path.append(m)
        tokens.append(st.apply(m))
        if then is not None:
            path.append(then)
            tokens.append(st.apply(then))
            sm = safe_move(st)
        else:
            sm = safe_move_after(st, m)
        while sm is not None:
            path.append(sm)
            tokens.append(st.apply(sm))
            sm = safe_move(st)

    def _unplay(self, start: int) -> None:
        """Take back the moves of the last :meth:`_play` (those after ``start``, where it began)."""
        st, path, tokens = self.st, self.path, self.tokens
        while len(path) > start:
            st.undo(path.pop(), tokens.pop())

    def _unseen(self, key: int, onto: int) -> int:
        """The key to search a position of ``key`` under (a :meth:`Node.base`, whose waste field the node keeps in
        :attr:`Node.kwaste`), with the duty to cover ``onto`` (-1: none), or -1 when
        it needs no search: seen before, seen without the duty, or a position that wins whenever it does was seen
        (see :meth:`Node.stronger_keys`). A duty only takes moves away (the moves it lets through lead to the
        positions they lead to without it), so the position free of it is worth as much.

        Skipping a position when a stronger one was seen is sound: the stronger one's moves lead to positions
        as strong as those this one's lead to, each of them seen or skipped for a stronger one in turn, so a
        win from here would show up as a win from a position the search has seen.

        Where no waste is stronger than another, the key returned is already among those seen (one set operation
        looks it up and adds it: the search searches the position next, or has won); elsewhere :meth:`_seen_one`
        adds it once the search has played to it.
        """
        if not self.wastes:
            seen = self.seen
            if onto >= 0:
                if key in seen:
                    return -1
                key += OBLIGATION_KEY[onto]
            size = len(seen)
            seen.add(key)
            return key if len(seen) > size else -1
        table = self.table
        p = self.st.kwaste  # the key's waste field, kept out of it (no big-int operation to clear it)
        if onto >= 0:
            if table.get(key, 0) >> p & 1:
                return -1
            key += OBLIGATION_KEY[onto]
        bits = table.get(key, 0)
        self.base, self.waste, self.bits = key, p, bits
        if bits >> p & 1 or self._stronger_seen(p, bits):
            return -1
        return key

    def _stronger_seen(self, p: int, bits: int) -> bool:
        """True when a key of :meth:`Node.stronger_keys` of a key of waste field ``p`` was seen, given the ``bits``
        of :attr:`table` for the rest of that key (the waste fields seen with it), the key itself not
        seen. The weakest waste (its waste field 0: a fresh stock or a multiple of ``draw`` cards) has the most
        stronger keys, every waste size not a multiple of ``draw`` (the only other values of the field): one of
        them was seen when any bit is set. Another waste's are the smaller sizes of its size modulo ``draw``
        (:attr:`stronger`).
        """
        if not p:
            return bits != 0
        return bits & self.stronger[p] != 0

    def _seen_one(self) -> None:
        """Add the key :meth:`_unseen` was asked last and let through to the positions seen, once the search has
        played to its position: where some wastes are stronger, its waste field's bit to its entry in
        :attr:`table` (elsewhere :meth:`_unseen` added the key itself).
        """
        if self.wastes:
            self.table[self.base] = self.bits | 1 << self.waste

    def was_seen(self, key: int) -> bool:
        """True when the position of ``key`` was searched (for tests)."""
        if not self.wastes:
            return key in self.seen
        p = (key & _WASTE_BITS) >> WASTE_FIELD
        return self.table.get(key - (p << WASTE_FIELD), 0) >> p & 1 != 0

    def seen_keys(self) -> list[int]:
        """The keys of the positions searched (for tests)."""
        if not self.wastes:
            return list(self.seen)
        return [base + (p << WASTE_FIELD) for base, bits in self.table.items() for p in range(64) if bits >> p & 1]

    def _finish(self) -> None:
        """Play a trivially won position out to the foundations."""
        st = self.st
        m = finishing_move(st)
        while m is not None:
            self.path.append(m)
            self.tokens.append(st.apply(m))
            m = finishing_move(st)

    def run(self) -> Outcome:
        """Search until solved, exhausted (impossible) or out of budget (unknown)."""
        return finish(self.steps())

    def steps(self) -> Generator[None, None, Outcome]:
        """The search of :meth:`run`, pausing (yielding) after every :data:`SLICE` positions (or the ``pause``
        it was given); returns the outcome.
        Pauses change nothing of the search: run in slices or at once, it visits the same positions.
        """
        st = self.st
        sm = safe_move(st)
        while sm is not None:
            self.path.append(sm)
            self.tokens.append(st.apply(sm))
            sm = safe_move(st)
        if st.is_trivially_won():
            self._finish()
            return "solved"
        self._unseen(st.base(), -1)  # the partner's start may have been seen
        self._seen_one()
        self.states = 1
        stack: list[list[int]] = [generate_codes(st)]
        frames: list[int] = []
        deadline, max_states, lays_after = self.deadline, self.max_states, self.lays_after
        perf = time.perf_counter
        paused = _collector_off()
        try:
            while stack:
                moves = stack[-1]
                if not moves:
                    stack.pop()
                    if frames:
                        self._unplay(frames.pop())
                    continue
                m = decode(moves.pop())
                onto = must_cover(st, m) if m[0] >= W2T else -1  # only a talon card or a foundation's has a duty
                # A position seen before was not trivially won when first seen: look its key up before playing.
                key = st.base_after(m)
                if key is not None:
                    key = self._unseen(key, onto)
                    if key < 0:
                        continue
                mark = len(self.path)
                self._play(m)
                if st.ndown == 0 and st.is_trivially_won():
                    self._finish()
                    return "solved"
                if key is None:
                    key = self._unseen(st.base(), onto)
                    if key < 0:
                        self._unplay(mark)
                        continue
                self._seen_one()
                self.states += 1
                if not self.states & self.pause:
                    if perf() > deadline or (max_states is not None and self.states >= max_states):
                        return "unknown"
                    if self.states >= lays_after:
                        st.lays_checked = st.open_talon
                    if paused:
                        gc.enable()  # the host runs between slices with its collector as it had it
                        paused = False
                    yield
                    paused = _collector_off()
                frames.append(mark)
                # In the last pass a talon card played can leave a waste card waiting for one that never leaves
                if (m[0] == W2T or m[0] == W2F) and not st.can_recycle() and is_dead(st):
                    stack.append([])
                else:
                    stack.append(generate_codes(st, onto))
            return "impossible"
        finally:
            if paused:
                gc.enable()


@functools.cache
def _stronger_sizes(draw: int) -> list[int]:
    """For each waste size ``p`` (under 64) not a multiple of ``draw``, the smaller sizes of the same size modulo
    ``draw``, as bits (bit q: size q); 0 for a multiple of ``draw``. Built once a process a draw (read only).
    """
    return [sum(1 << q for q in range(p % draw, p, draw)) if p % draw else 0 for p in range(64)]


def _collector_off() -> bool:
    """Switch Python's cyclic garbage collector off for a slice of the search, if it is on; True when it was.

    The search makes no reference cycles (its lists hold ints and tuples of ints, freed by reference counting), but
    it makes millions of small lists, and each few hundred of them set off a collection that walks the young
    objects, and now and then every object, the table of positions seen included: some 12% of the search's time
    on seeds 0-29. Switched back on before every pause and when the search ends, however it ends.
    """
    if gc.isenabled():
        gc.disable()
        return True
    return False


def _public_moves(start: Node, path: list[IMove]) -> tuple[Move, ...]:
    out: list[Move] = []
    for m in path:
        out.extend(to_public(start, m))
        start.apply(m)
    return tuple(out)


def solve(
    source: Position | Positioned,
    rules: Rules | None = None,
    *,
    seconds: float = 10.0,
    max_states: int | None = None,
) -> Solution:
    """Decide whether a position can be won (knowing every face-down card): a :class:`Position` under
    ``rules`` (the standard rules by default), or a game's current position under its rules.

    Stops at ``seconds`` or ``max_states`` positions, whichever comes first (the positions of all the searches
    run side by side counted, see :mod:`~patiencelab.solver.portfolio`). Both are checked at the ends of slices
    of :data:`SLICE` positions (the budget once every search has had its turn), so a search may pass them by that
    much: a budget of 250 positions stops where one of 500 does. ``"impossible"`` is a proof: the whole space,
    pruned only by sound rules, was searched, or that of the easier game, or the start has a card that can never
    leave its column (:func:`~patiencelab.solver.deadend.is_dead`). The arguments are taken as checked: the
    public :func:`patiencelab.solver.solve` checks them, once.
    """
    return finish(solve_in_slices(source, rules, seconds=seconds, max_states=max_states))


def solve_in_slices(
    source: Position | Positioned,
    rules: Rules | None = None,
    *,
    seconds: float = 10.0,
    max_states: int | None = None,
) -> Generator[None, None, Solution]:
    """:func:`solve`, pausing after every :data:`SLICE` positions (a generator that returns the
    :class:`Solution`): for a host with no threads or processes (Pyodide), which runs it a slice at a time
    between other work. The same positions are searched, so the outcome is the one :func:`solve` gives.
    """
    t0 = time.perf_counter()
    pos, rules = position_and_rules(source, rules)
    start = Node.from_position(pos, rules)  # the other searches' starts are copies of it: one Position read a solve
    if start.is_won():
        return Solution("solved", (), 0, time.perf_counter() - t0, "start")
    if is_dead(start):  # a card that can never leave its column (see deadend.is_dead)
        return Solution("impossible", (), 1, time.perf_counter() - t0, "dead end")
    origin = start.copy(rules)  # the start as it was, for the winning line's public moves
    runs = _portfolio(start, rules, t0 + seconds, max_states)
    outcome, decider = yield from interleave(runs, max_states)
    searched = tuple((run.name, run.search.states) for run in runs)
    states = sum(n for _, n in searched)
    moves: tuple[Move, ...] = ()
    if outcome == "solved" and decider is not None and isinstance(decider.search, _Search):
        moves = _public_moves(origin, decider.search.path)
    decided_by = decider.name if outcome != "unknown" and decider is not None else ""
    return Solution(outcome, moves, states, time.perf_counter() - t0, decided_by, searched)


def _portfolio(start: Node, rules: Rules, deadline: float, max_states: int | None) -> list[Run]:
    """The searches :func:`solve` runs side by side from ``start`` (searched in place by the first; the others search
    copies): the usual order, the talon-first order sharing its table, the easier game and the harder game, each
    with its share of the slices (see :mod:`~patiencelab.solver.portfolio`). ``benchmarks/bench_solver.py --alone``
    runs each of them alone.
    """
    first = _Search(start, deadline, max_states)
    runs = [Run(first, name="usual order", shares=True)]
    second = talon_first_start(start, rules)  # the same game, in another move order, with the same table
    if second is not None:
        runs.append(Run(_Search(second, deadline, max_states, first), name="talon first", shares=True))
    easier = easier_start(start, rules)  # its impossibility is a proof for these rules
    if easier is not None:
        runs.append(
            Run(
                _Search(easier, deadline, max_states),
                EASIER_SLICES,
                easier=True,
                name="easier game",
                grow_after=EASIER_GROWS_AFTER,  # its larger share once a long search has not won it
                grown=EASIER_GROWN_SLICES,
                grown_most=EASIER_GROWN_MOST,  # and an equal share past the size of most easier games
                last=EASIER_LAST_SLICES,
            )
        )
    # a harder game, once the others have searched a while: its wins are the real game's
    harder = _Search(eager_start(start, rules), deadline, max_states)
    runs.append(Run(harder, harder=True, name="cards home first", after=EAGER_AFTER, most=EAGER_MOST))
    return runs
