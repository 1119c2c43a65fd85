"""The board's protocol without a widget: state building, intent checking and replies are pure functions of a
game, tested with no anywidget and no built front end; and the cost of one move intent, counted.
"""

from __future__ import annotations

import collections
import subprocess
import sys
from collections.abc import Callable

import pytest

from patiencelab import Klondike
from patiencelab.core.game import Change
from patiencelab.core.i18n import labels
from patiencelab.core.table import Table
from patiencelab.widget import intents, protocol
from patiencelab.widget.keeper import RecordKeeper

from .protocol_schema import check


@pytest.mark.parametrize("module", ["patiencelab", "patiencelab.widget.protocol", "patiencelab.widget.teaching"])
def test_the_model_and_the_protocol_load_no_widget_library_and_no_multiprocessing(module: str) -> None:
    # nor gymnasium and numpy: the environment (patiencelab.env) loads them when it is imported
    loaded = "('anywidget', 'traitlets', 'ipywidgets', 'multiprocessing', 'gymnasium', 'numpy')"
    code = f"import sys; import {module}; print(sorted(m for m in {loaded} if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_the_state_of_a_game_is_what_the_types_allow_and_hides_face_down_cards() -> None:
    game = Klondike(seed=7, clock=lambda: 0.0)  # both states hold the seconds played: the clock stands still
    state = protocol.board_state(game, reveal=False, show_moves=True, lang="nl")
    synced = protocol.synced_state(
        game,
        reveal=False,
        show_moves=True,
        lang="nl",
        last_move=None,
        message=None,
        lesson=None,
        indicator={"enabled": False, "verdict": None, "searched": 0, "error": None},
        stats=RecordKeeper(None).synced_part(game),
        recording=None,
        review={"offered": False, "busy": False, "progress": None},
        autoplay={"running": False, "player": None},
        version=1,
    )
    check("GameState", synced)
    assert synced.items() >= state.items()
    assert state["tableau"][4]["down"] == [None] * 4
    assert state["targets"]["5D"] == ["t3"] and state["can_draw"] and not state["can_recycle"]
    revealed = protocol.board_state(game, reveal=True, show_moves=True, lang="nl")
    assert revealed["tableau"][4]["down"] == [str(c) for c in game.tableau[4].down]


def test_the_last_move_is_read_from_the_change_in_the_boards_words() -> None:
    game = Klondike(seed=7)
    changes: list[Change] = []
    game.on_change(changes.append)
    game.play("t1-t3")
    game.undo()
    game.play("d")
    words = labels("sv")
    played, undone, drawn = (protocol.last_move(c, words) for c in changes)
    assert played is not None and undone is not None and drawn is not None
    assert (played["from"], played["to"], played["cards"], played["undo"]) == ("t1", "t3", ["5D"], False)
    assert (undone["from"], undone["to"], undone["undo"]) == ("t3", "t1", True)
    assert played["text"] == "Ruter 5 till Kolumn 3" or "5" in played["text"]
    assert undone["text"].startswith(words["undo"])
    assert drawn["from"] == "stock" and drawn["to"] == "w" and drawn["cards"] == []


@pytest.mark.parametrize(
    ("content", "reason"),
    [
        ([], "an intent must be an object"),
        ({"type": "fly", "version": 0}, "unknown intent type"),
        ({"type": "draw"}, "needs the integer version"),
        ({"type": "move", "version": 3, "card": "5D", "to": "t3"}, "stale intent"),
        ({"type": "draw", "version": 0, "x": "y" * 33}, "at most 32 characters"),
    ],
)
def test_intents_are_checked_before_anything_changes(content: object, reason: str) -> None:
    with pytest.raises(intents.RejectedIntentError, match=reason):
        intents.read_intent(content, 0)


def test_intent_fields_are_read_into_moves_rules_and_options() -> None:
    kind, fields = intents.read_intent({"type": "move", "version": 4, "card": "5D", "to": "t3", "id": 9}, 4)
    assert kind == "move" and str(intents.intent_move(fields)) == "5D-t3"
    seed, rules = intents.new_game_request(
        {"type": "new", "version": 0, "preset": "traditional", "seed": 5}, Klondike().rules
    )
    assert seed == 5 and rules.preset_name == "traditional"
    with pytest.raises(intents.RejectedIntentError, match="draw must be 1 or 3"):
        intents.new_game_request({"type": "new", "version": 0, "draw": 2}, Klondike().rules)
    assert intents.option_value({"type": "indicator", "version": 0, "on": True}, "indicator") is True
    with pytest.raises(intents.RejectedIntentError, match="unknown field"):
        intents.check_fields({"type": "undo", "version": 0, "extra": 1}, "undo")
    reply = intents.rejected(3, "x" * 1000, "one-lower", 8)
    assert len(reply["text"]) == intents.MAX_REPLY and reply["version"] == 8
    check("Reply", reply)


@pytest.fixture
def counted(monkeypatch: pytest.MonkeyPatch) -> collections.Counter[str]:
    """Counts rule checks, legal-move passes and game copies."""
    counts: collections.Counter[str] = collections.Counter()
    for cls, name in ((Table, "_examine"), (Table, "_list_legal_moves"), (Klondike, "copy")):
        original = getattr(cls, name)

        def wrapper(*args: object, _original: object = original, _name: str = name, **kwargs: object) -> object:
            counts[_name] += 1
            return _original(*args, **kwargs)  # type: ignore[operator]

        monkeypatch.setattr(cls, name, wrapper)
    return counts


@pytest.mark.pure  # counts calls by patching the table's methods
def test_one_move_intent_checks_the_move_once_and_lists_the_new_positions_moves_once(
    counted: collections.Counter[str],
) -> None:
    pytest.importorskip("anywidget")
    try:
        from patiencelab.widget.board import KlondikeWidget
    except ImportError as err:  # pragma: no cover - the bundle is built by make setup
        pytest.fail(f"the widget needs its built front end: {err}")
    widget = KlondikeWidget(seed=7, records=None)

    def any_card_move() -> dict[str, str]:
        card, piles = sorted(widget.state["targets"].items())[0]
        return {"type": "move", "card": card, "to": piles[0]}

    makers: tuple[Callable[[], dict[str, str]], ...] = (
        lambda: {"type": "move", "card": "5D", "to": "t3"},
        lambda: {"type": "draw"},
        lambda: {"type": "undo"},
        lambda: {"type": "redo"},
        any_card_move,
    )
    for make in makers:
        intent = make()
        counted.clear()
        before = widget.version
        reply = widget.handle_intent({**intent, "version": widget.version, "id": 1})
        assert reply is None and widget.version == before + 1, (intent, reply)
        # undo and redo replay the history's entry: no rule check at all
        checks = {"_examine": 1} if intent["type"] in ("move", "draw") else {}
        assert dict(counted) == {**checks, "_list_legal_moves": 1}, intent
        assert "copy" not in counted
    assert widget.state["last_move"]["cards"][0] == intent["card"]
    widget.close()
