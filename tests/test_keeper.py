"""The record keeper: a broken records store never stops the board, the notice in the player's language, and
keepers of the same database hearing of each other's games.
"""

from __future__ import annotations

import errno
import gc
import pathlib
import shutil
import sqlite3
import warnings
from collections.abc import Callable
from contextlib import closing

import pytest

from patiencelab import Klondike, Rules
from patiencelab.records import Records
from patiencelab.widget.keeper import RecordKeeper
from patiencelab.widget.session import BoardSession

from .model_helpers import NEARLY_WON

NOTICES = {
    "en": "Your statistics can't be saved: ",
    "nl": "Je statistieken kunnen niet worden opgeslagen: ",
    "sv": "Din statistik kan inte sparas: ",
}


def won_game(rules: Rules | None = None) -> Klondike:
    game = Klondike.from_position(NEARLY_WON, rules=rules)
    game.play("t1-f")
    return game


def played_game(seed: int = 1) -> Klondike:
    game = Klondike(seed=seed)
    game.draw()
    return game


def _some_games(path: pathlib.Path) -> None:
    records = Records(path)
    for seed in range(5):
        records.add(played_game(seed))
    with closing(sqlite3.connect(path)) as connection:
        connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")


def _folder(home: pathlib.Path, _monkeypatch: pytest.MonkeyPatch) -> None:
    (home / "records.sqlite3").mkdir()


