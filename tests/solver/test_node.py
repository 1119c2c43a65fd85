"""The solver's compact state: apply/undo restore it, and every generated move is legal in the model."""

from __future__ import annotations

import dataclasses
import math
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from patiencelab import Klondike, Move, Rules
from patiencelab.core.cards import Card
from patiencelab.solver.movegen import follow_up, generate, safe_move, safe_move_after, to_public
from patiencelab.solver.node import T2T, Node
from patiencelab.solver.search import _Search
from tests.solver.positions import partial_run_position

RULES = [
    Rules(),
    Rules(draw=3),
    Rules.preset("traditional"),
    Rules.preset("traditional", draw=3),
    Rules.preset("six-column"),
    Rules(empty_column="any", draw=2),
    Rules(max_passes=2, draw=3, foundation_to_tableau=False, empty_column="any"),
]


def snapshot(s: Node) -> tuple[object, ...]:
    """Everything that defines a state, copied."""
    return (
        [list(c) for c in s.down],
        [list(c) for c in s.up],
        list(s.talon),
        s.p,
        list(s.found),
        s.recycles,
        s.key(),
        s.downcards,
        s.ndown,
        s.home,
        s.tcards,
        s.fkey,
    )


def same_position(s: Node, game: Klondike) -> bool:
    """True when ``s`` holds the game's position (columns, talon, waste size, foundations, recycles), and what apply
    and undo keep beside it (the cards that may go home, the talon's cards, the foundations' key) as a node made
    from it has them.
    """
    g = Node.of(game)
    return (s.down, s.up, s.talon, s.p, s.found, s.recycles, s.home, s.tcards, s.fkey) == (
        g.down,
        g.up,
        g.talon,
        g.p,
        g.found,
        g.recycles,
        g.home,
        g.tcards,
        g.fkey,
    )


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10_000), rules_index=st.integers(0, len(RULES) - 1), walk=st.integers(0, 2**32))
def test_random_walk_matches_model_and_undo_restores(seed: int, rules_index: int, walk: int) -> None:
    rules = RULES[rules_index]
    game = Klondike(seed=seed, rules=rules)
    s = Node.of(game)
    rng = random.Random(walk)
    trail = []
    for _ in range(60):
        moves = generate(s)
        sm = safe_move(s)
        if sm is not None:
            moves.append(sm)
        if not moves:
            break
        m = rng.choice(moves)
        before = snapshot(s)
        for public in to_public(s, m):
            game.play(public)
        token = s.apply(m)
        trail.append((m, token, before))
        assert same_position(s, game), (m, [str(x) for x in game.history[-3:]])
    while trail:
        m, token, before = trail.pop()
        s.undo(m, token)
        assert snapshot(s) == before


def play_safe_moves(s: Node) -> list[tuple[tuple[int, int, int, int], int]]:
    """Play the safe foundation moves the search plays after every move; returns them with their undo tokens."""
    played = []
    sm = safe_move(s)
    while sm is not None:
        played.append((sm, s.apply(sm)))
        sm = safe_move(s)
    return played


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10_000), rules_index=st.integers(0, len(RULES) - 1), walk=st.integers(0, 2**32))
def test_key_after_is_the_key_the_move_leads_to(seed: int, rules_index: int, walk: int) -> None:
    """Along a random walk, every move that ``key_after`` can tell the key of leads to that key, once the safe
    moves are played.
    """
    walk_checking_key_after(Node.of(Klondike(seed=seed, rules=RULES[rules_index])), random.Random(walk))


def walk_checking_key_after(s: Node, rng: random.Random) -> tuple[int, int]:
    """The walk of the test above; returns how many moves it met and how many of them ``key_after`` told."""
    met = told = 0
    for _ in range(60):
        play_safe_moves(s)
        moves = generate(s)
        if not moves:
            break
        met += len(moves)
        for m in moves:
            expected = s.key_after(m)
            if expected is None:
                continue
            told += 1
            before = snapshot(s)
            played = [(m, s.apply(m)), *play_safe_moves(s)]
            assert s.key() == expected, m
            for done, token in reversed(played):
                s.undo(done, token)
            assert snapshot(s) == before
        s.apply(rng.choice(moves))
    return met, told


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10_000), rules_index=st.integers(0, len(RULES) - 1), walk=st.integers(0, 2**32))
def test_safe_move_after_finds_a_safe_move_whenever_there_is_one(seed: int, rules_index: int, walk: int) -> None:
    """Along a random walk, after every move (from a position with no safe move, as the search plays them) the
    shortcut ``safe_move_after`` finds a safe move exactly when the full ``safe_move`` does: with draw 1 and unlimited
    passes it looks at nothing after a talon card is put out.
    """
    s = Node.of(Klondike(seed=seed, rules=RULES[rules_index]))
    rng = random.Random(walk)
    checked = 0
    for _ in range(60):
        play_safe_moves(s)
        moves = [m for m in generate(s) if follow_up(s, m) is None]
        if not moves:
            break
        for m in moves:
            token = s.apply(m)
            assert (safe_move_after(s, m) is None) == (safe_move(s) is None), m
            s.undo(m, token)
            checked += 1
        s.apply(rng.choice(moves))
    assert checked or not generate(s)


