"""Records: storing games, statistics and streaks, concurrent writers, damaged and future files, export."""

from __future__ import annotations

import datetime as dt
import errno
import json
import multiprocessing
import pathlib
import sqlite3
from contextlib import closing
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from patiencelab import Klondike, Rules
from patiencelab.records import (
    MAX_IMPORT_BYTES,
    SCHEMA_VERSION,
    Records,
    RecordsError,
    default_path,
    scoring_key,
    streaks,
)

from .model_helpers import NEARLY_WON

T0 = dt.datetime(2026, 1, 1, 12, 0, tzinfo=dt.timezone.utc)


def refused_untouched(path: pathlib.Path, match: str, code: str | None = None) -> None:
    """Opening ``path`` raises a RecordsError (matching ``match``, with ``code``) and leaves it byte for byte."""
    before = path.read_bytes()
    with pytest.raises(RecordsError, match=match) as info:
        Records(path)
    if code is not None:
        assert info.value.code == code
    assert path.read_bytes() == before


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
    refused_untouched(path, "not a PatienceLab records database")


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
    refused_untouched(path, "newer PatienceLab")


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


# ------------------------------------------------------------------------- hardening: unusable places


def _games_file(path: pathlib.Path, count: int = 30) -> pathlib.Path:
    """A records file with ``count`` abandoned games, checkpointed so that the main file holds them all."""
    records = Records(path)
    for i in range(count):
        records.add(abandoned_game(seed=i), finished_at=at(i))
    with sqlite3.connect(path) as connection:
        connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    return path


def _non_utf8_schema(path: pathlib.Path) -> pathlib.Path:
    """A records file whose schema text holds a byte that is not UTF-8 (SQLite then reports it undecodably)."""
    _games_file(path, 2)
    with closing(sqlite3.connect(path)) as connection:
        connection.execute("PRAGMA writable_schema = ON")
        connection.execute(
            "UPDATE sqlite_master SET sql = CAST(REPLACE(sql, 'TABLE', X'FF') AS TEXT) WHERE name = 'games'"
        )
        connection.commit()
    return path


def _folder_for_file(tmp_path: pathlib.Path) -> pathlib.Path:
    path = tmp_path / "records.sqlite3"
    path.mkdir()
    return path


def _home_is_a_file(tmp_path: pathlib.Path) -> pathlib.Path:
    (tmp_path / "home").write_text("a file, not a folder")
    return tmp_path / "home" / "records.sqlite3"


def _home_under_a_file(tmp_path: pathlib.Path) -> pathlib.Path:
    (tmp_path / "file").write_text("a file, not a folder")
    return tmp_path / "file" / "home" / "records.sqlite3"


UNUSABLE = {
    "a folder where the file should be": (_folder_for_file, "not-records"),
    "the home folder is a file": (_home_is_a_file, "unreachable"),
    "the home folder cannot be made": (_home_under_a_file, "unreachable"),
    "schema text that is not UTF-8": (lambda tmp: _non_utf8_schema(tmp / "records.sqlite3"), "damaged"),
}


@pytest.mark.parametrize("case", sorted(UNUSABLE))
def test_an_unusable_place_raises_only_records_error(tmp_path: pathlib.Path, case: str) -> None:
    make, code = UNUSABLE[case]
    path = make(tmp_path)
    with pytest.raises(RecordsError) as info:
        Records(path)
    assert info.value.code == code
    assert str(path) in str(info.value)


