"""The winnability indicator: the solver decides the current position in a background process, so neither the
kernel nor the board waits for it, and it keeps thinking until it knows.

Each position is searched with a state budget that grows: a first quick job, then four times the positions for
each job after one that could not tell, until a verdict or the cap (a bound on the worker's memory). Budgets
count positions, not seconds, so a busy machine makes the verdict late, never "unknown". A job for a position
the game has left is cancelled; a large one already running is stopped with its worker.

Locking rule: the indicator's lock guards its few fields and is never held across a call that may call back
(submitting to the pool, the verdict callback). A verdict that is already in when the job is submitted (a fast
worker) is simply recorded; ``on_verdict`` is called only for verdicts that arrive later, in the pool's thread.
Where there are no processes (Pyodide in a browser), the same searches run in the kernel's own thread, a slice
of a few milliseconds at a time between its messages (:class:`~patiencelab.workers.SliceExecutor`), so the
verdicts are the same and the board stays quick. Only when neither can run does the indicator switch itself off
and say why.
"""

from __future__ import annotations

import concurrent.futures
import json
import math
import sys
import threading
import time
from collections.abc import Callable
from typing import Any

from patiencelab.core.game import Klondike
from patiencelab.core.limits import check_budget

__all__ = ["FIRST_STATES", "GROWTH", "MAX_STATES", "Executor", "Indicator"]

_VERDICTS = {"solved": "winnable", "impossible": "lost"}

#: Positions the first job for a position may search.
FIRST_STATES = 20_000
#: How much larger each next job's budget is.
GROWTH = 4
#: The default cap on one job's positions (the worker's memory grows with it: about 150 bytes a position).
MAX_STATES = 2_000_000
#: A running job at least this large is stopped with its worker when its position is left (a fresh worker
#: costs about a second; a smaller job is let finish).
_STOP_ABOVE = 100_000

#: Makes the executor that runs the solver jobs (one worker is enough: only the latest position matters).
Executor = Callable[[], concurrent.futures.Executor]


def _process_pool() -> concurrent.futures.Executor:
    """A worker process where there are processes, else slices in the kernel's thread."""
    from patiencelab.workers import SliceExecutor, has_processes, process_pool

    return process_pool(1) if has_processes() else SliceExecutor()


