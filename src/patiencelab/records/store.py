"""The records database: the SQLite file, where it lives, how it is opened, checked and migrated, its browser copy,
and :class:`Records`, the one object a user holds, which keeps every write in one transaction and hands the games
in play (:mod:`~patiencelab.records.in_play`), the figures (:mod:`~patiencelab.records.stats`) and export and
import (:mod:`~patiencelab.records.transfer`) the connection or the rows they work on.

The database lives in the platform's user data directory (``PATIENCELAB_HOME`` overrides it, and so does the
``path`` argument). Every write is one transaction; SQLite's write-ahead log and a busy timeout let two kernels
write at once.

In a browser's Python (Pyodide in JupyterLite) that folder is in memory and gone after a reload, and SQLite cannot
work on the browser-backed ``/drive`` folder (it needs locks and partial writes). There the default database is
kept in memory and, after every write, copied whole to ``/drive/patiencelab-records.sqlite3`` (the site's
browser storage, a file the player sees and may download); the next page load starts from that copy, checked
like any file.

Nothing but :class:`~patiencelab.records.rows.RecordsError` comes out of :class:`Records` for a file or folder that
cannot be used: a folder where the file should be, a home folder that is a file or cannot be made, a folder that
may not be written, a file that is not a records database, is damaged or was written by a newer PatienceLab. Its
``code`` says which (:data:`~patiencelab.records.rows.RECORDS_ERROR_CODES`), for a notice in the player's language.

A file is trusted only after it has been checked whole when it is opened: its size is a whole number of pages
and agrees with the page count in its header, ``PRAGMA integrity_check`` finds nothing, and every row reads back
as a game (its time, rules, outcome, numbers and record). A file that fails any of this is never written to and
is left byte for byte as it was. One bad row makes the whole file untrusted rather than being skipped: a row
that cannot be read is a sign of damage (or of a program that does not know the schema), and bests and streaks
computed around a hole would be wrong without saying so. A row that goes bad after the file was opened (another
program wrote it) makes every read raise :class:`~patiencelab.records.rows.RecordsError` naming the row.
"""

from __future__ import annotations

import datetime as dt
import errno
import os
import pathlib
import sqlite3
import sys
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import closing, contextmanager
from typing import Any

from patiencelab.core.game import Klondike
from patiencelab.core.limits import check_number, check_path, check_switch, check_whole
from patiencelab.core.rules import MAX_DRAW, Rules
from patiencelab.records import in_play, stats, transfer
from patiencelab.records.in_play import Choice, check_names
from patiencelab.records.rows import (
    OUTCOMES,
    GameInPlay,
    GameRow,
    Outcome,
    RecordsError,
    row_from_values,
    rules_key,
    scoring_key,
)
from patiencelab.records.schema import SCHEMA_VERSION, insert_game, migrate, outcome_of
from patiencelab.records.stats import Stats

__all__ = ["BROWSER_COPY", "Records", "default_path"]


def default_path() -> pathlib.Path:
    """``$PATIENCELAB_HOME/records.sqlite3``, else the platform's user data directory."""
    home = os.environ.get("PATIENCELAB_HOME")
    if home:
        return pathlib.Path(home).expanduser() / "records.sqlite3"
    import platformdirs

    return pathlib.Path(platformdirs.user_data_dir("patiencelab", appauthor=False)) / "records.sqlite3"


#: The name of the browser's copy of the default database (in JupyterLite's ``/drive``).
BROWSER_COPY = "patiencelab-records.sqlite3"


def _browser_copy() -> pathlib.Path | None:
    """Where the default database is kept between page loads in a browser's Python, else ``None``."""
    if sys.platform != "emscripten" or os.environ.get("PATIENCELAB_HOME"):
        return None
    drive = pathlib.Path("/drive")
    return drive / BROWSER_COPY if drive.is_dir() else None


