"""One game of Klondike: the table (see :mod:`patiencelab.core.table`) with its history, unlimited undo/redo, the
score, the clock and listeners.
"""

from __future__ import annotations

import math
import random
import time
import warnings
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final, Literal, cast, final

from patiencelab.core.cards import RANKS, Card, Suit, full_deck
from patiencelab.core.errors import (
    ArgumentTypeError,
    IllegalMoveError,
    InvalidRecordError,
    PatienceError,
    quote,
    unknown_fields,
)
from patiencelab.core.i18n import check_language
from patiencelab.core.kernel import (
    SUIT_LETTERS,
    WON,
    draw_cards,
    lift_top,
    move_run,
    recycle_waste,
    undraw_cards,
    unlift_top,
    unmove_run,
    unrecycle_waste,
)
from patiencelab.core.limits import check_instance, check_seed, check_switch
from patiencelab.core.moves import DRAW, RECYCLE, Move
from patiencelab.core.position import Position, deal_position, parse_deal, seeded_deal
from patiencelab.core.rules import Rules
from patiencelab.core.table import TABLE_FIELDS, Table
from patiencelab.core.view import ColumnView, PlayerView

if TYPE_CHECKING:
    from patiencelab.players import Chances, Player
    from patiencelab.review import Review
    from patiencelab.solver.search import Solution

__all__ = ["RECORD_FORMAT", "Change", "Klondike", "Played", "Status"]

_DECK: Final = full_deck()  # card ints (the kernel's numbering) to cards
_SUITS: Final = tuple(Suit)

#: Where a game stands: still ``playing``, ``won``, or ``stuck`` (no move but draws and recycles is legal, and the
#: player can tell that none will ever be: see :attr:`~patiencelab.core.table.Table.is_stuck`).
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


@dataclass(frozen=True, slots=True)
class Change:
    """What one call changed in a game, handed to its listeners (:meth:`Klondike.on_change`).

    ``kind`` is ``play`` (one move, or several for an autocompletion), ``undo``, ``redo`` or ``reset``;
    ``played`` holds the actions played or taken back, in the order they happened (none for a reset).
    """

    game: Klondike
    kind: Literal["play", "undo", "redo", "reset"]
    played: tuple[Played, ...]

    @property
    def last(self) -> Played | None:
        """The single action of this change, or ``None`` for a reset or several actions at once."""
        return self.played[0] if len(self.played) == 1 else None


Listener = Callable[[Change], None]

#: The ``format`` field of a game record (:meth:`Klondike.record`).
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


