"""Resume: the game in play is kept with the records on every move, and a board after a kernel restart offers to
continue it, in the player's language; a game not continued is stored as abandoned.
"""

from __future__ import annotations

import json
import os
import pathlib
import subprocess
import sys
import textwrap

import pytest

from patiencelab import Klondike, Rules
from patiencelab.core.errors import PatienceError
from patiencelab.core.i18n import message
from patiencelab.records import Records
from patiencelab.widget.board import KlondikeWidget

from .model_helpers import NEARLY_WON

MOVES = ["t5-f", "t5-f", "t5-t2", "d"]


def kernel_that_stops(home: pathlib.Path, moves: list[str], lang: str = "en") -> None:
    """A kernel that deals seed 11 on a board, plays ``moves`` on it and ends without closing the board."""
    script = textwrap.dedent(
        f"""
        from patiencelab.widget.board import KlondikeWidget
        board = KlondikeWidget(seed=11, lang={lang!r})
        for move in {moves!r}:
            board.game.play(move)
        """
    )
    env = {**os.environ, "PATIENCELAB_HOME": str(home)}
    subprocess.run([sys.executable, "-c", script], env=env, check=True, timeout=120)


@pytest.fixture
def left_in_play(private_records_home: pathlib.Path) -> Klondike:
    """The game a kernel left in play before it stopped."""
    game = Klondike(seed=11)
    for move in MOVES:
        game.play(move)
    kernel_that_stops(private_records_home, [str(m) for m in game.history])
    return game


def test_a_restarted_kernel_offers_the_game_in_play_and_continues_it(left_in_play: Klondike) -> None:
    board = KlondikeWidget()
    offer = board.state["stats"]["resume"]
    assert offer["moves"] == len(MOVES)
    assert offer["text"] == message("resume.offer", "en", when=offer["when"])
    assert offer["text"].startswith("Continue your game from ")
    assert board.game.moves == 0, "a new deal is shown meanwhile"
    reply = board.handle_intent({"type": "resume", "accept": True, "version": board.version, "id": 1})
    assert reply is None
    assert board.game.history == left_in_play.history and board.game.seed == 11
    assert board.state["stats"]["resume"] is None
    assert len(Records()) == 0, "a game continued is not stored"
    assert [g.record["moves"] for g in Records().in_play()] == [MOVES], "kept again, by the board that took it"
    board.close()


def test_declining_stores_the_game_as_abandoned(left_in_play: Klondike) -> None:
    board = KlondikeWidget(lang="nl")
    assert board.state["stats"]["resume"]["text"].startswith("Wil je verder met je spel van ")
    board.decline_resume()
    assert board.state["stats"]["resume"] is None
    rows = Records().history()
    assert [(row.outcome, row.moves, row.record["moves"]) for row in rows] == [("abandoned", len(MOVES), MOVES)]
    assert Records().in_play() == []
    assert board.state["stats"]["played"] == 1
    again = KlondikeWidget()
    assert again.state["stats"]["resume"] is None, "offered once"
    again.close()
    board.close()


def test_a_move_in_the_new_deal_declines_and_the_new_game_is_kept(left_in_play: Klondike) -> None:
    board = KlondikeWidget(seed=3)
    assert board.state["stats"]["resume"] is None, "a board asked for a deal offers nothing"
    board.close()
    board = KlondikeWidget()
    board.game.play("d")
    assert board.state["stats"]["resume"] is None
    assert [row.outcome for row in Records().history()] == ["abandoned"]
    assert [g.record["moves"] for g in Records().in_play()] == [["d"]]
    board.game.undo()
    assert Records().in_play() == [], "undone back to the deal: nothing in play"
    with pytest.raises(Exception, match="no game to continue"):
        board.resume()
    board.close()


def test_a_board_asked_for_a_game_does_not_take_a_live_boards_game(private_records_home: pathlib.Path) -> None:
    first = KlondikeWidget(seed=4)
    first.game.play("d")
    second = KlondikeWidget(seed=5)
    assert second.state["stats"]["resume"] is None, "a board asked for a deal offers nothing"
    first.close()
    assert [row.outcome for row in Records().history()] == ["abandoned"], "a board closed stores its game"
    assert Records().in_play() == []
    second.close()


# ------------------------------------------------------------------ one game offered once and counted once