def test_key_after_tells_most_moves() -> None:
    """The check above is not vacuous: ``key_after`` tells the key of most moves (not only ``None``)."""
    met = told = 0
    for seed in range(10):
        for rules in RULES:
            m, t = walk_checking_key_after(Node.of(Klondike(seed=seed, rules=rules)), random.Random(seed))
            met, told = met + m, told + t
    assert told > met / 2


def test_key_ignores_column_order() -> None:
    game = Klondike(seed=3)
    pos = game.position_json()
    swapped = dict(pos, tableau=[pos["tableau"][i] for i in (6, 5, 4, 3, 2, 1, 0)])
    a = Node.of(Klondike.from_position({**pos, "tableau": [pos["tableau"][i] for i in range(7)]}))
    b = Node.of(Klondike.from_position(swapped))
    # Face-down parts are told apart by their origin column, so compare positions without face-down cards.
    assert (a.key() == b.key()) == (a.ndown == 0)


def test_key_ignores_column_order_when_all_face_up() -> None:
    tableau: list[dict[str, list[str]]] = [
        {"down": [], "up": ["KS", "QH"]},
        {"down": [], "up": ["KD"]},
        {"down": [], "up": ["KH", "QS"]},
    ] + [{"down": [], "up": []}] * 4
    pos = {
        "tableau": tableau,
        "stock": ["QD"],
        "waste": ["JS"],
        "foundations": {"C": 13, "D": 11, "H": 11, "S": 10},
    }
    other = dict(pos, tableau=[tableau[1], tableau[0], *tableau[2:]])
    assert Node.of(Klondike.from_position(pos)).key() == Node.of(Klondike.from_position(other)).key()


def test_reachable_draw3_every_third_card_then_recycle() -> None:
    game = Klondike(seed=1, rules=Rules(draw=3))
    s = Node.of(game)
    reach = dict(s.reachable())
    assert sorted(reach) == [2, 5, 8, 11, 14, 17, 20, 23]
    assert reach[2] == 1 and reach[23] == 8


def test_reachable_respects_pass_limit() -> None:
    game = Klondike(seed=1, rules=Rules(draw=3, max_passes=1))
    for _ in range(3):
        game.play("d")
    s = Node.of(game)
    assert sorted(dict(s.reachable())) == [8, 11, 14, 17, 20, 23]
    unlimited = Node.of(Klondike.from_position(game.position_json(), rules=Rules(draw=3)))
    assert sorted(dict(unlimited.reachable())) == [2, 5, 8, 11, 14, 17, 20, 23]


def test_all_drawn_and_recycled_share_a_key_with_unlimited_passes() -> None:
    game = Klondike(seed=1, rules=Rules(draw=3))
    while game.stock:
        game.play("d")
    drawn = Node.of(game)
    game.play("r")
    recycled = Node.of(game)
    assert drawn.key() == recycled.key()
    assert sorted(i for i, _ in drawn.reachable()) == sorted(i for i, _ in recycled.reachable())
    limited = Klondike.from_position(game.position_json(), rules=Rules(draw=3, max_passes=3))
    limited_drawn = Klondike.from_position(drawn_position(limited), rules=Rules(draw=3, max_passes=3))
    assert Node.of(limited).key() != Node.of(limited_drawn).key()  # a pass used up is not the same


