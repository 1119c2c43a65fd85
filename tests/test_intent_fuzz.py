"""Fuzz of the teaching intents, as the first round fuzzed moves: recording (notes of any text, marks, quizzes),
reviews and quiz answers judged in worker threads, lesson steps while that work runs, and taking a quiz step
over. After every intent: a reply or none, never an exception; a rejected intent changes nothing; the state
agrees with the game; no face-down card shows while ``reveal`` is off; the version never goes back.
"""

from __future__ import annotations

import functools
import json
import threading
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from patiencelab import Klondike
from patiencelab.lessons import Lesson
from patiencelab.solver.verdicts import verdict
from patiencelab.widget import review_job
from patiencelab.widget.session import BoardSession
from patiencelab.widget.teaching import ACTIONS, RECORD_ACTIONS
from tests.sweeps import FUZZ_EXAMPLES

from .session_helpers import InlineExecutor, check_invariants, intents, real_move, snapshot
from .solver.positions import lost_from_the_start

#: Work in worker threads (reviews, quiz answers the solver judges) waits for this, so that intents arrive
#: while it runs; the fuzz lets it go now and then.
RELEASE = threading.Event()


@pytest.fixture(autouse=True, scope="module")
def slow_background() -> Iterator[None]:
    """Reviews and quiz judgements in worker threads wait for :data:`RELEASE` before they work."""
    real_review, real_judge = review_job.review, Lesson.judge  # type: ignore[attr-defined]

    def review(*args: Any, **kwargs: Any) -> Any:
        RELEASE.wait(30)
        return real_review(*args, **kwargs)

    def judge(self: Lesson, *args: Any, **kwargs: Any) -> Any:
        if threading.current_thread() is not threading.main_thread():
            RELEASE.wait(30)
        return real_judge(self, *args, **kwargs)

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(review_job, "review", review)
        mp.setattr(Lesson, "judge", judge)
        yield


COUNT = {"intents": 0, "rejected": 0, "background": 0}
#: The kinds of board the fuzz started from.
STARTS: set[str] = set()
texts = st.one_of(
    st.text(max_size=12),
    st.sampled_from(["\ud800", "a\udfffb", "x" * 501, "", "  ", "Let op: de 5♥!"]),
    st.integers(),
    st.none(),
)
piles = st.sampled_from(["stock", "waste", "t1", "t3", "t7", "t9", "fH", "f", "5H", "KS", "zz"])
marks = st.one_of(
    st.fixed_dictionaries({"arrow": st.lists(piles, min_size=0, max_size=3)}),
    st.fixed_dictionaries({"circle": piles}, optional={"color": st.sampled_from(["green", "red", "pink", 3])}),
    st.dictionaries(st.text(max_size=4), st.integers(), max_size=3),
)


@st.composite
def teaching_intent(draw: st.DrawFn, board: BoardSession) -> dict[str, Any]:
    """A record, review or lesson intent, well formed more often than not."""
    kind = draw(st.sampled_from(["record", "record", "review", "lesson", "undo", "redo"]))
    content: dict[str, Any] = {"type": kind, "version": board.version, "id": draw(st.integers(0, 9))}
    if kind == "record":
        action = draw(st.sampled_from([*RECORD_ACTIONS, "x"]))
        content["action"] = action
        if action == "note":
            content["text"] = draw(texts)
        elif action == "mark":
            content["mark"] = draw(marks)
        elif action == "quiz":
            content["quiz"] = draw(st.sampled_from(["move", "winnable", None, "x"]))
    elif kind == "lesson":
        content["action"] = draw(st.sampled_from(ACTIONS))
        if content["action"] == "pace":
            content["pace"] = draw(st.sampled_from([0.5, 2, "x"]))
    return content


def check_after(board: BoardSession, reply: dict[str, Any] | None, before: tuple[Any, ...], version: int) -> None:
    assert reply is None or isinstance(reply.get("type"), str)
    if reply is not None and reply["type"] == "rejected":
        COUNT["rejected"] += 1
        assert snapshot(board) == before
    assert board.version >= version
    json.dumps(board.state)  # the state can always be sent
    if not board.options["reveal"]:
        game = board.game
        hidden = {str(c) for col in game.tableau for c in col.down} | {str(c) for c in game.stock}
        assert not hidden & set(json.dumps(board.state).replace('"', " ").replace(",", " ").split())
    view = board.game.view(reveal=board.options["reveal"])
    for key in ("tableau", "foundations", "waste", "status", "moves"):
        assert board.state[key] == view[key], key


@settings(max_examples=FUZZ_EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True)
@given(data=st.data(), seed=st.integers(0, 30), start=st.sampled_from(["plain", "quiz", "review", "recording"]))
def test_teaching_intents_keep_every_invariant(data: st.DataObject, seed: int, start: str) -> None:
    """:data:`FUZZ_EXAMPLES` examples x 50 intents (``make soak``: 10,000): quiz lessons, reviews and recordings,
    with background work under way."""
    STARTS.add(start)
    game = lost_from_the_start() if start == "review" else Klondike(seed=seed)
    inline = functools.partial(InlineExecutor, verdict)  # the indicator's real verdicts, in this thread
    budgets = dict.fromkeys(("quiz_max_states", "review_max_states", "hint_max_states", "indicator_max_states"), 300)
    board = BoardSession(game, records=None, executor=inline, options=budgets)
    RELEASE.clear()
    if start == "quiz":
        board.lesson = Lesson.builtin("quiz")
    elif start == "recording":
        board.start_recording()
    elif start == "review":
        board.set_option("indicator", True)  # it says "lost" at once: the review is offered
    for _ in range(50):
        pick = data.draw(st.integers(0, 9))
        if pick < 4:
            content = data.draw(teaching_intent(board))
        elif pick < 7:
            content = data.draw(real_move(board))
        else:
            content = data.draw(intents(board.version))
        with board.parts.lock:  # a worker's result lands under the board's lock: none lands while this looks
            before, version = snapshot(board), board.version
            busy = board.parts.background.busy is not None
        reply = board.handle_intent(content)
        COUNT["intents"] += 1
        COUNT["background"] += busy
        with board.parts.lock:
            if not busy and board.parts.background.busy is None:  # nothing changed the board beside this intent
                check_after(board, reply, before, version)
            assert board.version >= version
        if data.draw(st.integers(0, 6)) == 0:
            RELEASE.set()  # let the work in worker threads land now and then
            board.wait_for_background()
            RELEASE.clear()
    RELEASE.set()
    board.wait_for_background()
    check_invariants(board)
    board.close()


def test_the_fuzz_ran_every_intent_from_every_start_some_during_background_work() -> None:
    """The fuzz above is not vacuous (it runs first, in file order)."""
    assert COUNT["intents"] >= 50 * FUZZ_EXAMPLES
    assert sorted(STARTS) == ["plain", "quiz", "recording", "review"]
    assert COUNT["rejected"] > 100
    assert COUNT["background"] > 0