def test_a_game_left_in_play_is_offered_to_one_board_and_stored_once(left_in_play: Klondike) -> None:
    """Issue 32, fault 5: two boards after a restart both offered the game; the one that declined stored it
    as abandoned while the other played it on, and stored it again when it ended.
    """
    boards = [KlondikeWidget(), KlondikeWidget()]
    offered = [board for board in boards if board.state["stats"]["resume"] is not None]
    assert len(offered) == 1, "the game in play is offered to one board at a time"
    (taker,) = offered
    (other,) = [board for board in boards if board is not taker]
    other.decline_resume()
    with pytest.raises(PatienceError, match="no game to continue"):
        other.resume()
    taker.resume()
    assert taker.game.history == left_in_play.history
    taker.game.play("d")
    other.game.play("d")
    taker.close()
    other.close()
    rows = Records().history()
    assert [(row.outcome, row.record["moves"]) for row in rows] == [
        ("abandoned", [*MOVES, "d"]),
        ("abandoned", ["d"]),
    ], "the game continued once, stored once; the other board's own deal once"
    assert Records().in_play() == []


def test_the_offer_goes_to_the_next_board_when_the_first_never_answered(left_in_play: Klondike) -> None:
    """A page reloaded before the offer was answered: the board re-run takes the offer, the first loses it."""
    first = KlondikeWidget()
    assert first.state["stats"]["resume"] is not None
    second = KlondikeWidget()
    assert second.state["stats"]["resume"] is not None
    assert first.state["stats"]["resume"] is None, "the offer moved to the new board"
    with pytest.raises(PatienceError, match="no game to continue"):
        first.resume()
    first.decline_resume()
    assert len(Records()) == 0, "a board that lost the offer cannot decline it"
    second.resume()
    assert second.game.history == left_in_play.history
    second.close()
    first.close()
    assert len(Records()) == 1


def test_a_page_reload_offers_the_live_boards_game_to_the_next_board(private_records_home: pathlib.Path) -> None:
    """Issue 36: a reload loses the view, not the board in the kernel; re-running the cell offers its game."""
    lost = KlondikeWidget(seed=11, lang="nl")
    for move in MOVES[:3]:
        lost.game.play(move)
    again = KlondikeWidget(lang="nl")
    offer = again.state["stats"]["resume"]
    assert offer is not None and offer["moves"] == 3
    again.resume()
    assert again.game.history == lost.game.history
    assert [g.record["moves"] for g in Records().in_play()] == [MOVES[:3]]
    lost.game.play("d")  # the board no view shows any more is not the game's keeper any more
    assert [g.record["moves"] for g in Records().in_play()] == [MOVES[:3]]
    again.game.play("d")
    lost.close()
    assert len(Records()) == 0, "the board that gave its game away stores nothing"
    third = KlondikeWidget()
    assert third.state["stats"]["resume"] is not None, "the continued game is in play on a live board"
    third.decline_resume()
    again.close()
    third.close()
    rows = Records().history()
    assert [(row.outcome, row.record["moves"]) for row in rows] == [("abandoned", [*MOVES[:3], "d"])]


def test_a_live_boards_game_declined_is_stored_once_and_never_offered_again(
    private_records_home: pathlib.Path,
) -> None:
    """Declined while a board of the kernel still plays it: not stored then (that board plays on, fault 5), but
    offered to no board again, and stored once, when that board is done with it.
    """
    first = KlondikeWidget(seed=4)
    first.game.play("d")
    second = KlondikeWidget()
    assert second.state["stats"]["resume"] is not None, "offered once, to the next board of the same kernel"
    second.decline_resume()
    assert len(Records()) == 0, "its board still plays it"
    first.game.play("d")
    (kept,) = Records().in_play()
    assert kept.declined and kept.record["moves"] == ["d", "d"]
    third = KlondikeWidget()
    assert third.state["stats"]["resume"] is None, "never offered again"
    first.close()
    for board in (second, third):
        board.close()
    assert [(row.outcome, row.record["moves"]) for row in Records().history()] == [("abandoned", ["d", "d"])]
    assert Records().in_play() == []


def test_a_declined_game_left_by_a_kernel_that_ended_is_stored_at_the_next_offer(
    private_records_home: pathlib.Path,
) -> None:
    env = {**os.environ, "PATIENCELAB_HOME": str(private_records_home)}
    script = textwrap.dedent(
        """
        from patiencelab.widget.board import KlondikeWidget
        first = KlondikeWidget(seed=11)
        first.game.play("d")
        second = KlondikeWidget()
        second.decline_resume()
        """
    )
    subprocess.run([sys.executable, "-c", script], env=env, check=True, timeout=120)
    assert [kept.declined for kept in Records().in_play()] == [True], "the kernel ended: its board left it in play"
    board = KlondikeWidget()
    assert board.state["stats"]["resume"] is None, "declined: never offered again"
    assert [row.outcome for row in Records().history()] == ["abandoned"], "stored once, as abandoned"
    assert Records().in_play() == []
    board.close()


