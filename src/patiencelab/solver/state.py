"""The old place of the solver's search node, kept for one release: ``State`` is now
:class:`patiencelab.solver.node.Node` ("state" means the board's synced state only).
"""

from __future__ import annotations

import warnings
from typing import Any


def __getattr__(name: str) -> Any:
    if name == "State":
        warnings.warn(
            "patiencelab.solver.state.State is renamed patiencelab.solver.node.Node", DeprecationWarning, stacklevel=2
        )
        from patiencelab.solver.node import Node

        return Node
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