def test_wastes_of_a_multiple_of_draw_cards_share_a_key_with_the_fresh_stock() -> None:
    """With draw 3 and unlimited passes, a waste of 3 or 6 cards reaches the talon places a fresh stock does, so
    it shares its key; a waste of 1, 2, 4 or 5 cards reaches its own top too, and has a key of its own.
    """
    game = Klondike(seed=1, rules=Rules(draw=3))
    fresh = Node.of(game)
    wastes = {}
    for size in range(1, 7):
        position = game.position_json()
        talon = position["stock"]  # bottom first: the next card drawn is last
        one = dict(position, stock=talon[: len(talon) - size], waste=talon[len(talon) - size :][::-1])
        wastes[size] = Node.of(Klondike.from_position(one, rules=Rules(draw=3)))
        assert wastes[size].p == size and wastes[size].tidx == fresh.tidx
    for size, s in wastes.items():
        same_reach = {i for i, _ in s.reachable()} == {i for i, _ in fresh.reachable()}
        assert same_reach == (size % 3 == 0)
        assert (s.key() == fresh.key()) == same_reach
    limited = Klondike.from_position(game.position_json(), rules=Rules(draw=3, max_passes=3))
    three = {
        **game.position_json(),
        "stock": game.position_json()["stock"][:-3],
        "waste": game.position_json()["stock"][-3:][::-1],
    }
    assert Node.of(limited).key() != Node.of(Klondike.from_position(three, rules=Rules(draw=3, max_passes=3))).key()


@pytest.mark.parametrize("draw", [2, 3])
def test_stronger_keys_are_those_of_wastes_that_reach_more(draw: int) -> None:
    """For every waste size, the stronger keys are the keys of the wastes from which a strict superset of the talon
    places can be reached (and only with unlimited passes).
    """
    game = Klondike(seed=1, rules=Rules(draw=draw))
    talon = game.position_json()["stock"]
    states = []
    for size in range(len(talon) + 1):
        one = dict(game.position_json(), stock=talon[: len(talon) - size], waste=talon[len(talon) - size :][::-1])
        states.append(Node.of(Klondike.from_position(one, rules=Rules(draw=draw))))
    reach = [frozenset(i for i, _ in s.reachable()) for s in states]
    for s, places in zip(states, reach, strict=True):
        expected = {t.key() for t, more in zip(states, reach, strict=True) if more > places}
        assert set(s.stronger_keys(s.key())) == expected
    assert any(s.stronger_keys(s.key()) for s in states)
    limited = Node.of(Klondike.from_position(game.position_json(), rules=Rules(draw=draw, max_passes=3)))
    assert limited.stronger_keys(limited.key()) == []


def drawn_position(game: Klondike) -> dict[str, object]:
    """``game``'s position with every stock card drawn onto the waste (no recycle counted)."""
    copy = game.copy()
    while copy.stock:
        copy.play("d")
    return copy.position_json()


def twin_position(left: list[str], right: list[str]) -> Node:
    """Two columns over face-down cards topped by the twins 9C and 9S, with ``left`` on the 9C and ``right`` on
    the 9S; every other card home or in the stock.
    """
    used = {"4H", "4D", "9C", "9S", *left, *right}
    stock = [f"{r}{s}" for s in "CDHS" for r in "A23456789TJQK" if f"{r}{s}" not in used]
    position = {
        "tableau": [{"down": ["4H"], "up": ["9C", *left]}, {"down": ["4D"], "up": ["9S", *right]}],
        "stock": stock,
        "waste": [],
        "foundations": {"C": 0, "D": 0, "H": 0, "S": 0},
    }
    return Node.of(Klondike.from_position(position, rules=Rules(face_down=(1, 1))).snapshot())


def test_key_is_blind_to_twin_swaps() -> None:
    """What lies on two twins (same rank and colour) may swap without changing the key (the exact key tells
    them apart). The key is only compared within one search: its talon part names talon places, not cards.
    """
    a = twin_position(["8H", "7C"], [])
    b = twin_position([], ["8H", "7C"])
    c = twin_position(["8H"], ["8D"])
    d = twin_position(["8D"], ["8H"])
    assert a.key() == b.key() and a.exact_key() != b.exact_key()
    assert c.key() == d.key() and c.exact_key() != d.exact_key()


def test_the_keys_hashes_spread_over_the_tables_slots() -> None:
    """Python hashes an int as its value modulo 2**61 - 1, and a set picks a key's first slot by the hash's low
    bits. Those come from a key's mix of its columns' part and its talon folded into its foundations' field
    (``node._MIX``, ``node._FOLD``): without them the keys of each of these searches took 333 values of the hash's
    low 14 bits in all (of 16,318 keys, before draw-1 duties of talon cards were kept apart; 16,124 since), their
    slots crowded and each lookup probed long; with the columns' mix alone, 1,722; with both, 3,997.
    """
    keys = spread = 0
    for seed in (5, 6, 7):
        for draw in (1, 3):
            search = _Search(Node.of(Klondike(seed=seed, rules=Rules(draw=draw))), math.inf, 4_000)
            search.run()
            keys += len(search.seen_keys())
            spread += len({hash(k) & 0x3FFF for k in search.seen_keys()})
    assert keys == 16_124
    assert spread > keys // 5