def _home_is_a_file(home: pathlib.Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (home / "file").write_text("not a folder")
    monkeypatch.setenv("PATIENCELAB_HOME", str(home / "file"))


def _home_under_a_file(home: pathlib.Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (home / "file").write_text("not a folder")
    monkeypatch.setenv("PATIENCELAB_HOME", str(home / "file" / "deeper"))


def _folder_may_not_be_written(home: pathlib.Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATIENCELAB_HOME", str(home / "new"))

    def refuse(self: pathlib.Path, *args: object, **kwargs: object) -> None:
        raise PermissionError(errno.EACCES, "Permission denied", str(self))

    monkeypatch.setattr(pathlib.Path, "mkdir", refuse)  # tests run as root: chmod would not stop them


def _schema_not_utf8(home: pathlib.Path, _monkeypatch: pytest.MonkeyPatch) -> None:
    path = home / "records.sqlite3"
    _some_games(path)
    with closing(sqlite3.connect(path)) as connection:
        connection.execute("PRAGMA writable_schema = ON")
        connection.execute(
            "UPDATE sqlite_master SET sql = CAST(REPLACE(sql, 'TABLE', X'FF') AS TEXT) WHERE name = 'games'"
        )
        connection.commit()


def _bad_row(home: pathlib.Path, _monkeypatch: pytest.MonkeyPatch) -> None:
    path = home / "records.sqlite3"
    _some_games(path)
    with closing(sqlite3.connect(path)) as connection:
        connection.execute("UPDATE games SET finished_at = 'last tuesday' WHERE id = 3")
        connection.commit()


def _cut_short(home: pathlib.Path, _monkeypatch: pytest.MonkeyPatch) -> None:
    path = home / "records.sqlite3"
    _some_games(path)
    path.write_bytes(path.read_bytes()[:-1])


BROKEN: dict[str, Callable[[pathlib.Path, pytest.MonkeyPatch], None]] = {
    "a folder where the file should be": _folder,
    "the home folder is a file": _home_is_a_file,
    "the home folder cannot be made": _home_under_a_file,
    "the folder may not be written": _folder_may_not_be_written,
    "schema text that is not UTF-8": _schema_not_utf8,
    "one bad row": _bad_row,
    "the file is cut short": _cut_short,
}


@pytest.mark.parametrize("case", sorted(BROKEN))
def test_a_broken_store_never_stops_the_board(
    private_records_home: pathlib.Path, monkeypatch: pytest.MonkeyPatch, case: str
) -> None:
    from patiencelab.widget.board import KlondikeWidget

    BROKEN[case](private_records_home, monkeypatch)
    with pytest.warns(RuntimeWarning, match="not be stored"):
        widget = KlondikeWidget(seed=7, lang="nl")
    assert widget.records is None
    state = widget.state["stats"]
    assert state["enabled"] is False and state["error"]
    assert state["notice"].startswith(NOTICES["nl"])
    widget.game.draw()
    widget.new_game(seed=8)  # the abandoned game goes nowhere, quietly
    widget.lang = "sv"
    assert widget.state["stats"]["notice"].startswith(NOTICES["sv"])


@pytest.mark.parametrize("lang", sorted(NOTICES))
def test_the_notice_is_in_the_players_language(private_records_home: pathlib.Path, lang: str) -> None:
    _cut_short(private_records_home, pytest.MonkeyPatch())
    with pytest.warns(RuntimeWarning):
        keeper = RecordKeeper(True)
    notice = keeper.notice(lang)
    assert notice is not None and notice.startswith(NOTICES[lang])
    assert str(private_records_home / "records.sqlite3") in notice
    assert notice != keeper.notice("en") or lang == "en"
    game = Klondike(seed=1, lang=lang)
    assert keeper.synced_part(game)["notice"] == notice


def test_no_notice_while_records_work_or_are_switched_off(tmp_path: pathlib.Path) -> None:
    assert RecordKeeper(Records(tmp_path / "r.sqlite3")).notice("en") is None
    keeper = RecordKeeper(None)
    assert keeper.notice("sv") is None and keeper.synced_part(Klondike(seed=1))["notice"] is None


def test_a_store_that_fails_switches_records_off_and_says_so_once(tmp_path: pathlib.Path) -> None:
    path = tmp_path / "r.sqlite3"
    keeper = RecordKeeper(Records(path))
    game = played_game()
    keeper.new_game(game)
    for name in ("r.sqlite3", "r.sqlite3-wal", "r.sqlite3-shm"):
        (tmp_path / name).unlink(missing_ok=True)
    shutil.rmtree(tmp_path)  # the folder went away under the board's feet
    tmp_path.write_text("now a file")
    with pytest.warns(RuntimeWarning, match="not be stored") as caught:
        keeper.store(game)
    assert len(caught) == 1
    assert keeper.records is None
    notice = keeper.notice("en")
    assert notice is not None and notice.startswith(NOTICES["en"])
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # switched off: no second warning
        keeper.new_game(played_game(2))
        keeper.store_unfinished(played_game(2))
        assert keeper.stats(game) is None and keeper.rows() == []


def test_the_state_and_rows_name_the_scoring_scheme(tmp_path: pathlib.Path) -> None:
    vegas = Rules.preset("traditional", scoring="vegas")
    keeper = RecordKeeper(Records(tmp_path / "r.sqlite3"))
    for game in (won_game(), won_game(vegas)):
        keeper.new_game(Klondike.from_position(NEARLY_WON, rules=game.rules))
        keeper.follow(game)
    assert keeper.new == ["best_score", "fewest_moves", "fastest_win"], "the first Vegas win sets Vegas bests"
    state = keeper.synced_part(won_game(vegas))
    assert (state["scoring"], state["best_score"], state["played"]) == ("vegas", -47, 1)
    rows = {(row["rules_key"], row["scoring"]): row["best_score"] for row in keeper.rows()}
    assert rows == {("standard", "standard"): 10, ("traditional", "vegas"): -47}


def test_other_keepers_of_the_same_file_hear_of_a_stored_game(tmp_path: pathlib.Path) -> None:
    path = tmp_path / "r.sqlite3"
    calls: list[str] = []
    first = RecordKeeper(Records(path), on_change=lambda: calls.append("first"))
    (tmp_path / "alias").symlink_to(tmp_path, target_is_directory=True)  # the same file under another name
    second = RecordKeeper(Records(tmp_path / "alias" / "r.sqlite3"), on_change=lambda: calls.append("second"))
    other = RecordKeeper(Records(tmp_path / "other.sqlite3"), on_change=lambda: calls.append("other"))
    quiet = RecordKeeper(Records(path))  # no callback: still refreshed, never called
    game = won_game()
    assert second.stats(game) == quiet.stats(game) and second.synced_part(game)["played"] == 0
    first.new_game(Klondike.from_position(NEARLY_WON))
    first.follow(game)
    assert calls == ["second"]
    assert second.synced_part(game)["played"] == 1 and second.synced_part(game)["best_score"] == 10
    assert quiet.synced_part(game)["played"] == 1
    assert other.synced_part(game)["played"] == 0


def test_keepers_are_held_weakly(tmp_path: pathlib.Path) -> None:
    path = tmp_path / "r.sqlite3"
    calls: list[str] = []
    storing = RecordKeeper(Records(path))
    gone = RecordKeeper(Records(path), on_change=lambda: calls.append("gone"))
    del gone
    gc.collect()
    storing.new_game(Klondike.from_position(NEARLY_WON))
    storing.follow(won_game())
    assert calls == []


def test_a_failing_callback_does_not_stop_the_store(tmp_path: pathlib.Path) -> None:
    path = tmp_path / "r.sqlite3"

    def broken() -> None:
        raise RuntimeError("the other board is gone")

    storing = RecordKeeper(Records(path))
    _listener = RecordKeeper(Records(path), on_change=broken)
    storing.new_game(Klondike.from_position(NEARLY_WON))
    with pytest.warns(RuntimeWarning, match="the other board is gone"):
        storing.follow(won_game())
    assert len(Records(path)) == 1 and storing.records is not None


def test_a_second_board_shows_the_first_boards_best_at_its_next_sync(tmp_path: pathlib.Path) -> None:
    from patiencelab.widget.board import KlondikeWidget

    path = tmp_path / "r.sqlite3"
    first = KlondikeWidget(Klondike.from_position(NEARLY_WON), records=Records(path))
    second = KlondikeWidget(Klondike.from_position(NEARLY_WON), records=Records(path))
    assert second.state["stats"]["best_score"] is None
    first.game.play("t1-f")
    assert first.state["stats"]["best_score"] == 10
    second.lang = "nl"  # any sync; the widget can re-sync at once from on_change
    assert second.state["stats"]["best_score"] == 10 and second.state["stats"]["played"] == 1


def test_records_set_to_a_database_that_cannot_be_used_leave_the_old_one_clean(
    tmp_path: pathlib.Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from patiencelab.widget.board import KlondikeWidget

    records = Records(tmp_path / "r.sqlite3")
    board = KlondikeWidget(seed=7, records=records)
    board.game.draw()
    assert len(records.in_play()) == 1
    _home_is_a_file(tmp_path, monkeypatch)
    with pytest.warns(RuntimeWarning, match="not be stored"):
        board.records = True
    assert board.records is None and records.in_play() == [], "no stale copy left in play"
    assert board.state["stats"]["notice"].startswith(NOTICES["en"])
    board.records = records  # working records again: the notice goes, the game is kept there again
    assert board.state["stats"]["notice"] is None
    board.game.draw()
    assert [g.record["moves"] for g in records.in_play()] == [["d", "d"]]
    board.close()
    assert [row.moves for row in records.history()] == [2]


def test_unusable_records_leave_the_board_playing_and_say_so_once_in_the_players_language(
    private_records_home: pathlib.Path,
) -> None:
    (private_records_home / "records.sqlite3").mkdir()  # the records file is a folder
    with pytest.warns(RuntimeWarning, match="games will not be stored"):
        board = BoardSession(seed=7, lang="sv")
    message = board.state["message"]
    assert message["kind"] == "info" and message["text"].startswith("Din statistik kan inte sparas")
    assert board.state["stats"]["enabled"] is False
    assert board.handle_intent({"type": "draw", "version": board.version}) is None
    assert board.handle_intent({"type": "draw", "version": board.version}) is None
    assert board.state["message"]["id"] == message["id"], "said once"
    assert len(board.game.history) == 2


def test_every_board_of_a_kernel_shows_the_same_bests(tmp_path: pathlib.Path) -> None:
    records = tmp_path / "shared.sqlite3"
    watcher = BoardSession(Klondike.from_position(NEARLY_WON), records=Records(records))
    player = BoardSession(Klondike.from_position(NEARLY_WON), records=Records(records))
    assert watcher.state["stats"]["best_score"] is None
    version = watcher.version
    player.game.play("t1-f")  # the player wins on the other board
    assert player.state["stats"]["best_score"] is not None
    assert watcher.state["stats"]["best_score"] == player.state["stats"]["best_score"]
    assert watcher.version == version, "new bests make no intent stale"