KERNEL_THAT_WAITS = """
import json, sys
from patiencelab.widget.board import KlondikeWidget
board = KlondikeWidget(**json.loads(sys.argv[1]))
for move in json.loads(sys.argv[2]):
    board.game.play(move)
print(json.dumps(board.state["stats"]["resume"] is not None), flush=True)
sys.stdin.read()
"""


def kernel_that_waits(home: pathlib.Path, kwargs: dict[str, object], moves: list[str]) -> subprocess.Popen[str]:
    """A kernel with one board that prints whether it offers a game, then waits until its input is closed."""
    env = {**os.environ, "PATIENCELAB_HOME": str(home)}
    command = [sys.executable, "-c", KERNEL_THAT_WAITS, json.dumps(kwargs), json.dumps(moves)]
    return subprocess.Popen(command, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)


def test_two_kernels_starting_at_once_are_not_both_offered_the_game(
    left_in_play: Klondike, private_records_home: pathlib.Path
) -> None:
    kernels = [kernel_that_waits(private_records_home, {}, []) for _ in range(2)]
    try:
        answers = [json.loads(kernel.stdout.readline()) for kernel in kernels if kernel.stdout is not None]
    finally:
        for kernel in kernels:
            kernel.communicate("", timeout=120)
    assert sorted(answers) == [False, True]


def test_a_game_in_play_in_another_running_kernel_is_not_offered(private_records_home: pathlib.Path) -> None:
    other = kernel_that_waits(private_records_home, {"seed": 11}, MOVES)
    try:
        assert other.stdout is not None and json.loads(other.stdout.readline()) is False
        board = KlondikeWidget()
        assert board.state["stats"]["resume"] is None, "that kernel still plays it"
        board.close()
    finally:
        other.kill()  # the kernel dies without closing its board
        other.communicate(timeout=120)
    board = KlondikeWidget()
    assert board.state["stats"]["resume"] is not None, "its kernel is gone: the game is offered"
    board.resume()
    assert [str(move) for move in board.game.history] == MOVES
    board.close()


def test_a_won_game_is_stored_and_no_longer_in_play(private_records_home: pathlib.Path) -> None:
    from patiencelab.records import GameInPlay

    board = KlondikeWidget(seed=4)
    board.game.play("d")
    (kept,) = Records().in_play()
    assert isinstance(kept, GameInPlay) and kept.game().history == board.game.history
    board.game.reset()
    assert Records().in_play() == []
    board.close()


# ------------------------------------------- issue 60: a seeded board after a reload, records set again, stale offers


def test_a_seeded_board_run_again_after_a_reload_is_offered_its_game_once(private_records_home: pathlib.Path) -> None:
    """Issue 60, fault 2: ``KlondikeWidget(seed=3)`` after a page reload dealt seed 3 afresh, with no offer."""
    lost = KlondikeWidget(seed=3, lang="sv")
    for move in ("d", "d", "d"):
        lost.game.play(move)
    again = KlondikeWidget(seed=3, lang="sv")
    offer = again.state["stats"]["resume"]
    assert offer is not None and offer["moves"] == 3
    assert offer["text"] == message("resume.offer", "sv", when=offer["when"], moves=3)
    assert again.game.seed == 3 and again.game.moves == 0, "the deal asked for is shown meanwhile"
    again.resume()
    assert again.game.history == lost.game.history
    third = KlondikeWidget(seed=3)
    assert third.state["stats"]["resume"] is not None, "the game continued is in play on a live board"
    third.decline_resume()
    assert KlondikeWidget(seed=3).state["stats"]["resume"] is None, "declined: offered once"
    for board in (lost, third, again):
        board.close()
    assert [(row.seed, row.moves) for row in Records().history()] == [(3, 3)]


def test_a_ruled_board_is_offered_a_game_of_its_rules(private_records_home: pathlib.Path) -> None:
    traditional = Rules.preset("traditional", draw=3)
    lost = KlondikeWidget(rules=traditional)
    lost.game.play("d")
    assert KlondikeWidget(rules=Rules.preset("traditional")).state["stats"]["resume"] is None, "other rules"
    again = KlondikeWidget(rules=traditional)
    assert again.state["stats"]["resume"] is not None
    assert again.resume().history == lost.game.history


