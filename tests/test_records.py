"""Records: storing games, statistics and streaks, concurrent writers, damaged and future files, export."""

from __future__ import annotations

import datetime as dt
import json
import multiprocessing
import pathlib
import sqlite3

import pytest
from hypothesis import given
from hypothesis import strategies as st

from patiencelab import Klondike, Rules
from patiencelab.records import SCHEMA_VERSION, Records, RecordsError, default_path, streaks

NEARLY_WON = {
    "tableau": [{"down": [], "up": ["KS"]}] + [{"down": [], "up": []}] * 6,
    "stock": [],
    "waste": [],
    "foundations": {"C": 13, "D": 13, "H": 13, "S": 12},
}
T0 = dt.datetime(2026, 1, 1, 12, 0, tzinfo=dt.timezone.utc)


def won_game(rules: Rules | None = None) -> Klondike:
    game = Klondike.from_position(NEARLY_WON, rules=rules)
    game.play("t1-f")
    return game


def abandoned_game(seed: int = 1, rules: Rules | None = None) -> Klondike:
    game = Klondike(seed=seed, rules=rules)
    game.draw()
    return game


def at(minutes: int) -> dt.datetime:
    return T0 + dt.timedelta(minutes=minutes)


@pytest.fixture
def records(tmp_path: pathlib.Path) -> Records:
    return Records(tmp_path / "records.sqlite3")


def test_a_new_database_is_empty(records: Records) -> None:
    stats = records.stats()
    assert (stats.played, stats.won, stats.win_rate, stats.best_score) == (0, 0, None, None)
    assert len(records) == 0 and records.history() == []


def test_add_stores_every_field_and_infers_the_outcome(records: Records) -> None:
    row = records.add(won_game(), finished_at=at(0))
    assert row.outcome == "won" and row.moves == 1 and row.score == 10
    assert row.finished_at == at(0) and row.rules_key == "standard" and row.draw == 1
    assert Klondike.from_record(row.record).is_won
    assert records.add(abandoned_game(), finished_at=at(1)).outcome == "abandoned"
    assert records.add(abandoned_game(), outcome="lost", finished_at=at(2)).outcome == "lost"
    assert [r.outcome for r in records.history()] == ["won", "abandoned", "lost"]


def test_bad_input_to_add_is_refused(records: Records) -> None:
    with pytest.raises(RecordsError, match="outcome"):
        records.add(won_game(), outcome="tie")  # type: ignore[arg-type]
    with pytest.raises(RecordsError, match="Klondike"):
        records.add("not a game")  # type: ignore[arg-type]
    assert len(records) == 0


def test_stats_per_rule_set_and_draw(records: Records) -> None:
    draw3 = Rules.preset("standard", draw=3)
    records.add(won_game(), finished_at=at(0))
    records.add(abandoned_game(), finished_at=at(1))
    records.add(won_game(draw3), finished_at=at(2))
    records.add(won_game(Rules.preset("traditional")), finished_at=at(3))
    standard1 = records.stats(rules="standard", draw=1)
    assert (standard1.played, standard1.won, standard1.win_rate) == (2, 1, 0.5)
    assert standard1.fewest_moves == 1 and standard1.best_score == 10
    assert records.stats(rules=draw3, draw=3).played == 1
    assert set(records.by_rules()) == {("standard", 1), ("standard", 3), ("traditional", 1)}
    assert records.stats().played == 4


def test_streaks_follow_the_order_of_play(records: Records) -> None:
    for minute, won in enumerate([True, True, False, True, True, True, False, True]):
        records.add(won_game() if won else abandoned_game(), finished_at=at(minute))
    stats = records.stats()
    assert (stats.current_streak, stats.longest_streak) == (1, 3)


@given(st.lists(st.sampled_from(["won", "lost", "abandoned"]), max_size=30))
def test_streak_arithmetic(outcomes: list[str]) -> None:
    current, longest = streaks(outcomes)
    text = "".join("W" if o == "won" else "x" for o in outcomes)
    assert longest == max((len(run) for run in text.split("x")), default=0)
    assert current == len(text) - len(text.rstrip("W"))


