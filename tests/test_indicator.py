"""The winnability indicator on the board's session: its solver jobs never block the kernel (a verdict already in,
a late one, none at all where no process can start), it thinks on with larger budgets until it knows and drops the
positions the game left, and it reaches a verdict on a busy machine; a fuzz of intents with it switched on.
"""

from __future__ import annotations

import concurrent.futures
import threading
from collections.abc import Callable
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from patiencelab import Rules
from patiencelab.widget.session import BoardSession
from tests.sweeps import FUZZ_EXAMPLES

from .session_helpers import InlineExecutor, check_invariants, intents, real_move, snapshot


class NoProcesses(concurrent.futures.Executor):
    """What Pyodide gives: no process pool at all."""

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> concurrent.futures.Future[Any]:
        raise NotImplementedError("no _multiprocessing here")


def finishes(action: Callable[[], object], seconds: float = 120.0) -> bool:
    """Whether ``action`` returns, run in a thread (a deadlock makes this False instead of hanging the suite)."""
    thread = threading.Thread(target=action, daemon=True)
    thread.start()
    thread.join(seconds)
    return not thread.is_alive()


def test_a_verdict_that_is_already_in_does_not_deadlock_the_kernel() -> None:
    executor = InlineExecutor()
    board = BoardSession(seed=7, records=None, executor=lambda: executor)

    def play() -> None:
        board.set_option("indicator", True)
        for _ in range(5):
            board.handle_intent({"type": "draw", "version": board.version})

    assert finishes(play), "the kernel thread hung on the indicator's lock"
    assert executor.jobs == 6
    assert board.state["indicator"] == {"enabled": True, "verdict": "winnable", "searched": 0, "error": None}
    assert board.version == 7  # the switch and five draws


def test_a_late_verdict_updates_the_board_without_a_new_version() -> None:
    gate = threading.Event()
    pool = concurrent.futures.ThreadPoolExecutor(1)

    class Late(concurrent.futures.Executor):
        def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> concurrent.futures.Future[Any]:
            return pool.submit(lambda: gate.wait(600) and "impossible")

    board = BoardSession(seed=7, records=None, executor=Late)
    board.set_option("indicator", True)
    version = board.version
    assert board.state["indicator"]["verdict"] == "pending"
    gate.set()
    assert board.wait_for_verdict(600) == "lost"
    assert board.version == version
    pool.shutdown()


def test_without_processes_the_indicator_switches_off_with_a_notice_and_the_board_plays_on() -> None:
    board = BoardSession(seed=7, records=None, lang="nl", executor=NoProcesses)
    board.set_option("indicator", True)
    assert board.state["indicator"]["enabled"] is False
    assert "NotImplementedError" in board.state["indicator"]["error"]
    message = board.state["message"]
    assert message["kind"] == "info" and message["text"].startswith("De winbaarheidsindicator staat uit")
    for version in range(board.version, board.version + 3):
        assert board.handle_intent({"type": "draw", "version": version}) is None
        assert board.version == version + 1 and board.state["version"] == version + 1
    assert len(board.game.history) == 3
    assert board.state["message"]["id"] == message["id"], "the notice is said once"


SOAK = {"examples": 0, "intents": 0}


@settings(max_examples=FUZZ_EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), seed=st.integers(0, 50))
def test_soak_fuzzed_intents_with_the_indicator_on(data: st.DataObject, seed: int) -> None:
    """:data:`FUZZ_EXAMPLES` examples x 50 intents (``make soak``: 10,000) with the indicator on and a fast fake
    worker (verdicts in before submit returns, the deadlock case): every one is answered, none blocks, the game
    stays sound.
    """
    fuzzing = {"hint_max_states": 200, "hint_samples": 2}  # the fair hint on 2 sampled deals: fuzzing, not judging
    board = BoardSession(seed=seed, records=None, executor=InlineExecutor, options=fuzzing)
    board.set_option("indicator", True)

    def run() -> None:
        for _ in range(50):
            content = data.draw(real_move(board)) if data.draw(st.booleans()) else data.draw(intents(board.version))
            before = snapshot(board)
            reply = board.handle_intent(content)
            SOAK["intents"] += 1
            if reply is not None and reply["type"] == "rejected":
                assert snapshot(board) == before
            if board.options["indicator"] and board.lesson is None:
                assert board.state["indicator"]["verdict"] in ("winnable", "lost")

    run()  # a hang here would stop the suite; the deadlock test above proves the shape finishes
    SOAK["examples"] += 1
    check_invariants(board)


