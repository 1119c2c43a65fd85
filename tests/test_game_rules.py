"""The rules of play for the three presets: drawing, recycling, pass limits, building, empty columns,
automatic turning, foundation returns, the implied run of ``tA-tB``, legal moves, winning and being stuck.
"""

from __future__ import annotations

import pytest

from patiencelab import Card, IllegalMoveError, Klondike, Move, PatienceError, Rules

from .model_helpers import col, game_from, state

STANDARD3 = Rules.preset("standard", draw=3)
TRADITIONAL1 = Rules.preset("traditional", draw=1)
TRADITIONAL3 = Rules.preset("traditional", draw=3)
SIX = Rules.preset("six-column")


def texts(cards: tuple[Card, ...]) -> list[str]:
    return [str(c) for c in cards]


def legal(game: Klondike) -> set[str]:
    return {str(m) for m in game.legal_moves()}


def test_draw_one_turns_the_next_card() -> None:
    game = game_from([col("", "KS")], stock="5H 6C 7D", rest="t1")
    assert game.draw() == Move.parse("d")
    assert texts(game.waste) == ["5H"]
    assert texts(game.stock) == ["6C", "7D"]
    game.play("d")
    assert texts(game.waste) == ["5H", "6C"]


def test_draw_three_moves_three_cards_one_by_one() -> None:
    game = game_from([col("", "KS")], stock="5H 6C 7D 8S 9H", rest="t1", rules=STANDARD3)
    game.draw()
    assert texts(game.waste) == ["5H", "6C", "7D"]  # the last of them is the playable card
    assert texts(game.stock) == ["8S", "9H"]
    game.draw()  # fewer when fewer are left
    assert texts(game.waste) == ["5H", "6C", "7D", "8S", "9H"]
    assert game.stock == ()


def test_draw_three_only_top_card_playable_and_the_next_becomes_playable() -> None:
    game = game_from([col("", "KS"), col("", "7C")], stock="6D 5S 6H", rest="t1", rules=STANDARD3)
    game.draw()
    assert str(game.waste[-1]) == "6H"
    assert game.can_play("w-t2")
    game.play("w-t2")
    assert str(game.waste[-1]) == "5S"
    assert game.can_play("w-t2")  # the 5♠ beneath became playable
    assert not game.can_play("w-t1")
    game2 = game_from([col("", "KS"), col("", "7C")], stock="6D 5S 6H", rest="t1", rules=STANDARD3)
    game2.draw()
    error = game2.check("6D-t2")
    assert error is not None and error.rule == "waste-top-only"


def test_draw_three_after_playing_top() -> None:
    game = game_from([col("", "KS"), col("", "7C")], stock="6D 5S 6H", rest="t1", rules=STANDARD3)
    game.draw()
    game.play("w-t2")  # 6H onto 7C
    assert texts(game.tableau[1].up) == ["7C", "6H"]
    game.play("w-t2")  # 5S onto 6H
    assert str(game.waste[-1]) == "6D"
    assert texts(game.tableau[1].up) == ["7C", "6H", "5S"]


def test_recycle_turns_the_waste_over_unshuffled() -> None:
    game = game_from([col("", "KS")], stock="5H 6C 7D", rest="t1")
    for _ in range(3):
        game.draw()
    waste = texts(game.waste)
    assert game.recycle() == Move.parse("r")
    assert texts(game.stock) == waste  # the first card drawn is drawn first again
    assert game.waste == ()
    assert game.recycles == 1
    game.draw()
    assert texts(game.waste) == ["5H"]


def test_unlimited_passes() -> None:
    game = game_from([col("", "KS")], stock="5H 6C", rest="t1", rules=STANDARD3)
    assert game.passes_left is None
    for _ in range(10):
        game.draw()
        game.recycle()
    assert game.recycles == 10
    assert game.passes_left is None


def test_traditional_draw_one_allows_no_recycle() -> None:
    game = game_from([col("", "KS")], stock="5H 6C", rest="t1", rules=TRADITIONAL1)
    assert game.passes_left == 0
    game.draw()
    game.draw()
    assert "r" not in legal(game)
    error = game.check("r")
    assert error is not None and error.rule == "no-passes-left"


def test_traditional_draw_three_allows_two_recycles() -> None:
    game = game_from([col("", "KS")], stock="5H 6C", rest="t1", rules=TRADITIONAL3)
    assert game.passes_left == 2
    for left in (1, 0):
        game.draw()
        game.recycle()
        assert game.passes_left == left
    game.draw()
    with pytest.raises(IllegalMoveError) as info:
        game.recycle()
    assert info.value.rule == "no-passes-left"
    assert game.recycles == 2


@pytest.mark.parametrize("passes", [1, 2, 4])
def test_max_passes_n_allows_n_minus_one_recycles(passes: int) -> None:
    rules = Rules(max_passes=passes)
    game = game_from([col("", "KS")], stock="5H", rest="t1", rules=rules)
    done = 0
    while True:
        game.draw()
        if not game.can_play("r"):
            break
        game.recycle()
        done += 1
    assert done == passes - 1


