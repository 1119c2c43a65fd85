"""Where background work runs: local worker processes that end with the process that started them (surveys,
player evaluations, the winnability indicator), or, where there are none (Pyodide in a browser), slices of work
in this thread's event loop between its other work. :func:`run_jobs` runs many jobs on any executor (a local
pool, a Dask client's executor) a window at a time, for surveys and evaluations alike.

``multiprocessing`` is imported only when a pool starts: Pyodide has no processes, and ``import patiencelab``
stays free of it.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import importlib.util
import inspect
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Generator, Iterable
from concurrent.futures import FIRST_COMPLETED, Executor, Future, wait
from typing import TYPE_CHECKING, Any

from patiencelab.core.limits import check_whole

if TYPE_CHECKING:
    from concurrent.futures import ProcessPoolExecutor
    from multiprocessing.process import BaseProcess

__all__ = [
    "MAX_WORKERS",
    "SliceExecutor",
    "has_processes",
    "process_pool",
    "progress_bar",
    "run_jobs",
    "stop_pool",
    "window",
]

#: The most processes a local pool may have.
MAX_WORKERS = 1024

#: How long the slice executor works before it lets the event loop handle messages again.
SLICE_SECONDS = 0.01


def progress_bar(**options: Any) -> Any:
    """A tqdm progress bar (a widget in notebooks, text in terminals) with ``options``. Where no thread can start
    (Pyodide in a browser) tqdm's monitor thread is turned off first, so it warns of nothing.
    """
    from tqdm.auto import tqdm  # type: ignore[import-untyped, unused-ignore]

    if not _has_threads():
        tqdm.monitor_interval = 0
    return tqdm(**options)


def _has_threads() -> bool:
    return sys.platform not in ("emscripten", "wasi")


def has_processes() -> bool:
    """Whether worker processes can start here: not in a browser's Python (Pyodide), which has none."""
    if sys.platform in ("emscripten", "wasi"):
        return False
    return importlib.util.find_spec("_multiprocessing") is not None


