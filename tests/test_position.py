"""Positions and deals: the JSON form, its checks, dealing order, seeded deals."""

from __future__ import annotations

import copy
from dataclasses import replace
from typing import Any

import pytest

from patiencelab import InvalidPositionError, InvalidRecordError, Klondike, PatienceError, Position, Rules

from .model_helpers import ORDERED_DECK, col, deal_columns, make_position, seeded_cards


def board(game: Klondike) -> list[tuple[list[str], list[str]]]:
    return [([str(c) for c in column.down], [str(c) for c in column.up]) for column in game.tableau]


def test_ordered_deal_goes_row_by_row() -> None:
    deal = "".join(ORDERED_DECK)
    game = Klondike(deal=deal)
    cards = list(ORDERED_DECK)
    # card 1 is column 1's face-up card; cards 2-7 go face down on columns 2-7; card 8 is column 2's face-up card
    assert board(game)[0] == ([], [cards[0]])
    assert [board(game)[c][0][0] for c in range(1, 7)] == cards[1:7]
    assert board(game)[1] == ([cards[1]], [cards[7]])
    assert board(game)[2] == ([cards[2], cards[8]], [cards[13]])
    assert board(game)[6][1] == [cards[27]]  # card 28 is column 7's face-up card
    assert [str(c) for c in game.stock] == cards[28:]
    assert len(game.stock) == 24
    assert game.waste == ()
    assert game.deal == deal


@pytest.mark.parametrize("seed", [0, 1, 7, 12345])
@pytest.mark.parametrize("preset", ["standard", "six-column"])
def test_seeded_deal(seed: int, preset: str) -> None:
    rules = Rules.preset(preset)
    game = Klondike(seed=seed, rules=rules)
    cards = seeded_cards(seed)
    assert game.seed == seed
    assert game.deal == "".join(cards)
    columns, stock = deal_columns(cards, rules.face_down)
    assert board(game) == columns
    assert [str(c) for c in game.stock] == stock
    assert Klondike(deal="".join(cards), rules=rules) == game


def test_six_column_deal() -> None:
    game = Klondike(seed=3, rules=Rules.preset("six-column"))
    assert len(game.tableau) == 6
    assert [len(c.down) for c in game.tableau] == [1, 2, 3, 4, 5, 6]
    assert [len(c.up) for c in game.tableau] == [1] * 6
    assert [len(c.down) + len(c.up) for c in game.tableau] == [2, 3, 4, 5, 6, 7]
    assert len(game.stock) == 25


def test_deal_accepts_symbols_and_ten_is_two_chars() -> None:
    game = Klondike(deal="".join(ORDERED_DECK).lower())
    assert game.deal == "".join(ORDERED_DECK)


@pytest.mark.parametrize(
    ("deal", "words"),
    [
        ("".join(ORDERED_DECK)[:-2], ["104", "102"]),
        ("".join(ORDERED_DECK) + "AC", ["104"]),
        ("AC" + "".join(ORDERED_DECK)[2:-2] + "AC", ["A♣"]),
        ("XX" + "".join(ORDERED_DECK)[2:], ["1"]),
        ("", ["104"]),
    ],
)
def test_bad_deals(deal: str, words: list[str]) -> None:
    with pytest.raises(InvalidPositionError) as info:
        Klondike(deal=deal)
    for word in words:
        assert word in str(info.value)


def test_seed_and_deal_are_exclusive() -> None:
    with pytest.raises(PatienceError):
        Klondike(seed=1, deal="".join(ORDERED_DECK))


def test_example_position_from_the_design() -> None:
    pos = make_position(
        [col("4C", "AD")],
        stock="KC",
        waste="7H",
        found={"C": 0, "D": 3, "H": 0, "S": 1},
        rest="stock",
    )
    pos["foundations"]["D"] = 3
    # AD cannot be both on the diamonds foundation (3 cards) and in column 1
    with pytest.raises(InvalidPositionError) as info:
        Klondike.from_position(pos)
    assert "A♦" in str(info.value) or "AD" in str(info.value)


def test_position_round_trip() -> None:
    pos = make_position(
        [col("4C", "9H 8S"), col("", "KD QC JH"), col("2S 3S", "TD")],
        stock="KC 5H",
        waste="7H 2H",
        found={"C": 2, "D": 0, "H": 1, "S": 1},
        recycles=2,
    )
    game = Klondike.from_position(pos)
    assert game.position_json() == pos
    assert Klondike.from_position(game.position_json()) == game
    assert game.recycles == 2
    assert [str(c) for c in game.stock][:2] == ["KC", "5H"]
    assert [str(c) for c in game.waste] == ["7H", "2H"]
    assert str(game.waste[-1]) == "2H"  # the playable card is last
    assert game.deal is None
    assert game.seed is None
    assert Position.from_json(pos).to_json() == pos