def test_foundation_to_tableau_on_and_off() -> None:
    on = game_from([col("", "6S")], found={"H": 5})
    assert "fH-t1" in legal(on)
    on.play("fH-t1")
    assert texts(on.tableau[0].up) == ["6S", "5H"]
    assert on.foundations[Card.parse("5H").suit] == 4
    off = game_from([col("", "6S")], found={"H": 5}, rules=TRADITIONAL1)
    assert "fH-t1" not in legal(off)
    with pytest.raises(IllegalMoveError):
        off.play("fH-t1")


def test_empty_column_takes_a_king_or_a_king_led_run() -> None:
    game = game_from([col(), col("3C", "KH QS JD"), col("", "QD"), col("", "KC")], waste="KD")
    moves = legal(game)
    assert {"t2-t1", "t4-t1", "w-t1"} <= moves
    assert "t3-t1" not in moves
    assert game.moving_cards("t2-t1") == tuple(Card.parse(c) for c in ("KH", "QS", "JD"))
    game.play("t2-t1")
    assert texts(game.tableau[0].up) == ["KH", "QS", "JD"]
    assert texts(game.tableau[1].up) == ["3C"]  # the exposed card turned up at once
    assert game.tableau[1].down == ()


def test_empty_column_any() -> None:
    rules = Rules(empty_column="any")
    game = game_from([col(), col("3C", "9H 8S"), col("", "QD")], waste="4D", rules=rules)
    moves = legal(game)
    assert {"t2-t1", "t3-t1", "w-t1"} <= moves
    assert game.moving_cards("t2-t1") == (Card.parse("9H"), Card.parse("8S"))
    assert game.moving_cards("8S-t1") == (Card.parse("8S"),)
    game.play("w-t1")
    assert texts(game.tableau[0].up) == ["4D"]


def test_exposed_card_turns_face_up() -> None:
    game = game_from([col("2D 7H", "AS"), col("", "8C")], found={"S": 0})
    game.play("t1-f")
    assert texts(game.tableau[0].up) == ["7H"]
    assert texts(game.tableau[0].down) == ["2D"]
    game.play("t1-t2")
    assert texts(game.tableau[0].up) == ["2D"]
    assert game.tableau[0].down == ()


def test_runs_move_as_a_unit_and_card_form_names_the_source() -> None:
    game = game_from([col("", "9S 8H 7C 6D"), col("", "9C"), col("", "KS")], waste="2C", found={"C": 1})
    assert game.moving_cards("t1-t2") == tuple(Card.parse(c) for c in ("8H", "7C", "6D"))
    assert game.play("8H-t2") == Move.parse("t1-t2")  # place form back
    assert texts(game.tableau[0].up) == ["9S"]
    assert texts(game.tableau[1].up) == ["9C", "8H", "7C", "6D"]
    assert game.history == (Move.parse("t1-t2"),)


def test_card_form_from_waste_and_foundation_resolves_to_place_form() -> None:
    game = game_from([col("", "6S"), col("", "KS")], waste="2C", found={"C": 1, "H": 5})
    assert game.play("2C-f") == Move.parse("w-f")
    assert game.play("5H-t1") == Move.parse("fH-t1")
    assert game.play("5H-f") == Move.parse("t1-f")
    assert all(m.card is None for m in game.history)


def test_implied_run_lengths() -> None:
    game = game_from([col("", "KS QH JC TD 9S"), col("", "JS"), col("", "TH"), col("", "QD"), col()])
    assert game.moving_cards("t1-t2") == tuple(Card.parse(c) for c in ("TD", "9S"))
    assert game.moving_cards("t1-t3") == (Card.parse("9S"),)
    assert game.moving_cards("t1-t4") == tuple(Card.parse(c) for c in ("JC", "TD", "9S"))
    assert game.moving_cards("t1-t5") == tuple(Card.parse(c) for c in ("KS", "QH", "JC", "TD", "9S"))
    game.play("t1-t4")
    assert texts(game.tableau[0].up) == ["KS", "QH"]
    assert texts(game.tableau[3].up) == ["QD", "JC", "TD", "9S"]


def test_implied_run_same_colour_is_refused() -> None:
    game = game_from([col("", "KS QH JC TD 9S"), col("", "JH")])
    error = game.check("t1-t2")
    assert error is not None and error.rule == "alternate-colors"
    assert "10♦" in error.reason


def test_moving_cards_for_other_moves() -> None:
    game = game_from([col("", "9S 8H"), col("", "9C")], waste="2C", found={"C": 1, "H": 7})
    assert game.moving_cards("d") == ()
    assert game.moving_cards("w-f") == (Card.parse("2C"),)
    assert game.moving_cards("t1-f") == (Card.parse("8H"),)
    assert game.moving_cards("t1-t2") == (Card.parse("8H"),)
    with pytest.raises(IllegalMoveError):
        game.moving_cards("w-t1")