def test_a_folder_that_may_not_be_written_raises_records_error(
    tmp_path: pathlib.Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def refuse(self: pathlib.Path, *args: object, **kwargs: object) -> None:
        raise PermissionError(errno.EACCES, "Permission denied", str(self))

    monkeypatch.setattr(pathlib.Path, "mkdir", refuse)  # as root, chmod does not stop anyone
    with pytest.raises(RecordsError) as info:
        Records(tmp_path / "new" / "records.sqlite3")
    assert info.value.code == "read-only"


def test_a_home_of_an_unknown_user_raises_records_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATIENCELAB_HOME", "~no-such-user-of-patiencelab/records")
    with pytest.raises(RecordsError) as info:
        Records()
    assert info.value.code == "unreachable"


def test_a_database_opened_read_only_raises_records_error(
    tmp_path: pathlib.Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = _games_file(tmp_path / "records.sqlite3", 2)
    records = Records(path)
    connect = sqlite3.connect

    def read_only(database: object, timeout: float = 5.0, isolation_level: None = None) -> sqlite3.Connection:
        return connect(f"file:{database}?mode=ro", timeout=timeout, isolation_level=isolation_level, uri=True)

    monkeypatch.setattr(sqlite3, "connect", read_only)
    with pytest.raises(RecordsError) as info:
        records.add(won_game())
    assert info.value.code == "read-only"
    monkeypatch.undo()
    assert len(Records(path)) == 2


# ----------------------------------------------------------------------------- hardening: bad rows


BAD_VALUES = [
    ("finished_at", "yesterday"),
    ("finished_at", "2026-13-45"),
    ("record", "not json"),
    ("record", "[1, 2]"),
    ("rules", '{"draw": 5}'),
    ("seed", "seven"),
    ("score", "many"),
    ("seconds", "long"),
    ("moves", -3),
]


@pytest.mark.parametrize(("column", "value"), BAD_VALUES)
def test_a_bad_row_makes_the_file_untrusted_and_it_is_left_untouched(
    tmp_path: pathlib.Path, column: str, value: object
) -> None:
    path = _games_file(tmp_path / "records.sqlite3", 3)
    with closing(sqlite3.connect(path)) as connection:
        connection.execute(f"UPDATE games SET {column} = ? WHERE id = 2", (value,))
        connection.commit()
    refused_untouched(path, "row 2", "damaged")


def test_a_row_that_goes_bad_after_opening_raises_records_error(records: Records) -> None:
    records.add(won_game(), finished_at=at(0))
    with closing(sqlite3.connect(records.path)) as connection:
        connection.execute("UPDATE games SET record = 'not json'")
        connection.commit()
    for read in (records.stats, records.history, records.by_rules, records.by_rules_and_scoring):
        with pytest.raises(RecordsError, match="row 1"):
            read()


# ------------------------------------------------------------------------- hardening: damaged files


@pytest.mark.parametrize("cut", [1, 100, 4096, 3 * 4096])
def test_a_file_cut_short_is_never_written_to(tmp_path: pathlib.Path, cut: int) -> None:
    path = _games_file(tmp_path / "records.sqlite3")
    damaged = path.read_bytes()[:-cut]
    path.write_bytes(damaged)
    with pytest.raises(RecordsError) as info:
        Records(path).add(won_game())
    assert info.value.code == "damaged"
    assert path.read_bytes() == damaged


def test_a_file_from_a_newer_version_says_so_in_its_code(tmp_path: pathlib.Path) -> None:
    path = _games_file(tmp_path / "records.sqlite3", 1)
    with sqlite3.connect(path) as connection:
        connection.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    with pytest.raises(RecordsError) as info:
        Records(path)
    assert info.value.code == "newer"


def test_another_programs_database_is_not_taken_over(tmp_path: pathlib.Path) -> None:
    path = tmp_path / "records.sqlite3"
    with closing(sqlite3.connect(path)) as connection:
        connection.execute("CREATE TABLE recipes (name TEXT)")
        connection.commit()
    refused_untouched(path, "not a PatienceLab records database", "not-records")


# ------------------------------------------------------------------------- hardening: scoring schemes


def test_bests_and_streaks_are_kept_apart_by_scoring_scheme(records: Records) -> None:
    vegas = Rules.preset("standard", scoring="vegas")
    records.add(won_game(), finished_at=at(0))  # standard scoring: 10 points
    records.add(won_game(vegas), finished_at=at(1))  # vegas: -52 + 5 = -47
    records.add(abandoned_game(rules=vegas), finished_at=at(2))
    standard = records.stats(rules=Rules.preset("standard"))
    assert (standard.played, standard.best_score, standard.current_streak) == (1, 10, 1)
    in_vegas = records.stats(rules=vegas)
    assert (in_vegas.played, in_vegas.won, in_vegas.best_score) == (2, 1, -47)
    assert (in_vegas.current_streak, in_vegas.longest_streak) == (0, 1)
    assert records.stats(rules="standard", draw=1, scoring="vegas") == in_vegas
    groups = records.by_rules_and_scoring()
    assert set(groups) == {("standard", 1, "standard"), ("standard", 1, "vegas")}
    assert groups["standard", 1, "vegas"] == in_vegas
    assert [row.scoring for row in records.history()] == ["standard", "vegas", "vegas"]


def test_custom_scoring_tables_are_told_apart(records: Records) -> None:
    from patiencelab.core.rules import Scoring

    generous = Rules(scoring=Scoring(name="mine", to_foundation=100))
    stingy = Rules(scoring=Scoring(name="mine", to_foundation=1))
    records.add(won_game(generous), finished_at=at(0))
    records.add(won_game(stingy), finished_at=at(1))
    assert records.stats(rules=generous).best_score == 100
    assert records.stats(rules=stingy).best_score == 1
    assert scoring_key(generous) != scoring_key(stingy)
    assert scoring_key(Rules.preset("traditional", scoring="vegas")) == "vegas"


def test_a_version_1_file_migrates_and_keeps_its_rows(tmp_path: pathlib.Path) -> None:
    path = tmp_path / "records.sqlite3"
    vegas = Rules.preset("traditional", scoring="vegas")
    games = [(won_game(), 10), (won_game(vegas), -47), (abandoned_game(seed=4), 0)]
    with closing(sqlite3.connect(path)) as connection:
        for statement in V1_SCHEMA:
            connection.execute(statement)
        for minute, (game, score) in enumerate(games):
            connection.execute(
                "INSERT INTO games (finished_at, rules_key, draw, rules, deal, seed, outcome, score, moves, seconds,"
                " record) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    at(minute).isoformat(),
                    game.rules.preset_name,
                    game.rules.draw,
                    json.dumps(game.rules.to_json(), sort_keys=True),
                    game.deal,
                    game.seed,
                    "won" if game.is_won else "abandoned",
                    score,
                    game.moves,
                    0.0,
                    json.dumps(game.record(), sort_keys=True),
                ),
            )
        connection.execute("PRAGMA user_version = 1")
        connection.commit()
    records = Records(path)
    with closing(sqlite3.connect(path)) as connection:
        assert connection.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    rows = records.history()
    assert [(row.rules_key, row.scoring, row.score, row.outcome) for row in rows] == [
        ("standard", "standard", 10, "won"),
        ("traditional", "vegas", -47, "won"),
        ("standard", "standard", 0, "abandoned"),
    ]
    assert rows[2].seed == 4
    assert records.stats(rules=vegas).best_score == -47
    records.add(won_game(vegas), finished_at=at(9))
    assert records.stats(rules=vegas).played == 2


# The first schema, as PatienceLab 0.1 wrote it (kept here so that the migration test never changes with the code).
V1_SCHEMA = (
    """CREATE TABLE games (
        id INTEGER PRIMARY KEY,
        finished_at TEXT NOT NULL,
        rules_key TEXT NOT NULL,
        draw INTEGER NOT NULL,
        rules TEXT NOT NULL,
        deal TEXT,
        seed INTEGER,
        outcome TEXT NOT NULL CHECK (outcome IN ('won', 'lost', 'abandoned')),
        score INTEGER NOT NULL,
        moves INTEGER NOT NULL,
        seconds REAL NOT NULL,
        record TEXT NOT NULL
    )""",
    "CREATE INDEX games_by_rules ON games (rules_key, draw, finished_at)",
    "CREATE UNIQUE INDEX games_unique ON games (finished_at, record)",
)


# ----------------------------------------------------------------------- hardening: seeds and imports


@pytest.mark.parametrize("seed", [2**63 - 1, 2**63, 2**64 + 5, 10**40, -(2**63) - 1])
def test_a_seed_of_any_size_is_stored_and_read_back(records: Records, tmp_path: pathlib.Path, seed: int) -> None:
    row = records.add(abandoned_game(seed=seed), finished_at=at(0))
    assert row.seed == seed
    assert Records(records.path).history()[0].seed == seed
    export = tmp_path / "export.json"
    records.export_json(export)
    fresh = Records(tmp_path / "fresh.sqlite3")
    assert fresh.import_file(export) == 1
    assert fresh.history()[0].seed == seed


def _export(records: Records, tmp_path: pathlib.Path) -> dict[str, Any]:
    records.add(won_game(), finished_at=at(0))
    export = tmp_path / "good.json"
    records.export_json(export)
    data: dict[str, Any] = json.loads(export.read_text())
    return data


JUNK_GAME_CHANGES: dict[str, dict[str, Any]] = {
    "a score too big for SQLite": {"score": 10**30},
    "a score below SQLite's integers": {"score": -(10**30)},
    "an endless time": {"seconds": "inf"},
    "a negative time": {"seconds": -1},
    "not a number": {"seconds": "NaN"},
    "a list for a score": {"score": [1]},
    "a time that is a number": {"finished_at": 5},
    "a record nested very deep": {"record": "__DEEP__"},
    "a record as deeply nested text": {"record": "[" * 50_000 + "]" * 50_000},
    "moves as a huge number in text": {"moves": "9" * 5000},
    "no record": {"record": None},
}


@pytest.mark.parametrize("case", sorted(JUNK_GAME_CHANGES))
def test_a_junk_game_is_refused_and_nothing_is_imported(records: Records, tmp_path: pathlib.Path, case: str) -> None:
    data = _export(records, tmp_path)
    good = dict(data["games"][0], finished_at=at(5).isoformat())
    data["games"] = [good, {**data["games"][0], **JUNK_GAME_CHANGES[case]}]
    junk = tmp_path / "junk.json"
    junk.write_text(json.dumps(data).replace('"__DEEP__"', "[" * 50_000 + "]" * 50_000))
    before = [row.to_json() for row in records.history()]
    with pytest.raises(RecordsError):
        records.import_file(junk)
    assert [row.to_json() for row in records.history()] == before


JUNK_FILES: dict[str, bytes] = {
    "games is a number": b'{"format": "patiencelab-records", "version": 1, "games": 5}',
    "games is an object": b'{"format": "patiencelab-records", "version": 1, "games": {"a": 1}}',
    "a game is a number": b'{"format": "patiencelab-records", "version": 1, "games": [5]}',
    "no format": b'{"games": []}',
    "a list": b"[1, 2, 3]",
    "not UTF-8": b'{"format": "patiencelab-records", "games": ["\xff\xfe"]}',
    "nested very deep": b"[" * 100_000 + b"]" * 100_000,
    "a huge number": b"1" + b"0" * 100_000,
    "empty": b"",
    "NUL bytes": b"\x00" * 100,
}


@pytest.mark.parametrize("case", sorted(JUNK_FILES))
@pytest.mark.parametrize("suffix", [".json", ".csv"])
def test_a_junk_file_raises_records_error(records: Records, tmp_path: pathlib.Path, case: str, suffix: str) -> None:
    records.add(won_game(), finished_at=at(0))
    junk = tmp_path / f"junk{suffix}"
    junk.write_bytes(JUNK_FILES[case])
    with pytest.raises(RecordsError):
        records.import_file(junk)
    assert len(records) == 1


def test_an_import_file_that_is_too_big_is_refused_unread(records: Records, tmp_path: pathlib.Path) -> None:
    big = tmp_path / "big.json"
    with big.open("wb") as handle:
        handle.truncate(MAX_IMPORT_BYTES + 1)  # sparse: nothing is written
    with pytest.raises(RecordsError, match="too big"):
        records.import_file(big)
    with pytest.raises(RecordsError, match="cannot read"):
        records.import_file(tmp_path)  # a folder
    with pytest.raises(RecordsError, match="cannot read"):
        records.import_file(tmp_path / "missing.json")


def test_a_csv_import_with_a_huge_field_is_refused(records: Records, tmp_path: pathlib.Path) -> None:
    export = tmp_path / "export.csv"
    records.add(won_game(), finished_at=at(0))
    records.export_csv(export)
    text = export.read_text()
    export.write_text(text.replace("standard", "s" * 200_000, 1))
    with pytest.raises(RecordsError):
        records.import_file(export)
    assert len(records) == 1


JSON_LEAVES = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(10**40), max_value=10**40)
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(max_size=20)
    | st.sampled_from(["won", "lost", "abandoned", "2026-01-01T12:00:00+00:00", "standard", "d", "t1-f", "inf"])
)
JUNK_JSON = st.recursive(
    JSON_LEAVES,
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4),
    max_leaves=20,
)
GAME_KEYS = ("finished_at", "outcome", "score", "moves", "seconds", "record", "rules", "seed", "deal", "rules_key")


