"""The winnability indicator: the solver decides the current position in a background process, so neither the
kernel nor the board waits for it.

Locking rule: the indicator's lock guards its few fields and is never held across a call that may call back
(submitting to the pool, the verdict callback). A verdict that is already in when the job is submitted (a fast
worker) is simply recorded; ``on_verdict`` is called only for verdicts that arrive later, in the pool's thread.
When no worker can be started (no processes, as in Pyodide), the indicator switches itself off and says why.
"""

from __future__ import annotations

import concurrent.futures
import json
import threading
from collections.abc import Callable
from typing import Any

from patiencelab.game import Klondike

__all__ = ["Executor", "Indicator"]

_VERDICTS = {"solved": "winnable", "impossible": "lost"}

#: Makes the executor that runs the solver jobs (one worker is enough: only the latest position matters).
Executor = Callable[[], concurrent.futures.Executor]


def _process_pool() -> concurrent.futures.Executor:
    from patiencelab.workers import process_pool

    return process_pool(1)


class Indicator:
    """Verdicts for positions, computed one at a time by a worker; ``on_verdict`` is called (from a pool
    thread) when the verdict for the latest position arrives after it was asked for.
    """

    def __init__(self, on_verdict: Callable[[], None], executor: Executor = _process_pool) -> None:
        self._on_verdict = on_verdict
        self._make_executor = executor
        self._lock = threading.Lock()
        self._pool: concurrent.futures.Executor | None = None
        self._key: str | None = None
        self._verdict: str | None = None
        self._pending: concurrent.futures.Future[Any] | None = None
        self._submitting: int | None = None  # the thread inside submit(), whose callbacks must not call back
        #: Why the indicator switched itself off (the worker could not start), or ``None``.
        self.error: str | None = None

    def state(self, game: Klondike, enabled: bool, seconds: float, max_states: int | None = None) -> dict[str, Any]:
        """``{"enabled", "verdict"}`` for ``game``; starts the solver when the position is new."""
        if not enabled or self.error is not None:
            return {"enabled": False, "verdict": None}
        if game.is_won:
            return {"enabled": True, "verdict": "winnable"}
        if game.status == "stuck":
            return {"enabled": True, "verdict": "lost"}
        position, rules = game.position(), game.rules.to_json()
        key = json.dumps([position, rules], sort_keys=True)
        with self._lock:
            new = key != self._key
            if new:
                self._key, self._verdict = key, "pending"
                stale, self._pending = self._pending, None
        if new:
            if stale is not None:
                stale.cancel()
            self._submit(key, position, rules, seconds, max_states)
        with self._lock:
            if self.error is not None:
                return {"enabled": False, "verdict": None}
            return {"enabled": True, "verdict": self._verdict}

    def _submit(
        self, key: str, position: dict[str, Any], rules: dict[str, Any], seconds: float, max_states: int | None
    ) -> None:
        from patiencelab.solver.helpers import verdict

        self._submitting = threading.get_ident()
        try:
            if self._pool is None:
                self._pool = self._make_executor()
            future = self._pool.submit(verdict, position, rules, seconds, max_states)
            with self._lock:
                if key == self._key:
                    self._pending = future
            future.add_done_callback(lambda done: self._done(key, done))
        except Exception as err:  # no worker here (Pyodide has no processes): switch off, keep the board
            self.error = f"{type(err).__name__}: {err}" if str(err) else type(err).__name__
            self._stop_pool()
        finally:
            self._submitting = None

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
            self._pending = None
        if self._submitting != threading.get_ident():  # a verdict already in at submit time is read by state()
            self._on_verdict()

    def wait(self, timeout: float) -> None:
        """Block until the pending verdict is in (or ``timeout`` seconds pass)."""
        pending = self._pending
        if pending is not None:
            concurrent.futures.wait([pending], timeout=timeout)

    def _stop_pool(self) -> None:
        pool, self._pool = self._pool, None
        if isinstance(pool, concurrent.futures.ProcessPoolExecutor):
            from patiencelab.workers import stop_pool

            stop_pool(pool)  # its worker may be deep in a search: end it rather than wait
        elif pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)

    def close(self) -> None:
        """Stop the worker process."""
        self._stop_pool()