@pytest.mark.parametrize(
    ("asked", "why"),
    [
        ({"seed": 4}, "another deal"),
        ({"seed": 3, "rules": Rules(draw=3)}, "the same deal under other rules"),
        ({"rules": Rules(draw=3)}, "other rules"),
    ],
)
def test_a_board_that_asks_for_another_deal_is_never_offered_a_game_of_another_deal(
    private_records_home: pathlib.Path, asked: dict[str, object], why: str
) -> None:
    lost = KlondikeWidget(seed=3)
    lost.game.play("d")
    other = KlondikeWidget(**asked)  # type: ignore[arg-type]
    assert other.state["stats"]["resume"] is None, why
    assert KlondikeWidget(seed=3).state["stats"]["resume"] is not None, "still in play, for its own deal"


def test_a_seeded_board_after_a_restart_is_offered_the_game_of_its_deal(left_in_play: Klondike) -> None:
    assert KlondikeWidget(seed=12).state["stats"]["resume"] is None
    board = KlondikeWidget(seed=11)
    assert board.state["stats"]["resume"]["moves"] == len(MOVES)
    assert board.resume().history == left_in_play.history


def test_records_set_again_store_the_game_once(private_records_home: pathlib.Path) -> None:
    """Issue 60, fault 3a: a new keeper left the old one's game in play; the next board was offered that stale
    copy, and declining it stored the game a second time.
    """
    board = KlondikeWidget(seed=4)
    board.game.play("d")
    board.records = True
    board.records = Records()
    board.records = Records(os.path.relpath(private_records_home / "records.sqlite3"))  # the same file, another name
    board.game.play("d")
    assert [g.record["moves"] for g in Records().in_play()] == [["d", "d"]], "one game in play, this board's"
    other = KlondikeWidget()
    offer = other.state["stats"]["resume"]
    assert offer is not None and offer["moves"] == 2, "offered the live game, not a stale copy"
    other.decline_resume()
    board.close()
    other.close()
    assert [(row.outcome, row.record["moves"]) for row in Records().history()] == [("abandoned", ["d", "d"])]


def test_records_moved_to_another_database_take_the_game_in_play_along(private_records_home: pathlib.Path) -> None:
    board = KlondikeWidget(seed=4)
    board.game.play("d")
    elsewhere = Records(private_records_home / "elsewhere.sqlite3")
    board.records = elsewhere
    assert Records().in_play() == [], "the default database keeps no copy"
    assert [g.record["moves"] for g in elsewhere.in_play()] == [["d"]]
    board.records = None
    assert elsewhere.in_play() == [] and board.state["stats"]["enabled"] is False
    board.records = elsewhere
    board.close()
    assert len(Records()) == 0 and [row.moves for row in elsewhere.history()] == [1]


def test_the_same_game_shown_again_changes_nothing(private_records_home: pathlib.Path) -> None:
    """Issue 60, fault 3b: ``board.game = board.game`` stored the game as abandoned while it was still played,
    and again at its end.
    """
    board = KlondikeWidget(seed=4)
    board.game.play("d")
    version = board.version
    board.game = board.game
    assert len(Records()) == 0 and board.version == version, "nothing stored, nothing synced"
    board.step_through(["d"])
    own = board.session.parts.lessons.own
    assert own is not None
    board.game = own  # the player's own game, put aside for the lesson, shown again
    assert board.lesson is None and board.game is own and len(Records()) == 0
    board.game.play("d")
    board.close()
    assert [row.record["moves"] for row in Records().history()] == [["d", "d"]]


def test_an_offer_is_withdrawn_when_its_game_is_stored(private_records_home: pathlib.Path) -> None:
    """Issue 60, fault 4: the second board still offered the first board's game after it was stored, and taking
    it failed with "There is no game to continue".
    """
    first = KlondikeWidget(seed=4)
    first.game.play("d")
    second = KlondikeWidget()
    assert second.state["stats"]["resume"] is not None
    first.game.play("d")
    first.new_game(seed=5)  # the game is stored: offered to no board any more
    assert second.state["stats"]["resume"] is None, "withdrawn at once, and shown"
    with pytest.raises(PatienceError, match="no game to continue"):
        second.resume()
    assert [row.moves for row in Records().history()] == [2]


@pytest.mark.parametrize("how", ["undone to the deal", "records switched off", "won"])
def test_an_offer_is_withdrawn_when_its_game_is_no_longer_in_play(private_records_home: pathlib.Path, how: str) -> None:
    first = KlondikeWidget(Klondike.from_position(NEARLY_WON)) if how == "won" else KlondikeWidget(seed=4)
    first.game.play("t1-t2" if how == "won" else "d")
    second = KlondikeWidget()
    assert second.state["stats"]["resume"] is not None
    if how == "undone to the deal":
        first.game.undo()
    elif how == "records switched off":
        first.records = None
    else:
        first.game.play("t2-f")
    assert second.state["stats"]["resume"] is None
    assert Records().in_play() == []