def _start_worker() -> None:
    """Set up a worker of a local pool: Ctrl-C is left to the parent, and the worker ends when the parent does.

    Only the parent sees Ctrl-C, so it can keep finished work and stop the workers. A parent that dies without
    stopping them (SIGKILL, a crash, a killed kernel) would leave them solving and then waiting for work forever,
    so a daemon thread waits on the parent's sentinel (the pipe or handle that ``multiprocessing`` gives a
    spawned child, which closes when the parent ends, on every platform) and ends this process at once.
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    import multiprocessing  # a worker of a multiprocessing pool has it already

    parent = multiprocessing.parent_process()
    if parent is not None:
        threading.Thread(target=_exit_with, args=(parent,), name="patiencelab-parent-watch", daemon=True).start()


def _exit_with(parent: BaseProcess) -> None:
    """Wait until ``parent`` has ended, then end this process (no cleanup: its work has no one to go to)."""
    parent.join()
    os._exit(1)


def process_pool(workers: int) -> ProcessPoolExecutor:
    """A local pool of fresh (spawned) processes that leave Ctrl-C to this one and end when it ends."""
    import multiprocessing  # here, not at the top: Pyodide has no processes
    from concurrent.futures import ProcessPoolExecutor

    check_whole(workers, "workers", low=1, high=MAX_WORKERS)
    return ProcessPoolExecutor(workers, multiprocessing.get_context("spawn"), _start_worker)


def stop_pool(pool: ProcessPoolExecutor) -> None:
    """Shut a pool down without waiting for the work its processes are on (they are ended)."""
    processes = dict(getattr(pool, "_processes", None) or {})
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes.values():
        process.terminate()
    for process in processes.values():
        process.join(5)


def window(executor: Executor) -> int:
    """How many jobs to keep submitted to ``executor``: enough to keep every worker busy, few enough to stop
    fast (twice its workers, or its Dask client's threads; 64 when it does not say).
    """
    size = getattr(executor, "_max_workers", None)
    if isinstance(size, int) and size > 0:
        return 2 * size
    client = getattr(executor, "_client", None)
    nthreads = getattr(client, "nthreads", None)
    if callable(nthreads):
        try:
            return max(2, 2 * int(sum(nthreads().values())))
        except Exception:  # pragma: no cover - a client that cannot answer
            pass
    return 64


def run_jobs(
    executor: Executor,
    job: Callable[..., Any],
    arguments: Iterable[tuple[Any, ...]],
    keep: Callable[[Any], None],
    size: int | None = None,
) -> None:
    """Run ``job(*args)`` on ``executor`` for each ``args`` of ``arguments``, at most ``size`` (default
    :func:`window`) at a time, and hand each result to ``keep`` as it finishes (in the order they finish).

    When anything goes wrong (a job raises, ``keep`` raises, Ctrl-C), the jobs not started are cancelled, the
    results already in are kept, and the exception goes on.
    """
    size = window(executor) if size is None else size
    pending: set[Future[Any]] = set()
    todo = iter(arguments)
    try:
        exhausted = False
        while True:
            while not exhausted and len(pending) < size:
                args = next(todo, None)
                if args is None:
                    exhausted = True
                else:
                    pending.add(executor.submit(job, *args))
            if not pending:
                return
            done, pending = wait(pending, return_when=FIRST_COMPLETED)
            for future in done:
                keep(future.result())
    except BaseException:
        for future in pending:
            future.cancel()
        for future in pending:
            if future.done() and not future.cancelled() and future.exception() is None:
                keep(future.result())
        raise


class SliceExecutor(concurrent.futures.Executor):
    """Runs jobs in the event loop of the thread that made it, a few milliseconds at a time, so the loop keeps
    handling messages (a click, the next cell) in between: background work for a host with no processes and no
    threads (Pyodide). A job that is a generator function runs a slice per step (``next``); any other job runs
    whole, in one turn of the loop. With no running loop, jobs run whole when submitted.

    A job's future stays pending until the job ends, so ``cancel()`` stops it at its next slice. Results and
    done-callbacks arrive in the loop's thread. :meth:`drive` runs a job to the end at once (for a
    caller that must wait in the loop's own thread).
    """

    def __init__(self, loop: asyncio.AbstractEventLoop | None = None) -> None:
        if loop is None:
            try:
                loop = asyncio.get_running_loop()
            except RuntimeError:
                loop = None
        self._loop = loop
        self._jobs: dict[concurrent.futures.Future[Any], Generator[None, None, Any]] = {}
        self._shutdown = False

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> concurrent.futures.Future[Any]:
        """Schedule ``fn(*args, **kwargs)``: a generator function runs a slice at a time, any other function in one."""
        if self._shutdown:
            raise RuntimeError("cannot submit to a slice executor that was shut down")
        future: concurrent.futures.Future[Any] = concurrent.futures.Future()
        job = fn(*args, **kwargs) if inspect.isgeneratorfunction(fn) else _whole(fn, args, kwargs)
        self._jobs[future] = job
        if self._loop is None or self._loop.is_closed():
            self.drive(future)
        else:
            self._loop.call_soon(self._step, future)
        return future

    def _step(self, future: concurrent.futures.Future[Any]) -> None:
        if self._run(future, time.perf_counter() + SLICE_SECONDS) and self._loop is not None:
            self._loop.call_soon(self._step, future)

    def _run(self, future: concurrent.futures.Future[Any], until: float) -> bool:
        """Step ``future``'s job until ``until``; True when it has more to do."""
        job = self._jobs.get(future)
        if job is None:
            return False
        if future.cancelled() or self._shutdown:
            self._jobs.pop(future, None)
            job.close()
            future.cancel()
            return False
        try:
            next(job)  # at least one step per turn
            while time.perf_counter() < until:
                next(job)
        except StopIteration as done:
            self._jobs.pop(future, None)
            if future.set_running_or_notify_cancel():  # pending until now, so that cancel() works at any time
                future.set_result(done.value)
            return False
        except BaseException as err:  # the job's error is its result, as in any executor
            self._jobs.pop(future, None)
            if future.set_running_or_notify_cancel():
                future.set_exception(err)
            return False
        return True

    def drive(self, future: concurrent.futures.Future[Any], timeout: float = float("inf")) -> None:
        """Run ``future``'s job in this thread now, until it is done or ``timeout`` seconds pass."""
        self._run(future, time.perf_counter() + timeout)

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        self._shutdown = True
        for future, job in list(self._jobs.items()):
            if cancel_futures or not wait:
                job.close()
                future.cancel()
            else:
                self.drive(future)
        self._jobs.clear()


def _whole(fn: Callable[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any]) -> Generator[None, None, Any]:
    return fn(*args, **kwargs)
    yield  # a generator that runs ``fn`` in its first step
