"""The board's background work goes stale and is dropped, never applied: the automatic player after a move by hand
(also while it waits between its moves), its notice after a change of language, a review cancelled after its
result came in; and a lesson or a review closed gives the player's own game back, which the records store once.

Each test holds the worker at a known point through the host (whose thread runs what workers hand over only when
the test says) or the board's lock, never by the clock.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import pytest

from patiencelab import Klondike
from patiencelab.core.i18n import message
from patiencelab.core.view import PlayerView
from patiencelab.lessons import Lesson
from patiencelab.players import Greedy
from patiencelab.records import Records
from patiencelab.widget import review_job
from patiencelab.widget.board import KlondikeWidget
from patiencelab.widget.session import BoardSession

from .session_helpers import QueueHost, send

#: Small budgets for the board's review.
SMALL = {"review_samples": 2, "review_sample_max_states": 200, "review_max_states": 2_000}


def until(condition: Callable[[], bool]) -> None:
    """Wait for a worker to get to ``condition`` (a generous ceiling, never a fixed sleep)."""
    for _ in range(12_000):
        if condition():
            return
        threading.Event().wait(0.01)
    raise AssertionError("the worker never got there")


def settle(board: BoardSession, host: QueueHost) -> None:
    """Run what the player's worker hands over until it has stopped."""

    def stopped() -> bool:
        host.run()
        return not board.state["autoplay"]["running"]

    until(stopped)
    host.run()


def test_a_move_by_hand_while_the_player_waits_between_its_moves_stops_it() -> None:
    """Fault 1 of issue 32: the player looked at the board afresh after its pace and played over the hand's move."""
    for hand in ("move", "undo"):
        host = QueueHost()
        board = BoardSession(seed=2, host=host, records=None)
        board.autoplay(Greedy(), pace=0)
        until(host.waiting)  # the player's first move, chosen and handed to the kernel's thread
        with board.parts.lock:  # the player's next look waits for the board: the hand comes in between
            host.run()
            assert board.game.moves == 1
            if hand == "move":
                board.game.play(board.game.legal_moves()[0])
            else:
                board.game.undo()
            after_hand = board.game.history
        settle(board, host)
        assert board.game.history == after_hand, f"no move played after the hand's {hand}"
        assert board.state["autoplay"] == {"running": False, "player": None}


def test_the_players_notice_follows_the_language_and_goes_when_it_stops() -> None:
    """Fault 2 of issue 32: "Greedy is playing" stayed, in English, on a Dutch board after the player stopped."""
    choosing, go = threading.Event(), threading.Event()

    def slow(view: PlayerView) -> Any:
        choosing.set()
        assert go.wait(120)
        return Greedy().choose(view)

    host = QueueHost()
    board = BoardSession(seed=2, host=host, records=None)
    board.autoplay(slow, pace=0)
    assert choosing.wait(120)
    board.lang = "nl"
    assert board.state["message"]["text"] == message("autoplay.playing", "nl", player="slow")
    board.stop_autoplay()
    go.set()
    settle(board, host)
    assert board.state["message"] is None and board.state["autoplay"]["running"] is False


def test_a_review_cancelled_after_its_result_came_in_is_not_shown(monkeypatch: pytest.MonkeyPatch) -> None:
    """Fault 8 of issue 32: the session applied a review's result without looking at the cancel."""
    host = QueueHost()
    game = Klondike(seed=13)
    game.play(game.legal_moves()[0])
    board = BoardSession(game, host=host, records=None)
    shown: list[Any] = []
    monkeypatch.setattr(review_job, "review", lambda game, **kw: "reviewed")
    monkeypatch.setattr(board.parts.reviews, "offered", lambda game, indicator: True)
    monkeypatch.setattr(board.parts.reviews, "show", lambda game, found: shown.append(found))
    assert board.handle_intent({"type": "review", "version": board.version}) is None
    until(host.waiting)  # the review is done: its result waits for the kernel's thread
    assert board.handle_intent({"type": "review", "action": "cancel", "version": board.version}) is None
    host.run()
    assert shown == [], "a cancelled review is never shown"
    assert board.state["message"]["text"] == message("review.cancelled", "en")
    assert board.state["review"]["busy"] is False and board.game is game and board.lesson is None


def test_closing_a_lesson_gives_the_players_game_back_and_stores_it_once(tmp_path: Any) -> None:
    """Fault 6 of issue 32: the lesson's game stayed and was stored as an abandoned game of the player's."""
    records = Records(tmp_path / "records.db")
    board = BoardSession(seed=4, records=records)
    own = board.game
    for _ in range(3):
        own.play(own.legal_moves()[0])
    other = Klondike(seed=9)
    moves = []
    for _ in range(4):
        move = other.legal_moves()[0]
        moves.append(move)
        other.play(move)
    board.lesson = Lesson.from_moves(Klondike(seed=9), moves, "A lesson")
    for _ in range(3):
        assert board.handle_intent({"type": "lesson", "action": "forward", "version": board.version}) is None
    assert len(records) == 0, "opening a lesson stores nothing"
    assert board.handle_intent({"type": "lesson", "action": "close", "version": board.version}) is None
    assert board.game is own and own.moves == 3 and board.state["lesson"] is None
    own.play(own.legal_moves()[0])  # the player plays on
    board.close()
    rows = records.history()
    assert [(row.seed, row.moves, row.outcome) for row in rows] == [(4, 4, "abandoned")]


def test_closing_a_review_gives_the_reviewed_game_back_and_stores_it_once(tmp_path: Any) -> None:
    """Fault 6 of issue 32: a reviewed game was stored, and its review's game stored a second time."""
    records = Records(tmp_path / "records.db")
    game = Klondike(seed=6)
    board = BoardSession(game, records=records, options=SMALL)
    for _ in range(5):
        game.play(game.legal_moves()[0])
    board.review()
    assert board.handle_intent({"type": "lesson", "action": "last", "version": board.version}) is None
    assert board.game is not game and board.game.moves == 5
    assert board.handle_intent({"type": "lesson", "action": "close", "version": board.version}) is None
    assert board.game is game
    board.close()
    assert [(row.seed, row.moves) for row in records.history()] == [(6, 5)]


def test_background_work_is_tied_to_a_serial_number_not_an_id() -> None:
    """Fault 5: ``id(game)`` is reused after two new games, so a review of game A could be shown for game C; the
    token now carries a serial number that grows with every game, lesson and recording shown.
    """
    board = KlondikeWidget(seed=1, records=None)

    def token() -> tuple[Any, ...]:
        shown = board.session.parts.background.token()  # what the background's work is tied to
        assert shown is not None
        return shown

    tokens = [token()]
    for _ in range(6):
        send(board, "new")
        tokens.append(token())
    serials = [t[0] for t in tokens]
    assert serials == sorted(set(serials))
    assert all(id(board.game) not in token for token in tokens)
    board.start_recording()
    assert token()[0] > serials[-1]
