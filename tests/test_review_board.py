"""The review on the board, through the session with no widget library: the chart in the synced state, the
lesson's steps through the marked moves (``goto``, ``next-mark``, ``prev-mark``), the review's progress while it
runs in a worker thread, and its cancel.
"""

from __future__ import annotations

import json
import random
import threading
from collections.abc import Callable
from typing import Any

import pytest

from patiencelab import Klondike, PatienceError
from patiencelab.lessons import MAX_REVIEW_STEPS, Lesson, ReviewChart, Step
from patiencelab.widget.session import BoardSession, PlainHost
from tests.review_games import lost_games, twin_game

#: Small budgets for the board's review (deals per position, positions per deal, positions per exact call).
SMALL = {"review_samples": 4, "review_sample_max_states": 300, "review_max_states": 5_000}


class StateHost(PlainHost):
    """A plain host that keeps every state it is shown and can hold a worker thread's first hand-off until told."""

    def __init__(self, gate: threading.Event | None = None) -> None:
        super().__init__()
        self.states: list[dict[str, Any]] = []
        self.gate = gate

    def show(self, state: dict[str, Any]) -> None:
        super().show(state)
        self.states.append(state)

    def schedule(self, call: Callable[[], None]) -> bool:
        if self.gate is not None and threading.current_thread() is not threading.main_thread():
            self.gate.wait(60)  # the worker waits here until the test lets it go on
        return False


def chart_lesson() -> Lesson:
    """Eight moves of a game with a chart: a mistake at move 3 (shown at step 2), luck at move 6 (step 6), the second
    opinion at step 4 and the verdict on its move at step 5."""
    game = Klondike(seed=1)
    rng = random.Random(1)
    for _ in range(8):
        game.play(rng.choice(game.legal_moves()))
    points = tuple((0.9 - 0.1 * k, 0.8 - 0.1 * k, 0.95 - 0.1 * k) for k in range(9))
    chart = ReviewChart(points, ((2, 3, "mistake"), (6, 6, "luck")), lost_from=None, opinion=4)
    steps = tuple(Step(m, "Words." if i in (2, 4, 5, 6) else None) for i, m in enumerate(game.history, 1))
    return Lesson(title="Review", steps=steps, deal=game.deal, rules=game.rules, chart=chart)


def lesson_intent(board: BoardSession, **fields: Any) -> dict[str, Any] | None:
    return board.handle_intent({"type": "lesson", "version": board.version, **fields})


def test_the_chart_is_in_the_lesson_state_and_the_review_flag_on_its_steps() -> None:
    lesson = chart_lesson()
    host = PlainHost()
    board = BoardSession(host=host, records=None, lesson=lesson)
    assert lesson.chart is not None
    state = host.state["lesson"]
    assert state["chart"] == lesson.chart.to_wire() and "opinion" not in state["chart"]
    assert [p["step"] for p in state["chart"]["points"]] == list(range(state["steps"] + 1))
    assert state["chart"]["marks"] == [
        {"step": 2, "move": 3, "label": "mistake"},
        {"step": 6, "move": 6, "label": "luck"},
    ]
    flagged = []
    for step in range(len(lesson.steps) + 1):
        board.goto(step)
        flagged += [step] if host.state["lesson"]["review"] else []
    assert flagged == [2, 4, 5, 6], "the marked steps, the second opinion's and the verdict's"
    board.lesson = Lesson.from_game(Klondike(seed=2), "Plain")
    assert host.state["lesson"]["chart"] is None and host.state["lesson"]["review"] is False


def test_goto_shows_any_step_and_bad_steps_are_rejected_changing_nothing() -> None:
    board = BoardSession(records=None, lesson=chart_lesson())
    assert lesson_intent(board, action="goto", step=5) is None
    assert board.state["lesson"]["step"] == 5 and board.game.moves == 5
    for bad in (-1, 9, "3", 2.0, True, None, 10**30):
        version, state = board.version, json.dumps(board.state)
        reply = lesson_intent(board, action="goto", step=bad)
        assert reply is not None and reply["type"] == "rejected", bad
        assert board.version == version and json.dumps(board.state) == state
    reply = lesson_intent(board, action="goto")
    assert reply is not None and reply["type"] == "rejected" and "'step'" in reply["text"]
    reply = lesson_intent(board, action="forward", step=2)
    assert reply is not None and reply["type"] == "rejected" and board.state["lesson"]["step"] == 5
    board.game.undo()  # the teacher takes the lesson over: a click on the chart still goes there
    assert board.state["lesson"]["taken_over"]
    assert lesson_intent(board, action="goto", step=0) is None
    assert board.state["lesson"]["step"] == 0 and not board.state["lesson"]["taken_over"]


def test_next_and_prev_mark_step_through_the_marked_moves_and_stay_at_the_ends() -> None:
    board = BoardSession(records=None, lesson=chart_lesson())
    steps = []
    for _ in range(3):
        assert lesson_intent(board, action="next-mark") is None
        steps.append(board.state["lesson"]["step"])
    assert steps == [2, 6, 6], "none left: it stays"
    version = board.version
    assert lesson_intent(board, action="next-mark") is None and board.version == version, "nothing changed"
    assert lesson_intent(board, action="prev-mark") is None and board.state["lesson"]["step"] == 2
    assert lesson_intent(board, action="prev-mark") is None and board.state["lesson"]["step"] == 2
    board.goto(4)
    assert lesson_intent(board, action="prev-mark") is None and board.state["lesson"]["step"] == 2
    assert board.game.moves == 2 and board.state["lesson"]["review"]


