"""Win-rate surveys: solve many seeded deals, locally or on any ``concurrent.futures`` executor (Dask too).

``survey(200, rules=Rules.preset("standard", draw=3), budget=10)`` solves seeds 0-199 in a local process pool,
shows a progress bar and returns a :class:`SurveyResult` with one row per deal and a summary. With ``path=`` the
rows go to a JSON-lines file as they finish; ``resume=True`` continues that file.
"""

from __future__ import annotations

import contextlib
import io
import json
import math
import os
import signal
import threading
import warnings
from collections.abc import Collection, Iterable, Iterator
from concurrent.futures import Executor
from types import FrameType
from typing import TYPE_CHECKING

from patiencelab.core.errors import ArgumentTypeError, PatienceError, quote
from patiencelab.core.game import Klondike
from patiencelab.core.limits import check_instance, check_path, check_seed, check_switch, check_whole, load_json
from patiencelab.core.rules import Rules
from patiencelab.solver import solve
from patiencelab.survey.files import (
    Budget,
    Row,
    Summary,
    SurveyFileError,
    SurveyResult,
    header,
    scan_file,
    summary_table,
)
from patiencelab.workers import has_processes, process_pool, progress_bar, run_jobs, stop_pool, window

if TYPE_CHECKING:
    from concurrent.futures import ProcessPoolExecutor

__all__ = [
    "Budget",
    "Row",
    "Summary",
    "SurveyFileError",
    "SurveyInterruptedWarning",
    "SurveyResult",
    "solve_seed",
    "summary_table",
    "survey",
]


class SurveyInterruptedWarning(UserWarning):
    """A survey stopped early (Ctrl-C); its result holds the deals finished so far."""


def solve_seed(seed: int, rules_json: str, seconds: float | None, max_states: int | None) -> Row:
    """Solve the deal of ``seed`` under the rules in ``rules_json`` (the worker that executors run)."""
    check_seed(seed)
    rules = Rules.from_json(load_json(rules_json, "rules_json"))
    solution = solve(
        Klondike(seed=seed, rules=rules), seconds=math.inf if seconds is None else seconds, max_states=max_states
    )
    return Row(seed, solution.outcome, len(solution.moves), solution.states, solution.seconds)


def _seeds(deals: int | Iterable[int]) -> Iterable[int]:
    if isinstance(deals, int) and not isinstance(deals, bool):
        return range(check_whole(deals, "deals", low=0))
    if not isinstance(deals, Iterable) or isinstance(deals, (str, bytes)):
        raise ArgumentTypeError(f"deals must be a number of deals or an iterable of seeds, not {quote(deals)}")
    return deals


class _Run:
    """The bookkeeping of one survey: rows by seed, seeds asked for, the file and the progress bar."""

    def __init__(self, rules: Rules, budget: Budget, progress: bool, total: int | None, file: _File | None) -> None:
        self.rules, self.budget, self.file = rules, budget, file
        self.rows: dict[int, Row] = {}
        self.asked: dict[int, None] = {}
        self.counts = dict.fromkeys(("solved", "impossible", "unknown"), 0)
        self.bar = progress_bar(total=total, disable=not progress, unit="deal", desc="survey", smoothing=0.05)
        self.args = (json.dumps(rules.to_json(), sort_keys=True), budget.seconds, budget.max_states)

    def known(self, rows: dict[int, Row]) -> None:
        """Take the rows of an earlier run of this survey."""
        self.rows.update(rows)

    def todo(self, seeds: Iterable[int]) -> Iterator[int]:
        """The seeds still to solve, recording every seed asked for."""
        for seed in seeds:
            check_seed(seed)
            if seed in self.asked:
                continue
            self.asked[seed] = None
            if seed in self.rows:
                self._count(self.rows[seed])
                continue
            yield seed

    def add(self, row: Row) -> None:
        """Keep a finished row (and append it to the file, unless writing it has failed before)."""
        self.rows[row.seed] = row
        if self.file is not None and not self.file.failed:
            self.file.write_line(json.dumps(row.to_json()))
        self._count(row)

    def _count(self, row: Row) -> None:
        self.counts[row.outcome] += 1
        self.bar.set_postfix(self.counts, refresh=False)
        self.bar.update(1)

    def result(self, complete: bool) -> SurveyResult:
        """The rows of the seeds asked for."""
        self.bar.close()
        rows = tuple(self.rows[s] for s in self.asked if s in self.rows)
        return SurveyResult(self.rules, self.budget, rows, complete=complete)


def _in_process(run: _Run, seeds: Iterable[int]) -> None:
    for seed in run.todo(seeds):
        run.add(solve_seed(seed, *run.args))


