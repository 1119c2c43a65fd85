"""Work without processes (Pyodide in a browser): the solver a slice at a time, the slice executor that runs it
between the event loop's other work, and the indicator and surveys on it, with the same answers.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import importlib
import subprocess
import sys
import threading
from collections.abc import Awaitable, Callable, Generator
from typing import Any, TypeVar

import pytest

from patiencelab import Klondike, Rules, workers
from patiencelab.solver import solve
from patiencelab.solver.search import solve_in_slices
from patiencelab.solver.verdicts import verdict, verdict_in_slices
from patiencelab.survey import Budget, survey
from patiencelab.widget import indicator as indicator_module
from patiencelab.widget.board import KlondikeWidget
from patiencelab.workers import SliceExecutor

T = TypeVar("T")
survey_module = importlib.import_module("patiencelab.survey")


def run_in_loop(main: Callable[[], Awaitable[T]]) -> T:
    """``asyncio.run(main())`` in a thread of its own (the main thread may run Playwright's loop already)."""
    result: list[T] = []
    errors: list[BaseException] = []

    def target() -> None:
        try:
            result.append(asyncio.run(main()))  # type: ignore[arg-type]
        except BaseException as err:
            errors.append(err)

    runner = threading.Thread(target=target)
    runner.start()
    runner.join(120)
    if errors:
        raise errors[0]
    assert result, "the loop did not finish"
    return result[0]


def finish(steps: Generator[None, None, T]) -> tuple[T, int]:
    """Run a generator to its end; its value and how many pauses it made."""
    pauses = 0
    while True:
        try:
            next(steps)
            pauses += 1
        except StopIteration as done:
            return done.value, pauses


@pytest.mark.parametrize(("seed", "max_states"), [(7, 30_000), (3, 20_000), (11, 10_000)])
def test_solving_in_slices_searches_exactly_what_solve_searches(seed: int, max_states: int) -> None:
    game = Klondike(seed=seed, rules=Rules.preset("traditional", draw=3))
    whole = solve(game, seconds=3600, max_states=max_states)
    sliced, pauses = finish(solve_in_slices(game, seconds=3600, max_states=max_states))
    assert (sliced.outcome, sliced.moves, sliced.states) == (whole.outcome, whole.moves, whole.states)
    assert pauses >= whole.states // 512 - 1  # it paused all along the way


def test_a_sliced_verdict_is_the_verdict() -> None:
    for seed in range(4):
        position, rules = Klondike(seed=seed).position_json(), Rules().to_json()
        assert finish(verdict_in_slices(position, rules, 3600, 30_000))[0] == verdict(position, rules, 3600, 30_000)


def counting(n: int, log: list[str]) -> Generator[None, None, int]:
    for i in range(n):
        log.append(f"job {i}")
        yield
    return n


def test_the_slice_executor_lets_other_work_in_between_slices(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(workers, "SLICE_SECONDS", 0.0)  # one step per turn of the loop
    log: list[str] = []

    async def main() -> int:
        executor = SliceExecutor()
        future = executor.submit(counting, 3, log)
        loop = asyncio.get_running_loop()
        for i in range(3):
            loop.call_soon(log.append, f"message {i}")
        while not future.done():
            await asyncio.sleep(0)
        return int(future.result())

    assert run_in_loop(main) == 3
    assert log.index("message 0") < log.index("job 2")  # a message was handled before the job ended
    assert {"job 0", "job 1", "job 2", "message 0", "message 1", "message 2"} == set(log)


def test_the_slice_executor_cancels_runs_plain_functions_and_reports_errors() -> None:
    def broken() -> Generator[None, None, int]:
        yield
        raise ValueError("no")

    async def main() -> tuple[bool, Any, BaseException | None, list[str]]:
        executor = SliceExecutor()
        log: list[str] = []
        endless = executor.submit(counting, 10**9, log)
        plain = executor.submit(lambda a, b: a + b, 2, 3)
        failing = executor.submit(broken)
        await asyncio.sleep(0.05)
        cancelled = endless.cancel()  # pending until it ends, so it can always be cancelled
        steps = len(log)
        await asyncio.sleep(0.05)
        assert len(log) == steps, "a cancelled job went on"
        executor.shutdown()
        return cancelled, plain.result(), failing.exception(), log

    cancelled, plain, error, _log = run_in_loop(main)
    assert cancelled and plain == 5
    assert isinstance(error, ValueError)


def test_without_a_running_loop_the_slice_executor_runs_a_job_when_submitted() -> None:
    results: list[Any] = []

    def plain_thread() -> None:  # no event loop runs here (the main thread may run Playwright's)
        results.append(SliceExecutor().submit(counting, 4, []).result(timeout=0))

    runner = threading.Thread(target=plain_thread)
    runner.start()
    runner.join(120)
    assert results == [4]


@pytest.fixture
def no_processes(monkeypatch: pytest.MonkeyPatch) -> None:
    """What Pyodide gives: no worker processes (they would raise if one were started)."""

    def refuse(_workers: int) -> Any:
        raise AssertionError("a process pool was started where there are no processes")

    for module in (workers, survey_module):
        monkeypatch.setattr(module, "has_processes", lambda: False)
        monkeypatch.setattr(module, "process_pool", refuse)


@pytest.mark.usefixtures("no_processes")
def test_without_processes_the_indicator_thinks_in_the_kernels_thread_between_messages() -> None:
    async def main() -> tuple[str, set[int], int, bool]:
        widget = KlondikeWidget(seed=7, records=None)
        widget.indicator_max_states = 10**6
        threads: set[int] = set()
        widget.observe(lambda _change: threads.add(threading.get_ident()), "state")
        widget.indicator = True
        pending = widget.state["indicator"]["verdict"] == "pending"
        assert widget.handle_intent({"type": "draw", "version": widget.version}) is None  # the board answers meanwhile
        while widget.state["indicator"]["verdict"] == "pending":
            await asyncio.sleep(0.001)
        verdict_now = widget.state["indicator"]["verdict"]
        widget.close()
        return verdict_now, threads, threading.get_ident(), pending

    verdict_now, threads, loop_thread, was_pending = run_in_loop(main)
    assert was_pending, "the verdict should come later, not block the kernel"
    assert threads == {loop_thread}
    game = Klondike(seed=7)
    game.draw()
    expected = {"solved": "winnable", "impossible": "lost"}[
        verdict(game.position_json(), game.rules.to_json(), 3600, 10**6)
    ]
    assert verdict_now == expected


@pytest.mark.usefixtures("no_processes")
def test_without_processes_wait_for_verdict_does_the_work_itself() -> None:
    async def main() -> str | None:
        widget = KlondikeWidget(seed=7, records=None)
        widget.indicator = True
        return widget.wait_for_verdict(600)  # a cell that waits: the loop is busy with it

    assert run_in_loop(main) == "winnable"


def test_a_process_pool_that_cannot_start_falls_back_to_slices(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(_workers: int) -> Any:
        raise NotImplementedError("no _multiprocessing here")

    monkeypatch.setattr(workers, "has_processes", lambda: True)
    monkeypatch.setattr(workers, "process_pool", refuse)
    probe = indicator_module.Indicator(lambda: None)
    game = Klondike(seed=7)
    probe.follow(game, True, max_states=10**6)
    assert probe.synced_part(game, True)["verdict"] in ("winnable", "pending")  # no loop: at once
    assert probe.error is None
    assert isinstance(probe._pool, SliceExecutor)
    probe.wait(600)
    assert probe.synced_part(game, True)["verdict"] == "winnable"


@pytest.mark.usefixtures("no_processes")
def test_without_processes_a_survey_runs_in_this_process() -> None:
    result = survey(range(3), Rules(), budget=Budget(max_states=10_000), workers=2, progress=False)
    assert [row.seed for row in result.rows] == [0, 1, 2]


def test_importing_the_package_starts_no_multiprocessing() -> None:
    code = (
        "import sys, patiencelab, patiencelab.workers, patiencelab.players; "
        "print(sorted(m for m in sys.modules if 'multiprocessing' in m))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_the_executor_type_is_a_real_executor() -> None:
    assert issubclass(SliceExecutor, concurrent.futures.Executor)
