"""The player's view: what a player sees and remembers of a game, and nothing derived from face-down cards.

A :class:`PlayerView` is the only input of a fair player, a fair hint and the chances of a position (see
:mod:`patiencelab.players`). It holds the face-up cards, how many cards lie face down in each column, the stock's
size, the waste, the foundations, the rules and the moves played, and the stock cards the player has seen in this
game: every card in the stock after a recycle was on the waste before it, so from the first recycle made in this
game on, the player (who remembers, as a good player does) knows the whole stock in its order; before it, no stock
card has been seen. A game made from a position starts knowing only the stock cards the position says were seen
(``Position.stock_seen``, none by default, whatever the position's recycles): what a player saw before the
game began is not taken for granted, so a lesson, a test or an environment reset to a position with recycles
shows its stock as unknown until it is drawn.

Two games whose face-down cards (or unseen stock cards) differ only in order give equal views, with equal hashes:
nothing here is computed from a hidden card.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from patiencelab.core.cards import Card, Suit, full_deck
from patiencelab.core.errors import ArgumentTypeError, InvalidArgumentError, quote
from patiencelab.core.limits import check_instance
from patiencelab.core.moves import Move
from patiencelab.core.position import Column, Position
from patiencelab.core.rules import Rules

__all__ = ["ColumnView", "PlayerView"]

_DECK = full_deck()


@dataclass(frozen=True, slots=True)
class ColumnView:
    """One tableau column as a player sees it: the number of face-down cards and the face-up cards, bottom first."""

    down: int
    up: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class PlayerView:
    """What a player can know of a game (see the module's documentation); immutable, hashable and comparable.

    ``stock`` lists the stock cards the player has seen, in draw order: the first ones to draw (all of them after
    a recycle in this game, else those the starting position says were seen, less the ones drawn since);
    ``stock_size`` counts every card in the stock; ``foundations`` counts the cards on each suit's foundation in
    the suit order ``C D H S``; ``history`` holds the moves played from the start, in place form.
    """

    rules: Rules
    tableau: tuple[ColumnView, ...]
    stock_size: int
    stock: tuple[Card, ...]
    waste: tuple[Card, ...]
    foundations: tuple[int, int, int, int]
    recycles: int
    history: tuple[Move, ...]

    @property
    def moves(self) -> int:
        """The number of moves played (draws and recycles included)."""
        return len(self.history)

    @property
    def last_move(self) -> Move | None:
        """The move played last, or ``None`` at the start."""
        return self.history[-1] if self.history else None

    @property
    def is_won(self) -> bool:
        """True when all 52 cards are on the foundations."""
        return self.foundations == (13, 13, 13, 13)

    @property
    def unseen_stock(self) -> int:
        """How many stock cards the player has not seen (they lie in the stock after the seen ones)."""
        return self.stock_size - len(self.stock)

    @property
    def hidden_places(self) -> int:
        """How many places hold a card the player does not know: face-down slots and unseen stock cards."""
        return sum(col.down for col in self.tableau) + self.unseen_stock

    def unseen_cards(self) -> tuple[Card, ...]:
        """The cards the player has not seen, in the ordered deck's order (which says nothing of where they lie)."""
        seen = {c.index for col in self.tableau for c in col.up}
        seen.update(c.index for c in self.stock)
        seen.update(c.index for c in self.waste)
        for suit, count in enumerate(self.foundations):
            seen.update(range(suit * 13, suit * 13 + count))
        return tuple(card for card in _DECK if card.index not in seen)

    def fill(self, cards: tuple[Card, ...] | list[Card]) -> Position:
        """The position with ``cards`` (as many as :attr:`hidden_places`) put in the hidden places: the face-down
        slots column by column, bottom first, then the unseen stock cards, after the seen ones, in draw order.
        The position's ``stock_seen`` counts the seen ones, so a game made from it has this view's knowledge.
        """
        if not isinstance(cards, (tuple, list)) or not all(isinstance(card, Card) for card in cards):
            raise ArgumentTypeError(f"cards must be a tuple or list of cards, not {quote(cards)}")
        if len(cards) != self.hidden_places:
            raise InvalidArgumentError(f"{self.hidden_places} hidden places need as many cards, not {len(cards)}")
        it = iter(cards)
        tableau = tuple(Column(tuple(next(it) for _ in range(col.down)), col.up) for col in self.tableau)
        stock = self.stock + tuple(it)
        foundations = dict(zip(Suit, self.foundations))
        return Position(tableau, stock, self.waste, foundations, self.recycles, len(self.stock))

    def sample(self, rng: random.Random) -> Position:
        """A position consistent with this view: the unseen cards dealt at random (from ``rng``) into the hidden
        places. It depends only on the view and the state of ``rng``.
        """
        check_instance(rng, "rng", random.Random)
        cards = list(self.unseen_cards())
        rng.shuffle(cards)
        return self.fill(cards)
