"""The search's pruning is sound: verdicts agree with and without it on positions small enough to search whole,
and every solution found replays to a win.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from patiencelab import Klondike, Rules
from patiencelab.core.cards import Card
from patiencelab.core.kernel import SUIT_LETTERS
from patiencelab.core.position import Position
from patiencelab.solver import search, solve
from patiencelab.solver.deadend import is_dead
from patiencelab.solver.movegen import LAID, OBLIGATION_KEY, generate, must_cover
from patiencelab.solver.node import F2T, T2T, TALON_FIELD, W2T, WASTE_FIELD, Node
from patiencelab.solver.portfolio import easier_start
from tests.solver.positions import blocked_five
from tests.solver.reference import reference_solve
from tests.solver.replay import replay_wins

RANKS = "A23456789TJQK"


def small_deal(seed: int, draw: int, **rules: Any) -> Klondike:
    """A random end game: each suit's foundation holds its Ace to a random rank (3 to 6); the other cards are
    shuffled into 7 columns (0 to 4 face-down cards under one face-up card, fewer when the cards run short)
    and the stock.
    """
    rng = random.Random(seed)
    found = {s: rng.randint(3, 6) for s in SUIT_LETTERS}
    cards = [f"{RANKS[r]}{s}" for s in SUIT_LETTERS for r in range(found[s], 13)]
    rng.shuffle(cards)
    downs = [rng.randint(0, 4) for _ in range(7)]
    while sum(downs) + 7 > len(cards):  # too few cards for a face-up card on every column: fewer face down
        downs[downs.index(max(downs))] -= 1
    tableau = []
    for d in downs:
        tableau.append({"down": cards[:d], "up": cards[d : d + 1]})
        cards = cards[d + 1 :]
    position = {"tableau": tableau, "stock": cards, "waste": [], "foundations": found}
    return Klondike.from_position(position, rules=Rules(face_down=tuple(downs), draw=draw, **rules))


def unpruned(monkeypatch: pytest.MonkeyPatch) -> None:
    """Switch off the pruning under test: no move has to be followed by a move onto its card (nor comes with
    its card's going home), positions equal up to twin swaps (see ``Node.key``) or wastes that reach the same
    talon places are searched apart, no position is skipped for a stronger one, no start is given up as a dead
    end (``deadend.is_dead``) and no easier game is searched beside the real one (``portfolio``).
    """
    monkeypatch.setattr(search, "must_cover", lambda st, m: -1)
    monkeypatch.setattr(search, "follow_up", lambda st, m: None)
    monkeypatch.setattr(Node, "base", Node.exact_key)  # the waste in the key (Node.kwaste stays 0)
    monkeypatch.setattr(Node, "base_after", lambda self, m: None)  # it gives the pruned key
    monkeypatch.setattr(search._Search, "_stronger_seen", lambda self, p, bits: False)
    monkeypatch.setattr(search, "is_dead", lambda st: False)
    monkeypatch.setattr(search, "easier_start", lambda source, rules=None: None)


def assert_pruning_agrees(game: Klondike) -> None:
    """The pruned and the unpruned search give the same verdict on ``game`` when both decide it, and every
    solution either finds replays to a win."""
    pruned = solve(game, seconds=math.inf, max_states=200_000)
    with pytest.MonkeyPatch.context() as mp:
        unpruned(mp)
        full = solve(game, seconds=math.inf, max_states=200_000)
    if pruned.is_decided and full.is_decided:
        assert pruned.outcome == full.outcome
    for solution in (pruned, full):
        if solution.outcome == "solved":
            assert replay_wins(game, solution.moves)


@pytest.mark.pure
@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10**6), draw=st.sampled_from([1, 3]))
def test_verdicts_agree_with_and_without_must_cover(seed: int, draw: int) -> None:
    game = small_deal(seed, draw)
    assert_pruning_agrees(game)


OTHER_RULES: list[dict[str, Any]] = [
    {"draw": 1, "empty_column": "any"},
    {"draw": 3, "max_passes": 3},
    {"draw": 1, "foundation_to_tableau": False},
]


@pytest.mark.pure
@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10**6), rules=st.sampled_from(OTHER_RULES))
def test_verdicts_agree_with_and_without_pruning_under_other_rules(seed: int, rules: dict[str, Any]) -> None:
    """The same under the other rule options the pruning looks at (any card on an empty column, pass limits,
    no cards back from the foundations).
    """
    game = small_deal(seed, **rules)
    assert_pruning_agrees(game)


@pytest.mark.pure
def test_small_deals_are_decided_both_ways_and_some_are_impossible() -> None:
    """The property above is not vacuous: both searches decide these deals, some of them impossible."""
    outcomes = []
    for seed in range(40):
        game = small_deal(seed, 1 + 2 * (seed % 2))
        pruned = solve(game, seconds=math.inf, max_states=200_000)
        with pytest.MonkeyPatch.context() as mp:
            unpruned(mp)
            full = solve(game, seconds=math.inf, max_states=200_000)
        assert pruned.is_decided and full.is_decided
        assert pruned.outcome == full.outcome
        outcomes.append(pruned.outcome)
    assert "impossible" in outcomes and "solved" in outcomes


def test_must_cover_names_the_card_put_on_a_column() -> None:
    position = Position.from_json(
        {
            "tableau": [{"down": [], "up": ["9S"]}, {"down": [], "up": ["9D"]}, {"down": [], "up": []}],
            "stock": ["8H", "9H", "TD", "JD", "QD", "KD", "TH", "JH", "QH", "KH", "TS", "JS", "QS", "KS"],
            "waste": [],
            "foundations": {"C": 13, "D": 8, "H": 7, "S": 8},
        }
    )
    one = Node.of(position, Rules(face_down=(0, 0, 0)))
    assert one.laid  # draw 1, unlimited passes: duties of talon cards kept apart (tagged with LAID)
    assert must_cover(one, (W2T, 0, 0, 0)) == 33 + LAID  # the 8H (talon card 0) on the 9S: something must go on it
    assert must_cover(one, (W2T, 1, 2, 0)) == -1  # to an empty column: free
    assert must_cover(one, (F2T, 3, 1, 0)) == 3 * 13 + 7  # the 8S back onto the 9D: covered next, not tagged
    assert must_cover(one, (T2T, 0, 1, 0)) == -1
    three = Node.of(position, Rules(face_down=(0, 0, 0), draw=3))
    assert not three.laid
    assert must_cover(three, (W2T, 0, 0, 0)) == -1  # draw 3: playing a talon card changes what is reachable
    one.laid = False  # the rule before: one duty for both
    assert must_cover(one, (W2T, 0, 0, 0)) == 33


@pytest.mark.pure
@pytest.mark.parametrize("draw", [1, 3])
def test_duties_to_cover_may_wait_for_each_other(draw: int) -> None:
    """Wins here bring a card back from a foundation and then the card below it before anything covers the
    first (draw 3), or put a talon card out (with a duty to be covered) between two such cards (draw 1), the
    second going on the talon card: a duty to cover must allow both (found by comparing with the unpruned search).
    """
    game = small_deal(1251, draw)
    with pytest.MonkeyPatch.context() as mp:
        unpruned(mp)
        assert solve(game, seconds=math.inf, max_states=200_000).outcome == "solved"
    pruned = solve(game, seconds=math.inf, max_states=200_000)
    assert pruned.outcome == "solved"
    assert replay_wins(game, pruned.moves)


@pytest.mark.pure
def test_a_position_seen_free_of_a_duty_is_not_searched_again_with_one() -> None:
    """With a duty to cover a card, a position is searched only when it was not seen free of the duty: the same
    verdicts for fewer positions (draw 1 puts talon cards out with duties).
    """

    def unseen_apart(self: search._Search, key: int, onto: int) -> int:
        if onto >= 0:
            key += OBLIGATION_KEY[onto]
        return unseen(self, key, -1)

    unseen = search._Search._unseen

    assert_skip_saves_positions(1, lambda mp: mp.setattr(search._Search, "_unseen", unseen_apart))


def assert_skip_saves_positions(draw: int, switch_off: Callable[[pytest.MonkeyPatch], None]) -> None:
    """On 20 small deals, the search with a skip and without it (``switch_off``) gives the same verdicts, never
    in fewer positions without it, and in more for some deal.
    """
    fewer = 0
    for seed in range(20):
        game = small_deal(seed, draw)
        pruned = solve(game, seconds=math.inf, max_states=200_000)
        with pytest.MonkeyPatch.context() as mp:
            switch_off(mp)
            apart = solve(game, seconds=math.inf, max_states=200_000)
        assert pruned.outcome == apart.outcome and pruned.is_decided
        assert pruned.states <= apart.states
        fewer += pruned.states < apart.states
    assert fewer


@pytest.mark.pure
def test_a_position_is_not_searched_when_a_stronger_one_was_seen() -> None:
    """With draw 3, a position is skipped when the same position with a waste that reaches more talon places was
    seen (``Node.stronger_keys``): the same verdicts for fewer positions.
    """
    assert_skip_saves_positions(3, lambda mp: mp.setattr(search._Search, "_stronger_seen", lambda self, p, bits: False))


@pytest.mark.parametrize("seed", [3, 6, 7])
def test_stronger_seen_looks_up_exactly_the_stronger_keys(seed: int) -> None:
    """``_Search._stronger_seen`` (one lookup for the weakest waste) says what looking up every key of
    ``Node.stronger_keys`` says, for every key the search saw and each of its wastes.
    """
    one = search._Search(Node.of(Klondike(seed=seed, rules=Rules(draw=3))), math.inf, 5_000)
    one.run()
    st, field = one.st, WASTE_FIELD
    checked = strong = 0
    for key in one.seen_keys()[:400]:
        size = (key >> TALON_FIELD & (1 << 52) - 1).bit_count()
        for p in [0, *(q for q in range(1, size) if q % 3)]:
            probe = (key & ~(63 << field)) | p << field
            if one.was_seen(probe):
                continue  # asked only of a key not seen
            expected = any(one.was_seen(k) for k in st.stronger_keys(probe))
            assert one._stronger_seen(p, one.table.get(probe & ~(63 << field), 0)) == expected
            checked += 1
            strong += expected
    assert checked > 1_000 and strong > 100


DEAD_END_RULES: list[dict[str, Any]] = [
    {"draw": 1},
    {"draw": 3},
    {"draw": 1, "foundation_to_tableau": False},
]


@pytest.mark.pure
@pytest.mark.parametrize("rules", DEAD_END_RULES, ids=["draw1", "draw3", "draw1-noreturn"])
def test_dead_ends_are_not_won_without_the_test(rules: dict[str, Any]) -> None:
    """Every small deal whose start :func:`is_dead` gives up is not won by the search without that test (and
    without the easier game beside it), and the test fires on some of them.
    """
    dead = [seed for seed in range(250) if is_dead(Node.of(small_deal(seed, **rules)))]
    assert dead
    for seed in dead:
        game = small_deal(seed, **rules)
        assert solve(game, seconds=math.inf, max_states=200_000).outcome == "impossible"
        with pytest.MonkeyPatch.context() as mp:
            mp.setattr(search, "is_dead", lambda st: False)
            mp.setattr(search, "easier_start", lambda source, rules=None: None)
            assert solve(game, seconds=math.inf, max_states=60_000).outcome != "solved"


@pytest.mark.pure
def test_dead_end_fires_only_when_every_way_out_is_blocked() -> None:
    """The 5H must leave before the 4H below it goes home, and both black sixes it could go on lie below it:
    a dead end. With the 6S in the stock instead, it goes on the 7D, the 5H on it, and the deal is won.
    """
    assert is_dead(Node.of(blocked_five(True)))
    assert solve(blocked_five(True), seconds=math.inf, max_states=200_000).outcome == "impossible"
    with pytest.MonkeyPatch.context() as mp:
        unpruned(mp)
        assert solve(blocked_five(True), seconds=math.inf, max_states=200_000).outcome == "impossible"
    assert not is_dead(Node.of(blocked_five(False)))
    won = solve(blocked_five(False), seconds=math.inf, max_states=200_000)
    assert won.outcome == "solved"
    assert replay_wins(blocked_five(False), won.moves)


@pytest.mark.pure
def test_dead_end_chain_over_two_columns() -> None:
    """Each column's bottom face-up card lies over a lower card of its suit, and the cards it could go on lie
    under the other column's: neither can leave before the other.
    """
    position = {
        "tableau": [{"down": ["6C", "4H"], "up": ["5H"]}, {"down": ["6S", "4D"], "up": ["5D"]}],
        "stock": [f"{r}{s}" for s in "CS" for r in "789TJQK"] + [f"{r}{s}" for s in "HD" for r in "6789TJQK"],
        "waste": [],
        "foundations": {"C": 5, "D": 3, "H": 3, "S": 5},
    }
    game = Klondike.from_position(position, rules=Rules(face_down=(2, 2)))
    assert is_dead(Node.of(game))
    with pytest.MonkeyPatch.context() as mp:
        unpruned(mp)
        assert solve(game, seconds=math.inf, max_states=200_000).outcome == "impossible"
    # With the 6S in the stock (taken as at hand), the 5D may leave, then the 6C is turned up for the 5H.
    position["tableau"] = [{"down": ["6C", "4H"], "up": ["5H"]}, {"down": ["4D"], "up": ["5D"]}]
    position["stock"] = ["6S", *position["stock"]]  # type: ignore[misc]
    game = Klondike.from_position(position, rules=Rules(face_down=(2, 1)))
    assert not is_dead(Node.of(game))


def test_easier_start_only_for_a_harder_game() -> None:
    """Draw 1 with unlimited passes has no easier game here; draw 3 or a pass limit has draw 1 unlimited."""
    game = small_deal(7, 1)
    assert easier_start(game) is None
    for rules in ({"draw": 3}, {"draw": 1, "max_passes": 2}):
        easier = easier_start(small_deal(7, **rules))
        assert easier is not None
        assert easier.draw == 1 and easier.max_rec is None


@pytest.mark.pure
def test_the_easier_game_proves_a_draw3_deal_impossible() -> None:
    """Deal 74 cannot be won with draw 1 (proved in some 65,000 positions since the sound pruning of round 2);
    the draw-3 search alone does not decide it within 160,000, beside the draw-1 search it is proved impossible
    within that (all searches counted: about 130,000).
    """
    game = Klondike(seed=74, rules=Rules(draw=3))
    found = solve(game, seconds=math.inf, max_states=160_000)
    assert found.outcome == "impossible"
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(search, "easier_start", lambda source, rules=None: None)
        assert solve(game, seconds=math.inf, max_states=160_000).outcome == "unknown"


def test_laid_apart_duties_prune_draw_1_searches() -> None:
    """With duties of talon cards kept apart (``Node.laid``, the rule of every draw-1 search with unlimited passes)
    the usual order proves draw-1 deals 74 and 108 impossible in fewer positions than with the one duty of before
    (64,554 and 39,013), and deal 36 within 100,000 positions, which that rule does not decide.
    """
    for seed, before in ((74, 64_554), (108, 39_013), (36, None)):
        found = {}
        for laid in (False, True):
            start = Node.of(Klondike(seed=seed, rules=Rules(draw=1)))
            assert start.laid
            start.laid = laid
            run = search._Search(start, math.inf, 100_000)
            found[laid] = (run.run(), run.states)
        assert found[True][0] == "impossible"
        if before is None:
            assert found[False][0] == "unknown"
        else:
            assert found[False] == ("impossible", before)
            assert found[True][1] < before


def test_a_large_draw_1_search_lays_talon_cards_only_where_a_move_may_follow() -> None:
    """Once a search with draw 1 and unlimited passes has searched ``lays_after`` positions
    (``search.LAYS_CHECKED_AFTER`` but in tests), it lays a talon card on a column's card only where a move may follow
    it (``Node.lays_checked``): from the first pause on, draw-1 deals 74, 108 and 36 are proved impossible in fewer
    positions than without (41,528, 29,588 and 75,103 then); below its million a search is as before; a search with
    draw 3 never turns it on (its talon cards have no duties).
    """
    for seed, before in ((74, 41_528), (108, 29_588), (36, 75_103)):
        found = {}
        for lays_after in (search.LAYS_CHECKED_AFTER, 0):
            start = Node.of(Klondike(seed=seed, rules=Rules(draw=1)))
            run = search._Search(start, math.inf, 100_000, lays_after=lays_after)
            found[lays_after] = (run.run(), run.states, start.lays_checked)
        assert found[search.LAYS_CHECKED_AFTER] == ("impossible", before, False)
        outcome, states, checked = found[0]
        assert (outcome, checked) == ("impossible", True)
        assert states < before
    start = Node.of(Klondike(seed=74, rules=Rules(draw=3)))
    search._Search(start, math.inf, 2_000, lays_after=0).run()
    assert not start.lays_checked


#: A position of the soundness harness (``make soak``'s chunk 184, case 224) that the one duty of before lost: its
#: wins lay the QC from the talon, bring the JH back onto it, lay the QD and the JC, then bring the 10H back onto
#: the JC; under that rule, a talon card laid after a duty could only go on the duty's card, and no order of these
#: moves met it.
TWO_CHAINS = {
    "tableau": [
        {"down": ["9D"], "up": ["7C"]},
        {"down": ["8C", "TC"], "up": ["KS"]},
        {"down": ["QS"], "up": ["KD"]},
        {"down": ["7D", "KC", "JS", "7S"], "up": ["9C"]},
        {"down": ["TD"], "up": ["9S"]},
        {"down": ["QH", "TS", "KH"], "up": ["JD"]},
    ],
    "stock": ["JC", "QD", "8D", "8S"],
    "waste": ["QC"],
    "foundations": {"C": 6, "D": 6, "H": 11, "S": 6},
}


@pytest.mark.parametrize("passes", [1, None])
def test_a_win_that_needs_two_chains_of_duties_is_found(passes: int | None) -> None:
    """The position above is won with draw 1, one pass or unlimited (its easier game, which proves the first
    "impossible" when it is): every search of :func:`solve` and the easier game's search alone find a win that
    replays, where the one duty of before said "impossible" after 12 positions.
    """
    position = Position.from_json(TWO_CHAINS)
    rules = Rules(
        draw=1, max_passes=passes, foundation_to_tableau=True, empty_column="king", face_down=(1, 2, 1, 4, 1, 3)
    )
    game = Klondike.from_position(position, rules=rules)
    found = solve(game, seconds=math.inf, max_states=3_000)
    assert found.outcome == "solved"
    assert replay_wins(game, found.moves)
    for laid, outcome, states in ((True, "solved", None), (False, "impossible", 12)):
        easier = easier_start(position, rules) if passes == 1 else Node.of(position, rules)
        assert easier is not None and easier.laid
        easier.laid = laid
        run = search._Search(easier, math.inf, 3_000)
        assert run.run() == outcome
        assert states is None or run.states == states


def _waste_blocked(max_passes: int | None) -> Klondike:
    """The 5H on the 4H in the waste, the black sixes home and no card may come back: the 5H can never leave."""
    position = {
        "tableau": [{"down": [], "up": ["KH"]}],
        "stock": [f"{r}{s}" for s in "CS" for r in "789TJQK"] + [f"{r}H" for r in "6789TJQ"],
        "waste": ["4H", "5H"],
        "foundations": {"C": 6, "D": 13, "H": 3, "S": 6},
    }
    rules = Rules(face_down=(0,), max_passes=max_passes, foundation_to_tableau=False)
    return Klondike.from_position(position, rules=rules)


@pytest.mark.pure
def test_dead_end_in_the_waste_of_the_last_pass() -> None:
    """In the last pass the waste is a pile: the 4H leaves only after the 5H on it, which has nowhere to go, a dead
    end the reference search confirms. While a recycle is left the talon is taken as free, and the test says
    nothing.
    """
    assert is_dead(Node.of(_waste_blocked(1)))
    with pytest.MonkeyPatch.context() as mp:
        unpruned(mp)
        assert solve(_waste_blocked(1), seconds=math.inf, max_states=200_000).outcome == "impossible"
    assert not is_dead(Node.of(_waste_blocked(None)))
    assert not is_dead(Node.of(_waste_blocked(2)))


def test_a_foundation_card_comes_back_only_to_free_the_one_below_it() -> None:
    """Fault 1: the 10H must come back (for the 9C under the 8C on the sixth column), and for that the JD above
    it first, though no card could go on the JD: a return was dropped when nothing could go on the card itself.
    """
    position = {
        "tableau": [
            {"down": ["KS"], "up": ["QS"]},
            {"down": ["QH"], "up": ["JC"]},
            {"down": ["TC"], "up": ["KC"]},
            {"down": ["QD", "9C"], "up": ["KH"]},
            {"down": ["JS", "KD"], "up": ["JH"]},
            {"down": ["QC", "7C"], "up": ["8C"]},
        ],
        "stock": [],
        "waste": [],
        "foundations": {"C": 6, "D": 11, "H": 10, "S": 10},
    }
    game = Klondike.from_position(position, rules=Rules(face_down=(1, 1, 1, 2, 2, 2)))
    assert reference_solve(game, max_states=50_000).outcome == "solved"
    found = solve(game, seconds=math.inf, max_states=50_000)
    assert found.outcome == "solved"
    assert replay_wins(game, found.moves)


def test_a_card_buried_in_a_foundation_counts_as_one_that_could_go_on_a_talon_card() -> None:
    """Fault 2: with draw 1 and unlimited passes a talon card is put out only when a card that could go on it is
    at hand; the 3C under the 4C and 5C did not count, though it comes back once they do. The 4H from the stock
    onto the 5S is now among the moves tried (the 3S, the other card for it, lies face down).
    """
    rest = [f"{r}C" for r in "6789TJQK"] + [f"{r}H" for r in "56789TJQ"] + [f"{r}S" for r in "46789TJQK"]
    position = {
        "tableau": [{"down": [], "up": ["5S"]}, {"down": ["3S"], "up": ["KH"]}],
        "stock": ["4H", *rest],
        "waste": [],
        "foundations": {"C": 5, "D": 13, "H": 3, "S": 2},
    }
    game = Klondike.from_position(position, rules=Rules(face_down=(0, 1)))
    st = Node.of(game)
    four = st.talon.index(Card.parse("4H").index)
    assert (W2T, four, 0, 0) in generate(st)
    without_returns = Klondike.from_position(position, rules=Rules(face_down=(0, 1), foundation_to_tableau=False))
    st = Node.of(without_returns)
    assert (W2T, four, 0, 0) not in generate(st), "the 3C can never come back: nothing could go on the 4H"
