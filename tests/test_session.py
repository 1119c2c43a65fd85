"""The board session without any widget library: intents in, replies and states out, to a plain host."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from collections.abc import Callable
from typing import Any

import pytest

from patiencelab import Klondike, PatienceError, Rules, svg
from patiencelab.widget import protocol, review_job
from patiencelab.widget.session import OPTIONS, BoardSession, PlainHost
from tests.model_helpers import twin

from .session_helpers import InlineExecutor, twin_positions


def test_the_session_loads_no_widget_library() -> None:
    code = (
        "import sys, patiencelab.widget.session as s\n"
        "board = s.BoardSession(seed=1, records=None)\n"
        "board.handle_intent({'type': 'draw', 'version': 0})\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('anywidget', 'traitlets', 'ipywidgets', 'comm')))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


class RecordingHost(PlainHost):
    """A plain host that also notes the options the front end switched and the calls handed to it."""

    def __init__(self, schedules: bool = False) -> None:
        super().__init__()
        self.switched: list[tuple[str, Any]] = []
        self.scheduled: list[Callable[[], None]] = []
        self.schedules = schedules

    def option_changed(self, name: str, value: Any) -> None:
        self.switched.append((name, value))

    def schedule(self, call: Callable[[], None]) -> bool:
        if self.schedules:
            self.scheduled.append(call)
        return self.schedules


def test_intents_go_in_and_states_come_out_through_the_host() -> None:
    host = RecordingHost()
    board = BoardSession(seed=3, host=host, records=None)
    start = host.state["version"]
    assert host.state == board.state and board.version == start
    assert host.labels["hint"]
    assert board.handle_intent({"type": "draw", "version": start}) is None
    assert host.state["version"] == start + 1 and host.state["moves"] == 1
    reply = board.handle_intent({"type": "move", "version": start + 1, "card": "KS", "to": "fH"})
    assert reply is not None and reply["type"] == "rejected"
    assert host.state["version"] == start + 1, "a rejected intent changes nothing"


def test_a_switch_from_the_front_end_is_told_to_the_host() -> None:
    host = RecordingHost()
    board = BoardSession(seed=3, host=host, records=None)
    board.handle_intent({"type": "show_moves", "version": board.version, "on": True})
    assert host.switched == [("show_moves", True)]
    assert board.options["show_moves"] is True and host.state["show_moves"] is True
    version = board.version
    board.set_option("show_moves", True)  # the widget's trait follows, and tells the session again
    assert board.version == version, "the same value again is no change"


def test_options_are_checked_by_name() -> None:
    with pytest.raises(PatienceError, match="no such board option"):
        BoardSession(seed=1, records=None, options={"peek": True})
    board = BoardSession(seed=1, records=None, options={"reveal": True})
    assert all(card is not None for column in board.state["tableau"] for card in column["down"])
    with pytest.raises(PatienceError, match="the options are"):
        board.set_option("speed", 2)
    assert set(OPTIONS) >= {"reveal", "hint_max_states", "review_max_states"}


@pytest.mark.parametrize(
    ("name", "bad"),
    [
        ("reveal", 1),
        ("indicator", "yes"),
        ("hint_samples", 0),
        ("review_samples", True),
        ("review_samples", 2.0),
        ("hint_max_states", 0),
        ("quiz_max_states", True),
        ("review_sample_max_states", -5),
        ("review_sample_max_states", "lots"),
        ("hint_seconds", 0),
        ("indicator_seconds", float("nan")),
    ],
)
def test_an_option_takes_only_values_of_its_kind_and_a_refused_one_changes_nothing(name: str, bad: object) -> None:
    board = BoardSession(seed=1, records=None)
    before, version = dict(board.options), board.version
    with pytest.raises(PatienceError, match=r"not|must be"):
        board.set_option(name, bad)
    assert board.options == before and board.version == version
    with pytest.raises(PatienceError):
        BoardSession(seed=1, records=None, options={name: bad})


def test_every_option_takes_its_default_and_budgets_take_none() -> None:
    board = BoardSession(seed=1, records=None)
    for name, value in OPTIONS.items():
        assert BoardSession.check_option(name, value) == value
        board.set_option(name, value)
    for name in ("hint_max_states", "indicator_max_states", "quiz_max_states", "review_max_states"):
        board.set_option(name, None)
    board.set_option("hint_seconds", 2)
    assert board.options["hint_seconds"] == 2


def test_the_widget_is_a_thin_shell() -> None:
    """The widget's file stays under 300 lines: what a board does is the session's (issue 22)."""
    import pathlib

    import patiencelab.widget

    shell = pathlib.Path(patiencelab.widget.__file__).parent / "board.py"
    assert len(shell.read_text(encoding="utf-8").splitlines()) < 300


def test_bad_arguments_are_refused_before_anything_starts() -> None:
    with pytest.raises(PatienceError, match="not both"):
        BoardSession(Klondike(seed=1), seed=2, records=None)
    with pytest.raises(PatienceError, match="unknown language"):
        BoardSession(seed=1, lang="fr", records=None)


def test_twin_positions_give_the_same_bytes_to_the_host() -> None:
    """The same position with its face-down cards in another order: the host gets the same state."""
    rng = random.Random(4)
    for seed in range(5):
        played = Klondike(seed=seed)
        played.play("d")
        game = Klondike.from_position(played.position_json(), rules=played.rules)
        other = Klondike.from_position(twin(played.position_json(), rng), rules=played.rules)
        assert other.position_json() != game.position_json()
        states = []
        for g in (game, other):
            host = PlainHost()
            BoardSession(g, host=host, records=None, options={"show_moves": True})
            state = {k: v for k, v in host.state.items() if k != "seconds"}
            states.append(json.dumps(state, sort_keys=True))
        assert states[0] == states[1]


def test_work_of_a_worker_thread_waits_for_the_hosts_thread(monkeypatch: pytest.MonkeyPatch) -> None:
    """A review runs in a worker thread; its result is handed to the host's thread, and shown only when that
    thread runs it (as the kernel's event loop does).
    """
    host = RecordingHost(schedules=True)
    board = BoardSession(seed=13, host=host, records=None)
    shown: list[Any] = []
    monkeypatch.setattr(review_job, "review", lambda game, **kw: ("reviewed", game.moves, kw["max_states"]))
    monkeypatch.setattr(board.parts.reviews, "offered", lambda game, indicator: True)
    monkeypatch.setattr(board.parts.reviews, "show", lambda game, found: shown.append(found))
    board.handle_intent({"type": "review", "version": board.version})
    assert host.state["review"]["busy"]
    assert board.parts.background.runner.join(60)
    assert len(host.scheduled) == 1 and not shown, "not shown before the host's thread runs it"
    host.scheduled[0]()
    assert shown == [("reviewed", 0, OPTIONS["review_max_states"])] and board.parts.background.busy is None


def test_a_failed_state_build_changes_neither_the_version_nor_the_state(monkeypatch: pytest.MonkeyPatch) -> None:
    board = BoardSession(seed=7, records=None)
    version, state = board.version, json.dumps(board.state)

    def broken() -> dict[str, Any]:
        raise RuntimeError("broken")

    monkeypatch.setattr(protocol, "_targets", lambda game: broken())
    with pytest.raises(RuntimeError):
        board.sync()
    assert board.version == version and json.dumps(board.state) == state


def public_state(board: BoardSession) -> str:
    state = {k: v for k, v in board.state.items() if k != "seconds"}
    return json.dumps(state, sort_keys=True)


@pytest.mark.parametrize("rules", [Rules(), Rules(draw=3), Rules.preset("six-column")], ids=["d1", "d3", "six"])
def test_face_down_cards_and_stock_order_leave_no_trace(rules: Rules) -> None:
    compared = 0
    for game, other in twin_positions(rules):
        a, b = BoardSession(game, records=None), BoardSession(other, records=None)
        assert public_state(a) == public_state(b)
        assert svg.render(game) == svg.render(other)
        assert game._repr_svg_() == other._repr_svg_()
        # the check can fail: with reveal on, the two differ
        a.set_option("reveal", True)
        b.set_option("reveal", True)
        assert public_state(a) != public_state(b)
        assert svg.render(game, reveal=True) != svg.render(other, reveal=True)
        compared += 1
    assert compared == 6


def test_building_the_synced_state_only_reads() -> None:
    """The parts' synced parts start no solver job and end no recording: the session sets that work going (its
    ``_follow``) before it builds the state from them.
    """
    executor = InlineExecutor()
    board = BoardSession(seed=7, records=None, executor=lambda: executor)
    board.set_option("indicator", True)
    board.start_recording()
    jobs, elsewhere = executor.jobs, Klondike(seed=8)  # a position the indicator never saw, a game not recorded
    assert board.parts.indicator.synced_part(elsewhere)["enabled"]
    assert board.parts.lessons.recording_part(elsewhere) is not None
    assert executor.jobs == jobs and board.recording
    board.sync()  # the session's own sync sets the work going
    assert board.state["indicator"]["verdict"] == "winnable" and board.recording
