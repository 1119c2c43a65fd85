"""How a board runs its work off the kernel's thread: a :class:`Runner` starts each piece of background work (a
review, a quiz answer being judged, one turn of the automatic player), and the board hands the results back to
the kernel's thread through its host.

The board never starts a thread itself: it asks its runner, so a test can give it a runner that keeps the work
and runs it when the test says, in any order it likes (see ``tests/test_session_schedules.py``), instead of
racing real threads against the clock. :class:`ThreadRunner`, the default, starts one daemon thread per piece;
:class:`LoopRunner` runs the automatic player's turns on the kernel's event loop where no thread starts (a
browser's Python).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Protocol

__all__ = ["LoopRunner", "Runner", "ThreadRunner"]


class Runner(Protocol):
    """Starts a board's background work."""

    def start(
        self, name: str, work: Callable[[], None], *, delay: float = 0.0, wake: threading.Event | None = None
    ) -> None:
        """Run ``work`` once, off the kernel's thread, ``delay`` seconds from now (at once when ``wake`` is set
        meanwhile). Raises when no work can run off the kernel's thread here (no threads, as in Pyodide).
        """

    def join(self, timeout: float, names: tuple[str, ...] | None = None) -> bool:
        """Block until the work started so far (of these ``names``, or all) has run, or ``timeout`` seconds
        passed; ``True`` when none is left.
        """


class ThreadRunner:
    """Runs each piece of work in a daemon thread of its own."""

    def __init__(self) -> None:
        self._threads: list[threading.Thread] = []
        self._lock = threading.Lock()

    def start(
        self, name: str, work: Callable[[], None], *, delay: float = 0.0, wake: threading.Event | None = None
    ) -> None:
        """Start a thread that waits ``delay`` seconds (less once ``wake`` is set), then runs ``work``."""

        def run() -> None:
            if delay > 0:
                (wake if wake is not None else threading.Event()).wait(delay)
            work()

        thread = threading.Thread(target=run, name=f"patiencelab-{name}", daemon=True)
        thread.start()
        with self._lock:
            self._threads = [t for t in self._threads if t.is_alive()] + [thread]

    def join(self, timeout: float, names: tuple[str, ...] | None = None) -> bool:
        """Wait for the threads started so far (of these ``names``, or all), and for those they started
        meanwhile, up to ``timeout`` seconds.
        """
        deadline = time.monotonic() + timeout
        wanted = None if names is None else {f"patiencelab-{name}" for name in names}
        while True:
            with self._lock:
                alive = [t for t in self._threads if t.is_alive() and (wanted is None or t.name in wanted)]
            if not alive:
                return True
            left = deadline - time.monotonic()
            if left <= 0:
                return False
            alive[0].join(left)


class LoopRunner:
    """Runs each piece of work in the kernel's own thread, on its event loop, where no thread can start (Pyodide):
    ``later(delay, work)`` hands the work to the loop, ``delay`` seconds from now. The work then runs in the
    kernel's thread, so it must be short (one turn of the automatic player is).
    """

    def __init__(self, later: Callable[[float, Callable[[], None]], bool]) -> None:
        self._later = later

    def start(
        self, name: str, work: Callable[[], None], *, delay: float = 0.0, wake: threading.Event | None = None
    ) -> None:
        """Hand ``work`` to the loop ``delay`` seconds from now (``wake`` cannot shorten it: the work looks for
        itself whether it should still run).
        """
        if not self._later(delay, work):
            raise RuntimeError(f"no event loop takes the {name} work here")

    def join(self, timeout: float, names: tuple[str, ...] | None = None) -> bool:
        """Nothing to wait for off the kernel's thread: the loop runs the work when this thread is free."""
        return True
