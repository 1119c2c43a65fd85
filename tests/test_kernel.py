"""The rules kernel: the card tables agree with the card values, the stock cycle agrees with drawing card by
card, and every card movement is undone exactly.
"""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from patiencelab.core.cards import full_deck
from patiencelab.core.kernel import (
    RANK,
    RED,
    SUIT,
    TWINS,
    card_id,
    draw_cards,
    fits,
    fits_empty,
    goes_home,
    lift_top,
    move_run,
    passes_left,
    recycle_waste,
    run_split,
    talon_needs_recycle,
    talon_reach,
    talon_route,
    undraw_cards,
    unlift_top,
    unmove_run,
    unrecycle_waste,
)


def test_tables_match_the_cards() -> None:
    for card in full_deck():
        c = card.index
        assert (RANK[c], RED[c], SUIT[c]) == (card.rank, card.is_red, card.suit.index)
        assert card_id(card.suit.index, card.rank) == c
        for twin in TWINS[c]:
            assert RANK[twin] == RANK[c] and RED[twin] != RED[c]


def test_fit_checks() -> None:
    nine_spades, ten_hearts, ten_diamonds, king_clubs = card_id(3, 9), card_id(2, 10), card_id(1, 10), card_id(0, 13)
    assert fits(nine_spades, ten_hearts) and not fits(ten_hearts, nine_spades)
    assert not fits(card_id(2, 9), ten_diamonds)  # same colour
    assert fits_empty(king_clubs, True) and not fits_empty(nine_spades, True) and fits_empty(nine_spades, False)
    run = [card_id(0, 11), ten_hearts, nine_spades]  # J♣ 10♥ 9♠
    assert run_split(run, card_id(3, 11)) == 1  # the 10♥ may go on the J♠
    assert run_split(run, card_id(2, 12)) == 0  # the whole run on the Q♥
    assert run_split(run, card_id(1, 11)) == -1  # the J♦ takes a black 10: none in the run
    assert goes_home(card_id(2, 3), [0, 0, 2, 0]) and not goes_home(card_id(2, 4), [0, 0, 2, 0])
    assert passes_left(None, 5) is None and passes_left(3, 1) == 1 and passes_left(1, 4) == 0


def drawn_tops(size: int, p: int, draw: int, may_recycle: bool) -> set[int]:
    """The talon indices that come on top of the waste when drawing card by card (the reference)."""
    waste, stock = list(range(p)), list(range(size - 1, p - 1, -1))  # stock: next card last
    tops = {waste[-1]} if waste else set()
    recycled = False
    while True:
        while stock:
            draw_cards(stock, waste, min(draw, len(stock)))
            tops.add(waste[-1])
        if recycled or not waste or not may_recycle:
            return tops
        recycle_waste(stock, waste)
        recycled = True


@given(size=st.integers(0, 24), data=st.data(), draw=st.integers(1, 3), may_recycle=st.booleans())
def test_stock_cycle_matches_drawing_card_by_card(size: int, data: st.DataObject, draw: int, may_recycle: bool) -> None:
    p = data.draw(st.integers(0, size))
    reach = talon_reach(size, p, draw, may_recycle)
    assert {i for i, _ in reach} == drawn_tops(size, p, draw, may_recycle)
    for idx, actions in reach:
        before, after = talon_route(size, p, draw, idx)
        assert before + (after + 1 if after >= 0 else 0) == actions
        assert (after >= 0) == talon_needs_recycle(size, p, draw, idx)


@given(cards=st.permutations(range(12)), down=st.integers(0, 4), count=st.integers(1, 4))
def test_movements_undo_exactly(cards: list[int], down: int, count: int) -> None:
    column_down, column_up, dest = cards[:down], cards[down : down + 4], cards[down + 4 :]
    before = ([*column_down], [*column_up], [*dest])
    if count <= len(column_up):
        flipped = move_run(column_down, column_up, dest, count)
        assert flipped == (count == len(before[1]) and bool(before[0]))
        unmove_run(column_down, column_up, dest, count, flipped)
        assert (column_down, column_up, dest) == before
    if column_up:
        token = lift_top(column_down, column_up)
        assert token >> 1 == before[1][-1]
        unlift_top(column_down, column_up, token)
        assert (column_down, column_up, dest) == before
    stock, waste, drawn = [*dest], [*column_up], min(count, len(dest))
    draw_cards(stock, waste, drawn)
    assert waste[len(column_up) :] == dest[::-1][:drawn]
    undraw_cards(stock, waste, drawn)
    assert (stock, waste) == (dest, column_up)
    stock, waste = [], [*dest]
    recycle_waste(stock, waste)
    assert stock == dest[::-1] and waste == []
    unrecycle_waste(stock, waste)
    assert (stock, waste) == ([], dest)