@pytest.mark.parametrize("rules", RULES, ids=str)
def test_a_copy_is_the_position_anew(rules: Rules) -> None:
    """``Node.copy`` (the starts of a solve's other searches) is the node ``Node.of`` makes, under the rules given,
    and a walk on the copy leaves the original as it was: nothing they change is shared."""
    game = Klondike(seed=11, rules=rules)
    original = Node.of(game)
    before = snapshot(original)
    twin = original.copy(rules)
    assert snapshot(twin) == before
    assert twin.exact_key() == original.exact_key()
    rng = random.Random(11)
    for _ in range(40):
        moves = generate(twin)
        if not moves:
            break
        twin.apply(rng.choice(moves))
    assert snapshot(original) == before
    easier = dataclasses.replace(rules, draw=1, max_passes=None)
    assert snapshot(original.copy(easier)) == snapshot(Node.of(game.snapshot(), easier))


def test_public_moves_are_made_once_and_read_as_made() -> None:
    """``to_public`` hands out one move object for each public move (moves are immutable), equal to a move made
    from its text."""
    from patiencelab.core.moves import Move

    game = Klondike(seed=3, rules=Rules(draw=3))
    s = Node.of(game)
    seen: dict[str, Move] = {}
    rng = random.Random(3)
    for _ in range(80):
        moves = generate(s)
        if not moves:
            break
        m = rng.choice(moves)
        for public in to_public(s, m):
            assert public == Move.parse(str(public)) or public.card is not None
            assert seen.setdefault(str(public), public) is public
        s.apply(m)
    assert len(seen) > 5


def test_a_nodes_copy_asks_for_its_rules() -> None:
    """A node keeps no :class:`Rules`: the portfolio's starts made from one need them given."""
    from patiencelab.core.errors import PatienceError
    from patiencelab.solver.portfolio import eager_start, easier_start, talon_first_start

    start = Node.of(Klondike(seed=2, rules=Rules(draw=3)))
    for make in (eager_start, easier_start, talon_first_start):
        with pytest.raises(PatienceError, match="give the rules"):
            make(start)
    second = talon_first_start(start, Rules(draw=3))
    assert second is not None and second.talon_first and snapshot(second) == snapshot(start)
    assert talon_first_start(Node.of(Klondike(seed=2)), Rules()) is None


def test_a_key_tells_apart_the_recycles_left_with_any_pass_limit() -> None:
    """Fault 3: recycles counted up to 255 in the key, so with 300 passes the positions with 2 and 1 recycles
    left shared a key (and one could be skipped for the other); every count that matters is kept now.
    """
    position = {
        "tableau": [{"down": [], "up": ["KS"]}, {"down": [], "up": ["KH"]}],
        "stock": [f"{r}{s}" for s in "CD" for r in "A23456789TJQK"] + ["QH", "QS"],
        "waste": [],
        "foundations": {"C": 0, "D": 0, "H": 11, "S": 11},
    }
    keys = []
    for recycles in (296, 297, 298):
        pos = {**position, "recycles": recycles}
        game = Klondike.from_position(pos, rules=Rules(max_passes=300, face_down=(0, 0)))
        keys.append(Node.of(game).key())
    assert len(set(keys)) == 3
    # With as many recycles left as talon cards, more change nothing: those keys are one.
    many = [
        Node.of(
            Klondike.from_position({**position, "recycles": r}, rules=Rules(max_passes=10_000, face_down=(0, 0)))
        ).key()
        for r in (0, 100, 9_000)
    ]
    assert len(set(many)) == 1


def test_the_solver_names_a_partial_run_to_an_empty_column_as_the_game_does() -> None:
    """Fault 6, at its cause: the solver wrote such a move with no source (``8H-t2``), a form that is not among
    the game's legal moves, so hints asserted and reviews could not become lessons.
    """
    game = partial_run_position()
    st = Node.of(game)
    moves = to_public(st, (T2T, 0, 1, 1))
    assert moves == [Move("t1", "t2", Card.parse("8H"))]
    assert moves[0] in game.legal_moves()
