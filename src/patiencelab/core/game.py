"""One game of Klondike, the class a user makes: :class:`Klondike`, with its constructor, its records and the
conveniences that call services (hints, chances, the solver, a review, deal strings of other tools).

Every move runs through its compiled engine (:class:`~patiencelab.core.engine.Engine`: the table, the history, the
score, the clock and the listeners); this module is never compiled, so its signatures are the ones ``help()``
shows and type checkers read, and a wrong argument is a :class:`PatienceError` from the checkers of
:mod:`patiencelab.core.limits`, checked once, before any compiled code sees it. (No ``from __future__ import
annotations`` here: ``help()`` shows the annotations as types, not as strings.)
"""

import math
import random
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final, Literal, cast

from patiencelab.core.cards import RANKS, Suit, full_deck
from patiencelab.core.engine import RECORD_FORMAT, ChangeKind, Engine, Played, Status
from patiencelab.core.errors import ArgumentTypeError, InvalidRecordError, PatienceError, quote, unknown_fields
from patiencelab.core.i18n import check_language
from patiencelab.core.limits import check_instance, check_seed, check_switch
from patiencelab.core.moves import Move
from patiencelab.core.position import Position, deal_position, parse_deal, seeded_deal
from patiencelab.core.rules import Rules
from patiencelab.core.view import PlayerView
from patiencelab.interop import DealFormat
from patiencelab.solver.search import Solution

if TYPE_CHECKING:
    from patiencelab.players import Chances, Player
    from patiencelab.review import Review

__all__ = ["RECORD_FORMAT", "Change", "Klondike", "Played", "Status"]

_DECK: Final = full_deck()  # card ints (the kernel's numbering) to cards
_SUITS: Final = tuple(Suit)


@dataclass(frozen=True, slots=True)
class Change:
    """What one call changed in a game, handed to its listeners (:meth:`Klondike.on_change`).

    ``kind`` is ``play`` (one move, or several for an autocompletion), ``undo``, ``redo`` or ``reset``;
    ``played`` holds the actions played or taken back, in the order they happened (none for a reset).
    """

    game: "Klondike"
    kind: ChangeKind
    played: tuple[Played, ...]

    @property
    def last(self) -> Played | None:
        """The single action of this change, or ``None`` for a reset or several actions at once."""
        return self.played[0] if len(self.played) == 1 else None


