"""The automatic player where no thread can start (a browser's Python, the Lite site): each move is chosen and
played in the kernel's thread, a turn of its event loop after another (``Host.later``), and it stops as the
threaded one does: at its cap, when asked, on a move by hand, when the board shows another game.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from unittest import mock

import pytest

from patiencelab import PatienceError
from patiencelab.players import Greedy
from patiencelab.widget.session import BoardSession, PlainHost


class LoopHost(PlainHost):
    """A host with an event loop that runs the calls handed to it later only when the test says so."""

    def __init__(self) -> None:
        super().__init__()
        self.later_calls: list[tuple[float, Callable[[], None]]] = []

    def later(self, delay: float, call: Callable[[], None]) -> bool:
        self.later_calls.append((delay, call))
        return True

    def turn(self) -> float:
        """Run the one call waiting; its delay."""
        (delay, call), *self.later_calls = self.later_calls
        call()
        return delay


def start(board: BoardSession, **kwargs: float) -> None:
    """Start Greedy on ``board`` where starting a thread fails, as in Pyodide."""
    with mock.patch.object(threading.Thread, "start", side_effect=RuntimeError("can't start new thread")):
        board.autoplay(Greedy(), **kwargs)


def test_without_threads_the_player_plays_turn_by_turn_up_to_its_cap() -> None:
    host = LoopHost()
    board = BoardSession(seed=5, host=host, records=None)
    start(board, pace=0.25, max_moves=6)
    assert board.state["autoplay"] == {"running": True, "player": "Greedy"}
    delays = []
    while host.later_calls:
        delays.append(host.turn())
    assert board.game.moves == 6
    assert delays == [0.0] + [0.25] * 5, "the first at once, then one a pace apart; the sixth move ends it"
    assert board.state["autoplay"]["running"] is False
    assert board.state["message"]["text"] == "Greedy stopped at its limit of 6 moves.", "the playing notice is gone"


def test_without_threads_stop_and_a_move_by_hand_end_it() -> None:
    host = LoopHost()
    board = BoardSession(seed=5, host=host, records=None)
    start(board, pace=0.5)
    host.turn()
    assert board.game.moves == 1
    board.stop_autoplay()
    host.turn()
    assert board.game.moves == 1 and not host.later_calls
    assert board.state["autoplay"]["running"] is False

    start(board, pace=0.5)
    host.turn()
    board.game.undo()  # by hand, while the player waits for its next turn
    host.turn()
    assert board.game.moves == 1 and not host.later_calls, "the player does not play over a move by hand"
    assert board.state["autoplay"]["running"] is False

    start(board, pace=0.5)
    host.turn()
    board.new_game(seed=2)
    host.turn()
    assert board.game.moves == 0 and not host.later_calls


def test_without_threads_or_an_event_loop_it_says_so() -> None:
    board = BoardSession(seed=5, records=None)
    with pytest.raises(PatienceError, match="can't start new thread"):
        start(board)
    assert board.state["autoplay"]["running"] is False


def test_without_threads_the_event_loop_running_the_cell_plays_the_turns() -> None:
    """A host with no ``later`` of its own (the widget in a browser's Python): the kernel's running loop."""
    board = BoardSession(seed=5, records=None)

    async def cell() -> None:
        start(board, pace=0, max_moves=5)
        for _ in range(10_000):  # a ceiling on the loop's turns, never a clock
            if not board.state["autoplay"]["running"]:
                break
            await asyncio.sleep(0)

    asyncio.run(cell())
    assert board.game.moves == 5
    assert board.state["autoplay"]["running"] is False
