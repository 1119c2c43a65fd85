"""Names that moved still import from their old places for one release, with a DeprecationWarning."""

from __future__ import annotations

import importlib

import pytest

import patiencelab.solving


@pytest.mark.parametrize(
    ("old", "name"),
    [
        ("patiencelab.solver", "hint_move"),
        ("patiencelab.solver", "is_winnable"),
        ("patiencelab.solver", "find_solvable_seed"),
        ("patiencelab.solver", "autocomplete_moves"),
        ("patiencelab.solver.helpers", "verdict"),
        ("patiencelab.solver.helpers", "verdict_in_slices"),
        ("patiencelab.solver.helpers", "hint_move"),
    ],
)
def test_a_moved_name_imports_from_its_old_place_with_a_warning(old: str, name: str) -> None:
    module = importlib.import_module(old)
    with pytest.warns(DeprecationWarning, match=f"moved to patiencelab.solving.{name}"):
        value = getattr(module, name)
    assert value is getattr(patiencelab.solving, name)


def test_the_search_package_exports_the_search_only() -> None:
    import patiencelab.solver

    assert patiencelab.solver.__all__ == ["Outcome", "Solution", "solve", "solve_in_slices"]
    with pytest.raises(AttributeError):
        patiencelab.solver.no_such_name  # noqa: B018


def test_the_old_name_of_position_json_still_works_with_a_warning() -> None:
    from patiencelab import Klondike

    game = Klondike(seed=3)
    game.draw()
    with pytest.warns(DeprecationWarning, match=r"Klondike.position\(\) is renamed Klondike.position_json\(\)"):
        old = game.position()
    assert old == game.position_json() == game.snapshot().to_json()


def test_the_solver_s_old_state_is_its_node_with_a_warning() -> None:
    import patiencelab.solver.state as old
    from patiencelab.solver.node import Node

    with pytest.warns(DeprecationWarning, match="renamed patiencelab.solver.node.Node"):
        assert old.State is Node
    with pytest.raises(AttributeError):
        old.Nothing  # noqa: B018
