"""Where a board shows what it has to show: the :class:`Host` protocol of a
:class:`~patiencelab.widget.session.BoardSession`, and :class:`PlainHost`, the host of scripts and tests.

:class:`~patiencelab.widget.board.KlondikeWidget` is the host in a notebook (its traits, its comm, the kernel's
event loop); :class:`PlainHost` keeps everything in plain Python attributes.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from patiencelab.core.game import Klondike
    from patiencelab.lessons.format import Lesson

__all__ = ["Host", "PlainHost", "ShownBoard", "later"]


class Host(Protocol):
    """Where a session shows what it has to show, and how worker threads reach the kernel's thread."""

    def option_changed(self, name: str, value: Any) -> None:
        """The session's option ``name`` is now ``value``, as the front end asked (``show_moves``, ``indicator``)."""

    def show(self, state: dict[str, Any]) -> None:
        """Show the synced state (a new one every time; never changed afterwards)."""

    def show_labels(self, labels: dict[str, str]) -> None:
        """Show the board's words in its language."""

    def send(self, reply: dict[str, Any]) -> None:
        """Send a reply that comes after its intent was answered (a quiz answer judged in a worker thread)."""

    def schedule(self, call: Callable[[], None]) -> bool:
        """Run ``call`` soon in the kernel's thread (called from a worker thread); ``False`` when there is no
        such thread to hand it to (a plain script): the worker then runs it itself.
        """


class ShownBoard(Protocol):
    """What the parts of a board read and call of it (the public members of a
    :class:`~patiencelab.widget.session.BoardSession`): the game, language, lesson and options, the synced state, and
    how to send it. What else a part works with it is given when it is built.
    """

    #: The board's options.
    options: dict[str, Any]
    #: The last synced state.
    state: dict[str, Any]
    #: The board's words in its language.
    labels: dict[str, str]

    @property
    def game(self) -> Klondike:
        """The game shown."""

    @property
    def lang(self) -> str:
        """The board's language."""

    @property
    def lesson(self) -> Lesson | None:
        """The lesson shown."""

    @property
    def recording(self) -> bool:
        """Whether a lesson is being recorded."""

    def sync(self, change: Any = None, *, fresh: bool = False, bump: bool = True) -> None:
        """Send the state."""


class PlainHost:
    """A host of plain attributes: ``state``, ``labels`` and ``replies``. Worker threads run their results
    themselves.
    """

    def __init__(self) -> None:
        self.state: dict[str, Any] = {}
        self.labels: dict[str, str] = {}
        self.replies: list[dict[str, Any]] = []

    def option_changed(self, name: str, value: Any) -> None:
        """Nothing to follow: the session's ``options`` hold it."""

    def show(self, state: dict[str, Any]) -> None:
        """Keep the state as ``state``."""
        self.state = state

    def show_labels(self, labels: dict[str, str]) -> None:
        """Keep the words as ``labels``."""
        self.labels = labels

    def send(self, reply: dict[str, Any]) -> None:
        """Keep the reply in ``replies``."""
        self.replies.append(reply)

    def schedule(self, call: Callable[[], None]) -> bool:
        """No kernel thread to hand work to: the worker runs it."""
        return False


def later(host: Host) -> Callable[[float, Callable[[], None]], bool] | None:
    """How to run a call in the kernel's thread some seconds from now (called in that thread): the host's own
    ``later(delay, call)`` if it has one, else the event loop running in this thread (a kernel's, in a browser's
    Python too), else ``None``.
    """
    own = getattr(host, "later", None)
    if callable(own):
        return own  # type: ignore[no-any-return]
    try:
        loop = asyncio.get_running_loop()
    except RuntimeError:
        return None

    def call_later(delay: float, call: Callable[[], None]) -> bool:
        loop.call_later(delay, call)
        return True

    return call_later
