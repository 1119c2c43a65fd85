"""The board's protocol with no widget library: intents in, synced state and replies out, on a
:class:`~patiencelab.widget.session.BoardSession` (the widget's shell is tested in ``tests/test_widget.py``).
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from patiencelab import Klondike, Rules
from patiencelab.core.cards import full_deck
from patiencelab.lessons import Lesson
from patiencelab.widget.session import BoardSession
from tests.sweeps import FUZZ_EXAMPLES

from .model_helpers import NEARLY_WON
from .session_helpers import InlineExecutor, check_invariants, intent, intents, real_move, snapshot


@pytest.fixture
def board() -> BoardSession:
    return BoardSession(seed=7)


def test_state_is_the_public_view_with_widget_fields(board: BoardSession) -> None:
    state = board.state
    view = board.game.view()
    for key, value in view.items():
        assert state[key] == value
    assert state["version"] == board.version == 1
    assert state["last_move"] is None
    assert state["rules"]["preset"] == "standard"
    assert state["targets"] == {"5D": ["t3"], "6S": ["t2"], "5H": ["t3"]}
    assert board.labels["undo"] == "Undo"


def test_face_down_identities_never_reach_the_state(board: BoardSession) -> None:
    text = json.dumps(board.state)
    face_down = [str(c) for col in board.game.tableau for c in col.down] + [str(c) for c in board.game.stock]
    for card in face_down:
        assert f'"{card}"' not in text
    board.set_option("reveal", True)
    assert all(f'"{card}"' in json.dumps(board.state) for card in face_down)
    board.set_option("reveal", False)
    assert not any(f'"{card}"' in json.dumps(board.state) for card in face_down)


def test_scripting_the_game_updates_the_state(board: BoardSession) -> None:
    board.game.play("t1-t3")
    assert board.version == 2
    assert board.state["tableau"][2]["up"] == ["6S", "5D"]
    assert board.state["last_move"] == {
        "move": "t1-t3",
        "cards": ["5D"],
        "from": "t1",
        "to": "t3",
        "undo": False,
        "text": "5 of diamonds to Column 3",
    }
    board.game.undo()
    assert board.state["last_move"] == {
        "move": "t1-t3",
        "cards": ["5D"],
        "from": "t3",
        "to": "t1",
        "undo": True,
        "text": "Undo: 5 of diamonds to Column 1",
    }
    board.game.draw()
    assert board.state["last_move"]["from"] == "stock" and board.state["last_move"]["to"] == "w"
    assert board.state["last_move"]["text"] == "Draw: 6 of diamonds"
    assert board.state["waste"] == ["6D"]
    board.game.undo()
    assert board.state["last_move"]["text"] == "Undo: Draw"


def test_piles_are_named_alike_everywhere(board: BoardSession) -> None:
    """Targets, the last move and hints name piles as stock, w, t1..t9 and fC..fS: a foundation by its suit."""
    game = Klondike.from_position(
        {
            "tableau": [{"down": [], "up": ["AH"]}, {"down": ["2C"], "up": ["KS"]}] + [{"down": [], "up": []}] * 5,
            "stock": [c for c in map(str, full_deck()) if c not in ("AH", "KS", "2C")],
            "waste": [],
            "foundations": {"C": 0, "D": 0, "H": 0, "S": 0},
        }
    )
    board.game = game
    assert board.state["targets"]["AH"] == ["fH"]
    assert board.state["pickable"] == ["AH", "KS"]
    assert board.handle_intent(intent(board, "move", card="AH", to="f")) is None
    assert board.state["last_move"]["to"] == "fH"
    assert board.state["last_move"]["text"] == "Ace of hearts to Foundation hearts"
    assert board.state["pickable"] == ["KS", "AH"]
    board.lang = "nl"
    board.game.undo()
    assert board.state["last_move"]["from"] == "fH" and board.state["last_move"]["to"] == "t1"
    assert board.state["last_move"]["text"].startswith(board.labels["undo"])


@pytest.mark.parametrize(
    ("field", "wrong"),
    [
        ("targets", {"AD": ["f"]}),  # the notation's "f", not a pile
        ("last_move", {"move": "d", "cards": [], "from": "stock", "to": "waste", "undo": False, "text": "Draw"}),
        ("pickable", ["10H"]),
        ("passes_left", "none"),
        ("surprise", 1),
    ],
)
def test_the_protocol_check_catches_a_state_the_types_do_not_allow(board: BoardSession, field: str, wrong: Any) -> None:
    """The schema check that runs on every synced state (conftest.py) fails on a wrong one."""
    from jsonschema import ValidationError

    from tests.protocol_schema import check

    state = json.loads(json.dumps(board.state))
    check("GameState", state)
    with pytest.raises(ValidationError):
        check("GameState", {**state, field: wrong})
    del state["pickable"]
    with pytest.raises(ValidationError, match="pickable"):
        check("GameState", state)


def test_new_game_replaces_the_game_and_stops_following_the_old(board: BoardSession) -> None:
    old = board.game
    game = board.new_game(seed=11, rules=Rules.preset("six-column"))
    assert board.game is game and game.seed == 11
    assert board.state["columns"] == 6 and board.state["rules"]["preset"] == "six-column"
    version = board.version
    old.draw()
    assert board.version == version


def test_a_legal_move_intent_plays_it_and_replies_nothing(board: BoardSession) -> None:
    assert board.handle_intent(intent(board, "move", card="5D", to="t3")) is None
    assert board.game.history[-1].source == "t1"
    assert board.version == 2


@pytest.mark.parametrize("kind", ["draw", "undo", "redo", "restart", "hint"])
def test_simple_intents(board: BoardSession, kind: str) -> None:
    board.game.play("t1-t3")
    if kind == "redo":
        board.game.undo()
    reply = board.handle_intent(intent(board, kind))
    if kind == "hint":
        assert reply is not None and reply["type"] == "hint"
        if reply["card"] is None:
            assert reply["move"] in ("d", "r") and reply["to"] == "stock"
        else:
            assert reply["to"] in board.state["targets"][reply["card"]]
        assert board.game.can_play(reply["move"])
    else:
        assert reply is None
    expected_moves = {"draw": 2, "undo": 0, "redo": 1, "restart": 0, "hint": 1}[kind]
    assert board.game.moves == expected_moves


def test_new_intent_deals_with_the_chosen_rules(board: BoardSession) -> None:
    assert board.handle_intent(intent(board, "new", preset="traditional", draw=3, seed=5)) is None
    assert board.game.seed == 5
    assert board.game.rules == Rules.preset("traditional", draw=3)


def test_recycle_and_autocomplete_intents() -> None:
    position = {
        "tableau": [{"down": [], "up": []} for _ in range(7)],
        "stock": [],
        "waste": ["QS", "KS"],
        "foundations": {"C": 13, "D": 13, "H": 13, "S": 11},
    }
    board = BoardSession(Klondike.from_position(position))
    assert board.state["can_recycle"] and board.state["can_autocomplete"]
    assert board.handle_intent(intent(board, "recycle")) is None
    assert board.state["stock"] == [None, None] and board.state["waste"] == []
    assert board.handle_intent(intent(board, "autocomplete")) is None
    assert board.game.is_won and board.state["status"] == "won"
    assert board.state["clock_running"] is False


BAD_INTENTS: list[tuple[str, Any]] = [
    ("not an object", ["move"]),
    ("a string", "draw"),
    ("unknown type", {"type": "teleport", "version": 1}),
    ("no type", {"version": 1}),
    ("no version", {"type": "draw"}),
    ("version as text", {"type": "draw", "version": "1"}),
    ("version as bool", {"type": "draw", "version": True}),
    ("stale move", {"type": "move", "version": 0, "card": "5D", "to": "t3"}),
    ("future move", {"type": "move", "version": 99, "card": "5D", "to": "t3"}),
    ("a megabyte card", {"type": "move", "version": 1, "card": "5" * 2**20, "to": "t3"}),
    ("a megabyte type", {"type": "x" * 2**20, "version": 1}),
    ("a megabyte field name", {"type": "draw", "version": 1, "x" * 2**20: 1}),
    ("a huge version", {"type": "move", "version": 10**5000, "card": "5D", "to": "t3"}),
    ("new with a seed past 64 bits", {"type": "new", "version": 1, "seed": 2**63}),
    ("new with a huge seed", {"type": "new", "version": 1, "seed": 10**5000}),
    ("a megabyte language", {"type": "lang", "version": 1, "lang": "e" * 2**20}),
    ("a megabyte lesson action", {"type": "lesson", "version": 1, "action": "f" * 2**20}),
    ("move without card", {"type": "move", "version": 1, "to": "t3"}),
    ("move without target", {"type": "move", "version": 1, "card": "5D"}),
    ("move with a number", {"type": "move", "version": 1, "card": 5, "to": "t3"}),
    ("move with nonsense card", {"type": "move", "version": 1, "card": "ZZ", "to": "t3"}),
    ("move with nonsense target", {"type": "move", "version": 1, "card": "5D", "to": "t99"}),
    ("move with a dash", {"type": "move", "version": 1, "card": "5D-t2", "to": "t3"}),
    ("move to a missing column", {"type": "move", "version": 1, "card": "5D", "to": "t8"}),
    ("illegal move", {"type": "move", "version": 1, "card": "5D", "to": "t2"}),
    ("face-down card", {"type": "move", "version": 1, "card": "AC", "to": "t2"}),
    ("extra field", {"type": "draw", "version": 1, "card": "5D"}),
    ("recycle with stock", {"type": "recycle", "version": 1}),
    ("undo at start", {"type": "undo", "version": 1}),
    ("redo at start", {"type": "redo", "version": 1}),
    ("new with bad preset", {"type": "new", "version": 1, "preset": "spider"}),
    ("new with draw 2", {"type": "new", "version": 1, "draw": 2}),
    ("new with bad seed", {"type": "new", "version": 1, "seed": -1}),
    ("new with text seed", {"type": "new", "version": 1, "seed": "7"}),
    ("autocomplete too early", {"type": "autocomplete", "version": 1}),
]


@pytest.mark.parametrize(("what", "content"), BAD_INTENTS, ids=[what for what, _ in BAD_INTENTS])
def test_bad_intents_change_nothing_and_are_answered(board: BoardSession, what: str, content: Any) -> None:
    before = snapshot(board)
    reply = board.handle_intent(content)
    assert reply is not None
    assert reply["type"] == "rejected"
    assert isinstance(reply["text"], str) and reply["text"]
    assert reply["version"] == board.version
    assert len(reply["text"]) <= 400, "a reply never echoes large input back"
    assert snapshot(board) == before


def test_illegal_move_reply_carries_the_rule_and_reason(board: BoardSession) -> None:
    reply = board.handle_intent(intent(board, "move", card="5D", to="t2"))
    assert reply == {
        "type": "rejected",
        "id": 7,
        "rule": "one-lower",
        "text": board.game.check("5D-t2").reason,  # type: ignore[union-attr]
        "version": 1,
    }
    assert "5♦" in reply["text"] and "7♦" in reply["text"]


# --------------------------------------------------------------------------------------------- the fuzz


@settings(max_examples=FUZZ_EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), seed=st.integers(0, 50))
def test_fuzz_random_intents_never_escape_or_break_the_game(data: st.DataObject, seed: int) -> None:
    """:data:`FUZZ_EXAMPLES` examples x 50 intents (``make soak``: 10,000), random JSON mixed with real moves."""
    # verdicts come from a fake worker at once: a real one would change the state (not the version) whenever it
    # answers, racing the check that a rejected intent changes nothing
    fuzzing = {"hint_max_states": 200, "hint_samples": 2}  # the fair hint on 2 sampled deals: fuzzing, not judging
    board = BoardSession(seed=seed, executor=InlineExecutor, options=fuzzing)
    try:
        for _ in range(50):
            content = data.draw(real_move(board)) if data.draw(st.booleans()) else data.draw(intents(board.version))
            version, before = board.version, snapshot(board)
            reply = board.handle_intent(content)
            if reply is not None and reply["type"] == "rejected":
                assert snapshot(board) == before
            else:
                assert reply is None or reply["type"] in ("hint", "stats")
                assert board.version >= version
        check_invariants(board)
    finally:
        board.close()  # else every earlier example's board stays open and follows this one's records


# ------------------------------------------------------------------------------------------- records


def test_a_win_is_stored_once_and_announced_as_a_record(tmp_path: Any) -> None:
    from patiencelab.records import Records

    records = Records(tmp_path / "r.sqlite3")
    board = BoardSession(Klondike.from_position(NEARLY_WON), records=records)
    assert board.state["stats"]["played"] == 0
    board.handle_intent(intent(board, "move", card="KS", to="f"))
    assert board.state["status"] == "won"
    assert board.state["stats"]["played"] == 1 and board.state["stats"]["won"] == 1
    assert board.state["stats"]["new"] == ["best_score", "fewest_moves", "fastest_win"]
    board.game.undo()
    board.game.redo()
    assert len(records) == 1, "a win is stored once"


def test_abandoned_games_are_stored_when_replaced_or_restarted(tmp_path: Any) -> None:
    from patiencelab.records import Records

    records = Records(tmp_path / "r.sqlite3")
    board = BoardSession(seed=7, records=records)
    board.handle_intent(intent(board, "new", seed=8))  # not played: not stored
    assert len(records) == 0
    board.handle_intent(intent(board, "draw"))
    board.handle_intent(intent(board, "restart"))
    board.handle_intent(intent(board, "draw"))
    board.new_game(seed=9)
    assert [row.outcome for row in records.history()] == ["abandoned", "abandoned"]
    assert board.state["stats"]["played"] == 2
    board.game.draw()
    board.close()
    assert len(records) == 3


def test_storing_can_be_switched_off(tmp_path: Any) -> None:
    from patiencelab.records import Records

    records = Records(tmp_path / "r.sqlite3")
    board = BoardSession(Klondike.from_position(NEARLY_WON), records=records)
    board.records = None
    board.game.play("t1-f")
    assert len(records) == 0
    assert board.state["stats"]["enabled"] is False


def test_an_unreadable_database_never_stops_play(private_records_home: Any) -> None:
    path = private_records_home / "records.sqlite3"
    path.write_bytes(b"not a database at all" * 50)
    with pytest.warns(RuntimeWarning, match="not be stored"):
        board = BoardSession(seed=7)
    assert board.records is None
    assert board.state["stats"]["enabled"] is False and "not a PatienceLab" in board.state["stats"]["error"]
    assert board.handle_intent(intent(board, "draw")) is None
    assert path.read_bytes() == b"not a database at all" * 50


def test_relative_commands_made_on_an_older_version_all_count_in_order() -> None:
    board = BoardSession(seed=7, records=None)
    made_on = board.version
    for _ in range(3):  # three quick clicks on the stock before the first answer arrives
        assert board.handle_intent({"type": "draw", "version": made_on}) is None
    assert [str(m) for m in board.game.history] == ["d", "d", "d"]
    made_on = board.version
    assert board.handle_intent({"type": "undo", "version": made_on}) is None
    assert board.handle_intent({"type": "undo", "version": made_on}) is None
    assert [str(m) for m in board.game.history] == ["d"]
    # a card move names cards of the board it was made on: on an older version it is stale
    targets = board.state["targets"]
    card = sorted(targets)[0]
    reply = board.handle_intent({"type": "move", "version": made_on, "card": card, "to": targets[card][0]})
    assert reply is not None and reply["type"] == "rejected" and "stale" in reply["text"]


def test_five_quick_lesson_steps_land_on_step_five() -> None:
    board = BoardSession(records=None)
    board.lesson = Lesson.builtin("draw-three")
    made_on = board.version
    for _ in range(5):
        assert board.handle_intent({"type": "lesson", "version": made_on, "action": "forward"}) is None
    assert board.state["lesson"]["step"] == 5
