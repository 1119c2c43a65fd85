"""A Klondike solver: depth-first search over a compact position with a transposition table.

``solve(game)`` decides a deal knowing every face-down card; the helpers give hints, autocompletion and
solvable seeds.
"""

from __future__ import annotations

from patiencelab.solver.helpers import autocomplete_moves, find_solvable_seed, hint_move, is_winnable
from patiencelab.solver.search import Outcome, Solution, solve

__all__ = [
    "Outcome",
    "Solution",
    "autocomplete_moves",
    "find_solvable_seed",
    "hint_move",
    "is_winnable",
    "solve",
]
