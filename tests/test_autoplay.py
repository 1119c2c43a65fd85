"""A player playing on the board (``board.autoplay``): it chooses from the player's view in a worker thread, the
moves are played in the host's thread, and it stops when asked, from Python or the board, or when the board
moves on.
"""

from __future__ import annotations

import pathlib
import threading
from typing import Any

import pytest

from patiencelab import Klondike, PatienceError, Rules
from patiencelab.core.i18n import message
from patiencelab.core.moves import DRAW
from patiencelab.core.view import PlayerView
from patiencelab.lessons import Lesson
from patiencelab.players import Greedy, RandomMoves, play_to_end
from patiencelab.records import Records
from patiencelab.widget.session import BoardSession

from .session_helpers import QueueHost


def finish(board: BoardSession) -> None:
    """Wait for the player to stop and its worker threads to end, running what they hand the host's thread
    meanwhile.
    """
    host = board.host
    for _ in range(12_000):  # a generous ceiling, never a fixed sleep
        if isinstance(host, QueueHost):
            host.run()
        if board.parts.background.runner.join(0.01) and not board.state["autoplay"]["running"]:
            break
    assert board.parts.background.runner.join(0) and not board.state["autoplay"]["running"]
    if isinstance(host, QueueHost):
        host.run()


def test_a_player_plays_its_moves_on_the_board_and_stops_at_its_cap() -> None:
    board = BoardSession(seed=5, host=QueueHost(), records=None)
    board.autoplay(Greedy(), pace=0, max_moves=12)
    assert board.state["autoplay"] == {"running": True, "player": "Greedy"}
    assert board.state["message"]["text"] == "Greedy is playing. Stop ends it."
    finish(board)
    alone = Klondike(seed=5)
    for _ in range(12):
        alone.play(Greedy().choose(alone.player_view()))
    assert board.game.history == alone.history, "the moves the player chooses from the view, in order"
    assert board.state["autoplay"] == {"running": False, "player": None}
    assert board.state["message"]["text"] == "Greedy stopped at its limit of 12 moves."
    assert not board.state["review"]["offered"], "a game stopped at the cap is not over"


def test_the_board_stops_a_player_going_round_in_circles_as_play_to_end_does(tmp_path: pathlib.Path) -> None:
    """Greedy on this deal goes round in circles: ``play_to_end`` stops it at move 41, on a position seen a third
    time; the board stops it there too (never plays on to its cap), says so in the board's language, and the game
    is over: stored as lost, and offered a review.
    """
    rules = Rules.preset("traditional")
    alone = Klondike(seed=11, rules=rules)
    assert play_to_end(alone, Greedy()) == "repeated"
    records = Records(tmp_path / "records.sqlite3")
    board = BoardSession(lang="sv", seed=11, rules=rules, host=QueueHost(), records=records)
    board.autoplay(Greedy(), pace=0)
    finish(board)
    assert board.game.history == alone.history, "the same moves, stopped by the same rule"
    assert board.state["message"]["text"] == message("autoplay.repeated", "sv", player="Greedy")
    assert board.state["message"]["text"].startswith("Greedy slutade: en ställning kom tillbaka en tredje gång")
    assert board.game.status == "playing" and board.state["review"]["offered"]
    assert [row.outcome for row in records.history()] == ["lost"]
    assert not records.in_play()
    board.new_game(seed=12)
    assert [row.outcome for row in records.history()] == ["lost"], "stored once"
    assert not board.state["review"]["offered"]


@pytest.mark.parametrize(
    ("seed", "preset", "lang", "ended", "text"),
    [
        (10, "standard", "nl", "won", "Greedy is gestopt: het spel is gewonnen."),
        (5, "traditional", "en", "stuck", "Greedy stopped: no move is left."),
    ],
)
def test_the_board_says_why_its_player_stopped(seed: int, preset: str, lang: str, ended: str, text: str) -> None:
    """Won or stuck, the board says so in its language, where ``play_to_end`` stops the same player."""
    alone = Klondike(seed=seed, rules=Rules.preset(preset))
    assert play_to_end(alone, Greedy()) == ended
    board = BoardSession(lang=lang, seed=seed, rules=Rules.preset(preset), host=QueueHost(), records=None)
    board.autoplay(Greedy(), pace=0)
    finish(board)
    assert board.game.history == alone.history
    assert board.state["message"]["text"] == text
    assert board.state["review"]["offered"]


def test_stop_from_python_or_the_board_plays_no_further_move() -> None:
    for stop in ("python", "intent"):
        host = QueueHost()
        board = BoardSession(seed=2, host=host, records=None)
        board.autoplay(RandomMoves(seed=1), pace=0)
        while len(board.game.history) < 3:
            host.run()
        if stop == "python":
            board.stop_autoplay()
        else:
            assert board.handle_intent({"type": "autoplay", "action": "stop", "version": board.version}) is None
        played = len(board.game.history)
        finish(board)
        assert len(board.game.history) <= played + 1, "at most the move in hand, never more"
        assert board.state["autoplay"]["running"] is False


def test_a_move_by_hand_or_another_game_stops_it() -> None:
    choosing, go = threading.Event(), threading.Event()

    def slow(view: PlayerView) -> Any:
        choosing.set()
        assert go.wait(120)
        return Greedy().choose(view)

    host = QueueHost()
    board = BoardSession(seed=2, host=host, records=None)
    board.autoplay(slow, pace=0)
    assert choosing.wait(120)
    board.game.play("d")  # by hand, while the player thinks: its move was chosen for the position before it
    go.set()
    finish(board)
    assert board.game.history == (DRAW,) and board.state["autoplay"]["running"] is False
    board.autoplay(Greedy(), pace=0)
    board.new_game(seed=3)
    finish(board)
    assert board.game.moves == 0 and board.state["autoplay"]["running"] is False


def test_a_failing_or_cheating_player_stops_with_a_notice_in_the_boards_language() -> None:
    def broken(view: PlayerView) -> Any:
        raise ValueError("no idea")

    board = BoardSession(seed=1, records=None, lang="nl")
    board.autoplay(broken, pace=0)
    finish(board)
    assert board.state["message"]["text"] == "broken is gestopt met een fout: ValueError: no idea"

    def cheat(view: PlayerView) -> str:
        return "t1-fH"

    board.autoplay(cheat, pace=0)
    finish(board)
    assert board.state["message"]["text"].startswith("cheat is gestopt: ")
    assert board.game.moves == 0 and board.state["autoplay"]["running"] is False


@pytest.mark.parametrize(
    ("arguments", "error"), [({"pace": -1}, "pace"), ({"pace": "1"}, "pace"), ({"max_moves": 0}, "max_moves")]
)
def test_bad_arguments_are_refused(arguments: dict[str, Any], error: str) -> None:
    board = BoardSession(seed=1, records=None)
    with pytest.raises(PatienceError, match=error):
        board.autoplay(Greedy(), **arguments)
    with pytest.raises(PatienceError, match="player"):
        board.autoplay(42)
    assert board.state["autoplay"]["running"] is False


def test_no_player_plays_during_a_lesson() -> None:
    board = BoardSession(seed=1, records=None, lesson=Lesson.builtin("quiz"))
    with pytest.raises(PatienceError, match="lesson"):
        board.autoplay(Greedy())
    rejected = board.handle_intent({"type": "autoplay", "action": "go", "version": board.version})
    assert rejected is not None and rejected["type"] == "rejected"
