"""The cards on the table under a rule set: the position, legal-move generation and the rule checks.

Cards are small integers (``suit * 13 + rank - 1``) in plain lists, so that legal-move generation, checking and
applying a move are cheap; the public reads return :class:`~patiencelab.core.cards.Card` values and tuples.
:class:`~patiencelab.core.game.Klondike` adds the history, score, clock and listeners on top.
"""

from __future__ import annotations

from typing import Final

from patiencelab._modules import mypyc_attr
from patiencelab.core.cards import Card, Suit, full_deck
from patiencelab.core.errors import IllegalMoveError, InvalidMoveError
from patiencelab.core.i18n import check_language, message, rank_name
from patiencelab.core.kernel import RANK, RED, SUIT_LETTERS, WON, fits, fits_empty, goes_home, passes_left
from patiencelab.core.moves import DRAW, RECYCLE, Move
from patiencelab.core.position import Column, Position
from patiencelab.core.rules import Rules

__all__ = ["TABLE_FIELDS", "Table"]

_DECK: Final = full_deck()
_SUITS: Final = tuple(Suit)
_ID: Final = {card: card.index for card in _DECK}


def _place_index(place: str) -> int:
    """``t3`` -> 2, ``fH`` -> 2 (the suit's index)."""
    return int(place[1]) - 1 if place[0] == "t" else SUIT_LETTERS.index(place[1])


_MOVES: Final[dict[tuple[str, str], Move]] = {}


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
_W_F: Final = _move("w", "f")
_W_T: Final = [_move("w", _col(j)) for j in range(9)]
_T_F: Final = [_move(_col(i), "f") for i in range(9)]
_T_T: Final = [[_move(_col(i), _col(j)) if i != j else DRAW for j in range(9)] for i in range(9)]
_F_T: Final = [[_move("f" + suit.value, _col(j)) for j in range(9)] for suit in _SUITS]


#: The fields of a :class:`Table` (its ``__slots__``; named apart for copying, which compiled code cannot read
#: from the class).
TABLE_FIELDS: Final = ("_down", "_found", "_lang", "_legal", "_recycles", "_rules", "_stock", "_up", "_waste")