def _slices() -> concurrent.futures.Executor:
    from patiencelab.workers import SliceExecutor

    return SliceExecutor()


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
        self._budget = 0  # the positions of the pending job
        self._searched = 0  # the positions the jobs for this position searched without a verdict
        self._job: tuple[dict[str, Any], dict[str, Any], float, int] | None = None  # position, rules, seconds, cap
        self._asking: int | None = None  # the thread inside follow(), which reads a verdict that is in at once
        #: Jobs submitted so far (for tests and the curious).
        self.jobs = 0
        #: Why the indicator switched itself off (the worker could not start), or ``None``.
        self.error: str | None = None

    def follow(self, game: Klondike, enabled: bool, seconds: float = math.inf, max_states: int | None = None) -> None:
        """Start the solver when ``game``'s position is new (nothing while off, nor for a game won or stuck), and stop
        a large search for a position the game has left. ``max_states`` caps one job's positions (default
        :data:`MAX_STATES`); ``seconds`` bounds each job's time as well.
        """
        check_budget(max_states, seconds)
        if not enabled or self.error is not None or game.is_won or game.status == "stuck":
            return
        position, rules = game.position_json(), game.rules.to_json()
        key = json.dumps([position, rules], sort_keys=True)
        cap = MAX_STATES if max_states is None else max(1, max_states)
        with self._lock:
            if key == self._key:
                return
            self._key, self._verdict, self._searched = key, "pending", 0
            stale, stale_budget, self._pending = self._pending, self._budget, None
            self._job = (position, rules, seconds, cap)
        if stale is not None and not stale.cancel() and stale_budget >= _STOP_ABOVE:
            self._stop_pool()  # a large search for a position the game has left: stop it, not wait
        self._asking = threading.get_ident()
        try:
            self._submit(key, min(FIRST_STATES, cap))
        finally:
            self._asking = None

    def synced_part(self, game: Klondike, enabled: bool) -> dict[str, Any]:
        """``{"enabled", "verdict", "searched"}`` for ``game``, the position last followed (see :meth:`follow`, which
        starts the solver); reads only. ``searched`` counts the positions searched so far without a verdict (the
        work shows while it thinks).
        """
        if not enabled or self.error is not None:
            return {"enabled": False, "verdict": None, "searched": 0}
        if game.is_won:
            return {"enabled": True, "verdict": "winnable", "searched": 0}
        if game.status == "stuck":
            return {"enabled": True, "verdict": "lost", "searched": 0}
        with self._lock:
            if self.error is not None:
                return {"enabled": False, "verdict": None, "searched": 0}
            return {"enabled": True, "verdict": self._verdict, "searched": self._searched}

    def _submit(self, key: str, budget: int) -> None:
        from patiencelab.solver.verdicts import verdict, verdict_in_slices
        from patiencelab.workers import SliceExecutor

        with self._lock:
            if key != self._key or self._job is None:
                return
            position, rules, seconds, _cap = self._job
        try:
            try:
                if self._pool is None:
                    self._pool = self._make_executor()
                job = verdict_in_slices if isinstance(self._pool, SliceExecutor) else verdict
                future = self._pool.submit(job, position, rules, seconds, budget)
            except (NotImplementedError, OSError, ImportError):
                if self._make_executor is not _process_pool:
                    raise
                # no processes after all (a host that said it had them): the kernel's thread, in slices
                self._stop_pool()
                self._make_executor, self._pool = _slices, _slices()
                future = self._pool.submit(verdict_in_slices, position, rules, seconds, budget)
            self.jobs += 1
            with self._lock:
                if key == self._key:
                    self._pending, self._budget = future, budget
            future.add_done_callback(lambda done: self._done(key, budget, done))
        except Exception as err:  # no way to run the solver here: switch off, keep the board
            self.error = f"{type(err).__name__}: {err}" if str(err) else type(err).__name__
            self._stop_pool()

    def _done(self, key: str, budget: int, future: concurrent.futures.Future[Any]) -> None:
        if future.cancelled():
            return
        try:
            outcome = future.result()
        except Exception:  # a broken worker means no verdict, never a broken board
            outcome = "unknown"
        with self._lock:
            if key != self._key or self._job is None:
                return
            cap = self._job[3]
            again = outcome == "unknown" and budget < cap
            if again:
                self._searched += budget
            else:
                self._verdict = _VERDICTS.get(outcome, "unknown")
                self._pending = None
        if again:  # keep thinking, with a larger budget
            self._submit(key, min(cap, budget * GROWTH))
        if self._asking != threading.get_ident():  # one in while follow() asks: the sync that asked reads it
            self._on_verdict()

    def wait(self, timeout: float) -> None:
        """Block until the verdict for the current position is in (or ``timeout`` seconds pass)."""
        from patiencelab.workers import SliceExecutor

        deadline = time.monotonic() + timeout
        while (pending := self._pending) is not None and time.monotonic() < deadline:
            pool = self._pool
            if isinstance(pool, SliceExecutor):  # its jobs run in this thread: run them here
                pool.drive(pending, max(0.0, deadline - time.monotonic()))
            else:
                concurrent.futures.wait([pending], timeout=0.05)

    def _stop_pool(self) -> None:
        pool, self._pool = self._pool, None
        if pool is None:  # nothing to stop (and at interpreter exit, no lazy import of the process pool)
            return
        process = sys.modules.get("concurrent.futures.process")  # loaded if a process pool was ever made
        if process is not None and isinstance(pool, process.ProcessPoolExecutor):
            from patiencelab.workers import stop_pool

            stop_pool(pool)  # its worker may be deep in a search: end it rather than wait
        else:
            pool.shutdown(wait=False, cancel_futures=True)

    def close(self) -> None:
        """Stop the worker process."""
        self._stop_pool()