def _on_executor(run: _Run, seeds: Iterable[int], executor: Executor, size: int) -> None:
    run_jobs(executor, solve_seed, ((seed, *run.args) for seed in run.todo(seeds)), run.add, size)


def survey(
    deals: int | Iterable[int],
    rules: Rules | None = None,
    budget: float | Budget = 10.0,
    executor: Executor | None = None,
    *,
    workers: int | None = None,
    path: str | os.PathLike[str] | None = None,
    resume: bool = False,
    progress: bool = True,
) -> SurveyResult:
    """Solve many deals and return their rows and a summary.

    - ``deals``: seeds, or a number N for seeds 0 to N-1; rows are by seed (a repeated seed is solved once);
    - ``rules``: the :class:`Rules` (default: standard, draw 1);
    - ``budget``: seconds per deal, or a :class:`Budget` with seconds and/or ``max_states`` (a state budget
      alone gives the same rows on every executor and machine);
    - ``executor``: any :class:`concurrent.futures.Executor`, for example a Dask cluster's
      ``client.get_executor()``; by default a local process pool of ``workers`` processes (default: one per
      core), and with ``workers=1`` the deals are solved in this process;
    - ``path``: a JSON-lines file that gets each row as it finishes; an existing file is refused unless
      ``resume=True``, which solves only the seeds the file lacks (and refuses a file of other rules or budget);
    - ``progress``: show a progress bar (tqdm: a widget in notebooks, a text bar in terminals).

    Ctrl-C keeps the finished rows: the result comes back with ``complete=False`` and a
    :class:`SurveyInterruptedWarning`. SIGTERM (when no handler of its own is set) stops the pool and closes the
    file, then ends the process as SIGTERM does. A file that cannot be read or written (a missing folder, a
    folder, a damaged line, a full disk) raises :class:`SurveyFileError`; the rows written before stay in it.
    """
    try:
        with _sigterm_stops_the_survey():
            return _survey(deals, rules, budget, executor, workers, path, resume, progress)
    except _Terminated:
        signal.raise_signal(signal.SIGTERM)  # the default action, now that the pool is down and the rows are kept
        raise


def _survey(
    deals: int | Iterable[int],
    rules: Rules | None,
    budget: float | Budget,
    executor: Executor | None,
    workers: int | None,
    path: str | os.PathLike[str] | None,
    resume: bool,
    progress: bool,
) -> SurveyResult:
    rules = check_instance(Rules() if rules is None else rules, "rules", Rules)
    the_budget = Budget.of(budget)
    if executor is not None and workers is not None:
        raise PatienceError("give an executor or a number of workers, not both")
    workers = check_whole(workers, "workers", low=1) if workers is not None else os.cpu_count() or 1
    check_switch(resume, "resume")
    check_switch(progress, "progress")
    if path is not None:
        path = check_path(path)
    if not has_processes():  # Pyodide: no worker processes, so the deals are solved here, one after another
        workers = 1
    seeds = _seeds(deals)
    total = len(seeds) if isinstance(seeds, Collection) else None
    file, known = _open(path, rules, the_budget, resume) if path is not None else (None, {})
    try:
        run = _Run(rules, the_budget, progress, total, file)
        run.known(known)
        pool: ProcessPoolExecutor | None = None
        try:
            if executor is None and workers == 1:
                _in_process(run, seeds)
            elif executor is None:
                pool = process_pool(workers)
                _on_executor(run, seeds, pool, 2 * workers)
            else:
                _on_executor(run, seeds, executor, window(executor))
        except KeyboardInterrupt:
            if pool is not None:
                stop_pool(pool)
                pool = None
            result = run.result(complete=False)
            where = f"; rows are in {path}: continue with resume=True" if path is not None else ""
            warnings.warn(
                f"survey interrupted after {len(result.rows)} deals{where}", SurveyInterruptedWarning, stacklevel=3
            )
            return result
        except BaseException:
            run.bar.close()
            if pool is not None:
                stop_pool(pool)
                pool = None
            raise
        finally:
            if pool is not None:
                pool.shutdown()
        return run.result(complete=True)
    finally:
        if file is not None:
            file.close()


class _Terminated(BaseException):
    """SIGTERM arrived during a survey (a BaseException, so that nothing on the way swallows it)."""


def _raise_terminated(signum: int, frame: FrameType | None) -> None:
    raise _Terminated


