"""Local worker processes that end with the process that started them (surveys, the winnability indicator).

``multiprocessing`` is imported only when a pool starts: Pyodide has no processes, and ``import patiencelab``
stays free of it.
"""

from __future__ import annotations

import os
import signal
import threading
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from concurrent.futures import ProcessPoolExecutor
    from multiprocessing.process import BaseProcess

__all__ = ["process_pool", "stop_pool"]


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

    return ProcessPoolExecutor(workers, multiprocessing.get_context("spawn"), _start_worker)


def stop_pool(pool: ProcessPoolExecutor) -> None:
    """Shut a pool down without waiting for the work its processes are on (they are ended)."""
    processes = dict(getattr(pool, "_processes", None) or {})
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes.values():
        process.terminate()
    for process in processes.values():
        process.join(5)
