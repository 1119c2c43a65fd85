"""Deprecated: the services over the solver moved to :mod:`patiencelab.solving` (the search package never
imports the game). The old names still import from here, with a :class:`DeprecationWarning`, for one release.
"""

from __future__ import annotations

import warnings
from typing import Any

__all__: list[str] = []

#: The names that moved, each to :mod:`patiencelab.solving`.
MOVED = ("autocomplete_moves", "find_solvable_seed", "hint_move", "is_winnable", "verdict", "verdict_in_slices")


def __getattr__(name: str) -> Any:
    if name in MOVED:
        warnings.warn(
            f"patiencelab.solver.helpers.{name} moved to patiencelab.solving.{name}", DeprecationWarning, stacklevel=2
        )
        from patiencelab import solving  # a deprecated name: the services are above the search

        return getattr(solving, name)
    raise AttributeError(f"module 'patiencelab.solver.helpers' has no attribute {name!r}")