def by_budget(decided_from: int, outcome: str = "solved") -> Callable[..., str]:
    """A fake solver that decides only with at least ``decided_from`` positions."""

    def answer(position: object, rules: object, seconds: float, max_states: int) -> str:
        return outcome if max_states >= decided_from else "unknown"

    return answer


def test_the_indicator_keeps_thinking_with_larger_budgets_until_it_knows() -> None:
    executor = InlineExecutor(by_budget(300_000, "impossible"))
    board = BoardSession(seed=7, records=None, executor=lambda: executor)
    board.set_option("indicator", True)
    assert board.state["indicator"]["verdict"] == "lost"
    assert executor.jobs == 3  # 20,000, 80,000 and 320,000 positions
    assert board.state["indicator"]["searched"] == 100_000, "the two jobs that could not tell"


def test_the_indicator_says_unknown_only_at_its_cap() -> None:
    executor = InlineExecutor(by_budget(10**9))
    board = BoardSession(seed=7, records=None, executor=lambda: executor)
    board.set_option("indicator_max_states", 500_000)
    board.set_option("indicator", True)
    assert board.state["indicator"]["verdict"] == "unknown"
    assert executor.jobs == 4  # 20,000, 80,000, 320,000 and the cap


def test_the_indicator_thinks_on_in_the_background_and_drops_positions_the_game_left() -> None:
    pool = concurrent.futures.ThreadPoolExecutor(1)
    gates: list[threading.Event] = []

    class Gated(concurrent.futures.Executor):
        def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> concurrent.futures.Future[Any]:
            gate = threading.Event()
            gates.append(gate)
            budget = args[3]
            return pool.submit(lambda: gate.wait(600) and ("solved" if budget >= 80_000 else "unknown"))

    board = BoardSession(seed=7, records=None, executor=Gated)
    board.set_option("indicator", True)
    assert board.state["indicator"]["verdict"] == "pending"
    board.handle_intent({"type": "draw", "version": board.version})  # the first position is left
    assert len(gates) == 2
    gates[0].set()  # the old position's job ends: nothing follows from it
    gates[1].set()  # the new position's first job can't tell: a larger one follows
    wait_until(lambda: len(gates) == 3)
    wait_until(lambda: board.state["indicator"]["searched"] != 0)  # the board shows it is working
    assert board.state["indicator"]["searched"] == 20_000, board.state["indicator"]
    assert board.state["indicator"]["verdict"] == "pending", "still thinking"
    gates[2].set()
    assert board.wait_for_verdict(600) == "winnable"
    assert len(gates) == 3
    pool.shutdown()


def wait_until(condition: Callable[[], bool], seconds: float = 600) -> None:
    """Poll for a state (never a fixed sleep); fail only past a generous ceiling."""
    import time

    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "timed out waiting"
        time.sleep(0.01)


def test_on_a_busy_machine_the_indicator_still_reaches_a_verdict() -> None:
    """A real worker process beside a CPU-bound neighbour: seed 91 (draw 3) needs about 32,000 positions, more
    than the first job's budget, so only thinking on decides it; a state budget makes load only slow it down.
    """
    import subprocess
    import sys

    hog = subprocess.Popen([sys.executable, "-c", "while True: pass"])
    try:
        board = BoardSession(seed=91, rules=Rules(draw=3), records=None)
        board.set_option("indicator", True)
        assert board.state["indicator"]["verdict"] == "pending"
        assert board.wait_for_verdict(600) == "lost"
        assert board.parts.indicator.indicator.jobs == 2
        board.close()
    finally:
        hog.kill()
        hog.wait()