class Records:
    """The records database. ``Records()`` opens (or creates) the default one.

    Opening checks the whole file (see the module's docstring); every method raises :class:`RecordsError`, and
    nothing else, when the file or its folder cannot be used.

    >>> import tempfile, pathlib
    >>> records = Records(pathlib.Path(tempfile.mkdtemp()) / "r.sqlite3")
    >>> records.stats().played
    0
    """

    def __init__(self, path: str | os.PathLike[str] | None = None, *, timeout: float = 30.0) -> None:
        self._timeout = check_number(timeout, "timeout (seconds)", RecordsError)
        try:
            self.path = check_path(path, "the records path", RecordsError) if path is not None else default_path()
        except RuntimeError as exc:  # PATIENCELAB_HOME=~someone who does not exist
            raise RecordsError(f"cannot find the records folder: {exc}", "unreachable") from None
        #: In a browser: the file in browser storage the database is copied to after every write.
        self._copy = _browser_copy() if path is None else None
        self._open_and_migrate()

    def __repr__(self) -> str:
        return f"Records({str(self.path)!r})"

    # -------------------------------------------------------------------------------------------- storage

    def _error(self, what: str, exc: BaseException | str, code: str) -> RecordsError:
        return RecordsError(f"{what} {self.path}: {exc}", code, self.path)

    def _not_records(self) -> RecordsError:
        return RecordsError(
            f"{self.path} is not a PatienceLab records database; it is left untouched", "not-records", self.path
        )

    def _damaged(self, problem: str) -> RecordsError:
        return RecordsError(
            f"the records database {self.path} is damaged ({problem}); it is left untouched", "damaged", self.path
        )

    @contextmanager
    def _connect(self) -> Iterator[sqlite3.Connection]:
        try:
            connection = sqlite3.connect(self.path, timeout=self._timeout, isolation_level=None)
        except (sqlite3.Error, ValueError) as exc:
            raise self._error("cannot open the records database", exc, _sqlite_code(exc, "unreachable")) from None
        with closing(connection):
            try:
                connection.execute(f"PRAGMA busy_timeout = {int(self._timeout * 1000)}")
                yield connection
            except (sqlite3.Error, UnicodeError) as exc:
                # SQLite reports text it cannot decode (a damaged schema) as a UnicodeDecodeError
                raise self._error("cannot use the records database", exc, _sqlite_code(exc, "failed")) from None

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
        self._save_copy()

    def _restore_copy(self) -> None:
        """In a browser, start from the copy the last page load left (when this session has no database yet)."""
        if self._copy is None or self.path.exists():
            return
        try:
            data = self._copy.read_bytes()
        except FileNotFoundError:
            return
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.path.write_bytes(data)

    def _save_copy(self) -> None:
        """In a browser, copy the whole database to browser storage (after a write)."""
        if self._copy is None:
            return
        try:
            self._copy.write_bytes(self.path.read_bytes())
        except OSError as exc:
            raise self._error("cannot keep a copy in browser storage of", exc.strerror or exc, "unreachable") from None

    def _open_and_migrate(self) -> None:
        try:
            if self.path.is_dir():
                raise RecordsError(
                    f"{self.path} is a folder, not a PatienceLab records database", "not-records", self.path
                )
            self._restore_copy()
            if self.path.exists():
                self._check_file()
            else:
                self.path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            code = "read-only" if exc.errno in (errno.EACCES, errno.EPERM, errno.EROFS) else "unreachable"
            raise self._error("cannot make or open the records database", exc.strerror or exc, code) from None
        with self._transaction() as connection:
            migrate(connection, self._version(connection))
        with self._connect() as connection:
            # a copy must be the whole database in one file, so no write-ahead log then
            connection.execute(f"PRAGMA journal_mode = {'DELETE' if self._copy is not None else 'WAL'}")

    def _version(self, connection: sqlite3.Connection) -> int:
        """The schema version of the file, after checking that it is a records file this version may write."""
        version = int(connection.execute("PRAGMA user_version").fetchone()[0])
        if version > SCHEMA_VERSION:
            raise RecordsError(
                f"the records database {self.path} was written by a newer PatienceLab (schema {version}; this "
                f"version reads up to {SCHEMA_VERSION}); it is left untouched",
                "newer",
                self.path,
            )
        tables = {name for (name,) in connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        if (version == 0 and tables) or (version > 0 and "games" not in tables):
            raise self._not_records()
        return version

    def _check_file(self) -> None:
        """Raise :class:`RecordsError` for a file that is not a sound records database, before anything writes.

        Checked: the SQLite header, a size that is a whole number of pages and agrees with the header's page
        count, the schema version, ``PRAGMA integrity_check``, and every row.
        """
        with self.path.open("rb") as handle:
            header = handle.read(100)
        if not header:
            return  # an empty file: a new database
        if header[:16] != b"SQLite format 3\x00" or len(header) < 100:
            raise self._not_records()
        problem = _size_problem(header, self.path)
        if problem:
            raise self._damaged(problem)
        with self._connect() as connection:
            version = self._version(connection)
            found = [text for (text,) in connection.execute("PRAGMA integrity_check(5)")]
            if found != ["ok"]:
                raise self._damaged("; ".join(found))
            if version > 0:
                cursor = connection.execute("SELECT * FROM games ORDER BY id")
                names = [d[0] for d in cursor.description]
                for values in cursor:
                    self._row(dict(zip(names, values)))

    def _row(self, values: Mapping[str, Any]) -> GameRow:
        try:
            return row_from_values(values)
        except (KeyError, TypeError, ValueError, OverflowError, RecursionError) as exc:
            raise RecordsError(
                f"row {values.get('id')} of the records database {self.path} cannot be read ({exc}); the file is "
                "not trusted and is left untouched",
                "damaged",
                self.path,
            ) from None

    # ---------------------------------------------------------------------------------------------- write

    def add(
        self,
        game: Klondike,
        *,
        outcome: Outcome | None = None,
        finished_at: dt.datetime | None = None,
        board: str | None = None,
    ) -> GameRow:
        """Store ``game`` (won, lost when stuck, else abandoned, unless ``outcome`` says) and return its row; in
        the same transaction, ``board`` (its name in the games in play) has no game in play any more.
        """
        _check_game(game)
        if board is not None:
            check_names(board=board)
        if outcome is None:
            outcome = outcome_of(game)
        if outcome not in OUTCOMES:
            raise RecordsError(f"outcome must be one of {', '.join(OUTCOMES)}, not {outcome!r}")
        if finished_at is not None and not isinstance(finished_at, dt.datetime):
            raise RecordsError(f"finished_at must be a datetime, not {type(finished_at).__name__}")
        when = finished_at or dt.datetime.now(dt.timezone.utc)
        with self._transaction() as connection:
            new_id = insert_game(connection, game, outcome, when)
            if board is not None:
                in_play.drop(connection, board)
        return self._row_by_id(new_id)

    # ------------------------------------------------------------------- games in play (records/in_play.py)

    def keep(self, board: str, game: Klondike, *, process: str = "") -> None:
        """Keep ``game`` as the game ``board`` (any short name of a board) has in play, replacing the last one;
        ``process`` names the interpreter that runs the board. An offer of it to another board, or its having
        been declined, stays as it was.
        """
        check_names(board=board, process=process)
        _check_game(game)
        with self._transaction() as connection:
            in_play.keep(connection, board, game, process)

    def drop(self, board: str) -> None:
        """Forget the game ``board`` has in play (it was stored, or taken over by another board)."""
        check_names(board=board)
        with self._transaction() as connection:
            in_play.drop(connection, board)

    def in_play(self) -> list[GameInPlay]:
        """The games boards left in play, the last played first; a row that does not replay is left out."""
        with self._connect() as connection:
            return in_play.games_in_play(connection)

    def claim(self, board: str, process: str, choose: Callable[[GameInPlay], Choice]) -> GameInPlay | None:
        """Offer ``board`` (of the interpreter ``process``) one game in play, in one transaction: ``choose`` says
        of each game, the last played first, whether to offer it, store it as abandoned (lost when no move was
        left) or leave it. The first game chosen for an offer is offered to ``board`` alone from now on (until
        :meth:`take`, :meth:`decline` or another claim) and returned as it was before, its earlier offer
        included; ``None`` when none is.
        """
        check_names(board=board, process=process)
        if not callable(choose):
            raise RecordsError(f"choose must be a function of a game in play, not {type(choose).__name__}")
        with self._transaction() as connection:
            return in_play.claim(connection, board, process, choose)

    def take(self, offered: str, board: str, process: str) -> GameInPlay | None:
        """``board`` takes the game in play of the board ``offered``, if it is still offered to ``board``: from
        now on it is ``board``'s game in play. Returns the game as it is now, or ``None`` (no longer offered).
        """
        check_names(offered=offered, board=board, process=process)
        with self._transaction() as connection:
            return in_play.take(connection, offered, board, process)

    def decline(self, offered: str, board: str, *, store: bool) -> GameInPlay | None:
        """``board`` does not take the game in play of the board ``offered``, if it is still offered to ``board``:
        with ``store``, it is stored as abandoned (lost when no move was left) and is in play no more; else its
        board still plays it, so it stays in play, offered to no board ever again. Returns the game or ``None``.
        """
        check_names(offered=offered, board=board)
        check_switch(store, "store", RecordsError)
        with self._transaction() as connection:
            return in_play.decline(connection, offered, board, store)

    def withdraw(self, board: str) -> None:
        """The game offered to ``board`` is offered to it no more (the board is closed): it may be offered again."""
        check_names(board=board)
        with self._transaction() as connection:
            in_play.withdraw(connection, board)

    # ----------------------------------------------------------------------------------------------- read

    def _rows(self, where: str = "", params: Sequence[Any] = ()) -> list[GameRow]:
        with self._connect() as connection:
            cursor = connection.execute(f"SELECT * FROM games {where} ORDER BY finished_at, id", params)
            names = [d[0] for d in cursor.description]
            return [self._row(dict(zip(names, values))) for values in cursor.fetchall()]

    def _row_by_id(self, row_id: int) -> GameRow:
        rows = self._rows("WHERE id = ?", (row_id,))
        if not rows:
            raise self._error("a stored game went missing from", "another program changed it", "failed")
        return rows[0]

    def history(
        self, *, rules: str | Rules | None = None, draw: int | None = None, scoring: str | None = None
    ) -> list[GameRow]:
        """The stored games, oldest first; ``rules`` (a preset name or :class:`Rules`), ``draw`` and ``scoring``
        (a :func:`scoring_key`) filter. A :class:`Rules` filters by its scoring scheme too.
        """
        clauses, params = _filters(rules, draw, scoring)
        return self._rows(clauses, params)

    def __len__(self) -> int:
        with self._connect() as connection:
            return int(connection.execute("SELECT COUNT(*) FROM games").fetchone()[0])

    # --------------------------------------------------------------------------------- stats (records/stats.py)

    def stats(self, *, rules: str | Rules | None = None, draw: int | None = None, scoring: str | None = None) -> Stats:
        """Games played and won, best score, fewest moves and fastest win, and the winning streaks.

        Filtered as :meth:`history`: give a :class:`Rules` (or ``scoring``) for bests that mean something, since
        points of different scoring schemes cannot be compared.
        """
        return stats.stats_of(self.history(rules=rules, draw=draw, scoring=scoring))

    def by_rules(self) -> dict[tuple[str, int], Stats]:
        """:class:`Stats` for every rule set and draw count played, every scoring scheme together.

        For bests and streaks that compare like with like, use :meth:`by_rules_and_scoring`.
        """
        return stats.by_rules(self.history())

    def by_rules_and_scoring(self) -> dict[tuple[str, int, str], Stats]:
        """:class:`Stats` for every rule set, draw count and scoring scheme played."""
        return stats.by_rules_and_scoring(self.history())

    def plot(self, *, rules: str | Rules | None = None, draw: int | None = None) -> Any:
        """Score and win rate over time (needs matplotlib: ``pip install patiencelab[plot]``)."""
        return stats.plot(self.history(rules=rules, draw=draw))

    # ----------------------------------------------------------------------- export (records/transfer.py)

    def export_json(self, path: str | os.PathLike[str]) -> int:
        """Write every game to a JSON file; returns how many."""
        return transfer.export_json(self.history(), path)

    def export_csv(self, path: str | os.PathLike[str]) -> int:
        """Write every game to a CSV file (rules and record as JSON text); returns how many."""
        return transfer.export_csv(self.history(), path)

    def import_file(self, path: str | os.PathLike[str]) -> int:
        """Add the games of a JSON or CSV export that are not stored yet; returns how many were added.

        Every row is checked (its record must replay, its numbers must fit) before anything is written; any
        file that is not a good export raises :class:`RecordsError` and adds nothing. Files over
        :data:`~patiencelab.records.rows.MAX_IMPORT_BYTES` are refused unread.
        """
        rows = transfer.read_import(path)
        with self._transaction() as connection:
            return transfer.add_imported(connection, rows)


def _filters(rules: str | Rules | None, draw: int | None, scoring: str | None) -> tuple[str, list[Any]]:
    clauses: list[str] = []
    params: list[Any] = []
    if isinstance(rules, Rules):
        scoring = scoring_key(rules) if scoring is None else scoring
        rules = rules_key(rules)
    for name, value in (("rules", rules), ("scoring", scoring)):
        if value is not None and not isinstance(value, str):
            raise RecordsError(f"{name} must be text or Rules, not {type(value).__name__}")
    if draw is not None:
        check_whole(draw, "draw", low=1, high=MAX_DRAW, error=RecordsError)
    filters: tuple[tuple[str, object], ...] = (("rules_key", rules), ("draw", draw), ("scoring", scoring))
    for column, wanted in filters:
        if wanted is not None:
            clauses.append(f"{column} = ?")
            params.append(wanted)
    return ("WHERE " + " AND ".join(clauses)) if clauses else "", params


def _check_game(game: object) -> None:
    if not isinstance(game, Klondike):
        raise RecordsError(f"only a Klondike game can be stored, not {type(game).__name__}")


def _sqlite_code(exc: BaseException, default: str) -> str:
    """The :data:`RECORDS_ERROR_CODES` entry for an error SQLite raised."""
    text = str(exc).lower()
    if isinstance(exc, UnicodeError) or any(w in text for w in ("malformed", "not a database", "decode", "corrupt")):
        return "damaged"
    if "readonly" in text or "read-only" in text:
        return "read-only"
    if "unable to open" in text:
        return "unreachable"
    return default


def _size_problem(header: bytes, path: pathlib.Path) -> str | None:
    """What is wrong with the size of the database file at ``path`` whose first 100 bytes are ``header``."""
    journal = path.with_name(path.name + "-journal")
    if journal.exists() and journal.stat().st_size:
        return None  # a write was cut off: SQLite rolls the journal back on the first read, then it is checked
    page_size = int.from_bytes(header[16:18], "big")
    page_size = 65536 if page_size == 1 else page_size
    if page_size < 512 or page_size & (page_size - 1):
        return f"its header gives a page size of {page_size}"
    size = path.stat().st_size
    if size % page_size:
        return f"its size, {size} bytes, is not a whole number of {page_size}-byte pages: it was cut short or added to"
    pages = int.from_bytes(header[28:32], "big")
    count_is_valid = header[92:96] == header[24:28] and pages > 0
    wal = path.with_name(path.name + "-wal")
    if count_is_valid and size < pages * page_size and not (wal.exists() and wal.stat().st_size):
        # with a write-ahead log in use, a checkpoint may be growing the file right now: SQLite checks it then
        return f"it holds {size // page_size} pages where its header counts {pages}: it was cut short"
    return None