def test_from_position_accepts_unreachable_positions() -> None:
    # every card not on the foundation lies face down under column 1: 51 face-down cards
    pos = make_position([col("", "KS")], rest="t1")
    game = Klondike.from_position(pos)
    assert len(game.tableau[0].down) == 51
    assert game.position_json() == pos


def test_from_position_reads_lowercase_and_symbols() -> None:
    pos = make_position([col("", "KS")], rest="t1")
    pos["tableau"][0]["up"] = ["k♠"]
    game = Klondike.from_position(pos)
    assert str(game.tableau[0].up[0]) == "KS"


def broken(change: str) -> tuple[dict[str, Any], list[str]]:
    """A broken position and words its error must contain."""
    pos = make_position([col("4C", "9H 8S"), col("", "KD QC")], waste="2H", found={"S": 1})
    if change == "missing":
        pos["stock"].remove("5D")
        return pos, ["5♦"]
    if change == "duplicate":
        pos["waste"].append("8S")
        return pos, ["8♠"]
    if change == "duplicate-foundation":
        pos["waste"].append("AS")
        return pos, ["A♠"]
    if change == "run-order":
        pos["tableau"][1]["up"] = ["KD", "JH"]
        pos["stock"].append("QC")
        pos["stock"].remove("JH")
        return pos, ["t2", "J♥", "K♦"]
    if change == "run-colour":
        pos["tableau"][1]["up"] = ["KD", "QH"]
        pos["stock"] += ["QC"]
        pos["stock"].remove("QH")
        return pos, ["t2", "Q♥"]
    if change == "down-without-up":
        pos["tableau"][2] = {"down": ["5D"], "up": []}
        pos["stock"].remove("5D")
        return pos, ["t3"]
    if change == "bad-card":
        pos["stock"][0] = "1X"
        return pos, ["stock"]
    if change == "foundation-count":
        pos["foundations"]["S"] = 14
        return pos, ["S", "14"]
    if change == "foundation-suit":
        pos["foundations"]["X"] = 1
        return pos, ["X"]
    if change == "unknown-field":
        pos["score"] = 5
        return pos, ["score"]
    if change == "recycles":
        pos["recycles"] = -1
        return pos, ["recycles"]
    if change == "column-count":
        pos["tableau"].append({"down": [], "up": []})
        return pos, ["8"]
    if change == "column-shape":
        pos["tableau"][3] = ["5D"]
        pos["stock"].remove("5D")
        return pos, ["t4"]
    raise AssertionError(change)


CHANGES = [
    "missing",
    "duplicate",
    "duplicate-foundation",
    "run-order",
    "run-colour",
    "down-without-up",
    "bad-card",
    "foundation-count",
    "foundation-suit",
    "unknown-field",
    "recycles",
    "column-count",
    "column-shape",
]


@pytest.mark.parametrize("change", CHANGES)
def test_broken_positions_name_what_is_wrong(change: str) -> None:
    pos, words = broken(change)
    with pytest.raises(InvalidPositionError) as info:
        Klondike.from_position(pos)
    for word in words:
        assert word in str(info.value), (word, str(info.value))


def test_helper_position_is_valid() -> None:
    pos = make_position([col("4C", "9H 8S"), col("", "KD QC")], waste="2H", found={"S": 1})
    Klondike.from_position(copy.deepcopy(pos))


def test_position_with_wrong_column_count_for_the_rules() -> None:
    pos = make_position([col("", "KS")])
    with pytest.raises(InvalidPositionError):
        Klondike.from_position(pos, rules=Rules.preset("six-column"))
    six = make_position([col("", "KS")], n_columns=6)
    assert len(Klondike.from_position(six, rules=Rules.preset("six-column")).tableau) == 6
    with pytest.raises(InvalidPositionError):
        Klondike.from_position(six)


def test_position_object_with_wrong_column_count() -> None:
    position = Klondike.from_position(make_position([col("", "KS")])).snapshot()
    with pytest.raises(InvalidPositionError):
        Klondike.from_position(position, rules=Rules.preset("six-column"))


