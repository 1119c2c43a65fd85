"""The widget's shell under a hostile or clumsy user: a widget that fails to start cleans up, verdicts from worker
threads reach its traits only through the kernel's event loop, and its picture for viewers without a kernel shows
nothing of face-down cards. The rest is the session's: ``tests/test_session_hardening.py``.
"""

from __future__ import annotations

import concurrent.futures
import threading
from collections.abc import Callable
from typing import Any

import pytest

from patiencelab import Rules
from patiencelab.widget.board import KlondikeWidget

from .session_helpers import twin_positions


def test_a_board_that_fails_to_start_cleans_up_quietly() -> None:
    with pytest.raises(Exception, match="records must be"):
        KlondikeWidget(records="nowhere")  # type: ignore[arg-type]
    import gc

    gc.collect()  # __del__ of the half-made widget must not raise (pytest turns that into an error)


def test_in_a_kernel_verdicts_reach_the_board_through_the_kernels_event_loop() -> None:
    """Where an event loop runs (a kernel), a verdict computed in the pool's thread is shown by the loop's own
    thread: traitlets and comms are never touched from the pool's thread.
    """
    import asyncio

    pool = concurrent.futures.ThreadPoolExecutor(1)
    gate = threading.Event()

    class Late(concurrent.futures.Executor):
        def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> concurrent.futures.Future[Any]:
            return pool.submit(lambda: gate.wait(600) and "solved")

    async def main() -> tuple[int, list[int]]:
        widget = KlondikeWidget(seed=7, records=None, executor=Late)
        threads: list[int] = []
        widget.observe(lambda _change: threads.append(threading.get_ident()), "state")
        widget.indicator = True
        gate.set()
        while widget.state["indicator"]["verdict"] == "pending":
            await asyncio.sleep(0.01)
        return threading.get_ident(), threads

    # a thread of its own: the main thread may already run a loop (Playwright's, in the browser tests)
    result: list[tuple[int, list[int]]] = []
    runner = threading.Thread(target=lambda: result.append(asyncio.run(main())))
    runner.start()
    runner.join(600)
    pool.shutdown()
    assert result, "the loop did not finish"
    loop_thread, threads = result[0]
    assert threads and set(threads) == {loop_thread}


@pytest.mark.parametrize("rules", [Rules(), Rules(draw=3), Rules.preset("six-column")], ids=["d1", "d3", "six"])
def test_the_picture_in_the_output_shows_no_face_down_card(rules: Rules) -> None:
    """Twin positions (the same visible cards, the face-down ones in another order) give the same picture."""
    compared = 0
    for game, other in twin_positions(rules):
        a, b = KlondikeWidget(game, records=None), KlondikeWidget(other, records=None)
        bundle_a, bundle_b = a._repr_mimebundle_(), b._repr_mimebundle_()
        assert bundle_a is not None and bundle_b is not None
        assert bundle_a[0]["image/svg+xml"] == bundle_b[0]["image/svg+xml"]
        # the check can fail: with reveal on, the two differ
        a.reveal = b.reveal = True
        shown_a, shown_b = a._repr_mimebundle_(), b._repr_mimebundle_()
        assert shown_a is not None and shown_b is not None
        assert shown_a[0]["image/svg+xml"] != shown_b[0]["image/svg+xml"]
        compared += 1
    assert compared == 6
