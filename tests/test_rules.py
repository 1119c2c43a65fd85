"""Rule sets and scoring tables: the presets of ``docs/play.md``, frozen values, JSON round trips."""

from __future__ import annotations

import dataclasses

import pytest

from patiencelab import PatienceError, Rules, Scoring


def test_rules_default_is_the_standard_preset() -> None:
    assert Rules() == Rules.preset("standard")
    assert Rules.preset() == Rules()


@pytest.mark.parametrize("draw", [1, 3])
def test_standard_preset(draw: int) -> None:
    rules = Rules.preset("standard", draw=draw)
    assert rules.draw == draw
    assert rules.max_passes is None
    assert rules.foundation_to_tableau is True
    assert rules.face_down == (0, 1, 2, 3, 4, 5, 6)
    assert rules.empty_column == "king"
    assert rules.scoring == Scoring.preset("standard")


def test_standard_draw_defaults_to_one() -> None:
    assert Rules.preset("standard").draw == 1
    assert Rules.preset("traditional").draw == 1


@pytest.mark.parametrize(("draw", "passes"), [(1, 1), (3, 3)])
def test_traditional_preset(draw: int, passes: int) -> None:
    rules = Rules.preset("traditional", draw=draw)
    assert rules.draw == draw
    assert rules.max_passes == passes
    assert rules.foundation_to_tableau is False
    assert rules.face_down == (0, 1, 2, 3, 4, 5, 6)
    assert rules.empty_column == "king"
    assert rules.scoring == Scoring.preset("standard")


def test_six_column_preset() -> None:
    rules = Rules.preset("six-column")
    assert rules.draw == 3
    assert rules.max_passes is None
    assert rules.foundation_to_tableau is True
    assert rules.face_down == (1, 2, 3, 4, 5, 6)
    assert rules.empty_column == "king"
    assert rules.scoring == Scoring.preset("standard")
    dealt = sum(n + 1 for n in rules.face_down)
    assert dealt == 27
    assert 52 - dealt == 25


@pytest.mark.parametrize("name", ["standard", "traditional", "six-column"])
@pytest.mark.parametrize("scoring", ["standard", "windows", "vegas", "none"])
def test_scoring_by_name_or_value(name: str, scoring: str) -> None:
    by_name = Rules.preset(name, scoring=scoring)
    by_value = Rules.preset(name, scoring=Scoring.preset(scoring))
    assert by_name == by_value
    assert by_name.scoring == Scoring.preset(scoring)


def test_vegas_traditional_combination() -> None:
    rules = Rules.preset("traditional", draw=3, scoring="vegas")
    assert rules.max_passes == 3
    assert rules.scoring.start == -52
    assert rules.scoring.floor is None


@pytest.mark.parametrize("name", ["klondike", "Standard", "", "six_column"])
def test_unknown_preset(name: str) -> None:
    with pytest.raises(PatienceError):
        Rules.preset(name)


@pytest.mark.parametrize("name", ["las-vegas", "Windows", ""])
def test_unknown_scoring(name: str) -> None:
    with pytest.raises(PatienceError):
        Scoring.preset(name)
    with pytest.raises(PatienceError):
        Rules.preset("standard", scoring=name)


def test_scoring_tables_match_the_design() -> None:
    std = Scoring.preset("standard")
    assert (std.start, std.waste_to_tableau, std.to_foundation, std.foundation_to_tableau, std.turn_up) == (
        0,
        5,
        10,
        -15,
        5,
    )
    assert std.floor == 0
    assert std.recycle_points(3, 1) == -20
    assert std.recycle_points(1, 1) == 0
    win = Scoring.preset("windows")
    assert (win.start, win.waste_to_tableau, win.to_foundation, win.foundation_to_tableau, win.turn_up) == (
        0,
        5,
        10,
        -15,
        5,
    )
    assert [win.recycle_points(3, n) for n in range(1, 7)] == [0, 0, 0, -20, -20, -20]
    assert [win.recycle_points(1, n) for n in range(1, 4)] == [-100, -100, -100]
    assert win.floor == 0
    vegas = Scoring.preset("vegas")
    assert (vegas.start, vegas.waste_to_tableau, vegas.to_foundation, vegas.foundation_to_tableau) == (-52, 0, 5, -5)
    assert vegas.turn_up == 0
    assert vegas.floor is None
    assert vegas.recycle_points(3, 5) == 0
    assert vegas.recycle_points(1, 1) == 0
    none = Scoring.preset("none")
    assert (none.start, none.waste_to_tableau, none.to_foundation, none.foundation_to_tableau, none.turn_up) == (
        0,
        0,
        0,
        0,
        0,
    )
    assert none.recycle_points(3, 9) == 0
    assert none.recycle_points(1, 9) == 0


def test_rules_and_scoring_are_frozen() -> None:
    rules = Rules()
    with pytest.raises(dataclasses.FrozenInstanceError):
        rules.draw = 3  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        Scoring.preset("standard").start = 5  # type: ignore[misc]
    assert hash(rules) == hash(Rules())


@pytest.mark.parametrize(
    "kwargs",
    [
        {"draw": 0},
        {"draw": "3"},
        {"draw": True},
        {"max_passes": 0},
        {"max_passes": -1},
        {"foundation_to_tableau": "yes"},
        {"face_down": ()},
        {"face_down": (1, -1)},
        {"face_down": (10, 10, 10, 10, 10)},
        {"empty_column": "queen"},
        {"scoring": "standard"},
    ],
)
def test_bad_rules_are_rejected(kwargs: dict[str, object]) -> None:
    with pytest.raises(PatienceError):
        Rules(**kwargs)  # type: ignore[arg-type]


def test_empty_column_any_is_allowed() -> None:
    assert Rules(empty_column="any").empty_column == "any"


@pytest.mark.parametrize("name", ["standard", "traditional", "six-column"])
@pytest.mark.parametrize("draw", [1, 3])
@pytest.mark.parametrize("scoring", ["standard", "windows", "vegas", "none"])
def test_rules_json_round_trip(name: str, draw: int, scoring: str) -> None:
    rules = Rules.preset(name, draw=draw, scoring=scoring)
    assert Rules.from_json(rules.to_json()) == rules


def test_custom_scoring_json_round_trip() -> None:
    table = Scoring(name="house", to_foundation=7, floor=None)
    rules = Rules(scoring=table, empty_column="any", max_passes=2)
    assert Rules.from_json(rules.to_json()) == rules


def test_rules_repr_evaluates_back() -> None:
    rules = Rules.preset("traditional", draw=3, scoring="vegas")
    assert eval(repr(rules), {"Rules": Rules, "Scoring": Scoring}) == rules


@pytest.mark.parametrize("data", [{"draw": 1, "colour": "red"}, "standard", {"scoring": 5}])
def test_bad_rules_json(data: object) -> None:
    with pytest.raises(PatienceError):
        Rules.from_json(data)
