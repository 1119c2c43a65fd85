"""Personal records: every finished or abandoned game in an SQLite database that survives restarts.

The database lives in the platform's user data directory (``PATIENCELAB_HOME`` overrides it, and so does the
``path`` argument). Every write is one transaction; SQLite's write-ahead log and a busy timeout let two kernels
write at once. A database that cannot be read, or that a newer PatienceLab wrote, is never written to: opening it
raises :class:`RecordsError` and the file is left as it was.
"""

from __future__ import annotations

import csv
import datetime as dt
import json
import os
import pathlib
import sqlite3
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import closing, contextmanager
from dataclasses import asdict, dataclass, fields
from typing import Any, Literal

from patiencelab.errors import PatienceError
from patiencelab.game import Klondike
from patiencelab.rules import Rules

__all__ = ["SCHEMA_VERSION", "GameRow", "Records", "RecordsError", "Stats", "default_path"]

Outcome = Literal["won", "lost", "abandoned"]
OUTCOMES: tuple[Outcome, ...] = ("won", "lost", "abandoned")

#: The schema this version of PatienceLab writes; older databases are migrated up to it.
SCHEMA_VERSION = 1

_MIGRATIONS: dict[int, Sequence[str]] = {
    # version reached -> statements that bring the previous version to it
    1: (
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
    ),
}


class RecordsError(PatienceError):
    """The records database cannot be used (unreadable, from a newer version, or a bad import file)."""


def default_path() -> pathlib.Path:
    """``$PATIENCELAB_HOME/records.sqlite3``, else the platform's user data directory."""
    home = os.environ.get("PATIENCELAB_HOME")
    if home:
        return pathlib.Path(home).expanduser() / "records.sqlite3"
    import platformdirs

    return pathlib.Path(platformdirs.user_data_dir("patiencelab", appauthor=False)) / "records.sqlite3"


def rules_key(rules: Rules) -> str:
    """A short name for a rule set, for grouping: the preset name, or ``custom``."""
    return rules.preset_name or "custom"


