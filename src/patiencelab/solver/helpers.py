"""Deprecated: the services over the solver moved to :mod:`patiencelab.solving` (the search package never
imports the game). The old names still import from here, with a :class:`DeprecationWarning`, for one release.
"""

from __future__ import annotations

from patiencelab.solver import moved_to_solving

__all__: list[str] = []

#: The names that moved, each to :mod:`patiencelab.solving`.
MOVED = ("autocomplete_moves", "find_solvable_seed", "hint_move", "is_winnable", "verdict", "verdict_in_slices")

__getattr__ = moved_to_solving(__name__, MOVED)