@contextlib.contextmanager
def _sigterm_stops_the_survey() -> Iterator[None]:
    """Turn SIGTERM into :class:`_Terminated` while a survey runs, unless the program handles SIGTERM itself.

    Without this, SIGTERM ends the parent at once and leaves the pool's workers to notice it on their own.
    Signal handlers belong to the main thread, so a survey in another thread keeps the default; where signals
    cannot be handled (some Pyodide builds), nothing changes.
    """
    mine = False
    if threading.current_thread() is threading.main_thread():
        with contextlib.suppress(ValueError, OSError, AttributeError):
            if signal.getsignal(signal.SIGTERM) in (signal.SIG_DFL, None):
                signal.signal(signal.SIGTERM, _raise_terminated)
                mine = True
    try:
        yield
    finally:
        if mine:
            signal.signal(signal.SIGTERM, signal.SIG_DFL)


class _File:
    """A survey file open for appending: each line is one unbuffered write of the whole line, ended by a newline.

    A run that is killed leaves at most a torn last line, which a resumed run drops and solves again. There is no
    fsync per row: a killed process loses nothing the kernel has, and after a power cut a torn or zeroed tail is
    the same torn last line.
    """

    def __init__(self, name: str, raw: io.FileIO, end: int) -> None:
        self.name, self.raw, self.end = name, raw, end
        self.failed = False

    def write_line(self, text: str) -> None:
        """Append ``text`` and a newline; an error raises :class:`SurveyFileError` and leaves the earlier lines."""
        line = (text + "\n").encode("utf-8")
        data = memoryview(line)
        try:
            while data:
                data = data[self.raw.write(data) or 0 :]
        except OSError as e:
            self.failed = True
            with contextlib.suppress(OSError):  # drop the part of the line that got out; a torn line if this fails
                os.ftruncate(self.raw.fileno(), self.end)
            raise SurveyFileError(
                f"cannot write to {self.name}: {e.strerror or e}; the rows before are kept: continue with resume"
            ) from None
        self.end += len(line)

    def close(self) -> None:
        """Close the file."""
        try:
            self.raw.close()
        except OSError as e:
            raise SurveyFileError(f"cannot write to {self.name}: {e.strerror or e}") from None


def _open(path: str | os.PathLike[str], rules: Rules, budget: Budget, resume: bool) -> tuple[_File, dict[int, Row]]:
    """Open the survey file for appending: a new one gets a header; an old one is checked and read.

    An old file is left as it is when it is refused; when it is resumed, a torn last line is cut off first.
    """
    name = os.fspath(path)
    if os.path.isdir(name):
        raise SurveyFileError(f"{name} is a folder: give the path of a survey file in it")
    first = (json.dumps(header(rules, budget)) + "\n").encode("utf-8")
    if _is_new(name, first):
        file = _File(name, _raw_open(name, "w"), 0)
        try:
            file.write_line(first.decode("utf-8").rstrip("\n"))
        except SurveyFileError:
            file.raw.close()
            raise
        return file, {}
    if not resume:
        raise SurveyFileError(f"{name} exists: pass resume=True (--resume) to continue it, or choose another path")
    scan = scan_file(name)
    if scan.rules != rules:
        raise SurveyFileError(f"{name} is a survey of other rules ({scan.rules.to_json()}); it was left as it is")
    if scan.budget != budget:
        raise SurveyFileError(f"{name} is a survey with another budget ({scan.budget}); it was left as it is")
    file = _File(name, _raw_open(name, "a"), scan.end)
    try:
        if scan.torn:
            _cut(file, scan.end)
        elif not scan.ends_in_newline:
            file.write_line("")
    except SurveyFileError:
        file.raw.close()
        raise
    return file, scan.rows


def _is_new(name: str, first: bytes) -> bool:
    """Whether the file is missing, empty (a device too) or no more than a torn start of the header it would get."""
    try:
        if os.stat(name).st_size == 0:
            return True
        with open(name, "rb") as f:
            start = f.read(len(first))
            return first.startswith(start) and start != first and not f.read(1)
    except (FileNotFoundError, NotADirectoryError):  # opening it to write says what is wrong
        return True
    except OSError as e:
        raise SurveyFileError(f"cannot read {name}: {e.strerror or e}") from None


def _raw_open(name: str, mode: str) -> io.FileIO:
    """The file opened unbuffered (``mode`` ``"w"`` or ``"a"``), or a :class:`SurveyFileError` that says why not."""
    try:
        return io.FileIO(name, mode)
    except OSError as e:
        folder = os.path.dirname(name)
        if isinstance(e, FileNotFoundError) and folder and not os.path.isdir(folder):
            raise SurveyFileError(f"cannot write {name}: the folder {folder} does not exist") from None
        raise SurveyFileError(f"cannot write {name}: {e.strerror or e}") from None


def _cut(file: _File, end: int) -> None:
    """Cut a torn last line off the file."""
    try:
        os.ftruncate(file.raw.fileno(), end)
    except OSError as e:
        raise SurveyFileError(f"cannot repair the torn last line of {file.name}: {e.strerror or e}") from None
