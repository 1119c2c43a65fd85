"""A board's work in worker threads: :class:`Background` runs a review or a quiz answer off the kernel's thread
and hands its result back to it, dropped when it went stale meanwhile.

Work starts through the board's :class:`~patiencelab.widget.runners.Runner`; results (and anything else a worker
thread hands over, such as the indicator's verdicts and the automatic player's moves) wait in a queue that the
host empties in the kernel's thread (:meth:`Host.schedule <patiencelab.widget.host.Host.schedule>`), always
under the board's lock. It is built with the board's collaborators: its host, lock, runner and status line, and
three calls of the board's: what it shows (:attr:`Background.token`), send the state (``sync``) and switch the review
off after a failed job (``failed``).
"""

from __future__ import annotations

import collections
import threading
from collections.abc import Callable
from typing import Any, Literal

from patiencelab.review import ReviewCancelledError
from patiencelab.widget.caption import Caption
from patiencelab.widget.host import Host
from patiencelab.widget.runners import Runner

__all__ = ["Background", "Kind"]

#: The kinds of work a board runs in a worker thread.
Kind = Literal["review", "quiz"]


class Background:
    """The board's work in worker threads (``busy``: the kind of the one running, or ``None``)."""

    def __init__(
        self,
        host: Host,
        lock: threading.RLock,
        runner: Runner,
        caption: Caption,
        *,
        token: Callable[[], tuple[Any, ...] | None],
        sync: Callable[..., None],
        failed: Callable[[str], None],
    ) -> None:
        self.host, self.lock, self.runner, self.caption = host, lock, runner, caption
        #: What the board shows (``None`` before it shows a game): work started for it is dropped when it changed.
        self.token = token
        self.sync, self.failed = sync, failed
        #: Work in a worker thread (a review, a quiz answer being judged): its kind, or None.
        self.busy: Kind | None = None
        #: Calls from worker threads waiting for the kernel's thread (see :meth:`deliver`).
        self._pending: collections.deque[Callable[[], None]] = collections.deque()

    def run(
        self,
        kind: Kind,
        job: Callable[[], Any],
        done: Callable[[Any], None],
        say: str,
        cancel: threading.Event | None = None,
        ended: Callable[[], None] | None = None,
    ) -> None:
        """Run ``job`` off the kernel's thread (the board's runner) and hand its result to ``done`` in the kernel's
        thread (see :meth:`deliver`), unless it went stale meanwhile: the board changed, or ``cancel`` was set
        (even after the job was done: the board then stays as it was and says so). A job that fails, or work
        that cannot start, switches the review off with a notice; the board plays on. ``say`` is the catalogue's
        sentence shown while the job runs; ``ended`` is called first when the job is over, whatever its end.
        """
        token = self.token()
        mine = object()  # whose "busy" message it is

        def finish(result: Any, error: BaseException | None) -> None:
            self.busy = None
            if ended is not None:
                ended()
            self.caption.unsay(mine)
            if cancel is not None and cancel.is_set() and not isinstance(error, ReviewCancelledError):
                error = ReviewCancelledError("the review was cancelled")  # cancelled after the job's last look
            if error is None and self.token() == token:
                try:
                    done(result)
                    return
                except Exception as err:  # showing it failed: off, as when the job fails
                    error = err
            if isinstance(error, ReviewCancelledError):  # stopped on purpose: the board stays as it was
                self.caption.notice("review.cancelled")
            elif error is not None:
                self.failed(f"{type(error).__name__}: {error}" if str(error) else type(error).__name__)
            self.sync(bump=False)

        def work() -> None:
            try:
                result, error = job(), None
            except Exception as err:  # a failure switches the feature off, never a traceback
                result, error = None, err
            self.deliver(lambda: finish(result, error))

        self.busy = kind
        self.caption.notice(say, by=mine)
        try:
            self.runner.start(kind, work)
        except Exception as err:  # no threads here (Pyodide): off, with a notice
            finish(None, err)
            return
        self.sync()

    def deliver(self, call: Callable[[], None]) -> None:
        """Run ``call`` (from a worker thread) in the kernel's thread, under the board's lock: it waits in a queue
        that the host empties there (:meth:`Host.schedule <patiencelab.widget.host.Host.schedule>`), or a cell
        waiting for it (:meth:`wait`, whose cell keeps the kernel busy). With no such thread (a plain script) the
        worker's thread runs it.
        """
        self._pending.append(call)
        if not self.host.schedule(self.run_pending):
            self.run_pending()

    def run_pending(self) -> None:
        """Run the calls handed over by worker threads, each once, in the order they came."""
        while True:
            try:
                call = self._pending.popleft()
            except IndexError:
                return
            with self.lock:
                if self.token() is not None:
                    call()

    def sync_unless_busy(self) -> None:
        """Show a change made elsewhere (another board of the same records stored a game: new bests) without a new
        version. Called from inside that board's store, so it never waits for this board's lock (two boards
        storing at once in two threads would wait for each other); when the board is busy, its next sync shows it.
        """
        if self.lock.acquire(blocking=False):
            try:
                if self.token() is not None:
                    self.sync(bump=False)
            finally:
                self.lock.release()

    def wait(self, timeout: float = 60.0) -> None:
        """Block until the work in worker threads (a review, a quiz answer) is done and shown."""
        self.runner.join(timeout, ("review", "quiz"))
        self.run_pending()
