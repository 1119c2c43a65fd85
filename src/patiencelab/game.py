"""One game of Klondike: the position, its history with unlimited undo/redo, the score, the clock and listeners.

Internally cards are small integers (``suit * 13 + rank - 1``) in plain lists, so that legal-move generation,
play and undo are cheap; the public reads return :class:`~patiencelab.cards.Card` values and tuples.
"""

from __future__ import annotations

import random
import time
import warnings
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Literal

from patiencelab.cards import RANKS, Card, Suit, full_deck
from patiencelab.errors import (
    IllegalMoveError,
    InvalidMoveError,
    InvalidPositionError,
    InvalidRecordError,
    PatienceError,
)
from patiencelab.i18n import message
from patiencelab.moves import DRAW, RECYCLE, Move
from patiencelab.position import Column, Position, deal_position, parse_deal, seeded_deal
from patiencelab.rules import Rules

__all__ = ["RECORD_FORMAT", "Klondike", "Status"]

Status = Literal["playing", "won", "stuck"]
Listener = Callable[["Klondike"], None]

RECORD_FORMAT = "patiencelab-game"

_DECK = full_deck()
_RANK = [c.rank for c in _DECK]
_RED = [c.is_red for c in _DECK]
_SUITS = tuple(Suit)
_ID = {card: card.index for card in _DECK}

# Undo entries: (move, count, flipped, score_before, card). ``count`` is the number of cards moved or drawn (for
# a recycle, the size of the waste); ``flipped`` is True when the move turned a face-down card up; ``card`` is
# the first card moved (-1 for draws and recycles).
_Entry = tuple[Move, int, bool, int, int]


def _place_index(place: str) -> int:
    """``t3`` -> 2, ``fH`` -> 2 (the suit's index)."""
    return int(place[1]) - 1 if place[0] == "t" else "CDHS".index(place[1])


_MOVES: dict[tuple[str, str], Move] = {}


def _move(source: str, target: str) -> Move:
    """The shared place-form move ``source-target``."""
    key = (source, target)
    move = _MOVES.get(key)
    if move is None:
        move = _MOVES[key] = Move(source, target)
    return move


def _col(i: int) -> str:
    return f"t{i + 1}"


# Shared place-form moves, indexed by column (and suit) numbers, for fast move generation.
_WON = [13, 13, 13, 13]
_W_F = _move("w", "f")
_W_T = [_move("w", _col(j)) for j in range(9)]
_T_F = [_move(_col(i), "f") for i in range(9)]
_T_T = [[_move(_col(i), _col(j)) if i != j else DRAW for j in range(9)] for i in range(9)]
_F_T = [[_move("f" + suit.value, _col(j)) for j in range(9)] for suit in _SUITS]


