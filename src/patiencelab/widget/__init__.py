"""The notebook board: :class:`KlondikeWidget` (``board.py``), a thin anywidget adapter over the game, and the
parts it is made of (record keeping, lesson stepping, the winnability indicator).

``KlondikeWidget`` is imported on first use, so the pure parts of this package can be imported and tested
without anywidget or a built front end.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from patiencelab.widget.board import KlondikeWidget

__all__ = ["KlondikeWidget"]


def __getattr__(name: str) -> Any:
    if name == "KlondikeWidget":
        from patiencelab.widget.board import KlondikeWidget

        return KlondikeWidget
    raise AttributeError(f"module 'patiencelab.widget' has no attribute {name!r}")