@st.composite
def junk_exports(draw: st.DrawFn) -> bytes:
    """Text or bytes that an import may meet: broken exports built from a good one, and plain junk."""
    kind = draw(st.sampled_from(["game", "games", "top", "text", "bytes", "deep", "long"]))
    good = json.loads(GOOD_EXPORT)
    if kind == "game":
        game = good["games"][0]
        for key in draw(st.lists(st.sampled_from(GAME_KEYS), min_size=1, max_size=3, unique=True)):
            if draw(st.booleans()):
                game[key] = draw(JUNK_JSON)
            else:
                game.pop(key, None)
        return json.dumps(good).encode()
    if kind == "games":
        good["games"] = draw(JUNK_JSON)
        return json.dumps(good).encode()
    if kind == "top":
        return json.dumps(draw(JUNK_JSON)).encode()
    if kind == "text":
        return draw(st.text(max_size=200)).encode()
    if kind == "bytes":
        return draw(st.binary(max_size=200))
    if kind == "deep":
        depth = draw(st.integers(min_value=1_000, max_value=200_000))
        return ("[" * depth + "]" * depth).encode()
    size = draw(st.integers(min_value=100_000, max_value=2_000_000))
    key = draw(st.sampled_from(["finished_at", "outcome", "score", "moves", "seconds", "record"]))
    return json.dumps({**good, "games": [{**good["games"][0], key: draw(st.sampled_from("x9[")) * size}]}).encode()


GOOD_EXPORT = json.dumps(
    {
        "format": "patiencelab-records",
        "version": 1,
        "games": [
            {
                "finished_at": T0.isoformat(),
                "outcome": "won",
                "score": 10,
                "moves": 1,
                "seconds": 1.5,
                "record": won_game().record(),
            }
        ],
    }
)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=junk_exports(), suffix=st.sampled_from([".json", ".csv"]))
def test_fuzzed_imports_raise_only_records_error_and_change_nothing(
    tmp_path: pathlib.Path, data: bytes, suffix: str
) -> None:
    path = tmp_path / "fuzz.sqlite3"
    records = Records(path)
    if not len(records):
        records.add(abandoned_game(), finished_at=at(0))
    before = [row.to_json() for row in records.history()]
    junk = tmp_path / f"junk{suffix}"
    junk.write_bytes(data)
    try:
        added = records.import_file(junk)
    except RecordsError:
        assert [row.to_json() for row in records.history()] == before, "a refused import changes nothing"
        return
    after = [row.to_json() for row in records.history()]  # the junk happened to be a good export
    assert after[: len(before)] == before and len(after) == len(before) + added