class Klondike:
    """One game of Klondike under some :class:`~patiencelab.rules.Rules`.

    >>> game = Klondike(seed=7)
    >>> game.play("d")
    Move.parse('d')
    >>> game.moves, game.can_undo
    (1, True)
    """

    __slots__ = (
        "_clock",
        "_deal",
        "_down",
        "_found",
        "_lang",
        "_listeners",
        "_recycles",
        "_redo",
        "_rules",
        "_score",
        "_seed",
        "_start",
        "_stock",
        "_t0",
        "_t_end",
        "_undo",
        "_up",
        "_waste",
    )

    def __init__(
        self,
        *,
        seed: int | None = None,
        deal: str | None = None,
        rules: Rules | None = None,
        clock: Callable[[], float] | None = None,
        lang: str = "en",
    ) -> None:
        rules = Rules() if rules is None else rules
        if not isinstance(rules, Rules):
            raise PatienceError(f"rules must be a Rules, not {type(rules).__name__}")
        if seed is not None and deal is not None:
            raise PatienceError("give a seed or a deal, not both")
        if deal is not None:
            cards = parse_deal(deal)
        else:
            if seed is None:
                seed = random.SystemRandom().randrange(1 << 31)
            cards = seeded_deal(seed)
        self._seed = seed
        self._deal: str | None = "".join(map(str, cards))
        self._setup(deal_position(cards, rules), rules, clock, lang)

    # ----------------------------------------------------------------------------------------------- making

    def _setup(self, start: Position, rules: Rules, clock: Callable[[], float] | None, lang: str) -> None:
        self._rules = rules
        self._start = start
        self._clock: Callable[[], float] = clock or time.monotonic
        self._lang = lang
        self._listeners: list[Listener] = []
        self._load(start)

    def _load(self, position: Position) -> None:
        self._down = [[_ID[c] for c in col.down] for col in position.tableau]
        self._up = [[_ID[c] for c in col.up] for col in position.tableau]
        self._stock = [_ID[c] for c in reversed(position.stock)]
        self._waste = [_ID[c] for c in position.waste]
        self._found = [position.foundations.get(s, 0) for s in _SUITS]
        self._recycles = position.recycles
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
        lang: str = "en",
    ) -> Klondike:
        """A game that starts from ``position`` (the JSON form of DESIGN.md, or a :class:`Position`)."""
        rules = Rules() if rules is None else rules
        if not isinstance(rules, Rules):
            raise PatienceError(f"rules must be a Rules, not {type(rules).__name__}")
        if isinstance(position, Position):
            position.check()
            if len(position.tableau) != rules.columns:
                raise InvalidPositionError(
                    f"the position has {len(position.tableau)} columns; the rules have {rules.columns}"
                )
        else:
            position = Position.from_json(position, columns=rules.columns)
        game = cls.__new__(cls)
        game._seed = None
        game._deal = None
        game._setup(position, rules, clock, lang)
        return game

    @classmethod
    def from_record(cls, record: Mapping[str, Any], *, clock: Callable[[], float] | None = None) -> Klondike:
        """Replay a game record (the JSON of :meth:`record`); :class:`InvalidRecordError` says what is wrong."""
        if not isinstance(record, Mapping):
            raise InvalidRecordError(f"a game record must be an object, not {type(record).__name__}")
        if record.get("format") != RECORD_FORMAT:
            raise InvalidRecordError(f"not a game record: 'format' must be {RECORD_FORMAT!r}")
        if record.get("version") != 1:
            raise InvalidRecordError(f"unsupported game record version {record.get('version')!r} (this reads 1)")
        unknown = sorted(set(map(str, record)) - {"format", "version", "rules", "deal", "position", "seed", "moves"})
        if unknown:
            raise InvalidRecordError(f"unknown game record field(s): {', '.join(unknown)}")
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
                    if not isinstance(seed, int) or "".join(map(str, seeded_deal(seed))) != game._deal:
                        raise InvalidRecordError(f"the seed {seed!r} does not give the record's deal")
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
                raise InvalidRecordError(f"move {number} ({text!r}) cannot be played: {exc}") from None
        return game

    def copy(self) -> Klondike:
        """An independent copy with the same position, history, score and clock (listeners are not copied)."""
        other = Klondike.__new__(Klondike)
        for name in self.__slots__:
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
    def rules(self) -> Rules:
        """The rule set of this game."""
        return self._rules

    @property
    def seed(self) -> int | None:
        """The seed the deal came from, or ``None`` for a given deal or position."""
        return self._seed

    @property
    def deal(self) -> str | None:
        """The deal as 104 characters in dealing order, or ``None`` for a game made from a position."""
        return self._deal

    @property
    def lang(self) -> str:
        """The language of reasons and messages."""
        return self._lang

    @property
    def tableau(self) -> tuple[Column, ...]:
        """The columns, left to right; each has ``down`` and ``up`` tuples of cards, bottom first."""
        return tuple(
            Column(tuple(_DECK[c] for c in d), tuple(_DECK[c] for c in u)) for d, u in zip(self._down, self._up)
        )

    @property
    def stock(self) -> tuple[Card, ...]:
        """The stock in draw order (the next card first)."""
        return tuple(_DECK[c] for c in reversed(self._stock))

    @property
    def waste(self) -> tuple[Card, ...]:
        """The waste, bottom first: its playable card is the last."""
        return tuple(_DECK[c] for c in self._waste)

    @property
    def foundations(self) -> dict[Suit, int]:
        """How many cards each suit has on its foundation (Ace up to that rank)."""
        return dict(zip(_SUITS, self._found))

    @property
    def recycles(self) -> int:
        """How many times the waste was turned over into the stock."""
        return self._recycles

    @property
    def passes_left(self) -> int | None:
        """Passes through the stock still allowed after this one (``None``: unlimited)."""
        limit = self._rules.max_passes
        return None if limit is None else max(0, limit - 1 - self._recycles)

    @property
    def moves(self) -> int:
        """The number of actions (draws and recycles included) on the path from the start to now."""
        return len(self._undo)

    @property
    def history(self) -> tuple[Move, ...]:
        """The actions on the path from the start to now, in place form."""
        return tuple(entry[0] for entry in self._undo)

    @property
    def can_undo(self) -> bool:
        """True when there is an action to undo."""
        return bool(self._undo)

    @property
    def can_redo(self) -> bool:
        """True when an undone action can be played again."""
        return bool(self._redo)

    @property
    def is_won(self) -> bool:
        """True when all 52 cards are on the foundations."""
        return self._found == _WON

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
    def is_stuck(self) -> bool:
        """True when the game is not won, no move but draws and recycles is legal, and going through the stock
        within the passes left would make none legal either.
        """
        if self.is_won:
            return False
        if any(not (m.is_draw or m.is_recycle) for m in self.legal_moves()):
            return False
        return not any(self._card_fits_anywhere(card) for card in self._stock_reachable())

    def _stock_reachable(self) -> set[int]:
        """Every card that some number of draws (and recycles within the passes left) would put on top of the
        waste, with nothing played meanwhile.
        """
        stock, waste, draw = list(self._stock), list(self._waste), self._rules.draw
        left = self.passes_left
        reachable: set[int] = set()
        recycled = False
        while True:
            while stock:
                for _ in range(min(draw, len(stock))):
                    waste.append(stock.pop())
                reachable.add(waste[-1])
            if recycled or not waste or left == 0:
                return reachable
            stock, waste, recycled = waste[::-1], [], True

    def _card_fits_anywhere(self, card: int) -> bool:
        if self._found[card // 13] == _RANK[card] - 1:
            return True
        return any(self._fits(card, j) for j in range(len(self._up)))

    def _fits(self, card: int, column: int) -> bool:
        """True when ``card`` (leading a run) may be put on ``column``."""
        up = self._up[column]
        if not up:
            return _RANK[card] == 13 or self._rules.empty_column == "any"
        top = up[-1]
        return _RANK[top] == _RANK[card] + 1 and _RED[top] != _RED[card]

    def legal_moves(self) -> list[Move]:
        """Every legal action, in place form: waste moves, column moves, foundation returns, then draw or
        recycle. Pointless moves (a King between empty columns) are included.
        """
        found = self._found
        if found == _WON:
            return []
        ups = self._up
        any_on_empty = self._rules.empty_column != "king"
        empties = [j for j, up in enumerate(ups) if not up]
        # (column, the rank a run must lead with to go there, whether its top is red)
        fronts = [(j, _RANK[up[-1]] - 1, _RED[up[-1]]) for j, up in enumerate(ups) if up]
        result: list[Move] = []
        append = result.append
        if self._waste:
            card = self._waste[-1]
            rank, red = _RANK[card], _RED[card]
            if found[card // 13] == rank - 1:
                append(_W_F)
            for j, need, top_red in fronts:
                if need == rank and top_red != red:
                    append(_W_T[j])
            if empties and (rank == 13 or any_on_empty):
                result.extend(_W_T[j] for j in empties)
        for i, up in enumerate(ups):
            if not up:
                continue
            top = up[-1]
            if found[top // 13] == _RANK[top] - 1:
                append(_T_F[i])
            lead, length, row = _RANK[up[0]], len(up), _T_T[i]
            for j, need, top_red in fronts:
                k = lead - need  # index in the run of the card that would lead; the run's own column gives k == length
                if 0 <= k < length and _RED[up[k]] != top_red:
                    append(row[j])
            if empties and (lead == 13 or any_on_empty):
                result.extend(row[j] for j in empties)
        if self._rules.foundation_to_tableau:
            for s in range(4):
                count = found[s]
                if not count:
                    continue
                red, row = _RED[s * 13], _F_T[s]
                for j, need, top_red in fronts:
                    if need == count and top_red != red:
                        append(row[j])
                if empties and (count == 13 or any_on_empty):
                    result.extend(row[j] for j in empties)
        if self._stock:
            append(DRAW)
        elif self._waste and self.passes_left != 0:
            append(RECYCLE)
        return result

    def can_play(self, move: Move | str) -> bool:
        """True when ``move`` is legal now (text that is not a move raises :class:`InvalidMoveError`)."""
        return self.check(move) is None

    def check(self, move: Move | str) -> IllegalMoveError | None:
        """The :class:`IllegalMoveError` that playing ``move`` would raise, or ``None`` when it is legal."""
        result = self._examine(Move.parse(move))
        return result if isinstance(result, IllegalMoveError) else None

    def moving_cards(self, move: Move | str) -> tuple[Card, ...]:
        """The cards ``move`` would move, bottom first (none for a draw or recycle); raises its
        :class:`IllegalMoveError` when it is not legal.
        """
        result = self._examine(Move.parse(move))
        if isinstance(result, IllegalMoveError):
            raise result
        canonical, count = result
        source = canonical.source
        if source in ("d", "r"):
            return ()
        assert source is not None
        if source[0] == "t":
            up = self._up[int(source[1]) - 1]
            return tuple(_DECK[c] for c in up[len(up) - count :])
        return (_DECK[self._source_top(source)],)

    @property
    def can_autocomplete(self) -> bool:
        """True when every tableau card is face up and playing cards to the foundations (drawing as needed,
        within the passes left) wins the game.
        """
        if self.is_won or any(self._down):
            return False
        return self._autocomplete_path() is not None

    def _autocomplete_path(self) -> list[tuple[Move, int]] | None:
        trial = self.copy()
        path: list[tuple[Move, int]] = []
        limit = 52 * (len(self._stock) + len(self._waste) + 2)
        while not trial.is_won and len(path) < limit:
            step = trial._foundation_step()
            if step is None:
                return None
            trial._apply(*step)
            path.append(step)
        return path if trial.is_won else None

    def _foundation_step(self) -> tuple[Move, int] | None:
        """A move to a foundation if one is legal, else a draw or recycle, else ``None``."""
        fallback: tuple[Move, int] | None = None
        for move in self.legal_moves():
            if move.target == "f":
                return move, 1
            if move.is_draw:
                fallback = (move, min(self._rules.draw, len(self._stock)))
            elif move.is_recycle:
                fallback = (move, len(self._waste))
        return fallback

    def autocomplete(self) -> list[Move]:
        """Play the game out to the foundations when :attr:`can_autocomplete`; returns the moves played.

        Raises :class:`PatienceError` (and changes nothing) when the rest is not trivially won.
        """
        path = self._autocomplete_path() if not self.is_won and not any(self._down) else None
        if path is None:
            raise PatienceError("autocomplete needs every tableau card face up and a game that plays out")
        for move, count in path:
            self._apply(move, count)
        self._redo.clear()
        self._notify()
        return [move for move, _ in path]

    def hint(self) -> Move | None:
        """A good next move, or ``None`` when no move is legal.

        The heuristic prefers moves that turn a face-down card, then moves to a foundation, then waste plays,
        then a draw; it never suggests a pointless back-and-forth (a King between empty columns, a run moved
        between columns without uncovering anything, a card taken back from a foundation).
        """
        best: tuple[int, Move] | None = None
        for move in self.legal_moves():
            rank = self._hint_rank(move)
            if rank is not None and (best is None or rank < best[0]):
                best = (rank, move)
        return best[1] if best else None

    def _hint_rank(self, move: Move) -> int | None:
        source, target = move.source, move.target
        if source == "d" or source == "r":
            return 5
        assert source is not None and target is not None
        if source[0] == "f":
            return None
        if source == "w":
            return 1 if target == "f" else 3
        i = int(source[1]) - 1
        count = len(self.moving_cards(move))
        exposes = count == len(self._up[i])
        if exposes and self._down[i]:
            return 0
        if target == "f":
            return 1 if count == 1 else None
        if exposes and self._waste and _RANK[self._waste[-1]] == 13:
            return 2  # empties a column for the King on the waste
        return None

    # ------------------------------------------------------------------------------------------- checking

    def _illegal(self, rule: str, key: str | None = None, **params: object) -> IllegalMoveError:
        return IllegalMoveError(rule, message(key or rule, self._lang, **params))

    def _check_place(self, place: str | None) -> None:
        if place is None or place in ("w", "f"):
            return
        if place[0] == "t" and int(place[1]) > len(self._up):
            raise InvalidMoveError(f"there is no column {place}: these rules have {len(self._up)} columns")

    def _examine(self, move: Move) -> tuple[Move, int] | IllegalMoveError:
        """The canonical move and the number of cards it moves, or the first rule it breaks."""
        self._check_place(move.source)
        self._check_place(move.target)
        if self.is_won:
            return self._illegal("game-over")
        if move.source == "d":
            if not self._stock:
                return self._illegal("stock-empty")
            return DRAW, min(self._rules.draw, len(self._stock))
        if move.source == "r":
            if self._stock:
                return self._illegal("stock-not-empty")
            if not self._waste:
                return self._illegal("empty-source", "empty-source.waste")
            if self.passes_left == 0:
                return self._illegal("no-passes-left", passes=self._rules.max_passes)
            return RECYCLE, len(self._waste)
        located = self._locate(move)
        if isinstance(located, IllegalMoveError):
            return located
        source, index = located
        target = move.target
        assert target is not None
        if target[0] == "f":
            return self._examine_to_foundation(move, source, index, target)
        return self._examine_to_column(move, source, index, target)

    def _locate(self, move: Move) -> tuple[str, int | None] | IllegalMoveError:
        """The source place and, for a card-form move out of a column, the index of the card in its run."""
        card = move.card
        if move.source is None:
            assert card is not None
            return self._locate_card(_ID[card])
        source = move.source
        if source == "w":
            if not self._waste:
                return self._illegal("empty-source", "empty-source.waste")
        elif source[0] == "t":
            if not self._up[int(source[1]) - 1]:
                return self._illegal("empty-source", "empty-source.column", place=source)
        else:
            suit = Suit(source[1])
            if not self._found[suit.index]:
                return self._illegal("empty-source", "empty-source.foundation", suit=self._suit_name(suit))
            if not self._rules.foundation_to_tableau:
                top = Card(self._found[suit.index], suit)
                return self._illegal("foundation-return-off", card=top.symbol)
        return source, None

    def _locate_card(self, card: int) -> tuple[str, int | None] | IllegalMoveError:
        symbol = _DECK[card].symbol
        for i, up in enumerate(self._up):
            if card in up:
                return _col(i), up.index(card)
        if any(card in down for down in self._down) or card in self._stock:
            return self._illegal("face-down", card=symbol)
        if card in self._waste:
            if self._waste[-1] != card:
                return self._illegal("waste-top-only", card=symbol, top=_DECK[self._waste[-1]].symbol)
            return "w", None
        suit = card // 13
        top = Card(self._found[suit], _SUITS[suit])
        if top.index != card:
            return self._illegal("foundation-top-only", card=symbol, top=top.symbol)
        if not self._rules.foundation_to_tableau:
            return self._illegal("foundation-return-off", card=symbol)
        return "f" + _SUITS[suit].value, None

    def _source_top(self, source: str) -> int:
        if source == "w":
            return self._waste[-1]
        if source[0] == "t":
            return self._up[int(source[1]) - 1][-1]
        suit = "CDHS".index(source[1])
        return suit * 13 + self._found[suit] - 1

    def _examine_to_foundation(
        self, move: Move, source: str, index: int | None, target: str
    ) -> tuple[Move, int] | IllegalMoveError:
        if index is not None:
            up = self._up[int(source[1]) - 1]
            if index < len(up) - 1:
                return self._illegal("one-card-to-foundation", card=_DECK[up[index]].symbol, count=len(up) - 1 - index)
        card = self._source_top(source)
        suit = card // 13
        if target != "f" and target[1] != _SUITS[suit].value:
            return self._illegal(
                "foundation-suit",
                card=_DECK[card].symbol,
                suit=self._suit_name(_SUITS[suit]),
                target=self._suit_name(Suit(target[1])),
            )
        have = self._found[suit]
        if have != _RANK[card] - 1:
            params = {"card": _DECK[card].symbol, "foundation": self._suit_name(_SUITS[suit])}
            if have == 13:
                return self._illegal("foundation-order", "foundation-order.full", **params)
            return self._illegal("foundation-order", need=Card(have + 1, _SUITS[suit]).symbol, **params)
        return _move(source, "f"), 1

    def _examine_to_column(
        self, move: Move, source: str, index: int | None, target: str
    ) -> tuple[Move, int] | IllegalMoveError:
        column = int(target[1]) - 1
        dest = self._up[column]
        if source[0] == "t":
            if source == target:
                raise InvalidMoveError(f"the {_DECK[self._up[column][index or 0]].symbol} is already in {target}")
            up = self._up[int(source[1]) - 1]
            if index is None:
                index = self._implied_run(up, dest)
            count = len(up) - index
            card = up[index]
        else:
            card = self._source_top(source)
            count = 1
        symbol = _DECK[card].symbol
        if not dest:
            if self._rules.empty_column == "king" and _RANK[card] != 13:
                return self._illegal("king-on-empty", card=symbol, place=target)
        else:
            top = dest[-1]
            top_card = _DECK[top]
            if _RANK[top] != _RANK[card] + 1:
                need = RANKS[_RANK[card]] if _RANK[card] < 13 else "-"
                return self._illegal("one-lower", card=symbol, top=top_card.symbol, need=need)
            if _RED[top] == _RED[card]:
                color = self._color_name(_RED[top])
                other = self._color_name(not _RED[top])
                return self._illegal(
                    "alternate-colors",
                    card=symbol,
                    top=top_card.symbol,
                    color=color,
                    other=other,
                    rank=top_card.symbol[:-1],
                )
        return _move(source, target), count

    def _implied_run(self, up: list[int], dest: list[int]) -> int:
        """Index of the card that leads the run ``tA-tB`` moves: one rank below B's top (a King on an empty
        column); the whole face-up run when there is no such card.
        """
        want = _RANK[dest[-1]] - 1 if dest else 13
        k = _RANK[up[0]] - want
        if 0 <= k < len(up):
            return k
        return 0

    def _suit_name(self, suit: Suit) -> str:
        return message(f"suit.{suit.value}", self._lang)

    def _color_name(self, red: bool) -> str:
        return message("color.red" if red else "color.black", self._lang)

    # ------------------------------------------------------------------------------------------- changing

    def play(self, move: Move | str) -> Move:
        """Play ``move`` (a :class:`Move` or its notation) and return it in place form.

        Raises :class:`InvalidMoveError` for text that is not a move and :class:`IllegalMoveError` for a move the
        rules forbid; either way the game is unchanged.
        """
        played = self._play(Move.parse(move))
        self._notify()
        return played

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
        score = self._score
        table = self._rules.scoring
        source, target = move.source, move.target
        flipped = False
        gain = 0
        first = -1
        if source == "d":
            stock, waste = self._stock, self._waste
            for _ in range(count):
                waste.append(stock.pop())
        elif source == "r":
            self._stock = self._waste[::-1]
            self._waste = []
            self._recycles += 1
            gain = table.recycle_points(self._rules.draw, self._recycles)
        else:
            assert source is not None and target is not None
            if source == "w":
                cards = [self._waste.pop()]
                gain = table.waste_to_tableau if target[0] == "t" else 0
            elif source[0] == "t":
                i = int(source[1]) - 1
                up = self._up[i]
                cards = up[len(up) - count :]
                del up[len(up) - count :]
                if not up and self._down[i]:
                    up.append(self._down[i].pop())
                    flipped = True
                    gain = table.turn_up
            else:
                suit = "CDHS".index(source[1])
                cards = [suit * 13 + self._found[suit] - 1]
                self._found[suit] -= 1
                gain = table.foundation_to_tableau
            first = cards[0]
            if target[0] == "f":
                self._found[first // 13] += 1
                gain += table.to_foundation
            else:
                self._up[int(target[1]) - 1].extend(cards)
        new = score + gain
        if table.floor is not None and new < table.floor:
            new = table.floor
        self._score = new
        self._undo.append((move, count, flipped, score, first))
        if self._t_end is None and self._found == _WON:
            self._t_end = self._clock()

    def undo(self) -> Move:
        """Take back the last action (score included) and return it."""
        if not self._undo:
            raise PatienceError("there is nothing to undo")
        move = self._unapply()
        self._notify()
        return move

    def _unapply(self) -> Move:
        move, count, flipped, score, first = self._undo.pop()
        source, target = move.source, move.target
        if source == "d":
            stock, waste = self._stock, self._waste
            for _ in range(count):
                stock.append(waste.pop())
        elif source == "r":
            self._waste = self._stock[::-1]
            self._stock = []
            self._recycles -= 1
        else:
            assert source is not None and target is not None
            if target[0] == "f":
                self._found[first // 13] -= 1
                cards = [first]
            else:
                dest = self._up[int(target[1]) - 1]
                cards = dest[len(dest) - count :]
                del dest[len(dest) - count :]
            if source == "w":
                self._waste.append(cards[0])
            elif source[0] == "t":
                i = int(source[1]) - 1
                if flipped:
                    self._down[i].append(self._up[i].pop())
                self._up[i].extend(cards)
            else:
                self._found["CDHS".index(source[1])] += 1
        self._score = score
        self._redo.append((move, count))
        if self._t_end is not None and self._found != _WON:
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
        self._notify()
        return move

    def reset(self) -> None:
        """Go back to the start (the deal or the starting position); history, score and clock start again."""
        self._load(self._start)
        self._notify()

    # --------------------------------------------------------------------------------------------- listen

    def on_change(self, callback: Listener) -> Callable[[], None]:
        """Call ``callback(game)`` after every change; returns a function that removes it."""
        if not callable(callback):
            raise PatienceError("on_change needs a callable")
        self._listeners.append(callback)

        def remove() -> None:
            if callback in self._listeners:
                self._listeners.remove(callback)

        return remove

    def _notify(self) -> None:
        for callback in list(self._listeners):
            try:
                callback(self)
            except Exception as exc:
                warnings.warn(f"a Klondike listener raised {exc!r}", RuntimeWarning, stacklevel=3)

    # ---------------------------------------------------------------------------------------------- forms

    def snapshot(self) -> Position:
        """The current position as an immutable :class:`Position`."""
        return Position(self.tableau, self.stock, self.waste, self.foundations, self._recycles)

    def position(self) -> dict[str, Any]:
        """The current position in the JSON form of DESIGN.md."""
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

    def view(self, *, reveal: bool = False) -> dict[str, Any]:
        """The public view the widget syncs: face-down cards as ``None`` unless ``reveal`` is true."""

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
