"""The winnability indicator: the solver decides the current position in a background process, so neither the
kernel nor the board waits for it.
"""

from __future__ import annotations

import concurrent.futures
import json
import multiprocessing
import threading
from collections.abc import Callable
from typing import Any

from patiencelab.game import Klondike

__all__ = ["Indicator"]

_VERDICTS = {"solved": "winnable", "impossible": "lost"}


class Indicator:
    """Verdicts for positions, computed one at a time in a worker process; ``on_verdict`` is called (from a
    pool thread) when the verdict for the latest position arrives.
    """

    def __init__(self, on_verdict: Callable[[], None]) -> None:
        self._on_verdict = on_verdict
        self._lock = threading.Lock()
        self._pool: concurrent.futures.ProcessPoolExecutor | None = None
        self._key: str | None = None
        self._verdict: str | None = None
        self._pending: concurrent.futures.Future[Any] | None = None

    def state(self, game: Klondike, enabled: bool, seconds: float) -> dict[str, Any]:
        """``{"enabled", "verdict"}`` for ``game``; starts the solver when the position is new."""
        if not enabled:
            return {"enabled": False, "verdict": None}
        if game.is_won:
            return {"enabled": True, "verdict": "winnable"}
        if game.status == "stuck":
            return {"enabled": True, "verdict": "lost"}
        position, rules = game.position(), game.rules.to_json()
        key = json.dumps([position, rules], sort_keys=True)
        with self._lock:
            if key != self._key:
                self._key, self._verdict = key, "pending"
                self._submit(key, position, rules, seconds)
            return {"enabled": True, "verdict": self._verdict}

    def _submit(self, key: str, position: dict[str, Any], rules: dict[str, Any], seconds: float) -> None:
        from patiencelab.solver.helpers import verdict

        if self._pending is not None:
            self._pending.cancel()
        if self._pool is None:
            context = multiprocessing.get_context("spawn")
            self._pool = concurrent.futures.ProcessPoolExecutor(max_workers=1, mp_context=context)
        future = self._pool.submit(verdict, position, rules, seconds)
        future.add_done_callback(lambda done: self._done(key, done))
        self._pending = future

    def _done(self, key: str, future: concurrent.futures.Future[Any]) -> None:
        if future.cancelled():
            return
        try:
            outcome = future.result()
        except Exception:  # a broken worker means no verdict, never a broken board
            outcome = "unknown"
        with self._lock:
            if key != self._key:
                return
            self._verdict = _VERDICTS.get(outcome, "unknown")
        self._on_verdict()

    def wait(self, timeout: float) -> None:
        """Block until the pending verdict is in (or ``timeout`` seconds pass)."""
        pending = self._pending
        if pending is not None:
            concurrent.futures.wait([pending], timeout=timeout)

    def close(self) -> None:
        """Stop the worker process."""
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
