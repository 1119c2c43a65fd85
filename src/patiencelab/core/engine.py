"""A game's compiled engine: the table (see :mod:`patiencelab.core.table`) with the moves played on it, its
history, unlimited undo/redo, the score, the clock and the listeners.

The public class is :class:`~patiencelab.core.game.Klondike`, an interpreted subclass with the constructor and the
conveniences that call services (hints, the solver, reviews): its signatures are precise, and it checks its
arguments once, with the checkers of :mod:`patiencelab.core.limits`. What is here runs on every move (play, undo,
the status, the player's view), so it is compiled with mypyc. A compiled method that calls another method on an
interpreted subclass's instance goes through Python (mypyc's "shadow" vtable), so the methods here call the ones
the play and undo paths need through their class (``Engine._play(self, move)``), which compiles to a direct call.
"""

from __future__ import annotations

import time
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final, Literal, cast, final

from patiencelab._modules import mypyc_attr
from patiencelab.core.cards import Card, Suit, full_deck
from patiencelab.core.errors import ArgumentTypeError, IllegalMoveError, PatienceError, quote
from patiencelab.core.kernel import (
    SUIT_LETTERS,
    WON,
    draw_cards,
    lift_top,
    move_run,
    passes_left,
    recycle_waste,
    talon_reach,
    undraw_cards,
    unlift_top,
    unmove_run,
    unrecycle_waste,
)
from patiencelab.core.moves import DRAW, RECYCLE, Move
from patiencelab.core.position import Position
from patiencelab.core.rules import Rules
from patiencelab.core.table import TABLE_FIELDS, Table
from patiencelab.core.view import ColumnView, PlayerView

if TYPE_CHECKING:
    from patiencelab.core.game import Change, Klondike

__all__ = ["RECORD_FORMAT", "ChangeKind", "Engine", "Played", "Status"]

_DECK: Final = full_deck()  # card ints (the kernel's numbering) to cards
_SUITS: Final = tuple(Suit)

#: Where a game stands: still ``playing``, ``won``, or ``stuck`` (no move but draws and recycles is legal, and the
#: player can tell that none will ever be: see :attr:`Engine.is_stuck`).
Status = Literal["playing", "won", "stuck"]


@dataclass(frozen=True, slots=True)
class Played:
    """One action as it was played or taken back: the resolved ``move``, the ``cards`` it moved (bottom first;
    the cards drawn for a draw, none for a recycle), the card it turned face up (taken back: the card turned
    face down again), and the points it scored.

    ``turned`` of an action taken back names a card that is face down now: it is for the kernel's side
    (narration, lessons), never for a view while cards are hidden.
    """

    move: Move
    cards: tuple[Card, ...]
    turned: Card | None
    points: int


#: A function :meth:`Engine.on_change` calls after every change, with a :class:`~patiencelab.core.game.Change`.
Listener = Callable[["Change"], None]

#: What a change was: see :class:`~patiencelab.core.game.Change`.
ChangeKind = Literal["play", "undo", "redo", "reset"]

#: The ``format`` field of a game record (:meth:`Engine.record`).
RECORD_FORMAT: Final = "patiencelab-game"


@final
class _Entry:
    """One undo entry: what :meth:`Klondike._unapply` needs to take a move back.

    A plain class, which mypyc compiles to a native one, made and read as fast as the tuple it replaced; a
    NamedTuple or a frozen dataclass is made by a Python-level constructor, which made play and undo a third slower.
    """

    __slots__ = ("first", "flipped", "move", "score", "size")

    def __init__(self, move: Move, size: int, flipped: bool, score: int, first: int) -> None:
        self.move: Final = move
        self.size: Final = size  # how many cards it moved or drew (for a recycle, the size of the waste)
        self.flipped: Final = flipped  # the move turned a face-down card up
        self.score: Final = score  # the score before the move
        self.first: Final = first  # the first card moved (-1 for draws and recycles)