class Klondike(Engine):
    """One game of Klondike under some :class:`~patiencelab.core.rules.Rules`.

    >>> game = Klondike(seed=7)
    >>> game.play("d")
    Move.parse('d')
    >>> game.moves, game.can_undo
    (1, True)
    """

    __slots__ = ()

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
        """A new game: the deal of ``seed`` (a random one when neither ``seed`` nor ``deal`` is given), or ``deal``
        (104 characters, see :attr:`deal`), under ``rules`` (the standard rules by default). ``clock`` gives the
        seconds for :attr:`seconds` and the score's time terms (``time.monotonic`` by default); ``lang`` (``en``,
        ``nl`` or ``sv``) is the language of rule messages; ``solvable=True`` picks, from ``seed`` on, a seed
        whose deal the solver can win. A wrong argument is a :class:`PatienceError` that names it.
        """
        if seed is not None:
            check_seed(seed)
        rules = Rules() if rules is None else check_instance(rules, "rules", Rules)
        _check_clock(clock)
        lang = check_language(lang)
        check_switch(solvable, "solvable")
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
        self._begin(deal_position(cards, rules), rules, clock, lang, seed, "".join(map(str, cards)))

    def _begin(
        self,
        start: Position,
        rules: Rules,
        clock: Callable[[], float] | None,
        lang: str,
        seed: int | None = None,
        deal: str | None = None,
    ) -> None:
        """Fill a blank game (checked arguments): from its deal, or from a position (no seed, no deal)."""
        self._seed = seed
        self._deal = deal
        self._setup(start, rules, clock, lang)

    def _change(self, kind: ChangeKind, played: tuple[Played, ...]) -> Change:
        return Change(self, kind, played)

    # ----------------------------------------------------------------------------------------------- making

    @classmethod
    def from_position(
        cls,
        position: Mapping[str, Any] | Position,
        *,
        rules: Rules | None = None,
        clock: Callable[[], float] | None = None,
        lang: str = "en",
    ) -> "Klondike":
        """A game that starts from ``position`` (the JSON form of docs/script.md, or a :class:`Position`):
        :class:`InvalidPositionError` says what is wrong with it, its recycles beyond the rules' pass limit too.
        The player knows the stock cards the position says were seen (``stock_seen``, none by default) and
        the others once they are drawn in this game (see :meth:`player_view`).
        """
        rules = check_instance(Rules() if rules is None else rules, "rules", Rules)
        _check_clock(clock)
        lang = check_language(lang)
        if not isinstance(position, Position):
            position = Position.from_json(position, columns=rules.columns)
        position.check(rules)
        game = cast(Klondike, cls.__new__(cls))  # a blank game
        game._begin(position, rules, clock, lang)
        return game

    @classmethod
    def from_record(cls, record: Mapping[str, Any], *, clock: Callable[[], float] | None = None) -> "Klondike":
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
                    if "".join(map(str, seeded_deal(seed))) != game.deal:
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
                game.play(text)
            except PatienceError as exc:
                raise InvalidRecordError(f"move {number} ({quote(text)}) cannot be played: {exc}") from None
        return game

    # ------------------------------------------------------------------------------------------ services

    def explain(self, move: Move | str) -> str:
        """What ``move`` does and which rule allows it, in one or two sentences in the game's language; for an
        illegal move, which rule forbids it. A face-down card it uncovers is not named.
        """
        from patiencelab.core.narration import explain

        return explain(self, move)

    def hint(
        self, *, peek: bool = False, samples: int = 16, max_states: int | None = 2_000, seconds: float = math.inf
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

    def chances(self, *, samples: int = 32, max_states: int | None = 10_000, seed: int = 0) -> "Chances":
        """The share of the deals consistent with :meth:`player_view` that can still be won, from ``samples``
        random deals of the unseen cards, each decided by the solver within ``max_states`` positions (see
        :func:`patiencelab.players.sampling`). Deterministic for a ``seed``; fair: it reads only the view.
        """
        from patiencelab.players import chances

        return chances(self.player_view(), samples=samples, max_states=max_states, seed=seed)

    def play_out(self, player: "Player | Callable[[PlayerView], Move]", *, max_moves: int = 1_000) -> Status:
        """Let ``player`` (see :mod:`patiencelab.players`) play this game from here until it is won, no move is
        left or ``max_moves`` moves were played (a cap against endless cycles); returns the :attr:`status`.
        """
        from patiencelab.players import play_out

        return play_out(self, player, max_moves=max_moves)

    def is_winnable(self, *, seconds: float = 10.0, max_states: int | None = None) -> bool | None:
        """Whether the game can still be won from here, knowing every face-down card: ``True`` or ``False`` when
        the solver decides it within ``seconds`` (or ``max_states`` positions), ``None`` when it cannot tell.
        """
        from patiencelab.solver import solve

        outcome = solve(self, seconds=seconds, max_states=max_states).outcome
        return None if outcome == "unknown" else outcome == "solved"

    def review(
        self,
        *,
        max_states: int | None = 200_000,
        seconds: float = math.inf,
        samples: int = 32,  # patiencelab.review.REVIEW_SAMPLES (not imported here: the core comes first)
        sample_states: int | Literal["rules"] | None = "rules",
        seed: int = 0,
        progress: bool | Callable[[int, int], None] = False,
        cancel: threading.Event | None = None,
    ) -> "Review":
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

    def solve(self, *, seconds: float = 10.0, max_states: int | None = None) -> Solution:
        """Search for a win from the current position (see :func:`patiencelab.solver.solve`)."""
        from patiencelab.solver import solve

        return solve(self, seconds=seconds, max_states=max_states)

    def deal_string(self, format: DealFormat = "patiencelab") -> str:
        """The deal in another tool's notation: ``patiencelab`` (104 characters), ``klondike-solver`` (156 digits)
        or ``solvitaire`` (JSON). Games made from a position have no deal.
        """
        from patiencelab.interop import to_deal_string

        if self._deal is None:
            raise PatienceError("a game made from a position has no deal string")
        return to_deal_string(parse_deal(self._deal), format, face_down=self._rules.face_down)

    @classmethod
    def from_deal_string(
        cls, text: str, *, format: DealFormat = "patiencelab", rules: Rules | None = None, lang: str = "en"
    ) -> "Klondike":
        """A game dealt from a deal string in ``format`` (see :meth:`deal_string`)."""
        from patiencelab.interop import from_deal_string

        cards = from_deal_string(text, format)  # it checks both
        return cls(deal="".join(map(str, cards)), rules=rules, lang=lang)

    # ---------------------------------------------------------------------------------------------- forms

    def view(self, *, reveal: bool = False) -> dict[str, Any]:
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