def test_marks_on_a_lesson_without_a_chart_or_with_no_lesson_are_rejected() -> None:
    board = BoardSession(records=None, lesson=Lesson.from_game(Klondike(seed=2), "Plain"))
    for action in ("next-mark", "prev-mark"):
        reply = lesson_intent(board, action=action)
        assert reply is not None and reply["type"] == "rejected" and "no game review" in reply["text"]
    board.lesson = None
    for fields in ({"action": "next-mark"}, {"action": "goto", "step": 0}):
        reply = lesson_intent(board, **fields)
        assert reply is not None and reply["type"] == "rejected"


def stuck_game() -> Klondike:
    return next(g for _, g in lost_games(8) if g.status == "stuck")


def test_a_review_on_the_board_reports_its_progress_then_shows_the_whole_game_with_its_chart() -> None:
    host = StateHost()
    game = stuck_game()
    board = BoardSession(game, host=host, records=None, options=SMALL)
    assert host.state["review"] == {"offered": True, "busy": False, "progress": None}
    assert board.handle_intent({"type": "review", "version": board.version}) is None
    board.wait_for_background(120)
    progress = [s["review"]["progress"] for s in host.states if s["review"]["busy"]]
    assert progress[0] == {"done": 0, "total": game.moves + 2}
    done = [p["done"] for p in progress]
    assert (
        done == sorted(done)
        and len(set(done)) > game.moves // 2
        and all(p["total"] == game.moves + 2 for p in progress)
    )
    state = host.state
    assert state["review"]["busy"] is False and state["review"]["progress"] is None
    lesson = state["lesson"]
    assert lesson["steps"] == game.moves and len(lesson["chart"]["points"]) == game.moves + 1
    assert lesson["chart"]["lost_from"] is not None, "a stuck game is lost for every order"
    marks = lesson["chart"]["marks"]
    assert lesson["step"] == (marks[0]["step"] if marks else board.lesson.chart.opinion)  # type: ignore[union-attr]
    assert lesson["review"] and (lesson["note"] or (lesson["step"] == 0 and lesson["caption"]))


def test_a_review_cancelled_on_the_board_says_so_and_leaves_the_board_as_it_was() -> None:
    gate = threading.Event()
    host = StateHost(gate)
    game = stuck_game()
    board = BoardSession(game, host=host, records=None, options=SMALL)
    before = json.dumps({k: v for k, v in host.state.items() if k not in ("seconds", "message", "version")})
    assert board.handle_intent({"type": "review", "version": board.version}) is None
    assert host.state["review"]["busy"] and host.state["review"]["progress"]["done"] == 0
    assert board.handle_intent({"type": "review", "action": "cancel", "version": board.version}) is None
    gate.set()
    board.wait_for_background(120)
    assert host.state["message"]["text"] == "The review was stopped; the board is as it was."
    assert host.state["review"] == {"offered": True, "busy": False, "progress": None}
    after = json.dumps({k: v for k, v in host.state.items() if k not in ("seconds", "message", "version")})
    assert after == before and board.game is game and board.lesson is None
    # the review is still on: it runs again when asked
    assert board.handle_intent({"type": "review", "version": board.version}) is None
    board.wait_for_background(120)
    assert host.state["lesson"] is not None and host.state["lesson"]["chart"] is not None


def test_review_intents_with_bad_fields_are_rejected_and_a_cancel_with_none_running_does_nothing() -> None:
    board = BoardSession(stuck_game(), records=None, options=SMALL)
    for fields in ({"action": "stop"}, {"action": 1}, {"extra": True}):
        version = board.version
        reply = board.handle_intent({"type": "review", "version": version, **fields})
        assert reply is not None and reply["type"] == "rejected" and board.version == version
    version = board.version
    assert board.handle_intent({"type": "review", "action": "cancel", "version": version}) is None
    assert board.version == version and board.state["review"]["busy"] is False


def test_a_game_too_long_for_a_review_lesson_is_refused_with_the_limit() -> None:
    game = Klondike(seed=3)
    while game.moves <= MAX_REVIEW_STEPS:
        game.play("d" if game.can_play("d") else "r")
    board = BoardSession(game, records=None, options=SMALL)
    with pytest.raises(PatienceError, match=f"games of at most {MAX_REVIEW_STEPS} moves"):
        board.review()


def test_twin_games_reviewed_on_the_board_send_the_same_chart() -> None:
    game = stuck_game()
    other = twin_game(game, random.Random(3))
    assert other.position_json() != game.position_json()
    charts = []
    for g in (game, other):
        board = BoardSession(g, records=None, options=SMALL)
        board.review()
        charts.append(json.dumps(board.state["lesson"]["chart"], sort_keys=True))
    assert charts[0] == charts[1]
