"""The records database's schema: its tables, the migrations that bring a file of an older version up to this one,
and the statement that adds a game to the stored games. Everything here works on a connection the caller opened
(:class:`~patiencelab.records.store.Records` opens it, checks the file and holds the transaction).
"""

from __future__ import annotations

import datetime as dt
import json
import sqlite3
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from patiencelab.core.game import Klondike
from patiencelab.core.rules import Rules
from patiencelab.records.rows import Outcome, game_columns, scoring_key

__all__ = ["SCHEMA_VERSION", "insert_game", "insert_row", "migrate", "outcome_of"]

#: The schema this version of PatienceLab writes; older databases are migrated up to it.
SCHEMA_VERSION = 4


def _fill_scoring(connection: sqlite3.Connection) -> None:
    """Migration 2: name the scoring scheme of every stored game, from its rules."""
    for row_id, rules in connection.execute("SELECT id, rules FROM games").fetchall():
        key = scoring_key(Rules.from_json(json.loads(rules)))
        connection.execute("UPDATE games SET scoring = ? WHERE id = ?", (key, row_id))


_MIGRATIONS: dict[int, Sequence[str | Callable[[sqlite3.Connection], None]]] = {
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
    2: (
        # bests and streaks are per scoring scheme; seeds beyond SQLite's integers are kept as text
        "ALTER TABLE games ADD COLUMN scoring TEXT NOT NULL DEFAULT 'standard'",
        "ALTER TABLE games ADD COLUMN big_seed TEXT",
        _fill_scoring,
        "CREATE INDEX games_by_scheme ON games (rules_key, draw, scoring, finished_at)",
    ),
    3: (
        # the game each board has in play, kept on every move: a board after a restart offers to continue it
        """CREATE TABLE in_play (
            board TEXT PRIMARY KEY,
            saved_at TEXT NOT NULL,
            seconds REAL NOT NULL,
            record TEXT NOT NULL
        )""",
    ),
    4: (
        # which interpreter keeps each game in play, which board it is offered to (one at a time), and whether
        # it was declined while its board still played it: a game is offered once and stored once
        "ALTER TABLE in_play ADD COLUMN process TEXT NOT NULL DEFAULT ''",
        "ALTER TABLE in_play ADD COLUMN offered_to TEXT",
        "ALTER TABLE in_play ADD COLUMN offered_process TEXT",
        "ALTER TABLE in_play ADD COLUMN declined INTEGER NOT NULL DEFAULT 0",
    ),
}


def migrate(connection: sqlite3.Connection, version: int) -> None:
    """Bring a database of schema ``version`` (0 for a new file) up to :data:`SCHEMA_VERSION`, in the caller's
    transaction."""
    for target in range(version + 1, SCHEMA_VERSION + 1):
        for step in _MIGRATIONS[target]:
            step(connection) if callable(step) else connection.execute(step)
    if version != SCHEMA_VERSION:
        connection.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")


def outcome_of(game: Klondike) -> Outcome:
    """How ``game`` ends if it is stored now: won, lost when no move is left, else abandoned."""
    return "won" if game.is_won else "lost" if game.is_stuck else "abandoned"


def insert_row(connection: sqlite3.Connection, row: Mapping[str, Any], *, again: bool = False) -> sqlite3.Cursor:
    """Insert the columns ``row`` into the games; with ``again``, a game stored already (the same record at the same
    time) is left as it is."""
    return connection.execute(
        f"INSERT {'OR IGNORE ' if again else ''}INTO games ({', '.join(row)}) VALUES ({', '.join('?' * len(row))})",
        tuple(row.values()),
    )


def insert_game(
    connection: sqlite3.Connection, game: Klondike, outcome: Outcome | None, when: dt.datetime, *, again: bool = False
) -> int:
    """Insert ``game`` into the games (as :func:`outcome_of` says, unless ``outcome`` does); its id. With ``again``,
    a game stored already (the same record at the same time) is left as it is (id 0).
    """
    if outcome is None:
        outcome = outcome_of(game)
    row = game_columns(game, when, outcome, game.score, round(game.seconds, 3), game.record())
    return int(insert_row(connection, row, again=again).lastrowid or 0)