def test_legal_moves_are_place_form_and_playable() -> None:
    for seed in range(5):
        for rules in (Rules(), STANDARD3, TRADITIONAL1, SIX, Rules(empty_column="any")):
            game = Klondike(seed=seed, rules=rules)
            for _ in range(15):
                moves = game.legal_moves()
                for move in moves:
                    if move.card is not None:  # only part of a run to an empty column, when any card may go there
                        assert rules.empty_column == "any" and move.target is not None
                        assert not game.tableau[int(move.target[1]) - 1].up
                    assert game.can_play(move)
                    assert game.check(move) is None
                if not moves:
                    break
                game.play(moves[seed % len(moves)])


def test_legal_moves_match_checks_on_every_place_pair() -> None:
    game = game_from(
        [col("3C", "KH QS JD"), col("", "QD"), col(), col("", "TC"), col("2S", "7C")],
        waste="6H",
        found={"H": 5, "C": 2, "S": 1},
    )
    places = [f"t{i}" for i in range(1, 8)]
    candidates = ["d", "r", "w-f"] + [f"w-{t}" for t in places]
    candidates += [f"{a}-{b}" for a in places for b in [*places, "f"] if a != b]
    candidates += [f"f{s}-{t}" for s in "CDHS" for t in places]
    expected = {m for m in candidates if game.can_play(m)}
    assert legal(game) == expected
    assert expected == {"w-f", "w-t5", "t1-t3", "t1-t6", "t1-t7", "t4-t1", "d"}
    assert len(game.legal_moves()) == len(expected)  # no duplicates


def test_six_column_game_plays() -> None:
    game = Klondike(seed=11, rules=SIX)
    assert len(game.tableau) == 6
    game.draw()
    assert len(game.waste) == 3
    assert len(game.stock) == 22


def test_winning() -> None:
    game = game_from([col("", "KS")], found={"C": 13, "D": 13, "H": 13, "S": 12})
    assert not game.is_won
    assert game.status == "playing"
    assert "t1-f" in legal(game)
    game.play("t1-f")
    assert game.is_won
    assert game.status == "won"
    assert game.legal_moves() == []
    assert not game.is_stuck


SPADE_TOPS = ["KS", "QS", "JS", "TS", "9S", "8S", "7S"]


def spade_columns(tops: list[str]) -> list[tuple[str, str]]:
    return [col("", top) if top else col() for top in tops]


def test_stuck_when_nothing_is_legal() -> None:
    game = game_from(spade_columns(SPADE_TOPS), rest="t2", found={"C": 13, "D": 13})
    assert game.legal_moves() == []
    assert game.is_stuck
    assert game.status == "stuck"


def test_a_pointless_king_move_counts() -> None:
    tops = ["KS", "", *SPADE_TOPS[1:6]]
    game = game_from(spade_columns(tops), rest="t3", found={"C": 13, "D": 13}, rules=TRADITIONAL1)
    assert game.legal_moves() == [Move.parse("t1-t2")]
    assert not game.is_stuck
    assert game.status == "playing"


def test_a_foundation_return_counts() -> None:
    tops = ["KS", "KH", *SPADE_TOPS[2:]]
    game = game_from(spade_columns(tops), rest="t3", found={"C": 12, "D": 13})
    assert legal(game) == {"fC-t2"}
    assert not game.is_stuck


def test_a_stock_that_never_helps_is_stuck_once_it_is_seen() -> None:
    # Reading: is_stuck counts every legal move, yet draws and recycles that can never make another move legal
    # do not keep the game alive (else no game with unlimited passes could ever be stuck). It is decided from
    # what the player sees: while the stock is unseen it might hold the AH, so only its draws tell.
    stuck = game_from(spade_columns(SPADE_TOPS), stock="5H 3H", rest="t2", found={"C": 13, "D": 13})
    assert stuck.legal_moves() == [Move.parse("d")]
    assert not stuck.is_stuck
    stuck.draw()
    stuck.draw()
    assert stuck.is_stuck
    helpful = game_from(spade_columns(SPADE_TOPS), stock="5H 6H", rest="t2", found={"C": 13, "D": 13})
    assert helpful.legal_moves() == [Move.parse("d")]
    assert not helpful.is_stuck
    helpful.draw()
    helpful.draw()
    assert not helpful.is_stuck


def test_failed_mutations_change_nothing() -> None:
    game = Klondike(seed=3)
    game.play("d")
    before = state(game)
    for call in (game.redo, game.recycle):
        with pytest.raises(PatienceError):
            call()
        assert state(game) == before


def test_part_of_a_run_to_an_empty_column_keeps_its_card_form() -> None:
    game = game_from([col("", "9S 8H 7C"), col("", ""), col("", "KD")], rules=Rules(empty_column="any"))
    assert Move.parse("8H-t2") in [Move(None, m.target, m.card) for m in game.legal_moves() if m.card]
    played = game.play("8H-t2")
    assert str(played) == "8H-t2" and played.source == "t1"
    assert [c.symbol for c in game.tableau[1].up] == ["8♥", "7♣"]
    replay = Klondike.from_record(game.record())
    assert replay == game and [str(m) for m in replay.history] == ["8H-t2"]
    game.undo()
    assert [c.symbol for c in game.tableau[0].up] == ["9♠", "8♥", "7♣"]