@dataclass(frozen=True, slots=True)
class GameRow:
    """One stored game."""

    id: int
    finished_at: dt.datetime
    rules_key: str
    draw: int
    rules: dict[str, Any]
    deal: str | None
    seed: int | None
    outcome: Outcome
    score: int
    moves: int
    seconds: float
    record: dict[str, Any]

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict (the time as ISO 8601)."""
        data = asdict(self)
        data["finished_at"] = self.finished_at.isoformat()
        return data


@dataclass(frozen=True, slots=True)
class Stats:
    """What the records say about one rule set and draw count (or about all games)."""

    played: int
    won: int
    best_score: int | None
    fewest_moves: int | None
    fastest_win: float | None
    current_streak: int
    longest_streak: int

    @property
    def win_rate(self) -> float | None:
        """Games won / games played, or ``None`` before the first game."""
        return self.won / self.played if self.played else None


def streaks(outcomes: Iterable[str]) -> tuple[int, int]:
    """(current, longest) run of wins in ``outcomes`` (oldest first); anything but a win ends a run."""
    current = longest = 0
    for outcome in outcomes:
        current = current + 1 if outcome == "won" else 0
        longest = max(longest, current)
    return current, longest


class Records:
    """The records database. ``Records()`` opens (or creates) the default one.

    >>> import tempfile, pathlib
    >>> records = Records(pathlib.Path(tempfile.mkdtemp()) / "r.sqlite3")
    >>> records.stats().played
    0
    """

    def __init__(self, path: str | os.PathLike[str] | None = None, *, timeout: float = 30.0) -> None:
        self.path = pathlib.Path(path) if path is not None else default_path()
        self._timeout = timeout
        self._open_and_migrate()

    def __repr__(self) -> str:
        return f"Records({str(self.path)!r})"

    # -------------------------------------------------------------------------------------------- storage

    @contextmanager
    def _connect(self) -> Iterator[sqlite3.Connection]:
        try:
            connection = sqlite3.connect(self.path, timeout=self._timeout, isolation_level=None)
        except sqlite3.Error as exc:
            raise RecordsError(f"cannot open the records database {self.path}: {exc}") from None
        with closing(connection):
            try:
                connection.execute(f"PRAGMA busy_timeout = {int(self._timeout * 1000)}")
                yield connection
            except sqlite3.DatabaseError as exc:
                raise RecordsError(f"the records database {self.path} cannot be used: {exc}") from None

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        with self._connect() as connection:
            connection.execute("BEGIN IMMEDIATE")
            try:
                yield connection
            except BaseException:
                connection.execute("ROLLBACK")
                raise
            connection.execute("COMMIT")

    def _open_and_migrate(self) -> None:
        if self.path.exists():
            self._check_readable()
        else:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        with self._transaction() as connection:
            version = connection.execute("PRAGMA user_version").fetchone()[0]
            if version > SCHEMA_VERSION:
                raise RecordsError(
                    f"the records database {self.path} was written by a newer PatienceLab (schema {version}; this "
                    f"version reads up to {SCHEMA_VERSION}); it is left untouched"
                )
            for target in range(version + 1, SCHEMA_VERSION + 1):
                for statement in _MIGRATIONS[target]:
                    connection.execute(statement)
            if version != SCHEMA_VERSION:
                connection.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        with self._connect() as connection:
            connection.execute("PRAGMA journal_mode = WAL")

    def _check_readable(self) -> None:
        """Raise :class:`RecordsError` for a file that is not an SQLite database, before anything writes."""
        with self.path.open("rb") as handle:
            header = handle.read(16)
        if header and header != b"SQLite format 3\x00":
            raise RecordsError(f"{self.path} is not a PatienceLab records database; it is left untouched")
        with self._connect() as connection:
            connection.execute("PRAGMA schema_version").fetchone()
            if connection.execute("PRAGMA quick_check").fetchone()[0] != "ok":
                raise RecordsError(f"the records database {self.path} is damaged; it is left untouched")

    # ---------------------------------------------------------------------------------------------- write

    def add(
        self,
        game: Klondike,
        *,
        outcome: Outcome | None = None,
        finished_at: dt.datetime | None = None,
    ) -> GameRow:
        """Store ``game`` (won, lost when stuck, else abandoned, unless ``outcome`` says) and return its row."""
        if not isinstance(game, Klondike):
            raise RecordsError(f"only a Klondike game can be stored, not {type(game).__name__}")
        if outcome is None:
            outcome = "won" if game.is_won else "lost" if game.is_stuck else "abandoned"
        if outcome not in OUTCOMES:
            raise RecordsError(f"outcome must be one of {', '.join(OUTCOMES)}, not {outcome!r}")
        when = finished_at or dt.datetime.now(dt.timezone.utc)
        row = _columns(game, when, outcome, game.score, round(game.seconds, 3), game.record())
        with self._transaction() as connection:
            cursor = connection.execute(
                f"INSERT INTO games ({', '.join(row)}) VALUES ({', '.join('?' * len(row))})", tuple(row.values())
            )
            new_id = cursor.lastrowid
        return self._row_by_id(int(new_id or 0))

    # ----------------------------------------------------------------------------------------------- read

    def _rows(self, where: str = "", params: Sequence[Any] = ()) -> list[GameRow]:
        with self._connect() as connection:
            cursor = connection.execute(f"SELECT * FROM games {where} ORDER BY finished_at, id", params)
            names = [d[0] for d in cursor.description]
            return [_to_row(dict(zip(names, values))) for values in cursor.fetchall()]

    def _row_by_id(self, row_id: int) -> GameRow:
        return self._rows("WHERE id = ?", (row_id,))[0]

    def history(self, *, rules: str | Rules | None = None, draw: int | None = None) -> list[GameRow]:
        """The stored games, oldest first; ``rules`` (a preset name or :class:`Rules`) and ``draw`` filter."""
        clauses, params = _filters(rules, draw)
        return self._rows(clauses, params)

    def __len__(self) -> int:
        with self._connect() as connection:
            return int(connection.execute("SELECT COUNT(*) FROM games").fetchone()[0])

    def stats(self, *, rules: str | Rules | None = None, draw: int | None = None) -> Stats:
        """Games played and won, best score, fewest moves and fastest win, and the winning streaks."""
        return _stats(self.history(rules=rules, draw=draw))

    def by_rules(self) -> dict[tuple[str, int], Stats]:
        """:class:`Stats` for every rule set and draw count played."""
        groups: dict[tuple[str, int], list[GameRow]] = {}
        for row in self.history():
            groups.setdefault((row.rules_key, row.draw), []).append(row)
        return {key: _stats(rows) for key, rows in sorted(groups.items())}

    # --------------------------------------------------------------------------------------------- export

    def export_json(self, path: str | os.PathLike[str]) -> int:
        """Write every game to a JSON file; returns how many."""
        rows = [row.to_json() for row in self.history()]
        pathlib.Path(path).write_text(
            json.dumps({"format": "patiencelab-records", "version": 1, "games": rows}, indent=1)
        )
        return len(rows)

    def export_csv(self, path: str | os.PathLike[str]) -> int:
        """Write every game to a CSV file (rules and record as JSON text); returns how many."""
        rows = self.history()
        names = [f.name for f in fields(GameRow) if f.name != "id"]
        with pathlib.Path(path).open("w", newline="") as handle:
            writer = csv.DictWriter(handle, fieldnames=names)
            writer.writeheader()
            for row in rows:
                data = row.to_json()
                data["rules"] = json.dumps(data["rules"], sort_keys=True)
                data["record"] = json.dumps(data["record"], sort_keys=True)
                writer.writerow({name: data[name] for name in names})
        return len(rows)

    def import_file(self, path: str | os.PathLike[str]) -> int:
        """Add the games of a JSON or CSV export that are not stored yet; returns how many were added.

        Every row is checked (its record must replay) before anything is written; a bad file adds nothing.
        """
        source = pathlib.Path(path)
        try:
            if source.suffix.lower() == ".csv":
                with source.open(newline="") as handle:
                    raw: list[dict[str, Any]] = list(csv.DictReader(handle))
            else:
                data = json.loads(source.read_text())
                if not isinstance(data, dict) or data.get("format") != "patiencelab-records":
                    raise RecordsError(f"{source} is not a PatienceLab records export")
                raw = data.get("games", [])
        except (OSError, ValueError, csv.Error) as exc:
            raise RecordsError(f"cannot read {source}: {exc}") from None
        rows = [_imported_row(item, number) for number, item in enumerate(raw, 1)]
        added = 0
        with self._transaction() as connection:
            for row in rows:
                cursor = connection.execute(
                    f"INSERT OR IGNORE INTO games ({', '.join(row)}) VALUES ({', '.join('?' * len(row))})",
                    tuple(row.values()),
                )
                added += cursor.rowcount
        return added

    def plot(self, *, rules: str | Rules | None = None, draw: int | None = None) -> Any:
        """Score and win rate over time (needs matplotlib: ``pip install patiencelab[plot]``)."""
        try:
            import matplotlib.pyplot as plt
        except ImportError:
            raise RecordsError("records.plot() needs matplotlib: pip install 'patiencelab[plot]'") from None
        rows = self.history(rules=rules, draw=draw)
        figure, (scores, rates) = plt.subplots(2, 1, sharex=True, figsize=(8, 5))
        numbers = list(range(1, len(rows) + 1))
        scores.plot(numbers, [r.score for r in rows], marker="o", linestyle="-", color="#1f6f43")
        scores.set_ylabel("score")
        won = 0
        running = []
        for i, row in enumerate(rows, 1):
            won += row.outcome == "won"
            running.append(won / i)
        rates.plot(numbers, running, color="#b3261e")
        rates.set_ylim(0, 1)
        rates.set_ylabel("win rate")
        rates.set_xlabel("game")
        figure.suptitle("PatienceLab records")
        figure.tight_layout()
        return figure


def _filters(rules: str | Rules | None, draw: int | None) -> tuple[str, list[Any]]:
    clauses: list[str] = []
    params: list[Any] = []
    if rules is not None:
        clauses.append("rules_key = ?")
        params.append(rules_key(rules) if isinstance(rules, Rules) else rules)
    if draw is not None:
        clauses.append("draw = ?")
        params.append(draw)
    return ("WHERE " + " AND ".join(clauses)) if clauses else "", params


def _stats(rows: Sequence[GameRow]) -> Stats:
    wins = [row for row in rows if row.outcome == "won"]
    current, longest = streaks(row.outcome for row in rows)
    return Stats(
        played=len(rows),
        won=len(wins),
        best_score=max((row.score for row in rows), default=None),
        fewest_moves=min((row.moves for row in wins), default=None),
        fastest_win=min((row.seconds for row in wins), default=None),
        current_streak=current,
        longest_streak=longest,
    )


def _to_row(values: dict[str, Any]) -> GameRow:
    return GameRow(
        id=values["id"],
        finished_at=dt.datetime.fromisoformat(values["finished_at"]),
        rules_key=values["rules_key"],
        draw=values["draw"],
        rules=json.loads(values["rules"]),
        deal=values["deal"],
        seed=values["seed"],
        outcome=values["outcome"],
        score=values["score"],
        moves=values["moves"],
        seconds=values["seconds"],
        record=json.loads(values["record"]),
    )


def _imported_row(item: object, number: int) -> dict[str, Any]:
    """Check one imported game (its record must replay to its stated moves) and return the columns to insert."""
    if not isinstance(item, dict):
        raise RecordsError(f"game {number}: expected an object")
    try:
        record = item["record"]
        record = json.loads(record) if isinstance(record, str) else record
        game = Klondike.from_record(record)
        finished = dt.datetime.fromisoformat(str(item["finished_at"]))
        outcome = str(item["outcome"])
        if outcome not in OUTCOMES:
            raise RecordsError(f"outcome {outcome!r} is not one of {', '.join(OUTCOMES)}")
        moves = int(item["moves"])
        if moves != game.moves:
            raise RecordsError(f"'moves' is {moves} but the record has {game.moves}")
        converters: dict[str, Callable[[Any], Any]] = {"score": int, "seconds": float}
        values = {key: convert(item[key]) for key, convert in converters.items()}
    except (KeyError, TypeError, ValueError, PatienceError) as exc:
        raise RecordsError(f"game {number} cannot be imported: {exc}") from None
    return _columns(game, finished, outcome, values["score"], values["seconds"], record)


def _columns(
    game: Klondike, when: dt.datetime, outcome: str, score: int, seconds: float, record: Mapping[str, Any]
) -> dict[str, Any]:
    """The columns of one stored game."""
    return {
        "finished_at": when.isoformat(),
        "rules_key": rules_key(game.rules),
        "draw": game.rules.draw,
        "rules": json.dumps(game.rules.to_json(), sort_keys=True),
        "deal": game.deal,
        "seed": game.seed,
        "outcome": outcome,
        "score": score,
        "moves": game.moves,
        "seconds": seconds,
        "record": json.dumps(record, sort_keys=True),
    }