@mypyc_attr(allow_interpreted_subclasses=True)
class Table:
    """The position of one game and the rules it is played under; checks and lists moves, changes nothing.

    Games are instances of an interpreted subclass (:class:`~patiencelab.core.game.Klondike`), on which a compiled
    ``self.method()`` goes through Python (mypyc's vtable for interpreted subclasses): the moves' checks and
    listing call the methods they need through the class (``Table._examine(self, move)``), a direct call.
    """

    __slots__ = TABLE_FIELDS

    _rules: Rules
    _lang: str
    _down: list[list[int]]
    _up: list[list[int]]
    _stock: list[int]
    _waste: list[int]
    _found: list[int]
    _recycles: int
    #: The legal moves of the current position, once listed; whatever changes the cards sets it to ``None``.
    _legal: list[Move] | None

    @property
    def rules(self) -> Rules:
        """The rule set of this game."""
        return self._rules

    @property
    def lang(self) -> str:
        """The language of reasons and messages (``en``, ``nl`` or ``sv``); it may be changed at any time."""
        return self._lang

    @lang.setter
    def lang(self, lang: str) -> None:
        self._lang = check_language(lang)

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
        return passes_left(self._rules.max_passes, self._recycles)

    @property
    def is_won(self) -> bool:
        """True when all 52 cards are on the foundations."""
        return self._found == WON

    def _card_fits_anywhere(self, card: int) -> bool:
        return goes_home(card, self._found) or any(Table._fits(self, card, j) for j in range(len(self._up)))

    def _fits(self, card: int, column: int) -> bool:
        """True when ``card`` (leading a run) may be put on ``column``."""
        up = self._up[column]
        return fits(card, up[-1]) if up else fits_empty(card, self._rules.empty_column == "king")

    def legal_moves(self) -> list[Move]:
        """Every legal action, in place form: waste moves, column moves, foundation returns, then draw or
        recycle. Pointless moves (a King between empty columns) are included. The list is made once per
        position (a game, its status and the widget all read it) and copied for the caller.
        """
        legal = self._legal
        if legal is None:
            legal = self._legal = Table._list_legal_moves(self)
        return list(legal)

    def legal_leads(self) -> list[tuple[Move, Card]]:
        """Every legal action but draw and recycle, with the card that leads what it moves (the card a player
        picks up to play it): one pass over :meth:`legal_moves`, no rule checks.
        """
        out: list[tuple[Move, Card]] = []
        for move in Table.legal_moves(self):
            source, target = move.source, move.target
            if target is None or source is None:
                continue
            if move.card is not None:
                lead = _ID[move.card]
            elif source[0] == "t" and target[0] == "t":
                up = self._up[int(source[1]) - 1]
                lead = up[Table._implied_run(self, up, self._up[int(target[1]) - 1])]
            else:
                lead = Table._source_top(self, source)
            out.append((move, _DECK[lead]))
        return out

    def _list_legal_moves(self) -> list[Move]:
        """The legal actions of the position (see :meth:`legal_moves`), listed afresh."""
        found = self._found
        if found == WON:
            return []
        ups = self._up
        any_on_empty = self._rules.empty_column != "king"
        empties = [j for j, up in enumerate(ups) if not up]
        # (column, the rank a run must lead with to go there, whether its top is red)
        fronts = [(j, RANK[up[-1]] - 1, RED[up[-1]]) for j, up in enumerate(ups) if up]
        result: list[Move] = []
        append = result.append
        if self._waste:
            card = self._waste[-1]
            rank, red = RANK[card], RED[card]
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
            if found[top // 13] == RANK[top] - 1:
                append(_T_F[i])
            lead, length, row = RANK[up[0]], len(up), _T_T[i]
            for j, need, top_red in fronts:
                k = lead - need  # kernel.run_split inlined; the run's own column gives k == length
                if 0 <= k < length and RED[up[k]] != top_red:
                    append(row[j])
            if empties and (lead == 13 or any_on_empty):
                result.extend(row[j] for j in empties)
                if any_on_empty:  # every part of the run may go to an empty column, named by its card
                    src = row[empties[0]].source
                    assert src is not None
                    result.extend(Move(src, _col(j), _DECK[c]) for c in up[1:] for j in empties)
        if self._rules.foundation_to_tableau:
            for s in range(4):
                count = found[s]
                if not count:
                    continue
                red, row = RED[s * 13], _F_T[s]
                for j, need, top_red in fronts:
                    if need == count and top_red != red:
                        append(row[j])
                if empties and (count == 13 or any_on_empty):
                    result.extend(row[j] for j in empties)
        if self._stock:
            append(DRAW)
        elif self._waste and passes_left(self._rules.max_passes, self._recycles) != 0:
            append(RECYCLE)
        return result

    def can_play(self, move: Move | str) -> bool:
        """True when ``move`` is legal now (text that is not a move raises :class:`InvalidMoveError`)."""
        return self.check(move) is None

    def check(self, move: Move | str) -> IllegalMoveError | None:
        """The :class:`IllegalMoveError` that playing ``move`` would raise, or ``None`` when it is legal."""
        result = Table._examine(self, Move.parse(move))
        return result if isinstance(result, IllegalMoveError) else None

    def moving_cards(self, move: Move | str) -> tuple[Card, ...]:
        """The cards ``move`` would move, bottom first (none for a draw or recycle); raises its
        :class:`IllegalMoveError` when it is not legal.
        """
        result = Table._examine(self, Move.parse(move))
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
        return (_DECK[Table._source_top(self, source)],)

    def uncovers(self, move: Move | str) -> int | None:
        """The column (1-based) whose face-down card ``move`` would turn up, or ``None``; raises its
        :class:`IllegalMoveError` when it is not legal.
        """
        cards = self.moving_cards(move)
        source = Move.parse(move).source
        if not cards or source is None or source[0] != "t":
            return None
        i = int(source[1:]) - 1
        return i + 1 if self._down[i] and len(cards) == len(self._up[i]) else None

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
        Table._check_place(self, move.source)
        Table._check_place(self, move.target)
        if self._found == WON:
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
            if passes_left(self._rules.max_passes, self._recycles) == 0:
                return self._illegal("no-passes-left", passes=self._rules.max_passes)
            return RECYCLE, len(self._waste)
        located = Table._locate(self, move)
        if isinstance(located, IllegalMoveError):
            return located
        source, index = located
        target = move.target
        assert target is not None
        if target[0] == "f":
            return Table._examine_to_foundation(self, move, source, index, target)
        return Table._examine_to_column(self, move, source, index, target)

    def _locate(self, move: Move) -> tuple[str, int | None] | IllegalMoveError:
        """The source place and, for a card-form move out of a column, the index of the card in its run.

        A move that names both a source and a card moves exactly from that card, which must lie in that place.
        """
        card = move.card
        if move.source is None:
            assert card is not None
            return Table._locate_card(self, _ID[card])
        source = move.source
        if card is not None:
            located = Table._locate_card(self, _ID[card])
            if not isinstance(located, IllegalMoveError) and located[0] != source:
                raise InvalidMoveError(f"the {card.symbol} is not in {source}: the move names both")
            return located
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
                return self._illegal("foundation-return-off", card=top)
        return source, None

    def _locate_card(self, card: int) -> tuple[str, int | None] | IllegalMoveError:
        named = _DECK[card]
        for i, up in enumerate(self._up):
            if card in up:
                return _col(i), up.index(card)
        if any(card in down for down in self._down) or card in self._stock:
            return self._illegal("face-down", card=named)
        if card in self._waste:
            if self._waste[-1] != card:
                return self._illegal("waste-top-only", card=named, top=_DECK[self._waste[-1]])
            return "w", None
        suit = card // 13
        top = Card(self._found[suit], _SUITS[suit])
        if top.index != card:
            return self._illegal("foundation-top-only", card=named, top=top)
        if not self._rules.foundation_to_tableau:
            return self._illegal("foundation-return-off", card=named)
        return "f" + _SUITS[suit].value, None

    def _source_top(self, source: str) -> int:
        if source == "w":
            return self._waste[-1]
        if source[0] == "t":
            return self._up[int(source[1]) - 1][-1]
        suit = SUIT_LETTERS.index(source[1])
        return suit * 13 + self._found[suit] - 1

    def _examine_to_foundation(
        self, move: Move, source: str, index: int | None, target: str
    ) -> tuple[Move, int] | IllegalMoveError:
        if index is not None:
            up = self._up[int(source[1]) - 1]
            if index < len(up) - 1:
                return self._illegal("one-card-to-foundation", card=_DECK[up[index]], count=len(up) - 1 - index)
        card = Table._source_top(self, source)
        suit = card // 13
        if target != "f" and target[1] != _SUITS[suit].value:
            return self._illegal(
                "foundation-suit",
                card=_DECK[card],
                suit=self._suit_name(_SUITS[suit]),
                target=self._suit_name(Suit(target[1])),
            )
        have = self._found[suit]
        if have != RANK[card] - 1:
            named, foundation = _DECK[card], self._suit_name(_SUITS[suit])
            if have == 13:
                return self._illegal("foundation-order", "foundation-order.full", card=named, foundation=foundation)
            need = Card(have + 1, _SUITS[suit])
            return self._illegal("foundation-order", card=named, foundation=foundation, need=need)
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
                index = Table._implied_run(self, up, dest)
            count = len(up) - index
            card = up[index]
        else:
            card = Table._source_top(self, source)
            count = 1
        named = _DECK[card]
        if not dest:
            if self._rules.empty_column == "king" and RANK[card] != 13:
                return self._illegal("king-on-empty", card=named, place=target)
        else:
            top = dest[-1]
            top_card = _DECK[top]
            if RANK[top] != RANK[card] + 1:
                if RANK[card] == 13:
                    return self._illegal("one-lower", "one-lower.king", card=named, top=top_card)
                return self._illegal("one-lower", card=named, top=top_card, need=rank_name(RANK[card] + 1, self._lang))
            if RED[top] == RED[card]:
                color = self._color_name(RED[top])
                other = self._color_name(not RED[top], "-adj")
                return self._illegal(
                    "alternate-colors",
                    card=named,
                    top=top_card,
                    color=color,
                    other=other,
                    rank=rank_name(RANK[top], self._lang),
                )
        if not dest and source[0] == "t" and index != Table._implied_run(self, self._up[int(source[1]) - 1], dest):
            # part of a run to an empty column (empty_column="any"): only the card form says which part
            return Move(source, target, _DECK[card]), count
        return _move(source, target), count

    def _implied_run(self, up: list[int], dest: list[int]) -> int:
        """Index of the card that leads the run ``tA-tB`` moves: one rank below B's top (a King on an empty
        column); the whole face-up run when there is no such card.
        """
        want = RANK[dest[-1]] - 1 if dest else 13
        k = RANK[up[0]] - want
        if 0 <= k < len(up):
            return k
        return 0

    def _suit_name(self, suit: Suit) -> str:
        return message(f"suit.{suit.value}", self._lang)

    def _color_name(self, red: bool, form: str = "") -> str:
        """``red``/``black`` as a predicate, or with ``form`` ``-adj`` (before a noun) or ``-noun``."""
        return message(("color.red" if red else "color.black") + form, self._lang)

    def snapshot(self) -> Position:
        """The current position as an immutable :class:`Position`."""
        return Position(self.tableau, self.stock, self.waste, self.foundations, self._recycles)