def test_default_path_follows_patiencelab_home(tmp_path: pathlib.Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATIENCELAB_HOME", str(tmp_path / "home"))
    assert default_path() == tmp_path / "home" / "records.sqlite3"
    records = Records()
    records.add(won_game())
    assert (tmp_path / "home" / "records.sqlite3").exists()
    monkeypatch.delenv("PATIENCELAB_HOME")
    assert default_path().name == "records.sqlite3" and "patiencelab" in str(default_path())


def test_records_survive_reopening(tmp_path: pathlib.Path) -> None:
    Records(tmp_path / "r.sqlite3").add(won_game())
    assert Records(tmp_path / "r.sqlite3").stats().won == 1


def _writer(path: str, start: int, count: int) -> None:
    records = Records(path)
    for i in range(count):
        records.add(abandoned_game(seed=start + i), finished_at=at(start + i))


def test_two_processes_writing_at_once_both_succeed(tmp_path: pathlib.Path) -> None:
    path = str(tmp_path / "shared.sqlite3")
    Records(path)
    context = multiprocessing.get_context("spawn")
    writers = [context.Process(target=_writer, args=(path, start, 40)) for start in (0, 1000)]
    for writer in writers:
        writer.start()
    for writer in writers:
        writer.join(120)
    assert [w.exitcode for w in writers] == [0, 0]
    assert len(Records(path)) == 80


def test_a_file_that_is_not_a_database_is_left_untouched(tmp_path: pathlib.Path) -> None:
    path = tmp_path / "records.sqlite3"
    path.write_bytes(b"my shopping list\n" * 100)
    before = path.read_bytes()
    with pytest.raises(RecordsError, match="not a PatienceLab records database"):
        Records(path)
    assert path.read_bytes() == before


def test_a_damaged_database_is_left_untouched(tmp_path: pathlib.Path) -> None:
    path = tmp_path / "records.sqlite3"
    records = Records(path)
    for i in range(30):
        records.add(abandoned_game(seed=i), finished_at=at(i))
    with sqlite3.connect(path) as connection:
        connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    data = bytearray(path.read_bytes())
    data[4096 : 3 * 4096] = b"\xff" * (2 * 4096)  # scribble over the second and third pages
    path.write_bytes(bytes(data))
    with pytest.raises(RecordsError):
        Records(path)
    assert path.read_bytes() == bytes(data)


def test_a_database_from_a_newer_version_is_left_untouched(tmp_path: pathlib.Path) -> None:
    path = tmp_path / "records.sqlite3"
    Records(path).add(won_game())
    with sqlite3.connect(path) as connection:
        connection.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    before = path.read_bytes()
    with pytest.raises(RecordsError, match="newer PatienceLab"):
        Records(path)
    assert path.read_bytes() == before


def test_an_empty_file_is_migrated_to_the_current_schema(tmp_path: pathlib.Path) -> None:
    path = tmp_path / "records.sqlite3"
    path.touch()
    Records(path)
    with sqlite3.connect(path) as connection:
        assert connection.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION


@pytest.mark.parametrize("suffix", [".json", ".csv"])
def test_export_and_import_round_trip(records: Records, tmp_path: pathlib.Path, suffix: str) -> None:
    records.add(won_game(), finished_at=at(0))
    records.add(abandoned_game(seed=3, rules=Rules.preset("six-column")), finished_at=at(1))
    export = tmp_path / f"export{suffix}"
    assert (records.export_json(export) if suffix == ".json" else records.export_csv(export)) == 2
    fresh = Records(tmp_path / "fresh.sqlite3")
    assert fresh.import_file(export) == 2
    assert [r.to_json() for r in fresh.history()] == [r.to_json() for r in records.history()]
    assert fresh.import_file(export) == 0  # nothing twice


def test_a_bad_import_adds_nothing(records: Records, tmp_path: pathlib.Path) -> None:
    records.add(won_game(), finished_at=at(0))
    export = tmp_path / "export.json"
    records.export_json(export)
    data = json.loads(export.read_text())
    data["games"].append({**data["games"][0], "moves": 5, "finished_at": at(9).isoformat()})
    export.write_text(json.dumps(data))
    fresh = Records(tmp_path / "fresh.sqlite3")
    with pytest.raises(RecordsError, match="game 2"):
        fresh.import_file(export)
    assert len(fresh) == 0
    (tmp_path / "junk.json").write_text("[1, 2")
    with pytest.raises(RecordsError, match="cannot read"):
        fresh.import_file(tmp_path / "junk.json")


def test_plot_shows_score_and_win_rate(records: Records) -> None:
    import matplotlib

    matplotlib.use("Agg")
    records.add(won_game(), finished_at=at(0))
    records.add(abandoned_game(), finished_at=at(1))
    figure = records.plot()
    scores, rates = figure.axes
    assert list(scores.lines[0].get_ydata()) == [10, 0]
    assert list(rates.lines[0].get_ydata()) == [1.0, 0.5]
