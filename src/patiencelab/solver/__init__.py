"""A Klondike solver: depth-first search over a compact position with a transposition table.

``solve(game)`` decides a position knowing every face-down card; ``solve_in_slices`` does the same a slice at a
time. The search works on a position and rules and never imports the game; the services built on it (winnability,
hints, solvable seeds, verdicts for worker processes) are in :mod:`patiencelab.solving`.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any

from patiencelab.solver.search import Outcome, Solution, solve, solve_in_slices

__all__ = ["Outcome", "Solution", "solve", "solve_in_slices"]

#: Names this package exported before the services moved to :mod:`patiencelab.solving`: they still import from
#: here, with a :class:`DeprecationWarning`, for one release.
MOVED = ("autocomplete_moves", "find_solvable_seed", "hint_move", "is_winnable")


def moved_to_solving(module: str, names: tuple[str, ...]) -> Callable[[str], Any]:
    """A module ``__getattr__`` that hands out ``names`` from :mod:`patiencelab.solving`, each with a
    :class:`DeprecationWarning`, and raises :class:`AttributeError` for any other name.
    """

    def moved(name: str) -> Any:
        if name not in names:
            raise AttributeError(f"module {module!r} has no attribute {name!r}")
        warnings.warn(f"{module}.{name} moved to patiencelab.solving.{name}", DeprecationWarning, 2)
        from patiencelab import solving  # a deprecated name: the services are above the search

        return getattr(solving, name)

    return moved


__getattr__ = moved_to_solving(__name__, MOVED)