@pytest.mark.parametrize("value", ["tableau", 5, None, ["a"]])
def test_position_must_be_an_object(value: object) -> None:
    with pytest.raises(InvalidPositionError):
        Klondike.from_position(value)  # type: ignore[arg-type]


# ---------------------------------------------------------------------------------- recycles (issue 32, fault 4)

#: Rule sets with a pass limit and without: one pass (no recycle allowed), three passes, unlimited.
PASS_RULES = [Rules(draw=3, max_passes=1), Rules(draw=3, max_passes=3), Rules()]


def _recycled(rules: Rules, seed: int = 5) -> Klondike:
    """A game of ``rules`` played with draws and recycles only, as far as its passes go (at most two recycles)."""
    game = Klondike(seed=seed, rules=rules)
    while game.recycles < 2:
        if game.stock:
            game.play("d")
        elif game.can_play("r"):
            game.play("r")
        else:
            break
    if game.stock:
        game.play("d")
    return game


@pytest.mark.parametrize("recycles", [-3, -1, True, 1.5, None, "1"])
def test_a_position_object_with_bad_recycles_is_refused(recycles: object) -> None:
    start = Klondike(seed=1).snapshot()
    bad = Position(start.tableau, start.stock, start.waste, start.foundations, recycles)  # type: ignore[arg-type]
    with pytest.raises(InvalidPositionError, match="recycles must be a whole number from 0"):
        Klondike.from_position(bad)
    with pytest.raises(InvalidPositionError, match="recycles"):
        bad.check()


@pytest.mark.parametrize(("passes", "recycles"), [(1, 1), (1, 3), (3, 3), (3, 7)])
def test_recycles_beyond_the_pass_limit_are_refused(passes: int, recycles: int) -> None:
    rules = Rules(draw=3, max_passes=passes)
    position = {**Klondike(seed=1, rules=rules).position_json(), "recycles": recycles}
    with pytest.raises(InvalidPositionError, match=rf"recycles is {recycles}, but the rules allow {passes} pass"):
        Klondike.from_position(position, rules=rules)
    start = Klondike(seed=1, rules=rules).snapshot()
    with pytest.raises(InvalidPositionError, match="through the stock"):
        Klondike.from_position(
            Position(start.tableau, start.stock, start.waste, start.foundations, recycles), rules=rules
        )
    record = {**Klondike(seed=1, rules=rules).record(), "position": position}
    del record["deal"], record["seed"]
    with pytest.raises(InvalidRecordError, match="through the stock"):
        Klondike.from_record(record)


@pytest.mark.parametrize("passes", [1, 3])
def test_recycles_within_the_pass_limit_are_taken(passes: int) -> None:
    rules = Rules(draw=3, max_passes=passes)
    position = {**Klondike(seed=1, rules=rules).position_json(), "recycles": passes - 1}
    game = Klondike.from_position(position, rules=rules)
    assert game.recycles == passes - 1 and game.passes_left == 0


@pytest.mark.parametrize("stock_seen", [-1, 25, 1.0, True, None])
def test_a_bad_stock_seen_is_refused(stock_seen: object) -> None:
    position = {**Klondike(seed=1).position_json(), "stock_seen": stock_seen}
    with pytest.raises(InvalidPositionError, match="stock_seen must be a whole number from 0 to 24"):
        Klondike.from_position(position)


@pytest.mark.parametrize("rules", PASS_RULES, ids=["one-pass", "three-passes", "unlimited"])
def test_every_position_and_record_a_game_emits_reads_back(rules: Rules) -> None:
    """Positions with recycles, from a game and from games started from its positions, go round trip through
    ``position_json`` and ``from_position``, and their records replay: so a game can always be resumed."""
    game = _recycled(rules)
    assert game.recycles == min(2, (rules.max_passes or 3) - 1)
    for start in (game, Klondike.from_position(game.position_json(), rules=rules)):
        again = Klondike.from_position(start.position_json(), rules=rules)
        assert again == start and again.position_json() == start.position_json()
        assert replace(again.player_view(), history=()) == replace(start.player_view(), history=())
        assert Klondike.from_position(again.snapshot(), rules=rules).position_json() == start.position_json()
        replayed = Klondike.from_record(start.record())
        assert replayed == start and replayed.history == start.history
        if start.stock and start.passes_left != 0:
            start.play("d")
            resumed = Klondike.from_record(start.record())
            assert resumed.position_json() == start.position_json()
