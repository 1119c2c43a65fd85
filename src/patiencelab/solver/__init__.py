"""A Klondike solver: depth-first search over a compact position with a transposition table.

``solve(game)`` decides a position knowing every face-down card; ``solve_in_slices`` does the same a slice at a
time. The search works on a position and rules and never imports the game: the game's own methods
(``Klondike.solve``, ``is_winnable``, ``hint(peek=True)``) are built on it, :mod:`patiencelab.solver.seeds` finds
solvable seeds and :mod:`patiencelab.solver.verdicts` answers on plain JSON for worker processes.
"""

from __future__ import annotations

from patiencelab.solver.search import Outcome, Solution, solve, solve_in_slices

__all__ = ["Outcome", "Solution", "solve", "solve_in_slices"]
