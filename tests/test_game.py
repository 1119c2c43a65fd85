"""Making a game and reading it: constructors, reads, value types."""

from __future__ import annotations

import pytest

from patiencelab import Card, Column, Klondike, Move, PatienceError, Rules, Suit

from .model_helpers import ORDERED_DECK


def test_seed_game_reads() -> None:
    game = Klondike(seed=7)
    assert game.seed == 7
    assert isinstance(game.deal, str) and len(game.deal) == 104
    assert game.rules == Rules()
    assert len(game.tableau) == 7
    assert all(isinstance(c, Column) and isinstance(c.down, tuple) and isinstance(c.up, tuple) for c in game.tableau)
    assert isinstance(game.stock, tuple) and isinstance(game.waste, tuple)
    assert game.foundations == dict.fromkeys(Suit, 0)
    assert (game.score, game.moves, game.recycles, game.history) == (0, 0, 0, ())
    assert not game.can_undo and not game.can_redo
    assert not game.is_won and not game.is_stuck
    assert game.status == "playing"
    assert all(isinstance(m, Move) for m in game.legal_moves())


def test_same_seed_same_game() -> None:
    assert Klondike(seed=99) == Klondike(seed=99)
    assert Klondike(seed=99).position_json() != Klondike(seed=100).position_json()


def test_deal_game_has_no_seed() -> None:
    game = Klondike(deal="".join(ORDERED_DECK), rules=Rules.preset("six-column"))
    assert game.seed is None
    assert game.deal == "".join(ORDERED_DECK)
    assert [str(c) for c in game.tableau[0].up] == ["7C"]  # column 1 takes two cards: AC face down, then 7C
    assert [str(c) for c in game.tableau[0].down] == ["AC"]


def test_random_game_without_seed_is_reproducible_from_its_seed() -> None:
    game = Klondike()
    assert game.seed is not None
    assert Klondike(seed=game.seed) == game


@pytest.mark.parametrize(
    "kwargs", [{"rules": "standard"}, {"seed": "7"}, {"seed": 1.5}, {"deal": 5}, {"lang": 5}, {"solvable": "yes"}]
)
def test_bad_constructor_arguments(kwargs: dict[str, object]) -> None:
    with pytest.raises(PatienceError):
        Klondike(**kwargs)  # type: ignore[arg-type]


def test_reads_return_copies() -> None:
    game = Klondike(seed=7)
    found = game.foundations
    found[Suit.HEARTS] = 5
    assert game.foundations[Suit.HEARTS] == 0
    pos = game.position_json()
    pos["stock"].clear()
    assert len(game.position_json()["stock"]) == 24


def test_play_accepts_text_or_move() -> None:
    a, b = Klondike(seed=7), Klondike(seed=7)
    assert a.play("d") == b.play(Move.parse("d"))
    assert a == b
    assert a.waste[-1] == b.waste[-1]
    assert isinstance(a.waste[-1], Card)


def test_repr_mentions_the_origin() -> None:
    assert "seed=7" in repr(Klondike(seed=7))