class Klondike(Table):
    """One game of Klondike under some :class:`~patiencelab.core.rules.Rules`.

    >>> game = Klondike(seed=7)
    >>> game.play("d")
    Move.parse('d')
    >>> game.moves, game.can_undo
    (1, True)
    """

    __slots__ = _FIELDS

    def __new__(cls, *args: Any, **kwargs: Any) -> Klondike:
        """A blank game, for :meth:`__init__` to fill, or :meth:`from_position` and :meth:`copy` (defined, not
        inherited, so that compiled code can call it without :meth:`__init__`).

        It first checks the arguments whose type compiled code checks on the way into :meth:`__init__` (and would
        refuse with a ``TypeError``), with the checkers of :mod:`patiencelab.core.limits`, so that a wrong one is
        the same :class:`PatienceError` in either build.
        """
        if args:
            raise ArgumentTypeError(
                f"Klondike takes keyword arguments only (seed=..., deal=..., rules=...), not {quote(args[0])}"
            )
        seed, deal, rules = kwargs.get("seed"), kwargs.get("deal"), kwargs.get("rules")
        if seed is not None:
            check_seed(seed)
        if deal is not None and not isinstance(deal, str):
            parse_deal(deal)  # says what is wrong
        if rules is not None:
            check_instance(rules, "rules", Rules)
        _check_clock(kwargs.get("clock"))
        check_language(kwargs.get("lang", "en"))
        check_switch(kwargs.get("solvable", False), "solvable")
        return super().__new__(cls)

    def __init__(
        self,
        *,
        seed: int | None = None,
        deal: str | None = None,
        rules: Rules | None = None,
        clock: Callable[[], float] | None = None,
        lang: str = "en",
        solvable: bool = False,
    ) -> None:
        rules = Rules() if rules is None else rules
        if seed is not None and deal is not None:
            raise PatienceError("give a seed or a deal, not both")
        if solvable and deal is not None:
            raise PatienceError("solvable=True picks a seed; it cannot be used with a deal")
        if deal is not None:
            cards = parse_deal(deal)
        else:
            if seed is None:
                seed = random.SystemRandom().randrange(1 << 31)
            if solvable:
                from patiencelab.solver.seeds import find_solvable_seed

                seed = find_solvable_seed(seed, rules)
            cards = seeded_deal(seed)
        self._seed = seed
        self._deal: str | None = "".join(map(str, cards))
        self._setup(deal_position(cards, rules), rules, clock, lang)

    # ----------------------------------------------------------------------------------------------- making

    def _setup(self, start: Position, rules: Rules, clock: Callable[[], float] | None, lang: str) -> None:
        self._rules = rules
        self._start = start
        self._clock: Callable[[], float] = _check_clock(clock) or time.monotonic
        self._lang = check_language(lang)
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
        self._t_end: float | None = self._t0 if self.is_won else None

    @classmethod
    def from_position(
        cls,
        position: Mapping[str, Any] | Position,
        *,
        rules: Rules | None = None,
        clock: Callable[[], float] | None = None,
        lang: object = "en",
    ) -> Klondike:
        """A game that starts from ``position`` (the JSON form of docs/script.md, or a :class:`Position`):
        :class:`InvalidPositionError` says what is wrong with it, its recycles beyond the rules' pass limit too.
        The player knows the stock cards the position says were seen (``stock_seen``, none by default) and
        the others once they are drawn in this game (see :meth:`player_view`).

        ``lang`` is typed ``object`` because it is checked here (a :class:`PatienceError` names the choices): a
        compiled function would refuse a value of the wrong type with a ``TypeError`` before any check of ours.
        """
        rules = check_instance(Rules() if rules is None else rules, "rules", Rules)
        if not isinstance(position, Position):
            position = Position.from_json(position, columns=rules.columns)
        position.check(rules)
        game = cls.__new__(cls)
        game._seed = None
        game._deal = None
        game._setup(position, rules, clock, check_language(lang))
        return game

    @classmethod
    def from_record(cls, record: Mapping[str, Any], *, clock: Callable[[], float] | None = None) -> Klondike:
        """Replay a game record (the JSON of :meth:`record`); :class:`InvalidRecordError` says what is wrong."""
        if not isinstance(record, Mapping):
            raise InvalidRecordError(f"a game record must be an object, not {type(record).__name__}")
        if record.get("format") != RECORD_FORMAT:
            raise InvalidRecordError(f"not a game record: 'format' must be {RECORD_FORMAT!r}")
        version = record.get("version")
        if not isinstance(version, int) or isinstance(version, bool) or version != 1:
            raise InvalidRecordError(f"unsupported game record version {quote(version)} (this reads 1)")
        unknown = unknown_fields(record, ("format", "version", "rules", "deal", "position", "seed", "moves"))
        if unknown:
            raise InvalidRecordError(f"unknown game record field(s): {unknown}")
        moves = record.get("moves", [])
        if not isinstance(moves, list) or not all(isinstance(m, str) for m in moves):
            raise InvalidRecordError("'moves' must be a list of moves in notation, such as ['d', 'w-t3']")
        try:
            rules = Rules.from_json(record.get("rules", {}))
            if ("deal" in record) == ("position" in record):
                raise InvalidRecordError("a game record holds either 'deal' or 'position'")
            if "deal" in record:
                game = cls(deal=record["deal"], rules=rules, clock=clock)
                seed = record.get("seed")
                if seed is not None:
                    check_seed(seed, "the record's seed", InvalidRecordError)
                    if "".join(map(str, seeded_deal(seed))) != game._deal:
                        raise InvalidRecordError(f"the seed {quote(seed)} does not give the record's deal")
                    game._seed = seed
            else:
                game = cls.from_position(record["position"], rules=rules, clock=clock)
        except InvalidRecordError:
            raise
        except PatienceError as exc:
            raise InvalidRecordError(f"game record: {exc}") from None
        for number, text in enumerate(moves, 1):
            try:
                game._play(Move.parse(text))
            except PatienceError as exc:
                raise InvalidRecordError(f"move {number} ({quote(text)}) cannot be played: {exc}") from None
        return game

    def copy(self) -> Klondike:
        """An independent copy with the same position, history, score and clock (listeners are not copied)."""
        other = Klondike.__new__(Klondike)
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
        return other

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
    def status(self) -> Status:
        """``won``, ``stuck`` (see :attr:`is_stuck`) or ``playing``."""
        if self.is_won:
            return "won"
        return "stuck" if self.is_stuck else "playing"

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
        if self.is_won or any(self._down):
            return None
        if self._stock and not (self._rules.draw == 1 and self._rules.max_passes is None):
            return None  # whether it plays out depends on the order of the face-down stock
        probe = self.copy()
        moves: list[Move] = []
        idle = 0  # actions since a card last went home
        while not probe.is_won:
            move = next((m for m in probe.legal_moves() if m.target is not None and m.target[0] == "f"), None)
            if move is not None:
                idle = 0
            elif idle > len(probe._stock) + len(probe._waste):
                return None  # a whole cycle of draws and its recycle went by with no card home
            elif probe._stock or (probe._waste and probe.passes_left != 0):
                move = DRAW if probe._stock else RECYCLE
                idle += 1
            else:
                return None
            moves.append(probe._play(move))
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

    def explain(self, move: Move | str) -> str:
        """What ``move`` does and which rule allows it, in one or two sentences in the game's language; for an
        illegal move, which rule forbids it. A face-down card it uncovers is not named.
        """
        from patiencelab.core.narration import explain

        return explain(self, move)

    def hint(
        self, *, peek: Any = False, samples: Any = 16, max_states: Any = 2_000, seconds: Any = math.inf
    ) -> Move | None:
        """A good next move from what a player can see, or ``None`` when no move is legal.

        By default the fair player (:class:`patiencelab.players.NoPeek`) picks it from :meth:`player_view`: the
        move that keeps the most sampled deals (the unseen cards dealt at random) winnable, ties broken by the
        hint order of :mod:`patiencelab.hints`; it solves ``samples`` such deals. ``peek=True`` gives the oracle's
        hint instead, which knows every face-down card: a move that keeps this very deal winnable. Each solver
        call searches at most ``max_states`` positions, so every machine gives the same hint.
        """
        from patiencelab.hints import find_fair_hint, find_hint

        if check_switch(peek, "peek"):
            hint = find_hint(self, max_states=max_states, seconds=seconds)
        else:
            hint = find_fair_hint(self, samples=samples, max_states=max_states, seconds=seconds)
        return hint.move if hint is not None else None

    def player_view(self) -> PlayerView:
        """What a player can know here (see :mod:`patiencelab.core.view`): nothing derived from face-down cards,
        and of the stock only the cards seen in this game (see :meth:`_seen_stock`).
        """
        found = self._found
        seen = self._seen_stock()
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

    def chances(self, *, samples: Any = 32, max_states: Any = 10_000, seed: Any = 0) -> Chances:
        """The share of the deals consistent with :meth:`player_view` that can still be won, from ``samples``
        random deals of the unseen cards, each decided by the solver within ``max_states`` positions (see
        :func:`patiencelab.players.sampling`). Deterministic for a ``seed``; fair: it reads only the view.
        """
        from patiencelab.players import chances

        return chances(self.player_view(), samples=samples, max_states=max_states, seed=seed)

    def play_out(self, player: Player | Callable[[PlayerView], Move], *, max_moves: Any = 1_000) -> Status:
        """Let ``player`` (see :mod:`patiencelab.players`) play this game from here until it is won, no move is
        left or ``max_moves`` moves were played (a cap against endless cycles); returns the :attr:`status`.
        """
        from patiencelab.players import play_out

        return play_out(self, player, max_moves=max_moves)

    def is_winnable(self, *, seconds: Any = 10.0, max_states: Any = None) -> bool | None:
        """Whether the game can still be won from here, knowing every face-down card: ``True`` or ``False`` when
        the solver decides it within ``seconds`` (or ``max_states`` positions), ``None`` when it cannot tell.
        """
        from patiencelab.solver.search import solve

        outcome = solve(self, seconds=seconds, max_states=max_states).outcome
        return None if outcome == "unknown" else outcome == "solved"

    def review(
        self,
        *,
        max_states: Any = 200_000,
        seconds: Any = math.inf,
        samples: Any = 32,  # patiencelab.review.REVIEW_SAMPLES (not imported here: the core comes first)
        sample_states: Any = "rules",
        seed: Any = 0,
        progress: Any = False,
        cancel: Any = None,
    ) -> Review:
        """Review the game so far (see :mod:`patiencelab.review`): the player's chances at every position, from what
        they could see there (``samples`` deals of the unseen cards each, solved within ``sample_states``
        positions, by default as many as the rules need), the moves that lowered them told from bad luck, and the
        solver's second opinion (it knows the face-down cards): the first move after which this deal could no
        longer be won, in about log2(moves) calls of at most ``max_states`` positions. ``progress=True`` shows a
        progress bar; ``cancel``, a :class:`threading.Event`, stops it. The game is not changed.
        """
        from patiencelab.review import review

        return review(
            self,
            max_states=max_states,
            seconds=seconds,
            samples=samples,
            sample_states=sample_states,
            seed=seed,
            progress=progress,
            cancel=cancel,
        )

    def solve(self, *, seconds: Any = 10.0, max_states: Any = None) -> Solution:
        """Search for a win from the current position (see :func:`patiencelab.solver.solve`)."""
        from patiencelab.solver.search import solve

        return solve(self, seconds=seconds, max_states=max_states)

    def deal_string(self, format: Any = "patiencelab") -> str:
        """The deal in another tool's notation: ``patiencelab`` (104 characters), ``klondike-solver`` (156 digits)
        or ``solvitaire`` (JSON). Games made from a position have no deal.
        """
        from patiencelab.interop import to_deal_string

        if self._deal is None:
            raise PatienceError("a game made from a position has no deal string")
        return to_deal_string(parse_deal(self._deal), format, face_down=self._rules.face_down)

    @classmethod
    def from_deal_string(
        cls, text: object, *, format: object = "patiencelab", rules: Rules | None = None, lang: object = "en"
    ) -> Klondike:
        """A game dealt from a deal string in ``format`` (see :meth:`deal_string`). The arguments are typed
        ``object`` because they are checked (see :meth:`from_position`).
        """
        from patiencelab.interop import from_deal_string

        # Passed on as Any: a cast to a narrower type is itself checked in compiled code.
        cards = from_deal_string(cast(Any, text), cast(Any, format))  # it checks both
        return cls(deal="".join(map(str, cards)), rules=rules, lang=cast(Any, lang))  # __new__ checks lang

    # ------------------------------------------------------------------------------------------- changing

    def play(self, move: Move | str) -> Move:
        """Play ``move`` (a :class:`Move` or its notation) and return it in place form.

        Raises :class:`InvalidMoveError` for text that is not a move and :class:`IllegalMoveError` for a move the
        rules forbid; either way the game is unchanged.
        """
        played = self._play(Move.parse(move))
        if self._listeners:
            self._notify("play", (self._played_last(),))
        return played

    def parse_move(self, text: Move | str) -> Move:
        """The move ``text`` names in this position, resolved: a card-form move (``5H-t5``) becomes the place
        form the game plays (``t2-t5``), or keeps its card where only the card says which part of a run moves.

        Raises :class:`InvalidMoveError` for text that is not a move and :class:`IllegalMoveError` for a move the
        rules forbid now; the game is unchanged either way.
        """
        result = self._examine(Move.parse(text))
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
        result = self._examine(move)
        if isinstance(result, IllegalMoveError):
            raise result
        canonical, count = result
        self._apply(canonical, count)
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
        move = self._unapply()
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
        self._apply(move, count)
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

    def _notify(self, kind: Literal["play", "undo", "redo", "reset"], played: tuple[Played, ...] = ()) -> None:
        if not self._listeners:
            return
        change = Change(self, kind, played)
        for callback in list(self._listeners):
            try:
                callback(change)
            except Exception as exc:
                warnings.warn(f"a Klondike listener raised {exc!r}", RuntimeWarning, stacklevel=3)

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

    def view(self, *, reveal: Any = False) -> dict[str, Any]:
        """The public view the widget syncs: face-down cards as ``None`` unless ``reveal`` is true."""
        check_switch(reveal, "reveal")

        def hidden(cards: Sequence[int]) -> list[str | None]:
            return [str(_DECK[c]) for c in cards] if reveal else [None] * len(cards)

        return {
            "columns": len(self._up),
            "tableau": [{"down": hidden(d), "up": [str(_DECK[c]) for c in u]} for d, u in zip(self._down, self._up)],
            "stock": hidden(self._stock[::-1]),
            "waste": [str(_DECK[c]) for c in self._waste],
            "foundations": {s.value: n for s, n in zip(_SUITS, self._found)},
            "draw": self._rules.draw,
            "recycles": self._recycles,
            "passes_left": self.passes_left,
            "score": self.score,
            "moves": self.moves,
            "status": self.status,
            "can_undo": self.can_undo,
            "can_redo": self.can_redo,
        }

    def _repr_svg_(self) -> str:
        """The board as a standalone SVG picture, shown by notebooks and static notebook renderers."""
        from patiencelab.svg import render

        return render(self)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Klondike):
            return NotImplemented
        return self._rules == other._rules and self.snapshot() == other.snapshot()

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        origin = f"seed={self._seed}" if self._seed is not None else "from a deal" if self._deal else "from a position"
        return f"<Klondike {origin}, {self.moves} moves, score {self.score}, {self.status}>"

    def __str__(self) -> str:
        def cards(ids: Sequence[int]) -> str:
            return " ".join(str(_DECK[c]) for c in ids)

        found = "  ".join(f"{s.value}:{RANKS[n - 1] + s.value if n else '--'}" for s, n in zip(_SUITS, self._found))
        waste = self._waste[-self._rules.draw :] if self._waste else []
        passes = "unlimited" if self.passes_left is None else str(self.passes_left)
        lines = [f"stock {len(self._stock):2}  waste {cards(waste) or '--'}", f"found {found}"]
        for i, (d, u) in enumerate(zip(self._down, self._up)):
            lines.append(f"t{i + 1}    " + " ".join(["##"] * len(d) + [str(_DECK[c]) for c in u]).rstrip())
        lines.append(f"score {self.score}  moves {self.moves}  passes left {passes}  {self.status}")
        return "\n".join(lines)


def _check_clock(clock: object) -> Callable[[], float] | None:
    """``clock`` when it is ``None`` or a function (of no arguments, returning seconds); else an error."""
    if clock is not None and not callable(clock):
        raise ArgumentTypeError(f"clock must be a function that returns seconds, or None, not {quote(clock)}")
    return cast("Callable[[], float] | None", clock)
