"""Helpers shared by the board's tests (``tests/test_session*.py``, ``tests/test_intent_fuzz.py``,
``tests/test_widget.py`` and the others that drive a board): an intent sent, snapshots, the intents of the fuzz, the
invariants checked after them, an executor that answers at once, and twin positions (the same visible cards, the
face-down ones in another order).
"""

from __future__ import annotations

import concurrent.futures
import json
import random
import threading
from collections.abc import Callable, Iterator
from typing import Any, Protocol

from hypothesis import strategies as st

from patiencelab import Klondike, Rules
from patiencelab.core.cards import full_deck
from patiencelab.core.position import Position
from patiencelab.widget.intents import INTENTS
from patiencelab.widget.session import BoardSession, PlainHost
from tests.model_helpers import twin as twin_position


class Board(Protocol):
    """What takes the front end's intents: a :class:`BoardSession` or the widget around one."""

    @property
    def version(self) -> int: ...

    def handle_intent(self, content: object) -> dict[str, Any] | None: ...


def send(widget: Board, kind: str, **fields: Any) -> dict[str, Any] | None:
    return widget.handle_intent({"type": kind, "version": widget.version, "id": 1, **fields})


def snapshot(board: BoardSession) -> tuple[Any, ...]:
    """Everything an intent that is rejected must leave unchanged."""
    game = board.game
    return (game.position_json(), game.history, game.score, game.can_redo, board.version, json.dumps(board.state))


def intent(board: BoardSession, kind: str, **fields: Any) -> dict[str, Any]:
    return {"type": kind, "version": board.version, "id": 7, **fields}


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 60) | st.text(max_size=6),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3),
    max_leaves=6,
)
places = st.sampled_from(["t1", "t2", "t3", "t4", "t5", "t6", "t7", "t8", "f", "fH", "w", "x"])
cards = st.sampled_from([str(c) for c in full_deck()] + ["10♥", "zz", ""])


@st.composite
def intents(draw: st.DrawFn, version: int) -> Any:
    """Random JSON shapes mixed with well-formed intents, most of them made on the current version."""
    shape = draw(st.integers(0, 9))
    if shape == 0:
        return draw(json_values)
    kind = draw(st.sampled_from(INTENTS))
    made_on = version if draw(st.integers(0, 5)) else draw(st.integers(-1, version + 1))
    content: dict[str, Any] = {"type": kind, "version": made_on, "id": draw(st.integers(0, 9))}
    if kind == "move":
        content["card"] = draw(cards)
        content["to"] = draw(places)
    elif kind == "new":
        content["seed"] = draw(st.integers(0, 99))  # a fixed seed keeps the example reproducible
        if draw(st.booleans()):
            content["preset"] = draw(st.sampled_from(["standard", "traditional", "six-column", "x"]))
            content["draw"] = draw(st.sampled_from([1, 3, 2]))
    elif kind == "lesson":
        content["action"] = draw(st.sampled_from(["first", "back", "forward", "last", "play", "pause", "x", "pace"]))
        if content["action"] == "pace":
            content["pace"] = draw(st.sampled_from([0.2, 1, 2.5, "fast", None]))
    elif kind == "lang":
        content["lang"] = draw(st.sampled_from(["en", "nl", "sv", "de", 3]))
    elif kind in ("show_moves", "indicator"):
        content["on"] = draw(st.sampled_from([True, False, 1, None]))
    if shape == 1:
        content[draw(st.text(max_size=4))] = draw(json_values)
    return content


@st.composite
def real_move(draw: st.DrawFn, board: BoardSession) -> dict[str, Any]:
    targets = board.state["targets"]
    if not targets:
        return intent(board, "draw")
    card = draw(st.sampled_from(sorted(targets)))
    return intent(board, "move", card=card, to=draw(st.sampled_from(targets[card])))


def check_invariants(board: BoardSession) -> None:
    game = board.game
    Position.from_json(game.position_json(), columns=game.rules.columns)  # 52 distinct cards, runs in order
    state = board.state
    for key, value in game.view().items():
        if key != "seconds":
            assert state[key] == value, key
    hidden = {str(c) for col in game.tableau for c in col.down} | {str(c) for c in game.stock}
    assert not hidden & set(json.dumps(state).replace('"', " ").replace(",", " ").split())
    replay = Klondike.from_record(game.record())
    assert replay == game and replay.history == game.history and replay.score == game.score


class InlineExecutor(concurrent.futures.Executor):
    """Runs each job at once, in the submitting thread: the verdict is in before ``submit`` returns, so the
    callback added afterwards runs at once in the kernel's thread (the case that used to deadlock).
    """

    def __init__(self, answer: Callable[..., str] | None = None) -> None:
        self.jobs = 0
        self.answer = answer

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> concurrent.futures.Future[Any]:
        self.jobs += 1
        future: concurrent.futures.Future[Any] = concurrent.futures.Future()
        future.set_result(self.answer(*args) if self.answer else "solved")
        return future


def twin(game: Klondike, rng: random.Random) -> Klondike:
    """A game with the same visible cards as ``game`` whose face-down cards and unseen stock lie in another order
    (:func:`tests.model_helpers.twin`)."""
    return Klondike.from_position(twin_position(game.position_json(), rng), rules=game.rules)


def twin_positions(rules: Rules) -> Iterator[tuple[Klondike, Klondike]]:
    """Six games of ``rules`` a few random moves in (seeds 0 to 5), each with its twin: the same visible cards, the
    face-down ones in another order; the first is a fresh game of the same position."""
    rng = random.Random(9)
    for seed in range(6):
        game = Klondike(seed=seed, rules=rules)
        for _ in range(rng.randrange(0, 12)):
            game.play(rng.choice(game.legal_moves()))
        other = twin(game, rng)
        assert other.position_json() != game.position_json()
        yield Klondike.from_position(game.position_json(), rules=rules), other


class QueueHost(PlainHost):
    """A host whose thread runs what workers hand it only when the test says so (as a kernel's loop would)."""

    def __init__(self) -> None:
        super().__init__()
        self.queue: list[Callable[[], None]] = []
        self._lock = threading.Lock()

    def schedule(self, call: Callable[[], None]) -> bool:
        with self._lock:
            self.queue.append(call)
        return True

    def waiting(self) -> bool:
        """Whether a call waits for the host's thread."""
        return bool(self.queue)

    def run(self) -> int:
        """Run the calls waiting, in order; how many there were."""
        with self._lock:
            calls, self.queue = self.queue, []
        for call in calls:
            call()
        return len(calls)