#: The fields a :class:`Klondike` adds to its table's (see :data:`~patiencelab.core.table.TABLE_FIELDS`).
_FIELDS: Final = ("_clock", "_deal", "_listeners", "_redo", "_score", "_seed", "_start", "_t0", "_t_end", "_undo")


@mypyc_attr(allow_interpreted_subclasses=True)
class Engine(Table):
    """The table of one game with the moves played on it: :class:`~patiencelab.core.game.Klondike` is the public
    class (make games with it); this is the part every move runs through.
    """

    __slots__ = _FIELDS

    _seed: int | None
    _deal: str | None

    def __new__(cls, *args: object, **kwargs: object) -> Engine:
        """A blank game, for ``__init__`` to fill (or :meth:`copy`). Keyword arguments only: a positional one is
        an :class:`ArgumentTypeError` (the keywords are checked by ``__init__``).
        """
        if args:
            raise ArgumentTypeError(
                f"{cls.__name__} takes keyword arguments only (seed=..., deal=..., rules=...), not {quote(args[0])}"
            )
        return super().__new__(cls)

    # ----------------------------------------------------------------------------------------------- making

    def _setup(self, start: Position, rules: Rules, clock: Callable[[], float] | None, lang: str) -> None:
        """Start from ``start``; the arguments were checked by the caller."""
        self._rules = rules
        self._start = start
        self._clock: Callable[[], float] = clock or time.monotonic
        self._lang = lang
        self._listeners: list[Listener] = []
        self._load(start)

    def _load(self, position: Position) -> None:
        self._down = [[c.index for c in col.down] for col in position.tableau]
        self._up = [[c.index for c in col.up] for col in position.tableau]
        self._stock = [c.index for c in reversed(position.stock)]
        self._waste = [c.index for c in position.waste]
        self._found = [position.foundations.get(s, 0) for s in _SUITS]
        self._recycles = position.recycles
        self._legal = None
        self._score = self._rules.scoring.start
        self._undo: list[_Entry] = []
        self._redo: list[tuple[Move, int]] = []
        self._t0 = self._clock()
        self._t_end: float | None = self._t0 if self._found == WON else None

    def copy(self) -> Klondike:
        """An independent copy with the same position, history, score and clock (listeners are not copied)."""
        cls = type(self)
        other = cls.__new__(cls)
        for name in TABLE_FIELDS + _FIELDS:
            setattr(other, name, getattr(self, name))
        other._down = [list(c) for c in self._down]
        other._up = [list(c) for c in self._up]
        other._stock = list(self._stock)
        other._waste = list(self._waste)
        other._found = list(self._found)
        other._undo = list(self._undo)
        other._redo = list(self._redo)
        other._listeners = []
        return cast("Klondike", other)  # (Klondike is this class's one subclass: the cast is not checked)

    # ------------------------------------------------------------------------------------------------ reads

    @property
    def seed(self) -> int | None:
        """The seed the deal came from, or ``None`` for a given deal or position."""
        return self._seed

    @property
    def deal(self) -> str | None:
        """The deal as 104 characters in dealing order, or ``None`` for a game made from a position."""
        return self._deal

    @property
    def moves(self) -> int:
        """The number of actions (draws and recycles included) on the path from the start to now."""
        return len(self._undo)

    @property
    def history(self) -> tuple[Move, ...]:
        """The actions on the path from the start to now, in place form."""
        return tuple(entry.move for entry in self._undo)

    @property
    def can_undo(self) -> bool:
        """True when there is an action to undo."""
        return bool(self._undo)

    @property
    def can_redo(self) -> bool:
        """True when an undone action can be played again."""
        return bool(self._redo)

    @property
    def seconds(self) -> float:
        """Seconds played: from the start (or :meth:`reset`) to now, or to the win."""
        end = self._t_end if self._t_end is not None else self._clock()
        return max(0.0, end - self._t0)

    @property
    def score(self) -> int:
        """The running score under the rules' scoring table, time terms included."""
        table = self._rules.scoring
        score = self._score
        if table.time_penalty or table.time_bonus:
            seconds = self.seconds
            score -= table.time_penalty * int(seconds // 10)
            if table.floor is not None:
                score = max(table.floor, score)
            if self.is_won and table.time_bonus and seconds > table.bonus_after:
                score += int(table.time_bonus / seconds)
        return score

    @property
    def is_stuck(self) -> bool:
        """True when the game is not won and a player can tell from what they see that no move but draws and
        recycles can ever be played again: decided from the player's view alone, so it tells nothing of the
        face-down cards or the unseen stock.

        The rule: no move but a draw or a recycle is legal; no card of the talon (the waste and the stock) that
        the player has seen and that some draws (and recycles, within the passes left) would bring to the top of
        the waste fits anywhere (on its foundation or a column's top); and, when those draws would also turn up a
        stock card the player has not seen yet (those the game has not shown, see :meth:`_seen_stock` and
        :mod:`patiencelab.core.view`), no unseen card fits anywhere either. An unseen card is one
        face down in a column or in the unseen stock; the player cannot tell which, so any of them might be the
        next card drawn. Once the stock has been drawn through, the unseen cards left lie face down under columns
        that no move can ever uncover, and a game whose talon never helps is stuck, with draw 1 or 3 and any
        pass limit. The answer is the same for every order of the unseen cards, and it is True only when the
        game really is stuck.
        """
        return Engine._stuck(self)

    def _stuck(self) -> bool:
        """:attr:`is_stuck` (a method, which compiled code calls directly)."""
        if self._found == WON:
            return False
        if any(not (m.is_draw or m.is_recycle) for m in Table.legal_moves(self)):
            return False
        talon = self._waste + self._stock[::-1]
        unseen = len(self._stock) - Engine._seen_stock(self)
        known = len(talon) - unseen  # talon indices from here on hold unseen stock cards
        reach = talon_reach(
            len(talon), len(self._waste), self._rules.draw, passes_left(self._rules.max_passes, self._recycles) != 0
        )
        reaches_unseen = False
        for i, _ in reach:
            if i >= known:
                reaches_unseen = True
            elif Table._card_fits_anywhere(self, talon[i]):
                return False
        if not reaches_unseen:
            return True
        hidden = [c for down in self._down for c in down] + self._stock[:unseen]
        return not any(Table._card_fits_anywhere(self, card) for card in hidden)

    @property
    def status(self) -> Status:
        """``won``, ``stuck`` (see :attr:`is_stuck`) or ``playing``."""
        if self._found == WON:
            return "won"
        return "stuck" if Engine._stuck(self) else "playing"

    @property
    def can_autocomplete(self) -> bool:
        """True when every tableau card is face up and playing cards to the foundations (drawing and turning the
        waste over as needed, within the passes left) wins, whatever the order of the cards still face down in
        the stock: decided from what a player sees, so it tells nothing of hidden cards. That order matters with
        draw 3 or a pass limit, so there the stock must be drawn through first; with draw 1 and unlimited passes
        every card can always be reached, and the rest always plays out.
        """
        return self._autocomplete_moves() is not None

    def _autocomplete_moves(self) -> list[Move] | None:
        """The actions that play the rest out (see :attr:`can_autocomplete`), or ``None``: on a copy, a card to
        a foundation whenever one can go, else a draw, else a recycle, until won or a whole cycle of the talon
        brought no card home.
        """
        if self._found == WON or any(self._down):
            return None
        if self._stock and not (self._rules.draw == 1 and self._rules.max_passes is None):
            return None  # whether it plays out depends on the order of the face-down stock
        probe: Engine = self.copy()
        moves: list[Move] = []
        idle = 0  # actions since a card last went home
        while probe._found != WON:
            move = next((m for m in Table.legal_moves(probe) if m.target is not None and m.target[0] == "f"), None)
            if move is not None:
                idle = 0
            elif idle > len(probe._stock) + len(probe._waste):
                return None  # a whole cycle of draws and its recycle went by with no card home
            elif probe._stock or (probe._waste and probe.passes_left != 0):
                move = DRAW if probe._stock else RECYCLE
                idle += 1
            else:
                return None
            moves.append(Engine._play(probe, move))
        return moves

    def autocomplete(self) -> list[Move]:
        """Play the game out to the foundations when :attr:`can_autocomplete`; returns the moves played.

        Raises :class:`PatienceError` (and changes nothing) when the rest is not trivially won.
        """
        moves = self._autocomplete_moves()
        if moves is None:
            raise PatienceError(
                "autocomplete needs every tableau card face up and a rest that plays out whatever the stock holds"
            )
        played = []
        for move in moves:
            self._play(move)
            if self._listeners:
                played.append(self._played_last())
        self._notify("play", tuple(played))
        return moves

    def player_view(self) -> PlayerView:
        """What a player can know here (see :mod:`patiencelab.core.view`): nothing derived from face-down cards,
        and of the stock only the cards seen in this game (see :meth:`_seen_stock`).
        """
        found = self._found
        seen = Engine._seen_stock(self)
        return PlayerView(
            rules=self._rules,
            tableau=tuple(ColumnView(len(d), tuple(_DECK[c] for c in u)) for d, u in zip(self._down, self._up)),
            stock_size=len(self._stock),
            stock=self.stock[:seen] if seen else (),
            waste=self.waste,
            foundations=(found[0], found[1], found[2], found[3]),
            recycles=self._recycles,
            history=self.history,
        )

    def _seen_stock(self) -> int:
        """How many stock cards, from the next one to draw, the player has seen in this game: every one once the
        waste was turned over in this game (each card of a recycled stock lay face up on the waste); before
        that, those the starting position says were seen (``stock_seen``, none unless it says so, whatever its
        recycles), less the ones drawn since. Never what a position's recycles alone would suggest: a game made
        from a position has not shown its stock.
        """
        start = self._start
        if self._recycles > start.recycles:
            return len(self._stock)
        return max(0, start.stock_seen - (len(start.stock) - len(self._stock)))

    def snapshot(self) -> Position:
        """The current position as an immutable :class:`Position`, with the stock cards the player has seen
        (``stock_seen``), so that a game made from it knows what this one knows.
        """
        return Position(self.tableau, self.stock, self.waste, self.foundations, self._recycles, self._seen_stock())

    def play(self, move: Move | str) -> Move:
        """Play ``move`` (a :class:`Move` or its notation) and return it in place form.

        Raises :class:`InvalidMoveError` for text that is not a move and :class:`IllegalMoveError` for a move the
        rules forbid; either way the game is unchanged.
        """
        played = Engine._play(self, Move.parse(move))
        if self._listeners:
            self._notify("play", (self._played_last(),))
        return played

    def parse_move(self, text: Move | str) -> Move:
        """The move ``text`` names in this position, resolved: a card-form move (``5H-t5``) becomes the place
        form the game plays (``t2-t5``), or keeps its card where only the card says which part of a run moves.

        Raises :class:`InvalidMoveError` for text that is not a move and :class:`IllegalMoveError` for a move the
        rules forbid now; the game is unchanged either way.
        """
        result = Table._examine(self, Move.parse(text))
        if isinstance(result, IllegalMoveError):
            raise result
        return result[0]

    def notation(self, move: Move | str) -> str:
        """``move`` written in card form for this position (``5H-t5``, ``AS-f``; ``d`` and ``r`` as they are),
        the form a reader follows without counting cards. Raises like :meth:`parse_move`.
        """
        resolved = self.parse_move(move)
        if resolved.is_draw or resolved.is_recycle:
            return str(resolved)
        return f"{self.moving_cards(resolved)[0]}-{resolved.target}"

    def draw(self) -> Move:
        """Turn the next card(s) of the stock onto the waste."""
        return self.play(DRAW)

    def recycle(self) -> Move:
        """Turn the waste over, unshuffled, to form a new stock."""
        return self.play(RECYCLE)

    def _play(self, move: Move) -> Move:
        result = Table._examine(self, move)
        if isinstance(result, IllegalMoveError):
            raise result
        canonical, count = result
        Engine._apply(self, canonical, count)
        self._redo.clear()
        return canonical

    def _apply(self, move: Move, count: int) -> None:
        """Apply a checked move: no checks here."""
        self._legal = None
        score = self._score
        table = self._rules.scoring
        source, target = move.source, move.target
        flipped = False
        gain = 0
        first = -1
        if source == "d":
            draw_cards(self._stock, self._waste, count)
        elif source == "r":
            recycle_waste(self._stock, self._waste)
            self._recycles += 1
            gain = table.recycle_points(self._rules.draw, self._recycles)
        else:
            assert source is not None and target is not None
            to_column = target[0] == "t"
            if source[0] == "t":
                i = int(source[1]) - 1
                up = self._up[i]
                if to_column:
                    first = up[len(up) - count]
                    flipped = move_run(self._down[i], up, self._up[int(target[1]) - 1], count)
                else:
                    token = lift_top(self._down[i], up)
                    first, flipped = token >> 1, token & 1 == 1
                gain = table.turn_up if flipped else 0
            else:
                if source == "w":
                    first = self._waste.pop()
                    gain = table.waste_to_tableau if to_column else 0
                else:
                    suit = SUIT_LETTERS.index(source[1])
                    self._found[suit] -= 1
                    first = suit * 13 + self._found[suit]
                    gain = table.foundation_to_tableau
                if to_column:
                    self._up[int(target[1]) - 1].append(first)
            if not to_column:
                self._found[first // 13] += 1
                gain += table.to_foundation
        new = score + gain
        if table.floor is not None and new < table.floor:
            new = table.floor
        self._score = new
        self._undo.append(_Entry(move, count, flipped, score, first))
        if self._t_end is None and self._found == WON:
            self._t_end = self._clock()

    def undo(self) -> Move:
        """Take back the last action (score included) and return it."""
        if not self._undo:
            raise PatienceError("there is nothing to undo")
        score = self._score
        move = Engine._unapply(self)
        if self._listeners:
            self._notify("undo", (self._taken_back(move, self._redo[-1][1], self._score - score),))
        return move

    def _unapply(self) -> Move:
        self._legal = None
        entry = self._undo.pop()
        move, count, first = entry.move, entry.size, entry.first
        source, target = move.source, move.target
        if source == "d":
            undraw_cards(self._stock, self._waste, count)
        elif source == "r":
            unrecycle_waste(self._stock, self._waste)
            self._recycles -= 1
        else:
            assert source is not None and target is not None
            if target[0] == "f":
                self._found[first // 13] -= 1
                if source[0] == "t":
                    i = int(source[1]) - 1
                    unlift_top(self._down[i], self._up[i], first * 2 + entry.flipped)
                else:
                    self._waste.append(first)
            else:
                dest = self._up[int(target[1]) - 1]
                if source[0] == "t":
                    i = int(source[1]) - 1
                    unmove_run(self._down[i], self._up[i], dest, count, entry.flipped)
                elif source == "w":
                    self._waste.append(dest.pop())
                else:
                    dest.pop()
                    self._found[SUIT_LETTERS.index(source[1])] += 1
        self._score = entry.score
        self._redo.append((move, count))
        if self._t_end is not None and self._found != WON:
            self._t_end = None
        return move

    def redo(self) -> Move:
        """Play again the last action undone."""
        if not self._redo:
            raise PatienceError("there is nothing to redo")
        move, count = self._redo.pop()
        redo = self._redo
        Engine._apply(self, move, count)
        self._redo = redo
        if self._listeners:
            self._notify("redo", (self._played_last(),))
        return move

    def reset(self) -> None:
        """Go back to the start (the deal or the starting position); history, score and clock start again."""
        self._load(self._start)
        self._notify("reset")

    # --------------------------------------------------------------------------------------------- listen

    def on_change(self, callback: Listener) -> Callable[[], None]:
        """Call ``callback(change)`` after every change, with a :class:`Change` that says what was played or
        taken back and what it turned over; returns a function that removes the listener.
        """
        if not callable(callback):
            raise PatienceError("on_change needs a callable")
        self._listeners.append(callback)

        def remove() -> None:
            if callback in self._listeners:
                self._listeners.remove(callback)

        return remove

    def _notify(self, kind: ChangeKind, played: tuple[Played, ...] = ()) -> None:
        if not self._listeners:
            return
        change = self._change(kind, played)
        for callback in list(self._listeners):
            try:
                callback(change)
            except Exception as exc:
                warnings.warn(f"a Klondike listener raised {exc!r}", RuntimeWarning, stacklevel=3)

    def _change(self, kind: ChangeKind, played: tuple[Played, ...]) -> Change:
        """The :class:`~patiencelab.core.game.Change` the listeners get (made by the public class)."""
        raise NotImplementedError

    def last_played(self) -> Played | None:
        """The last action of the history as it was played (the cards it moved, the card it turned face up and
        its points), or ``None`` at the start.
        """
        return self._played_last() if self._undo else None

    def _played_last(self) -> Played:
        entry = self._undo[-1]
        move, count = entry.move, entry.size
        source, target = move.source, move.target
        turned = None
        if source == "d":
            cards = self._waste[len(self._waste) - count :]
        elif source == "r" or source is None or target is None:
            cards = []
        else:
            cards = [entry.first] if target[0] == "f" else self._up[int(target[1]) - 1][-count:]
            if entry.flipped:
                turned = _DECK[self._up[int(source[1]) - 1][0]]
        return Played(move, tuple(_DECK[c] for c in cards), turned, self._score - entry.score)

    def _taken_back(self, move: Move, count: int, points: int) -> Played:
        """The action just taken back, read where its cards lie again (the redo entry and the table say it all;
        a card turned face down again is named, for the kernel's side only).
        """
        source, target = move.source, move.target
        turned = None
        if source == "d":
            cards = self._stock[len(self._stock) - count :][::-1]
        elif source == "r" or source is None or target is None:
            cards = []
        elif source == "w":
            cards = [self._waste[-1]]
        elif source[0] == "t":
            i = int(source[1]) - 1
            cards = self._up[i][-count:]
            if len(self._up[i]) == count and self._down[i]:
                turned = _DECK[self._down[i][-1]]
        else:
            suit = "CDHS".index(source[1])
            cards = [suit * 13 + self._found[suit] - 1]
        return Played(move, tuple(_DECK[c] for c in cards), turned, points)

    # ---------------------------------------------------------------------------------------------- forms

    def position_json(self) -> dict[str, Any]:
        """The current position in the JSON form of docs/script.md (:meth:`snapshot` gives it as a
        :class:`~patiencelab.core.position.Position`).
        """
        return self.snapshot().to_json()

    def record(self) -> dict[str, Any]:
        """The game record: rules, deal (or starting position) and the moves played, as JSON."""
        record: dict[str, Any] = {"format": RECORD_FORMAT, "version": 1, "rules": self._rules.to_json()}
        if self._deal is not None:
            record["deal"] = self._deal
            if self._seed is not None:
                record["seed"] = self._seed
        else:
            record["position"] = self._start.to_json()
        record["moves"] = [str(m) for m in self.history]
        return record
