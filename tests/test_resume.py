"""Resume: the game in play is kept with the records on every move, and a board after a kernel restart offers to
continue it, in the player's language; a game not continued is stored as abandoned.
"""

from __future__ import annotations

import os
import pathlib
import subprocess
import sys
import textwrap

import pytest

from patiencelab import Klondike
from patiencelab.core.i18n import message
from patiencelab.records import Records
from patiencelab.widget.board import KlondikeWidget

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


def test_a_live_board_is_not_offered_to_another(private_records_home: pathlib.Path) -> None:
    first = KlondikeWidget(seed=4)
    first.game.play("d")
    second = KlondikeWidget()
    assert second.state["stats"]["resume"] is None, "the first board still plays its game"
    first.close()
    assert [row.outcome for row in Records().history()] == ["abandoned"], "a board closed stores its game"
    assert Records().in_play() == []
    second.close()


def test_a_won_game_is_stored_and_no_longer_in_play(private_records_home: pathlib.Path) -> None:
    from patiencelab.records import GameInPlay

    board = KlondikeWidget(seed=4)
    board.game.play("d")
    (kept,) = Records().in_play()
    assert isinstance(kept, GameInPlay) and kept.game().history == board.game.history
    board.game.reset()
    assert Records().in_play() == []
    board.close()
