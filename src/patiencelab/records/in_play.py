"""The games in play: the game each board has in play, kept on every move, so that a board after a reload or a
kernel restart offers to continue one; each offered to one board at a time, then taken, declined, or stored as
abandoned, so that a game is offered once and stored once.

Each statement here runs in the transaction of the caller, which has checked the names and the game first
(:class:`~patiencelab.records.store.Records` does: ``keep``, ``drop``, ``in_play``, ``claim``, ``take``,
``decline`` and ``withdraw`` are its methods).
"""

from __future__ import annotations

import datetime as dt
import json
import sqlite3
from collections.abc import Callable, Iterator
from typing import Literal

from patiencelab.core.game import Klondike
from patiencelab.core.limits import check_text
from patiencelab.records.rows import GameInPlay, RecordsError, game_in_play
from patiencelab.records.schema import insert_game

__all__ = [
    "MAX_NAME",
    "Choice",
    "check_names",
    "claim",
    "decline",
    "drop",
    "games_in_play",
    "keep",
    "take",
    "withdraw",
]

#: What :meth:`~patiencelab.records.store.Records.claim` does with a game in play: offer it to the board, store it
#: as abandoned, or leave it.
Choice = Literal["offer", "store", "skip"]

#: The most characters of a board's or a process's name in the games in play.
MAX_NAME = 200

#: The columns of a game in play, in the order :func:`~patiencelab.records.rows.game_in_play` reads them.
_COLUMNS = "board, saved_at, seconds, record, process, offered_to, offered_process, declined"


def check_names(**names: object) -> None:
    """Raise :class:`RecordsError` unless each of ``names`` is text of at most :data:`MAX_NAME` characters."""
    for what, name in names.items():
        check_text(name, MAX_NAME, what, RecordsError)


def keep(connection: sqlite3.Connection, board: str, game: Klondike, process: str) -> None:
    """Keep ``game`` as the game ``board`` has in play, replacing the last one; ``process`` names the interpreter
    that runs the board. An offer of it to another board, or its having been declined, stays as it was.
    """
    when = dt.datetime.now(dt.timezone.utc).isoformat()
    row = (str(board), when, round(game.seconds, 3), json.dumps(game.record(), separators=(",", ":")), process)
    connection.execute(
        "INSERT INTO in_play (board, saved_at, seconds, record, process) VALUES (?, ?, ?, ?, ?) "
        "ON CONFLICT (board) DO UPDATE SET saved_at = excluded.saved_at, seconds = excluded.seconds, "
        "record = excluded.record, process = excluded.process",
        row,
    )


def drop(connection: sqlite3.Connection, board: str) -> None:
    """Forget the game ``board`` has in play."""
    connection.execute("DELETE FROM in_play WHERE board = ?", (str(board),))


def games_in_play(connection: sqlite3.Connection) -> list[GameInPlay]:
    """The games boards left in play, the last played first; a row that does not replay is left out."""
    return list(_replayed(connection))


def claim(
    connection: sqlite3.Connection, board: str, process: str, choose: Callable[[GameInPlay], Choice]
) -> GameInPlay | None:
    """Offer ``board`` (of the interpreter ``process``) the first game in play ``choose`` chooses for an offer, the
    last played first, storing as abandoned those it chooses to store; the game as it was before, or ``None``.
    """
    for found in _replayed(connection):
        choice = choose(found)
        if choice == "store":
            _store(connection, found)
        elif choice == "offer":
            connection.execute(
                "UPDATE in_play SET offered_to = ?, offered_process = ? WHERE board = ?",
                (str(board), process, found.board),
            )
            return found
    return None


def take(connection: sqlite3.Connection, offered: str, board: str, process: str) -> GameInPlay | None:
    """``board`` takes the game in play of the board ``offered`` if it is offered to ``board``; the game or
    ``None``."""
    found = _offered(connection, offered, board)
    if found is not None:
        drop(connection, board)
        connection.execute(
            "UPDATE in_play SET board = ?, process = ?, offered_to = NULL, offered_process = NULL WHERE board = ?",
            (str(board), process, found.board),
        )
    return found


def decline(connection: sqlite3.Connection, offered: str, board: str, store: bool) -> GameInPlay | None:
    """``board`` does not take the game in play of the board ``offered`` if it is offered to ``board``: stored as
    abandoned with ``store``, else declined for good; the game or ``None``."""
    found = _offered(connection, offered, board)
    if found is not None and store:
        _store(connection, found)
    elif found is not None:
        connection.execute(
            "UPDATE in_play SET declined = 1, offered_to = NULL, offered_process = NULL WHERE board = ?",
            (found.board,),
        )
    return found


def withdraw(connection: sqlite3.Connection, board: str) -> None:
    """The game offered to ``board`` is offered to it no more: it may be offered again."""
    connection.execute(
        "UPDATE in_play SET offered_to = NULL, offered_process = NULL WHERE offered_to = ?", (str(board),)
    )


def _replayed(connection: sqlite3.Connection) -> Iterator[GameInPlay]:
    """The games in play, the last played first, each replayed when it is reached; rows that do not replay left out."""
    rows = connection.execute(f"SELECT {_COLUMNS} FROM in_play ORDER BY saved_at DESC").fetchall()
    return filter(None, map(game_in_play, rows))


def _store(connection: sqlite3.Connection, found: GameInPlay) -> None:
    """Store ``found`` as abandoned (lost when no move was left), once, and forget it as a game in play."""
    insert_game(connection, found.game(), None, found.saved_at, again=True)
    drop(connection, found.board)


def _offered(connection: sqlite3.Connection, offered: str, board: str) -> GameInPlay | None:
    """The game in play of the board ``offered`` if it is offered to ``board``."""
    row = connection.execute(
        f"SELECT {_COLUMNS} FROM in_play WHERE board = ? AND offered_to = ?", (str(offered), str(board))
    ).fetchone()
    return game_in_play(row) if row is not None else None
